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
  export-subtitles.png  Export to SubRip: the subtitle layout boxes (line length, reading speed, gap)
  cue-check.png  Review > Check line length and reading speed… on resources/samples/sample.srt,
                 with Subtitle lines 32 and Reading speed 15 set in Export
  settings.png   Settings as a first run has them (comma style, the restoration-model list)
and docs/images/not-restored.png (in OUT_FOLDER where one is given): a Korean text with the
English model on a machine without a Korean font (the panel says which font to install and why
nothing was restored). The Help menu's pictures, About among them, are screenshots_help.py's.
Each is written at zlib's highest compression (Qt's PNG quality 0): the same pixels, smaller files.
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
    from editor.gui.dialogs.settings import SettingsDialog
    from editor.gui.window.main_window import MainWindow, application

    out = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "resources" / "screenshots")
    docs_out = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "docs" / "images")  # not-restored.png
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

    def shot(widget, name: str, folder: Path = out) -> None:
        settle(app)
        # quality 0: Qt's PNG writer at zlib level 9, lossless (the same pixels, fewer bytes)
        if not widget.grab().save(str(folder / name), "PNG", 0):
            raise SystemExit(f"could not write {folder / name}")
        print(folder / name)

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
        # the first pass's "Restoring with <model> …" stays until the person's next action (the
        # Tab that would bring them here): gone, as it is when a person reviews
        window.statusBar().next_action()
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
    def export_shot(extension: str, picture: str) -> None:
        window.settings.set("export.last_format", extension)

        def take() -> None:
            export = QApplication.activeModalWidget()
            assert isinstance(export, ExportDialog), export
            export.path_edit.setText(f"repair-cafe{extension}")
            shot(export, picture)
            export.reject()
        QTimer.singleShot(300, take)
        window.files.export_dialog()

    # .docx: its default, the text as the window shows it, as `stet convert` writes it; .srt: the
    # layout boxes, at what a first run has (each at its lowest)
    export_shot(".docx", "export.png")
    export_shot(".srt", "export-subtitles.png")

    settings = SettingsDialog(window.settings, window)
    settings.show()
    shot(settings, "settings.png")
    settings.reject()
    # Review > Check line length and reading speed… on the subtitle sample, with Export's Subtitle
    # lines at 32 and Reading speed at 15 (the repair-café sample's cues are within any of them:
    # Stet writes new cues to the width asked)
    window.open_path(ROOT / "resources" / "samples" / "sample.srt")
    window.cancel_restoration()  # the check leaves pending suggestions out
    window.settings.set("export.layout", {"max_line_length": 32.0, "max_cps": 15.0})
    check = window.cue_check.run()
    check.resize(760, 300)
    end = time.perf_counter() + 60
    while check.summary.text().startswith("Checking") and time.perf_counter() < end:
        settle(app, 0.1)
    shot(check, "cue-check.png")
    check.close()

    # a Korean text (written here) with an English model, on a machine without a Korean font:
    # the panel says which font to install and why nothing was restored
    korean = Path(_FRESH) / "korean.txt"
    korean.write_text("오늘 우리는 동네 수리 카페에 대해 이야기합니다 한 달에 한 번 오래된 도서관에서 "
                      "열립니다 사람들은 고장 난 라디오와 토스터를 가져옵니다 자원봉사자들이 함께 "
                      "고쳐 줍니다 다음 달에는 청소년을 위한 수업을 시작합니다\n", encoding="utf-8")
    window.resize(1100, 620)
    done = QEventLoop()
    window.restoration_finished.connect(done.quit)
    QTimer.singleShot(120_000, done.quit)
    window.open_path(korean)
    if window.restoration_status in ("", "running"):
        done.exec()
    window.statusBar().next_action()  # the note of the pass before (as a person's next key)
    shot(window, "not-restored.png", docs_out)
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
