"""The view under the mouse and the player: tooltips (a word's suggestions and time), clicks (make a
suggestion current; Ctrl+click plays from a word), the context menu, and the word being played
highlighted and kept in sight."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, overload

from PySide6.QtCore import QPoint, QRect, Qt, SignalInstance
from PySide6.QtGui import QColor, QContextMenuEvent, QHelpEvent, QMouseEvent, QTextCursor, QTextDocument
from PySide6.QtWidgets import QMenu, QScrollBar, QTextEdit, QToolTip, QWidget

from editor.core.review.accept_rules import is_keep
from editor.core.document.transcript import Kind, State, Suggestion
from editor.core.document.records import CHOICE, LEXICON
from editor.gui.text_view.gutter import format_time
from editor.gui.text_view.looks import describe_value, percent
from editor.gui.text_view.review import EDITING_NOTE, NO_SELECTION_NOTE, underlined

if TYPE_CHECKING:
    from editor.core.document.transcript import Transcript
    from editor.gui.text_view.review import Reviewer

PLAYED_COLOUR = "#0072B2"


class PointerHost(Protocol):
    """What ``Pointer`` uses of its view (``QtTranscriptView``)."""

    token_activated: SignalInstance  # Ctrl+click on a word: its index
    message: SignalInstance  # a short note for the status bar
    cue_ids: frozenset[int]
    cue_spans: dict[int, tuple[float, float]]
    segment_ids: frozenset[int]

    @property
    def transcript(self) -> Transcript: ...
    review: Reviewer  # (a click makes a suggestion current; the menu decides)
    def token_at(self, position: int) -> int | None: ...
    def token_range(self, index: int) -> tuple[int, int, int]: ...
    def document(self) -> QTextDocument: ...
    def textCursor(self) -> QTextCursor: ...
    def cursorForPosition(self, pos: QPoint, /) -> QTextCursor: ...
    @overload
    def cursorRect(self) -> QRect: ...
    @overload
    def cursorRect(self, cursor: QTextCursor, /) -> QRect: ...
    def viewport(self) -> QWidget: ...
    def verticalScrollBar(self) -> QScrollBar: ...
    def setExtraSelections(self, selections: Sequence[QTextEdit.ExtraSelection], /) -> None: ...
    def cut(self) -> None: ...
    def copy(self) -> None: ...
    def paste(self) -> None: ...


class Pointer:
    """The mouse and the player over ``QtTranscriptView``: given the view as a ``PointerHost`` (and
    as the widget its menus belong to), it keeps the view's extra selections."""

    def __init__(self, view: PointerHost, widget: QWidget) -> None:
        self._view = view
        self._widget = widget
        self.mouse_down = False  # a button is held down over the text
        self._was_reviewing = False
        self._extra: dict[str, list[QTextEdit.ExtraSelection]] = {"played": [], "current": []}

    # -- hover, clicks, menus ----------------------------------------------------------------------
    def suggestions_at(self, position: int) -> list[Suggestion]:
        index = self._view.token_at(position)
        if index is None:
            return []
        slot = self._view.transcript.suggestion_view(self._view.transcript[index].id)
        return [s for k in (Kind.CASE, Kind.PUNCT) if (s := slot.get(k)) is not None]

    def tooltip_html(self, suggestions: list[Suggestion]) -> str:
        rows = []
        doc = self._view.transcript
        for s in suggestions:
            title = "Capitals" if s.kind == Kind.CASE else "Mark after the word"
            origin = ""
            if s.source == CHOICE:
                keep = doc.has_token(s.token_id) and is_keep(s, doc.token(s.token_id))
                origin = " — from your choice" + (
                    ": keep it as it is" if keep and s.state == State.PENDING else "")
            elif s.source == LEXICON:
                origin = " — from your lexicon"
            rows.append(f"<b>{title}</b> <i>({s.state.value}{origin})</i>")
            for n, (value, p) in enumerate(s.alternatives()[:6], 1):
                chosen = " ◀" if value == s.value else ""
                rows.append(f"&nbsp;{n}. {html.escape(describe_value(s.kind, value))} — "
                            f"{percent(p)}{chosen}")
        return "<br>".join(rows)

    def time_html(self, index: int | None) -> str:
        """"Said at 1:23 (1:23.4–1:23.9)" for a word with a time, else ""."""
        if index is None or not 0 <= index < len(self._view.transcript):
            return ""
        token = self._view.transcript[index]
        if token.start is None:
            return ""
        span = f"{token.start:.1f}–{token.end:.1f} s" if token.end is not None else f"{token.start:.1f} s"
        cue = ""
        if token.id in self._view.cue_ids:
            cue = " · starts a segment" if token.id in self._view.segment_ids else " · starts a subtitle cue"
            shown = self._view.cue_spans.get(token.id)
            if shown is not None:  # the cue's own time, as the file has it
                cue += f", {format_time(shown[0])}–{format_time(shown[1])} ({shown[0]:.1f}–{shown[1]:.1f} s)"
        return f"<i>“{html.escape(token.text)}” at {format_time(token.start)} ({span}){cue}</i>"

    def show_tooltip(self, event: QHelpEvent) -> None:
        """A tooltip over the text: the suggestions and time of the word under the mouse."""
        position = self._view.cursorForPosition(event.pos()).position()
        found = self.suggestions_at(position)
        when = self.time_html(self._view.token_at(position))
        if found or when:
            rows = [x for x in (when, self.tooltip_html(found) if found else "") if x]
            QToolTip.showText(event.globalPos(), "<br>".join(rows), self._view.viewport())
        else:
            QToolTip.hideText()

    def pressed(self) -> None:
        """A mouse button went down (before the view moves the caret)."""
        self.mouse_down = True
        self._was_reviewing = self._view.review.reviewing

    def released(self, event: QMouseEvent) -> None:
        """A mouse button came up (after the view moved the caret)."""
        self._click_review(event)
        if self._was_reviewing and not self._view.review.reviewing:  # the click left review mode
            self._view.message.emit(EDITING_NOTE)
        self._was_reviewing = False

    def _click_review(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton or self._view.textCursor().hasSelection():
            return
        position = self._view.textCursor().position()
        index = self._view.token_at(position)
        if index is None:
            return
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self._view.token_activated.emit(index)
            return
        pending = [s for s in self.suggestions_at(position) if s.state == State.PENDING]
        if pending:
            _, p, _ = self._view.token_range(index)
            on_mark = position >= p and any(s.kind == Kind.PUNCT for s in pending)
            chosen = next((s for s in pending if (s.kind == Kind.PUNCT) == on_mark), pending[0])
            self._view.review.make_current(chosen, select=False)

    def context_menu(self, event: QContextMenuEvent) -> None:
        menu = QMenu(self._widget)
        position = self._view.cursorForPosition(event.pos()).position()
        for s in self.suggestions_at(position):
            title = "Capitals" if s.kind == Kind.CASE else "Mark"
            for value, p in s.alternatives()[:6]:
                action = menu.addAction(f"{title}: {describe_value(s.kind, value)}  ({percent(p)})")
                action.triggered.connect(
                    lambda _=False, s=s, v=value: self._view.review.decide_and_say(s.token_id, s.kind, value=v))
            if s.state != State.REJECTED:
                menu.addAction(f"{title}: reject").triggered.connect(
                    lambda _=False, s=s: self._view.review.decide_and_say(s.token_id, s.kind, accept=False))
            menu.addSeparator()
        menu.addAction("Cut").triggered.connect(self._view.cut)
        menu.addAction("Copy").triggered.connect(self._view.copy)
        menu.addAction("Paste").triggered.connect(self._view.paste)
        menu.exec(event.globalPos())

    def show_alternatives(self) -> None:
        """Pop up the current suggestion's alternatives at the caret (Ctrl+Space)."""
        s = self._view.review.current
        if s is None:
            self._view.message.emit(NO_SELECTION_NOTE)
            return
        rect = self._view.cursorRect()
        QToolTip.showText(self._view.viewport().mapToGlobal(rect.bottomLeft()), self.tooltip_html([s]),
                          self._view.viewport())

    # -- highlighting a word (a player follows along) ------------------------------------------------
    def scroll_to_token(self, index: int, place: float = 1 / 3) -> None:
        """Scroll (without moving the caret) so word ``index`` is on screen, ``place`` of the way
        down. The scroll bar counts lines, and a block not laid out yet counts as one line, so the
        first jump can fall short; each step lays out the blocks on the way, and a few settle it."""
        if not 0 <= index < len(self._view.transcript):
            return
        cursor = QTextCursor(self._view.document())
        cursor.setPosition(self._view.token_range(index)[0])
        viewport = self._view.viewport().rect()
        bar = self._view.verticalScrollBar()
        for _ in range(40):
            rect = self._view.cursorRect(cursor)
            if viewport.top() <= rect.top() and rect.bottom() <= viewport.bottom():
                return
            lines = (rect.top() - int(viewport.height() * place)) // max(1, rect.height())
            before = bar.value()
            bar.setValue(before + lines)
            if bar.value() == before:
                return

    def highlight_token(self, index: int | None, colour: QColor | None = None) -> None:
        """Mark one word (e.g. the word being played) without touching the text or the caret."""
        if index is None or not 0 <= index < len(self._view.transcript):
            self.set_extra("played", [])
            return
        a, _, b = self._view.token_range(index)
        self.set_extra("played", [underlined(self._view.document(), a, b, colour or QColor(PLAYED_COLOUR))])

    def set_extra(self, name: str, selections: list[QTextEdit.ExtraSelection]) -> None:
        self._extra[name] = selections
        self._view.setExtraSelections([x for group in self._extra.values() for x in group])
