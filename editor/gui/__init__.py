"""The editor window (PySide6). The only part of Stet that imports Qt.

``MainWindow`` is imported lazily so that ``stet --help`` (which looks for ``editor.gui.cli``) does
not load Qt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["MainWindow", "QtTranscriptView", "application"]

if TYPE_CHECKING:
    from editor.gui.window.main_window import MainWindow, application
    from editor.gui.text_view.view import QtTranscriptView


def __getattr__(name: str) -> Any:
    if name in ("MainWindow", "application"):
        from editor.gui.window import main_window

        return getattr(main_window, name)
    if name == "QtTranscriptView":
        from editor.gui.text_view.view import QtTranscriptView

        return QtTranscriptView
    raise AttributeError(f"module 'editor.gui' has no attribute {name!r}")
