"""Background work gives the window's long steps the interpreter (editor.gui.base.turns.WindowTurns):
it waits while one runs, never past TURN_S, never on the window's own thread, and not at all
outside the window's process. Qt-free: the turns belong to the window, not to Qt."""

import threading
import time
from types import SimpleNamespace

import pytest

from editor.core import process
from editor.gui.base import turns as turns_module
from editor.gui.base.turns import TURN_S, WindowTurns

# A thread started on a loaded machine (the suite beside other work) may first run tens of
# milliseconds later, when a step is already older than TURN_S and nothing waits any more: the
# tests that need a wait to happen make the turn this long instead, so that only the window's
# step can end it.
LONG_TURN_S = 30.0


@pytest.fixture
def turns(monkeypatch):
    """A window's steps followed, as in the window's process (configure_process(gui=True)),
    without changing this process's other state."""
    monkeypatch.setitem(process._configured, "gui", 1)
    turns = WindowTurns()
    assert turns.follow()
    yield turns
    turns.stop()


class _WatchedIdle(threading.Event):
    """The turns' "no step runs" event, telling when a background thread has begun to wait on it
    (a thread started on a loaded machine may first run after the step it should wait for)."""

    def __init__(self) -> None:
        super().__init__()
        self.set()
        self.waiting = threading.Event()

    def wait(self, timeout: float | None = None) -> bool:
        self.waiting.set()
        return super().wait(timeout)


def watch_waits(turns) -> _WatchedIdle:
    turns._idle = _WatchedIdle()
    return turns._idle


def on_a_thread(fn):
    out = []
    worker = threading.Thread(target=lambda: out.append(fn()))
    worker.start()
    return worker, out


def test_outside_the_window_s_process_nothing_waits():
    turns = WindowTurns()
    assert not turns.follow()  # configure_process(gui=True) never ran here
    with turns.busy():
        worker, out = on_a_thread(turns.give_way)
        worker.join(5)
    assert out == [0.0]


def test_background_work_waits_for_a_step_to_end(turns, monkeypatch):
    monkeypatch.setattr(turns_module, "TURN_S", LONG_TURN_S)
    idle = watch_waits(turns)
    with turns.busy():
        worker, out = on_a_thread(turns.give_way)
        assert idle.waiting.wait(5)
        time.sleep(0.01)
        assert worker.is_alive()  # waiting for the step
        with turns.busy():  # steps nest: the outer one's end counts
            pass
        time.sleep(0.005)
        assert worker.is_alive()
    worker.join(5)
    assert not worker.is_alive()  # the step's end let it go, long before its turn was over
    assert 0.015 <= out[0] < 5
    n, seconds = turns.given_way()
    assert n >= 1 and seconds >= out[0]


def test_nothing_waits_between_steps(turns):
    with turns.busy():
        pass
    worker, out = on_a_thread(turns.give_way)
    worker.join(5)
    assert out == [0.0]


def test_a_step_too_long_for_a_turn_lets_background_work_go_on(turns):
    """A window's thread that itself waits for the background work (a save finishing) is not kept
    waiting longer than TURN_S after its step began."""
    with turns.busy():
        worker, out = on_a_thread(turns.give_way)
        worker.join(5)  # the window's thread waits for the worker, as a save's end does
        assert not worker.is_alive()
        # TURN_S at most, and a loaded machine's delay in waking the thread (not the 5 s join)
        assert out[0] < TURN_S + 1.0
        time.sleep(0.01)
        worker, out = on_a_thread(turns.give_way)
        worker.join(5)
        assert out == [0.0]  # the step is older than TURN_S: no more waiting in it


def test_the_window_s_own_thread_never_waits(turns, monkeypatch):
    monkeypatch.setattr(turns_module, "TURN_S", LONG_TURN_S)
    with turns.busy():
        began = time.perf_counter()
        assert turns.give_way() == 0.0
        assert time.perf_counter() - began < 1.0


def test_a_closed_window_stops_the_waiting(turns):
    with turns.busy():
        turns.stop()
        worker, out = on_a_thread(turns.give_way)
        worker.join(5)
        assert out == [0.0]


def test_a_background_encoding_rests_for_the_window_s_steps_first(turns, monkeypatch):
    """The recovery file's encoding on a worker (recovery_state.Pacer) rests until a window step
    that runs has ended; between steps it rests as long as it worked, as outside the window."""
    from editor.core.recovery import state as recovery_state

    slept = []
    monkeypatch.setattr(recovery_state, "time", SimpleNamespace(sleep=slept.append,
                                                                perf_counter=time.perf_counter))

    def work_then_rest() -> float:
        pacer = recovery_state.Pacer(turns.give_way)
        pacer._since -= 2 * recovery_state.WORK_S  # as if it had worked that long
        began = time.perf_counter()
        pacer.rest()
        return time.perf_counter() - began

    worker, out = on_a_thread(work_then_rest)
    worker.join(5)
    assert len(slept) == 1  # no step ran: its rest
    monkeypatch.setattr(turns_module, "TURN_S", LONG_TURN_S)  # only the step's end lets it go
    idle = watch_waits(turns)
    with turns.busy():
        worker, out = on_a_thread(work_then_rest)
        assert idle.waiting.wait(5)
        time.sleep(0.01)
    worker.join(5)
    assert out[0] >= 0.01 and len(slept) == 1  # it waited for the step instead


def test_two_windows_turns_are_their_own(turns):
    """A step of one window keeps no other window's background work waiting."""
    other = WindowTurns()
    assert other.follow()
    with turns.busy():
        worker, out = on_a_thread(other.give_way)
        worker.join(5)
    assert out == [0.0]
    other.stop()


def test_outside_the_window_s_process_an_encoding_rests_as_long_as_it_worked(monkeypatch):
    from editor.core.recovery import state as recovery_state

    slept = []
    monkeypatch.setattr(recovery_state, "time", SimpleNamespace(sleep=slept.append,
                                                                perf_counter=time.perf_counter))

    def work_then_rest() -> None:
        pacer = recovery_state.Pacer()
        pacer._since -= 2 * recovery_state.WORK_S
        pacer.rest()

    worker, _ = on_a_thread(work_then_rest)
    worker.join(5)
    assert len(slept) == 1 and slept[0] >= 2 * recovery_state.WORK_S
