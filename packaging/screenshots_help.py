"""Retake the user guide's pictures of the Help menu and the legend (docs/user-guide.md), default
settings, no restoration run (the proposals are made up; About reads the shipped model's config):

    QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/screenshots_help.py [OUT_FOLDER]

Writes to docs/images/: shortcuts.png (the sheet filtered to "review"), tour.png (its first
page), about.png, help.png (the help window at a section, with a word found), legend.png (the key
over the list) and marks.png (proposed marks in the text at the default size).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_FRESH = tempfile.mkdtemp(prefix="stet-screenshots-")
for _name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
    os.environ[_name] = os.path.join(_FRESH, _name.lower())
ROOT = Path(__file__).resolve().parent.parent
WORDS = ("and there's already a queue out the door people are holding lamps and toasters and one man "
         "has brought a sewing machine that belonged to his grandmother so how does it work you sign in")


def settle(app, seconds: float = 0.4) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        app.processEvents()
        time.sleep(0.02)


def main() -> int:
    from PySide6.QtCore import QRect

    from editor.core.process import configure_process

    configure_process(gui=True)
    from editor.core.document.transcript import Kind, Suggestion, Token, Transcript
    from editor.core.settings import Settings
    from editor.gui.window.main_window import MainWindow, application

    out = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "docs" / "images")
    out.mkdir(parents=True, exist_ok=True)
    app = application(sys.argv[:1])
    window = MainWindow(Settings(), interactive=False)
    window.resize(1200, 780)
    window.show()
    words = WORDS.split()
    doc = Transcript([Token(w) for w in words])
    at = {w: i for i, w in enumerate(words)}

    def mark(word: str, value: str, p: float) -> Suggestion:
        return Suggestion(doc[at[word]].id, Kind.PUNCT, value, {value: p, "": 1 - p})

    doc.set_suggestions([mark("already", ",", 0.45), mark("door", ".", 0.72),
                         Suggestion(doc[at["people"]].id, Kind.CASE, "People", {"People": 0.72, "people": 0.28}),
                         mark("lamps", ",", 0.55), mark("toasters", ",", 0.93), mark("machine", ".", 0.4),
                         mark("grandmother", ".", 0.96), mark("work", "?", 0.94),
                         Suggestion(doc[at["so"]].id, Kind.CASE, "So", {"So": 0.93, "so": 0.07})])
    window.set_transcript(doc, restore=False)
    settle(app)

    def shot(widget, name: str, rect=None) -> None:
        settle(app)
        image = widget.grab() if rect is None else widget.grab(rect)
        # quality 0: Qt's PNG writer at zlib level 9, lossless (the same pixels, fewer bytes)
        if not image.save(str(out / name), "PNG", 0):
            raise SystemExit(f"could not write {out / name}")
        print(out / name)

    view = window.view
    # the whole paragraph as it is laid out, to its widest line (a fixed 540 x 72 cut words in
    # two at its right edge and left out the question mark its caption names)
    # (the window narrowed for it: at full width its three lines are too wide to read where the
    # guide puts the picture beside the legend)
    window.resize(900, 780)
    view.clearFocus()  # no caret at the first word
    settle(app)
    block = view.document().firstBlock()
    box = view.blockBoundingGeometry(block).translated(view.contentOffset())
    lines = block.layout()
    right = max(lines.lineAt(i).x() + lines.lineAt(i).naturalTextWidth() for i in range(lines.lineCount()))
    shot(view.viewport(), "marks.png", QRect(0, 0, round(box.left() + right) + 12, round(box.bottom()) + 4))
    window.resize(1200, 780)
    legend = window.panel.legend
    shot(window.panel, "legend.png", legend.geometry().adjusted(-6, -6, 6, 120))
    sheet = window.help.show_shortcuts()
    sheet.resize(900, 380)
    sheet.filter.setText("review")
    shot(sheet, "shortcuts.png")
    sheet.close()
    tour = window.help.show_tour()
    shot(tour, "tour.png")
    tour.close()
    about = window.help.show_about()
    about.resize(620, 640)
    shot(about, "about.png")
    about.close()
    pages = window.help.show_help("user-guide.md#reviewing-in-the-editor")
    pages.resize(1100, 720)
    settle(app)
    pages.go_to_anchor("reviewing-in-the-editor")
    pages.find_edit.setText("accept")
    pages.find_next()
    shot(pages, "help.png")
    pages.close()
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
