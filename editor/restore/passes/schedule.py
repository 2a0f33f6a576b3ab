"""The order windows run in, and which words are final after each batch: the streaming schedule
of `Restorer.restore`. numpy alone, so it is tested without torch or a model."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from editor.restore.passes.chunks import ChunkPlan

#: Windows in the first batch when no priority is given: a small batch gives the view something to
#: show at once.
FIRST_BATCH = 4


def batches(plan: ChunkPlan, per_batch: int, priority: tuple[int, int] | None = None) -> list[list[int]]:
    """The window indices of the plan in batches: first the windows owning words of `priority`
    (start, end) (or the first FIRST_BATCH windows), then the rest in order, `per_batch` at a time."""
    order = list(range(len(plan.windows)))
    first = order[:FIRST_BATCH]
    if priority is not None:
        a, b = max(0, int(priority[0])), min(plan.n, int(priority[1]))
        first = [i for i in order if plan.owned[i][0] < b and plan.owned[i][1] > a] or first
    chosen = set(first)
    rest = [i for i in order if i not in chosen]
    return [first] + [rest[i : i + per_batch] for i in range(0, len(rest), per_batch)]


def final_regions(plan: ChunkPlan, results: Sequence[np.ndarray | None], idx: list[int],
                  held: set[int]) -> Iterator[tuple[int, int, int, int, np.ndarray]]:
    """The regions that the windows `idx` (just run; their rows in `results`) make final, as
    (start, end, lo, hi, joint): words start..end are reported, decided from `joint`, the joint
    marginals of words lo..hi (the reported words and the neighbours their decision reads).
    Adjacent regions are joined so that the predictions of a whole batch are made in one
    vectorised pass.

    Mark and case are decided together (decide_jointly): a word's case reads the mark before it,
    and a word's mark the case of the word after it. So a region's first word needs the row of
    the word before it, and its last word the row of the word after it, each from the window
    that owns that word. Where that window has not run yet, the word is held back (added to
    `held`, which holds words either side of a region boundary) and reported with the
    neighbouring region when it runs, so every word is reported once, final, and the result does
    not depend on the order the windows run in."""

    def row(w: int) -> np.ndarray | None:
        """The joint marginals of word `w` from the window that owns it (None: not run yet)."""
        k = plan.owner_of(w)
        r = results[k]
        if r is None:
            return None
        s = plan.windows[k][0]
        return r[w - s : w - s + 1]

    def known(w: int) -> np.ndarray:
        """The row of a word whose window has run (the neighbour of a word whose window has)."""
        r = row(w)
        assert r is not None, f"word {w}: its window has not run"
        return r

    def owned(i: int) -> np.ndarray:
        r = results[i]
        assert r is not None, f"window {i} has not run"
        return r[plan.owned[i][0] - plan.windows[i][0] : plan.owned[i][1] - plan.windows[i][0]]

    runs: list[list[int]] = []
    for i in sorted(i for i in idx if plan.owned[i][0] < plan.owned[i][1]):
        if runs and plan.owned[runs[-1][-1]][1] == plan.owned[i][0]:
            runs[-1].append(i)
        else:
            runs.append([i])
    n = plan.n
    for run in runs:
        a, b = plan.owned[run[0]][0], plan.owned[run[-1]][1]
        before: list[np.ndarray] = []
        after: list[np.ndarray] = []
        start, end = a, b  # the words reported
        if a > 0:
            left = row(a - 1)
            if left is None:
                held.add(a)
                start = a + 1
            elif a - 1 in held:  # the word before waited for this region: report it too
                held.discard(a - 1)
                start = a - 1
                before = [left] if a < 2 else [known(a - 2), left]
            else:
                before = [left]
        if b < n:
            right = row(b)
            if right is None:
                held.add(b - 1)
                end = b - 1
            elif b in held:  # the next region's first word waited for this one's last
                held.discard(b)
                end = b + 1
                after = [right] if b + 1 >= n else [right, known(b + 1)]
            else:
                after = [right]
        if start >= end:
            continue
        lo, hi = a - len(before), b + len(after)
        yield start, end, lo, hi, np.concatenate(before + [owned(i) for i in run] + after)
