"""Retake the user guide's screenshots of the review states (docs/user-guide.md), with the shipped
model and default settings.

    QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/screenshots.py [OUT_FOLDER]

(editor.png, the first screen, comes from `stet gui resources/samples/repair-cafe.json --screenshot`,
run with XDG_CONFIG_HOME and XDG_DATA_HOME pointing at empty folders, as this script runs itself.)
Writes, for the bundled raw sample (resources/samples/repair-cafe.json):
  decision.png   a proposed full stop and the capital after it under review as one decision:
                 both framed, the panel shows both parts and what each alternative makes of
                 the next word
  editing.png    the caret moved away: the status bar and panel say Enter and Delete edit again
  accept-all.png Review > Accept all at or above…, in percent, with the count before Enter
  export.png     File > Export… as the window opens it (its Help button included), saying what
                 happens to pending suggestions
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# A first run's state: the forms and profiles this machine's Stet learned from reviews (the user
# lexicon once turned "and welcome" into "and Welcome" here) stay out of the pictures.
_FRESH = tempfile.mkdtemp(prefix="stet-screenshots-")
for _name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
    os.environ[_name] = os.path.join(_FRESH, _name.lower())
ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "resources" / "samples" / "repair-cafe.json"


def settle(app, seconds: float = 0.4) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        app.processEvents()
        time.sleep(0.02)


def main() -> int:
    from PySide6.QtCore import QEventLoop, Qt, QTimer
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtWidgets import QApplication

    from editor.core.document.transcript import Kind, State
    from editor.core.settings import Settings
    from editor.gui.dialogs.export import ExportDialog
    from editor.gui.window.main_window import MainWindow, application

    out = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "resources" / "screenshots")
    out.mkdir(parents=True, exist_ok=True)
    from editor.core.process import configure_process

    configure_process(gui=True)  # as `stet` does (the PySide6 workaround on Python 3.11)
    app = application(sys.argv[:1])
    window = MainWindow(Settings(), interactive=False)
    window.resize(1200, 780)
    window.show()
    loop = QEventLoop()
    window.restoration_finished.connect(loop.quit)
    QTimer.singleShot(300_000, loop.quit)
    window.open_path(SAMPLE)
    loop.exec()
    view = window.view

    def key(k, text: str = "") -> None:
        for kind in (QKeyEvent.Type.KeyPress, QKeyEvent.Type.KeyRelease):
            QApplication.sendEvent(view, QKeyEvent(kind, k, Qt.KeyboardModifier.NoModifier, text))
        settle(app, 0.3)

    def shot(widget, name: str) -> None:
        settle(app)
        widget.grab().save(str(out / name))
        print(out / name)

    view.setFocus()
    # a proposed full stop with the capital after it: one decision point under review
    doc = window.transcript

    def capital_after(s) -> bool:
        i = doc.index_of(s.token_id) + 1
        case = doc.suggestion(doc[i].id, Kind.CASE) if i < len(doc) else None
        # a capital that is the sentence's own ("And"), not one English fixes ("I'm")
        return case is not None and case.state == State.PENDING and case.value[:1].isupper() \
            and case.value.lower().split("'")[0] != "i"
    stop = next((s for s in doc.pending(kind=Kind.PUNCT) if s.value == "." and capital_after(s)), None)
    if stop is not None:
        view.set_current(stop)
        shot(window, "decision.png")
    key(Qt.Key.Key_Tab)
    key(Qt.Key.Key_Right)  # the caret moves away: editing again
    shot(window, "editing.png")
    dialog = window.review.accept_all_dialog()
    dialog.box.setValue(80)
    shot(dialog, "accept-all.png")
    dialog.reject()
    # File > Export as the menu opens it (a dialog made here once lacked its Help button); the
    # name without this machine's folder
    window.settings.set("export.last_format", ".docx")

    def export_shot() -> None:
        export = QApplication.activeModalWidget()
        assert isinstance(export, ExportDialog), export
        export.path_edit.setText("repair-cafe.docx")
        # (its default: the text as the window shows it, as `stet convert` writes it)
        shot(export, "export.png")
        export.reject()
    QTimer.singleShot(300, export_shot)
    window.files.export_dialog()
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
