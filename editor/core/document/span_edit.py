"""Typing over a span of words: the typed text parsed into words and line breaks, aligned with the
words it replaces so that unchanged words keep their ids, times and suggestions, new words timed
within the replaced words' time, and the paragraphs that follow. Functions of the tokens; the
Transcript applies the result as one undoable command."""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Callable, Mapping, Sequence

from editor.core.document.records import Kind, Spread, State, Suggestion, Token, evolve
from editor.core.document.text import Piece, words_of_blocks


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def parse_span(text: str) -> tuple[list[Piece], set[int], bool]:
    """Pieces of typed text, the piece indices after a line break, and whether it ends in one."""
    lines = _LINE_BREAK.split(text)
    pieces, starts = words_of_blocks(lines)
    ends_with_break = len(lines) > 1 and not lines[-1].strip()
    return pieces, {k for k in starts if k > 0}, ends_with_break


def align_span(tokens: Sequence[Token], start: int, end: int, pieces: Sequence[Piece],
               suggestions: Mapping[int, Mapping[Kind, Suggestion]],
               new_token: Callable[[Token], Token], *, keep_pending: bool = False,
               moved: list[Suggestion] | None = None) -> tuple[list[Token], list[tuple[int, Kind]]]:
    """The tokens that replace ``tokens[start:end]`` when typed text gives ``pieces``, and the
    keys of the suggestions that go. Words are aligned (difflib on the raw words): an unchanged
    word keeps its id, timings, confidence, speaker and suggestions (those of a kind whose value
    the text changed go); new words get an id from ``new_token`` and times spread over the time
    the replaced words took (or the gap between their neighbours), spread as a cue's words are
    (``Token.spread``: their times inside that span are not measured).

    ``keep_pending``: ``pieces`` are the text as shown, pending suggestions in it (a find and
    replace), so where a word's form or mark reads as its pending suggestion proposes, that is
    the suggestion shown, not the person's decision: the word keeps its own value and the
    suggestion stays pending. A word replaced by another one for one keeps its pending mark so
    too, moved to the new word (given in ``moved``)."""
    old = tokens[start:end]
    opcodes = difflib.SequenceMatcher(
        None, [t.word for t in old], [p.word for p in pieces], autojunk=False).get_opcodes()
    new: list[Token] = []
    drop: list[tuple[int, Kind]] = []

    def shown(token: Token, kind: Kind, value: str) -> bool:  # the value is the pending proposal's
        s = suggestions.get(token.id, {}).get(kind)
        return (keep_pending and s is not None and s.state == State.PENDING and s.value == value
                and value != token.value(kind))

    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            for token, piece in zip(old[i1:i2], pieces[j1:j2]):
                kept = evolve(token, surface=token.surface if shown(token, Kind.CASE, piece.surface) else piece.surface,
                              punct=token.punct if shown(token, Kind.PUNCT, piece.punct) else piece.punct)
                drop.extend(s.key for s in suggestions.get(token.id, {}).values()
                            if kept.value(s.kind) != token.value(s.kind))
                new.append(kept)
            continue
        drop.extend(s.key for t in old[i1:i2] for s in suggestions.get(t.id, {}).values())
        if j1 == j2:
            continue
        one_for_one = i2 - i1 == j2 - j1 == 1 and moved is not None
        lo, hi = time_window(tokens, old, i1, i2, start, end, new)
        speaker = next((t.speaker for t in old[i1:i2] if t.speaker), None)
        if speaker is None:
            before = new[-1] if new else tokens[start - 1] if start > 0 else None
            speaker = before.speaker if before else None
        count = j2 - j1
        first, last = edges_spread(old[i1:i2])
        for k, piece in enumerate(pieces[j1:j2]):
            t0 = t1 = None
            spread = Spread.NONE
            if lo is not None and hi is not None:
                t0 = lo + (hi - lo) * k / count
                t1 = lo + (hi - lo) * (k + 1) / count
                spread = (Spread.START if k else first) | (Spread.END if k < count - 1 else last)
            mark = suggestions.get(old[i1].id, {}).get(Kind.PUNCT) if one_for_one else None
            keep_mark = mark is not None and shown(old[i1], Kind.PUNCT, piece.punct)
            made = new_token(Token(piece.word, piece.surface, old[i1].punct if keep_mark else piece.punct, t0, t1,
                                   speaker=speaker, spread=spread))
            if keep_mark and mark is not None and moved is not None:
                moved.append(evolve(mark, token_id=made.id))
            new.append(made)
    return new, drop


def span_paragraphs(tokens: Sequence[Token], para_ids: frozenset[int], start: int, end: int, new: list[Token],
                    breaks: set[int], break_after: bool) -> frozenset[int]:
    """The ids of the tokens that start a paragraph (``para_ids`` before) once ``new`` replaces
    ``tokens[start:end]``: the text decides inside
    the span; a paragraph that began with the span begins with what replaces it."""
    old = tokens[start:end]
    para = set(para_ids) - {t.id for t in old}
    after = tokens[end].id if end < len(tokens) else None
    began_here = (old[0].id in para_ids) if old else (after in para_ids)
    if began_here:
        if new:
            para.add(new[0].id)
            if not old and not break_after:
                para.discard(after)
        elif after is not None:
            para.add(after)
    para.update(new[j].id for j in breaks if j < len(new))
    if break_after and after is not None:
        para.add(after)
    return frozenset(para)


def edges_spread(replaced: Sequence[Token]) -> tuple[Spread, Spread]:
    """Whether the start and the end of the words typed in place of ``replaced`` are spread: the
    words take the replaced words' time (`time_window`), so their first start is the earliest
    replaced start and measured where that was, their last end likewise; typed between words
    (nothing timed replaced), both are made up."""
    timed = [t for t in replaced if t.start is not None and t.end is not None]
    if not timed:
        return Spread.START, Spread.END
    earliest = min(timed, key=lambda t: t.start or 0.0)
    latest = max(timed, key=lambda t: t.end or 0.0)
    return earliest.spread & Spread.START, latest.spread & Spread.END


def time_window(tokens: Sequence[Token], old: Sequence[Token], i1: int, i2: int, start: int, end: int,
                new_so_far: list[Token]) -> tuple[float | None, float | None]:
    """Where new words in place of ``old[i1:i2]`` may lie in time."""
    spans = [(t.start, t.end) for t in old[i1:i2] if t.start is not None and t.end is not None]
    if spans:
        return min(a for a, _ in spans), max(b for _, b in spans)
    before = itertools.chain(reversed(new_so_far), reversed(tokens[max(0, start - 50):start]))
    lo = next((t.end for t in before if t.end is not None), None)
    after = itertools.chain(old[i2:], tokens[end:end + 50])
    hi = next((t.start for t in after if t.start is not None), None)
    if lo is None:
        lo = hi
    if hi is None:
        hi = lo
    if lo is None or hi is None:
        return None, None
    return lo, max(hi, lo)
