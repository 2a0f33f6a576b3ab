"""What one long text block costs Qt: setting the text, a keystroke and restyling one word (as
accepting a suggestion does) in a QPlainTextEdit holding a paragraph of N words as one block, with
and without line wrapping. Why Stet does not show a text that runs on for thousands of words as
one block, but in lines at proposed paragraph breaks (editor/core/document/paragraphs.py). Medians of 5;
asserts nothing.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/perf/bench_long_block.py 2000 10000 100000
    xvfb-run -a .venv/bin/python tests/perf/bench_long_block.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time


def main(sizes: list[int]) -> int:
    if not os.environ.get("DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor
    from PySide6.QtWidgets import QApplication, QPlainTextEdit

    from editor.core.process import configure_process

    configure_process(gui=True)
    app = QApplication.instance() or QApplication([])
    words = "so i was thinking about the podcast and what we should do next week with the".split()

    def ms(step) -> float:
        t = time.perf_counter()
        step()
        app.processEvents()  # the layout and paint it causes
        return (time.perf_counter() - t) * 1000

    print(f"load average {os.getloadavg()[0]:.1f}, {os.environ.get('QT_QPA_PLATFORM') or 'xcb'}; "
          "ms, median of 5 (set text: once)")
    for n in sizes:
        for wrap in (True, False):
            view = QPlainTextEdit()
            view.resize(1000, 700)
            if not wrap:
                view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
            view.show()
            app.processEvents()
            text = " ".join(words[i % len(words)] for i in range(n))
            opened = ms(lambda: view.setPlainText(text))  # noqa: B023
            fmt = QTextCharFormat()
            fmt.setBackground(QColor("#ffe9a8"))
            mid = len(text) // 2

            def key() -> None:
                cursor = QTextCursor(view.document())  # noqa: B023
                cursor.setPosition(mid)  # noqa: B023
                cursor.insertText("x")

            def restyle() -> None:
                cursor = QTextCursor(view.document())  # noqa: B023
                cursor.setPosition(mid)  # noqa: B023
                cursor.setPosition(mid + 4, QTextCursor.MoveMode.KeepAnchor)  # noqa: B023
                cursor.setCharFormat(fmt)  # noqa: B023

            typed = statistics.median(ms(key) for _ in range(5))
            styled = statistics.median(ms(restyle) for _ in range(5))
            print(f"  {n:>7,} words, {'wrapped' if wrap else 'no wrap'}: set text {opened:6.1f}, "
                  f"keystroke {typed:6.1f}, restyle a word {styled:6.1f}", flush=True)
            view.close()
            view.deleteLater()
            app.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main([int(a) for a in sys.argv[1:]] or [2_000, 10_000, 100_000]))
