"""Paragraph breaks Stet proposes where a text runs on without any (raw ASR output is often one
paragraph of tens of thousands of words): suggestions of kind ``Kind.BREAK`` on the word that
would start the new paragraph, value ``BREAK`` ("¶"), reviewed like any other suggestion.

Where they go: a paragraph longer than ``LONG`` words is cut into windows of ``EVERY`` words, and
each window gets at most one proposal, at its most likely sentence end: after the author's end
mark (probability 1), or the model's pending one (the probabilities of all end marks added up);
a long pause between the words adds to a place's standing, so it decides among sentence ends but
never makes one. Only a place where a sentence ends with a probability over ``SURE`` (0.5) can
take a break: anywhere else the text running on, as it stands, is likelier. The proposal keeps
``MARGIN`` words from its window's edges, or, where the window's middle has no such place, goes
anywhere in the window but ``NEAR`` words from its edges; a window without one gets none. So on
restored text proposals lie about 50 to 450 words apart (on the 125 dev talks, each one raw
paragraph restored by the shipped model: 1,387 proposals, median 191 words apart), and raw words
before restoration get none. Restoration places them again as its marks come in (``propose``
over the words it restored). A window where the person decided on a break is left alone.

The confidence of a proposal is the probability that a sentence ends before it, always over 0.5
(dev talks: median 92 %): a break at a sure sentence end is a good paragraph break, one in
mid-sentence is not. Accepting all applies a break only where a sentence ends before it as the
text will stand (``review.pending_to_apply``).

A view still starts a line now and then where no break is proposed, because Qt lays a whole
block out again on each change (77 ms per keystroke in one block of 100,000 words): where a run
of words between paragraph starts and proposals is longer than ``RUN_ON_LIMIT``, ``kept_lines``
names the words that start a line that "runs on" (a rejected break first, else one every
``RUN_ON_STEP`` words). Such a line is no suggestion: it is not listed, counted or exported, and
the view marks it ⋯, never as a paragraph break; it stays on its word while the text around it
is edited, and goes once proposals come near enough.
"""

from __future__ import annotations

import bisect
import operator
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import compress
from typing import Protocol

from editor.core.document.records import Kind, Spread, State, Suggestion, Token
from editor.core.document.text import SENTENCE_END, ends_sentence


class _Document(Protocol):  # what kept_lines reads of a Transcript (which imports this module)
    @property
    def paragraph_starts(self) -> list[int]: ...
    def __len__(self) -> int: ...
    def __getitem__(self, index: int) -> Token: ...
    def index_of(self, token_id: int) -> int: ...
    def is_paragraph_start(self, index: int) -> bool: ...
    def iter_suggestions(self, *, state: State | str | None = None,
                         kind: Kind | str | None = None) -> Iterator[Suggestion]: ...

BREAK = "¶"  # the value of a paragraph-break suggestion; "" keeps the text running on
LONG, EVERY, MARGIN = 500, 200, 50  # words
NEAR = MARGIN // 2  # words: how near a window's edge a break may go where its middle has no likely end
#: a break is proposed only where a sentence ends with a probability over this: leaving the text
#: running on (the text as it stands) is likelier anywhere else
SURE = 0.5
#: a view shows a line marked as running on (not a break) where a run of more than this many words
#: would have no line (``kept_lines``); Qt lays a whole line out again on each change (a keystroke
#: in a line of 2,000 words: ~4 ms; of 10,000: ~10 ms; see tests/perf/bench_long_block.py)
RUN_ON_LIMIT = 2_000
RUN_ON_STEP = RUN_ON_LIMIT // 2  # words from one such line to the next made: room to type

_ID = operator.attrgetter("id")
_PUNCT = operator.attrgetter("punct")
#: windows placed together: their words are read in C loops that hold the GIL (a reading thread
#: placing 100,000 words' breaks would hold the UI thread up ~4 ms at a time; 10,000: well under 1)
_GROUP = 50
Changes = list[tuple[tuple[int, Kind], "Suggestion | None"]]


