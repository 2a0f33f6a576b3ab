"""Retake the user guide's screenshots of the review states (docs/user-guide.md), with the shipped
model and default settings.

    QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/screenshots.py [OUT_FOLDER]

(editor.png, the first screen, comes from `stet gui resources/samples/repair-cafe.json --screenshot`,
run with XDG_CONFIG_HOME and XDG_DATA_HOME pointing at empty folders, as this script runs itself.)
Writes, for the bundled raw sample (resources/samples/repair-cafe.json):
  picked.png     a digit key picked a full stop where a comma was proposed: the next word got
                 its capital, and the status bar says so
  editing.png    the caret moved away: the status bar and panel say Enter and Delete edit again
  accept-all.png Review > Accept all at or above…, in percent, with the count before Enter
  export.png     File > Export…, saying what happens to pending suggestions
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

    from editor.core.document.transcript import Kind
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
    # pick an end mark where a comma was proposed: its capital follows
    comma = next((s for s in window.transcript.pending(kind=Kind.PUNCT)
                  if s.value == "," and "." in s.probs), None)
    if comma is not None:
        view.set_current(comma)
        number = [v for v, _ in comma.alternatives()].index(".") + 1
        key(getattr(Qt.Key, f"Key_{number}"), str(number))
        shot(window, "picked.png")
    key(Qt.Key.Key_Tab)
    key(Qt.Key.Key_Right)  # the caret moves away: editing again
    shot(window, "editing.png")
    dialog = window.review.accept_all_dialog()
    dialog.box.setValue(80)
    shot(dialog, "accept-all.png")
    dialog.reject()
    doc = window.transcript
    export = ExportDialog(window.settings, Path("repair-cafe.docx"), len(doc.pending()), window,
                          count=lambda t: len(doc.pending_to_apply(t)))
    export.policy.setCurrentIndex(1)
    export.show()
    shot(export, "export.png")
    export.reject()
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
