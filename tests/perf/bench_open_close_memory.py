"""Resident memory over many opens of a long transcript in one window: does a replaced document's
memory come back? (The window keeps what lasts out of the garbage collector's full passes with
gc.freeze, and a frozen object in a reference cycle is never collected until unfrozen.)

Each cycle opens a transcript of --words words as File > Open does, lets the tiny model restore it,
accepts all (so that there are undo steps), then saves the project, and waits until the replaced
document has been taken apart. After each cycle: the process's resident memory (VmRSS), the objects
gc.freeze keeps out of collections, and the objects the collector tracks. At the end the unreachable
objects still in memory: what a full pass over everything, frozen objects included, finds.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/perf/bench_open_close_memory.py --cycles 5

Asserts nothing: figures vary by machine.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gui_bench import bench_window, raw_transcript  # noqa: E402


def rss_mib() -> float:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=100_000)
    parser.add_argument("--paragraph", type=int, default=150)
    parser.add_argument("--cycles", type=int, default=5)
    args = parser.parse_args()

    from PySide6.QtCore import QEventLoop

    app, window, tmp, _model = bench_window("tiny", prefix="stet-memory-")

    def settle(seconds: float) -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            app.processEvents()
            time.sleep(0.002)

    def until(condition, limit: float = 600.0) -> None:
        end = time.perf_counter() + limit
        while not condition():
            if time.perf_counter() > end:
                raise TimeoutError("the window did not settle")
            settle(0.02)

    def opened(path: Path) -> None:
        loop = QEventLoop()
        window.restoration_finished.connect(loop.quit)
        window.open_reporting(path)
        loop.exec()
        window.restoration_finished.disconnect(loop.quit)

    sources = [raw_transcript(tmp / f"long-{k}.txt", args.words, args.paragraph) for k in range(2)]
    print(f"start: {rss_mib():.0f} MiB resident", flush=True)
    for cycle in range(args.cycles):
        opened(sources[cycle % 2])
        window.accept_all(0.0)
        until(lambda: not window.bulk_running)
        window.save(tmp / f"saved-{cycle}.stet")
        window.finish_saving()
        until(lambda: not window.disposer.busy and not window.learning.running)
        settle(1.0)
        print(f"cycle {cycle + 1}: {rss_mib():.0f} MiB resident, {gc.get_freeze_count():,} frozen, "
              f"{len(gc.get_objects()):,} tracked", flush=True)
    opened(raw_transcript(tmp / "short.txt", 300, args.paragraph))  # the last long one replaced
    until(lambda: not window.disposer.busy and not window.learning.running)
    window.autosaver.discard()
    settle(1.0)
    print(f"a short text open: {rss_mib():.0f} MiB resident, {gc.get_freeze_count():,} frozen, "
          f"{len(gc.get_objects()):,} tracked", flush=True)
    try:  # what the C allocator keeps of memory freed (glibc): given back to the system
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
        print(f"after malloc_trim: {rss_mib():.0f} MiB resident", flush=True)
    except (OSError, AttributeError):
        pass
    gc.unfreeze()
    unreachable = gc.collect()
    print(f"after unfreeze + collect: {unreachable:,} unreachable objects found, "
          f"{rss_mib():.0f} MiB resident", flush=True)
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
