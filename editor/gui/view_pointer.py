"""The view under the mouse and the player: tooltips (a word's suggestions and time), clicks (make a
suggestion current; Ctrl+click plays from a word), the context menu, and the word being played
highlighted and kept in sight."""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor, QMouseEvent, QTextCursor
from PySide6.QtWidgets import QMenu, QToolTip

from editor.core.document import Kind, State, Suggestion
from editor.gui.gutter import format_time
from editor.gui.looks import describe_value, percent
from editor.gui.view_review import EDITING_NOTE, underlined

PLAYED_COLOUR = "#0072B2"


class PointerMixin:
    """Part of ``QtTranscriptView`` (which holds the state these methods use)."""

    # -- hover, clicks, menus ----------------------------------------------------------------------
    def suggestions_at(self, position: int) -> list[Suggestion]:
        index = self.token_at(position)
        if index is None:
            return []
        slot = self.transcript.suggestion_view(self.transcript[index].id)
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
                            f"{percent(p)}{chosen}")
        return "<br>".join(rows)

    def time_html(self, index: int | None) -> str:
        """"Said at 1:23 (1:23.4–1:23.9)" for a word with a time, else ""."""
        if index is None or not 0 <= index < len(self.transcript):
            return ""
        token = self.transcript[index]
        if token.start is None:
            return ""
        span = f"{token.start:.1f}–{token.end:.1f} s" if token.end is not None else f"{token.start:.1f} s"
        cue = ""
        if token.id in self.cue_ids:
            cue = " · starts a segment" if token.id in self.segment_ids else " · starts a subtitle cue"
            shown = self.cue_spans.get(token.id)
            if shown is not None:  # the cue's own time, as the file has it
                cue += f", {format_time(shown[0])}–{format_time(shown[1])} ({shown[0]:.1f}–{shown[1]:.1f} s)"
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
                action = menu.addAction(f"{title}: {describe_value(s.kind, value)}  ({percent(p)})")
                action.triggered.connect(
                    lambda _=False, s=s, v=value: self.decide(s.token_id, s.kind, value=v))
            if s.state != State.REJECTED:
                menu.addAction(f"{title}: reject").triggered.connect(
                    lambda _=False, s=s: self.decide(s.token_id, s.kind, accept=False))
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
        if not 0 <= index < len(self.transcript):
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
        if index is None or not 0 <= index < len(self.transcript):
            self._set_extra("played", [])
            return
        a, _, b = self.token_range(index)
        self._set_extra("played", [underlined(self.document(), a, b, colour or QColor(PLAYED_COLOUR))])

    def _set_extra(self, name: str, selections: list) -> None:
        self._extra[name] = selections
        self.setExtraSelections([x for group in self._extra.values() for x in group])
