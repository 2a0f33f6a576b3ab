"""The recovery file written ahead when a long timed transcript opens (``RecoverySlot.prime``, as
the window's Autosaver does 1.5 s after opening): its CPU time on its own thread, its wall time,
and how late a 1 ms tick on the main thread comes meanwhile (the interpreter held by the writer),
alone or beside a thread of pure Python standing in for the restoration that streams in then.

    PYTHONPATH=. python tests/perf/bench_write_ahead.py [--words 100000] [--format srt] [--busy]

Asserts nothing: timings vary by machine and load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gui_bench import transcript_file  # noqa: E402

from editor.core.formats import read_any  # noqa: E402
from editor.core.recovery.slots import RecoverySlot, RecoveryState  # noqa: E402


def once(path: Path, folder: Path, busy: bool) -> tuple[float, float, float, int]:
    """(CPU s, wall s, longest main-thread tick ms, bytes) of one write ahead."""
    doc = read_any(path)
    slot = RecoverySlot.claim(folder)
    state = RecoveryState.capture(doc, source=path)
    done = threading.Event()
    took: list[float] = []

    def write() -> None:
        cpu, wall = time.thread_time(), time.perf_counter()
        slot.prime(state)
        took.extend((time.thread_time() - cpu, time.perf_counter() - wall))
        done.set()

    def spin() -> None:  # a worker's Python: small steps, never blocking
        while not done.is_set():
            sum(i * i for i in range(200))

    spinner = threading.Thread(target=spin) if busy else None
    if spinner is not None:
        spinner.start()
    threading.Thread(target=write).start()
    worst = 0.0
    while not done.is_set():  # the UI thread's view: how late does a 1 ms tick come?
        t = time.perf_counter()
        time.sleep(0.001)
        worst = max(worst, time.perf_counter() - t)
    if spinner is not None:
        spinner.join()
    size = slot.clean_path.stat().st_size
    slot.discard()
    slot.close()
    return took[0], took[1], worst * 1000, size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", choices=("txt", "srt", "vosk", "whisper"), action="append")
    parser.add_argument("--words", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--busy", action="store_true", help="beside a thread of busy Python")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for fmt in args.format or ("srt", "vosk"):
            path = transcript_file(folder, fmt, args.words, 150)
            rows = []
            for _ in range(args.runs):
                load = os.getloadavg()[0]
                rows.append(once(path, folder / "recovery", args.busy))
                cpu, wall, tick, size = rows[-1]
                print(f"{fmt} (load {load:.1f}): CPU {cpu * 1000:.0f} ms, wall {wall * 1000:.0f} ms, "
                      f"longest tick {tick:.0f} ms, {size / 1e6:.1f} MB", flush=True)
            print(f"  {fmt} {args.words:,} words, median of {args.runs}: CPU "
                  f"{statistics.median(r[0] for r in rows) * 1000:.0f} ms, wall "
                  f"{statistics.median(r[1] for r in rows) * 1000:.0f} ms, longest tick "
                  f"{statistics.median(r[2] for r in rows):.0f} ms (worst "
                  f"{max(r[2] for r in rows):.0f})" + (", beside busy Python" if args.busy else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
