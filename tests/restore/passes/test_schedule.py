"""The streaming schedule without a model: batch order, and every word reported once, final,
whatever order the windows run in."""

import numpy as np
import pytest

from editor.restore.passes.chunks import merge_owned, plan_chunks
from editor.restore.passes.schedule import FIRST_BATCH, batches, final_regions


def test_batches_hold_every_window_once_the_priority_ones_first():
    plan = plan_chunks(2000, 120, 16, None)
    plain = batches(plan, per_batch=5)
    assert plain[0] == list(range(FIRST_BATCH))
    assert sorted(i for b in plain for i in b) == list(range(len(plan.windows)))
    assert all(len(b) <= 5 for b in plain[1:])
    wanted = batches(plan, per_batch=5, priority=(1000, 1010))
    assert all(plan.owned[i][0] < 1010 and plan.owned[i][1] > 1000 for i in wanted[0])
    assert sorted(i for b in wanted for i in b) == list(range(len(plan.windows)))


@pytest.mark.parametrize("seed", range(5))
def test_every_word_is_reported_once_with_the_rows_of_the_windows_that_own_it(seed):
    rng = np.random.default_rng(seed)
    n = 700
    plan = plan_chunks(n, 120, 16, None)
    rows = [rng.random((e - s, 3)) for s, e in plan.windows]
    whole = merge_owned(plan, rows)
    order = list(rng.permutation(len(plan.windows)))
    results: list = [None] * len(plan.windows)
    held: set[int] = set()
    reported = np.zeros(n, int)
    while order:
        idx = [int(i) for i in order[: rng.integers(1, 4)]]
        del order[: len(idx)]
        for i in idx:
            results[i] = rows[i]
        for start, end, lo, hi, joint in final_regions(plan, results, idx, held):
            assert lo <= start < end <= hi and hi - lo == len(joint)
            assert start - lo <= 2 and hi - end <= 2  # at most the neighbours a decision reads
            np.testing.assert_array_equal(joint, whole[lo:hi])
            reported[start:end] += 1
    assert (reported == 1).all() and not held
