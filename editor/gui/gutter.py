"""The margin left of the text: each paragraph's start time (when the words have times), and "⋯"
where a huge paragraph continues in the next block (the view lays out a paragraph of more than
``LONG_PARAGRAPH`` words in pieces; the mark says it is one paragraph). Subtitle cue boundaries are
drawn in the text itself, as a thin bar before a cue's first word (``QtTranscriptView``)."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QWidget

GUTTER_COLOUR = "#6b6b6b"
CONTINUES = "⋯"


def format_time(seconds: float) -> str:
    """0:07, 12:34, 1:02:03 — as a transcript's margin and Ctrl+J show a time."""
    whole = max(0, int(seconds))
    h, rest = divmod(whole, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class TimeGutter(QWidget):
    """Painted by the view's scroll updates; shows nothing (and takes no room) for a transcript
    with neither word times nor huge paragraphs."""

    def __init__(self, view) -> None:
        super().__init__(view)
        self.view = view
        self.setObjectName("time-gutter")
        self.setToolTip("Start time of each paragraph; ⋯: the paragraph goes on (a very long "
                        "paragraph is shown in pieces)")

    def wanted_width(self) -> int:
        if not self.view.has_times() and not self.view.has_soft_breaks():
            return 0
        return self.fontMetrics().horizontalAdvance("0:00:00") + 10

    def sizeHint(self) -> QSize:
        return QSize(self.wanted_width(), 0)

    def labels(self, rect: QRect | None = None) -> list[tuple[int, str]]:
        """(top y in the viewport, text) of each label on screen (tests read these)."""
        view = self.view
        out: list[tuple[int, str]] = []
        if not view._ulen:
            return out
        doc = view.transcript
        block = view.firstVisibleBlock()
        offset = view.contentOffset()
        top = round(view.blockBoundingGeometry(block).translated(offset).top())
        bottom = (rect or self.rect()).bottom()
        while block.isValid() and top <= bottom:
            height = round(view.blockBoundingRect(block).height())
            if block.isVisible() and block.length() > 1:
                i = view.token_at(block.position())
                if i is not None and 0 <= i < len(doc):
                    text = ""
                    if view.sep_of(i) == "\n" and i > 0 and not doc.is_paragraph_start(i):
                        text = CONTINUES
                    elif doc[i].start is not None:
                        text = format_time(doc[i].start)
                    if text:
                        out.append((top, text))
            block = block.next()
            top += height
        return out

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setPen(QColor(GUTTER_COLOUR))
        line = self.fontMetrics().height()
        for top, text in self.labels(event.rect()):
            painter.drawText(0, top, self.width() - 6, line,
                             Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, text)
        painter.end()
