"""Where a suggestion is heard in the recording: the pause at its place and the passage around it,
from the words' times (reviewing by ear: ``editor.gui.playback.review_listen``).

A suggestion sits between two words: a mark (``Kind.PUNCT``) after its word, a capital or a
paragraph break (``Kind.CASE``, ``Kind.BREAK``) before it. Its pause is the silence between them;
its passage runs from a little before its word to a little after the second word begins, so the
fall of the voice, the pause and what comes next are heard. Times are the transcript's own:
words read from subtitles or segments were spread over their cue, so between two words of one
cue the times touch though nobody measured it: there no pause is known (``Token.spread``), and
only the cue's edges are the speaker's. A passage needs only roughly where a word is, so it
takes spread times as they are."""

from __future__ import annotations

from dataclasses import dataclass

from editor.core.document.records import Kind, Spread, State, Suggestion
from editor.core.document.text import ends_sentence
from editor.core.document.transcript import Transcript

#: A sentence played whole stops this many words either side of the suggestion at most (a raw
#: transcript has no sentence ends yet).
SENTENCE_WORDS = 60


@dataclass(frozen=True)
class Passage:
    """Seconds of the recording to play."""

    start: float
    end: float


def around(transcript: Transcript, s: Suggestion) -> tuple[int, int | None] | None:
    """The indices of the two words the suggestion stands between (the second None after the
    last word), or None when its word is gone."""
    if not transcript.has_token(s.token_id):
        return None
    i = transcript.index_of(s.token_id)
    if s.kind == Kind.PUNCT:
        return i, i + 1 if i + 1 < len(transcript) else None
    return (i - 1, i) if i > 0 else None


def pause_at(transcript: Transcript, s: Suggestion) -> float | None:
    """The silence between the suggestion's two words, in seconds (0 where they touch); None
    where either word has no time, where the end of the first or the start of the second was
    not measured but spread over a cue or segment, or before the first word."""
    pair = around(transcript, s)
    if pair is None or pair[1] is None:
        return None
    left, right = transcript[pair[0]], transcript[pair[1]]
    if left.spread & Spread.END or right.spread & Spread.START:
        return None
    end = left.end if left.end is not None else left.start
    if end is None or right.start is None:
        return None
    return max(0.0, right.start - end)


def passage(transcript: Transcript, s: Suggestion, before: float, after: float) -> Passage | None:
    """From ``before`` seconds before the suggestion's word to ``after`` seconds after the
    second word begins (after its own word ends, at the last word). None when the word has no
    time in the recording."""
    if not transcript.has_token(s.token_id):
        return None
    i = transcript.index_of(s.token_id)
    word = transcript[i]
    if word.start is None:
        return None
    pair = around(transcript, s)
    following = transcript[pair[1]] if pair is not None and pair[1] is not None else None
    if s.kind != Kind.PUNCT:
        mark = word.start
    elif following is not None and following.start is not None:
        mark = following.start
    else:
        mark = word.end if word.end is not None else word.start
    start = max(0.0, word.start - max(0.0, before))
    return Passage(start, max(start, mark + max(0.0, after)))


def sentence(transcript: Transcript, s: Suggestion) -> Passage | None:
    """The sentence the suggestion is in, from its first word's start to its last word's end:
    between the sentence ends the text shows or that other pending suggestions propose (the
    place under review itself ends nothing, so both sides of it are heard), at most
    ``SENTENCE_WORDS`` words either side."""
    if not transcript.has_token(s.token_id):
        return None
    i = transcript.index_of(s.token_id)
    n = len(transcript)
    pair = around(transcript, s)
    left, right = pair if pair is not None else (i, i)
    right = left if right is None else right

    def ends_at(k: int) -> bool:
        """Whether a sentence ends after word k."""
        if k == left:
            return False
        proposal = transcript.suggestion(transcript[k].id, Kind.PUNCT)
        if proposal is not None and proposal.state == State.PENDING:
            return ends_sentence(proposal.value)
        return ends_sentence(transcript[k].punct)

    first, last = left, right
    while first > 0 and left - first < SENTENCE_WORDS and not ends_at(first - 1):
        first -= 1
    while last + 1 < n and last - right < SENTENCE_WORDS and not ends_at(last):
        last += 1
    timed = [t for t in transcript.tokens[first:last + 1] if t.start is not None]
    if not timed:
        return None
    return Passage(min(t.start for t in timed if t.start is not None),
                   max(t.end if t.end is not None else t.start for t in timed if t.start is not None))
