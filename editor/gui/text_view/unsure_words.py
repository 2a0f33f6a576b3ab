"""Words the recogniser was unsure of (low ``Token.confidence``), dash-underlined in a colour of
their own, on a toggle kept in settings — apart from the suggestion colours, which are about
punctuation and capitals, not about whether the word was heard right.

A ``QSyntaxHighlighter`` draws the marks: they overlay the text's own formats (the view's
suggestion colours) without changing them, and cost nothing while the toggle is off. It is the
document's one highlighter, put on it through the view's ``HighlighterSlot``
(``text_view/highlighting.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QAction, QColor, QSyntaxHighlighter, QTextBlock, QTextCharFormat

from editor.core.document.transcript import Transcript
from editor.core.settings import Settings
from editor.gui.text_view.highlighting import HighlighterSlot
from editor.gui.text_view.textmap import TextMap


class UnsureHost(Protocol):
    """What the unsure words use of the text view (``QtTranscriptView``)."""

    text_map: TextMap
    highlighting: HighlighterSlot

    @property
    def transcript(self) -> Transcript: ...
    @property
    def rewriting(self) -> bool: ...

UNSURE_COLOUR = "#CC79A7"  # Okabe-Ito reddish purple: none of the confidence bands uses it


class UnsureWordsHighlighter(QSyntaxHighlighter):
    """Underlines, in ``view``'s document, the words whose ASR confidence is below ``threshold``.

    The view's map from tokens to characters is brought up to date just after the text changes;
    a block that changes while the view is still rewriting it is marked on the next turn of the
    event loop instead.
    """

    def __init__(self, view: UnsureHost, threshold: float) -> None:
        super().__init__(None)  # type: ignore[call-overload]  # Qt takes no document; the stubs say one
        self.view = view
        self.threshold = threshold
        self.unsure_format = QTextCharFormat()
        self.unsure_format.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DashUnderline)
        self.unsure_format.setUnderlineColor(QColor(UNSURE_COLOUR))
        self._later: list[QTextBlock] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._catch_up)

    def highlightBlock(self, text: str) -> None:
        view = self.view
        if view.rewriting:  # the view's token map is about to change: after it has
            self._later.append(self.currentBlock())
            self._timer.start()
            return
        doc, tm = view.transcript, view.text_map
        n = min(len(doc), len(tm))
        if not n:
            return
        block = self.currentBlock()
        start, end = block.position(), block.position() + len(text)
        first = tm.piece_at(start) or 0
        for i, at, (sep, surface, _punct) in tm.pieces(first, n):
            if at >= end:
                break
            conf = doc[i].confidence
            if conf is not None and conf < self.threshold:
                word = at + len(sep)
                if word >= start and word + len(surface) <= end:
                    self.setFormat(word - start, len(surface), self.unsure_format)

    def _catch_up(self) -> None:
        blocks, self._later = self._later, []
        seen: set[int] = set()
        for block in blocks:
            if block.isValid() and block.blockNumber() not in seen and self.document() is not None:
                seen.add(block.blockNumber())
                self.rehighlightBlock(block)


class UnsureWords(QObject):
    """The View menu's toggle (``appearance.underline_unsure``) and the highlighter it switches.
    Given what it uses: the settings and how to save them, the view, its parent, the legend's refresh (the
    legend explains the underline while it is shown) and its action from the table of actions."""

    def __init__(self, settings: Settings, view: UnsureHost, action: QAction, *, parent: QObject,
                 save_settings: Callable[[], None], refresh_legend: Callable[[], None]) -> None:
        super().__init__(parent)
        self.settings, self.view, self.action = settings, view, action
        self.save_settings, self.refresh_legend = save_settings, refresh_legend
        self.highlighter = UnsureWordsHighlighter(view, settings.appearance.unsure_below)
        self.apply()

    @property
    def on(self) -> bool:
        return bool(self.settings.appearance.underline_unsure)

    def toggle(self) -> None:
        self.settings.set("appearance.underline_unsure", not self.on)
        self.apply()
        self.save_settings()

    def apply(self) -> None:
        """Follow the settings (after the toggle, or the settings dialog)."""
        self.action.setChecked(self.on)
        self.refresh_legend()
        self.highlighter.threshold = self.settings.appearance.unsure_below
        slot = self.view.highlighting
        if not self.on:
            slot.release(self.highlighter)
        elif slot.holder is not self.highlighter:
            slot.take(self.highlighter)  # attaching marks every block
        else:
            self.highlighter.rehighlight()
