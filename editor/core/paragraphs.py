"""Paragraph breaks Stet proposes where a text runs on without any (raw ASR output is often one
paragraph of tens of thousands of words): suggestions of kind ``Kind.BREAK`` on the word that
would start the new paragraph, value ``BREAK`` ("¶"), reviewed like any other suggestion.

Where they go: a paragraph longer than ``LONG`` words is cut into windows of ``EVERY`` words, and
each window gets one proposal at its most likely sentence end (the author's end mark, or the
model's pending one weighed by its probability; a long pause between the words adds to it), never
within ``MARGIN`` words of a window's edge, so proposals lie 100 to 300 words apart. A window
without any sentence end yet (raw words before restoration) gets one at its middle with
confidence 0; restoration places it again as its marks come in (``propose`` over the words it
restored). A window where the person decided on a break is left alone.

The confidence of a proposal is the probability that a sentence ends before it: a break at a
sure sentence end is a good paragraph break, one in mid-sentence is not. Accepting all applies a
break only where a sentence ends before it as the text will stand (``review.pending_to_apply``).
"""

from __future__ import annotations

import bisect
import operator
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Protocol

from editor.core.records import Kind, State, Suggestion, Token
from editor.core.text import SENTENCE_END, ends_sentence


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
#: a rejected break is still shown on a new line (marked as running on) where joining would make
#: a run of more than this many words without a line, which the view would lay out slowly
RUN_ON_LIMIT = 2_000

_ID = operator.attrgetter("id")
Changes = list[tuple[tuple[int, Kind], "Suggestion | None"]]


def end_probability(token: Token, slot: Mapping[Kind, Suggestion] | None) -> float:
    """How likely a sentence ends after ``token`` as the text will stand: its pending mark
    suggestion's probability of an end mark, else 1 or 0 by the mark it has."""
    s = slot.get(Kind.PUNCT) if slot else None
    if s is not None and s.state == State.PENDING:
        return min(1.0, sum(p for v, p in s.probs.items() if any(ch in SENTENCE_END for ch in v)))
    return 1.0 if ends_sentence(token.punct) else 0.0


def _gap(before: Token, after: Token) -> float:
    """Seconds of silence between two words (0 where either has no time)."""
    a, b = before.end, after.start
    return 0.0 if a is None or b is None else b - a


def propose(tokens: Sequence[Token], suggestions: Mapping[int, Mapping[Kind, Suggestion]],
            paragraph_starts: Sequence[int], start: int = 0, end: int | None = None) -> Changes:
    """Changes that bring the proposed breaks of the windows overlapping words ``start:end`` up
    to date: each window's pending proposal moved to its best place (or made). ``tokens``,
    ``suggestions`` (by token id and kind) and ``paragraph_starts`` (indices): a transcript's."""
    n = len(tokens)
    end = n if end is None else min(end, n)
    get = suggestions.get
    changes: Changes = []
    for a, b in zip(paragraph_starts, [*paragraph_starts[1:], n]):
        if b - a <= LONG or b <= start or a >= end:
            continue
        first = max(0, (start - a) // EVERY)
        last = (min(end, b) - a - 1) // EVERY
        for k in range(first, last + 1):
            wa, wb = a + k * EVERY, min(b, a + (k + 1) * EVERY)
            lo, hi = max(wa + MARGIN, a + MARGIN), min(wb - MARGIN, b - MARGIN)
            if lo >= hi:
                continue
            window = tokens[wa:wb]
            slots = list(map(get, map(_ID, window)))  # C loops: this runs over every word
            current = None
            decided = False
            for slot in filter(None, slots):
                s = slot.get(Kind.BREAK)
                if s is not None:
                    if s.state == State.PENDING:
                        current = s
                    else:
                        decided = True
            if decided:
                continue
            centre = (lo + hi) / 2
            best, best_key, best_end = round(centre), (0.0, 0.0), 0.0
            pauses: dict[int, float] = {}
            if window[0].start is not None and window[0].end is not None:
                pauses = {p: gap for p, gap in enumerate(map(_gap, window[lo - 1 - wa:hi - 1 - wa],
                                                             window[lo - wa:hi - wa]), lo) if gap >= 0.3}
            # only words with a mark or a suggestion after them can end a sentence, and only
            # long gaps between words count as pauses
            for p in sorted({*pauses, *(p for p in range(lo, hi)
                                        if window[p - 1 - wa].punct or slots[p - 1 - wa])}):
                prev, here = window[p - 1 - wa], slots[p - 1 - wa]
                ends = end_probability(prev, here) if here else 1.0 if ends_sentence(prev.punct) else 0.0
                score = ends + min(pauses.get(p, 0.0), 2.0) / 4
                if score <= 0.0:
                    continue
                key = (round(score, 1), -abs(p - centre))
                if key > best_key:
                    best, best_key, best_end = p, key, ends
            proposal = Suggestion(tokens[best].id, Kind.BREAK, BREAK,
                                  {BREAK: round(best_end, 4), "": round(1.0 - best_end, 4)})
            if current is not None and current.token_id != proposal.token_id:
                changes.append((current.key, None))
            if current is None or current.token_id != proposal.token_id or current.probs != proposal.probs:
                changes.append((proposal.key, proposal))
    return changes


def runs_on(s: Suggestion) -> bool:
    """Whether a break suggestion was decided against: rejected, or "no break" picked."""
    return s.state == State.REJECTED or (s.state == State.ACCEPTED and not s.value)


def kept_lines(doc: _Document, limit: int = RUN_ON_LIMIT, breaks: Iterable[Suggestion] | None = None) -> set[int]:
    """Ids of the words after a rejected break (``runs_on``) that a view still starts on a new line: where
    joining would leave a run of more than ``limit`` words between lines (paragraph starts and
    pending proposals). Left to right, each kept only where needed. ``breaks``: the document's
    break suggestions, when at hand."""
    rejected, pending = [], []
    for s in doc.iter_suggestions(kind=Kind.BREAK) if breaks is None else breaks:
        if runs_on(s):
            rejected.append(doc.index_of(s.token_id))
        elif s.state == State.PENDING:
            pending.append(doc.index_of(s.token_id))
    if not rejected:
        return set()
    bounds = sorted({*doc.paragraph_starts, *pending, len(doc)})
    order = sorted(r for r in rejected if not doc.is_paragraph_start(r))
    kept: set[int] = set()
    last_line = 0
    for k, r in enumerate(order):
        at = bisect.bisect_right(bounds, r)
        last_line = max(last_line, bounds[at - 1])
        # the next place a line could start: the next rejected break, or a line anyway
        following = min(order[k + 1] if k + 1 < len(order) else len(doc), bounds[at])
        if following - last_line > limit:
            kept.add(doc[r].id)
            last_line = r
    return kept
