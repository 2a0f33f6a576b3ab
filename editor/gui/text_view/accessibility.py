"""What a screen reader hears of the review: the suggestion under review said in words with its
confidence ("Proposed comma after “station”, 82 %"), in the transcript view's accessible
description and as an announcement when the review moves; what a decision did, said before the
next suggestion. Qt's own accessibility gives the view's text and caret (QPlainTextEdit)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, SignalInstance
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent
from PySide6.QtWidgets import QWidget

from editor.core.document.transcript import Kind, State, Suggestion
from editor.core.review.decision_points import capital_follows
from editor.gui.text_view.looks import MARK_NAMES

if TYPE_CHECKING:
    from editor.core.document.transcript import Transcript

#: What the view's description says while no suggestion is under review.
EDITING_SPOKEN = ("Editing. Tab goes to the next suggestion, Shift+Tab to the previous one; Enter, "
                  "Delete and digits edit the text.")


def spoken_percent(p: float) -> str:
    """"82 %": whole percent rounded down, as the window shows it (``looks.percent``)."""
    return f"{math.floor(p * 100 + 1e-9):.0f} %"


def mark_name(mark: str) -> str:
    """"comma", "full stop"; a mark without a name is read as itself."""
    return MARK_NAMES.get(mark, f"mark {mark}")


def spoken_change(doc: Transcript, s: Suggestion, value: str | None = None) -> str:
    """The change ``s`` proposes (or its alternative ``value``), as a sentence reads it: "comma
    after “station”", "capital: “Paris”", "remove the full stop after “then”"."""
    value = s.value if value is None else value
    if not doc.has_token(s.token_id):
        return "a word no longer in the text"
    token = doc[doc.index_of(s.token_id)]
    word = token.surface or token.word
    if s.kind == Kind.BREAK:
        return f"paragraph break before “{word}”" if value else f"no paragraph break before “{word}”"
    if s.kind == Kind.CASE:
        return f"{'capital' if value[:1].isupper() else 'lower case'}: “{value}”"
    if not value:
        return f"remove the {mark_name(token.punct)} after “{word}”" if token.punct else f"no mark after “{word}”"
    if token.punct and token.punct != value:
        return f"{mark_name(value)} instead of the {mark_name(token.punct)} after “{word}”"
    return f"{mark_name(value)} after “{word}”"


def spoken_suggestion(doc: Transcript, s: Suggestion) -> str:
    """"Proposed comma after “station”, 82 %" ("Proposed: remove the…" for a removal); a mark and
    the capital after it, one decision: "Proposed full stop after “maria”, 55 %, with the capital
    “And” after it"."""
    change = spoken_change(doc, s)
    joined = ": " if change.startswith(("remove", "no ")) else " "
    said = f"Proposed{joined}{change}, {spoken_percent(s.confidence)}"
    capital = _capital_of(doc, s)
    if capital is not None:
        said += f", with the {'capital' if capital.value[:1].isupper() else 'lower case'} “{capital.value}” after it"
    return said


def _capital_of(doc: Transcript, s: Suggestion) -> Suggestion | None:
    """The capital that follows ``s`` in its decision point (None: none, or ``s`` is decided)."""
    if s.state != State.PENDING or s.kind != Kind.PUNCT:
        return None
    point = doc.decision_point(s.token_id, s.kind)
    return point.capital if point is not None else None


def spoken_keys(doc: Transcript, s: Suggestion) -> str:
    """What the keys do, and the alternatives by number: "Enter accepts, Delete rejects; 1: comma,
    82 %; 2: no mark, 18 %"."""
    options = []
    for n, (value, p) in enumerate(s.alternatives()[:9], 1):
        if s.kind == Kind.PUNCT:
            what = mark_name(value) if value else "no mark"
        elif s.kind == Kind.BREAK:
            what = "paragraph break" if value else "no break"
        else:
            what = value
        options.append(f"{n}: {what}, {spoken_percent(p)}")
    if _capital_of(doc, s) is not None:
        return ("One decision: Enter accepts both, Delete rejects both, a digit picks the mark and the "
                "next word follows it; " + "; ".join(options))
    return "Enter accepts, Delete rejects; " + "; ".join(options)


def announce(widget: QObject, text: str) -> None:
    """Ask a screen reader to say ``text`` now (politely: after what it is saying)."""
    QAccessible.updateAccessibility(QAccessibleAnnouncementEvent(widget, text))


def describe(widget: QWidget, text: str) -> None:
    """Set ``widget``'s accessible description; Qt tells the reader it changed (DescriptionChanged:
    seen on AT-SPI as object:property-change:accessible-description, tests/gui/atspi_check.py)."""
    if widget.accessibleDescription() != text:
        widget.setAccessibleDescription(text)


class NarratedView(Protocol):
    """What ``Narrator`` uses of the transcript view."""

    current_changed: SignalInstance

    @property
    def transcript(self) -> Transcript: ...
    def setAccessibleName(self, name: str, /) -> None: ...


class Narrator:
    """Keeps the view's accessible description on the suggestion under review and announces each
    move of the review, with what the last decision did ("Accepted comma after “station”.")."""

    def __init__(self, view: NarratedView, widget: QWidget) -> None:
        self._view = view
        self._widget = widget
        self._last: tuple[int, Kind] | None = None  # the suggestion last said
        self._last_capital: tuple[int, Kind] | None = None  # the capital of its decision point
        widget.setAccessibleName("Transcript")
        describe(widget, EDITING_SPOKEN)
        view.current_changed.connect(self.current_changed)

    def current_changed(self, s: Suggestion | None) -> None:
        doc = self._view.transcript
        said = []
        last, self._last = self._last, (s.key if s is not None else None)
        last_capital = self._last_capital
        settling = 0  # the capital of the point just decided, still pending: it goes in this step
        capital = _capital_of(doc, s) if s is not None else None
        self._last_capital = capital.key if capital is not None else None
        if last is not None and (s is None or s.key != last):
            decided = doc.suggestion(*last)
            if decided is not None and decided.state != State.PENDING:
                verb = "Accepted" if decided.state == State.ACCEPTED else "Rejected"
                value = decided.value if decided.state == State.ACCEPTED else None
                followed = doc.suggestion(*last_capital) if last_capital is not None else None
                if followed is not None and doc.has_token(followed.token_id) and doc.has_token(decided.token_id):
                    # the capital follows the mark that stands (said as the decision is made:
                    # the document may not have settled it yet)
                    mark = doc.token(decided.token_id).punct
                    if capital_follows(followed, mark):
                        kept = (f"with the capital “{followed.value}”" if followed.value[:1].isupper()
                                else f"with “{followed.value}” in lower case")
                    else:
                        token = doc.token(followed.token_id)
                        kept = f"leaving “{token.surface or token.word}” as it was"
                    said.append(f"{verb} {spoken_change(doc, decided, value)}, {kept}.")
                    settling = 1 if followed.state == State.PENDING else 0
                else:
                    said.append(f"{verb} {spoken_change(doc, decided, value)}.")
        if s is None:
            describe(self._widget, EDITING_SPOKEN)
            if said:
                pending = doc.pending_count - settling
                said.append(f"{pending:,} suggestion{'s' if pending != 1 else ''} pending." if pending
                            else "No suggestions pending.")
        else:
            spoken = spoken_suggestion(doc, s)
            describe(self._widget, f"{spoken}. {spoken_keys(doc, s)}")
            said.append(spoken)
        if said and (s is None or s.key != last or len(said) > 1):
            announce(self._widget, " ".join(said))
