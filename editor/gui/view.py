"""The transcript as editable text, with pending suggestions shown inline and coloured by confidence.

The text is built once; afterwards each document event rewrites only the tokens it names (a chunk of
restoration results touches a few hundred words, never the whole document). Typing, deleting and
pasting are turned into ``Transcript.replace_span`` over whole words; the text widget never changes
its own text.
"""

from __future__ import annotations

import bisect
import html
import itertools
from collections.abc import Iterable

from PySide6.QtCore import QEvent, QMimeData, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QTextCharFormat,
    QTextCursor,
    QTextFormat,
)
from PySide6.QtWidgets import QMenu, QPlainTextEdit, QTextEdit, QToolTip, QWidget

from editor.core.document import Kind, State, Suggestion, Transcript
from editor.core.layout import Layout, WordSpan
from editor.core.learning import decide
from editor.core.settings import Settings
from editor.gui import hotkeys
from editor.gui.gutter import TimeGutter, format_time

BANDS = ("high", "medium", "low")
PARAGRAPH_GAP = "\n\n"  # an empty line between paragraphs, as the text will be written
SOFT_BREAK = "\n"  # a line break the view adds inside a huge paragraph; reads as a space
LONG_PARAGRAPH, SOFT_EVERY = 2000, 1000  # words
# Why soft breaks at all: a text block is laid out again whole on every change. Measured with a
# 12,000-word raw transcript in one paragraph (02:50 UTC, 2 busy cores, offscreen), one slice of
# restoration results cost 26 ms to restyle plus 30 ms to lay out and paint as one block, 2-3 ms
# in blocks of 150 words, 5-10 ms in blocks of 1,000-2,000 words. So no paragraph of up to 2,000
# words (a quarter of an hour of speech) is ever broken; a longer one is shown in blocks of 1,000
# words, each continuation marked "⋯" in the margin, so it never reads as a paragraph break.
_ALPHA = {"high": 70, "medium": 110, "low": 120}
CUE_COLOUR = "#9aa7b8"  # the bar before a subtitle cue's first word
CURRENT_COLOUR = "#1a1a1a"  # the frame around the suggestion under review
EDITING_NOTE = "Editing: Enter, Delete and 1–9 edit the text again (Tab goes back to the suggestions)"  # lighter where there are many, so text stays legible


def band_of(confidence: float, settings: Settings) -> str:
    if confidence >= settings.review.high:
        return "high"
    return "low" if confidence < settings.review.low else "medium"


def band_colour(band: str, settings: Settings, alpha: int | None = None) -> QColor:
    colour = QColor(getattr(settings.appearance, f"{band}_colour"))
    if alpha is not None:
        colour.setAlpha(alpha)
    return colour


def _repeated(n: int) -> str:
    return f"proposed the same in {n} other place{'s' if n != 1 else ''} (from your choice)"


def describe_value(kind: Kind, value: str) -> str:
    if kind == Kind.PUNCT:
        return repr(value) if value else "no mark"
    return value


