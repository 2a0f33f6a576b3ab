"""The margin left of the text: the speaker's name where one starts (in the speaker's colour);
each paragraph's start time (when the words have times), "¶" in a
suggestion's colour where Stet proposes a paragraph break (the text runs on there, shown on a new
line; Enter accepts the break, Delete keeps the text running on), and "⋯" where the text runs on
but is shown on a new line all the same, because a run of thousands of words without a line would
be slow to edit (a rejected break, or raw words with no likely sentence end: see
``editor.core.document.paragraphs.kept_lines``); not a break, not a suggestion, never exported. Subtitle cue boundaries are drawn in the text itself, as a
thin bar before a cue's first word (``paint_cue_bars``, called by the view's paint)."""

from __future__ import annotations

from typing import Protocol, cast

from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QRectF, QSize, Qt
from PySide6.QtGui import (QColor, QFont, QFontMetrics, QHelpEvent, QMouseEvent, QPainter, QPaintEvent,
                           QTextBlock, QTextCursor, QTextDocument)
from PySide6.QtWidgets import QToolTip, QWidget

from editor.core.document.transcript import Kind, State, Suggestion, Transcript
from editor.core.settings import Settings
from editor.gui.text_view.looks import band_colour, band_of, speaker_colour
from editor.gui.text_view.textmap import TextMap


class GutterHost(Protocol):
    """What the margin and the cue bars use of their view (``QtTranscriptView``)."""

    settings: Settings
    text_map: TextMap
    cue_ids: frozenset[int]  # the ids of subtitle cues' first words

    @property
    def transcript(self) -> Transcript: ...
    def has_times(self) -> bool: ...
    def has_soft_breaks(self) -> bool: ...
    def speaker_names(self) -> list[str]: ...
    def sep_of(self, index: int) -> str: ...
    def token_at(self, position: int) -> int | None: ...
    def set_current(self, suggestion: Suggestion | None) -> None: ...
    def setFocus(self) -> None: ...
    def firstVisibleBlock(self) -> QTextBlock: ...
    def contentOffset(self) -> QPointF: ...
    def blockBoundingGeometry(self, block: QTextBlock, /) -> QRectF: ...
    def blockBoundingRect(self, block: QTextBlock, /) -> QRectF: ...
    def cursorForPosition(self, pos: QPoint, /) -> QTextCursor: ...
    def cursorRect(self, cursor: QTextCursor, /) -> QRect: ...
    def viewport(self) -> QWidget: ...
    def document(self) -> QTextDocument: ...
    def fontMetrics(self) -> QFontMetrics: ...

GUTTER_COLOUR = "#6b6b6b"
CUE_COLOUR = "#9aa7b8"  # the bar before a subtitle cue's first word
PROPOSED = "¶"  # a proposed paragraph break
SPEAKER_CHARS = 14  # a longer speaker's name is cut short with "…" in the margin
CONTINUES = "⋯"  # the text runs on, shown on a new line (no break there)
PROPOSED_TIP = ("Suggested paragraph break ({p:.0%}: how likely a sentence ends here). Click it, "
                "then Enter accepts, Delete keeps the text running on")
CONTINUES_TIP = ("The paragraph runs on: you kept this text in one paragraph; it is shown on a "
                 "new line only so that a very long paragraph stays quick to edit")
RUNS_ON_TIP = ("The paragraph runs on here: no break, nothing to review. It is shown on a new line "
               "only so that a paragraph of thousands of words stays quick to edit; breaks are "
               "proposed where sentences are likely to end (after restoration)")


