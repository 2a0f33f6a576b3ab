"""Runs, in a process of its own (test_close.py), what once ended in "QObject: shared QObject was
deleted directly" and a segmentation fault: transcribe a recording, open every menu, open and
cancel Settings (and the other dialogs a menu opens), close the window; ROUNDS times, each with
a new window, then quit. Test-only: nothing of it ships.

    python close_driver.py RECORDING RESTORE_MODEL ROUNDS

Exit status 0 when every round ended; a crash is the process's own (a signal), which the test
reads as a failure.
"""

from __future__ import annotations

import gc
import os
import sys
import traceback
from pathlib import Path


def main() -> int:
    recording, restore_model, rounds = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    from editor.core.process import configure_process

    configure_process(gui=True)  # before any window (see editor.gui.app.run)
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication, QDialog, QMenu, QMessageBox

    from editor.core.settings import Settings
    from editor.gui.window.main_window import MainWindow, application
    from tests.fakes.audio import FakeOutputBackend

    app = application(["stet"])
    from editor.audio import Player

    def wait(ms: int) -> None:
        loop = QEventLoop()
        QTimer.singleShot(ms, loop.quit)
        loop.exec()

    def close_modal() -> None:
        """Answer whatever modal window is up as a person who changes their mind would."""
        widget = QApplication.activeModalWidget()
        if isinstance(widget, QMessageBox):
            widget.reject()
        elif isinstance(widget, QDialog):
            widget.reject()
        else:
            QTimer.singleShot(20, close_modal)

    def open_menus(window: MainWindow, menu: QMenu) -> None:
        menu.popup(window.mapToGlobal(window.rect().center()))
        wait(10)
        for action in menu.actions():
            if action.menu() is not None:
                open_menus(window, action.menu())
        menu.hide()
        wait(5)

    def one_round(n: int) -> None:
        """A window, as `stet` makes it: transcribe, every menu, Settings twice, close."""
        settings = Settings()
        settings.set("engine.restore_model", restore_model)
        settings.set("engine.device", "cpu")
        window = MainWindow(settings, interactive=False)
        window.playback.make_player = lambda: Player(FakeOutputBackend())
        window.resize(1000, 700)
        window.show()
        done = QEventLoop()
        window.transcription.finished.connect(lambda *_: QTimer.singleShot(0, done.quit))
        QTimer.singleShot(120_000, done.quit)
        steps = os.environ.get("STEPS", "tmsl")
        if "t" in steps and recording.name != "-":
            window.open_path(recording)
        if window.transcription.running:
            done.exec()
        for action in window.menuBar().actions() if "m" in steps else ():
            if action.menu() is not None:
                open_menus(window, action.menu())
        for _ in range(2 if "s" in steps else 0):
            QTimer.singleShot(30, close_modal)
            window.settings_dialog()  # exec(): cancelled by close_modal
        if "l" in steps:
            QTimer.singleShot(30, close_modal)
            window.learned_dialog()  # open(): a modal sheet, cancelled the same way
        wait(60)
        window.close()  # the last window: the event loop ends, as when a person closes it
        print(f"round {n + 1} ended", flush=True)

    def guarded(n: int) -> None:
        try:
            one_round(n)
        except BaseException:  # noqa: BLE001 — said, and the run fails
            traceback.print_exc()
            app.exit(2)

    stuck = QTimer()  # a round that never ends (a modal window nobody closed)
    stuck.setSingleShot(True)
    stuck.timeout.connect(lambda: app.exit(3))
    for n in range(rounds):
        stuck.start(200_000)
        # as editor.gui.app.run: the window is a local of a function that returns app.exec()
        QTimer.singleShot(0, lambda n=n: guarded(n))
        status = app.exec()
        if status:
            return status
        gc.collect()
    return 0


if __name__ == "__main__":
    sys.exit(main())
