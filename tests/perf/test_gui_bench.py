"""The GUI benchmarks' own tools (run by naming this file: tests/perf is left out of the suite)."""

import sys
import threading
import time
import weakref
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gui_bench import GapSampler, stacks  # noqa: E402


class _Held:
    """A local of a sampled function; says on which thread it was freed."""

    freed_on: list[int] = []

    def __del__(self) -> None:
        _Held.freed_on.append(threading.get_ident())


def test_stacks_gives_each_thread_innermost_first():
    started, done = threading.Event(), threading.Event()

    def waits_here() -> None:
        started.set()
        done.wait()

    worker = threading.Thread(target=waits_here)
    worker.start()
    started.wait()
    try:
        now = stacks()
    finally:
        done.set()
        worker.join()
    mine = now[threading.get_ident()]
    assert mine[0][2] == "stacks" and mine[1][2] == "test_stacks_gives_each_thread_innermost_first"
    assert "waits_here" in [name for _file, _line, name in now[worker.ident][:4]]
    assert mine[1][0] == __file__ and mine[1][1] > 0


def test_the_gap_sampler_keeps_no_frame_of_the_thread_it_samples():
    """Sampled with sys._current_frames(), a function's frame outlived its return in the sampler's
    hands, and its locals with it: freed later, on the sampler's thread (a window's QPainter ended
    there under the UI thread's next paint, and the window died of SIGSEGV)."""
    _Held.freed_on.clear()
    alive: list[weakref.ref[_Held]] = []

    def sampled() -> None:
        held = _Held()
        alive.append(weakref.ref(held))
        time.sleep(0.0003)  # the sampler takes its samples meanwhile

    switch = sys.getswitchinterval()
    sys.setswitchinterval(0.0005)
    sampler = GapSampler()
    sampler.start()
    try:
        for _ in range(300):
            sampled()
            assert alive[-1]() is None, "a local of the sampled function outlived its return"
    finally:
        sampler.stop()
        sys.setswitchinterval(switch)
    assert set(_Held.freed_on) == {threading.get_ident()}
    assert any("sampled" in " ".join(stack) for _t, stack, _others in sampler.samples)