def format_time(seconds: float) -> str:
    """0:07, 12:34, 1:02:03 — as a transcript's margin and Ctrl+J show a time."""
    whole = max(0, int(seconds))
    h, rest = divmod(whole, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class TimeGutter(QWidget):
    """Painted by the view's scroll updates; shows nothing (and takes no room) for a transcript
    with neither word times nor proposed paragraph breaks."""

    def __init__(self, view: GutterHost, parent: QWidget) -> None:
        super().__init__(parent)
        self.view = view
        self.setObjectName("time-gutter")
        self.setMouseTracking(True)

    def wanted_width(self) -> int:
        return self.speaker_width() + self._times_width()

    def _times_width(self) -> int:
        times, soft = self.view.has_times(), self.view.has_soft_breaks()
        if not times and not soft:
            return 0
        # a line shown apart without a paragraph break has its mark and its time: "¶ 1:02:03"
        return self.fontMetrics().horizontalAdvance(f"{PROPOSED} 0:00:00" if times and soft else "0:00:00") + 10

    def speaker_width(self) -> int:
        """The room for speakers' names at the left of the margin (none without speakers)."""
        names = self.view.speaker_names()
        if not names:
            return 0
        bold = QFont(self.font())
        bold.setBold(True)
        metrics = QFontMetrics(bold)
        return min(max(metrics.horizontalAdvance(n) for n in names), metrics.averageCharWidth() * SPEAKER_CHARS) + 10

    def speaker_labels(self, rect: QRect | None = None) -> list[tuple[int, str]]:
        """(top y in the viewport, name) where a speaker starts, for each such line on screen."""
        view = self.view
        out: list[tuple[int, str]] = []
        if not len(view.text_map) or not view.speaker_names():
            return out
        doc = view.transcript
        for top, _height, i in self._lines(rect):
            name = doc[i].speaker
            if name and (i == 0 or doc[i - 1].speaker != name):
                out.append((top, name))
        return out

    def _lines(self, rect: QRect | None = None) -> list[tuple[int, int, int]]:
        """(top y in the viewport, height, first token index) of each line shown on screen."""
        view = self.view
        out: list[tuple[int, int, int]] = []
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
                    out.append((top, height, i))
            block = block.next()
            top += height
        return out

    def sizeHint(self) -> QSize:
        return QSize(self.wanted_width(), 0)

    def entries(self, rect: QRect | None = None) -> list[tuple[int, int, str, int]]:
        """(top y in the viewport, height, text, token index) of each label on screen."""
        view = self.view
        out: list[tuple[int, int, str, int]] = []
        if not len(view.text_map):
            return out
        doc = view.transcript
        for top, height, i in self._lines(rect):
            text = ""
            if view.sep_of(i) == "\n" and i > 0 and not doc.is_paragraph_start(i):
                s = doc.suggestion_view(doc[i].id).get(Kind.BREAK)
                text = PROPOSED if s is not None and s.state == State.PENDING else CONTINUES
            elif (start := doc[i].start) is not None:
                text = format_time(start)
            if text:
                out.append((top, height, text, i))
        return out

    def labels(self, rect: QRect | None = None) -> list[tuple[int, str]]:
        """(top y in the viewport, text) of each label on screen (tests read these)."""
        return [(top, text) for top, _h, text, _i in self.entries(rect)]

    def _time_of(self, text: str, index: int) -> str:
        """The time shown beside ``text`` (a "¶" or "⋯" line): when its first word was said."""
        if text not in (PROPOSED, CONTINUES):
            return ""
        start = self.view.transcript[index].start
        return format_time(start) if start is not None else ""

    def times(self, rect: QRect | None = None) -> list[tuple[int, str]]:
        """(top y, time) of each line on screen shown apart without a paragraph break ("¶", "⋯")
        whose first word has a time: a transcript in one paragraph (a recording, a subtitle file)
        gets a time beside each line that reads as a paragraph, not 0:00 alone."""
        return [(top, t) for top, _h, text, i in self.entries(rect) if (t := self._time_of(text, i))]

    def _proposal(self, index: int) -> Suggestion | None:
        s = self.view.transcript.suggestion_view(self.view.transcript[index].id).get(Kind.BREAK)
        return s if s is not None and s.state == State.PENDING else None

    def _entry_at(self, y: int) -> tuple[int, int, str, int] | None:
        line = self.fontMetrics().height()
        return next((e for e in self.entries() if e[0] <= y < e[0] + max(line, 1)), None)

    def paintEvent(self, event: QPaintEvent) -> None:
        with QPainter(self) as painter:  # ended on the way out, an error too (see StatusLabel.paintEvent)
            line = self.fontMetrics().height()
            settings = self.view.settings
            bold = QFont(self.font())
            bold.setBold(True)
            left = self.speaker_width()
            if left:
                painter.setFont(bold)
                names = self.view.speaker_names()
                for top, name in self.speaker_labels(event.rect()):
                    painter.setPen(QColor(speaker_colour(names.index(name) if name in names else 0)))
                    shown = QFontMetrics(bold).elidedText(name, Qt.TextElideMode.ElideRight, left - 8)
                    painter.drawText(2, top, left - 6, line,
                                     Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, shown)
            for top, _h, text, i in self.entries(event.rect()):
                s = self._proposal(i) if text == PROPOSED else None
                if s is not None:  # drawn in its confidence band's colour, as suggestions are
                    painter.setFont(bold)
                    painter.setPen(band_colour(band_of(s.confidence, settings), settings))
                else:
                    painter.setFont(self.font())
                    painter.setPen(QColor(GUTTER_COLOUR))
                when = self._time_of(text, i)
                if when:  # the mark at the left, the time at the right, as a paragraph's time stands
                    painter.drawText(left + 2, top, self.width() - left - 8, line,
                                     Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
                    painter.setFont(self.font())
                    painter.setPen(QColor(GUTTER_COLOUR))
                    text = when
                painter.drawText(0, top, self.width() - 6, line,
                                 Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, text)

    def tip_at(self, y: int, x: int = 0) -> str:
        """What the margin's hover says at ``x``, ``y`` (a speaker's name at the left)."""
        if x < self.speaker_width():
            line = max(self.fontMetrics().height(), 1)
            said = next((name for top, name in self.speaker_labels() if top <= y < top + line), None)
            if said is not None:
                return f"{said} speaks from here (the Speakers menu gives words a speaker)"
        entry = self._entry_at(y)
        if entry is None:
            return ""
        text, i = entry[2], entry[3]
        when = self._time_of(text, i)
        when = f"; its first word is said at {when}" if when else ""
        if text == PROPOSED:
            s = self._proposal(i)
            return PROPOSED_TIP.format(p=s.confidence) + when if s is not None else ""
        if text == CONTINUES:
            s = self.view.transcript.suggestion_view(self.view.transcript[i].id).get(Kind.BREAK)
            return (CONTINUES_TIP if s is not None else RUNS_ON_TIP) + when
        return "Start time of the paragraph"

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            help_event = cast(QHelpEvent, event)  # a ToolTip event is always a QHelpEvent
            tip = self.tip_at(help_event.pos().y(), help_event.pos().x())
            if tip:
                QToolTip.showText(help_event.globalPos(), tip, self)
            else:
                QToolTip.hideText()
            return True
        return super().event(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        """A click on "¶" makes that proposed break the suggestion under review."""
        entry = self._entry_at(round(event.position().y()))
        s = self._proposal(entry[3]) if entry is not None and entry[2] == PROPOSED else None
        if s is not None:
            self.view.set_current(s)
            self.view.setFocus()
        else:
            super().mousePressEvent(event)


def paint_cue_bars(view: GutterHost) -> None:
    """A thin bar before the first word of each subtitle cue on screen (``view.cue_ids``)."""
    doc, tm = view.transcript, view.text_map
    top = view.cursorForPosition(QPoint(0, 0)).position()
    vp = view.viewport()
    bottom = view.cursorForPosition(QPoint(vp.width() - 1, vp.height() - 1)).position()
    first = max(1, tm.piece_at(top) or 0)
    last = min(len(tm), len(doc), (tm.piece_at(bottom) or 0) + 2)
    with QPainter(vp) as painter:  # ended on the way out, an error too (see StatusLabel.paintEvent)
        painter.setPen(QColor(CUE_COLOUR))
        cursor = QTextCursor(view.document())
        gap = max(2, view.fontMetrics().horizontalAdvance(" ") // 2)
        for i in range(first, last):
            if doc[i].id in view.cue_ids:
                cursor.setPosition(min(tm.word_range(i)[0], tm.total))
                rect = view.cursorRect(cursor)
                painter.drawLine(rect.left() - gap, rect.top() + 2, rect.left() - gap, rect.bottom() - 2)
