"""The window's thread first: the window marks its long steps, and background work that can wait
gives way between its pieces while one runs.

A background thread running Python beside the window's thread takes the GIL every time the
window's thread lets go of it in a Qt call, and the window's thread then waits a switch interval
or more to get it back, each time: a turn of the event loop with 6-8 ms of the window's own CPU
lasted 40-60 ms while a restoration's worker and the recovery file's write-ahead ran
(tests/perf/bench_gui_stalls.py --threads). So the window marks its long steps (``busy``: a slice
of restoration results, of the suggestion list, a repaint of the text), and background work gives
way between its pieces while one runs (``give_way``, handed to it as a plain callable: a
restoration's ``pause``, a recovery write's rests). Qt's own event-loop signals cannot mark them:
its timers and painting run after it says it is about to wait.

One ``WindowTurns`` belongs to each window (``MainWindow.turns``), which passes it to the parts
that mark steps or give way.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from editor.core import process

#: A background thread waits for the window's step to end at most until the step is this old: a
#: longer one is no ordinary step (the window's thread may itself wait for that thread: a save
#: finishing, a write in flight at close), and background work then goes on at once.
TURN_S = 0.03


class WindowTurns:
    """The steps of one window's thread (the thread that makes it), and background work's waits
    for them. Not followed until ``follow()``: commands and tests that build no window, or a
    process not set up for the window, never wait."""

    def __init__(self) -> None:
        self._idle = threading.Event()
        self._idle.set()
        self._thread = threading.get_ident()
        self._followed = False
        self._began = 0.0
        self._depth = 0
        self._given = [0, 0.0]  # times background work gave way, seconds it waited

    def follow(self) -> bool:
        """Background work gives way to this window's steps from now on, where the process was set
        up for the window (``configure_process(gui=True)``). True when they are followed."""
        self._followed = process.configured_for_gui()
        return self._followed

    @property
    def followed(self) -> bool:
        return self._followed

    def stop(self) -> None:
        """Background work no longer waits for the window (it closes, or a test is done)."""
        self._followed = False
        self._idle.set()

    @contextmanager
    def busy(self) -> Iterator[None]:
        """A step of the window's thread (it may nest) during which background work gives way."""
        if not self._followed or threading.get_ident() != self._thread:
            yield
            return
        if self._depth == 0:
            self._began = time.perf_counter()
            self._idle.clear()
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if self._depth == 0:
                self._idle.set()

    def give_way(self) -> float:
        """On a background thread, between two pieces of its Python work: while the window's thread
        runs a step (``busy``), wait (holding no GIL) until it ends, at most until it is
        ``TURN_S`` old. Returns the seconds waited. On the window's own thread, or where its steps
        are not followed, it returns at once."""
        if self._idle.is_set() or threading.get_ident() == self._thread:
            return 0.0
        now = time.perf_counter()
        left = self._began + TURN_S - now
        if left <= 0.0:
            return 0.0
        self._idle.wait(left)
        waited = time.perf_counter() - now
        self._given[0] += 1  # (a count for benchmarks: a lost update between threads does no harm)
        self._given[1] += waited
        return waited

    def given_way(self) -> tuple[int, float]:
        """How many times background work gave way to this window's steps, and the seconds it
        waited in all (tests/perf/bench_gui_stalls.py reports them)."""
        return int(self._given[0]), float(self._given[1])