def end_probability(token: Token, slot: Mapping[Kind, Suggestion] | None) -> float:
    """How likely a sentence ends after ``token``, where one ends as the text will stand (0 where
    none does): its pending mark suggestion's probability of any end mark (the marks' marginals
    added up: "." at 0.4 and "?" at 0.3 are a sentence end at 0.7), else 1 or 0 by the mark it has.
    A pending comma counts as no end, however its alternatives add up: a break after it would
    read "word,¶"."""
    s = slot.get(Kind.PUNCT) if slot else None
    if s is not None and s.state == State.PENDING:
        if not ends_sentence(s.value):
            return 0.0
        return min(1.0, sum(p for v, p in s.probs.items() if any(ch in SENTENCE_END for ch in v)))
    return 1.0 if ends_sentence(token.punct) else 0.0


def _gap(before: Token, after: Token) -> float:
    """Seconds of silence between two words: 0 where either has no time, or where either side's
    time was not measured but spread over a cue or guessed (``Token.spread``: stamped text's ends
    come from a pace or the next stamp, so a "pause" there is the guess's error, not silence)."""
    a, b = before.end, after.start
    if a is None or b is None or before.spread & Spread.END or after.spread & Spread.START:
        return 0.0
    return b - a


def _best(ends: Mapping[int, float], pauses: Mapping[int, float], lo: int, hi: int) -> int | None:
    """The best place ``lo <= p < hi`` for a break among ``ends`` (place -> P(end), all over
    ``SURE``): the likeliest sentence end, a long pause before the word adding to it (so it
    decides among sentence ends, never makes one), nearest the span's middle on ties."""
    centre = (lo + hi) / 2
    best, best_key = None, (0.0, 0.0)
    for p in ends.keys() & range(lo, hi) if len(ends) < hi - lo else filter(ends.__contains__, range(lo, hi)):
        key = (round(ends[p] + min(pauses.get(p, 0.0), 2.0) / 4, 1), -abs(p - centre))
        if best is None or key > best_key:
            best, best_key = p, key
    return best


