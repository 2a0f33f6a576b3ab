"""The transcript as editable text, with pending suggestions shown inline and coloured by confidence.

The text is built once; afterwards each document event rewrites only the tokens it names (a chunk of
restoration results touches a few hundred words, never the whole document). A ``TextMap`` beside
the ``QTextDocument`` says where each word is. Typing, deleting and pasting are turned into
``Transcript.replace_span`` over whole words (``editing``); the text widget never changes its
own text. The view's parts, each given the view as a typed host Protocol: putting a long text on
screen a slice at a time (``build``, text_view/build.py), typing and pasting (``editing``, text_view/editing.py),
the suggestion under review (``review``, text_view/review.py), mouse, menus and the player's highlight
(``pointer``, text_view/pointer.py); what a word looks like is in ``looks``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from typing import cast

from PySide6.QtCore import QEvent, QMimeData, QPoint, QRect, Qt, QTimer, Signal
from PySide6.QtGui import (QColor, QContextMenuEvent, QDropEvent, QFocusEvent, QFont, QHelpEvent, QInputMethodEvent, QKeyEvent,
                           QKeySequence, QMouseEvent, QPaintEvent, QResizeEvent, QTextCursor)
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from editor.core.document.transcript import Kind, State, Suggestion, Transcript
from editor.core.formats.subtitles import WordStyles
from editor.core.document.paragraphs import kept_lines
from editor.core.settings import Settings
from editor.gui.text_view.textmap import TextMap
from editor.gui.base import hotkeys
from editor.gui.text_view.accessibility import Narrator, mute_shown_text
from editor.gui.text_view.gutter import TimeGutter, paint_cue_bars
from editor.gui.text_view.highlighting import HighlighterSlot
from editor.gui.base.links import DocumentLinks
from editor.gui.text_view.looks import (  # noqa: F401  (names other modules and tests import from here)
    BANDS,
    PARAGRAPH_GAP,
    SOFT_BREAK,
    Look,
    Looks,
    band_colour,
    band_of,
    describe_value,
)
from editor.gui.base.turns import WindowTurns
from editor.gui.text_view.build import BUILD_AT_ONCE, FIRST_BUILT, TextBuilder  # noqa: F401
from editor.gui.text_view.editing import Editor
from editor.gui.text_view.pointer import Pointer
from editor.gui.text_view.review import EDITING_NOTE, Reviewer  # noqa: F401

#: Milliseconds without a change of words after which the raw words a decision looks through
#: are made again (``Transcript.index_words``), if a change let them go.
INDEX_WORDS_AFTER_MS = 300



class QtTranscriptView(QPlainTextEdit):
    """Shows a ``Transcript``; the person edits it here and reviews its suggestions.

    ``current_changed(Suggestion | None)``: the suggestion under review changed.
    ``point_arrived(DecisionPoint)``: review arrived at a decision point (one place for all ways).
    ``token_activated(index)``: Ctrl+click on a word (a player seeks there).
    ``text_map``: where each token is in the text shown (current once ``rewriting`` is False).
    """

    current_changed = Signal(object)
    #: review arrived at a decision point (``editor.core.review.decision_points.DecisionPoint``):
    #: Tab, Shift+Tab, Ctrl+Tab, Enter or Delete moving on, a click in the list or the text, an
    #: undo that brings a decision back; emitted after ``current_changed`` (text_view/review.py)
    point_arrived = Signal(object)
    token_activated = Signal(int)
    message = Signal(str)  # a short note for the status bar
    review_mode_changed = Signal(bool)  # True: Enter, Delete and 1-9 act on suggestions
    # a decision on the suggestion under review: (the decided suggestion, accepted, the value proposed)
    decided = Signal(object, bool, str)
    # the ids of the words a paste (or a drop of text) put in, when it is in, and its undo step's merge id
    pasted = Signal(list, object)
    # its parts, each given the view as the host it needs (see their modules)
    build: TextBuilder
    editing: Editor
    review: Reviewer
    pointer: Pointer
    narrator: Narrator

    def __init__(self, transcript: Transcript, settings: Settings | None = None,
                 parent: QWidget | None = None, *, turns: WindowTurns | None = None) -> None:
        super().__init__(parent)
        self.settings = settings or Settings()
        self._turns = turns if turns is not None else WindowTurns()  # the window's: a repaint is a step
        # PySide6 makes the Python enums of QtWidgets (some thirty) the first time viewport() is
        # wrapped: 10-15 ms that fell into the first File > Open's stall; here, while the window
        # is built, instead
        self.viewport()
        self.setUndoRedoEnabled(False)  # undo lives in the transcript
        self.setAcceptDrops(False)  # files dropped here go to the window
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setCenterOnScroll(False)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.DefaultContextMenu)
        self.setMouseTracking(True)
        # what File > Open and a drop take (window/files.py), and Help > Open sample (help)
        self.empty_hint = (
            f"Open a transcript, subtitles, audio or video "
            f"({QKeySequence(hotkeys.OPEN).toString(QKeySequence.SequenceFormat.NativeText)}, or drop "
            "a file here) — or try Help ▸ Open sample")
        self.setPlaceholderText(self.empty_hint)
        self.document().setDocumentMargin(12)
        self.highlighting = HighlighterSlot(self.document())  # the document's one highlighter
        self.order = self.settings.review.order  # "position" or "confidence"
        self.text_map = TextMap()
        self._transcript: Transcript | None = None
        self._links = DocumentLinks()  # to the document's signals
        self.review = Reviewer(self)  # the suggestion under review, review mode (text_view/review.py)
        self.narrator = Narrator(self, self)  # what a screen reader hears of it (accessibility)
        self._frozen = False  # a bulk step runs: keys that would change the text wait
        self._lines_stale = False  # lines not brought up to date in a bulk step: they are after it
        self.pointer = Pointer(self, self)  # the mouse, tooltips, the player's word (text_view/pointer.py)
        self.moving = False  # the view itself changes the text or the caret
        self.dirty: set[int] = set()  # token ids whose look must be brought up to date
        self.editing = Editor(self, self)  # typing, deleting, pasting (text_view/editing.py)
        self.soft: set[int] = set()  # lines that run on, no break there (kept_lines): ids
        self.break_ids: set[int] = set()  # words that carry (or carried) a break suggestion
        self.para_shown: frozenset[int] = frozenset()  # the paragraph starts the text shows
        self.has_breaks = False  # some paragraph break is or was proposed (the margin shows it)
        self.last_changed: int | None = None  # lowest token index redrawn since last reset
        self.paints = 0  # repaints of the text so far: a bulk step's slice never follows one in a turn
        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.setInterval(0)
        self._flush_timer.timeout.connect(self.flush)
        self.build = TextBuilder(self, self)  # puts the text on screen, a slice a turn (text_view/build.py)
        # The raw words a decision looks through for the same word elsewhere (Transcript.index_words:
        # 3-5 ms at 100,000 words), made again once words stop changing for a moment, not in the
        # turn of the next Enter.
        self._index_timer = QTimer(self)
        self._index_timer.setSingleShot(True)
        self._index_timer.setInterval(INDEX_WORDS_AFTER_MS)
        self._index_timer.timeout.connect(self._index_words)
        self.cursorPositionChanged.connect(self._caret_moved)
        self.timed = False  # some word has a time: the margin shows paragraph times
        self.cue_ids: frozenset[int] = frozenset()  # first words of subtitle cues (a bar before)
        self.segment_ids: frozenset[int] = frozenset()  # those of them that are Whisper segments
        self.cue_spans: dict[int, tuple[float, float]] = {}  # their times as read, by first word
        self._speakers: list[str] | None = None  # see speaker_names
        self._speakers_stale = False  # kept through a bulk step's changes in place (frozen)
        self.word_styles = WordStyles(transcript)  # italics, bold... read from subtitle cues, by token id
        self.gutter = TimeGutter(self, self)
        self.updateRequest.connect(self._update_gutter)
        self.apply_settings()
        self.set_transcript(transcript)

    @property
    def frozen(self) -> bool:
        """A bulk step runs (accept all, an undo a slice at a time, a long paste): keys that
        would change the text wait. When it ends, the lines that run on are brought up to date
        if words went away or break proposals changed meanwhile (see ``_on_tokens_changed``,
        ``_on_suggestions_changed``)."""
        return self._frozen

    @frozen.setter
    def frozen(self, value: bool) -> None:
        self._frozen = value
        if not value and self._speakers_stale:
            self._speakers_stale = False
            self._speakers = None
            QTimer.singleShot(0, self, self.layout_gutter)
        if not value and self._lines_stale and self._transcript is not None:
            self._lines_stale = False
            moved = self.update_lines()
            if moved:
                self.dirty.update(moved)
                self._flush_timer.start()

    # -- the model --------------------------------------------------------------------------------
    @property
    def transcript(self) -> Transcript:
        assert self._transcript is not None
        return self._transcript

    @property
    def building(self) -> bool:
        """True while a long text is still being put on screen (``text_map`` holds its start)."""
        return self.build.building

    @property
    def rewriting(self) -> bool:
        """True while the view changes its own text: ``text_map`` is about to change."""
        return self.moving

    def set_transcript(self, transcript: Transcript) -> None:
        self._links.clear()  # (see editor.gui.base.links: nothing left behind on the old document)
        self._transcript = transcript
        self._speakers, self._speakers_stale = None, False
        self._links.connect(transcript.tokens_changed, self._on_tokens_changed)
        self._links.connect(transcript.suggestions_changed, self._on_suggestions_changed)
        self._links.connect(transcript.paragraphs_changed, self._on_paragraphs_changed)
        self.review.make_current(None)
        self.setPlaceholderText(self.empty_hint)
        self.build.rebuild()
        self._index_timer.start()

    def _index_words(self) -> None:
        if self._transcript is None:
            return
        if self._frozen or self.editing.pasting:  # a step under way changes words: after it
            self._index_timer.start()
            return
        self._transcript.index_words()

    def say_when_empty(self, text: str) -> None:
        """What the text area says while it has no words (instead of how to open a file), until
        another transcript is shown: a recording being transcribed, or found silent."""
        self.setPlaceholderText(text)

    def apply_settings(self) -> None:
        """Fonts and colours from settings (after the settings dialog)."""
        font = QFont(self.font())
        font.setStyleHint(QFont.StyleHint.SansSerif)
        font.setPointSize(self.settings.appearance.font_size)
        self.setFont(font)
        self.looks = Looks(self.settings, self.palette().base().color())
        small = QFont(font)
        small.setPointSize(max(6, round(font.pointSize() * 0.8)))
        self.gutter.setFont(small)
        if self._transcript is not None:
            self.build.rebuild()

    def look(self, index: int) -> Look:
        return self.looks.look(self.transcript, index, self.soft, self.word_styles)

    # -- the margin and cue bars ------------------------------------------------------------------
    def has_times(self) -> bool:
        return self.timed

    def speaker_names(self) -> list[str]:
        """The transcript's speakers in the order they first speak (kept until words change)."""
        if self._speakers is None:
            self._speakers = self.transcript.speaker_names()  # (kept by the transcript as well)
        return self._speakers

    def has_soft_breaks(self) -> bool:
        """Some text runs on over lines: proposed paragraph breaks, or lines that run on."""
        return self.has_breaks or bool(self.soft)

    def update_lines(self) -> set[int]:
        """Bring the lines that run on (``kept_lines``) up to date, those shown staying where
        they are while still needed; the ids whose line changed. Reads only the break
        suggestions, the paragraph starts and the lines: no pass over the words."""
        if self.editing.pasting:  # each part of a long paste is on a line of its own until it is done
            return set()
        doc = self.transcript
        view = doc.suggestion_view
        breaks = [s for t in self.break_ids if (s := view(t).get(Kind.BREAK)) is not None]
        self.break_ids = {s.token_id for s in breaks}
        old = self.soft
        self.soft = kept_lines(doc, breaks=breaks, previous=old)
        if bool(old) != bool(self.soft) and not self.has_breaks:  # the margin shows them (⋯)
            QTimer.singleShot(0, self, self.layout_gutter)
        return old ^ self.soft

    def sep_of(self, index: int) -> str:
        return self.text_map.sep(index)

    def layout_gutter(self) -> None:
        width = self.gutter.wanted_width()
        if self.viewportMargins().left() != width:
            self.setViewportMargins(width, 0, 0, 0)
        rect = self.contentsRect()
        self.gutter.setGeometry(rect.left(), rect.top(), width, rect.height())
        self.gutter.setVisible(width > 0)
        self.gutter.update()

    def _update_gutter(self, rect: QRect, dy: int) -> None:
        if dy:
            self.gutter.scroll(0, dy)
        else:
            self.gutter.update(0, rect.y(), self.gutter.width(), rect.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        # A new width lays the whole text out again, and QPlainTextEdit then counts every block
        # as one line until it is drawn: the scroll bar's range shrinks to the number of blocks,
        # its value is cut to fit, and the text jumps to another paragraph (the scroll bar
        # appearing, the margin or the panel widening, the window resized). The character at the
        # top of the screen is put back there.
        top = self.top_position() if event.oldSize().width() != event.size().width() else None
        super().resizeEvent(event)
        if top is not None:
            self.put_at_top(top)
        self.layout_gutter()

    def top_position(self) -> int | None:
        """The character position that starts the line at the top of the screen; None at the very
        top of the text (nothing to keep there)."""
        bar = self.verticalScrollBar()
        block = self.firstVisibleBlock()
        if bar.value() == 0 or not block.isValid():
            return None
        layout = block.layout()
        line = bar.value() - block.firstLineNumber()
        if layout is None or not 0 <= line < layout.lineCount():
            return block.position()
        return block.position() + layout.lineAt(line).textStart()

    def put_at_top(self, position: int) -> None:
        """Scroll (without moving the caret) so that the line holding character ``position`` is
        the top line on screen, or as near as the end of the text allows.

        The scroll bar counts lines, and a block not laid out yet counts as one: the block of
        ``position`` and the blocks after it, a screenful, are laid out first, so that the line
        numbers it is reached by are the ones drawn and the range reaches that far."""
        doc = self.document()
        block = doc.findBlock(position)
        if not block.isValid():
            return
        layout = doc.documentLayout()
        height, room, after = 0.0, self.viewport().height(), block
        while after.isValid() and height < room:
            height += layout.blockBoundingRect(after).height()  # lays the block out if it is not
            after = after.next()
        text_layout = block.layout()
        line = text_layout.lineForTextPosition(position - block.position()).lineNumber() \
            if text_layout is not None else 0
        layout.documentSizeChanged.emit(layout.documentSize())  # the scroll bar's new range
        self.verticalScrollBar().setValue(block.firstLineNumber() + max(0, line))

    def paintEvent(self, event: QPaintEvent) -> None:
        self.paints += 1
        with self._turns.busy():  # background work gives way meanwhile (WindowTurns.give_way)
            super().paintEvent(event)
            if self.cue_ids and len(self.text_map):
                paint_cue_bars(self)

    # -- keeping up with the document -------------------------------------------------------------
    def _on_tokens_changed(self, start: int, removed: int, inserted: int) -> None:
        had = self._speakers
        doc = self.transcript
        if not doc.words_indexed:  # words changed: made again once they stop for a moment
            self._index_timer.start()
        if self._frozen and removed == inserted and had is not None and all(
                doc[i].speaker in had or not doc[i].speaker for i in range(start, start + inserted)):
            # A bulk step changing words in place (accept all, its undo: marks and case) names no
            # new speaker; counting them again over every word at each slice cost 5 ms a time at
            # 100,000 words. A name that went away meanwhile goes when the step ends (``frozen``).
            self._speakers_stale = True
        elif had == [] and removed == inserted and not any(
                doc[i].speaker for i in range(start, start + inserted)):
            pass  # no speaker before and none named now (Enter on a suggestion): still none, and
            # no count over every word at the next paint (5-6 ms of Enter's turn at 100,000 words)
        else:
            self._speakers = None  # the margin's speakers are counted again when next drawn
        if had or any(doc[i].speaker for i in range(start, start + inserted)):
            QTimer.singleShot(0, self, self.layout_gutter)
        if self.cue_ids and removed:
            self._keep_cue_starts(start, inserted)
        if removed == inserted:  # words edited in place (accepting): restyle them later
            doc = self.transcript  # by index: doc.tokens would copy every token after each change
            self.dirty.update(doc[i].id for i in range(start, start + inserted))
            self._flush_timer.start()
            return
        self._splice(start, removed, inserted)
        if self._frozen and inserted < removed:
            # A bulk step taking words away (undoing a long paste, 150 words a command): no run
            # grows past what a line allows but by joining two (a line's word gone), and finding
            # the lines indexes every word after the edit again (12 ms at 100,000 words, one
            # paragraph) for each command. Once, when the step is done (``frozen``).
            self._lines_stale = True
            return
        moved = self.update_lines()  # runs got longer or shorter: a line may be wanted or not
        if moved:
            self.dirty.update(moved)
            self._flush_timer.start()

    def _keep_cue_starts(self, start: int, inserted: int) -> None:
        """Words ``start``... were replaced: a cue whose first word went (typed over, a new word
        with a new id; or back by an undo) begins at the word now in its place, the first of
        them at or after its time, so its bar and its hover stay (the bar went away)."""
        doc = self.transcript
        gone = [i for i in self.cue_ids if not doc.has_token(i)]
        if not gone or start >= len(doc):
            return
        places = range(start, min(len(doc), start + max(inserted, 1)))
        ids, spans, segments = set(self.cue_ids), dict(self.cue_spans), set(self.segment_ids)
        for old in gone:
            span = spans.get(old)
            at = places[-1]
            for i in places:  # the first word at or after the cue's time
                word_start = doc[i].start
                if span is None or word_start is None or word_start >= span[0] - 0.001:
                    at = i
                    break
            new = doc[at].id
            ids.discard(old)
            ids.add(new)
            if old in spans:
                spans[new] = spans.pop(old)
            if old in segments:
                segments.discard(old)
                segments.add(new)
        self.cue_ids, self.cue_spans, self.segment_ids = frozenset(ids), spans, frozenset(segments)

    def _on_suggestions_changed(self, token_ids: tuple[int, ...]) -> None:
        self.dirty.update(token_ids)
        self._flush_timer.start()
        doc, known = self.transcript, self.break_ids
        breaks = False
        for t in token_ids:
            if doc.suggestion_view(t).get(Kind.BREAK) is not None:
                breaks = True
                known.add(t)
            elif t in known:  # a proposal taken away
                breaks = True
        if breaks and self._frozen:
            # A bulk step (accept all, its undo, a choice repeated): the lines once, at its end
            # (``frozen``). Finding them reads every break suggestion of the text: 2-3 ms at
            # 100,000 words, a third of each slice of accept all. A proposal accepted or put back
            # moves no line meanwhile: pending and accepted breaks both end a run.
            self._lines_stale = True
        elif breaks:  # the lines that run on may go (a proposal came) or come
            self.dirty.update(self.update_lines())
        if breaks and not self.has_breaks:
            self.has_breaks = True
            QTimer.singleShot(0, self, self.layout_gutter)
        key = self.review.current_key
        if key is not None and key[0] in token_ids:
            s = self.review.current
            if s is None or s.state != State.PENDING:
                self.review.make_current(None, select=False)
            else:
                self.current_changed.emit(s)

    def _on_paragraphs_changed(self) -> None:
        """Only the words whose paragraph start changed are redrawn (accepting all the proposed
        breaks of 100,000 words changes 500, not the 100,000)."""
        doc = self.transcript
        now = doc.paragraph_ids
        changed_ids = now ^ self.para_shown
        self.para_shown = now
        if self._frozen:  # a bulk step: the lines once, at its end (see _on_suggestions_changed)
            self._lines_stale = True
        else:
            changed_ids |= self.update_lines()
        changed = []
        for token_id in changed_ids:
            try:
                i = doc.index_of(token_id)
            except KeyError:
                continue
            if 0 < i < min(self.build.built, len(self.text_map)) and \
                    self.text_map.sep(i) != self.looks.separator(doc, i, self.soft):
                changed.append(i)
        if changed:
            self.rewrite(changed)
        self.layout_gutter()

    def _splice(self, start: int, removed: int, inserted: int) -> None:
        self._flush_before(start)
        tm = self.text_map
        if self.build.building and start + removed >= self.build.built:
            # Past what is shown yet: the build shows it when it gets there (from ``start``, if
            # the change reaches into the words shown).
            if start < self.build.built:
                self.moving = True
                try:
                    cursor = QTextCursor(self.document())
                    cursor.setPosition(tm.offset(start))
                    cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
                    cursor.removeSelectedText()
                    tm.splice(start, self.build.built - start, [])
                finally:
                    self.moving = False
                self.build.built = start
            self._note_change(start)
            return
        self.build.built += inserted - removed
        a, b = tm.offset(start), tm.offset(start + removed)
        looks = [self.look(i) for i in range(start, start + inserted)]
        doc = self.transcript  # by index: doc.tokens would copy every token after each change
        if not self.timed and any(doc[i].start is not None for i in range(start, start + inserted)):
            self.timed = True
            QTimer.singleShot(0, self, self.layout_gutter)
        self.moving = True
        try:
            cursor = QTextCursor(self.document())
            cursor.beginEditBlock()
            cursor.setPosition(a)
            cursor.setPosition(b, QTextCursor.MoveMode.KeepAnchor)
            cursor.removeSelectedText()
            plain: list[str] = []  # words with no format of their own go in together (a paste)
            for look in looks:
                if look[3] is None and look[4] is None:
                    plain += look[:3]
                    continue
                if plain:
                    cursor.insertText("".join(plain), self.looks.plain)
                    plain = []
                self.looks.insert(cursor, *look)
            if plain:
                cursor.insertText("".join(plain), self.looks.plain)
            tm.splice(start, removed, [look[:3] for look in looks])
            cursor.endEditBlock()
        finally:
            self.moving = False
        self._note_change(start)
        # The word after the span may now need another separator (the first word went away).
        # Its text alone is looked at: its formats stay (a restyle lays the line out again).
        following = start + inserted
        if following < min(len(self.transcript), self.build.built) and \
                self.look(following)[:3] != tm.piece(following):
            self.rewrite([following])

    def _flush_before(self, start: int) -> None:
        """Before words from ``start`` on are replaced on screen: restyle the words pending a
        restyle (``dirty``) that come before them, whose places the change keeps. The others wait
        for ``flush``: the document has changed already, so their indices are those after the
        change, which the text on screen reaches only with it. (Flushed here, a word waiting from
        one undo was drawn over the word at its new index while the next undo's change was
        still to come: "noon today" read "noon noon".)"""
        doc = self.transcript
        before: list[int] = []
        later: set[int] = set()
        for token_id in self.dirty:
            try:
                index = doc.index_of(token_id)
            except KeyError:
                continue
            if index < start:
                before.append(index)
            else:
                later.add(token_id)
        self.dirty = later
        self.rewrite(i for i in before if i < self.build.built)
        if later:
            self._flush_timer.start()

    def flush(self) -> None:
        """Bring the tokens named by recent events up to date (runs once per event-loop turn)."""
        self._flush_timer.stop()
        if not self.dirty:
            return
        doc = self.transcript
        indices = []
        for token_id in self.dirty:
            try:
                index = doc.index_of(token_id)
            except KeyError:
                continue
            if index < self.build.built:  # the rest is shown as it stands when a build gets there
                indices.append(index)
        self.dirty.clear()
        self.rewrite(indices)

    def rewrite(self, indices: Iterable[int]) -> None:
        """Redraw tokens ``indices``: new text where it changed, new colours where it did not."""
        indices = sorted(set(indices), reverse=True)
        if not indices:
            return
        self._note_change(indices[-1])
        tm = self.text_map
        looks = [(i, self.look(i)) for i in indices]
        # Words off screen, no line changed: the text layout is told nothing (it would repaint the
        # whole viewport, 2-12 ms on a screen full of suggestions, for each slice of restoration
        # results); the blocks changed are laid out again when they come into view. Lines that
        # come or go below the screen (restoration's proposed breaks) move nothing shown: only
        # the scroll bar is told the text's new size.
        layout = self.document().documentLayout()
        lines = not all(look[0] == tm.sep(i) for i, look in looks)
        start, end = tm.offset(indices[-1]), tm.offset(indices[0] + 1)
        quiet = self.off_screen(start, end) and (not lines or self.off_screen(start, end, below=True))
        self.moving = True
        if quiet:
            layout.blockSignals(True)
        caret = self.textCursor()
        # A word rewritten under the caret (its capital or mark proposed as restoration lands)
        # pushed the caret to the word's end, and a screen reader heard it jump from 0 to 7: where
        # the caret is in the words rewritten, it is kept there, by word.
        held = None
        if start <= max(caret.anchor(), caret.position()) and min(caret.anchor(), caret.position()) <= end:
            held = [self._in_piece(p) for p in (caret.anchor(), caret.position())]
            retyped = {i for i, look in looks if look[:3] != tm.piece(i)}
            if not any(h is not None and h[0] in retyped for h in held):
                held = None  # only restyled there: the caret does not move
        if held is not None:
            caret.setKeepPositionOnInsert(True)  # (a word put in at the caret does not push it on)
            self._set_caret_in_place(caret)
        try:
            cursor = QTextCursor(self.document())
            cursor.beginEditBlock()
            for i, look in looks:  # from the end: earlier offsets stay valid
                sep, surface, punct, sfmt, pfmt = look
                at = tm.offset(i)
                if (sep, surface, punct) == tm.piece(i):
                    self.looks.format_token(cursor, at + len(sep), surface, punct, sfmt, pfmt)
                    continue
                cursor.setPosition(at)
                cursor.setPosition(tm.offset(i + 1), QTextCursor.MoveMode.KeepAnchor)
                cursor.removeSelectedText()
                self.looks.insert(cursor, *look)
                tm.set(i, sep, surface, punct)
            cursor.endEditBlock()
            if held is not None:
                caret = self.textCursor()
                caret.setKeepPositionOnInsert(False)
                anchor, position = (self._from_piece(*h) if h is not None else None for h in held)
                if anchor is not None and position is not None:
                    caret.setPosition(anchor)
                    caret.setPosition(position, QTextCursor.MoveMode.KeepAnchor)
                self._set_caret_in_place(caret)
        finally:
            if quiet:
                layout.blockSignals(False)
                if lines:
                    layout.documentSizeChanged.emit(layout.documentSize())
            self.moving = False

    def _set_caret_in_place(self, caret: QTextCursor) -> None:
        """``setTextCursor`` without scrolling to it (the text stays where the person has it)."""
        bars = self.verticalScrollBar(), self.horizontalScrollBar()
        values = [bar.value() for bar in bars]
        self.setTextCursor(caret)
        for bar, value in zip(bars, values):
            bar.setValue(value)

    def _in_piece(self, position: int) -> tuple[int, int] | None:
        """(word, characters into its piece) of a position of the text shown."""
        tm = self.text_map
        index = tm.piece_at(position) if len(tm) else None
        return None if index is None else (index, position - tm.offset(index))

    def _from_piece(self, index: int, inside: int) -> int | None:
        tm = self.text_map
        if index >= len(tm):
            return None
        return tm.offset(index) + min(inside, tm.offset(index + 1) - tm.offset(index))

    def off_screen(self, start: int, end: int, below: bool = False) -> bool:
        """Whether characters ``start:end`` lie wholly outside the part of the text on screen
        (``below``: after it)."""
        if not self.isVisible():
            return False
        block = self.firstVisibleBlock()
        if not block.isValid():
            return False
        top = block.position()
        y = self.blockBoundingGeometry(block).translated(self.contentOffset()).top()
        height = self.viewport().height()
        bottom = top
        while block.isValid() and y <= height:
            bottom = block.position() + block.length()
            y += self.blockBoundingRect(block).height()
            block = block.next()
        return start > bottom if below else end < top or start > bottom

    def _note_change(self, index: int) -> None:
        self.last_changed = index if self.last_changed is None else min(self.last_changed, index)

    def reveal_last_change(self) -> None:
        """Scroll to the first word changed since ``last_changed`` was reset, if off screen."""
        self.flush()
        if self.last_changed is not None and len(self.transcript):
            self.scroll_to_token(min(self.last_changed, len(self.transcript) - 1))

    def reveal_change(self, change: Callable[[], object]) -> None:
        """Run ``change()`` (an undo, a redo) and scroll to what it changed if that is off screen."""
        self.flush()
        self.last_changed = None
        change()
        self.flush()
        if self.last_changed is not None and len(self.transcript):
            self.scroll_to_token(min(self.last_changed, len(self.transcript) - 1))

    # -- editing (text_view/editing.py) ---------------------------------------------------------------------
    def edit_characters(self, start: int, end: int, typed: str,
                        merge_id: object | None = None, *, keep_pending: bool = False) -> int | None:
        """Characters ``start:end`` of the shown text become ``typed`` (``Editor.edit_characters``)."""
        return self.editing.edit_characters(start, end, typed, merge_id, keep_pending=keep_pending)

    def insert_text(self, text: str) -> None:
        """Type ``text`` at the caret (replacing a selection), as the keyboard would."""
        self.editing.insert_text(text)

    def setPlainText(self, text: str, /) -> None:
        super().setPlainText(text)
        mute_shown_text(self)  # a reader hears the text as it stands, not each change shown

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        self.narrator.focused()  # what was said meanwhile reaches a reader that reads the focus

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and self.editing.shortcut_override(cast(QKeyEvent, event)):
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not self.editing.key_pressed(event):
            super().keyPressEvent(event)  # moving, selecting, copying

    def inputMethodEvent(self, event: QInputMethodEvent) -> None:
        self.editing.input_method(event)

    def insertFromMimeData(self, source: QMimeData) -> None:  # paste and drops of text
        self.editing.insert_from(source)

    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        return source.hasText()

    def cut(self) -> None:
        self.editing.cut()

    def paste(self) -> None:
        self.editing.paste()

    def dropEvent(self, event: QDropEvent) -> None:
        event.ignore()  # files dropped here go to the window

    # -- review (text_view/review.py) ----------------------------------------------------------------------
    @property
    def current(self) -> Suggestion | None:
        """The suggestion under review (``Reviewer.current``)."""
        return self.review.current

    @property
    def reviewing(self) -> bool:
        """Whether Enter, Delete and 1-9 act on suggestions (else they edit the text)."""
        return self.review.reviewing

    def set_current(self, suggestion: Suggestion | None) -> None:
        """Make ``suggestion`` the one under review: select it and scroll to it."""
        self.review.set_current(suggestion)

    def next_suggestion(self, reverse: bool = False) -> Suggestion | None:
        """Go to the next (or previous) pending suggestion in the review order (``Reviewer``)."""
        return self.review.next_suggestion(reverse)

    def _caret_moved(self) -> None:
        if self.moving:
            return
        self.editing.held = None  # whitespace typed waits no longer (text_view/editing.py)
        self.review.caret_moved()
        if not self.textCursor().hasSelection() and self._transcript is not None:
            self.narrator.caret_met(self.textCursor().position())  # a proposal here is said

    # -- the mouse and the player (text_view/pointer.py) ----------------------------------------------------
    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            self.pointer.show_tooltip(cast(QHelpEvent, event))
            return True
        return super().viewportEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.pointer.pressed()
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self.pointer.mouse_down = False
        super().mouseReleaseEvent(event)
        self.pointer.released(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        self.pointer.context_menu(event)

    def scroll_to_token(self, index: int, place: float = 1 / 3) -> None:
        """Scroll so word ``index`` is on screen (``Pointer.scroll_to_token``)."""
        self.pointer.scroll_to_token(index, place)

    def highlight_token(self, index: int | None, colour: QColor | None = None) -> None:
        """Mark one word, e.g. the word being played (``Pointer.highlight_token``)."""
        self.pointer.highlight_token(index, colour)

    # -- positions ---------------------------------------------------------------------------------
    def token_range(self, index: int) -> tuple[int, int, int]:
        """(start, punct start, end) character positions of token ``index`` as shown."""
        self.build.ensure_built(index)
        self.flush()
        return self.text_map.word_range(index)

    def token_at(self, position: int) -> int | None:
        """The token at a character position (the one before it in a gap)."""
        if not len(self.text_map):
            return None
        self.flush()
        return self.text_map.token_at(position)

    def visible_tokens(self) -> tuple[int, int]:
        """Index range of the words on screen (what restoration should do first)."""
        if not len(self.text_map):
            return 0, 0
        top = self.cursorForPosition(QPoint(0, 0)).position()
        vp = self.viewport()
        bottom = self.cursorForPosition(QPoint(vp.width() - 1, vp.height() - 1)).position()
        first, last = self.token_at(top) or 0, self.token_at(bottom) or 0
        return first, min(len(self.text_map), last + 1)

    def shown_text(self) -> str:
        """The text as displayed (pending suggestions applied; a soft break reads as a space)."""
        self.build.ensure_built()
        self.flush()
        return "".join(f"{' ' if sep == SOFT_BREAK else sep}{surface}{punct}"
                       for _, _, (sep, surface, punct) in self.text_map.pieces())
