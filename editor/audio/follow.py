"""Follow-along: which word of a transcript is playing at a moment, found by binary search over the
word timings (built once per document revision, so a 30 Hz poll on 100,000 words stays cheap)."""

from __future__ import annotations

import bisect
import weakref
from dataclasses import dataclass

from editor.core import Token, Transcript


@dataclass(frozen=True)
class WordTimeline:
    """The timed tokens of a transcript in time order. Untimed tokens are left out."""

    starts: tuple[float, ...]
    ends: tuple[float, ...]
    """Where a token has no end, the next token's start (or its own start at the very end)."""
    indices: tuple[int, ...]
    """Token index in the transcript for each entry."""

    @classmethod
    def of(cls, tokens: tuple[Token, ...] | list[Token]) -> WordTimeline:
        timed = sorted((t.start, i, t.end) for i, t in enumerate(tokens) if t.start is not None)
        starts = tuple(s for s, _, _ in timed)
        ends = []
        for k, (start, _, end) in enumerate(timed):
            if end is None or end < start:
                end = starts[k + 1] if k + 1 < len(starts) else start
            ends.append(end)
        return cls(starts, tuple(ends), tuple(i for _, i, _ in timed))

    def index_at(self, seconds: float) -> int | None:
        """Index of the token being spoken at ``seconds``; None in a pause or outside the words."""
        k = bisect.bisect_right(self.starts, seconds) - 1
        if k < 0:
            return None
        # a token is playing from its start up to (not including) its end; a zero-length one at its start
        if seconds < self.ends[k] or seconds == self.starts[k]:
            return self.indices[k]
        return None


_cache: weakref.WeakKeyDictionary[Transcript, tuple[int, WordTimeline]] = weakref.WeakKeyDictionary()


def timeline(transcript: Transcript) -> WordTimeline:
    """The transcript's :class:`WordTimeline`, rebuilt only when the document changed."""
    cached = _cache.get(transcript)
    if cached is not None and cached[0] == transcript.revision:
        return cached[1]
    built = WordTimeline.of(transcript.tokens)
    _cache[transcript] = (transcript.revision, built)
    return built


def word_at(transcript: Transcript, seconds: float) -> int | None:
    """Index of the token playing at ``seconds``, or None between words and outside them."""
    return timeline(transcript).index_at(seconds)