def _place(tokens: Sequence[Token], get: Callable[[int], Mapping[Kind, Suggestion] | None], a: int, b: int, first: int, last: int, changes: Changes) -> None:
    """``propose`` for windows ``first..last`` of paragraph ``a:b``, adding to ``changes``."""
    lo_all, hi_all = a + first * EVERY, min(b, a + (last + 1) * EVERY)
    span = tokens[lo_all:hi_all]
    slots = list(map(get, map(_ID, span)))  # C loops: this runs over every word
    # only a word with a mark or a suggestion can end a sentence (raw words: none)
    marked = sorted({*compress(range(lo_all, hi_all), map(_PUNCT, span)),
                     *compress(range(lo_all, hi_all), slots)})
    ends: dict[int, float] = {}  # place of a break (the word after) -> P(sentence end) > SURE
    current: dict[int, Suggestion] = {}  # window -> its pending proposal
    decided: set[int] = set()  # windows where the person decided on a break
    for i in marked:
        slot = slots[i - lo_all]
        e = end_probability(span[i - lo_all], slot)
        if e > SURE and i + 1 < hi_all:
            ends[i + 1] = e
        s = slot.get(Kind.BREAK) if slot else None
        if s is not None:
            if s.state == State.PENDING:
                current[(i - a) // EVERY] = s
            else:
                decided.add((i - a) // EVERY)
    pauses: dict[int, float] = {}
    if ends and span[0].start is not None and span[0].end is not None:
        pauses = {p: gap for p in ends if (gap := _gap(tokens[p - 1], tokens[p])) >= 0.3}
    for k in range(first, last + 1):
        if k in decided:
            continue
        wa, wb = a + k * EVERY, min(b, a + (k + 1) * EVERY)
        best = _best(ends, pauses, max(wa + MARGIN, a + MARGIN), min(wb - MARGIN, b - MARGIN))
        if best is None:  # no likely end in the window's middle: anywhere in it, bar its edges
            best = _best(ends, pauses, max(wa + NEAR, a + MARGIN), min(wb - NEAR, b - MARGIN))
        old = current.get(k)
        if best is None:
            if old is not None:
                changes.append((old.key, None))
            continue
        p_end = round(ends[best], 4)
        proposal = Suggestion(tokens[best].id, Kind.BREAK, BREAK, {BREAK: p_end, "": round(1.0 - p_end, 4)})
        if old is not None and old.token_id != proposal.token_id:
            changes.append((old.key, None))
        if old is None or old.token_id != proposal.token_id or old.probs != proposal.probs:
            changes.append((proposal.key, proposal))


def propose(tokens: Sequence[Token], suggestions: Mapping[int, Mapping[Kind, Suggestion]],
            paragraph_starts: Sequence[int], start: int = 0, end: int | None = None) -> Changes:
    """Changes that bring the proposed breaks of the windows overlapping words ``start:end`` up
    to date: each window's pending proposal moved to its best place, made, or taken away where
    no sentence end is likelier than not. ``tokens``, ``suggestions`` (by token id and kind) and
    ``paragraph_starts`` (indices): a transcript's."""
    n = len(tokens)
    end = n if end is None else min(end, n)
    if not suggestions and not any(map(_PUNCT, tokens[start:end])):
        # Raw words (a recogniser's, as a transcript is opened): no word can end a sentence, so
        # no window has a break to propose, and none has one to take away. Found at C speed; the
        # windows' look cost 20-25 ms at 100,000 words, in the turn that opens them.
        return []
    get = suggestions.get
    changes: Changes = []
    for a, b in zip(paragraph_starts, [*paragraph_starts[1:], n]):
        if b - a <= LONG or b <= start or a >= end:
            continue
        first = max(0, (start - a) // EVERY)
        last = (min(end, b) - a - 1) // EVERY
        for group in range(first, last + 1, _GROUP):
            _place(tokens, get, a, b, group, min(last, group + _GROUP - 1), changes)
    return changes


def runs_on(s: Suggestion) -> bool:
    """Whether a break suggestion was decided against: rejected, or "no break" picked."""
    return s.state == State.REJECTED or (s.state == State.ACCEPTED and not s.value)


def kept_lines(doc: _Document, limit: int = RUN_ON_LIMIT, breaks: Iterable[Suggestion] | None = None,
               previous: Iterable[int] = ()) -> set[int]:
    """Ids of the words a view starts on a new line though no paragraph starts there and no break
    is proposed there: it "runs on" (the view marks such a line ⋯, never as a paragraph break). So
    that no run of words between lines (paragraph starts, pending proposals and these) is longer
    than ``limit``, which the view would lay out slowly: a text running on with no likely sentence
    end (raw words before restoration) gets one every ``RUN_ON_STEP`` words, and rejected breaks
    (``runs_on``) are taken for them first. Lines in ``previous`` (ids: the ones shown now) stay
    where they are until the run they would join is no longer than ``RUN_ON_STEP``, so an edit
    never moves the lines after it; left to right, each kept only where needed: once proposals
    come close enough, they go. ``breaks``: the
    document's break suggestions, when at hand."""
    rejected, pending = [], []
    for s in doc.iter_suggestions(kind=Kind.BREAK) if breaks is None else breaks:
        if runs_on(s):
            rejected.append(doc.index_of(s.token_id))
        elif s.state == State.PENDING:
            pending.append(doc.index_of(s.token_id))
    n = len(doc)
    starts = doc.paragraph_starts
    if not n or max(map(operator.sub, [*starts[1:], n], starts)) <= limit:
        return set()  # no paragraph too long (checked at C speed): no run is
    bounds = sorted({*starts, *pending, n})
    shown = []
    for token_id in previous:
        try:
            shown.append(doc.index_of(token_id))
        except KeyError:  # the word is gone
            continue
    kept_before = set(shown)
    candidates = sorted({*rejected, *shown} - set(bounds))
    step = max(1, limit * RUN_ON_STEP // RUN_ON_LIMIT)
    kept: set[int] = set()
    for run_start, e in zip(bounds, bounds[1:]):
        if e - run_start <= limit:
            continue
        last_line = run_start
        inside = candidates[bisect.bisect_right(candidates, run_start):bisect.bisect_left(candidates, e)]
        for k, r in enumerate(inside):
            while r - last_line > limit:  # none near enough: a line of its own
                last_line += step
                kept.add(doc[last_line].id)
            # the next place a line could start: the next candidate, or the run's end; a line
            # shown stays unless the run it would join is no longer than a new line's step
            following = inside[k + 1] if k + 1 < len(inside) else e
            if following - last_line > (step if r in kept_before else limit):
                kept.add(doc[r].id)
                last_line = r
        while e - last_line > limit:
            last_line += step
            kept.add(doc[last_line].id)
    return kept
