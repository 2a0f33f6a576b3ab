"""What a screen reader hears of the transcript: the text as it stands (pending proposals not
applied: what is read is what is exported), a proposal said as a proposal where the review or the
caret meets it ("Proposed comma after “station”, 82 %"; "comma proposed, 82 %"), what a decision
or a command did, and the current sentence as it would be exported. Every spoken text is built
here, so what is said of a suggestion is said the same way everywhere.

Channels. Orca 43 (Debian 12) has no handler for Qt's announcements (``object:announcement``): it
speaks a change of the focused object's accessible description, and the text and caret it reads.
So each thing to be said becomes the Transcript's description, at the end of the event loop's
turn (a decision that leaves one suggestion and lands on the next is said once, never with the
editing help in between), and is announced as well for readers that take announcements (NVDA).
"""

from __future__ import annotations

import bisect
import math
from typing import TYPE_CHECKING, Protocol

import shiboken6
from PySide6.QtCore import SIGNAL, QObject, QPoint, QRect, QTimer, SignalInstance
from PySide6.QtGui import (QAccessible, QAccessibleAnnouncementEvent, QAccessibleInterface,
                           QAccessibleTextInterface, QTextCursor)
from PySide6.QtWidgets import QAccessibleWidget, QApplication, QPlainTextEdit, QWidget

from editor.core.document.text import ends_sentence, join_mark
from editor.core.document.transcript import Kind, State, Suggestion
from editor.core.review.decision_points import capital_follows
from editor.core.review.listening import pause_at
from editor.gui.text_view.looks import MARK_NAMES

if TYPE_CHECKING:
    from editor.core.document.transcript import Transcript
    from editor.core.settings import Settings
    from editor.gui.text_view.textmap import TextMap

#: What the view's description says while no suggestion is under review.
EDITING_SPOKEN = ("Editing. Tab goes to the next suggestion, Shift+Tab to the previous one; Enter, "
                  "Delete and digits edit the text.")
#: As many alternatives as the panel and the tooltip show.
ALTERNATIVES_SAID = 6


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
    “And” after it"; ", pause 0.62 s" where the words have times."""
    change = spoken_change(doc, s)
    joined = ": " if change.startswith(("remove", "no ")) else " "
    said = f"Proposed{joined}{change}, {spoken_percent(s.confidence)}"
    capital = capital_of(doc, s)
    if capital is not None:
        said += f", with the {'capital' if capital.value[:1].isupper() else 'lower case'} “{capital.value}” after it"
    pause = pause_at(doc, s)  # from the word times: how long the speaker stopped there
    return said + (f", pause {pause:.2f} s" if pause is not None else "")


def capital_of(doc: Transcript, s: Suggestion) -> Suggestion | None:
    """The capital that follows ``s`` in its decision point (None: none, or ``s`` is decided)."""
    if s.state != State.PENDING or s.kind != Kind.PUNCT:
        return None
    point = doc.decision_point(s.token_id, s.kind)
    return point.capital if point is not None else None


def spoken_proposal_here(doc: Transcript, s: Suggestion) -> str:
    """What the caret meeting a proposal says, shortest first: "comma proposed, 60 %",
    "capital “Paris” proposed, 99 %", "no mark proposed after “then”, 61 %"."""
    if s.kind == Kind.PUNCT:
        what = f"{mark_name(s.value)} proposed" if s.value else "no mark proposed"
    elif s.kind == Kind.CASE:
        what = f"{'capital' if s.value[:1].isupper() else 'lower case'} “{s.value}” proposed"
    else:
        what = "paragraph break proposed" if s.value else "no paragraph break proposed"
    return f"{what}, {spoken_percent(s.confidence)}"


def spoken_row(doc: Transcript, s: Suggestion, context: str) -> str:
    """A row of the pending list as a reader says it: the change with its word and confidence
    first, then the words around it as they would read ("Proposed capital: “And”, 62 %. …the
    old train station. And the"; the row shows "capital" alone, and a listener could not tell
    which word)."""
    said = spoken_suggestion(doc, s) + "."
    return f"{said} {context}" if context else said


