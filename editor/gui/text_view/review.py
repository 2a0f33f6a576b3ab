"""Reviewing in the view: the suggestion under review, going to the next one (by position or by
confidence), accepting, rejecting and picking an alternative, and review mode (only in it do Enter,
Delete and 1-9 act on suggestions)."""

from __future__ import annotations

import itertools
import operator
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, overload

from PySide6.QtCore import QRect, SignalInstance
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor, QTextDocument
from PySide6.QtWidgets import QTextEdit, QWidget

from editor.core.document.transcript import Kind, State, Suggestion
from editor.core.review.decision_points import RANK, DecisionPoint
from editor.core.review.repeat_choices import decide, repeat_on, repeat_targets, repeats, withdraw_start_capital
from editor.gui.text_view.looks import CURRENT_COLOUR, band_phrase, describe_value, in_band

if TYPE_CHECKING:
    from editor.core.document.transcript import Transcript
    from editor.core.settings import Settings

#: A choice that repeats on up to this many words is repeated at once; on more (a frequent word
#: of a long transcript: "the" 6,000 times in 100,000 words) a slice at a time (see ``repeater``).
REPEAT_AT_ONCE = 300
_DECISIONS = itertools.count()
_FIRST = operator.itemgetter(0)
_DECISIONS_KEPT = 200  # decisions whose undo brings their suggestion back under review

#: ``repeater(token_id, kind, targets, merge_id, announce)``: repeats a decision on the words at
#: ``targets`` a slice per turn of the event loop (joining the decision's undo step by
#: ``merge_id``), then calls ``announce(how many changed)``. The window gives one.
Repeater = Callable[[int, Kind, list[int], object, Callable[[int], None]], None]

OUT_OF_VIEW_NOTE = ("The suggestion under review was out of view; here it is again: Enter accepts "
                    "it, Delete rejects it")
EDITING_NOTE = "Editing: Enter, Delete and 1–9 edit the text again (Tab goes back to the suggestions)"
#: Review > Accept, Reject or Show alternatives (or their keys) with no suggestion selected.
NO_SELECTION_NOTE = ("No suggestion selected: Tab goes to the next one; move the caret (arrow keys, "
                     "a click) to edit the text")


def underlined(document: QTextDocument, start: int, end: int, colour: QColor, *,
               overline: bool = False) -> QTextEdit.ExtraSelection:
    """Characters ``start:end`` underlined in ``colour`` (and overlined: a frame), drawn over the
    text without changing it: for the view's extra selections."""
    selection = QTextEdit.ExtraSelection()
    cursor = QTextCursor(document)
    cursor.setPosition(start)
    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
    selection.cursor = cursor
    fmt = QTextCharFormat()
    fmt.setFontUnderline(True)
    fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
    fmt.setUnderlineColor(colour)
    fmt.setFontOverline(overline)
    selection.format = fmt
    return selection


def repeated_note(n: int, *, rejected: bool = False) -> str:
    """What the status bar says of a choice repeated on ``n`` other words: proposals there, to
    accept or turn down (a rejection's are proposals to keep the word as it is)."""
    places = f"{n:,} other place{'s' if n != 1 else ''}"
    what = f"proposed keeping it as it is in {places}" if rejected else f"proposed the same in {places}"
    return (f"{what} (pending, from your choice: Review > Accept or Reject all from your choice, "
            "or one by one)")


def decision_note(kind: Kind, value: str, accept: bool, note: str, repeated: int) -> str:
    """The status bar's line after a decision: what was decided, what it did next to it, and
    where it was proposed elsewhere."""
    said = [f"{'Accepted' if accept else 'Rejected'} {describe_value(kind, value)}"]
    if note:
        said.append(note)
    if repeated:
        said.append(repeated_note(repeated, rejected=not accept))
    return "; ".join(said)


class Framer(Protocol):
    """What the reviewer uses of the view's pointer part: the frame drawn round the suggestion
    under review, and whether a click is under way (it leaves review mode quietly)."""

    @property
    def mouse_down(self) -> bool: ...
    def set_extra(self, name: str, selections: list[QTextEdit.ExtraSelection]) -> None: ...


