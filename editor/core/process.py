"""Everything that changes process-wide state, in one place: compute threads, the garbage
collector's policy, and the interpreter workaround the Qt bindings need.

Nothing here runs at import. The window calls :func:`configure_process` once when it starts
(``editor.gui.app.run``), so ``import editor.gui`` and ``stet --help`` leave the process as they
found it. Pure Python: no torch, no Qt (torch is only touched when it is already loaded).
"""

from __future__ import annotations

import ctypes
import gc
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from editor.core.threads import configure_threads

_BALLAST = 1 << 40  # a thousand billion calls before a count could come down to zero
#: How long (seconds) a thread that wants the GIL waits before the running thread must hand it
#: over, in the window's process (Python's default: 0.005). The Qt bindings let go of the GIL in
#: every Qt call, and the UI thread then waits up to this long to get it back while a worker runs
#: Python (reading a file, restoring, autosaving): a slice of view building of ~10 Qt calls took
#: 50-80 ms instead of 5 (tests/perf/bench_gui_stalls.py, opening 100,000 words).
GUI_SWITCH_INTERVAL = 0.0005
_configured: dict[str, int] = {}
_immortal = False
_holds: set[str] = set()  # who holds automatic collections off (hold_collections, collections_held)
_holds_lock = threading.Lock()


def configure_process(*, gui: bool = False) -> None:
    """Set up this process for Stet's work; the first call counts, later ones do nothing.

    ``gui``: the editor window runs here. The restoration model then gets one compute thread,
    decided once and before torch loads (:func:`editor.core.threads.configure_threads`: the
    person's OMP_NUM_THREADS wins, waiting threads sleep instead of spinning), so that the window's
    own thread keeps a core even on two; the Qt-bindings workaround
    (:func:`make_singletons_immortal`) is applied; and a thread waiting for the GIL gets it after
    ``GUI_SWITCH_INTERVAL`` rather than 5 ms, so that the UI thread, which lets go of it in every Qt
    call, is not held up by a worker thread many times per turn of the event loop. The commands
    that run the model call ``configure_threads`` when their work starts.
    """
    if _configured:
        return
    if gui:
        make_singletons_immortal()
        sys.setswitchinterval(GUI_SWITCH_INTERVAL)
        _configured["threads"] = configure_threads()
    _configured["gui"] = int(gui)


def configured_for_gui() -> bool:
    """Whether :func:`configure_process` set this process up for the window (its turns are then
    followed: editor.gui.base.turns)."""
    return bool(_configured.get("gui"))


def configured_threads() -> int | None:
    """The thread count :func:`configure_process` chose, or None when it chose none."""
    return _configured.get("threads")


def make_singletons_immortal() -> None:
    """A guard against a PySide6 6.12 bug on Python 3.11: every call of a Qt method that returns
    nothing (``label.setText``, ``app.processEvents``) drops one reference to ``None`` that it never
    took, so a long session ends in "Fatal Python error: none_dealloc". Python 3.12 made ``None``,
    ``True`` and ``False`` immortal; here they are given so many references that they effectively
    are. Done at most once per process."""
    global _immortal
    if _immortal or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return
    for obj in (None, True, False):
        ctypes.c_ssize_t.from_address(id(obj)).value += _BALLAST  # ob_refcnt is the first field
    _immortal = True


# -- the garbage collector ---------------------------------------------------------------------
# Full collections scan every token and suggestion of an open transcript: 100-300 ms on a long one,
# felt as a freeze. The window collects once when a transcript opens and freezes what exists, and
# holds collections off while a restoration streams suggestions in.

def collect_and_freeze() -> None:
    """Collect everything now, then keep what exists out of later collections."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def hold_collections(holder: str = "window") -> None:
    """No automatic collections until :func:`release_collections` of the same ``holder`` (which
    must follow). Holds by different holders add up: collections come back when the last ends."""
    with _holds_lock:
        _holds.add(holder)
        gc.disable()


def release_collections(holder: str = "window") -> None:
    """Undo :func:`hold_collections`, keeping what was made meanwhile out of later collections.
    Safe to call when nothing is held: a window that closes calls it whatever happened. The
    collector comes back on only when no other holder (:func:`collections_held`) still holds it."""
    with _holds_lock:
        _holds.discard(holder)
        gc.freeze()
        if not _holds:
            gc.enable()


@contextmanager
def collections_held(holder: str) -> Iterator[None]:
    """No automatic collections while a worker's allocation-heavy step runs (any thread). Such a
    step makes objects faster than they die, so each of its young passes leaves survivors, and the
    full passes that follow scan them all, holding the GIL the UI thread waits for: learning from
    a review of 100,000 words set off a full pass of 13-30 ms after every save. What the step
    leaves behind is not frozen: it is mostly garbage by the end, freed by reference counting, and
    young passes take the rest once collections are back."""
    with _holds_lock:
        _holds.add(holder)
        gc.disable()
    try:
        yield
    finally:
        with _holds_lock:
            _holds.discard(holder)
            if not _holds:
                gc.enable()


def freeze_survivors() -> None:
    """Keep what exists now out of later full collections (as :func:`release_collections` does),
    without turning collections on or off: a step that made many lasting objects (a save's
    encoded project) leaves the work after it (learning from the review) cheaper passes."""
    gc.freeze()