def spoken_alternatives(s: Suggestion) -> str:
    """The alternatives by number, as many as the panel shows: "1: comma, 82 %; 2: no mark, 18 %"."""
    options = []
    for n, (value, p) in enumerate(s.alternatives()[:ALTERNATIVES_SAID], 1):
        if s.kind == Kind.PUNCT:
            what = mark_name(value) if value else "no mark"
        elif s.kind == Kind.BREAK:
            what = "paragraph break" if value else "no break"
        else:
            what = value
        options.append(f"{n}: {what}, {spoken_percent(p)}")
    return "; ".join(options)


def spoken_keys(doc: Transcript, s: Suggestion) -> str:
    """What the keys do, and the alternatives by number: "Enter accepts, Delete rejects; 1: comma,
    82 %; 2: no mark, 18 %"; for a mark and the capital after it, that they go together."""
    if capital_of(doc, s) is not None:
        return ("One decision: Enter accepts both, Delete rejects both, a digit picks the mark and the "
                "next word follows it; " + spoken_alternatives(s))
    return "Enter accepts, Delete rejects; " + spoken_alternatives(s)


def spoken_review(doc: Transcript, s: Suggestion, *, short: bool) -> str:
    """The description of the suggestion under review: the change and its confidence first, then
    (unless ``short``) the keys and the alternatives."""
    said = spoken_suggestion(doc, s) + "."
    return said if short else f"{said} {spoken_keys(doc, s)}"


def spoken_decision(doc: Transcript, decided: Suggestion, accept: bool, proposed: str) -> str:
    """"Accepted comma after “station”." / "Rejected capital: “Paris”." (``proposed``: the value
    that was proposed, said for a rejection)."""
    value = decided.value if accept else proposed
    change = spoken_change(doc, decided, value)
    joined = ": " if change.startswith(("remove", "no ")) else " "
    return f"{'Accepted' if accept else 'Rejected'}{joined}{change}."


def spoken_count(n: int, what: str = "suggestion") -> str:
    """"1 suggestion", "80 suggestions"."""
    return f"{n:,} {what}{'' if n == 1 else 's'}"


#: how a decision said names what it did to the capital after its mark (``Narrator.decided``)
_CAPITAL_TOLD = (", with the capital “", ", with “", ", leaving “")
#: how the status bar's line of a decision names the same (``SuggestionReview.pick``, ``turn_down``)
_NEXT_WORD = ("capitalised ‘", "lowercased ‘", "left ‘", "kept ‘")


def spoken_pending(doc: Transcript) -> str:
    """What is left, counted as the list's rows are: a sentence end and its capital are one."""
    pending = doc.pending_decisions
    return f"{spoken_count(pending)} pending." if pending else "No suggestions pending."


def sentence_as_it_stands(doc: Transcript, index: int, *, proposals: bool = False) -> str:
    """The sentence around token ``index`` as it stands, pending proposals not applied: what an
    export that applies none writes (``editor.core.render``, policy none). ``proposals``: the same
    words with every pending mark and case proposal applied, as Export writes them by default
    (policy all)."""
    if not 0 <= index < len(doc):
        return ""
    start = index
    while start > 0 and not ends_sentence(doc[start - 1].punct) and not doc.is_paragraph_start(start):
        start -= 1
    end = index
    while end < len(doc) - 1 and not ends_sentence(doc[end].punct) and not doc.is_paragraph_start(end + 1):
        end += 1
    # what Export's default applies, by the same rule (a capital waits for the mark before it)
    applied = {s.key: s for s in doc.pending_to_apply(0.0, start=start, end=end + 1)} if proposals else {}
    words = []
    for i in range(start, end + 1):
        token = doc[i]
        case, mark = applied.get((token.id, Kind.CASE)), applied.get((token.id, Kind.PUNCT))
        word = (case.value if case is not None else "") or token.surface or token.word
        words.append(join_mark(word, mark.value if mark is not None else token.punct))
    return " ".join(words)