class QtTranscriptView(QPlainTextEdit):
    """Shows a ``Transcript``; the person edits it here and reviews its suggestions.

    ``current_changed(Suggestion | None)``: the suggestion under review changed.
    ``token_activated(index)``: Ctrl+click on a word (a player seeks there).
    """

    current_changed = Signal(object)
    token_activated = Signal(int)
    message = Signal(str)  # a short note for the status bar
    review_mode_changed = Signal(bool)  # True: Enter, Delete and 1-9 act on suggestions

    def __init__(self, transcript: Transcript, settings: Settings | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings or Settings()
        self.setUndoRedoEnabled(False)  # undo lives in the transcript
        self.setAcceptDrops(False)  # files dropped here go to the window
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setCenterOnScroll(False)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.DefaultContextMenu)
        self.setMouseTracking(True)
        self.setPlaceholderText("Open a transcript (Ctrl+O) or drop a file here.")
        self.document().setDocumentMargin(12)
        self.order = self.settings.review.order  # "position" or "confidence"
        self._transcript: Transcript | None = None
        self._current: tuple[int, Kind] | None = None
        # Review mode: entered by Tab, Shift+Tab, a click on a suggestion or the list; left when the
        # caret moves away or on Esc. Only in it do Enter, Delete and 1-9 act on suggestions (and
        # with nothing current they do nothing rather than edit), so they never edit by surprise.
        self._reviewing = False
        self.frozen = False  # a bulk step runs: keys that would change the text wait
        self._mouse_down = False
        self._was_reviewing = False
        self._extra: dict[str, list[QTextEdit.ExtraSelection]] = {"played": [], "current": []}
        self._last_rank: tuple[float, int, int] | None = None
        self._moving = False
        self._dirty: set[int] = set()  # token ids whose look must be brought up to date
        self._run: tuple[str, int] | None = None  # the typing run going on: (kind, caret after it)
        self._run_id = 0
        self._held: tuple[int, str] | None = None  # whitespace typed that waits for the next word
        self._soft: set[int] = set()
        self.last_changed: int | None = None  # lowest token index redrawn since last reset
        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.setInterval(0)
        self._flush_timer.timeout.connect(self.flush)
        self.cursorPositionChanged.connect(self._caret_moved)
        self._timed = False  # some word has a time: the margin shows paragraph times
        self._cue_ids: frozenset[int] = frozenset()  # first words of subtitle cues (a bar before)
        self.gutter = TimeGutter(self)
        self.updateRequest.connect(self._update_gutter)
        self.apply_settings()
        self.set_transcript(transcript)

    # -- the model --------------------------------------------------------------------------------
    @property
    def transcript(self) -> Transcript:
        assert self._transcript is not None
        return self._transcript

    def set_transcript(self, transcript: Transcript) -> None:
        old = self._transcript
        if old is not None:
            old.tokens_changed.disconnect(self._on_tokens_changed)
            old.suggestions_changed.disconnect(self._on_suggestions_changed)
            old.paragraphs_changed.disconnect(self._on_paragraphs_changed)
        self._transcript = transcript
        transcript.tokens_changed.connect(self._on_tokens_changed)
        transcript.suggestions_changed.connect(self._on_suggestions_changed)
        transcript.paragraphs_changed.connect(self._on_paragraphs_changed)
        self._set_current(None)
        self.rebuild()

    def apply_settings(self) -> None:
        """Fonts and colours from settings (after the settings dialog)."""
        font = QFont(self.font())
        font.setStyleHint(QFont.StyleHint.SansSerif)
        font.setPointSize(self.settings.appearance.font_size)
        self.setFont(font)
        self._formats = {band: self._band_format(band) for band in BANDS}
        self._mark_formats = {band: self._band_format(band, mark=True) for band in BANDS}
        self._plain = QTextCharFormat()
        small = QFont(font)
        small.setPointSize(max(6, round(font.pointSize() * 0.8)))
        self.gutter.setFont(small)
        if self._transcript is not None:
            self.rebuild()

    def _band_format(self, band: str, mark: bool = False) -> QTextCharFormat:
        """A suggested capital is tinted; a suggested mark also bold and a shade stronger, so a
        lone comma stands out."""
        fmt = QTextCharFormat()
        fmt.setBackground(band_colour(band, self.settings, _ALPHA[band] + (60 if mark else 0)))
        if mark:
            fmt.setFontWeight(QFont.Weight.Bold)
        if band == "low":  # a cue that does not depend on telling colours apart
            fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DotLine)
            fmt.setUnderlineColor(band_colour(band, self.settings))
        fmt.setProperty(QTextFormat.Property.UserProperty, band)
        return fmt

    # -- what a token looks like ------------------------------------------------------------------
    def _look(self, index: int) -> tuple[str, str, str, QTextCharFormat | None, QTextCharFormat | None]:
        """(separator, surface, punct, surface format, punct format) of token ``index``."""
        doc = self.transcript
        token = doc[index]
        sep = ("" if index == 0 else PARAGRAPH_GAP if doc.is_paragraph_start(index)
               else SOFT_BREAK if token.id in self._soft else " ")
        surface, punct = token.surface or token.word, token.punct
        sfmt = pfmt = None
        slot = doc._sugg.get(token.id)  # read-only peek: this runs for every token of a rebuild
        if slot:
            case = slot.get(Kind.CASE)
            if case is not None and case.state == State.PENDING:
                surface = case.value or surface
                sfmt = self._formats[band_of(case.confidence, self.settings)]
            mark = slot.get(Kind.PUNCT)
            if mark is not None and mark.state == State.PENDING:
                punct = mark.value
                pfmt = self._mark_formats[band_of(mark.confidence, self.settings)]
                if not punct:  # a mark to take away: underline the word in the band's colour
                    sfmt = QTextCharFormat(sfmt or self._plain)
                    sfmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
                    sfmt.setUnderlineColor(band_colour(band_of(mark.confidence, self.settings),
                                                       self.settings))
        return sep, surface, punct, sfmt, pfmt

    def rebuild(self) -> None:
        """Lay the whole text out again (opening a document, new settings)."""
        doc = self.transcript
        tokens = doc.tokens
        # words with times have them throughout: a look at both ends is enough (and quick)
        self._timed = any(t.start is not None for t in (*tokens[:100], *tokens[-100:]))
        # Subtitle cues as read (``Metadata.cues``, where the reader keeps them): a bar marks where
        # each begins.
        self._cue_ids = frozenset(c.token_ids[0] for c in getattr(doc.metadata, "cues", ())
                                  if getattr(c, "token_ids", ()))
        self._soft = self._soft_breaks()
        # In bulk, without a _look per word: opening 100,000 words spent most of its time there.
        n = len(tokens)
        seps = [" "] * n
        if n:
            seps[0] = ""
        if self._soft:
            for i, t in enumerate(tokens):
                if t.id in self._soft:
                    seps[i] = SOFT_BREAK
        for i in doc.paragraph_starts:
            if 0 < i < n:
                seps[i] = PARAGRAPH_GAP
        surfs = [t.surface or t.word for t in tokens]
        puncts = [t.punct for t in tokens]
        looks = []
        sugg = doc._sugg  # read-only peek
        for i, t in enumerate(tokens) if sugg else ():
            if t.id in sugg:
                look = self._look(i)
                surfs[i], puncts[i] = look[1], look[2]
                if look[3] is not None or look[4] is not None:
                    looks.append((i, look))
        self._sep, self._surf, self._punct = seps, surfs, puncts
        pieces = list(map(str.__add__, map(str.__add__, seps, surfs), puncts))
        self._ulen = list(map(len, pieces))
        self._prefix: list[int] | None = None
        self._dirty.clear()
        self._moving = True
        try:
            self.setPlainText("".join(pieces))
            prefix = self._offsets()
            cursor = QTextCursor(self.document())
            cursor.beginEditBlock()
            for i, (sep, surface, punct, sfmt, pfmt) in looks:
                self._format_token(cursor, prefix[i] + len(sep), surface, punct, sfmt, pfmt)
            cursor.endEditBlock()
        finally:
            self._moving = False
        self._layout_gutter()

    # -- the margin and cue bars ------------------------------------------------------------------
    def has_times(self) -> bool:
        return self._timed

    def has_soft_breaks(self) -> bool:
        return bool(self._soft)

    def sep_of(self, index: int) -> str:
        return self._sep[index]

    def _layout_gutter(self) -> None:
        width = self.gutter.wanted_width()
        if self.viewportMargins().left() != width:
            self.setViewportMargins(width, 0, 0, 0)
        rect = self.contentsRect()
        self.gutter.setGeometry(rect.left(), rect.top(), width, rect.height())
        self.gutter.setVisible(width > 0)
        self.gutter.update()

    def _update_gutter(self, rect, dy: int) -> None:
        if dy:
            self.gutter.scroll(0, dy)
        else:
            self.gutter.update(0, rect.y(), self.gutter.width(), rect.height())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._layout_gutter()

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if self._cue_ids and self._ulen:
            self._paint_cue_bars()

    def _paint_cue_bars(self) -> None:
        """A thin bar before the first word of each subtitle cue on screen."""
        from PySide6.QtGui import QPainter

        doc = self.transcript
        top = self.cursorForPosition(QPoint(0, 0)).position()
        vp = self.viewport()
        bottom = self.cursorForPosition(QPoint(vp.width() - 1, vp.height() - 1)).position()
        prefix = self._offsets()
        first = max(1, bisect.bisect_right(prefix, top) - 1)
        last = min(len(self._ulen), len(doc), bisect.bisect_right(prefix, bottom) + 1)
        painter = QPainter(vp)
        painter.setPen(QColor(CUE_COLOUR))
        cursor = QTextCursor(self.document())
        for i in range(first, last):
            if doc[i].id in self._cue_ids:
                cursor.setPosition(min(prefix[i] + len(self._sep[i]), prefix[-1]))
                rect = self.cursorRect(cursor)
                x = rect.left() - max(2, self.fontMetrics().horizontalAdvance(" ") // 2)
                painter.drawLine(x, rect.top() + 2, x, rect.bottom() - 2)
        painter.end()

    def _soft_breaks(self) -> set[int]:
        """Ids of the words that start a new line inside a very long paragraph. Chosen when the
        text is laid out or paragraphs change, then kept by id, so typing never moves them."""
        doc = self.transcript
        soft: set[int] = set()
        for paragraph in doc.paragraphs():
            if len(paragraph) > LONG_PARAGRAPH:
                soft.update(doc[i].id for i in paragraph[SOFT_EVERY::SOFT_EVERY])
        return soft

    def _offsets(self) -> list[int]:
        if self._prefix is None:
            self._prefix = [0, *itertools.accumulate(self._ulen)]
        return self._prefix

    def _format_token(self, cursor: QTextCursor, at: int, surface: str, punct: str,
                      sfmt: QTextCharFormat | None, pfmt: QTextCharFormat | None) -> None:
        if sfmt is pfmt:  # both plain: one range
            cursor.setPosition(at)
            cursor.setPosition(at + len(surface) + len(punct), QTextCursor.MoveMode.KeepAnchor)
            cursor.setCharFormat(sfmt or self._plain)
            return
        cursor.setPosition(at)
        cursor.setPosition(at + len(surface), QTextCursor.MoveMode.KeepAnchor)
        cursor.setCharFormat(sfmt or self._plain)
        if punct:
            cursor.setPosition(at + len(surface))
            cursor.setPosition(at + len(surface) + len(punct), QTextCursor.MoveMode.KeepAnchor)
            cursor.setCharFormat(pfmt or self._plain)

    # -- keeping up with the document -------------------------------------------------------------
    def _on_tokens_changed(self, start: int, removed: int, inserted: int) -> None:
        if removed == inserted:  # words edited in place (accepting): restyle them later
            self._dirty.update(t.id for t in self.transcript.tokens[start:start + inserted])
            self._flush_timer.start()
            return
        self._splice(start, removed, inserted)

    def _on_suggestions_changed(self, token_ids: tuple) -> None:
        self._dirty.update(token_ids)
        self._flush_timer.start()
        if self._current is not None and self._current[0] in token_ids:
            s = self.current
            if s is None or s.state != State.PENDING:
                self._set_current(None, select=False)
            else:
                self.current_changed.emit(s)

    def _on_paragraphs_changed(self) -> None:
        doc = self.transcript
        self._soft = self._soft_breaks()
        starts = set(doc.paragraph_starts)
        soft = self._soft
        tokens = doc.tokens
        changed = [i for i in range(1, len(doc)) if self._sep[i] != (
            PARAGRAPH_GAP if i in starts else SOFT_BREAK if tokens[i].id in soft else " ")]
        if changed:
            self._rewrite(changed)
        self._layout_gutter()

    def _splice(self, start: int, removed: int, inserted: int) -> None:
        self.flush()  # pending restyles use indices from before the splice
        prefix = self._offsets()
        a, b = prefix[start], prefix[start + removed]
        looks = [self._look(i) for i in range(start, start + inserted)]
        if not self._timed and any(t.start is not None for t in self.transcript.tokens[start:start + inserted]):
            self._timed = True
            QTimer.singleShot(0, self._layout_gutter)
        self._moving = True
        try:
            cursor = QTextCursor(self.document())
            cursor.beginEditBlock()
            cursor.setPosition(a)
            cursor.setPosition(b, QTextCursor.MoveMode.KeepAnchor)
            cursor.removeSelectedText()
            for sep, surface, punct, sfmt, pfmt in looks:
                self._insert(cursor, sep, surface, punct, sfmt, pfmt)
            cursor.endEditBlock()
        finally:
            self._moving = False
        self._sep[start:start + removed] = [lk[0] for lk in looks]
        self._surf[start:start + removed] = [lk[1] for lk in looks]
        self._punct[start:start + removed] = [lk[2] for lk in looks]
        self._ulen[start:start + removed] = [len(x[0]) + len(x[1]) + len(x[2]) for x in looks]
        self._prefix = None
        self._note_change(start)
        # The word after the span may now need another separator (the first word went away).
        following = start + inserted
        if following < len(self.transcript):
            self._rewrite([following])

    def _insert(self, cursor: QTextCursor, sep: str, surface: str, punct: str,
                sfmt: QTextCharFormat | None, pfmt: QTextCharFormat | None) -> None:
        if sep:
            cursor.insertText(sep, self._plain)
        cursor.insertText(surface, sfmt or self._plain)
        if punct:
            cursor.insertText(punct, pfmt or self._plain)

    def flush(self) -> None:
        """Bring the tokens named by recent events up to date (runs once per event-loop turn)."""
        self._flush_timer.stop()
        if not self._dirty:
            return
        doc = self.transcript
        indices = []
        for token_id in self._dirty:
            try:
                indices.append(doc.index_of(token_id))
            except KeyError:
                continue
        self._dirty.clear()
        self._rewrite(indices)

    def _rewrite(self, indices: Iterable[int]) -> None:
        """Redraw tokens ``indices``: new text where it changed, new colours where it did not."""
        indices = sorted(set(indices), reverse=True)
        if indices:
            self._note_change(indices[-1])
        prefix = self._offsets()
        changed_length = False
        self._moving = True
        try:
            cursor = QTextCursor(self.document())
            cursor.beginEditBlock()
            for i in indices:  # from the end: earlier offsets stay valid
                sep, surface, punct, sfmt, pfmt = look = self._look(i)
                at = prefix[i]
                if sep == self._sep[i] and surface == self._surf[i] and punct == self._punct[i]:
                    self._format_token(cursor, at + len(sep), surface, punct, sfmt, pfmt)
                    continue
                cursor.setPosition(at)
                cursor.setPosition(prefix[i + 1], QTextCursor.MoveMode.KeepAnchor)
                cursor.removeSelectedText()
                self._insert(cursor, *look)
                self._sep[i], self._surf[i], self._punct[i] = sep, surface, punct
                self._ulen[i] = len(sep) + len(surface) + len(punct)
                changed_length = True
            cursor.endEditBlock()
        finally:
            self._moving = False
        if changed_length:
            self._prefix = None

    def _note_change(self, index: int) -> None:
        self.last_changed = index if self.last_changed is None else min(self.last_changed, index)

    def reveal_last_change(self) -> None:
        """Scroll to the first word changed since ``last_changed`` was reset, if off screen."""
        self.flush()
        if self.last_changed is not None and self._ulen:
            self.scroll_to_token(min(self.last_changed, len(self._ulen) - 1))

    def reveal_change(self, change) -> None:
        """Run ``change()`` (an undo, a redo) and scroll to what it changed if that is off screen."""
        self.flush()
        self.last_changed = None
        change()
        self.flush()
        if self.last_changed is not None and self._ulen:
            self.scroll_to_token(min(self.last_changed, len(self._ulen) - 1))

    # -- positions ---------------------------------------------------------------------------------
    def token_range(self, index: int) -> tuple[int, int, int]:
        """(start, punct start, end) character positions of token ``index`` as shown."""
        self.flush()
        prefix = self._offsets()
        at = prefix[index] + len(self._sep[index])
        return at, at + len(self._surf[index]), prefix[index + 1]

    def token_at(self, position: int) -> int | None:
        """The token at a character position (the one before it in a gap)."""
        if not self._ulen:
            return None
        self.flush()
        prefix = self._offsets()
        i = bisect.bisect_right(prefix, position) - 1
        i = min(max(i, 0), len(self._ulen) - 1)
        # A position on the separator before a word belongs to the word before.
        if i > 0 and position < prefix[i] + len(self._sep[i]):
            i -= 1
        return i

    def visible_tokens(self) -> tuple[int, int]:
        """Index range of the words on screen (what restoration should do first)."""
        if not self._ulen:
            return 0, 0
        top = self.cursorForPosition(QPoint(0, 0)).position()
        vp = self.viewport()
        bottom = self.cursorForPosition(QPoint(vp.width() - 1, vp.height() - 1)).position()
        first, last = self.token_at(top) or 0, self.token_at(bottom) or 0
        return first, min(len(self._ulen), last + 1)

    def shown_text(self) -> str:
        """The text as displayed (pending suggestions applied; a soft break reads as a space)."""
        self.flush()
        return "".join(f"{' ' if sep == SOFT_BREAK else sep}{surface}{punct}"
                       for sep, surface, punct in zip(self._sep, self._surf, self._punct))

    # -- editing -------------------------------------------------------------------------------------
    def edit_characters(self, start: int, end: int, typed: str) -> int:
        """Characters ``start:end`` of the shown text become ``typed``; returns where the caret goes."""
        self.flush()
        doc = self.transcript
        n = len(doc)
        if n == 0:
            doc.replace_span(0, 0, typed)
            return len(typed)
        prefix = self._offsets()
        i0, i1 = self.token_at(start) or 0, self.token_at(end) or 0
        a, b = max(0, i0 - 1), min(n, i1 + 2)
        base = prefix[a] + len(self._sep[a])
        parts, spans, offset = [], [], 0
        for k in range(a, b):
            sep = (" " if self._sep[k] == SOFT_BREAK else self._sep[k]) if k > a else ""
            offset += len(sep)
            spans.append(WordSpan(k - a, offset, offset + len(self._surf[k]),
                                  offset + len(self._surf[k]) + len(self._punct[k])))
            parts += [sep, self._surf[k], self._punct[k]]
            offset = spans[-1].end
        local = Layout("".join(parts), tuple(spans))
        ls = min(max(start - base, 0), len(local.text))
        le = min(max(end - base, ls), len(local.text))
        first, last, text = local.edit(ls, le, typed)
        before = prefix[-1]
        doc.replace_span(a + first, a + last, text)
        self.flush()
        # The text after the edit reads as before (only the touched words are redrawn), so the
        # caret goes as far from the end as ``end`` was: typed spacing may be normalised.
        return max(start, self._offsets()[-1] - (before - end))

    def insert_text(self, text: str) -> None:
        """Type ``text`` at the caret (replacing a selection), as the keyboard would."""
        self._type(text)

    def _type(self, typed: str) -> None:
        cursor = self.textCursor()
        start, end = cursor.selectionStart(), cursor.selectionEnd()
        if self._held is not None and self._held[0] == start == end:
            typed = self._held[1] + typed  # the space typed before this word
        self._held = None
        self._edit_and_place(start, end, typed)

    def _edit_and_place(self, start: int, end: int, typed: str) -> None:
        # Characters typed (or deleted) one after another in a row are one undo step, as in any
        # text editor; moving the caret, a space or a line break starts the next one.
        kind = "type" if typed else "delete"
        single = len(typed) <= 1 and not typed.isspace() and end - start <= 1
        if not (single and self._run is not None and self._run[0] == kind
                and self._run[1] in (start, end)):
            self._run_id += 1
        revision = self.transcript.revision
        with self.transcript.history.group("Typing" if typed else "Delete",
                                           merge_id=("edit", id(self), self._run_id)):
            caret = self.edit_characters(start, end, typed)
        self._run = (kind, caret) if len(typed) <= 1 and not typed.isspace() else None
        if typed and typed.isspace() and start == end and self.transcript.revision == revision:
            # A space (or line break) next to a space or at the end changes no word yet: hold it
            # for the word typed next, so "a|" + " " + "b" gives two words, not "ab".
            self._held, caret = (start, typed), start
        self._place_caret(caret)

    def _place_caret(self, position: int) -> None:
        self._moving = True
        try:
            cursor = self.textCursor()
            cursor.setPosition(min(position, self.document().characterCount() - 1))
            self.setTextCursor(cursor)
        finally:
            self._moving = False
        if self._current is not None or self._reviewing:
            self.leave_review()

    def _delete(self, backwards: bool) -> None:
        cursor = self.textCursor()
        start, end = cursor.selectionStart(), cursor.selectionEnd()
        typed = ""
        if start == end:
            if backwards:
                if start == 0:
                    return
                start -= 1
            else:
                if end >= self.document().characterCount() - 1:
                    return
                end += 1
            gap = self._paragraph_gap_at(start)
            if gap is not None:  # one key joins two paragraphs, with a space between the words
                start, end = gap
                typed = " "
        self._edit_and_place(start, end, typed)

    def split_paragraph(self) -> None:
        """Enter: a new paragraph at the caret (between words), or split the word there."""
        cursor = self.textCursor()
        if cursor.hasSelection() or not self._ulen:
            self._type("\n")
            return
        position = cursor.position()
        index = self.token_at(position)
        a, _, b = self.token_range(index)
        if a < position < b:  # inside a word
            self._type("\n")
            return
        following = index if position <= a else index + 1
        if following >= len(self._ulen) or following == 0:  # the next word typed starts one
            self._held = (position, "\n")
            return
        self.transcript.set_paragraph_start(following, True)
        self.flush()
        cursor = self.textCursor()
        cursor.setPosition(self.token_range(following)[0])
        self.setTextCursor(cursor)

    def _paragraph_gap_at(self, position: int) -> tuple[int, int] | None:
        """The character range of the paragraph break that ``position`` lies in, if any."""
        if not self._ulen:
            return None
        prefix = self._offsets()
        i = min(bisect.bisect_right(prefix, position) - 1, len(self._ulen) - 1)
        if i > 0 and self._sep[i] == PARAGRAPH_GAP and prefix[i] <= position < prefix[i] + len(PARAGRAPH_GAP):
            return prefix[i], prefix[i] + len(PARAGRAPH_GAP)
        return None

    def insertFromMimeData(self, source: QMimeData) -> None:  # paste and drops of text
        if source.hasText():
            self._type(source.text())

    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        return source.hasText()

    def cut(self) -> None:
        if self.textCursor().hasSelection():
            self.copy()
            self._delete(backwards=True)

    def paste(self) -> None:
        from PySide6.QtWidgets import QApplication

        self.insertFromMimeData(QApplication.clipboard().mimeData())

    def event(self, event: QEvent) -> bool:
        # While a suggestion is current, Esc leaves it rather than reaching the player's Esc
        if (event.type() == QEvent.Type.ShortcutOverride and self._current is not None
                and hotkeys.pressed(event, hotkeys.LEAVE_SUGGESTION)):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key, mods = event.key(), event.modifiers()
        if self.frozen and (event.text() or key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace,
                                                    Qt.Key.Key_Return, Qt.Key.Key_Enter)):
            self.message.emit("Still working on the last step; a moment…")
            return
        plain = not (mods & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
                             | Qt.KeyboardModifier.MetaModifier))
        reviewing = self._reviewing
        review_key = reviewing and any(hotkeys.pressed(event, k) for k in (
            hotkeys.ACCEPT, hotkeys.REJECT, hotkeys.ALTERNATIVES))
        if hotkeys.pressed(event, hotkeys.NEXT_SUGGESTION):
            self.next_suggestion()
        elif hotkeys.pressed(event, hotkeys.PREVIOUS_SUGGESTION):
            self.next_suggestion(reverse=True)
        elif review_key and self._current is None:  # review mode, nothing left under review
            self.message.emit("No suggestion selected: Tab goes to the next one; move the caret "
                              "(arrow keys, a click) to edit the text")
        elif reviewing and hotkeys.pressed(event, hotkeys.ACCEPT):
            self.accept_current()
        elif reviewing and hotkeys.pressed(event, hotkeys.REJECT):
            self.reject_current()
        elif reviewing and hotkeys.pressed(event, hotkeys.ALTERNATIVES):
            self.choose_alternative(int(event.text() or chr(key)))
        elif reviewing and hotkeys.pressed(event, hotkeys.LEAVE_SUGGESTION):
            self._set_current(None, select=False)
            self.leave_review()
        elif event.matches(QKeySequence.StandardKey.Cut):
            self.cut()
        elif event.matches(QKeySequence.StandardKey.Paste):
            self.paste()
        elif event.matches(QKeySequence.StandardKey.Undo) or event.matches(QKeySequence.StandardKey.Redo):
            event.ignore()  # the window's actions undo in the transcript
        elif key == Qt.Key.Key_Backspace and not mods & Qt.KeyboardModifier.ControlModifier:
            self._delete(backwards=True)
        elif key == Qt.Key.Key_Delete and plain:
            self._delete(backwards=False)
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and plain:
            self.split_paragraph()
        elif plain and event.text() and event.text().isprintable():
            self._type(event.text())
        else:
            super().keyPressEvent(event)  # moving, selecting, copying

    def inputMethodEvent(self, event) -> None:  # text composed by an input method
        if event.commitString():
            self._type(event.commitString())

    def dropEvent(self, event) -> None:
        event.ignore()

    # -- review ------------------------------------------------------------------------------------
    @property
    def current(self) -> Suggestion | None:
        if self._current is None:
            return None
        token_id, kind = self._current
        return self.transcript.suggestion(token_id, kind)

    def set_current(self, suggestion: Suggestion | None) -> None:
        """Make ``suggestion`` the one under review: select it and scroll to it."""
        self._set_current(suggestion)

    @property
    def reviewing(self) -> bool:
        """Whether Enter, Delete and 1-9 act on suggestions (else they edit the text)."""
        return self._reviewing

    def _enter_review(self) -> None:
        if not self._reviewing:
            self._reviewing = True
            self.review_mode_changed.emit(True)

    def leave_review(self, announce: bool = True) -> None:
        """Back to editing: Enter, Delete and the digits edit the text again."""
        if self._current is not None:
            self._set_current(None, select=False)
        if self._reviewing:
            self._reviewing = False
            self.review_mode_changed.emit(False)
            if announce:
                self.message.emit(EDITING_NOTE)

    def _set_current(self, s: Suggestion | None, *, select: bool = True) -> None:
        self._current = None if s is None else s.key
        if s is not None:
            self._enter_review()
        if s is not None and self._transcript is not None and self.transcript.has_token(s.token_id):
            index = self.transcript.index_of(s.token_id)
            self._last_rank = (s.confidence, index, 0 if s.kind == Kind.CASE else 1)
            if select:
                a, p, b = self.token_range(index)
                lo, hi = (a, p) if s.kind == Kind.CASE else (p, b) if b > p else (a, p)
                self._moving = True
                try:
                    cursor = self.textCursor()
                    cursor.setPosition(hi)
                    cursor.setPosition(lo, QTextCursor.MoveMode.KeepAnchor)
                    self.setTextCursor(cursor)
                    self.ensureCursorVisible()
                finally:
                    self._moving = False
        self._mark_current()
        self.current_changed.emit(s)

    def _mark_current(self) -> None:
        """Frame the suggestion under review (also when a click made it current without selecting
        it), so what Enter and Delete will act on is always in sight."""
        s = self.current
        selections = []
        if s is not None and self.transcript.has_token(s.token_id):
            a, p, b = self.token_range(self.transcript.index_of(s.token_id))
            lo, hi = (a, p) if s.kind == Kind.CASE else (p, b) if b > p else (a, p)
            selection = QTextEdit.ExtraSelection()
            cursor = QTextCursor(self.document())
            cursor.setPosition(lo)
            cursor.setPosition(hi, QTextCursor.MoveMode.KeepAnchor)
            selection.cursor = cursor
            fmt = QTextCharFormat()
            fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
            fmt.setUnderlineColor(QColor(CURRENT_COLOUR))
            fmt.setFontUnderline(True)
            fmt.setFontOverline(True)
            selection.format = fmt
            selections.append(selection)
        self._set_extra("current", selections)

    def _set_extra(self, name: str, selections: list) -> None:
        self._extra[name] = selections
        self.setExtraSelections([x for group in self._extra.values() for x in group])

    def _caret_moved(self) -> None:
        if self._moving:
            return
        self._held = None
        if self._current is not None or self._reviewing:
            self.leave_review(announce=not self._mouse_down)

    def next_suggestion(self, reverse: bool = False) -> Suggestion | None:
        """Go to the next (or previous) pending suggestion in the review order; wraps around."""
        self.flush()
        found = self._next_by_confidence(reverse) if self.order == "confidence" \
            else self._next_by_position(reverse)
        if found is None:
            self.message.emit("No pending suggestions")
        self._set_current(found)
        return found

    def _next_by_position(self, reverse: bool) -> Suggestion | None:
        doc = self.transcript
        cur = self.current
        if cur is not None and doc.has_token(cur.token_id):
            index = doc.index_of(cur.token_id)
            other = doc.suggestion(cur.token_id, Kind.PUNCT if cur.kind == Kind.CASE else Kind.CASE)
            same_token_next = (cur.kind == Kind.CASE) != reverse
            if other is not None and other.state == State.PENDING and same_token_next:
                return other
            after = index
        else:
            caret = self.token_at(self.textCursor().selectionStart())
            caret = 0 if caret is None else caret
            after = caret - 1 if not reverse else caret + 1
        found = doc.next_pending(after, reverse=reverse)
        if found is None:  # wrap around
            found = doc.next_pending(-1 if not reverse else len(doc), reverse=reverse)
        return found

    def _next_by_confidence(self, reverse: bool) -> Suggestion | None:
        """The pending suggestion ranked just after (before) the current one by (confidence,
        position): one pass over the suggestions, no sort, so Tab stays quick on long documents."""
        doc = self.transcript
        position = {t.id: i for i, t in enumerate(doc.tokens)}
        ranked = [((s.probs[s.value], position[s.token_id], 0 if s.kind == Kind.CASE else 1), s)
                  for slot in doc._sugg.values() for s in slot.values()  # read-only peek
                  if s.state == State.PENDING]
        if not ranked:
            return None
        last = self._last_rank if self._current is not None else None
        if reverse:
            before = [r for r in ranked if last is None or r[0] < last]
            return max(before or ranked, key=lambda r: r[0])[1]
        after = [r for r in ranked if last is None or r[0] > last]
        return min(after or ranked, key=lambda r: r[0])[1]

    def lowest_confidence(self) -> Suggestion | None:
        self._current = None
        found = self._next_by_confidence(reverse=False)
        self._set_current(found)
        return found

    def accept_current(self, value: str | None = None) -> Suggestion | None:
        s = self.current
        if s is None:
            return None
        accepted, note, repeated = decide(self.transcript, s.token_id, s.kind, value=value,
                                          repeat=self.settings.review.repeat_choices)
        said = [note] if note else []
        if repeated:
            said.append(_repeated(repeated))
        if said:
            self.message.emit(f"Accepted {describe_value(s.kind, accepted.value)}; {'; '.join(said)}")
        self.flush()
        self._last_rank = self._rank(accepted)
        self._current = accepted.key
        self.next_suggestion()
        return accepted

    def reject_current(self) -> Suggestion | None:
        s = self.current
        if s is None:
            return None
        rejected, _note, repeated = decide(self.transcript, s.token_id, s.kind, accept=False,
                                           repeat=self.settings.review.repeat_choices)
        if repeated:
            self.message.emit(f"Rejected {describe_value(s.kind, rejected.value)}; {_repeated(repeated)}")
        self.flush()
        self._last_rank = self._rank(rejected)
        self._current = rejected.key
        self.next_suggestion()
        return rejected

    def choose_alternative(self, number: int) -> Suggestion | None:
        """Accept alternative ``number`` (1 = the most likely) of the current suggestion."""
        s = self.current
        if s is None:
            return None
        alternatives = s.alternatives()
        if not 1 <= number <= len(alternatives):
            self.message.emit(f"There are only {len(alternatives)} alternatives")
            return None
        return self.accept_current(alternatives[number - 1][0])

    def _rank(self, s: Suggestion) -> tuple[float, int, int]:
        index = self.transcript.index_of(s.token_id) if self.transcript.has_token(s.token_id) else 0
        return (s.confidence, index, 0 if s.kind == Kind.CASE else 1)

    # -- hover, clicks, menus --------------------------------------------------------------------------
    def suggestions_at(self, position: int) -> list[Suggestion]:
        index = self.token_at(position)
        if index is None:
            return []
        slot = self.transcript.suggestions_of(self.transcript[index].id)
        return [s for k in (Kind.CASE, Kind.PUNCT) if (s := slot.get(k)) is not None]

    def tooltip_html(self, suggestions: list[Suggestion]) -> str:
        rows = []
        for s in suggestions:
            title = "Capitals" if s.kind == Kind.CASE else "Mark after the word"
            origin = " — from your choice" if s.source == "choice" else ""
            rows.append(f"<b>{title}</b> <i>({s.state.value}{origin})</i>")
            for n, (value, p) in enumerate(s.alternatives()[:6], 1):
                chosen = " ◀" if value == s.value else ""
                rows.append(f"&nbsp;{n}. {html.escape(describe_value(s.kind, value))} — "
                            f"{p:.0%}{chosen}")
        return "<br>".join(rows)

    def time_html(self, index: int | None) -> str:
        """"Said at 1:23 (1:23.4–1:23.9)" for a word with a time, else ""."""
        if index is None or not 0 <= index < len(self.transcript):
            return ""
        token = self.transcript[index]
        if token.start is None:
            return ""
        span = f"{token.start:.1f}–{token.end:.1f} s" if token.end is not None else f"{token.start:.1f} s"
        cue = " · starts a subtitle cue" if token.id in self._cue_ids else ""
        return f"<i>“{html.escape(token.text)}” at {format_time(token.start)} ({span}){cue}</i>"

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            position = self.cursorForPosition(event.pos()).position()
            found = self.suggestions_at(position)
            when = self.time_html(self.token_at(position))
            if found or when:
                rows = [x for x in (when, self.tooltip_html(found) if found else "") if x]
                QToolTip.showText(event.globalPos(), "<br>".join(rows), self.viewport())
            else:
                QToolTip.hideText()
            return True
        return super().viewportEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._mouse_down = True
        self._was_reviewing = self._reviewing
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self._mouse_down = False
        super().mouseReleaseEvent(event)
        self._click_review(event)
        if self._was_reviewing and not self._reviewing:  # the click left review mode
            self.message.emit(EDITING_NOTE)
        self._was_reviewing = False

    def _click_review(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton or self.textCursor().hasSelection():
            return
        position = self.textCursor().position()
        index = self.token_at(position)
        if index is None:
            return
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.token_activated.emit(index)
            return
        pending = [s for s in self.suggestions_at(position) if s.state == State.PENDING]
        if pending:
            _, p, _ = self.token_range(index)
            on_mark = position >= p and any(s.kind == Kind.PUNCT for s in pending)
            chosen = next((s for s in pending if (s.kind == Kind.PUNCT) == on_mark), pending[0])
            self._set_current(chosen, select=False)

    def contextMenuEvent(self, event) -> None:
        menu = QMenu(self)
        position = self.cursorForPosition(event.pos()).position()
        for s in self.suggestions_at(position):
            title = "Capitals" if s.kind == Kind.CASE else "Mark"
            for value, p in s.alternatives()[:6]:
                action = menu.addAction(f"{title}: {describe_value(s.kind, value)}  ({p:.0%})")
                action.triggered.connect(
                    lambda _=False, s=s, v=value: decide(self.transcript, s.token_id, s.kind, value=v,
                                                         repeat=self.settings.review.repeat_choices))
            if s.state != State.REJECTED:
                menu.addAction(f"{title}: reject").triggered.connect(
                    lambda _=False, s=s: decide(self.transcript, s.token_id, s.kind, accept=False,
                                                repeat=self.settings.review.repeat_choices))
            menu.addSeparator()
        menu.addAction("Cut").triggered.connect(self.cut)
        menu.addAction("Copy").triggered.connect(self.copy)
        menu.addAction("Paste").triggered.connect(self.paste)
        menu.exec(event.globalPos())

    def show_alternatives(self) -> None:
        """Pop up the current suggestion's alternatives at the caret (Ctrl+Space)."""
        s = self.current
        if s is None:
            return
        rect = self.cursorRect()
        QToolTip.showText(self.viewport().mapToGlobal(rect.bottomLeft()), self.tooltip_html([s]),
                          self.viewport())

    # -- highlighting a word (a player follows along) ------------------------------------------------
    def scroll_to_token(self, index: int, place: float = 1 / 3) -> None:
        """Scroll (without moving the caret) so word ``index`` is on screen, ``place`` of the way
        down. The scroll bar counts lines, and a block not laid out yet counts as one line, so the
        first jump can fall short; each step lays out the blocks on the way, and a few settle it."""
        if not 0 <= index < len(self._ulen):
            return
        cursor = QTextCursor(self.document())
        cursor.setPosition(self.token_range(index)[0])
        viewport = self.viewport().rect()
        bar = self.verticalScrollBar()
        for _ in range(40):
            rect = self.cursorRect(cursor)
            if viewport.top() <= rect.top() and rect.bottom() <= viewport.bottom():
                return
            lines = (rect.top() - int(viewport.height() * place)) // max(1, rect.height())
            before = bar.value()
            bar.setValue(before + lines)
            if bar.value() == before:
                return

    def highlight_token(self, index: int | None, colour: QColor | None = None) -> None:
        """Mark one word (e.g. the word being played) without touching the text or the caret."""
        if index is None or not 0 <= index < len(self._ulen):
            self._set_extra("played", [])
            return
        a, _, b = self.token_range(index)
        selection = QTextEdit.ExtraSelection()
        cursor = QTextCursor(self.document())
        cursor.setPosition(a)
        cursor.setPosition(b, QTextCursor.MoveMode.KeepAnchor)
        selection.cursor = cursor
        fmt = QTextCharFormat()
        fmt.setFontUnderline(True)
        fmt.setUnderlineColor(colour or QColor("#0072B2"))
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
        selection.format = fmt
        self._set_extra("played", [selection])
