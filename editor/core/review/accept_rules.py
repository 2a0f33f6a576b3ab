"""The review rules: which pending suggestions accepting them all applies (a word's capital follows
the sentence end before it as the text will stand), what a mark picked after a word does to
the capital of the word after it, what a capital accepted does to the end mark proposed before it
(one decision, both halves), and what turning down a proposal from the person's choice leaves.
Functions of the tokens and their suggestions; the Transcript applies what they decide as
undoable commands."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from editor.core.document.records import CHOICE, Kind, State, Suggestion, Token, evolve
from editor.core.document.text import ends_sentence, split_opening

#: A capital whose lowercase form is less likely than this does not hang on the sentence start
#: (a name, "I"), so it is applied even where the end mark before it stays pending.
POSITION_FREE_CAPITAL = 0.02


def pending_to_apply(tokens: Sequence[Token], suggestions: Mapping[int, Mapping[Kind, Suggestion]],
                     min_confidence: float = 0.0, *, kind: Kind | str | None = None, start: int = 0,
                     end: int | None = None) -> list[Suggestion]:
    """The pending suggestions with confidence >= ``min_confidence`` that accepting them all (or
    writing the text at that threshold) applies. A word's case follows the sentence end before
    it as the text will stand: a capital that hangs on the sentence start (hangs_on_start) with
    a mark pending before it is one decision with that mark (``joins_mark``): it is applied only
    with the mark and only where it fits the mark applied (``capital_follows``: a comma applied
    leaves it pending), and a word after a sentence end that stays keeps its capital. Held-back suggestions stay pending.
    Only words ``start:end`` (an editor takes a long transcript a slice at a time; the choice
    for a word depends only on the word before it)."""
    kinds = (Kind.BREAK, Kind.CASE, Kind.PUNCT) if kind is None else (Kind(kind),)
    punct_counts = Kind.PUNCT in kinds

    def chosen_of(token: Token) -> dict[Kind, Suggestion]:
        slot = suggestions.get(token.id)
        if not slot:
            return {}
        return {k: s for k in kinds if (s := slot.get(k)) is not None
                and s.state == State.PENDING and s.probs[s.value] >= min_confidence}

    out = []
    stop = len(tokens) if end is None else min(end, len(tokens))
    for index in range(max(0, start), stop):
        token = tokens[index]
        if token.id not in suggestions:
            continue
        here = chosen_of(token)
        brk = here.get(Kind.BREAK)
        if brk is not None and index > 0:  # a paragraph break waits for a sentence end before it
            prev = tokens[index - 1]
            mark = chosen_of(prev).get(Kind.PUNCT) if punct_counts else None
            if not brk.value or ends_sentence(mark.value if mark is not None else prev.punct):
                out.append(brk)
        s = here.get(Kind.CASE)
        if s is not None:
            now = split_opening(token.surface or token.word)[1]
            then = split_opening(s.value)[1]
            if now and then and now[0].isupper() != then[0].isupper():
                ends, waiting = True, None
                if index > 0:
                    prev = tokens[index - 1]
                    mark = chosen_of(prev).get(Kind.PUNCT) if punct_counts else None
                    ends = ends_sentence(mark.value if mark is not None else prev.punct)
                    waiting = suggestions.get(prev.id, {}).get(Kind.PUNCT)
                if index > 0 and joins_mark(token, s, waiting):
                    # one decision with the mark pending before it (decision_points): the capital
                    # follows that mark where it is applied, and waits with it where not
                    if mark is None or not capital_follows(s, mark.value):
                        s = None
                elif then[0].islower() and ends:
                    s = None  # a sentence start keeps its capital
                elif (then[0].isupper() and not ends and waiting is not None
                        and waiting.state == State.PENDING and ends_sentence(waiting.value)
                        and hangs_on_start(s)):
                    s = None  # the capital waits for the end mark before it
            if s is not None:
                out.append(s)
        if Kind.PUNCT in here:
            out.append(here[Kind.PUNCT])
    return out


def hangs_on_start(case: Suggestion) -> bool:
    """Whether a capital comes only with a sentence start before its word: the word is no name
    (``needs_start``, from the model's names lexicon), or its lowercase form is not unlikely
    (``POSITION_FREE_CAPITAL``). Names and "I" keep theirs after a comma."""
    return case.needs_start or case.probs.get(case.value.lower(), 0.0) >= POSITION_FREE_CAPITAL


def capital_follows(capital: Suggestion, mark: str) -> bool:
    """Whether ``capital`` (a case suggestion on the word after a mark) is right after ``mark``: a
    capital after a sentence end (. ? !), a lower-case first letter after any other mark or
    none."""
    rest = split_opening(capital.value)[1]
    return bool(rest) and rest[0].isupper() == ends_sentence(mark)


def joins_mark(word: Token, capital: Suggestion | None, mark: Suggestion | None) -> bool:
    """Whether ``capital``, the case suggestion of ``word``, is decided with ``mark``, the mark
    suggestion of the word before it: both pending, the capital changes the case of the word's
    first letter and hangs on the sentence start (``hangs_on_start``: a name or "I"
    keeps its capital whatever the mark, so it is decided alone)."""
    if capital is None or mark is None or capital.state != State.PENDING or mark.state != State.PENDING:
        return False
    if capital.kind != Kind.CASE or mark.kind != Kind.PUNCT:
        return False
    now = split_opening(word.surface or word.word)[1]
    then = split_opening(capital.value)[1]
    return bool(now and then) and now[0].isupper() != then[0].isupper() and hangs_on_start(capital)


class CaseStep(NamedTuple):
    """What picking a mark does to the next word's capital: `action` "" (nothing), "reject" or
    "accept" (its case suggestion), or "edit" (its surface set to `surface` by hand); `note` says
    what happened ("" if nothing), e.g. "capitalised 'We'"."""

    action: str
    note: str = ""
    surface: str = ""


def next_case_step(token: Token, case: Suggestion | None, sentence_end: bool) -> CaseStep:
    """The capital of `token`, the word after a mark just picked, settled: after an end mark
    (`sentence_end`) it is capitalised (its capital suggestion accepted, or by hand when there is
    none); after any other mark a capital that hangs on a sentence start (a pending or accepted
    capital suggestion whose lowercase form is not unlikely) is taken back. `case` is the token's
    case suggestion, if any."""
    opening, rest = split_opening(token.surface or token.word)
    if not rest:
        return CaseStep("")
    proposes_capital = case is not None and split_opening(case.value)[1][:1].isupper()
    hangs_on_position = case is not None and hangs_on_start(case)
    if sentence_end:
        if rest[0].isupper():
            if case is not None and case.state == State.PENDING and not proposes_capital:
                return CaseStep("reject", f"kept ‘{rest}’ capitalised")  # a sentence start keeps its capital
            return CaseStep("")
        if proposes_capital and case is not None and case.state == State.PENDING:
            # The capital is a decision of its own: it stays proposed, shown in the text, and
            # review goes to it next (only what the person decided changes).
            return CaseStep("", f"the capital ‘{case.value}’ after it is still yours to decide")
        if proposes_capital and case is not None and case.state == State.REJECTED:
            return CaseStep("accept", f"capitalised ‘{case.value}’")
        surface = opening + rest[0].upper() + rest[1:]
        return CaseStep("edit", f"capitalised ‘{surface}’", surface)
    if case is None or not (proposes_capital and hangs_on_position):
        return CaseStep("")
    if case.state == State.PENDING:
        return CaseStep("reject", f"left ‘{rest}’ in lower case")
    if case.state == State.ACCEPTED and case.original is not None and rest[0].isupper():
        return CaseStep("reject", f"lowercased ‘{case.original}’")  # gives the word its earlier form back
    return CaseStep("")


def capital_settles_mark(case: Suggestion, mark: Suggestion | None, written: str) -> bool:
    """Whether accepting ``case`` (the capital as accepted) also settles ``mark``, the proposal
    after the word before it, whose written mark is ``written``: a capital that hangs on a
    sentence start (``hangs_on_start``) where only a pending proposal ends the sentence comes
    with that sentence end, so accepting the one accepts the other ("maria And today" never
    stands). A name or "I" does not hang on it and leaves the mark pending."""
    return (mark is not None and mark.kind == Kind.PUNCT and mark.state == State.PENDING
            and ends_sentence(mark.value) and not ends_sentence(written)
            and split_opening(case.value)[1][:1].isupper() and hangs_on_start(case))


def turned_down(s: Suggestion) -> Suggestion:
    """What turning down ``s`` leaves in its place: a pending proposal from the person's choice
    that stood in for one of Stet's (``Suggestion.original``) gives that one back, pending (the
    choice does not hold here; nothing of the text changes); any other is rejected."""
    if s.state == State.PENDING and s.source == CHOICE and s.original is not None and s.original != s.value:
        return Suggestion(s.token_id, s.kind, s.original, s.probs, needs_start=s.needs_start)
    return evolve(s, state=State.REJECTED)


def is_keep(s: Suggestion, token: Token) -> bool:
    """Whether ``s`` proposes to keep ``token`` as it is (a pending proposal from the person's
    choice where the text already reads as chosen: accepting it changes no letter)."""
    return s.kind != Kind.BREAK and s.value == token.value(s.kind)


def next_pending(tokens: Sequence[Token], suggestions: Mapping[int, Mapping[Kind, Suggestion]], after: int = -1, *,
                 reverse: bool = False, kind: Kind | str | None = None,
                 wanted: Callable[[Suggestion], bool] | None = None) -> Suggestion | None:
    """The first pending suggestion on a token after index ``after`` (before it if ``reverse``),
    of ``kind`` and one ``wanted`` says yes to (a review list's confidence band) when given."""
    indices = range(after - 1, -1, -1) if reverse else range(after + 1, len(tokens))
    kinds = (Kind.BREAK, Kind.CASE, Kind.PUNCT) if not reverse else (Kind.PUNCT, Kind.CASE, Kind.BREAK)
    for i in indices:
        slot = suggestions.get(tokens[i].id)
        if not slot:
            continue
        for k in kinds:
            s = slot.get(k)
            if s is not None and s.state == State.PENDING and (kind is None or k == kind) \
                    and (wanted is None or wanted(s)):
                return s
    return None


def in_token_order(tokens: Sequence[Token], suggestions: Mapping[int, Mapping[Kind, Suggestion]], *,
                   state: State | str | None = None, kind: Kind | str | None = None) -> list[Suggestion]:
    """The suggestions of this state and kind (any when None), in token order, a word's case
    before its mark (a paragraph break before both): read token by token, quicker than sorting
    when there are many."""
    kinds = (Kind.BREAK, Kind.CASE, Kind.PUNCT) if kind is None else (Kind(kind),)
    found = []
    for token in tokens:
        slot = suggestions.get(token.id)
        if slot:
            for k in kinds:
                s = slot.get(k)
                if s is not None and (state is None or s.state == state):
                    found.append(s)
    return found
