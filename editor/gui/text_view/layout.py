"""Where each token sits in the displayed text, so a view can colour a suggestion and turn an edit
of characters into ``Transcript.replace_span`` over whole words."""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from editor.core.document.transcript import Transcript
from editor.core.render import NONE, RenderPolicy, render_words

PARAGRAPH_SEPARATOR = "\n"


@dataclass(frozen=True, slots=True)
class WordSpan:
    """Token ``index`` occupies ``text[start:end]``; its punctuation begins at ``punct_start``."""

    index: int
    start: int
    punct_start: int
    end: int


@dataclass(frozen=True, slots=True)
class Layout:
    """The transcript as one string: words joined by spaces, paragraphs by a line break."""

    text: str
    spans: tuple[WordSpan, ...]

    def token_at(self, offset: int) -> int | None:
        """The token at character ``offset`` (or the one just before it, in a gap)."""
        if not self.spans:
            return None
        return max(bisect.bisect_right(self._starts, offset) - 1, 0)

    def edit(self, start: int, end: int, typed: str) -> tuple[int, int, str]:
        """Turn "characters ``start:end`` became ``typed``" into ``(first, last, text)`` for
        ``transcript.replace_span(first, last, text)``: the touched words, whole, as they read after
        the edit. Typing right after a word changes that word; right before one, that one."""
        if not 0 <= start <= end <= len(self.text):
            raise IndexError(f"characters {start}:{end} outside 0:{len(self.text)}")
        first = bisect.bisect_left(self._ends, start)  # first word ending at or after start
        last = bisect.bisect_right(self._starts, end)  # words starting at or before end
        if first >= last:  # only possible in an empty layout
            return first, first, typed
        lo, hi = min(self.spans[first].start, start), max(self.spans[last - 1].end, end)
        text = self.text[lo:start] + typed + self.text[end:hi]
        # Punctuation before the first word belongs to the word before it; with no word before,
        # to the next one. Widen the range so the text is parsed as it reads in context.
        while not any(ch.isalnum() for ch in (text.split() or [""])[0]):
            if first > 0:
                first -= 1
                lo = self.spans[first].start
            elif last < len(self.spans) and not any(ch.isalnum() for ch in text):
                last += 1
                hi = self.spans[last - 1].end
            else:
                break
            text = self.text[lo:start] + typed + self.text[end:hi]
        return first, last, text

    @property
    def _starts(self) -> list[int]:
        return [s.start for s in self.spans]

    @property
    def _ends(self) -> list[int]:
        return [s.end for s in self.spans]


def layout(transcript: Transcript, policy: RenderPolicy = NONE) -> Layout:
    """Lay out tokens as shown with ``policy`` applied (a view that shows pending suggestions
    inline uses ALL and colours them)."""
    parts: list[str] = []
    spans: list[WordSpan] = []
    offset = 0
    for word in render_words(transcript, policy):
        if spans:
            sep = PARAGRAPH_SEPARATOR if word.paragraph_start else " "
            parts.append(sep)
            offset += len(sep)
        parts += [word.surface, word.punct]
        spans.append(WordSpan(word.index, offset, offset + len(word.surface),
                              offset + len(word.surface) + len(word.punct)))
        offset = spans[-1].end
    return Layout("".join(parts), tuple(spans))
