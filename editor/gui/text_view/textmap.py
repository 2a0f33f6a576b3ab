"""Where each word of a transcript lies in the text a view shows, kept current edit by edit.

Token ``i`` is shown as one *piece*: its separator (nothing, a space, a line break or the empty
line between paragraphs), its surface and its mark. A view asks for the character range of a word,
the word at a character position, and changes a few pieces per edit; on 100,000 words none of
that may walk the whole text. The pieces are kept in chunks of a few hundred, each knowing its
length; a change touches one chunk and marks the table of chunk offsets stale, rebuilt on the next
question from a few hundred chunk totals. So a word's offset, the word at a position and a change
cost O(chunk + chunks) = O(sqrt n) at worst, microseconds at 100,000 words, where a flat table of
offsets costs a pass over every word after each change of length.

Pure Python, no Qt: the view (``editor.gui.text_view.view``) keeps one beside its ``QTextDocument``.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterable, Iterator

Piece = tuple[str, str, str]  # (separator, surface, mark)

CHUNK = 512  # pieces per chunk when (re)built; a chunk is split when it grows past twice that


class _Chunk:
    __slots__ = ("seps", "surfs", "puncts", "lens", "total", "_local")

    def __init__(self, seps: list[str], surfs: list[str], puncts: list[str],
                 lens: list[int] | None = None) -> None:
        self.seps, self.surfs, self.puncts = seps, surfs, puncts
        self.lens = _lengths(seps, surfs, puncts) if lens is None else lens
        self.total = sum(self.lens)
        self._local: list[int] | None = None

    def local(self) -> list[int]:
        """Offsets of the pieces from the chunk's start, one more than pieces (the last: total)."""
        if self._local is None:
            self._local = [0, *itertools.accumulate(self.lens)]
        return self._local

    def forget_offsets(self) -> None:
        """The lengths changed: the offsets are worked out again when next asked for."""
        self._local = None


def _joined(seps: list[str], surfs: list[str], puncts: list[str]) -> list[str]:
    return list(map(str.__add__, map(str.__add__, seps, surfs), puncts))  # at C speed


def _lengths(seps: list[str], surfs: list[str], puncts: list[str]) -> list[int]:
    return list(map(len, _joined(seps, surfs, puncts)))


def _chunks_of(seps: list[str], surfs: list[str], puncts: list[str],
               lens: list[int] | None = None) -> list[_Chunk]:
    lens = _lengths(seps, surfs, puncts) if lens is None else lens
    return [_Chunk(seps[k:k + CHUNK], surfs[k:k + CHUNK], puncts[k:k + CHUNK], lens[k:k + CHUNK])
            for k in range(0, len(seps), CHUNK)]