class ReviewHost(Protocol):
    """What ``Reviewer`` uses of its view (``QtTranscriptView``)."""

    settings: Settings
    order: str  # "position" or "confidence": the order Tab goes in
    current_changed: SignalInstance
    point_arrived: SignalInstance
    decided: SignalInstance  # (suggestion, accepted, value proposed): a screen reader says it
    review_mode_changed: SignalInstance
    message: SignalInstance
    moving: bool

    @property
    def pointer(self) -> Framer: ...  # (text_view/pointer.py's Pointer: it keeps the extra selections)
    @property
    def transcript(self) -> Transcript: ...
    def flush(self) -> None: ...
    def token_at(self, position: int) -> int | None: ...
    def token_range(self, index: int) -> tuple[int, int, int]: ...
    def document(self) -> QTextDocument: ...
    def textCursor(self) -> QTextCursor: ...
    def setTextCursor(self, cursor: QTextCursor, /) -> None: ...
    def ensureCursorVisible(self) -> None: ...
    @overload
    def cursorRect(self) -> QRect: ...
    @overload
    def cursorRect(self, cursor: QTextCursor, /) -> QRect: ...
    def viewport(self) -> QWidget: ...


class Reviewer:
    def __init__(self, view: ReviewHost) -> None:
        self._view = view
        self._current: tuple[int, Kind] | None = None
        # Review mode: entered by Tab, Shift+Tab, a click on a suggestion or the list; left when the
        # caret moves away or on Esc. Only in it do Enter, Delete and 1-9 act on suggestions (and
        # with nothing current they do nothing rather than edit), so they never edit by surprise.
        self._reviewing = False
        self._last_rank: tuple[float, int, int] | None = None
        # what review has been to (the keys of every suggestion of each point arrived at), of
        # which document: the status bar counts what is left ("not yet visited")
        self._visited: set[tuple[int, Kind]] = set()
        self._visited_in: weakref.ref[Transcript] | None = None

    """Reviewing in ``QtTranscriptView``: the suggestion under review and review mode; given the
    view as a ``ReviewHost``."""

    repeater: Repeater | None = None
    #: The list of pending suggestions beside the text: ``list_next(key)`` is the suggestion of
    #: the row below that of ``key`` (None: none). When review arrived from the list (a click or
    #: Enter there: ``set_current_from_list``), a decision goes on to it, so the list keeps its
    #: place and a pass down the list skips nothing. The window gives one.
    list_next: Callable[[tuple[int, Kind]], Suggestion | None] | None = None
    _from_list = False
    #: The confidence band ("low", "medium", "high") the suggestion list is filtered to, or None:
    #: Tab, Shift+Tab and Ctrl+Tab then go only to suggestions the list shows (see ``set_band``).
    band: str | None = None

    def set_band(self, band: str | None) -> None:
        """Make Tab, Shift+Tab and Ctrl+Tab go only among the suggestions of ``band`` (None: all),
        as the list beside the text shows them."""
        self.band = band

    def in_band(self, s: Suggestion) -> bool:
        return in_band(s, self.band, self._view.settings)

    def decide(self, token_id: int, kind: Kind | str, *, accept: bool = True, value: str | None = None,
               announce: Callable[[Suggestion, str, int], None] | None = None) -> tuple[Suggestion, str, int]:
        """Accept (as a reviewer picks), choose ``value`` or reject a suggestion, and repeat the
        choice elsewhere when the settings say so (``editor.core.review.repeat_choices.decide``); one undo
        step. Returns the decided suggestion, what happened to the next word and how many others
        changed; when the choice repeats on many words (the ``repeater`` does it a slice at a
        time) that count is -1 and ``announce(decided, note, count)`` follows when it is done
        (else it is called at once)."""
        doc = self._view.transcript
        kind = Kind(kind)
        merge_id = ("decision", id(self), next(_DECISIONS))
        proposed = doc.suggestion(token_id, kind)
        label = ("Reject suggestion" if not accept
                 else "Choose alternative" if value is not None and proposed is not None and value != proposed.value
                 else "Accept suggestion")  # as the core names its step: undo says which
        with doc.history.group(label, merge_id=merge_id):
            decided, note, _n = decide(doc, token_id, kind, accept=accept, value=value, repeat=False)
        self._note_decision(decided.key)
        repeat = self._view.settings.review.repeat_choices and repeats(decided, accept)
        targets = repeat_targets(doc, token_id, kind) if repeat else []
        if len(targets) > REPEAT_AT_ONCE and self.repeater is not None:
            self.repeater(token_id, kind, targets, merge_id,
                          lambda n: announce(decided, note, n) if announce is not None else None)
            return decided, note, -1
        repeated = repeat_on(doc, token_id, kind, targets, merge_id=merge_id) if targets else 0
        if announce is not None:
            announce(decided, note, repeated)
        return decided, note, repeated

    def decide_and_say(self, token_id: int, kind: Kind | str, *, accept: bool = True,
                       value: str | None = None) -> tuple[Suggestion, str, int]:
        """``decide``, and say in the status bar what it did, next to it and elsewhere (a menu's
        decision, as the keys' are: a choice never repeats unseen)."""
        kind = Kind(kind)
        proposed = self._view.transcript.suggestion(token_id, kind)

        def announce(decided: Suggestion, note: str, repeated: int) -> None:
            shown = decided.value if accept or proposed is None else proposed.value
            self._view.message.emit(decision_note(kind, shown, accept, note, repeated))
        return self.decide(token_id, kind, accept=accept, value=value, announce=announce)

    #: the history step each recent decision made -> the suggestion it decided (see ``review_again``)
    #: (weakly: a step the history lets go of, or a replaced document's, is not kept alive here)
    _decided_in: weakref.WeakKeyDictionary[object, tuple[int, Kind]] | None = None

    def _note_decision(self, key: tuple[int, Kind]) -> None:
        step = self._view.transcript.history.checkpoint()[0]
        if step is None:
            return
        steps = self._decided_in
        if steps is None:
            steps = self._decided_in = weakref.WeakKeyDictionary()
        steps[step] = key
        while len(steps) > _DECISIONS_KEPT:  # the oldest go: an undo rarely reaches back so far
            del steps[next(iter(steps))]

    def review_again(self, step: object) -> bool:
        """``step`` (a history step) was just undone: when it was a decision, the suggestion it
        decided is under review again (not the next one, which the decision had moved on to), so
        a key pressed to decide again acts on it. Whether it is."""
        key = self._decided_in.pop(step, None) if self._decided_in and step is not None else None
        s = self._view.transcript.suggestion(*key) if key is not None else None
        if s is None or s.state != State.PENDING:
            return False
        self.set_current(s)
        return True

    def repeat_typed(self, choices: list[tuple[int, Kind]], merge_id: object | None) -> None:
        """Repeat the case and mark choices typed (``editor.core.review.repeat_choices.typed_to_repeat``)
        elsewhere, as a decision is: a choice on a frequent word (the ``repeater`` does it a
        slice at a time) joins the typing's undo step (``merge_id``; without one, at once)
        over the next turns of the event loop. Says how many were proposed."""
        doc = self._view.transcript
        repeated, many = 0, []
        for token_id, kind in choices:
            if kind == Kind.PUNCT and withdraw_start_capital(doc, token_id):
                # a capital typed before its mark was the place's, no choice of the word's
                after = doc[doc.index_of(token_id) + 1]
                self._view.message.emit(f"‘{after.surface}’ now starts a sentence: its capital is "
                                        "no longer proposed elsewhere")
            targets = repeat_targets(doc, token_id, kind)
            if len(targets) > REPEAT_AT_ONCE and self.repeater is not None and merge_id is not None:
                many.append((token_id, kind, targets))
            elif targets:
                repeated += repeat_on(doc, token_id, kind, targets)

        def announce(n: int) -> None:
            if n:
                self._view.message.emit(f"What you typed: {repeated_note(n)}")

        if not many:
            announce(repeated)
        repeater = self.repeater
        for token_id, kind, targets in many:
            assert repeater is not None
            repeater(token_id, kind, targets, merge_id, lambda n: announce(repeated + n))

    def current_in_view(self) -> bool:
        """Whether the suggestion under review is on screen (the caret is at it): a key acts on
        it only then, not after the text was scrolled away from it."""
        return self._view.viewport().rect().intersects(self._view.cursorRect(self._view.textCursor()))

    @property
    def current(self) -> Suggestion | None:
        if self._current is None:
            return None
        token_id, kind = self._current
        return self._view.transcript.suggestion(token_id, kind)

    def set_current(self, suggestion: Suggestion | None) -> None:
        """Make ``suggestion`` the one under review: select it and scroll to it."""
        self.make_current(suggestion)

    @property
    def current_key(self) -> tuple[int, Kind] | None:
        """(token id, kind) of the suggestion under review."""
        return self._current

    @property
    def reviewing(self) -> bool:
        """Whether Enter, Delete and 1-9 act on suggestions (else they edit the text)."""
        return self._reviewing

    def _enter_review(self) -> None:
        if not self._reviewing:
            self._reviewing = True
            self._view.review_mode_changed.emit(True)

    def leave_review(self, announce: bool = True) -> None:
        """Back to editing: Enter, Delete and the digits edit the text again."""
        if self._current is not None:
            self.make_current(None, select=False)
        if self._reviewing:
            self._reviewing = False
            self._view.review_mode_changed.emit(False)
            if announce:
                self._view.message.emit(EDITING_NOTE)

    def make_current(self, s: Suggestion | None, *, select: bool = True) -> None:
        """Make ``s`` (the decision point it is part of: a capital that follows a mark makes the
        mark's point current) the one under review, and say it arrived there: ``point_arrived``
        (the one place review arrives at a point: Tab, Shift+Tab, Ctrl+Tab, Enter moving on, a
        click in the list or the text, an undo)."""
        self._from_list = False
        point = None
        if s is not None and s.state == State.PENDING:
            point = self._view.transcript.decision_point(s.token_id, s.kind)
            if point is not None:
                s = point.lead
        self._current = None if s is None else s.key
        if s is not None:
            self._enter_review()
        if s is not None and self._view.transcript.has_token(s.token_id):
            index = self._view.transcript.index_of(s.token_id)
            self._last_rank = (s.confidence, index, RANK[s.kind])
            if select:
                a, p, b = self._view.token_range(index)
                lo, hi = (a, p) if s.kind != Kind.PUNCT else (p, b) if b > p else (a, p)
                self._view.moving = True
                try:
                    cursor = self._view.textCursor()
                    cursor.setPosition(hi)
                    cursor.setPosition(lo, QTextCursor.MoveMode.KeepAnchor)
                    self._view.setTextCursor(cursor)
                    self._view.ensureCursorVisible()
                finally:
                    self._view.moving = False
        self._mark_current()
        if point is not None:
            self._visit(point)
        self._view.current_changed.emit(s)
        if point is not None:
            self._view.point_arrived.emit(point)

    def set_current_from_list(self, s: Suggestion) -> None:
        """Make ``s`` current as a click in the list does: a decision then goes on down the list
        (``list_next``), not to the next suggestion in the text, whose row may be anywhere."""
        self.make_current(s)
        self._from_list = self._current is not None

    @property
    def current_point(self) -> DecisionPoint | None:
        """The decision point under review: the current suggestion and the capital that follows
        it when there is one (None when nothing pending is current)."""
        if self._current is None:
            return None
        return self._view.transcript.decision_point(*self._current)

    def _visited_keys(self) -> set[tuple[int, Kind]]:
        doc = self._view.transcript
        if self._visited_in is None or self._visited_in() is not doc:
            self._visited = set()
            self._visited_in = weakref.ref(doc)
        return self._visited

    def _visit(self, point: DecisionPoint) -> None:
        self._visited_keys().update(point.keys)

    def not_visited(self) -> int:
        """How many pending decisions review has not been to yet (by any of the ways it
        arrives at one): what is left of a pass that never skips. A decision is counted by its
        lead (a capital that follows a mark is the mark's)."""
        doc = self._view.transcript
        seen = sum(1 for key in self._visited_keys() if (s := doc.suggestion(*key)) is not None
                   and s.state == State.PENDING and not doc.follows_mark(s))
        return max(0, doc.pending_decisions - seen)

    def _mark_current(self) -> None:
        """Frame the suggestion under review (also when a click made it current without selecting
        it), so what Enter and Delete will act on is always in sight. A mark's frame takes in its
        word too: round a comma or a full stop alone it was a tiny square, hard to find."""
        s = self.current
        point = self.current_point
        parts = point.suggestions if point is not None else (s,) if s is not None else ()
        selections = []
        for part in parts:  # a sentence end and the capital after it: both framed, one decision
            if not self._view.transcript.has_token(part.token_id):
                continue
            a, p, b = self._view.token_range(self._view.transcript.index_of(part.token_id))
            lo, hi = (a, p) if part.kind != Kind.PUNCT else (a, b) if b > p else (a, p)
            selections.append(underlined(self._view.document(), lo, hi, QColor(CURRENT_COLOUR), overline=True))
        self._view.pointer.set_extra("current", selections)

    def caret_moved(self) -> None:
        """The caret moved (not by the view itself): review mode ends."""
        if self._current is not None or self._reviewing:
            self.leave_review(announce=not self._view.pointer.mouse_down)

    def next_suggestion(self, reverse: bool = False, *, quiet: bool = False) -> Suggestion | None:
        """Go to the next (or previous) pending suggestion in the review order; wraps around.
        Says when there is none, unless ``quiet`` (the caller says it)."""
        self._view.flush()
        found = self._next_by_confidence(reverse) if self._view.order == "confidence" \
            else self._next_by_position(reverse)
        if found is None and not quiet:
            self._view.message.emit(self._none_note())
        self.make_current(found)
        return found

    def _none_note(self) -> str:
        """Why Tab found nothing: none pending, or none in the band the list is filtered to."""
        pending = self._view.transcript.pending_decisions
        if self.band is None or not pending:
            return "No pending suggestions"
        return (f"No pending {band_phrase(self.band)}: Tab goes only to those the list "
                f"shows; {pending:,} other{'s' if pending != 1 else ''} pending (choose “All "
                f"pending” above the list)")

    def _next_by_position(self, reverse: bool) -> Suggestion | None:
        """The next decision point in reading order (a break before a word, the word's case, the
        mark after it: ``editor.core.review.decision_points``), from the one under review (also
        when it was just decided) or from the caret; wraps around. Never past a point: Enter on
        a paragraph break goes on to the same word's capital and mark."""
        doc = self._view.transcript
        cur = self._current
        after: tuple[int, int]
        if cur is not None and doc.has_token(cur[0]):
            after = (doc.index_of(cur[0]), RANK[cur[1]])
        else:
            caret = self._view.token_at(self._view.textCursor().selectionStart())
            caret = 0 if caret is None else caret
            after = (caret - 1, len(RANK)) if not reverse else (caret + 1, -1)
        wanted = (lambda p: self.in_band(p.lead)) if self.band is not None else None
        found = doc.next_decision_point(after, reverse=reverse, wanted=wanted)
        if found is None:  # wrap around
            found = doc.next_decision_point(None, reverse=reverse, wanted=wanted)
        return found.lead if found is not None else None

    def _next_by_confidence(self, reverse: bool) -> Suggestion | None:
        """The decision point ranked just after (before) the current one by (confidence,
        position): one pass over the suggestions, no sort, so Tab stays quick on long documents.
        A capital decided with the mark before it has no rank of its own: only those ranked
        first are asked whether they are one, not every capital of the text."""
        doc = self._view.transcript
        position = {t.id: i for i, t in enumerate(doc.tokens)}
        ranked = [((s.probs[s.value], position[s.token_id], RANK[s.kind]), s)
                  for s in doc.iter_suggestions(state=State.PENDING) if self.in_band(s)]
        last = self._last_rank if self._current is not None else None
        pick = max if reverse else min  # (ranks are unique: position and kind are in them)
        for candidates in ([r for r in ranked if last is None or (r[0] < last if reverse else r[0] > last)],
                           ranked):  # then wrapping around
            for _ in range(3):  # the best is rarely a capital that follows its mark
                if not candidates:
                    break
                best = pick(candidates, key=_FIRST)
                if not (best[1].kind == Kind.CASE and doc.follows_mark(best[1])):
                    return best[1]
                candidates = [r for r in candidates if r is not best]
            else:  # many such capitals ranked first (less sure than their marks): in rank order
                ordered = sorted(candidates, key=_FIRST, reverse=reverse)
                found = next((r[1] for r in ordered
                              if not (r[1].kind == Kind.CASE and doc.follows_mark(r[1]))), None)
                if found is not None:
                    return found
        return None

    def lowest_confidence(self) -> Suggestion | None:
        self._current = None
        found = self._next_by_confidence(reverse=False)
        if found is None:
            self._view.message.emit(self._none_note())
        self.make_current(found)
        return found

    def accept_current(self, value: str | None = None) -> Suggestion | None:
        return self._decide_current(True, value)

    def reject_current(self) -> Suggestion | None:
        return self._decide_current(False)

    def _decide_current(self, accept: bool, value: str | None = None) -> Suggestion | None:
        """Enter (or a digit) or Delete on the suggestion under review, then on to the next one;
        the status bar says what the decision did beside it and elsewhere, also when no
        suggestion is left (that is said after it, not in its place)."""
        s = self.current
        if s is None:
            self._view.message.emit(NO_SELECTION_NOTE)  # (from the Review menu: the keys say it first)
            return None
        held: list[str] = []  # what the decision says, until review has moved on
        moved_on = False

        def announce(decided: Suggestion, note: str, repeated: int) -> None:
            if not (note or repeated):
                return
            said = decision_note(s.kind, decided.value if accept else s.value, accept, note, repeated)
            if moved_on:  # a choice repeated a slice at a time: said when it is done
                self._view.message.emit(said)
            else:
                held.append(said)

        from_list = self._from_list and self.list_next is not None
        decided, _note, _repeated = self.decide(s.token_id, s.kind, accept=accept, value=value,
                                                announce=announce)
        self._view.flush()
        self._view.decided.emit(decided, accept, s.value)
        self._last_rank = self._rank(decided)
        self._current = decided.key
        below = self.list_next(decided.key) if from_list and self.list_next is not None else None
        if below is not None:  # on down the list, where the person works
            self.set_current_from_list(below)
            found: Suggestion | None = below
        else:
            found = self.next_suggestion(quiet=bool(held))
        moved_on = True
        if held:
            self._view.message.emit(held[0] if found is not None else f"{held[0]} — {self._none_note()}")
        return decided

    def choose_alternative(self, number: int) -> Suggestion | None:
        """Accept alternative ``number`` (1 = the most likely) of the current suggestion."""
        s = self.current
        if s is None:
            return None
        alternatives = s.alternatives()
        if not 1 <= number <= len(alternatives):
            self._view.message.emit(f"There are only {len(alternatives)} alternatives")
            return None
        return self.accept_current(alternatives[number - 1][0])

    def _rank(self, s: Suggestion) -> tuple[float, int, int]:
        index = self._view.transcript.index_of(s.token_id) if self._view.transcript.has_token(s.token_id) else 0
        return (s.confidence, index, RANK[s.kind])
