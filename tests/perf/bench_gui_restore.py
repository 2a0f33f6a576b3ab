"""How long the UI thread stalls while the editor restores a long transcript.

A QTimer ticks every 5 ms on the UI thread; the longest gap between ticks while a restoration pass
runs is the worst stall a person would feel. Also times opening a 100,000-word document and
scrolling through it. Prints medians over several runs; asserts nothing (timings vary by machine).

    .venv/bin/python tests/perf/bench_gui_restore.py                 # the shipped model
    .venv/bin/python tests/perf/bench_gui_restore.py --model resources/models/stet-en-bilstm-crf
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gui_bench import Heartbeat, bench_window, model_name, raw_transcript  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="model directory (default: the shipped one; tiny: a tiny random one)")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--words", type=int, default=12_000)
    parser.add_argument("--paragraph", type=int, default=150, help="words per paragraph (0: one)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--big", type=int, default=100_000, help="words of the open/scroll test")
    args = parser.parse_args()

    from PySide6.QtCore import QEventLoop

    app, window, tmp, model = bench_window(args.model, args.device)

    def restore(path: Path) -> tuple[float, float]:
        loop = QEventLoop()
        window.restoration_finished.connect(loop.quit)
        beat = Heartbeat()
        began = time.perf_counter()
        window.open_path(path)  # reading the file is not part of the stall measured
        beat.start()
        loop.exec()
        window.restoration_finished.disconnect(loop.quit)
        assert window.restoration_status == "done", window.restoration_status
        return beat.stop(), time.perf_counter() - began

    restore(raw_transcript(tmp / "warm.txt", 300, args.paragraph))  # load the model first
    source = raw_transcript(tmp / "long.txt", args.words, args.paragraph)
    stalls, totals = [], []
    for run in range(args.runs):
        stall, total = restore(source)
        stalls.append(stall * 1000)
        totals.append(total)
        print(f"run {run + 1}: longest stall {stall * 1000:.1f} ms, pass {total:.2f} s, "
              f"{len(window.transcript.pending())} suggestions", flush=True)
    print(f"{args.words} words, model {model_name(model)}: median longest stall "
          f"{statistics.median(stalls):.1f} ms (max {max(stalls):.1f}), median pass "
          f"{statistics.median(totals):.2f} s")

    big = raw_transcript(tmp / "big.txt", args.big, args.paragraph)
    window.restoration.cancel(quiet=True)
    began = time.perf_counter()
    from editor.core.formats import read_any

    doc = read_any(big)
    read = time.perf_counter() - began
    began = time.perf_counter()
    window.set_transcript(doc, source=big, restore=False)
    app.processEvents()
    shown = time.perf_counter() - began
    bar = window.view.verticalScrollBar()
    beat = Heartbeat()
    beat.start()
    began = time.perf_counter()
    for k in range(41):
        bar.setValue(bar.maximum() * k // 40)
        app.processEvents()
    scroll = (time.perf_counter() - began) / 41
    print(f"{args.big} words: read {read:.2f} s, shown {shown:.2f} s, "
          f"one page of scrolling {scroll * 1000:.1f} ms on average")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
