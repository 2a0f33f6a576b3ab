"""Reviewing suggestions on a transcript: accept, reject, pick, accept or reject them all.

``Transcript`` takes these operations from ``SuggestionReview``; the rules they follow (which
capital waits for which end mark, what a picked mark does to the next word) are in
``editor.core.review.accept_rules``. Each operation is one undo step of the document's history."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import TYPE_CHECKING

from editor.core.review import accept_rules
from editor.core.review.decision_points import capital_follows
from editor.core.document.records import Kind, State, Suggestion, Token, evolve, with_value
from editor.core.document.text import ends_sentence, split_opening

if TYPE_CHECKING:
    from editor.core.document.history import History
    from editor.core.review.decision_points import DecisionPoint

#: changes to suggestions, by (token id, kind): the new suggestion, or None to remove it
SuggestionChanges = list[tuple[tuple[int, Kind], "Suggestion | None"]]


class SuggestionReview:
    """The review operations of ``editor.core.document.transcript.Transcript`` (a mixin of it only)."""

    if TYPE_CHECKING:  # what these operations use of the Transcript they are part of
        def __getitem__(self, index: int) -> Token: ...
        def __len__(self) -> int: ...
        history: History

        def index_of(self, token_id: int) -> int: ...
        def decision_point(self, token_id: int, kind: Kind | str) -> DecisionPoint | None: ...
        def suggestion(self, token_id: int, kind: Kind | str) -> Suggestion | None: ...
        def pending_to_apply(self, min_confidence: float = 0.0, *, kind: Kind | str | None = None,
                             start: int = 0, end: int | None = None) -> list[Suggestion]: ...
        def pending(self, *, kind: Kind | str | None = None,
                    order: str = "position") -> list[Suggestion]: ...
        def edit_token(self, index: int, *, surface: str | None = None,
                       punct: str | None = None) -> None: ...
        def push_tokens(self, updates: list[tuple[int, Token]], text: str) -> None: ...
        def push_paragraphs(self, starts: dict[int, bool], text: str) -> None: ...
        def value_of(self, index: int, kind: Kind | str) -> str: ...
        def push_changes(self, changes: SuggestionChanges, text: str, *,
                         merge_id: object | None = None) -> int: ...
        def push_suggestions(self, changes: SuggestionChanges, text: str, *,
                             merge_id: object | None = None) -> None: ...

    def accept(self, token_id: int, kind: Kind | str, value: str | None = None) -> Suggestion:
        """Accept a suggestion, or choose the alternative ``value`` instead; one undo step."""
        s = self._require(token_id, kind)
        value = s.value if value is None else value
        index = self.index_of(token_id)
        token = self[index]
        original = s.original if s.state == State.ACCEPTED else self.value_of(index, s.kind)
        accepted = dataclasses.replace(s, value=value, state=State.ACCEPTED, original=original)
        with self.history.group("Accept suggestion" if value == s.value else "Choose alternative"):
            if s.kind == Kind.BREAK:
                self.push_paragraphs({token_id: bool(value)}, "")
            else:
                self.push_tokens([(index, with_value(token, s.kind, value))], "")
            self.push_suggestions([(s.key, accepted)], "")
        return accepted

    def reject(self, token_id: int, kind: Kind | str) -> Suggestion:
        """Reject a suggestion; an accepted one gives the token its earlier value back."""
        s = self._require(token_id, kind)
        rejected = evolve(s, state=State.REJECTED)
        with self.history.group("Reject suggestion"):
            if s.state == State.ACCEPTED and s.original is not None:
                index = self.index_of(token_id)
                if s.kind == Kind.BREAK:
                    self.push_paragraphs({token_id: bool(s.original)}, "")
                else:
                    self.push_tokens([(index, with_value(self[index], s.kind, s.original))], "")
            self.push_suggestions([(s.key, rejected)], "")
        return rejected

    def pick(self, token_id: int, kind: Kind | str, value: str | None = None) -> tuple[Suggestion, str]:
        """Accept as a reviewer picks (Enter, a digit, a click): like ``accept``, and a mark picked
        after a word also settles the capital of the word after it, in the same undo step. Where
        the mark and a pending capital after it are one decision point
        (``editor.core.review.decision_points``) the capital follows the mark picked: accepted
        after a sentence end, turned down after a comma or none. Otherwise an end
        mark (``.``, ``?``, ``!``) capitalises that word: its capital suggestion is accepted, or the
        word is capitalised by hand when there is none ("Later. we" never stands). Any other mark
        (or none) takes back a capital that hangs on a sentence start: a pending or accepted capital
        suggestion whose lowercase form is not unlikely (names and "I" keep theirs); a capital
        proposal after it stays pending, the person's to decide. A capital picked where only a
        pending proposal ends the sentence before it settles that mark too
        (``accept_rules.capital_settles_mark``). Returns the accepted suggestion and what happened
        to the word next to it ("" if nothing), e.g. "capitalised 'We'"."""
        kind = Kind(kind)
        note = ""
        point = self.decision_point(token_id, kind) if kind == Kind.PUNCT else None
        with self.history.group("Accept suggestion"):
            accepted = self.accept(token_id, kind, value)
            index = self.index_of(token_id)
            if point is not None and point.capital is not None and point.lead.key == accepted.key:
                note = self._follow_mark(point.capital, self[index].punct)
            elif kind == Kind.PUNCT and index + 1 < len(self):
                note = self._settle_next_case(index + 1, any(ch in ".?!" for ch in accepted.value))
            elif kind == Kind.CASE and index > 0:
                before = self[index - 1]
                mark = self.suggestion(before.id, Kind.PUNCT)
                if mark is not None and accept_rules.capital_settles_mark(accepted, mark, before.punct):
                    self.accept(before.id, Kind.PUNCT)
                    note = f"accepted the ‘{mark.value}’ before it too: the capital comes with that sentence end"
        return accepted, note

    def turn_down(self, token_id: int, kind: Kind | str) -> tuple[Suggestion, str]:
        """Reject as a reviewer does (Delete, "reject" in a menu): like ``reject``, and a sentence
        end turned down takes back a capital of the next word that hangs on it, accepted or
        proposed, in the same undo step, as picking another mark does ("Maria And today" never
        stands); where the mark and a pending capital after it are one decision point, the capital
        is turned down with it (it follows the mark left standing). A pending proposal from the
        person's choice that stood in for one of Stet's gives
        that one back, pending (``accept_rules.turned_down``). Returns the rejected suggestion
        (as turned down) and what happened ("" if nothing), e.g. "lowercased 'And'"."""
        kind = Kind(kind)
        note = ""
        point = self.decision_point(token_id, kind) if kind == Kind.PUNCT else None
        with self.history.group("Reject suggestion"):
            s = self._require(token_id, kind)
            left = accept_rules.turned_down(s)
            if left.state == State.PENDING:  # a choice that does not hold here: Stet's own is back
                self.push_suggestions([(s.key, left)], "")
                rejected = evolve(s, state=State.REJECTED)
                note = f"Stet's own proposal here is back: {f'‘{left.value}’' if left.value else 'no mark'}"
            else:
                rejected = self.reject(token_id, kind)
            index = self.index_of(token_id)
            if point is not None and point.capital is not None:
                note = "; ".join(x for x in (note, self._follow_mark(point.capital, self[index].punct)) if x)
            elif (kind == Kind.PUNCT and index + 1 < len(self) and ends_sentence(rejected.value)
                    and not ends_sentence(self[index].punct)):
                note = "; ".join(x for x in (note, self._settle_next_case(index + 1, False)) if x)
        return rejected, note

    def _follow_mark(self, capital: Suggestion, mark: str) -> str:
        """The capital of a decision point follows the mark that now stands before it
        (``decision_points.capital_follows``): accepted where it fits, turned down where not, in
        the decision's undo step. Says what happened to the word."""
        if capital_follows(capital, mark):
            self.accept(capital.token_id, Kind.CASE)
            return f"capitalised ‘{capital.value}’" if split_opening(capital.value)[1][:1].isupper() \
                else f"lowercased ‘{capital.value}’"
        now = self.value_of(self.index_of(capital.token_id), Kind.CASE)
        left = accept_rules.turned_down(capital)
        self.push_suggestions([(capital.key, left)], "")
        if left.state == State.PENDING:
            return f"the capital ‘{left.value}’ after it is back to decide"
        return f"left ‘{now}’ in lower case" if split_opening(now)[1][:1].islower() else f"kept ‘{now}’ capitalised"

    def _settle_next_case(self, index: int, sentence_end: bool) -> str:
        token = self[index]
        step = accept_rules.next_case_step(token, self.suggestion(token.id, Kind.CASE), sentence_end)
        if step.action == "reject":
            self.reject(token.id, Kind.CASE)
        elif step.action == "accept":
            self.accept(token.id, Kind.CASE)
        elif step.action == "edit":
            self.edit_token(index, surface=step.surface)
        return step.note

    POSITION_FREE_CAPITAL = accept_rules.POSITION_FREE_CAPITAL  # see there

    def accept_all(self, min_confidence: float = 0.0, *, kind: Kind | str | None = None) -> int:
        """Accept every pending suggestion with confidence >= ``min_confidence`` (as
        ``pending_to_apply`` chooses them); one undo step."""
        chosen = self.pending_to_apply(min_confidence, kind=kind)
        return self.accept_suggestions(chosen, text=f"Accept all ≥ {min_confidence:.0%}")

    def accept_suggestions(self, chosen: Iterable[Suggestion], *, text: str = "Accept suggestions",
                           merge_id: object | None = None) -> int:
        """Accept these suggestions, those still pending as given (an edit since may have changed
        or removed some); one undo step, joined to the step before when ``merge_id`` is the same
        (how an editor accepts 100,000 suggestions a slice at a time). Returns how many."""
        updated: dict[int, Token] = {}
        breaks: dict[int, bool] = {}  # token id: starts a paragraph
        changes: SuggestionChanges = []
        for s in chosen:
            now = self.suggestion(s.token_id, s.kind)
            if now is None or now.state != State.PENDING or now.value != s.value:
                continue
            index = self.index_of(s.token_id)
            if s.kind == Kind.BREAK:
                changes.append((s.key, evolve(now, state=State.ACCEPTED, original=self.value_of(index, s.kind))))
                breaks[s.token_id] = bool(s.value)
                continue
            token = updated.get(index, self[index])
            changes.append((s.key, evolve(now, state=State.ACCEPTED, original=token.value(s.kind))))
            updated[index] = with_value(token, s.kind, s.value)
        if changes:
            with self.history.group(text, merge_id=merge_id):
                if updated:
                    self.push_tokens(sorted(updated.items()), "")
                if breaks:
                    self.push_paragraphs(breaks, "")
                self.push_suggestions(changes, "")
        return len(changes)

    def reject_all(self, *, kind: Kind | str | None = None, max_confidence: float = 1.0) -> int:
        """Reject every pending suggestion with confidence <= ``max_confidence``; one undo step."""
        changes: SuggestionChanges = [
            (s.key, evolve(s, state=State.REJECTED))
            for s in self.pending(kind=kind) if s.confidence <= max_confidence]
        return self.push_changes(changes, "Reject all")

    def _require(self, token_id: int, kind: Kind | str) -> Suggestion:
        s = self.suggestion(token_id, kind)
        if s is None:
            raise KeyError(f"no {Kind(kind).value} suggestion on token {token_id}")
        return s
