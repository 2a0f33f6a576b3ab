"""Decision points: the pending suggestions a reviewer decides together, in reading order. A mark
proposed after a word and the capital proposed for the word after it that hangs on a sentence
start are one decision: the capital follows the mark chosen (a sentence end brings it, a comma
drops it). Every other pending suggestion is a decision of its own; a capital is decided alone
only where no mark before it is pending (or where it does not hang on the sentence start: a
name, "I"). Pure functions of the tokens and their suggestions, so the window's Tab stops, its
accept-all count and ``stet eval --review-cost`` walk the same points."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass

from editor.core.document.records import Kind, State, Suggestion, Token
from editor.core.review.accept_rules import capital_follows, joins_mark

#: Where a suggestion stands inside its word, in reading order: a paragraph break before the
#: word, the word's case, the mark after it.
RANK = {Kind.BREAK: 0, Kind.CASE: 1, Kind.PUNCT: 2}

Suggestions = Mapping[int, Mapping[Kind, Suggestion]]

__all__ = ["RANK", "DecisionPoint", "capital_follows", "count_decisions", "decision_count",
           "decision_points", "iter_points", "joins_mark", "next_point", "point_of"]


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """One decision a reviewer makes: ``lead``, the pending suggestion Tab stops at (on the word
    at ``index``), and ``capital``, the pending case suggestion of the next word that follows the
    lead mark (None when the lead is decided alone)."""

    index: int
    lead: Suggestion
    capital: Suggestion | None = None

    @property
    def suggestions(self) -> tuple[Suggestion, ...]:
        """The lead, then the capital that follows it when there is one."""
        return (self.lead,) if self.capital is None else (self.lead, self.capital)

    @property
    def keys(self) -> tuple[tuple[int, Kind], ...]:
        return tuple(s.key for s in self.suggestions)

    @property
    def position(self) -> tuple[int, int]:
        """Where the point stands in reading order: (word index, ``RANK`` of the lead's kind)."""
        return (self.index, RANK[self.lead.kind])

    @property
    def confidence(self) -> float:
        """The point's confidence: its lead's (the capital follows the mark chosen)."""
        return self.lead.confidence

    def capital_after(self, mark: str) -> bool:
        """Whether the capital is accepted when the lead mark is decided as ``mark`` (the mark
        written after a rejection, the proposal or a chosen alternative after an accept)."""
        return self.capital is not None and capital_follows(self.capital, mark)


def _pending(slot: Mapping[Kind, Suggestion] | None, kind: Kind) -> Suggestion | None:
    s = slot.get(kind) if slot else None
    return s if s is not None and s.state == State.PENDING else None


def _points_at(tokens: Sequence[Token], suggestions: Suggestions, index: int) -> list[DecisionPoint]:
    """The points whose lead is on word ``index``, in reading order."""
    token = tokens[index]
    slot = suggestions.get(token.id)
    if not slot:
        return []
    out = []
    brk = _pending(slot, Kind.BREAK)
    if brk is not None:
        out.append(DecisionPoint(index, brk))
    case = _pending(slot, Kind.CASE)
    if case is not None and not (index > 0 and joins_mark(token, case, suggestions.get(tokens[index - 1].id, {})
                                                          .get(Kind.PUNCT))):
        out.append(DecisionPoint(index, case))
    mark = _pending(slot, Kind.PUNCT)
    if mark is not None:
        follower = None
        if index + 1 < len(tokens):
            after = tokens[index + 1]
            case_after = _pending(suggestions.get(after.id), Kind.CASE)
            if joins_mark(after, case_after, mark):
                follower = case_after
        out.append(DecisionPoint(index, mark, follower))
    return out


def iter_points(tokens: Sequence[Token], suggestions: Suggestions, start: int = 0, *,
                reverse: bool = False) -> Iterator[DecisionPoint]:
    """The decision points from word ``start`` on, in reading order (from it back to the first,
    latest first, when ``reverse``). A point belongs to the word of its lead."""
    if reverse:
        for index in range(min(start, len(tokens) - 1), -1, -1):
            yield from reversed(_points_at(tokens, suggestions, index))
    else:
        for index in range(max(0, start), len(tokens)):
            yield from _points_at(tokens, suggestions, index)


def decision_points(tokens: Sequence[Token], suggestions: Suggestions, start: int = 0,
                    end: int | None = None) -> list[DecisionPoint]:
    """The decision points whose leads are on words ``start:end``, in reading order (as Tab visits
    them)."""
    stop = len(tokens) if end is None else min(end, len(tokens))
    out = []
    for index in range(max(0, start), stop):
        out.extend(_points_at(tokens, suggestions, index))
    return out


def point_of(tokens: Sequence[Token], suggestions: Suggestions, index: int,
             kind: Kind | str) -> DecisionPoint | None:
    """The decision point the pending suggestion of ``kind`` on word ``index`` is part of (a
    capital that follows a mark gives the mark's point), or None when it is not pending."""
    kind = Kind(kind)
    if kind == Kind.CASE and index > 0:
        for point in _points_at(tokens, suggestions, index - 1):
            if point.capital is not None:
                return point
    for point in _points_at(tokens, suggestions, index):
        if point.lead.kind == kind:
            return point
    return None


def next_point(tokens: Sequence[Token], suggestions: Suggestions, after: tuple[int, int] | None = None, *,
               reverse: bool = False,
               wanted: Callable[[DecisionPoint], bool] | None = None) -> DecisionPoint | None:
    """The first decision point after the reading position ``after`` ((word index, ``RANK``), as
    ``DecisionPoint.position``; None: from the start, or from the end when ``reverse``), before
    it when ``reverse``, that ``wanted`` says yes to when given. No wrapping around."""
    if after is None:
        after = (-1, len(RANK)) if not reverse else (len(tokens), -1)
    start = max(after[0], 0) if not reverse else min(after[0], len(tokens) - 1)
    for point in iter_points(tokens, suggestions, start, reverse=reverse):
        if (point.position <= after) if not reverse else (point.position >= after):
            continue
        if wanted is None or wanted(point):
            return point
    return None


def count_decisions(points: Sequence[DecisionPoint], keys: Collection[tuple[int, Kind]]) -> int:
    """How many of ``points`` hold one of ``keys`` (suggestions accepted at once, e.g. by
    accept-all): a sentence end and its capital accepted together count once."""
    return sum(1 for point in points if any(key in keys for key in point.keys))


def decision_count(tokens: Sequence[Token], suggestions: Suggestions, chosen: Sequence[Suggestion],
                   index_of: Callable[[int], int], min_confidence: float = 0.0) -> int:
    """How many decisions accepting ``chosen`` makes, as accept-all at ``min_confidence`` chooses
    them (``accept_rules.pending_to_apply``, perhaps for a slice of the words): a capital that
    follows a mark of ``min_confidence`` or more counts with that mark, whichever slice the mark
    was in (nothing accepted yet). ``index_of`` gives a token id's word index."""
    count = len(chosen)
    for s in chosen:
        if s.kind != Kind.CASE:
            continue
        index = index_of(s.token_id)
        if index <= 0:
            continue
        mark = suggestions.get(tokens[index - 1].id, {}).get(Kind.PUNCT)
        if mark is not None and joins_mark(tokens[index], s, mark) and mark.confidence >= min_confidence:
            count -= 1
    return count
