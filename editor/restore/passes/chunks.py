"""Overlapping chunks (Nguyen et al.): split a long word stream into windows of k words that
overlap, run them batched, and keep each word's result from where it had the most context.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np


@dataclass(frozen=True)
class ChunkPlan:
    """windows[i] = (start, end) of window i; owned[i] = (start, end) of the words whose result is
    taken from window i. Owned regions tile 0..n exactly."""

    n: int
    windows: tuple[tuple[int, int], ...]
    owned: tuple[tuple[int, int], ...]

    @cached_property
    def owner_starting(self) -> dict[int, int]:
        """Word index -> the window whose (non-empty) owned region starts there."""
        return {a: i for i, (a, b) in enumerate(self.owned) if a < b}

    @cached_property
    def _owned_starts(self) -> tuple[list[int], list[int]]:
        pairs = [(a, i) for i, (a, b) in enumerate(self.owned) if a < b]
        return [a for a, _i in pairs], [i for _a, i in pairs]

    def owner_of(self, word: int) -> int:
        """The window whose owned region holds word index `word`."""
        import bisect

        starts, windows = self._owned_starts
        return windows[bisect.bisect_right(starts, word) - 1]

    @cached_property
    def owner_ending(self) -> dict[int, int]:
        """Word index -> the window whose (non-empty) owned region ends just before it."""
        return {b: i for i, (a, b) in enumerate(self.owned) if a < b}


def plan_chunks(n: int, size: int = 120, overlap: int = 40, cut: int | None = None) -> ChunkPlan:
    """Windows of `size` words, consecutive ones sharing `overlap` words.

    `cut` is the paper's min_words_cut: how many of the shared words at the end of a window are
    dropped in favour of the next one; the default (overlap // 2) keeps every word from the
    window where it stands furthest from an edge.
    """
    if size <= 0 or not 0 <= overlap < size:
        raise ValueError(f"need size > 0 and 0 <= overlap < size, got size={size}, overlap={overlap}")
    if cut is None:
        cut = overlap // 2
    if not 0 <= cut <= overlap:
        raise ValueError(f"cut must lie in 0..overlap ({overlap}), got {cut}")
    if n <= 0:
        return ChunkPlan(0, (), ())
    stride = size - overlap
    windows = []
    s = 0
    while True:
        e = min(s + size, n)
        windows.append((s, e))
        if e >= n:
            break
        s += stride
    # the last window is pulled back to full size when possible, for context
    if len(windows) > 1:
        s, e = windows[-1]
        windows[-1] = (max(0, e - size), e)
    owned = []
    start = 0
    for i, (_s, e) in enumerate(windows):
        if i + 1 < len(windows):
            nxt = windows[i + 1][0]
            shared = e - nxt
            end = e - min(cut, shared) if shared > 0 else e
            end = max(end, start)
        else:
            end = n
        owned.append((start, end))
        start = end
    return ChunkPlan(n, tuple(windows), tuple(owned))


def merge_owned(plan: ChunkPlan, results: list[np.ndarray]) -> np.ndarray:
    """Concatenate each window's owned part: results[i] has shape (len(window i), K)."""
    parts = []
    for (s, _e), (a, b), r in zip(plan.windows, plan.owned, results):
        parts.append(r[a - s : b - s])
    return np.concatenate(parts, 0) if parts else np.zeros((0, 0), np.float32)


def merge_weighted(plan: ChunkPlan, results: list[np.ndarray]) -> np.ndarray:
    """Combine overlapping marginals, each weighted by the word's distance from its window's edge."""
    K = results[0].shape[1]
    acc = np.zeros((plan.n, K), np.float64)
    wsum = np.zeros((plan.n, 1), np.float64)
    for (s, e), r in zip(plan.windows, results):
        pos = np.arange(e - s)
        # a text's first and last windows count fully at the text's edges (arrays even where one
        # window holds the whole text)
        left = pos + 1 if s > 0 else np.full(e - s, e - s)
        right = (e - s - pos) if e < plan.n else np.full(e - s, e - s)
        w = np.minimum(left, right).astype(np.float64)
        acc[s:e] += r * w[:, None]
        wsum[s:e] += w[:, None]
    return (acc / np.maximum(wsum, 1e-12)).astype(np.float32)