# -- the text as it stands -------------------------------------------------------------------------
class StandingText:
    """The text of a view as it stands (each word with its own case and mark, pending proposals
    not applied), and the map between its offsets and the shown text's (which shows proposals).
    Built from the view's ``TextMap``: separators are kept as shown, so lines and paragraphs are
    where the reader sees them; only a proposed case or mark differs. While the text map does
    not hold every word (a long text is still being put on screen) it is the shown text."""

    def __init__(self, doc: Transcript, text_map: TextMap, shown: str) -> None:
        self._shown_at: list[int] = []  # where each piece starts in the shown text
        self._at: list[int] = []  # and in this one
        self._heads: list[tuple[int, int]] = []  # (sep + surface shown, sep + surface standing)
        if len(text_map) != len(doc):
            self.text = shown
            return
        parts, at = [], 0
        tokens = doc.tokens
        for i, offset, (sep, surface, _mark) in text_map.pieces():
            token = tokens[i]
            own = token.surface or token.word
            self._shown_at.append(offset)
            self._at.append(at)
            self._heads.append((len(sep) + len(surface), len(sep) + len(own)))
            piece = sep + own + token.punct
            parts.append(piece)
            at += len(piece)
        self.text = "".join(parts)

    def from_shown(self, position: int) -> int:
        """The offset here of position ``position`` of the shown text."""
        if not self._shown_at:
            return min(position, len(self.text))
        k = max(0, bisect.bisect_right(self._shown_at, position) - 1)
        inside = position - self._shown_at[k]
        shown_head, own_head = self._heads[k]
        end = self._at[k + 1] if k + 1 < len(self._at) else len(self.text)
        if inside <= shown_head:
            return min(self._at[k] + min(inside, own_head), end)
        return min(self._at[k] + own_head + (inside - shown_head), end)

    def to_shown(self, offset: int) -> int:
        """The shown text's position of offset ``offset`` here."""
        if not self._at:
            return offset
        k = max(0, bisect.bisect_right(self._at, offset) - 1)
        inside = offset - self._at[k]
        shown_head, own_head = self._heads[k]
        if inside <= own_head:
            return self._shown_at[k] + min(inside, shown_head)
        return self._shown_at[k] + shown_head + (inside - own_head)


class ReadView(Protocol):
    """What ``TranscriptAccessible`` reads of the transcript view."""

    text_map: TextMap

    @property
    def transcript(self) -> Transcript: ...


