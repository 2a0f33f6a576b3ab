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
import time
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


# -- the window's thread first -----------------------------------------------------------------
# A background thread running Python beside the window's thread takes the GIL every time the
# window's thread lets go of it in a Qt call, and the window's thread then waits a switch interval
# or more to get it back, each time: a turn of the event loop with 6-8 ms of the window's own CPU
# lasted 40-60 ms while a restoration's worker and the recovery file's write-ahead ran
# (tests/perf/bench_gui_stalls.py --threads). So the window marks its long steps
# (:func:`window_busy`: a slice of restoration results, of the suggestion list, a repaint of the
# text), and background work that can wait gives way between its pieces while one runs
# (:func:`give_way`). Qt's own event-loop signals cannot mark them: its timers and painting run
# after it says it is about to wait.
#: A background thread waits for the window's step to end at most until the step is this old: a
#: longer one is no ordinary step (the window's thread may itself wait for that thread: a save
#: finishing, a write in flight at close), and background work then goes on at once.
TURN_S = 0.03
_window_idle = threading.Event()
_window_idle.set()
_main_ident = threading.main_thread().ident
_turn = {"followed": False, "began": 0.0, "depth": 0}
_given: list[float] = [0, 0.0]  # times a background thread gave way, seconds it waited (``given_way``)


def follow_window_turns() -> bool:
    """Whether background work should give way to the window's steps (:func:`give_way`): only in
    the window's own process (after ``configure_process(gui=True)``). True when they are followed
    from now on."""
    _turn["followed"] = bool(_configured.get("gui"))
    return bool(_turn["followed"])


def follow_window_turns_now() -> bool:
    """Whether the window's steps are followed now (background work gives way to them)."""
    return bool(_turn["followed"])


def stop_following_window_turns() -> None:
    """Background work no longer waits for the window (it closes, or a test is done)."""
    _turn["followed"] = False
    _window_idle.set()


@contextmanager
def window_busy() -> Iterator[None]:
    """A step of the window's thread (it may nest) during which background work gives way."""
    if not _turn["followed"] or threading.get_ident() != _main_ident:
        yield
        return
    if _turn["depth"] == 0:
        _turn["began"] = time.perf_counter()
        _window_idle.clear()
    _turn["depth"] += 1
    try:
        yield
    finally:
        _turn["depth"] -= 1
        if _turn["depth"] == 0:
            _window_idle.set()


def give_way() -> float:
    """On a background thread, between two pieces of its Python work: while the window's thread
    runs a step (:func:`window_busy`), wait (holding no GIL) until it ends, at most until it is
    ``TURN_S`` old. Returns the seconds waited. On the window's own thread, or where the window's
    steps are not followed (commands, tests), it returns at once."""
    if _window_idle.is_set() or threading.get_ident() == _main_ident:
        return 0.0
    now = time.perf_counter()
    left = _turn["began"] + TURN_S - now
    if left <= 0.0:
        return 0.0
    _window_idle.wait(left)
    waited = time.perf_counter() - now
    _given[0] += 1  # (a count for benchmarks: a lost update between threads does no harm)
    _given[1] += waited
    return waited


def given_way() -> tuple[int, float]:
    """How many times background threads gave way to the window's steps, and the seconds they
    waited in all, since the process started (tests/perf/bench_gui_stalls.py reports them)."""
    return int(_given[0]), _given[1]


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
