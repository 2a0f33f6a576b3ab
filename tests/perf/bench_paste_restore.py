"""The longest UI-thread stall while raw words pasted into a restored transcript go in and are
restored (editor.gui.work.restoration ``restore_words``), and how long until their suggestions are all
in. Medians (and worst) over --runs runs; each run's paste is undone before the next. Asserts
nothing: timings vary by machine and load.

    .venv/bin/python tests/perf/bench_paste_restore.py --model resources/models/stet-en-bilstm-crf
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gui_bench import Heartbeat, bench_window, raw_transcript  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="model directory (default: the shipped one; tiny: a tiny random one)")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--words", type=int, default=5_000, help="words of the transcript")
    parser.add_argument("--paste", type=int, nargs="+", default=[200, 2_000], help="words pasted")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-restore", action="store_true",
                        help="the paste alone, its words not restored (to compare)")
    args = parser.parse_args()
    app, window, tmp, _model = bench_window(args.model, args.device, "stet-bench-paste-")
    from PySide6.QtCore import QMimeData

    done = []
    window.restoration_finished.connect(lambda: done.append(True))

    def settle(limit: float = 600.0) -> None:
        end = time.perf_counter() + limit
        while not done and time.perf_counter() < end:
            app.processEvents()
            time.sleep(0.001)

    window.open_path(raw_transcript(tmp / "doc.txt", args.words, 150))
    settle()
    done.clear()
    if args.no_restore:  # the paste alone: "done" when its slices are in and a second has passed
        def paste_only(*_args, **_kwargs) -> None:
            while window.bulk_running:
                app.processEvents()
            end = time.perf_counter() + 1.0
            while time.perf_counter() < end:
                app.processEvents()
                time.sleep(0.001)
            window.restoring.restoration_status = "done"
            done.append(True)
        window.view.pasted.disconnect(window.restoring._restore_pasted)
        window.view.pasted.connect(paste_only)
    pasted: list[int] = []
    window.view.pasted.connect(lambda ids, _merge: pasted.extend(ids))
    beat = Heartbeat()
    for n in args.paste:
        text = raw_transcript(tmp / f"paste-{n}.txt", n, 150).read_text(encoding="utf-8")
        stalls, waits, suggested = [], [], []
        for _ in range(args.runs):
            view = window.view
            cursor = view.textCursor()
            cursor.setPosition(view.token_range(len(window.transcript) // 2)[2])
            view.setTextCursor(cursor)
            mime = QMimeData()
            mime.setText(" " + text)
            beat.start()
            began = time.perf_counter()
            view.insertFromMimeData(mime)
            settle()
            waits.append(time.perf_counter() - began)
            stalls.append(beat.stop() * 1000)
            assert done and window.restoration_status == "done", window.restoration_status
            doc = window.transcript
            suggested.append(sum(1 for i in pasted if doc.has_token(i) and doc.suggestion_view(i)))
            pasted.clear()
            done.clear()
            window.undo()
            while window.bulk_running:
                app.processEvents()
        print(f"{'(not restored) ' if args.no_restore else ''}paste {n:,} raw words into {args.words:,}: longest stall {statistics.median(stalls):.0f} ms "
              f"(worst {max(stalls):.0f}); restored after {statistics.median(waits):.1f} s "
              f"(worst {max(waits):.1f}); words with suggestions {statistics.median(suggested):,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