class TranscriptAccessible(QAccessibleWidget, QAccessibleTextInterface):
    """The transcript view as a screen reader sees it: an editable, multi-line text whose text is
    the transcript as it stands (``StandingText``), whose caret and character positions are
    mapped to the shown text's. Qt's own interface for a QPlainTextEdit gives the shown text,
    which holds every pending proposal as if accepted (a listener heard "…clock sounds scary.
    Well, I had a unique seat." where the export says "…clock sounds scary well I had…").

    Why by hand: Qt offers no way to give a text widget's accessible text other than its
    document; an interface installed by ``QAccessible.installFactory`` is the documented way."""

    def __init__(self, widget: QPlainTextEdit, view: ReadView) -> None:
        QAccessibleWidget.__init__(self, widget, QAccessible.Role.EditableText)
        QAccessibleTextInterface.__init__(self)
        self._edit = widget
        self._view = view
        self._key: tuple[object, ...] | None = None
        self._standing: StandingText | None = None

    # -- the interfaces ---------------------------------------------------------------------------
    def interface_cast(self, t: QAccessible.InterfaceType) -> object:  # type: ignore[override]
        if t == QAccessible.InterfaceType.TextInterface:
            # this object's text-interface part, as Qt's C++ casts it (shiboken keeps one C++
            # object per wrapped base)
            return shiboken6.VoidPtr(shiboken6.getCppPointer(self)[1])
        # (the base gives its pointer as a number: given back as one, Qt reads garbage)
        return shiboken6.VoidPtr(super().interface_cast(t))

    def state(self) -> QAccessible.State:
        state = super().state()
        state.editable = True
        state.multiLine = True
        state.selectableText = True
        return state

    def standing(self) -> StandingText:
        """The text as it stands, built again when the document or the shown text changed."""
        doc = self._view.transcript
        key = (id(doc), doc.revision, self._edit.document().revision(), len(self._view.text_map))
        if self._standing is None or key != self._key:
            self._standing = StandingText(doc, self._view.text_map, self._edit.toPlainText())
            self._key = key
        return self._standing

    def text(self, *args: object) -> str:
        if len(args) == 2:  # QAccessibleTextInterface.text(start, end)
            start, end = int(args[0]), int(args[1])  # type: ignore[call-overload]
            return self.standing().text[start:end]
        kind = args[0]
        if kind == QAccessible.Text.Value:
            return self.standing().text
        return QAccessibleWidget.text(self, kind)  # type: ignore[arg-type]

    def characterCount(self) -> int:
        return len(self.standing().text)

    def cursorPosition(self) -> int:
        return self.standing().from_shown(self._edit.textCursor().position())

    def setCursorPosition(self, position: int) -> None:
        cursor = self._edit.textCursor()
        cursor.setPosition(min(self.standing().to_shown(position), self._edit.document().characterCount() - 1))
        self._edit.setTextCursor(cursor)

    def selectionCount(self) -> int:
        # (Qt's selection(int, int*, int*) is not offered to Python: a selection is read as the caret)
        return 0

    def addSelection(self, start: int, end: int) -> None:
        self.setSelection(0, start, end)

    def removeSelection(self, index: int) -> None:
        cursor = self._edit.textCursor()
        cursor.clearSelection()
        self._edit.setTextCursor(cursor)

    def setSelection(self, index: int, start: int, end: int) -> None:
        standing = self.standing()
        last = self._edit.document().characterCount() - 1
        cursor = self._edit.textCursor()
        cursor.setPosition(min(standing.to_shown(start), last))
        cursor.setPosition(min(standing.to_shown(end), last), QTextCursor.MoveMode.KeepAnchor)
        self._edit.setTextCursor(cursor)

    def characterRect(self, offset: int) -> QRect:
        cursor = QTextCursor(self._edit.document())
        cursor.setPosition(min(self.standing().to_shown(offset), self._edit.document().characterCount() - 1))
        rect = self._edit.cursorRect(cursor)
        width = max(1, self._edit.fontMetrics().averageCharWidth())
        top_left = self._edit.viewport().mapToGlobal(rect.topLeft())
        return QRect(top_left.x(), top_left.y(), width, rect.height())

    def offsetAtPoint(self, point: QPoint) -> int:
        local = self._edit.viewport().mapFromGlobal(point)
        return self.standing().from_shown(self._edit.cursorForPosition(local).position())

    def scrollToSubstring(self, start: int, end: int) -> None:
        cursor = self._edit.textCursor()
        cursor.setPosition(min(self.standing().to_shown(start), self._edit.document().characterCount() - 1))
        self._edit.setTextCursor(cursor)
        self._edit.ensureCursorVisible()


#: The interfaces made for views: Qt's accessibility cache owns each once it has it (and deletes
#: it with its widget), so Python must never let go of one first.
_made: list[TranscriptAccessible] = []
_views: dict[int, ReadView] = {}  # id of a view's widget -> the view, while it lives
_factory_installed = False


def _factory(key: str, obj: QObject) -> QAccessibleInterface | None:
    view = _views.get(id(obj))
    if view is None or not isinstance(obj, QPlainTextEdit):
        return None
    made = TranscriptAccessible(obj, view)
    _made.append(made)
    return made


