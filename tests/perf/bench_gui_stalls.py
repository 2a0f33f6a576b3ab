"""The longest UI-thread stall (gap in the event loop) while the editor opens, restores, accepts all
and undoes on a long transcript: what a person feels as a frozen window.

A QTimer ticks every 5 ms on the UI thread; each step is started from the event loop and the
longest gap between ticks until it has settled is its stall. Medians (and worst) over --runs runs.
Asserts nothing: timings vary by machine and load.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/perf/bench_gui_stalls.py          # tiny model
    .venv/bin/python tests/perf/bench_gui_stalls.py --model resources/models/stet-en-bilstm-crf
    xvfb-run -a .venv/bin/python tests/perf/bench_gui_stalls.py   # under a real X server
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gui_bench import Heartbeat, bench_window, raw_transcript  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="model directory (default: a tiny random one)")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--words", type=int, default=100_000)
    parser.add_argument("--paragraph", type=int, default=150, help="words per paragraph (0: one)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    from PySide6.QtCore import QEventLoop, QTimer

    app, window, tmp, model = bench_window(args.model, args.device, prefix="stet-stalls-")

    def settle(seconds: float) -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            app.processEvents()
            time.sleep(0.002)

    def stall_of(step, settle_s: float = 0.3) -> float:
        """Longest gap (ms) from starting ``step`` on the event loop until it is done (a bulk
        step runs a slice at a time: ``bulk_finished``) and the window has settled."""
        beat = Heartbeat()
        beat.start()
        loop = QEventLoop()

        def finished() -> None:
            QTimer.singleShot(int(settle_s * 1000), loop.quit)

        signal = getattr(window, "bulk_finished", None)  # None: an older Stet, all at once
        if signal is None:
            QTimer.singleShot(20, lambda: (step(), finished()))
        else:
            signal.connect(finished)
            QTimer.singleShot(20, step)
        loop.exec()
        if signal is not None:
            signal.disconnect(finished)
        return beat.stop() * 1000

    def open_and_restore(path: Path) -> tuple[float, float]:
        """(stall while opening, longest stall while restoring), ms."""
        done = QEventLoop()
        window.restoration_finished.connect(done.quit)
        beat = Heartbeat()
        beat.start()
        marks: dict[str, float] = {}

        def started(_words: int) -> None:  # the end of showing the words
            marks["opened"] = time.perf_counter()

        window.restoration.started.connect(started)
        QTimer.singleShot(20, lambda: window.open_reporting(path))  # as File > Open does
        done.exec()
        window.restoration_finished.disconnect(done.quit)
        window.restoration.started.disconnect(started)
        beat.stop()
        assert window.restoration_status == "done", window.restoration_status
        # gaps are stamped at the tick that ends them: those begun before the words were shown
        # (reading on a worker thread, then showing them) are opening; later ones restoring
        stamps, t, opening, restoring = [], beat.started, 0.0, 0.0
        for gap in beat.gaps:
            t += gap
            stamps.append((t, gap))
        for end, gap in stamps:
            if end - gap <= marks["opened"]:  # the gap open_path fell in
                opening = max(opening, gap)
            else:
                restoring = max(restoring, gap)
        return opening * 1000, restoring * 1000

    open_and_restore(raw_transcript(tmp / "warm.txt", 300, args.paragraph))  # load the model
    source = raw_transcript(tmp / "long.txt", args.words, args.paragraph)
    rows: dict[str, list[float]] = {"open": [], "restore": [], "accept all": [], "undo": []}
    for run in range(args.runs):
        opening, restoring = open_and_restore(source)
        pending = len(window.transcript.pending())
        accepting = stall_of(lambda: window.accept_all(0.0))
        undoing = stall_of(window.undo)
        for key, value in zip(rows, (opening, restoring, accepting, undoing)):
            rows[key].append(value)
        print(f"run {run + 1}: open {opening:.0f} ms, restore {restoring:.0f} ms, accept all "
              f"{accepting:.0f} ms, undo {undoing:.0f} ms ({pending:,} suggestions)", flush=True)
        settle(0.2)
    platform = os.environ.get("QT_QPA_PLATFORM") or "xcb"
    print(f"{args.words:,} words, {args.paragraph or 'one'} per paragraph, model "
          f"{Path(model).name}, {platform}: longest UI stall, median of {args.runs} (worst)")
    for key, values in rows.items():
        print(f"  {key:<11} {statistics.median(values):6.0f} ms ({max(values):.0f})")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
