"""Starting the editor: the interactive window, or one screenshot for docs and smoke tests."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEventLoop, QTimer

from editor.core.errors import FormatError, UserError
from editor.core.process import configure_process
from editor.core.settings import Settings

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

    from editor.gui.window.main_window import MainWindow


def run(file: str | None = None, *, screenshot: str | None = None, model: str | None = None,
        device: str | None = None, timeout: float = 300.0) -> int:
    from editor.gui.window.main_window import MainWindow, application

    if file and not Path(file).exists():  # said on the terminal, before any window appears
        raise FormatError(file, "no such file")
    why = no_display()
    if why:
        raise UserError(why)
    configure_process(gui=True)
    app = application(sys.argv[:1])
    if screenshot:  # the same picture on every machine: default settings, no dialogs
        window = MainWindow(Settings(), interactive=False)
    else:
        window = MainWindow()
    window.restore_model_override = model
    if device:
        window.settings.engine.device = device
    window.show()
    if screenshot:
        return _screenshot(app, window, file, Path(screenshot), timeout)
    QTimer.singleShot(0, window, lambda: begin(window, file))
    return app.exec()


def no_display() -> str | None:
    """Why the window cannot open here, or None. On Linux with neither X11 nor Wayland to draw
    on (a login over ssh, a server) Qt aborts the process with a page about platform plugins;
    this says it in one line first. A platform chosen by QT_QPA_PLATFORM is Qt's to judge."""
    if not sys.platform.startswith("linux") or os.environ.get("QT_QPA_PLATFORM"):
        return None
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return None
    return ("no display to open the window on (neither DISPLAY nor WAYLAND_DISPLAY is set): run "
            "Stet in a desktop session, or use its commands here (stet show, convert, restore; "
            "stet --help)")


def begin(window: MainWindow, file: str | None) -> None:
    """What a start does once the window shows: offer the work of sessions that stopped unsaved
    (whatever was asked: no file, a transcript, a recording), then open ``file``; on the very
    first start, the review tour."""
    restored = window.offer_recovery(opening=file)
    if file and restored:
        window.statusBar().showMessage(f"Restored the autosaved work; {Path(file).name} was not "
                                       "opened (File ▸ Open)", 12000)
    elif file:
        window.open_reporting(file)
    if not file or restored:
        # Start the restoration worker and load the model there while the person picks a file
        # (editor.restore.passes.pass_process): the first file is then restored without that wait.
        QTimer.singleShot(500, window, window.restoring.preload_restorer)
    window.help.first_start()


def _screenshot(app: QApplication, window: MainWindow, file: str | None, png: Path, timeout: float) -> int:
    if file:
        loop = QEventLoop()
        transcription = window.transcription  # a recording: its words first, then restoration

        def quit_when_settled(*_args: object) -> None:
            if not transcription.running and window.restoration_status != "running":
                loop.quit()

        window.restoration_finished.connect(quit_when_settled)
        transcription.finished.connect(quit_when_settled)
        QTimer.singleShot(int(timeout * 1000), loop.quit)
        window.open_path(file)  # a file it cannot read: a UserError that names it
        if window.restoration_status in ("", "running") or transcription.running:
            loop.exec()
        if window.restoration_status == "running":
            print(f"stet: warning: restoration still running after {timeout:g} s", file=sys.stderr)
        # show one under review, with its alternatives, as Tab does: the person's action, which
        # ends the first pass's "Restoring with <model> …" (it stayed, cut off, in the picture)
        from editor.gui.base.status_bar import StatusBar

        bar = window.statusBar()
        if isinstance(bar, StatusBar):
            bar.next_action()
        window.view.next_suggestion()
    end = time.perf_counter() + 0.5
    while time.perf_counter() < end:  # let the layout and repaints settle
        app.processEvents()
        time.sleep(0.02)
    png.parent.mkdir(parents=True, exist_ok=True)
    if not window.grab().save(str(png)):
        raise UserError(f"cannot write the screenshot to {png}")
    print(f"screenshot: {png} ({window.restoration_status or 'no file'})")
    window.close()
    return 0