def read_as_it_stands(widget: QPlainTextEdit, view: ReadView) -> None:
    """Give ``widget`` (the transcript view) a ``TranscriptAccessible``: read as it stands."""
    global _factory_installed
    if not _factory_installed:
        QAccessible.installFactory(_factory)
        _factory_installed = True
    _views[id(widget)] = view
    widget.destroyed.connect(lambda *_: _views.pop(id(widget), None))


def mute_shown_text(widget: QPlainTextEdit) -> None:
    """Stop Qt's text control telling a reader of each change of the shown text: its events carry
    the shown text, proposals and all, and Orca read them out by themselves (when accept-all
    landed: "smoke. Imagine an engine going, clock clock clock clock sounds scary. well I", the
    proposed comma and full stop included). The reader reads the text as it stands
    (``TranscriptAccessible``) where the caret goes. The control connects again whenever the
    text is set whole (``setPlainText``): the view calls this after it."""
    for child in widget.children():
        if child.metaObject().className() == "QPlainTextEditControl":
            # (its only slot on contentsChange is the accessibility one: Qt 6.12's
            # QWidgetTextControlPrivate::_q_contentsChanged)
            QObject.disconnect(widget.document(), SIGNAL("contentsChange(int,int,int)"), child,
                               None)  # type: ignore[call-overload]  # (None: every slot; the stubs lack it)


# -- saying ----------------------------------------------------------------------------------------
def announce(widget: QObject, text: str) -> None:
    """Ask a screen reader to say ``text`` now (politely: after what it is saying)."""
    QAccessible.updateAccessibility(QAccessibleAnnouncementEvent(widget, text))


def describe(widget: QWidget, text: str) -> None:
    """Set ``widget``'s accessible description; Qt tells the reader it changed (DescriptionChanged:
    seen on AT-SPI as object:property-change:accessible-description, which Orca speaks when the
    widget has the focus; tests/gui/window/atspi_check.py)."""
    if widget.accessibleDescription() != text:
        widget.setAccessibleDescription(text)


def say(widget: QWidget, text: str) -> None:
    """Say ``text`` through both channels: ``widget``'s description (Orca 43) and an
    announcement (NVDA and readers that handle them)."""
    describe(widget, text)
    announce(widget, text)


class NarratedView(Protocol):
    """What ``Narrator`` uses of the transcript view."""

    current_changed: SignalInstance
    decided: SignalInstance
    review_mode_changed: SignalInstance
    settings: Settings
    text_map: TextMap

    @property
    def transcript(self) -> Transcript: ...
    @property
    def current(self) -> Suggestion | None: ...
    def token_at(self, position: int) -> int | None: ...
    def textCursor(self) -> QTextCursor: ...


