"""Word and character vocabularies: words -> id arrays for the model."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

PAD, UNK = 0, 1


@dataclass
class Vocab:
    words: list[str]  # index 0 = <pad>, 1 = <unk>
    chars: list[str]  # index 0 = <pad>, 1 = <unk>
    max_word_len: int = 16
    _word_index: dict[str, int] = field(init=False, repr=False)
    _char_index: dict[str, int] = field(init=False, repr=False)
    _char_table: np.ndarray | None = field(init=False, repr=False, default=None)

    def __post_init__(self) -> None:
        if len(self.words) < 2 or len(self.chars) < 2:
            raise ValueError("a vocabulary needs at least <pad> and <unk>")
        self._word_index = {w: i for i, w in enumerate(self.words)}
        self._char_index = {c: i for i, c in enumerate(self.chars)}

    @classmethod
    def build(cls, counts: Counter[str], size: int, min_char_count: int = 50, max_word_len: int = 16) -> Vocab:
        words = ["<pad>", "<unk>"] + [w for w, _ in counts.most_common(size - 2)]
        cc: Counter[str] = Counter()
        for w, n in counts.items():
            for ch in w:
                cc[ch] += n
        chars = ["<pad>", "<unk>"] + sorted(c for c, n in cc.items() if n >= min_char_count)
        return cls(words, chars, max_word_len)

    def to_dict(self) -> dict[str, Any]:
        return {"words": self.words, "chars": self.chars, "max_word_len": self.max_word_len}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Vocab:
        return cls(list(d["words"]), list(d["chars"]), int(d["max_word_len"]))

    def __contains__(self, word: object) -> bool:
        """Whether `word` has its own id (is not <unk>)."""
        return word in self._word_index

    def word_id(self, word: str) -> int:
        return self._word_index.get(word, UNK)

    def char_ids(self, word: str) -> list[int]:
        """Characters of a word, clipped to max_word_len: its start and its end are kept."""
        C = self.max_word_len
        if len(word) > C:
            word = word[: C - 6] + word[-6:]
        ids = [self._char_index.get(ch, UNK) for ch in word]
        return ids + [PAD] * (C - len(ids))

    def encode(self, words: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """words -> word ids (N,) int64 and char ids (N, C) int64."""
        w = np.fromiter((self.word_id(x) for x in words), np.int64, len(words))
        if self._char_table is None:
            # characters of every known word, computed once: only unknown words are spelled per call
            self._char_table = np.asarray([self.char_ids(x) for x in self.words], np.int64)
        c = self._char_table[w]
        for i in np.nonzero(w == UNK)[0]:
            c[i] = self.char_ids(words[i])
        return w, c
