"""The window's status bar: a message too long for the room left of the permanent widgets ends
in "…" with the whole of it in the bar's tooltip, instead of being cut mid-word against them
(a reader's note about YouTube captions read "…written back as subtitles, the cuEditing")."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QStatusBar, QToolTip, QWidget

_SPARE = 24  # the size grip and the bar's margins


class StatusBar(QStatusBar):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._permanent: list[QWidget] = []
        self._full = ""  # the message as given
        self._shown = ""  # as shown, elided when it did not fit
        self.messageChanged.connect(self._message_changed)

    def addPermanentWidget(self, widget: QWidget, stretch: int | None = 0) -> None:
        self._permanent.append(widget)
        super().addPermanentWidget(widget, stretch)

    def room(self) -> int:
        """Pixels a message has, left of the permanent widgets shown."""
        layout = self.layout()  # a status bar always has one
        spacing = layout.spacing() if layout is not None else 0
        taken = sum(w.sizeHint().width() + spacing for w in self._permanent if w.isVisible())
        return self.width() - taken - _SPARE

    def _fitted(self, text: str) -> str:
        room = self.room()
        if room <= 0 or self.fontMetrics().horizontalAdvance(text) <= room:
            return text
        return self.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, room)

    def showMessage(self, text: str, timeout: int | None = 0) -> None:
        self._full = text
        self._shown = self._fitted(text)
        super().showMessage(self._shown, timeout)
        self.setToolTip(text if self._shown != text else "")

    def currentMessage(self) -> str:
        """The message as given, whole, while it is shown (elided or not)."""
        shown = super().currentMessage()
        return self._full if shown and shown == self._shown else shown

    def _message_changed(self, text: str) -> None:
        if not text:  # cleared (timed out): no tooltip for a message gone
            self._full = self._shown = ""
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
        painter = QPainter(self)
        painter.setPen(self.palette().windowText().color())
        painter.drawText(self.contentsRect(), int(self.alignment()), self.shown())

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and not self.toolTip() and self.shown() != self.text():
            QToolTip.showText(event.globalPos(), self.text(), self)  # type: ignore[attr-defined]
            return True
        return super().event(event)