class TextMap:
    """The pieces of a shown text and their character offsets.

    ``offset(i)``: where piece ``i`` starts (its separator); ``offset(len(map))`` is the length of
    the whole text. ``word_range(i)``: (word start, mark start, end) of token ``i``.
    """

    def __init__(self, pieces: Iterable[Piece] = ()) -> None:
        seps: list[str] = []
        surfs: list[str] = []
        puncts: list[str] = []
        for sep, surface, punct in pieces:
            seps.append(sep)
            surfs.append(surface)
            puncts.append(punct)
        self.reset(seps, surfs, puncts)

    def reset(self, seps: list[str], surfs: list[str], puncts: list[str]) -> str:
        """Take three parallel lists as the whole text (copied in chunks); returns the text."""
        if not len(seps) == len(surfs) == len(puncts):
            raise ValueError("separators, surfaces and marks differ in number")
        pieces = _joined(seps, surfs, puncts)
        self._chunks = _chunks_of(seps, surfs, puncts, list(map(len, pieces))) or [_Chunk([], [], [])]
        self._n = len(seps)
        self._stale()
        return "".join(pieces)

    def take(self) -> list[object]:
        """Empty the map, handing its contents over: for a caller that frees a long text's map a
        few parts per turn of an event loop (100,000 pieces freed at once took 6-10 ms)."""
        parts: list[object] = list(self._chunks)
        self._chunks, self._n = [_Chunk([], [], [])], 0
        self._stale()
        return parts

    def _stale(self) -> None:
        self._starts: list[int] | None = None  # token index where each chunk starts, then n
        self._chars: list[int] | None = None  # character offset where each chunk starts, then total

    def _tables(self) -> tuple[list[int], list[int]]:
        if self._starts is None:
            self._starts = [0, *itertools.accumulate(len(c.lens) for c in self._chunks)]
        if self._chars is None:
            self._chars = [0, *itertools.accumulate(c.total for c in self._chunks)]
        return self._starts, self._chars

    def _locate(self, index: int) -> tuple[int, int]:
        """(chunk, index within it) of token ``index``; ``len(self)`` gives the last chunk's end."""
        if not 0 <= index <= self._n:
            raise IndexError(index)
        starts, _ = self._tables()
        c = min(bisect.bisect_right(starts, index) - 1, len(self._chunks) - 1)
        return c, index - starts[c]

    # -- reading ------------------------------------------------------------------------------------
    def __len__(self) -> int:
        return self._n

    @property
    def total(self) -> int:
        """Characters in the whole text."""
        return self._tables()[1][-1]

    def piece(self, index: int) -> Piece:
        c, k = self._locate(index)
        chunk = self._chunks[c]
        if k >= len(chunk.lens):
            raise IndexError(index)
        return chunk.seps[k], chunk.surfs[k], chunk.puncts[k]

    def sep(self, index: int) -> str:
        return self.piece(index)[0]

    def surface(self, index: int) -> str:
        return self.piece(index)[1]

    def punct(self, index: int) -> str:
        return self.piece(index)[2]

    def offset(self, index: int) -> int:
        """Where piece ``index`` (its separator) starts; ``offset(len(self))`` is the total."""
        c, k = self._locate(index)
        return self._tables()[1][c] + self._chunks[c].local()[k]

    def word_range(self, index: int) -> tuple[int, int, int]:
        """(word start, mark start, end) of token ``index`` in the shown text."""
        c, k = self._locate(index)
        chunk = self._chunks[c]
        if k >= len(chunk.lens):
            raise IndexError(index)
        at = self._tables()[1][c] + chunk.local()[k]
        word = at + len(chunk.seps[k])
        return word, word + len(chunk.surfs[k]), at + chunk.lens[k]

    def piece_at(self, position: int) -> int | None:
        """The token whose piece (separator included) holds a character position. None when
        empty; positions past either end give the first or the last token."""
        if not self._n:
            return None
        starts, chars = self._tables()
        c = min(max(bisect.bisect_right(chars, position) - 1, 0), len(self._chunks) - 1)
        k = bisect.bisect_right(self._chunks[c].local(), position - chars[c]) - 1
        return min(max(starts[c] + k, 0), self._n - 1)

    def token_at(self, position: int) -> int | None:
        """The token at a character position; on a separator, the token before it."""
        i = self.piece_at(position)
        if i is not None and i > 0 and position < self.word_range(i)[0]:
            i -= 1
        return i

    def pieces(self, start: int = 0, end: int | None = None) -> Iterator[tuple[int, int, Piece]]:
        """(index, offset, piece) of tokens ``start`` up to ``end``, in order, each in O(1)."""
        end = self._n if end is None else min(end, self._n)
        if start >= end:
            return
        c, k = self._locate(start)
        _, chars = self._tables()
        i = start
        while i < end:
            chunk = self._chunks[c]
            local = chunk.local()
            base = chars[c]
            while k < len(chunk.lens) and i < end:
                yield i, base + local[k], (chunk.seps[k], chunk.surfs[k], chunk.puncts[k])
                k += 1
                i += 1
            c, k = c + 1, 0

    def text(self) -> str:
        return "".join(f"{a}{b}{c}" for chunk in self._chunks
                       for a, b, c in zip(chunk.seps, chunk.surfs, chunk.puncts))

    # -- changing -----------------------------------------------------------------------------------
    def set(self, index: int, sep: str, surface: str, punct: str) -> bool:
        """Piece ``index`` becomes (sep, surface, punct); True when its length changed (offsets after
        it moved)."""
        c, k = self._locate(index)
        chunk = self._chunks[c]
        if k >= len(chunk.lens):
            raise IndexError(index)
        chunk.seps[k], chunk.surfs[k], chunk.puncts[k] = sep, surface, punct
        length = len(sep) + len(surface) + len(punct)
        delta = length - chunk.lens[k]
        if not delta:
            return False
        chunk.lens[k] = length
        chunk.total += delta
        chunk.forget_offsets()
        self._chars = None
        return True

    def splice(self, start: int, removed: int, pieces: Iterable[Piece]) -> None:
        """Pieces ``start:start + removed`` become ``pieces`` (a list edit: typing, pasting)."""
        if removed < 0 or start + removed > self._n:
            raise IndexError(start + removed)
        new = list(pieces)
        c0, _ = self._locate(start)
        c1, _ = self._locate(start + removed)
        # Only the chunks the span touches are rebuilt: one when typing, all of them for a paste
        # that replaces everything.
        merged = self._chunks[c0:c1 + 1]
        seps = [s for ch in merged for s in ch.seps]
        surfs = [s for ch in merged for s in ch.surfs]
        puncts = [s for ch in merged for s in ch.puncts]
        before = self._tables()[0][c0]
        a, b = start - before, start + removed - before
        seps[a:b] = [p[0] for p in new]
        surfs[a:b] = [p[1] for p in new]
        puncts[a:b] = [p[2] for p in new]
        if len(seps) <= 2 * CHUNK:
            rebuilt = [_Chunk(seps, surfs, puncts)] if seps else []
        else:
            rebuilt = _chunks_of(seps, surfs, puncts)
        self._chunks[c0:c1 + 1] = rebuilt
        if not self._chunks:
            self._chunks = [_Chunk([], [], [])]
        self._n += len(new) - removed
        self._stale()