class Narrator:
    """What a screen reader hears of the view: the suggestion under review (its change and
    confidence first), what a decision or a command did, a proposal where the caret meets one,
    and, on demand, the sentence as it stands, the alternatives and the last message again.

    What is to be said in one turn of the event loop is gathered and said once at its end, as
    the view's description (which Orca 43 speaks) and as an announcement (which NVDA speaks)."""

    def __init__(self, view: NarratedView, widget: QPlainTextEdit) -> None:
        self._view = view
        self._widget = widget
        self._notes: list[str] = []  # what happened this turn: decisions, messages
        self._moved = False  # the review moved this turn (a suggestion to say)
        self._caret_proposal: tuple[int, Kind] | None = None  # the proposal the caret last met
        self._capital: tuple[int, Kind] | None = None  # the capital of the point under review
        self._caret_at: int | None = None  # where the caret was moved to this turn
        self.last_said = ""  # what was last said (the key that repeats it)
        self._again = False  # the last repeat was said as "Again: ..."
        self._flush = QTimer(widget)
        self._flush.setSingleShot(True)
        self._flush.setInterval(0)
        self._flush.timeout.connect(self.flush)
        widget.setAccessibleName("Transcript")
        describe(widget, EDITING_SPOKEN)
        read_as_it_stands(widget, view)
        mute_shown_text(widget)
        view.current_changed.connect(self.current_changed)
        view.decided.connect(self.decided)
        view.review_mode_changed.connect(self.review_mode_changed)

    @property
    def short(self) -> bool:
        return self._view.settings.review.short_speech

    def _soon(self) -> None:
        self._flush.start()

    def current_changed(self, s: Suggestion | None) -> None:
        self._moved = True
        self._caret_proposal = s.key if s is not None else None
        if s is not None and s.state == State.PENDING:  # (none, or the one just decided: kept for `decided`)
            capital = capital_of(self._view.transcript, s)
            self._capital = capital.key if capital is not None else None
        self._soon()

    def review_mode_changed(self, reviewing: bool) -> None:
        """Leaving the review (an arrow key, a click, Esc) is said: keys edit the text again."""
        if not reviewing:
            self._moved = True
            self._soon()

    def decided(self, decided: Suggestion, accept: bool, proposed: str) -> None:
        """A decision on one suggestion (Enter, Delete, a digit): said before the next one; on a
        mark and the capital after it, what it did to that capital too."""
        doc = self._view.transcript
        said = spoken_decision(doc, decided, accept, proposed)
        followed = doc.suggestion(*self._capital) if self._capital is not None else None
        if followed is not None and doc.has_token(followed.token_id) and doc.has_token(decided.token_id) \
                and decided.kind == Kind.PUNCT:
            if capital_follows(followed, doc.token(decided.token_id).punct):
                kept = (f"with the capital “{followed.value}”" if followed.value[:1].isupper()
                        else f"with “{followed.value}” in lower case")
            else:
                token = doc.token(followed.token_id)
                kept = f"leaving “{token.surface or token.word}” as it was"
            said = f"{said[:-1]}, {kept}."
        self._capital = None
        self._notes.append(said)
        self._moved = True
        self._soon()

    def note(self, text: str) -> None:
        """A message (what a command did: "Accepted 31 suggestions", "Undid Typing",
        "Exported talk.docx"): said with what is under review, at the end of this turn."""
        text = text.strip()
        # ("Accepted: no mark after …": a decision said with a colon, `spoken_decision`)
        if text.startswith(("Accepted ", "Rejected ")) and any(
                n.startswith(("Accepted", "Rejected")) for n in self._notes):
            # the status bar's line of a decision already said: only what it adds (the capital
            # after it, the same proposed elsewhere)
            text = text.partition("; ")[2]
            if any(told in n for n in self._notes for told in _CAPITAL_TOLD):
                # what it did to the capital after it was said with the decision: "leaving “how”
                # as it was. Left ‘how’ in lower case." said it twice
                text = "; ".join(part for part in text.split("; ") if not part.startswith(_NEXT_WORD))
        if text and not text.startswith("Editing:") and text not in self._notes:
            text = text[:1].upper() + text[1:]
            self._notes.append(text if text.endswith((".", "…", "?", "!")) else f"{text}.")
            self._soon()

    def focused(self) -> None:
        """The text has the focus again (a dialog closed): what waited for it is said now."""
        if self._notes or self._moved:
            self._soon()

    def flush(self) -> None:
        """Say what this turn gathered: the notes, then the suggestion under review (or, on
        leaving the review, the editing help). While another window or control has the focus
        (a dialog about to close) it waits for the text's: Orca speaks a description change
        only of the object with the focus."""
        self._flush.stop()
        caret, self._caret_at = self._caret_at, None
        if caret is not None and not self._notes and not self._moved:
            self._meet(caret)
            return
        window = self._widget.window()
        if not self._widget.hasFocus() and window.isVisible() and window.isActiveWindow() is False \
                and QApplication.activeWindow() is not None:
            return
        doc = self._view.transcript
        notes, self._notes = self._notes, []
        # work under way ("Exporting talk.txt…") is announced, not put in the description: its
        # outcome follows, and a reader that took it late said it after the outcome
        for n in notes:
            if n.endswith("…"):
                announce(self._widget, n)
        notes = [n for n in notes if not n.endswith("…")]
        moved, self._moved = self._moved, False
        s = self._view.current
        if s is not None and s.state != State.PENDING:
            s = None
        if s is not None:
            current = spoken_review(doc, s, short=self.short)
        elif any(n.startswith(("Accepted", "Rejected")) for n in notes):
            # a decision, or an accept-all (from editing too: what is left is said, as the
            # status bar's count shows it)
            current = "" if any("pending" in n for n in notes) else spoken_pending(doc)
        else:
            current = EDITING_SPOKEN
        if not notes and not moved:
            return
        text = " ".join(filter(None, [*notes, current]))
        if text == self._widget.accessibleDescription().rstrip():
            if not notes:
                return  # nothing new (the review came back to where it was)
            text = f"{text} "  # the same words said again: a change is what a reader hears
        if notes or s is not None:
            self.last_said = text.rstrip()
        say(self._widget, text)

    def caret_met(self, position: int) -> None:
        """The caret moved (by the person, outside the review): a proposal at the word it is on
        is said as a proposal ("comma proposed, 60 %"), once, at the end of the turn (when the
        view has brought its text up to date)."""
        self._caret_at = position
        self._soon()

    def _meet(self, position: int) -> None:
        doc = self._view.transcript
        if self._view.current is not None:
            return  # (the review says its own)
        index = self._view.token_at(position)
        if index is None or not 0 <= index < len(doc):
            return
        token = doc[index]
        slot = doc.suggestion_view(token.id)
        pending = [p for p in (slot.get(Kind.CASE), slot.get(Kind.PUNCT), slot.get(Kind.BREAK))
                   if p is not None and p.state == State.PENDING]
        if not pending:
            self._caret_proposal = None
            return
        if pending[0].key == self._caret_proposal:
            return
        self._caret_proposal = pending[0].key
        said = "; ".join(spoken_proposal_here(doc, p) for p in pending)
        describe(self._widget, f"{said}. {EDITING_SPOKEN}")
        announce(self._widget, said)

    # -- on demand --------------------------------------------------------------------------------
    def read_sentence(self) -> str:
        """Say the sentence at the caret as it stands (what "Only what I accepted" exports) and,
        where pending proposals change it, as Export writes it by default (every pending proposal
        applied, as the text shows them). Returns it."""
        doc = self._view.transcript
        index = self._view.token_at(self._view.textCursor().position())
        at = index if index is not None else 0
        sentence = sentence_as_it_stands(doc, at) or "No text."
        text = f"As it stands: {sentence}"
        proposed = sentence_as_it_stands(doc, at, proposals=True)
        if proposed and proposed != sentence:
            text += f" Exported by default, with the proposals: {proposed}"
        self._say_now(text)
        return text

    def read_details(self) -> str:
        """Say the alternatives of the suggestion under review, and the sentence it is in."""
        s = self._view.current
        doc = self._view.transcript
        if s is None or not doc.has_token(s.token_id):
            text = "No suggestion selected: Tab goes to the next one."
        else:
            sentence = sentence_as_it_stands(doc, doc.index_of(s.token_id))
            text = f"{spoken_keys(doc, s)}. In: {sentence}"
        self._say_now(text)
        return text

    def repeat(self) -> str:
        """Say the last message again (the status bar's, or the last decision)."""
        last = self.last_said or "Nothing said yet."
        self._again = not self._again
        text = f"{'Again' if self._again else 'Once more'}: {last}"
        say(self._widget, text)
        return last

    def _say_now(self, text: str) -> None:
        if text == self._widget.accessibleDescription().rstrip():
            text = f"{text} "
        say(self._widget, text)
