import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from editor.restore.passes.chunks import merge_owned, merge_weighted, plan_chunks


@given(n=st.integers(0, 600), size=st.integers(2, 150), data=st.data())
def test_owned_regions_tile_the_words_and_lie_inside_their_windows(n, size, data):
    overlap = data.draw(st.integers(0, size - 1))
    cut = data.draw(st.integers(0, overlap))
    plan = plan_chunks(n, size, overlap, cut)
    pos = 0
    for (s, e), (a, b) in zip(plan.windows, plan.owned):
        assert a == pos and s <= a <= b <= e and e - s <= size
        pos = b
    assert pos == n


def test_centre_merge_keeps_each_word_from_where_it_has_most_context():
    plan = plan_chunks(200, 100, 50)
    assert plan.windows == ((0, 100), (50, 150), (100, 200))
    assert plan.owned == ((0, 75), (75, 125), (125, 200))


@pytest.mark.parametrize("bad", [dict(size=0, overlap=0), dict(size=10, overlap=10), dict(size=10, overlap=4, cut=5)])
def test_bad_plans_raise(bad):
    with pytest.raises(ValueError):
        plan_chunks(50, **bad)


def test_merges_give_one_row_per_word():
    plan = plan_chunks(30, 12, 4)
    results = [np.full((e - s, 3), i, np.float32) for i, (s, e) in enumerate(plan.windows)]
    assert merge_owned(plan, results).shape == (30, 3)
    w = merge_weighted(plan, results)
    assert w.shape == (30, 3) and np.all(w[:4] == 0)


def test_weighted_merge_of_a_text_in_one_window_is_that_window():
    """A text shorter than a window (one window from its start to its end) merged with weights:
    its marginals as they are (this raised an IndexError when tuning on short dev talks)."""
    import numpy as np

    from editor.restore.passes.chunks import merge_weighted, plan_chunks

    plan = plan_chunks(5, 12, 4)
    r = np.random.default_rng(0).random((5, 28)).astype(np.float32)
    np.testing.assert_allclose(merge_weighted(plan, [r]), r, rtol=1e-6)
