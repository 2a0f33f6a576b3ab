"""The longest UI-thread stall (gap in the event loop) while the editor opens a long transcript in
each format it reads (text, SubRip, Vosk and Whisper JSON, a .stet project), and while it then
restores it: what a person feels as a frozen window.

A QTimer ticks every 5 ms on the UI thread (tests/perf/gui_bench.py); the file is opened as File >
Open does, and each gap until the view shows every word is opening's, later ones restoring's (a
project has its suggestions: nothing to restore). Medians (and worst) over --runs runs, with the
UI thread's own CPU time in the longest gap and the time it waited for a core (from the kernel's
run-queue figure): on a machine shared with other work, wall time less that wait is closer to what
an idle machine gives. Asserts nothing: timings vary by machine and load.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/perf/bench_open_stalls.py           # all formats
    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/perf/bench_open_stalls.py --format vosk
    xvfb-run -a .venv/bin/python tests/perf/bench_open_stalls.py   # under a real X server
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gui_bench import FORMATS, Heartbeat, bench_window, model_name, raw_transcript, transcript_file  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", choices=FORMATS, action="append",
                        help="the format to open (again for more; default: all)")
    parser.add_argument("--model", help="model directory (default: the shipped one; tiny: a tiny random one)")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--words", type=int, default=100_000)
    parser.add_argument("--paragraph", type=int, default=150, help="words per paragraph (0: one)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    from PySide6.QtCore import QEventLoop, QTimer

    app, window, tmp, model = bench_window(args.model, args.device, prefix="stet-open-")

    def open_and_restore(path: Path, words: int) -> tuple[tuple[float, ...], tuple[float, ...] | None]:
        """(wall, CPU, waiting for a core) of the longest gap while opening and of the longest
        while restoring (None when nothing is restored), ms. Opening lasts until the view shows
        every word and restoration, if any, has started."""
        done = QEventLoop()
        window.restoration_finished.connect(done.quit)
        beat = Heartbeat()
        marks: dict[str, float] = {}

        def shown(_doc: object) -> None:
            marks["shown"] = time.perf_counter()

        def watch() -> None:
            if "shown" in marks and "opened" not in marks and not window.view.building:
                marks["opened"] = time.perf_counter()

        watcher = QTimer()
        watcher.setInterval(1)
        watcher.timeout.connect(watch)
        watcher.start()
        window.transcript_opened.connect(shown)
        beat.start()
        QTimer.singleShot(20, lambda: window.open_reporting(path))  # as File > Open does
        done.exec()
        watcher.stop()
        window.restoration_finished.disconnect(done.quit)
        window.transcript_opened.disconnect(shown)
        beat.stop()
        assert window.restoration_status in ("done", "skipped"), window.restoration_status
        assert len(window.transcript) == words, (len(window.transcript), words)
        opened = marks.get("opened", marks["shown"])
        # gaps are stamped at the tick that ends them: those begun before every word was shown
        # are opening's, later ones restoring's
        t, worst = beat.started, [(0.0, 0.0, 0.0), (0.0, 0.0, 0.0)]
        for gap, cpu, queue in zip(beat.gaps, beat.cpu_gaps, beat.queue_gaps):
            t += gap
            phase = 0 if t - gap <= opened else 1
            if gap * 1000 > worst[phase][0]:
                worst[phase] = (gap * 1000, cpu * 1000, queue * 1000)
        restored = window.restoration_status == "done"
        return worst[0], worst[1] if restored else None

    open_and_restore(raw_transcript(tmp / "warm.txt", 300, args.paragraph), 300)  # load the model
    results: dict[str, tuple[list, list]] = {}
    for fmt in args.format or FORMATS:
        source = transcript_file(tmp, fmt, args.words, args.paragraph)
        if fmt == "stet":  # a project saved after restoring: every suggestion pending in it
            open_and_restore(source, args.words)
            source = window.save(tmp / "long.stet", wait=True)
        opening, restoring = results.setdefault(fmt, ([], []))
        for run in range(args.runs):
            load = os.getloadavg()[0]
            o, r = open_and_restore(source, args.words)
            opening.append(o)
            if r is not None:
                restoring.append(r)
            print(f"{fmt} run {run + 1} (load {load:.1f}): opening {o[0]:.0f} ms (CPU {o[1]:.0f}, "
                  f"waiting for a core {o[2]:.0f})"
                  + (f", restoring {r[0]:.0f} ms (CPU {r[1]:.0f}, waiting {r[2]:.0f})" if r else ""),
                  flush=True)
            window.set_transcript(type(window.transcript)(), restore=False)  # the next opens anew
            app.processEvents()
    platform = os.environ.get("QT_QPA_PLATFORM") or "xcb"
    print(f"{args.words:,} words, {args.paragraph or 'one'} per paragraph, model "
          f"{model_name(model)}, {platform}, load average {os.getloadavg()[0]:.1f} at the end: "
          f"longest UI stall, median of {args.runs} (worst); the UI thread's own CPU time in the "
          f"longest gap; the time it waited for a core in it")
    for fmt, (opening, restoring) in results.items():
        for what, rows in (("opening", opening), ("restoring", restoring)):
            if rows:
                wall = [r[0] for r in rows]
                print(f"  {fmt:<8} {what:<10} {statistics.median(wall):6.0f} ms ({max(wall):.0f})"
                      f"   CPU {statistics.median(r[1] for r in rows):5.0f} ms   waiting "
                      f"{statistics.median(r[2] for r in rows):5.0f} ms")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
