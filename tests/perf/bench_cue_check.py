"""Review > Check line length and reading speed on a long transcript: how long the UI thread is
held (the longest gap of a 5 ms heartbeat from the command until the list is shown), the UI
thread's CPU in that gap, and how long until the cues are listed (found on a pool thread).

    QT_QPA_PLATFORM=offscreen PYTHONPATH=. .venv/bin/python tests/perf/bench_cue_check.py [--words 100000]
        [--format srt|vosk] [--runs 5]

Asserts nothing: timings vary by machine and load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gui_bench import Heartbeat, bench_window, transcript_file  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--words", type=int, default=100_000)
    parser.add_argument("--format", default="srt", choices=("srt", "vosk"))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    from PySide6.QtWidgets import QApplication

    app, window, tmp, _model = bench_window("tiny")
    path = transcript_file(tmp, args.format, args.words, 150)
    window.open_path(path)
    while window.view.building:
        QApplication.processEvents()
    window.cancel_restoration()
    beat = Heartbeat()
    stalls, cpus, waits, rows = [], [], [], 0
    for _ in range(args.runs):
        for _ in range(50):
            QApplication.processEvents()
        beat.start()
        began = time.perf_counter()
        window.menu_actions["review.check_cues"].trigger()
        while not window.cue_check.running.done:
            app.processEvents()
            time.sleep(0.001)
        waits.append(time.perf_counter() - began)
        for _ in range(20):  # the list painted
            app.processEvents()
        beat._tick()  # the last gap, up to the list shown
        beat.stop()
        longest = max(range(len(beat.gaps)), key=beat.gaps.__getitem__)
        stalls.append(beat.gaps[longest] * 1000)
        cpus.append(beat.cpu_gaps[longest] * 1000)
        rows = window.cue_check.dialog.table.rowCount()
    print(f"{args.words:,} words ({args.format}), {rows:,} cues listed, {args.runs} runs")
    print(f"longest UI stall: median {statistics.median(stalls):.0f} ms, worst {max(stalls):.0f} ms "
          f"(UI-thread CPU in it: median {statistics.median(cpus):.0f} ms)")
    print(f"until listed: median {statistics.median(waits):.2f} s, worst {max(waits):.2f} s")
    window.close()


if __name__ == "__main__":
    main()
