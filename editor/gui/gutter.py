"""The margin left of the text: each paragraph's start time (when the words have times), and "⋯"
where a huge paragraph continues in the next block (the view lays out a paragraph of more than
``LONG_PARAGRAPH`` words in pieces; the mark says it is one paragraph). Subtitle cue boundaries are
drawn in the text itself, as a thin bar before a cue's first word (``paint_cue_bars``, called by
the view's paint)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QTextCursor
from PySide6.QtWidgets import QWidget

GUTTER_COLOUR = "#6b6b6b"
CUE_COLOUR = "#9aa7b8"  # the bar before a subtitle cue's first word
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
        if not len(view.text_map):
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


def paint_cue_bars(view) -> None:
    """A thin bar before the first word of each subtitle cue on screen (``view.cue_ids``)."""
    doc, tm = view.transcript, view.text_map
    top = view.cursorForPosition(QPoint(0, 0)).position()
    vp = view.viewport()
    bottom = view.cursorForPosition(QPoint(vp.width() - 1, vp.height() - 1)).position()
    first = max(1, tm.piece_at(top) or 0)
    last = min(len(tm), len(doc), (tm.piece_at(bottom) or 0) + 2)
    painter = QPainter(vp)
    painter.setPen(QColor(CUE_COLOUR))
    cursor = QTextCursor(view.document())
    gap = max(2, view.fontMetrics().horizontalAdvance(" ") // 2)
    for i in range(first, last):
        if doc[i].id in view.cue_ids:
            cursor.setPosition(min(tm.word_range(i)[0], tm.total))
            rect = view.cursorRect(cursor)
            painter.drawLine(rect.left() - gap, rect.top() + 2, rect.left() - gap, rect.bottom() - 2)
    painter.end()
