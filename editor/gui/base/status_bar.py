"""The window's status bar: a message too long for the room left of the permanent widgets ends
in "…" with the whole of it in the bar's tooltip, instead of being cut mid-word against them
(a reader's note about YouTube captions read "…written back as subtitles, the cuEditing"). The
message is fitted again when its room shrinks: the window narrows, or a permanent widget grows
(the mode label's "Editing" becoming "Reviewing: Enter accepts, Delete rejects" cut the "…" off).

A message stays until the next one or the person's next action (``next_action``: a listener
heard "Exported ric.docx" and "Undid Typing" gone in 3-6 s, before a screen reader had said
them): a timeout given is not kept. Each message is also sent as ``said``, for the screen reader
(the window gives it to the Transcript's narrator)."""

from __future__ import annotations

import time
from typing import cast

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QLabel, QStatusBar, QToolTip, QWidget

_SPARE = 24  # the size grip and the bar's margins
_CUT = 8  # QStatusBar paints a message from x = 6 to 2 px short of its first permanent widget
#: Clear space between a cut message's "…" and the permanent widget after it: at 800x600 the
#: "…" ended 2 px from "Editing" and read as one word with it ("hold them…Editing").
_GAP = 16
#: keys that are not an action of their own (a modifier pressed before its key)
_MODIFIERS = (Qt.Key.Key_Control, Qt.Key.Key_Shift, Qt.Key.Key_Alt, Qt.Key.Key_Meta, Qt.Key.Key_AltGr,
              Qt.Key.Key_CapsLock, Qt.Key.Key_Super_L, Qt.Key.Key_Super_R)


class StatusBar(QStatusBar):
    said = Signal(str)  # a message shown (whole), for a screen reader

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._permanent: list[QWidget] = []
        self._full = ""  # the message as given
        self._shown = ""  # as shown, elided when it did not fit
        self._ends: float | None = None  # when a message with a timeout goes (time.monotonic)
        self._settled = True  # the message shown came in an earlier turn of the event loop
        self._acting: set[QObject] = set()  # where a key or a click is the person's next action
        self.messageChanged.connect(self._message_changed)

    def addPermanentWidget(self, widget: QWidget, stretch: int | None = 0) -> None:
        self._permanent.append(widget)
        widget.installEventFilter(self)  # its size or showing changes the message's room
        super().addPermanentWidget(widget, stretch)

    def watch_actions(self, *widgets: QWidget) -> None:
        """A key pressed or a click in one of ``widgets`` is the person's next action."""
        for widget in widgets:
            self._acting.add(widget)
            widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if watched in self._acting:
            if kind == QEvent.Type.MouseButtonPress or (
                    kind == QEvent.Type.KeyPress and cast(QKeyEvent, event).key() not in _MODIFIERS):
                self.next_action()
        elif kind in (QEvent.Type.Resize, QEvent.Type.Move, QEvent.Type.Show, QEvent.Type.Hide):
            self._refit()
        return super().eventFilter(watched, event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._refit()

    def _refit(self) -> None:
        """Fit the message shown to the room it has now, keeping the rest of its time."""
        if not self._full or super().currentMessage() != self._shown:
            return
        shown = self._fitted(self._full)
        if shown == self._shown:
            return
        left = 0
        if self._ends is not None:
            left = max(1, round((self._ends - time.monotonic()) * 1000))
        self._shown = shown
        super().showMessage(shown, left)
        self.setToolTip(self._full if shown != self._full else "")

    def room(self) -> int:
        """Pixels a message has, left of the permanent widgets shown: as their size hints ask
        (a label's new text), and no more than where the first of them is now, as QStatusBar
        cuts the message it paints (``QStatusBarPrivate::messageRect``)."""
        layout = self.layout()  # a status bar always has one
        spacing = layout.spacing() if layout is not None else 0
        shown = [w for w in self._permanent if w.isVisible()]
        room = self.width() - sum(w.sizeHint().width() + spacing for w in shown) - _SPARE
        placed = [w.x() for w in shown if w.width() > 0]
        if placed:
            room = min(room, min(placed) - _CUT)
        return room - (_GAP if shown else 0)

    def _fitted(self, text: str) -> str:
        room = self.room()
        if room <= 0 or self.fontMetrics().horizontalAdvance(text) <= room:
            return text
        return self.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, room)

    def showMessage(self, text: str, timeout: int | None = 0) -> None:
        """Show ``text`` until the next message (``timeout`` is not kept: see the module)."""
        self._full = text
        self._shown = self._fitted(text)
        self._ends = None
        super().showMessage(self._shown, 0)
        self.setToolTip(text if self._shown != text else "")
        if text:
            self._settled = False  # the action that said it is not the next one
            QTimer.singleShot(0, self, self._settle)
            self.said.emit(text)

    def say(self, text: str) -> None:
        """Send ``text`` to the screen reader (``said``) without showing it: news with a place of
        its own on screen (the tour's offer beside the messages), which a message would only
        cover or be covered by."""
        self.said.emit(text)

    def restate(self, text: str) -> None:
        """Put ``text`` in place of the message shown, not said again (``said``): the same news
        brought up to date ("Restoring with …" once the pass is over: "Restored with …"). It
        goes at the person's next action as the message it replaced would have."""
        self._full = text
        self._shown = self._fitted(text)
        super().showMessage(self._shown, 0)
        self.setToolTip(text if self._shown != text else "")

    def _settle(self) -> None:
        self._settled = True

    def next_action(self, *_args: object) -> None:
        """The person did something (moved the caret, went to a suggestion, chose a command):
        the message of an earlier action goes, and what it hid (the word count) is back."""
        if self._settled and super().currentMessage():
            self.clearMessage()

    def currentMessage(self) -> str:
        """The message as given, whole, while it is shown (elided or not)."""
        shown = super().currentMessage()
        return self._full if shown and shown == self._shown else shown

    def _message_changed(self, text: str) -> None:
        if not text:  # cleared (timed out): no tooltip for a message gone
            self._full = self._shown = ""
            self._ends = None
            self.setToolTip("")


class StatusLabel(QLabel):
    """The status bar's standing line (the word count, how restoration went): a text longer
    than its room ends in "…", whole in the tooltip (unless one is set), and never asks for
    more room: a long reason widened the window from 1300 to 1357 px. ``text()`` is whole."""

    def minimumSizeHint(self) -> QSize:
        return QSize(0, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:
        return QSize(0, super().sizeHint().height())

    def shown(self) -> str:
        """The text as it fits the room it has."""
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight,
                                             self.contentsRect().width())

    def paintEvent(self, event: QPaintEvent) -> None:
        # ended here, not when the frame is freed: a frame kept by a sampling profiler ended it
        # later, on the profiler's thread, under the next widget's paint (tests/gui/base)
        with QPainter(self) as painter:
            painter.setPen(self.palette().windowText().color())
            painter.drawText(self.contentsRect(), int(self.alignment()), self.shown())

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and not self.toolTip() and self.shown() != self.text():
            QToolTip.showText(event.globalPos(), self.text(), self)  # type: ignore[attr-defined]
            return True
        return super().event(event)


class ElidingLabel(StatusLabel):
    """A ``StatusLabel`` that asks for the room its whole text takes and, short of it, ends in
    "…" rather than hold the window wide: the player's "No sound output found…" note made a
    window with a recording at least 669 px wide."""

    def sizeHint(self) -> QSize:
        return QLabel.sizeHint(self)
