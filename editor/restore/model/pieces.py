"""Words -> WordPiece sub-words for the encoder family, and windows of words -> encoder inputs.

The tokenizer is the encoder's own `tokenizer.json`, read by the `tokenizers` library (the
reference implementation of WordPiece, in Rust). Each distinct word is cut once and kept; a word
keeps at most `max_pieces` sub-words (its first ones), so a window of T words never needs more
than T * max_pieces + 2 positions.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from tokenizers import Tokenizer


class Pieces:
    """A word's sub-word ids, cut by the encoder's tokenizer and cached per distinct word."""

    def __init__(self, tokenizer: Tokenizer, max_pieces: int) -> None:
        # a word at a time: the file's own padding and truncation settings (for sentences) are off
        tokenizer.no_padding()
        tokenizer.no_truncation()
        self.tokenizer = tokenizer
        self.max_pieces = max_pieces
        ids = {t: tokenizer.token_to_id(t) for t in ("[CLS]", "[SEP]", "[UNK]", "[PAD]")}
        missing = [t for t, i in ids.items() if i is None]
        if missing:
            raise ValueError(f"the tokenizer has no {', '.join(missing)} token")
        known = {t: i for t, i in ids.items() if i is not None}
        self.cls, self.sep, self.unk = known["[CLS]"], known["[SEP]"], known["[UNK]"]
        if known["[PAD]"] != 0:
            raise ValueError("the tokenizer's [PAD] token must be id 0")
        self._index: dict[str, int] = {}
        self._table = np.zeros((0, max_pieces), np.int32)
        self._lens = np.zeros(0, np.int8)

    @classmethod
    def from_file(cls, path: str | Path, max_pieces: int) -> Pieces:
        from tokenizers import Tokenizer

        return cls(Tokenizer.from_file(str(path)), max_pieces)

    @property
    def vocab_size(self) -> int:
        return int(self.tokenizer.get_vocab_size())

    def table(self, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """(N, max_pieces) int32 sub-word ids and (N,) int8 counts (1..max_pieces) for `words`."""
        idx = self.indices(words)
        return self._table[idx], self._lens[idx]

    def indices(self, words: Sequence[str]) -> np.ndarray:
        """Each word's row in the cache (cutting the words not seen before)."""
        index = self._index
        new = [w for w in dict.fromkeys(words) if w not in index]
        if new:
            enc = self.tokenizer.encode_batch(new, add_special_tokens=False)
            k = self.max_pieces
            rows = np.zeros((len(new), k), np.int32)
            lens = np.zeros(len(new), np.int8)
            for j, e in enumerate(enc):
                ids = e.ids[:k] or [self.unk]
                rows[j, : len(ids)] = ids
                lens[j] = len(ids)
            base = len(self._lens)
            self._table = np.concatenate([self._table, rows])
            self._lens = np.concatenate([self._lens, lens])
            for j, w in enumerate(new):
                index[w] = base + j
        return np.fromiter((index[w] for w in words), np.int64, len(words))


def assemble(table: np.ndarray, lens: np.ndarray, cls: int, sep: int) -> tuple[np.ndarray, np.ndarray]:
    """Windows of words as sub-word rows -> encoder inputs.

    table (B, T, k) sub-word ids, lens (B, T) how many of them each word has (0: a padding word)
    -> pieces (B, S) int64 ([CLS] words [SEP], 0-padded) and firsts (B, T) int64, the position
    of each word's first sub-word (a padding word points at [SEP] or padding: it is masked)."""
    B, T, k = table.shape
    lens = lens.astype(np.int64)
    ends = np.cumsum(lens, axis=1)
    firsts = 1 + ends - lens
    total = ends[:, -1] + 2 if T else np.full(B, 2, np.int64)
    S = int(total.max()) if B else 2
    out = np.zeros((B, S), np.int64)
    out[:, 0] = cls
    valid = np.arange(k)[None, None, :] < lens[:, :, None]
    pos = firsts[:, :, None] + np.arange(k)[None, None, :]
    rows = np.broadcast_to(np.arange(B)[:, None, None], valid.shape)
    out[rows[valid], pos[valid]] = table[valid]
    out[np.arange(B), total - 1] = sep
    return out, np.minimum(firsts, S - 1)
