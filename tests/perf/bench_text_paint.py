"""How long one full repaint of the text takes, restored by the shipped model, as drawn now and with
every proposed mark outlined as it was drawn until 6 Dec 2026 (a text outline makes Qt draw the
glyph as a path, never from its glyph cache). Median of 30 repaints at each of 5 places in the
text; asserts nothing.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/perf/bench_text_paint.py [--words 12300]

Opens the first --words words of the IWSLT 2012 dev talks (as bench_gui_stalls.py --dev-talks
does) in a 1200x800 window and waits for the restoration.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=12_300)
    args = parser.parse_args()

    from bench_gui_stalls import dev_talks
    from gui_bench import bench_window
    from PySide6.QtCore import QEventLoop
    from PySide6.QtGui import QColor, QFont, QPen, QTextCharFormat, QTextCursor

    app, window, tmp, _model = bench_window(None, "cpu", prefix="stet-paint-")
    done = QEventLoop()
    window.restoration_finished.connect(done.quit)
    window.open_reporting(dev_talks(tmp / "talks.txt", args.words, 0))
    done.exec()

    def settle(seconds: float) -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            app.processEvents()
            time.sleep(0.002)

    view = window.view
    doc = view.document()
    settle(2)

    def repaint_ms(n: int = 30) -> float:
        took = []
        for _ in range(n):
            began = time.perf_counter()
            view.viewport().repaint()
            took.append(time.perf_counter() - began)
        return 1000 * statistics.median(took)

    def restyle(marks: list[tuple[int, int, QTextCharFormat]]) -> None:
        cursor = QTextCursor(doc)
        cursor.beginEditBlock()
        for at, length, fmt in marks:
            cursor.setPosition(at)
            cursor.setPosition(at + length, QTextCursor.MoveMode.KeepAnchor)
            cursor.setCharFormat(fmt)
        cursor.endEditBlock()
        settle(0.3)

    size = window.settings.appearance.font_size
    now: list[float] = []
    outlined: list[float] = []
    marks: list[tuple[int, int, QTextCharFormat]] = []
    for place in range(5):
        bar = view.verticalScrollBar()
        bar.setValue(bar.maximum() * (place + 1) // 7)
        settle(0.3)
        now.append(repaint_ms())
        marks = []  # the proposed marks' fragments (their Black weight), as they are
        block = doc.begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                if fragment.charFormat().fontWeight() == QFont.Weight.Black:
                    marks.append((fragment.position(), fragment.length(), QTextCharFormat(fragment.charFormat())))
                it += 1
            block = block.next()
        before = []
        for at, length, fmt in marks:
            old = QTextCharFormat(fmt)
            old.setTextOutline(QPen(QColor("#1a1a1a"), 1.6 * size / 13))  # as looks.py drew them
            before.append((at, length, old))
        restyle(before)
        outlined.append(repaint_ms())
        restyle(marks)
    vp = view.viewport().size()
    print(f"{args.words:,} words of the dev talks, {len(marks):,} proposed marks, viewport {vp.width()}x{vp.height()}: "
          f"a full repaint, median of 30 at each of 5 places")
    for name, ms in (("as drawn now", now), ("marks outlined (before 6 Dec 2026)", outlined)):
        print(f"  {name:36} {statistics.median(ms):5.1f} ms  ({', '.join(f'{x:.1f}' for x in ms)})")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
