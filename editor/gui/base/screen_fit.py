"""Windows and dialogs no bigger than the screen they open on: each is made at the size it was
laid out for (the window 1200x780, the help window 1040x720), which on a screen of 800x600 or a
netbook's 1024x600 put its right side and its buttons off the screen, out of reach."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

#: Height the window manager's title bar takes above a window (the size Qt sets excludes it).
TITLE_BAR = 32


def available(widget: QWidget) -> QRect:
    """The room on the screen ``widget`` opens on, less the desktop's panels."""
    screen = widget.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, 1 << 15, 1 << 15)


def within_screen(widget: QWidget, width: int, height: int) -> QSize:
    """``width`` x ``height``, smaller where ``widget``'s screen has less room (its title bar
    included)."""
    room = available(widget)
    return QSize(min(width, room.width()), min(height, room.height() - TITLE_BAR))


def resize_within_screen(widget: QWidget, width: int, height: int) -> None:
    """``widget.resize(width, height)``, no bigger than its screen (``within_screen``)."""
    widget.resize(within_screen(widget, width, height))
