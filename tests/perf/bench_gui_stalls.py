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

    def stall_of(step, settle_s: float = 0.3, bulk: bool = True) -> tuple[float, float]:
        """Longest gap (ms, wall and UI-thread CPU) from starting ``step`` on the event loop until
        it is done (a bulk step runs a slice at a time: ``bulk_finished``) and has settled."""
        beat = Heartbeat()
        beat.start()
        loop = QEventLoop()

        def finished() -> None:
            QTimer.singleShot(int(settle_s * 1000), loop.quit)

        # None: an older Stet, all at once (or a step that is not a bulk one)
        signal = getattr(window, "bulk_finished", None) if bulk else None
        if signal is None:
            QTimer.singleShot(20, lambda: (step(), finished()))
        else:
            signal.connect(finished)
            QTimer.singleShot(20, step)
        loop.exec()
        if signal is not None:
            signal.disconnect(finished)
        beat.stop()
        return max(beat.gaps) * 1000, max(beat.cpu_gaps) * 1000

    def open_and_restore(path: Path) -> tuple[float, float, float, float]:
        """(stall while opening, longest stall while restoring), ms, each wall and UI-thread CPU.
        Opening lasts until restoration has started and the view shows every word (a long text is
        shown a slice at a time, partly while the first results come in)."""
        done = QEventLoop()
        window.restoration_finished.connect(done.quit)
        beat = Heartbeat()
        marks: dict[str, float] = {}

        def started(_words: int) -> None:
            marks["started"] = time.perf_counter()

        def watch() -> None:
            if "started" in marks and "opened" not in marks and not getattr(window.view, "building", False):
                marks["opened"] = time.perf_counter()

        watcher = QTimer()
        watcher.setInterval(1)
        watcher.timeout.connect(watch)
        watcher.start()
        window.restoration.started.connect(started)
        beat.start()
        QTimer.singleShot(20, lambda: window.open_reporting(path))  # as File > Open does
        done.exec()
        watcher.stop()
        window.restoration_finished.disconnect(done.quit)
        window.restoration.started.disconnect(started)
        beat.stop()
        assert window.restoration_status == "done", window.restoration_status
        opened = marks.get("opened", marks["started"])
        # gaps are stamped at the tick that ends them: those begun before the words were all shown
        # (reading on a worker thread, then showing them) are opening; later ones restoring
        t, wall, cpu = beat.started, [0.0, 0.0], [0.0, 0.0]
        for gap, cpu_gap in zip(beat.gaps, beat.cpu_gaps):
            t += gap
            phase = 0 if t - gap <= opened else 1
            wall[phase], cpu[phase] = max(wall[phase], gap), max(cpu[phase], cpu_gap)
        return wall[0] * 1000, cpu[0] * 1000, wall[1] * 1000, cpu[1] * 1000

    open_and_restore(raw_transcript(tmp / "warm.txt", 300, args.paragraph))  # load the model
    source = raw_transcript(tmp / "long.txt", args.words, args.paragraph)
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    view = window.view

    def type_a_letter() -> None:
        """A letter typed after a word in the middle of the screen (as editing, not reviewing)."""
        first, last = view.visible_tokens()
        view.leave_review(announce=False)
        cursor = view.textCursor()
        cursor.setPosition(view.token_range((first + last) // 2)[2])
        view.setTextCursor(cursor)
        QTest.keyClick(view, "x")

    def accept_one() -> None:
        """Enter on the first suggestion on screen (a proposed paragraph break if there is one)."""
        doc = view.transcript
        first, last = view.visible_tokens()
        on_screen = [s for i in range(first, last) for s in doc.suggestion_view(doc[i].id).values()
                     if s.state.value == "pending"]
        if on_screen:
            chosen = next((s for s in on_screen if s.kind.value == "break"), on_screen[0])
            view.set_current(chosen)
            QTest.keyClick(view, Qt.Key.Key_Return)

    steps = ("open", "restore", "type", "accept one", "accept all", "undo")
    rows: dict[str, list[tuple[float, float]]] = {key: [] for key in steps}
    for run in range(args.runs):
        load = os.getloadavg()[0]
        o_wall, o_cpu, r_wall, r_cpu = open_and_restore(source)
        typing = stall_of(type_a_letter, bulk=False)
        one = stall_of(accept_one, bulk=False)
        pending = len(window.transcript.pending())
        breaks = sum(1 for s in window.transcript.pending() if s.kind.value == "break")
        accepting = stall_of(lambda: window.accept_all(0.0))
        undoing = stall_of(window.undo)
        results = ((o_wall, o_cpu), (r_wall, r_cpu), typing, one, accepting, undoing)
        for key, value in zip(steps, results):
            rows[key].append(value)
        print(f"run {run + 1} (load {load:.1f}, {pending:,} suggestions, {breaks:,} of them "
              "paragraph breaks): " + ", ".join(f"{k} {v[0]:.0f} ms" for k, v in zip(steps, results))
              + "; UI-thread CPU in the longest gaps " + ", ".join(f"{v[1]:.0f}" for v in results)
              + " ms", flush=True)
        settle(0.2)
    platform = os.environ.get("QT_QPA_PLATFORM") or "xcb"
    print(f"{args.words:,} words, {args.paragraph or 'one'} per paragraph, model "
          f"{Path(model).name}, {platform}, load average {os.getloadavg()[0]:.1f} at the end: "
          f"longest UI stall, median of {args.runs} (worst); then the UI thread's own CPU time "
          f"in the longest gap (what is left of it without waiting for a core)")
    for key, values in rows.items():
        wall, cpu = [v[0] for v in values], [v[1] for v in values]
        print(f"  {key:<11} {statistics.median(wall):6.0f} ms ({max(wall):.0f})   CPU "
              f"{statistics.median(cpu):5.0f} ms ({max(cpu):.0f})")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
