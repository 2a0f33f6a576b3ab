"""Runs the real `stet` command (``editor.cli.main``) with a hand on the keyboard, for the kill -9
test (test_crash.py). Test-only: nothing of it ships.

    python crash_driver.py LOG type SEED PACE -- STET-ARGS...   type words into the view, forever
    python crash_driver.py LOG recover -- STET-ARGS...          restore what is offered, then quit

It behaves as a person would: the window is interactive (the recovery dialog shows even under
offscreen Qt), and every dialog that appears is read and answered. What happens goes to LOG, one
JSON object a line, written at once (a kill -9 loses nothing already written): ``offer`` (the
rows of the recovery dialog), ``ready``, ``typed`` (each completed word with its time),
``recovered`` (the words of the restored document).
"""

from __future__ import annotations

import json
import random
import sys
import time


def main() -> int:
    split = sys.argv.index("--")
    log_path, mode, *rest = sys.argv[1:split]
    stet_args = sys.argv[split + 1:]
    log = open(log_path, "a", buffering=1, encoding="utf-8")  # lives as long as the process

    def say(**event) -> None:
        log.write(json.dumps({"t": time.time(), **event}) + "\n")

    from PySide6.QtCore import Qt, QTimer
    from PySide6.QtGui import QTextCursor
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QMessageBox

    from editor.gui import app
    from editor.gui.work.recovery import RecoveryDialog

    original_begin = app.begin

    def answer_dialogs() -> None:
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, RecoveryDialog):
            rows = [[dialog.table.topLevelItem(i).text(c) for c in range(4)]
                    for i in range(dialog.table.topLevelItemCount())]
            say(offer=rows)
            dialog.restore() if mode == "recover" else dialog.reject()
        elif isinstance(dialog, QMessageBox):
            say(message=dialog.text())
            dialog.reject()

    def begin(window, file) -> None:
        window.interactive = True  # a person is there: dialogs show, as on a desktop
        poll = QTimer(window)
        poll.timeout.connect(answer_dialogs)
        poll.start(20)
        restored = original_begin(window, file)
        restored = window.autosaver.slot.data.exists() and window.dirty
        if mode == "recover":
            say(recovered=window.transcript.words() if restored else None)
            window.discard_recovery()
            window.session.mark_saved()
            QApplication.quit()
            return
        window.autosaved.connect(lambda _path: say(autosaved=round(window.autosaver.last_write_s, 3),
                                                   capture=round(window.autosaver.last_capture_s, 3)))
        seed, pace = int(rest[0]), rest[1]
        rng = random.Random(seed)
        count = [0]

        def type_word() -> None:
            n = count[0]
            count[0] += 1
            word = "zq" + "".join(chr(97 + (n // 26 ** k) % 26) for k in range(3))
            view = window.view
            view.moveCursor(QTextCursor.MoveOperation.End)
            QTest.keyClicks(view, " " + word)
            say(typed=word)
            if pace == "steady":
                delay = rng.uniform(0.2, 0.4)
            else:  # random pauses, some longer than the autosave pause
                delay = rng.choice([0.05, 0.1, 0.3, 0.8, 1.6, 2.5, 4.0])
            QTimer.singleShot(int(delay * 1000), type_word)

        def ready() -> None:
            if not len(window.transcript) or window.opening.running:  # a large file is read
                QTimer.singleShot(100, ready)                         # in the background
                return
            window.view.setFocus(Qt.FocusReason.OtherFocusReason)
            say(ready=len(window.transcript))
            type_word()

        QTimer.singleShot(300, ready)

    app.begin = begin
    from editor.cli import main as stet

    return stet(stet_args)


if __name__ == "__main__":
    sys.exit(main())
