"""Typing in the view: keys, paste, cut, deleting and Enter become ``Transcript.replace_span`` over
whole words (or a paragraph split); the text widget never changes its own text. Runs of typed
characters are one undo step; in review mode Enter, Delete and 1-9 act on the suggestion instead.
A long paste goes in a slice of words per turn of the event loop (see ``slicer``), one undo step."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QEvent, QMimeData, QObject, Qt, QTimer, SignalInstance
from PySide6.QtGui import QInputMethodEvent, QKeyEvent, QKeySequence, QTextCursor, QTextDocument

from editor.gui.text_view.layout import Layout, WordSpan
from editor.core.document.transcript import Kind, State, Transcript
from editor.core.review.repeat_choices import snapshot_shown, typed_to_repeat
from editor.core.document.text import text_as_read
from editor.gui.base import hotkeys
from editor.gui.text_view.looks import PARAGRAPH_GAP, SOFT_BREAK
from editor.gui.text_view.review import NO_SELECTION_NOTE, OUT_OF_VIEW_NOTE, repeated_note

if TYPE_CHECKING:
    from editor.core.settings import Settings
    from editor.gui.text_view.textmap import TextMap
    from editor.gui.text_view.build import TextBuilder
    from editor.gui.text_view.review import Reviewer

#: An edit of up to this many words (a paste) goes in at once; a longer one a slice of
#: _PASTE_SLICE words per turn of the event loop, the first slice (at the caret) at once.
PASTE_AT_ONCE = 600
_PASTE_SLICE = 150
_WORDS = re.compile(r"(\s+)")
_MODIFIER_KEYS = frozenset({Qt.Key.Key_Shift, Qt.Key.Key_Control, Qt.Key.Key_Alt, Qt.Key.Key_Meta,
                            Qt.Key.Key_AltGr})

#: The keys QTextEdit deletes with besides Backspace and Delete, and where each deletes to from
#: the caret (DeleteCompleteLine: from the paragraph's start).
_DELETIONS = {
    QKeySequence.StandardKey.DeleteStartOfWord: QTextCursor.MoveOperation.PreviousWord,  # Ctrl+Backspace
    QKeySequence.StandardKey.DeleteEndOfWord: QTextCursor.MoveOperation.NextWord,  # Ctrl+Delete
    QKeySequence.StandardKey.DeleteEndOfLine: QTextCursor.MoveOperation.EndOfBlock,  # Ctrl+K on X11
    QKeySequence.StandardKey.DeleteCompleteLine: QTextCursor.MoveOperation.EndOfBlock,  # Ctrl+U on X11
}


def _types_text(mods: Qt.KeyboardModifier) -> bool:
    """Whether a key with these modifiers types its text, as in QTextEdit
    (``QInputControl::isAcceptableInput``): with any but Ctrl and Ctrl+Shift."""
    mods &= ~Qt.KeyboardModifier.KeypadModifier
    ctrl = Qt.KeyboardModifier.ControlModifier
    return mods not in (ctrl, ctrl | Qt.KeyboardModifier.ShiftModifier)


#: ``slicer(slices, done)``: runs ``next(slices)`` a few at a time per turn of the event loop,
#: keys that would edit waiting meanwhile (``frozen``), then calls ``done()``. The window gives one.
Slicer = Callable[[Iterator[object], Callable[[], None]], None]
#: The words around an edit as shown when a run of typing began: (run id, first word, end word,
#: words in the document then, ``snapshot_shown``, the choices already repeated).
Typed = tuple[int, int, int, int, list[tuple[str, str, str]], set[tuple[str, Kind, str]]]


def paste_parts(text: str, words: int) -> list[str]:
    """``text`` cut into parts of about ``words`` words, each later part beginning with the
    whitespace (spaces, line breaks) before its first word: joined they give ``text`` again."""
    chunks = _WORDS.split(text)  # word, space, word, ..., word ("" at an end with space)
    step = 2 * words
    cuts = [0, *range(step - 1, len(chunks), step), len(chunks)]
    parts = ["".join(chunks[a:b]) for a, b in zip(cuts, cuts[1:]) if a < b]
    if len(parts) > 1 and not parts[-1].strip():  # space at the end: the last part's
        parts[-2:] = [parts[-2] + parts[-1]]
    return parts


class EditingHost(Protocol):
    """What ``Editor`` uses of its view (``QtTranscriptView``)."""

    settings: Settings
    text_map: TextMap
    build: TextBuilder  # (an edit far down a long text finishes the build to there first)
    review: Reviewer  # (review keys, and typed choices repeated as decisions are)
    message: SignalInstance  # a short note for the status bar
    pasted: SignalInstance  # the ids of the words a paste put in, and its undo step's merge id
    soft: set[int]
    moving: bool

    @property
    def transcript(self) -> Transcript: ...
    @property
    def frozen(self) -> bool: ...
    def flush(self) -> None: ...
    def token_at(self, position: int) -> int | None: ...
    def token_range(self, index: int) -> tuple[int, int, int]: ...
    def rewrite(self, indices: Iterable[int]) -> None: ...
    def update_lines(self) -> set[int]: ...
    def document(self) -> QTextDocument: ...
    def textCursor(self) -> QTextCursor: ...
    def setTextCursor(self, cursor: QTextCursor, /) -> None: ...
    def ensureCursorVisible(self) -> None: ...
    def keyPressEvent(self, event: QKeyEvent, /) -> None: ...
    def copy(self) -> None: ...


class Editor:
    """Typing, deleting and pasting in ``QtTranscriptView``, turned into edits of its transcript;
    given the view as an ``EditingHost``."""

    def __init__(self, view: EditingHost, owner: QObject) -> None:
        self._view = view
        self._owner = owner  # (the view too: the context of the timers started here)
        self.slicer: Slicer | None = None  # the window gives one: a long paste, a slice a turn
        self.pasting = False  # a long paste goes in a slice at a time
        self._paste_ids: list[int] | None = None  # the words a paste under way put in (see ``pasted``)
        self._paste_merge: object | None = None  # the undo step of that paste
        self._paste_from = 0  # the first token id a paste under way makes
        self._paste_doc: Transcript | None = None  # the document it goes into
        self._waiting: list[tuple[int, Qt.KeyboardModifier, str]] = []  # keys pressed meanwhile
        self._run: tuple[str, int] | None = None  # the typing run going on: (kind, caret after it)
        self._run_id = 0
        self._typed: Typed | None = None  # the words a run of typing began from (see _typed_snapshot)
        self.held: tuple[int, str] | None = None  # whitespace typed that waits for the next word

    def edit_characters(self, start: int, end: int, typed: str,
                        merge_id: object | None = None, *, keep_pending: bool = False) -> int | None:
        """Characters ``start:end`` of the shown text become ``typed``; returns where the caret goes.
        ``merge_id``: that of the typing's undo step, which a choice typed on a frequent word
        joins as it is repeated a slice at a time (without it, it is repeated at once). An edit of
        more than PASTE_AT_ONCE words (a long paste) with a ``slicer`` and a ``merge_id`` puts its
        first words in now and the rest a slice per turn of the event loop, joining that undo
        step; it returns None and places the caret when done. ``keep_pending``: a form or mark
        that still reads as its pending suggestion shows it is no decision (Find and Replace:
        ``Transcript.replace_span``)."""
        self._view.flush()
        doc = self._view.transcript
        n = len(doc)
        if n == 0:
            doc.replace_span(0, 0, typed)
            return len(typed)
        tm = self._view.text_map
        i0, i1 = self._view.token_at(start) or 0, self._view.token_at(end) or 0
        a, b = max(0, i0 - 1), min(n, i1 + 2)
        self._view.build.ensure_built(b - 1)  # the word after the edit, if a long text is still coming
        base = tm.word_range(a)[0]
        parts, spans, offset = [], [], 0
        for k, _, (sep, surface, punct) in tm.pieces(a, b):
            sep = (" " if sep == SOFT_BREAK else sep) if k > a else ""
            offset += len(sep)
            spans.append(WordSpan(k - a, offset, offset + len(surface),
                                  offset + len(surface) + len(punct)))
            parts += [sep, surface, punct]
            offset = spans[-1].end
        local = Layout("".join(parts), tuple(spans))
        ls = min(max(start - base, 0), len(local.text))
        le = min(max(end - base, ls), len(local.text))
        first, last, text = local.edit(ls, le, typed)
        before = tm.total
        typed_from = self._typed_snapshot(a, b)
        chunks = [text]
        if self.slicer is not None and merge_id is not None and len(typed) > PASTE_AT_ONCE:
            chunks = paste_parts(text, _PASTE_SLICE)
            if len(chunks) * _PASTE_SLICE <= PASTE_AT_ONCE:
                chunks = [text]

        def finish() -> int:
            if typed_from is not None:  # a case or mark typed is repeated elsewhere, as a choice is
                _run, a0, b0, n0, shown_before, done = typed_from
                self._view.review.repeat_typed(typed_to_repeat(doc, shown_before, a0, b0 + len(doc) - n0, done),
                                  merge_id)
            self._view.flush()
            # The text after the edit reads as before (only the touched words are redrawn), so the
            # caret goes as far from the end as ``end`` was: typed spacing may be normalised.
            return max(start, self._view.text_map.total - (before - end))

        if len(chunks) == 1:
            # One edit block for the words, the next word's separator, the lines that run on and
            # the restyles: Qt lays the paragraph out again once, not after each of them (3 times
            # 11 ms for a paste into a line of 1,500 words)
            block = QTextCursor(self._view.document())
            block.beginEditBlock()
            try:
                doc.replace_span(a + first, a + last, text, keep_pending=keep_pending)
                return finish()
            finally:
                block.endEditBlock()
        self._paste_in_slices(a + first, a + last, chunks, merge_id, finish)
        return None

    def _paste_in_slices(self, first: int, last: int, parts: list[str], merge_id: object,
                         finish: Callable[[], int]) -> None:
        """Words ``first:last`` become ``parts`` (see ``paste_parts``): the first now, the others
        one per slice, joining the undo step ``merge_id``; then ``finish()``, the caret where it
        says, and the keys pressed meanwhile (they wait: see ``keyPressEvent``)."""
        doc = self._view.transcript
        n = len(doc)
        after = [first]  # the word after the last one put in
        self.pasting, self._waiting = True, []
        lines: set[int] = set()  # words that start a line for the time of the paste

        def slices() -> Iterator[None]:
            for part in parts[1:]:
                # The last word put in is replaced by itself and the part: the part's line breaks
                # start paragraphs and the paragraph it is in goes on (an insertion before the
                # next word would move that word's paragraph start to the part).
                k = after[0] - 1
                t = doc[k]
                if "\n" not in part and "\r" not in part and 0 < k and t.id not in self._view.soft:
                    # Qt lays a paragraph out again at once when text goes into it and it is on
                    # screen: a paragraph growing by a part per slice took ever longer (30 ms a
                    # slice at 20,000 words). Each part goes on a line of its own, as long as the
                    # paste goes on; the lines are joined when it is done.
                    lines.add(t.id)
                    self._view.soft = self._view.soft | {t.id}
                    self._view.rewrite([k])
                with doc.history.group("Paste", merge_id=merge_id):
                    after[0] = doc.replace_span(k, k + 1, f"{t.surface or t.word}{t.punct}{part}").stop
                yield None

        def done() -> None:
            self.pasting = False
            self._view.soft = self._view.soft - lines
            redraw = lines | self._view.update_lines()  # and lines that run on, where the text needs them
            if redraw:
                self._view.rewrite(doc.index_of(i) for i in redraw if doc.has_token(i))
            with doc.history.group("Paste", merge_id=merge_id):
                caret = finish()
            self._place_caret(caret)
            added = len(doc) - n
            self._view.message.emit(f"Pasted {added:,} word{'s' if added != 1 else ''}")
            if self._paste_ids is not None:
                self._paste_done()
            if self._waiting:
                QTimer.singleShot(0, self._owner, self._type_waiting)

        assert self.slicer is not None
        # The slicer first: the list, restoration and keys know a bulk step runs before the
        # first words go in (the list would look through every suggestion meanwhile)
        self.slicer(slices(), done)
        new = doc.replace_span(first, last, parts[0])
        after[0] = new.stop
        if not len(new):  # (no word in the first part: marks alone) the rest at once
            doc.replace_span(new.start, new.start, "".join(parts[1:]))
            del parts[1:]
        self._view.flush()  # the first words, at the caret, on screen now

    def _type_waiting(self) -> None:
        """The keys pressed while a long paste went in, as if pressed now."""
        waiting, self._waiting = self._waiting, []
        for k, (key, mods, text) in enumerate(waiting):
            if self.pasting:  # another long paste among them: the rest wait for it
                self._waiting.extend(waiting[k:])
                return
            self._view.keyPressEvent(QKeyEvent(QEvent.Type.KeyPress, key, mods, text))

    def _typed_snapshot(self, a: int, b: int) -> Typed | None:
        """The words around an edit as shown when this run of typing began (see repeat_typed)."""
        if not self._view.settings.review.repeat_choices:
            return None
        t = self._typed
        if t is None or t[0] != self._run_id or t[1] != a:
            doc = self._view.transcript
            t = self._typed = (self._run_id, a, b, len(doc), snapshot_shown(doc, a, b), set())
        return t

    def insert_text(self, text: str) -> None:
        """Type ``text`` at the caret (replacing a selection), as the keyboard would."""
        self._type(text)

    def _type(self, typed: str, label: str | None = None) -> None:
        cursor = self._view.textCursor()
        start, end = cursor.selectionStart(), cursor.selectionEnd()
        if self.held is not None and self.held[0] == start == end:
            typed = self.held[1] + typed  # the space typed before this word
        self.held = None
        self._edit_and_place(start, end, typed, label)

    def _edit_and_place(self, start: int, end: int, typed: str, label: str | None = None) -> None:
        # Characters typed (or deleted) one after another in a row are one undo step, as in any
        # text editor; moving the caret, a space or a line break starts the next one.
        if typed.isspace() and start == end and self._space_adds_nothing(start):
            # Next to a space, a paragraph break or at the end a space changes no word: hold it
            # for the word typed next (an edit now would take a proposed mark just before it into
            # the text and drop the space, so that the next word stuck to the mark).
            self.held, self._run = (start, typed), None
            self._place_caret(start)
            return
        kind = "type" if typed else "delete"
        single = len(typed) <= 1 and not typed.isspace() and end - start <= 1
        if not (single and self._run is not None and self._run[0] == kind
                and self._run[1] in (start, end)):
            self._run_id += 1
        revision = self._view.transcript.revision
        merge_id = ("edit", id(self), self._run_id)
        if self._paste_ids is not None:
            self._paste_merge = merge_id  # its restoration joins the paste's undo step
        with self._view.transcript.history.group(label or ("Typing" if typed else "Delete"), merge_id=merge_id):
            caret = self.edit_characters(start, end, typed, merge_id=merge_id)
        if caret is None:  # a long paste, going on a slice per turn: it places the caret
            self._run = None
            return
        # a held space and the letter after it begin a run: the word's next letters join it
        self._run = (kind, caret) if len(typed.lstrip()) <= 1 and not typed.isspace() else None
        if typed and typed.isspace() and start == end and self._view.transcript.revision == revision:
            # A space (or line break) next to a space or at the end changes no word yet: hold it
            # for the word typed next, so "a|" + " " + "b" gives two words, not "ab".
            self.held, caret = (start, typed), start
        self._place_caret(caret)

    def _space_adds_nothing(self, position: int) -> bool:
        """Whether a space typed at ``position`` of the shown text would change no word."""
        text = self._view.document()
        if position >= text.characterCount() - 1:
            return True
        return text.characterAt(position).isspace() or text.characterAt(position) == "\u2029"

    def _place_caret(self, position: int) -> None:
        self._view.moving = True
        try:
            cursor = self._view.textCursor()
            cursor.setPosition(min(position, self._view.document().characterCount() - 1))
            self._view.setTextCursor(cursor)
        finally:
            self._view.moving = False
        if self._view.review.current_key is not None or self._view.review.reviewing:
            self._view.review.leave_review()

    def _delete(self, backwards: bool) -> None:
        cursor = self._view.textCursor()
        start, end = cursor.selectionStart(), cursor.selectionEnd()
        typed = ""
        if start == end:
            if backwards:
                if start == 0:
                    return
                start -= 1
            else:
                if end >= self._view.document().characterCount() - 1:
                    return
                end += 1
            if self._reject_proposed_mark_at(start) or self._reject_proposed_break_at(start):
                return
            gap = self._paragraph_gap_at(start)
            if gap is not None:  # one key joins two paragraphs, with a space between the words
                start, end = gap
                typed = " "
        self._edit_and_place(start, end, typed)

    def _reject_proposed_mark_at(self, position: int) -> bool:
        """Backspace or Delete on a mark that is only proposed (shown, not in the text) rejects
        the proposal, as the review key would: the person's choice, repeated where it applies."""
        tm = self._view.text_map
        index = tm.token_at(position)
        if index is None:
            return False
        _word, mark, end = tm.word_range(index)
        if not mark <= position < end:
            return False
        token = self._view.transcript[index]
        s = self._view.transcript.suggestion(token.id, Kind.PUNCT)
        if s is None or s.state != State.PENDING or tm.punct(index) == token.punct:
            return False
        self._view.flush()
        self._view.review.decide(token.id, Kind.PUNCT, accept=False, announce=lambda _r, _n, repeated: self._view.message.emit(
            f"Rejected the proposed ‘{s.value}’" + (f"; {repeated_note(repeated, rejected=True)}" if repeated else "")))
        self._view.flush()
        self._run = None
        self._place_caret(min(position, self._view.text_map.total))
        return True

    def split_paragraph(self) -> None:
        """Enter: a new paragraph at the caret (between words), or split the word there; at a
        proposed paragraph break (either end of its line), accepting it."""
        cursor = self._view.textCursor()
        if cursor.hasSelection() or not len(self._view.transcript):
            self._type("\n")
            return
        position = cursor.position()
        index = self._view.token_at(position)
        if index is None:  # (no text shown yet)
            self._type("\n")
            return
        a, mark, _b = self._view.token_range(index)
        if a < position < mark:  # inside a word's letters
            self._type("\n")
            return
        # between a word and its mark (proposed or in the text), or after it: the new paragraph
        # begins at the next word and the mark stays with its word ("Hello ," split off it)
        following = index if position <= a else index + 1
        if following >= len(self._view.transcript) or following == 0:  # the next word typed starts one
            self.held = (position, "\n")
            return
        s = self._view.transcript.suggestion(self._view.transcript[following].id, Kind.BREAK)
        if s is not None and s.state == State.PENDING:  # Enter where a break is proposed: accept it
            self._view.flush()
            self._view.transcript.accept(s.token_id, Kind.BREAK)
            self._view.message.emit("Accepted the proposed paragraph break")
        else:
            self._view.transcript.set_paragraph_start(following, True)
        self._view.flush()
        cursor = self._view.textCursor()
        cursor.setPosition(self._view.token_range(following)[0])
        self._view.setTextCursor(cursor)

    def _reject_proposed_break_at(self, position: int) -> bool:
        """Backspace or Delete on the new line of a proposed paragraph break rejects it (the
        text runs on), rather than joining the words on either side; on a rejected break still
        shown as a line it only says so."""
        tm = self._view.text_map
        i = tm.piece_at(position)
        if i is None or i == 0 or tm.sep(i) != SOFT_BREAK or not tm.offset(i) <= position < tm.offset(i) + 1:
            return False
        token = self._view.transcript[i]
        s = self._view.transcript.suggestion(token.id, Kind.BREAK)
        self._run = None
        if s is not None and s.state == State.PENDING:
            self._view.flush()
            self._view.transcript.reject(token.id, Kind.BREAK)
            self._view.flush()
            self._view.message.emit("Rejected the proposed paragraph break: the text runs on")
        else:
            self._view.message.emit("The paragraph runs on here already: the new line only keeps a very "
                              "long paragraph quick to edit")
        self._place_caret(min(position, self._view.text_map.total))
        return True

    def _paragraph_gap_at(self, position: int) -> tuple[int, int] | None:
        """The character range of the paragraph break that ``position`` lies in, if any."""
        tm = self._view.text_map
        i = tm.piece_at(position)
        if i is not None and i > 0 and tm.sep(i) == PARAGRAPH_GAP:
            at = tm.offset(i)
            if at <= position < at + len(PARAGRAPH_GAP):
                return at, at + len(PARAGRAPH_GAP)
        return None

    def insert_from(self, source: QMimeData) -> None:
        """A paste or a drop of text (``QPlainTextEdit.insertFromMimeData``)."""
        if not source.hasText():
            return
        if self._view.frozen:  # (a menu's Paste while a bulk step or a long paste goes on)
            self._view.message.emit("Still working on the last step; a moment…")
            return
        doc = self._paste_doc = self._view.transcript
        self._paste_ids, self._paste_from = [], doc.next_id
        doc.tokens_changed.connect(self._note_pasted)
        try:
            # rich text comes in as its plain words; lines as a .txt file of them reads (caption
            # lines flow, references such as &#39; are decoded), as `stet show` would give them
            self._type(text_as_read(source.text()), "Paste")
        finally:
            if not self.pasting:  # else a long paste goes on, a slice per turn: at its end
                self._paste_done()

    def _note_pasted(self, start: int, _removed: int, inserted: int) -> None:
        """(During a paste) the words it put in, by id: what restoration is asked to look at."""
        doc = self._paste_doc
        if self._paste_ids is not None and doc is not None:
            new = (doc[i].id for i in range(start, min(start + inserted, len(doc))))
            self._paste_ids.extend(i for i in new if i >= self._paste_from)  # not the neighbours

    def _paste_done(self) -> None:
        ids, self._paste_ids = self._paste_ids, None
        doc, self._paste_doc = self._paste_doc, None
        if doc is None:
            return
        try:  # (from the document pasted into, even if another is shown by now: none left behind)
            doc.tokens_changed.disconnect(self._note_pasted)
        except (RuntimeError, ValueError, TypeError):
            pass
        if ids and doc is self._view.transcript:
            words = doc.tokens  # (one tuple; ids of words gone since are left out)
            self._view.pasted.emit([words[i].id for i in doc.indices_of(dict.fromkeys(ids))], self._paste_merge)

    def cut(self) -> None:
        if self._view.textCursor().hasSelection():
            self._view.copy()
            self._delete(backwards=True)

    def paste(self) -> None:
        from PySide6.QtWidgets import QApplication

        source = QApplication.clipboard().mimeData()
        if source is not None:  # None where the platform has no clipboard (offscreen)
            self.insert_from(source)

    def shortcut_override(self, event: QKeyEvent) -> bool:
        """A key the window's shortcuts would take: whether the view keeps it from them."""
        # While a suggestion is current, Esc leaves it rather than reaching the player's Esc
        if self._view.review.current_key is not None and hotkeys.pressed(event, hotkeys.LEAVE_SUGGESTION):
            event.accept()
            return True
        # Undo lives in the transcript: the text edit would claim Ctrl+Z for its own undo
        # (switched off), so the window's Undo and Redo never saw the keys.
        if (event.matches(QKeySequence.StandardKey.Undo)
                or event.matches(QKeySequence.StandardKey.Redo)):
            event.ignore()
            return True
        return False

    def key_pressed(self, event: QKeyEvent) -> bool:
        """A key pressed in the view: whether it was handled here (else the text edit moves,
        selects or copies)."""
        key, mods = event.key(), event.modifiers()
        if self.pasting and key not in _MODIFIER_KEYS:
            # Keys pressed while a long paste goes in act after it, in order, where it ends
            self._waiting.append((key, mods, event.text()))
            return True
        if self._view.frozen and (event.text() or key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace,
                                                          Qt.Key.Key_Return, Qt.Key.Key_Enter)):
            self._view.message.emit("Still working on the last step; a moment…")
            return True
        plain = not (mods & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
                             | Qt.KeyboardModifier.MetaModifier))
        reviewing = self._view.review.reviewing
        review_key = reviewing and any(hotkeys.pressed(event, k) for k in (
            hotkeys.ACCEPT, hotkeys.REJECT, hotkeys.ALTERNATIVES))
        if hotkeys.pressed(event, hotkeys.NEXT_SUGGESTION):
            self._view.review.next_suggestion()
        elif hotkeys.pressed(event, hotkeys.PREVIOUS_SUGGESTION):
            self._view.review.next_suggestion(reverse=True)
        elif review_key and self._view.review.current_key is None:  # review mode, nothing left under review
            self._view.message.emit(NO_SELECTION_NOTE)
        elif review_key and not self._view.review.current_in_view():  # scrolled away: not visibly current
            self._view.ensureCursorVisible()
            self._view.message.emit(OUT_OF_VIEW_NOTE)
        elif reviewing and hotkeys.pressed(event, hotkeys.ACCEPT):
            self._view.review.accept_current()
        elif reviewing and hotkeys.pressed(event, hotkeys.REJECT):
            self._view.review.reject_current()
        elif reviewing and hotkeys.pressed(event, hotkeys.ALTERNATIVES):
            self._view.review.choose_alternative(int(event.text() or chr(key)))
        elif reviewing and hotkeys.pressed(event, hotkeys.LEAVE_SUGGESTION):
            self._view.review.make_current(None, select=False)
            self._view.review.leave_review()
        elif event.matches(QKeySequence.StandardKey.Cut):
            self.cut()
        elif event.matches(QKeySequence.StandardKey.Paste):
            self.paste()
        elif event.matches(QKeySequence.StandardKey.Undo) or event.matches(QKeySequence.StandardKey.Redo):
            event.ignore()  # the window's actions undo in the transcript
        elif key == Qt.Key.Key_Backspace and not mods & Qt.KeyboardModifier.ControlModifier:
            self._delete(backwards=True)
        elif (key == Qt.Key.Key_Delete and plain) or event.matches(QKeySequence.StandardKey.Delete):
            self._delete(backwards=False)  # also Ctrl+D on X11 desktops
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and plain:
            self.split_paragraph()
        elif (standard := next((k for k in _DELETIONS if event.matches(k)), None)) is not None:
            self.delete_standard(standard)
        elif event.text() and event.text().isprintable() and _types_text(mods):
            self._type(event.text())  # Alt+key, AltGr as Ctrl+Alt, a Mac's Option+key too
        elif key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
            pass  # Alt+Tab and the like: QTextEdit would put a tab on the screen only
        else:
            return False  # moving, selecting, copying
        return True

    def delete_standard(self, standard: QKeySequence.StandardKey) -> None:
        """Ctrl+Backspace, Ctrl+Delete and the like (``_DELETIONS``): what QTextEdit would delete
        (the selection, else up to where the key's move goes), deleted from the transcript. Left
        to QTextEdit they changed only the text on the screen, not what is saved."""
        keys = QKeySequence.StandardKey
        cursor = self._view.textCursor()
        if not cursor.hasSelection():
            block = cursor.block()
            if standard == keys.DeleteStartOfWord and cursor.position() == block.position():
                self._delete(backwards=True)  # at a paragraph's start: joins it to the one before
                return
            if (standard in (keys.DeleteEndOfWord, keys.DeleteEndOfLine)
                    and cursor.position() == block.position() + block.length() - 1):
                self._delete(backwards=False)  # at its end: joins the next one to it
                return
            if standard == keys.DeleteCompleteLine:
                cursor.movePosition(QTextCursor.MoveOperation.StartOfBlock)
            cursor.movePosition(_DELETIONS[standard], QTextCursor.MoveMode.KeepAnchor)
        start, end = cursor.selectionStart(), cursor.selectionEnd()
        if start < end:
            self._edit_and_place(start, end, "")

    def input_method(self, event: QInputMethodEvent) -> None:
        """Text composed by an input method."""
        if event.commitString():
            self._type(event.commitString())
