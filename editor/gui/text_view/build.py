"""Putting a transcript's text on screen: all at once for a short one; for a long one its first
words at once and the rest a slice per turn of the event loop (``building``), so that opening
100,000 words never holds the window. Words not shown yet are drawn as they stand when the build
gets to them; whatever needs a far word's position finishes the build first (``ensure_built``)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QTextCharFormat, QTextCursor, QTextDocument

from editor.core.document.transcript import Kind
from editor.core.formats.subtitles import WordStyles
from editor.core.formats.whisper import CUE_FORMAT as WHISPER_CUES
from editor.core.document.paragraphs import kept_lines
from editor.gui.text_view.looks import PARAGRAPH_GAP, SOFT_BREAK, Look, Looks

if TYPE_CHECKING:
    from editor.core.document.transcript import Transcript
    from editor.gui.text_view.textmap import TextMap

SEGMENT_FORMATS = frozenset({WHISPER_CUES})  # cues read from a transcript's JSON, not subtitles

# A text of up to BUILD_AT_ONCE words is shown at once; a longer one shows its first FIRST_BUILT
# words at once and the rest _BUILD_STEP words at a time, _BUILD_SECONDS per turn of the event loop.
BUILD_AT_ONCE, FIRST_BUILT, _BUILD_STEP = 5_000, 2_000, 1_000
_BUILD_SECONDS = 0.004


class BuildHost(Protocol):
    """What ``TextBuilder`` uses of its view (``QtTranscriptView``): the text and its map, how a
    word looks, and what the view keeps of the layout (set here as a text is built)."""

    text_map: TextMap
    looks: Looks
    cue_ids: frozenset[int]
    cue_spans: dict[int, tuple[float, float]]
    segment_ids: frozenset[int]
    timed: bool  # some word has a time (the margin shows paragraph times)
    has_breaks: bool  # some paragraph break is or was proposed
    break_ids: set[int]  # words that carry (or carried) a break suggestion
    soft: set[int]  # lines that run on, no break there (kept_lines): ids
    para_shown: frozenset[int]  # the paragraph starts the text shows
    word_styles: WordStyles  # italics, bold... read from subtitle cues, by token id
    dirty: set[int]  # token ids whose look must be brought up to date
    moving: bool  # the view itself changes the text or the caret

    @property
    def transcript(self) -> Transcript: ...
    def document(self) -> QTextDocument: ...
    def setCurrentCharFormat(self, format: QTextCharFormat, /) -> None: ...
    def setPlainText(self, text: str, /) -> None: ...
    def layout_gutter(self) -> None: ...
    def look(self, index: int) -> Look: ...
    def off_screen(self, start: int, end: int, below: bool = False) -> bool: ...


class TextBuilder:
    """Puts the text of the view's transcript on screen, a slice per turn when it is long; part of
    ``QtTranscriptView``, given it as a ``BuildHost``."""

    def __init__(self, view: BuildHost, owner: QObject) -> None:
        self._view = view  # (``owner``, the view too, holds the timers)
        self.built = 0  # tokens shown so far
        self.building = False  # True while a long text is still being put on screen
        self._discarded: list[object] = []  # the map of a text replaced, freed a few parts a turn
        self._build_timer = QTimer(owner)
        self._build_timer.setSingleShot(True)
        self._build_timer.setInterval(0)
        self._build_timer.timeout.connect(self._build_slice)
        self._free_timer = QTimer(owner)
        self._free_timer.setSingleShot(True)
        self._free_timer.setInterval(0)
        self._free_timer.timeout.connect(self._free_slice)

    def rebuild(self) -> None:
        """Lay the whole text out again (opening a document, new settings). A long text shows its
        first words now and the rest a slice per turn of the event loop (``building``): all of
        100,000 words at once held the window for a fifth of a second."""
        doc = self._view.transcript
        tokens = doc.tokens
        # words with times have them throughout: a look at both ends is enough (and quick)
        self._view.timed = any(t.start is not None for t in (*tokens[:100], *tokens[-100:]))
        # Subtitle cues as read (``Metadata.cues``, where the reader keeps them): a bar marks where
        # each begins.
        cues = [c for c in getattr(doc.metadata, "cues", ()) if getattr(c, "token_ids", ())]
        self._view.cue_ids = frozenset(c.token_ids[0] for c in cues)
        # when each is shown, as read (the hover on its first word says it)
        self._view.cue_spans = {c.token_ids[0]: (c.start, c.end) for c in cues
                          if getattr(c, "start", None) is not None and getattr(c, "end", None) is not None}
        # what the tooltip calls them: a Whisper (JSON) transcript has segments, not subtitle cues
        self._view.segment_ids = frozenset(c.token_ids[0] for c in cues
                                     if getattr(c, "format", "") in SEGMENT_FORMATS)
        breaks = list(doc.iter_suggestions(kind=Kind.BREAK))
        self._view.has_breaks = bool(breaks)
        self._view.break_ids = {s.token_id for s in breaks}
        self._view.soft = kept_lines(doc, breaks=breaks)  # lines that run on (raw words: every 1,000)
        self._view.para_shown = doc.paragraph_ids
        self._view.word_styles = WordStyles(doc)  # italics, bold, colours of subtitle cues, by token id
        self._view.dirty.clear()
        self.built, self.building = 0, True
        n = len(doc)
        # a project's words carry suggestions, each styled: 2,000 of them took ~40 ms, so a
        # quarter as many first (so too for a styled subtitle's words) (more than a screenful), the rest in slices as ever
        first = FIRST_BUILT // 4 if doc.has_suggestions() or self._view.word_styles else FIRST_BUILT
        self._build_step(n if n <= BUILD_AT_ONCE else first)
        if self.built >= n:
            self.building = False
        else:
            self._build_timer.start()
        self._view.layout_gutter()

    def _pieces(self, a: int, b: int) -> tuple[list[str], list[str], list[str], list[tuple[int, Look]]]:
        """(separators, surfaces, marks, [(index, look) of the styled ones]) of tokens ``a:b`` as
        they are to be shown: plain words in bulk, a full look only where there are suggestions."""
        doc = self._view.transcript
        tokens = doc.tokens[a:b]
        soft, is_start = self._view.soft, doc.is_paragraph_start
        seps = [PARAGRAPH_GAP if is_start(i) else SOFT_BREAK if t.id in soft else " "
                for i, t in enumerate(tokens, a)]
        if a == 0 and seps:
            seps[0] = ""
        surfs = [t.surface or t.word for t in tokens]
        puncts = [t.punct for t in tokens]
        styled: list[tuple[int, Look]] = []
        suggested = doc.suggested_token_ids()
        word_styles = self._view.word_styles  # (italics, bold... of subtitle cues)
        if suggested or word_styles:
            suggested_set = set(suggested)
            for k, t in enumerate(tokens):
                if t.id in suggested_set:
                    look = self._view.look(a + k)
                    surfs[k], puncts[k] = look[1], look[2]
                    if k or a:  # a proposed paragraph break: a new line
                        seps[k] = look[0]
                elif word_styles and word_styles.get(t.id) is not None:
                    look = self._view.look(a + k)
                else:
                    continue
                if look[3] is not None or look[4] is not None:
                    styled.append((a + k, look))
        return seps, surfs, puncts, styled

    def _build_step(self, b: int) -> None:
        """Show tokens from ``_built`` up to ``b`` after what is shown (all of it from 0)."""
        a, b = self.built, min(b, len(self._view.transcript))
        seps, surfs, puncts, styled = self._pieces(a, b)
        tm = self._view.text_map
        self._view.moving = True
        try:
            if a == 0:
                if len(tm) > FIRST_BUILT:  # the map of the text shown before: freed in slices
                    self._discarded += tm.take()
                    self._free_timer.start()
                # setPlainText gives the whole text the format the caret stands in (after a
                # proposed mark: bold and tinted): plain first, the proposals styled below.
                self._view.setCurrentCharFormat(self._view.looks.plain)
                self._view.setPlainText(tm.reset(seps, surfs, puncts))
            else:
                # Below the screen, the text layout is told nothing but the new size (for the
                # scroll bar): words that start lines made it repaint the whole screen, 4-7 ms
                # with suggestions on it, in every slice of a long build.
                layout = self._view.document().documentLayout()
                quiet = self._view.off_screen(tm.total, tm.total, below=True)
                tm.splice(a, 0, zip(seps, surfs, puncts))
                cursor = QTextCursor(self._view.document())
                cursor.movePosition(QTextCursor.MoveOperation.End)
                if quiet:
                    layout.blockSignals(True)
                try:
                    cursor.insertText("".join(map(str.__add__, map(str.__add__, seps, surfs), puncts)),
                                      self._view.looks.plain)
                finally:
                    if quiet:
                        layout.blockSignals(False)
                        layout.documentSizeChanged.emit(layout.documentSize())
            if styled:
                cursor = QTextCursor(self._view.document())
                cursor.beginEditBlock()
                for first, last, (_sep, surface, punct, sfmt, pfmt) in _runs(styled):
                    if first == last:
                        self._view.looks.format_token(cursor, tm.word_range(first)[0], surface, punct, sfmt, pfmt)
                    else:  # words in one format (an italic cue): one range, the spaces between too
                        cursor.setPosition(tm.word_range(first)[0])
                        cursor.setPosition(tm.word_range(last)[2], QTextCursor.MoveMode.KeepAnchor)
                        cursor.setCharFormat(sfmt)
                cursor.endEditBlock()
        finally:
            self._view.moving = False
        self.built = b

    def _build_slice(self) -> None:
        """The next words of a long text, for about ``_BUILD_SECONDS``."""
        end = time.perf_counter() + _BUILD_SECONDS
        while self.building and time.perf_counter() < end:
            self._build_step(self.built + _BUILD_STEP)
            if self.built >= len(self._view.transcript):
                self.building = False
                self._view.layout_gutter()
        if self.building:
            self._build_timer.start()

    def _free_slice(self) -> None:
        """Free a few parts of a replaced text's map (``TextMap.take``), for up to 2 ms."""
        end = time.perf_counter() + 0.002
        while self._discarded and time.perf_counter() < end:
            del self._discarded[-16:]
        if self._discarded:
            self._free_timer.start()

    def ensure_built(self, index: int | None = None) -> None:
        """Show the text up to token ``index`` (all of it: None) now, if a build is under way."""
        while self.building and (index is None or index >= self.built):
            self._build_step(self.built + 4 * _BUILD_STEP)
            if self.built >= len(self._view.transcript):
                self.building = False
                self._build_timer.stop()
                self._view.layout_gutter()


def _runs(styled: list[tuple[int, Look]]) -> list[list[Any]]:
    """(first, last, look) of runs of styled words next to each other in one format, word and
    mark alike (an italic subtitle's words: formatted one by one, 25,000 took 0.7 s); any other
    styled word is a run of its own."""
    out: list[list[Any]] = []
    for i, look in styled:
        fmt = look[3]
        if out and fmt is not None and fmt is look[4] and out[-1][1] == i - 1 and \
                out[-1][2][3] is fmt and out[-1][2][4] is fmt and "\n" not in look[0]:
            out[-1][1] = i
        else:
            out.append([i, i, look])
    return out
