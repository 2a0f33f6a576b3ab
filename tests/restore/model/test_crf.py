"""The CRF proved by brute force: log Z, Viterbi and marginals against enumeration of every path."""

import itertools

import pytest
import torch

from editor.restore.model.crf import CRF

K = 3


def make(seed: int) -> CRF:
    torch.manual_seed(seed)
    crf = CRF(K)
    with torch.no_grad():
        crf.transitions.normal_()
        crf.start.normal_()
        crf.end.normal_()
    return crf


def path_score(crf: CRF, em: torch.Tensor, path: tuple[int, ...]) -> float:
    s = crf.start[path[0]] + em[0, path[0]]
    for t in range(1, len(path)):
        s = s + crf.transitions[path[t - 1], path[t]] + em[t, path[t]]
    return float(s + crf.end[path[-1]])


@torch.no_grad()
def brute(crf: CRF, em: torch.Tensor):
    """log Z, best path and marginals of one sequence em (T, K) by enumeration."""
    T = em.size(0)
    paths = list(itertools.product(range(K), repeat=T))
    scores = torch.tensor([path_score(crf, em, p) for p in paths], dtype=torch.float64)
    log_z = torch.logsumexp(scores, 0)
    best = paths[int(scores.argmax())]
    probs = torch.exp(scores - log_z)
    marg = torch.zeros(T, K, dtype=torch.float64)
    for p, pr in zip(paths, probs):
        for t, k in enumerate(p):
            marg[t, k] += pr
    return float(log_z), list(best), marg


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("lengths", [(4, 4), (4, 1), (2, 3, 4, 1)])
def test_crf_matches_enumeration(seed, lengths):
    crf = make(seed)
    B, T = len(lengths), max(lengths)
    em = torch.randn(B, T, K, generator=torch.Generator().manual_seed(seed + 100))
    mask = torch.tensor([[t < L for t in range(T)] for L in lengths])
    log_z = crf.log_partition(em, mask)
    paths = crf.decode(em, mask)
    marg = crf.marginals(em, mask)
    for b, L in enumerate(lengths):
        bz, bpath, bmarg = brute(crf, em[b, :L])
        assert log_z[b].item() == pytest.approx(bz, abs=1e-4)
        assert paths[b] == bpath
        assert torch.allclose(marg[b, :L].double(), bmarg, atol=1e-5)
        assert torch.all(marg[b, L:] == 0)


@torch.no_grad()
def test_log_likelihood_is_normalised():
    crf = make(7)
    T = 3
    em = torch.randn(1, T, K)
    total = 0.0
    for p in itertools.product(range(K), repeat=T):
        total += float(torch.exp(crf.log_likelihood(em, torch.tensor([p]))))
    assert total == pytest.approx(1.0, abs=1e-5)


def test_marginals_equal_gradient_of_log_z():
    crf = make(3)
    em = torch.randn(2, 4, K, requires_grad=True)
    mask = torch.tensor([[1, 1, 1, 1], [1, 1, 0, 0]], dtype=torch.bool)
    (grad,) = torch.autograd.grad(crf.log_partition(em, mask).sum(), em)
    assert torch.allclose(grad, crf.marginals(em, mask), atol=1e-5)


@pytest.mark.parametrize(
    "shape, mask, message",
    [((2, 3, 4), None, "emissions must be"), ((2, 3, K), torch.zeros(2, 3, dtype=torch.bool), "first time step"),
     ((2, 3, K), torch.ones(2, 3, dtype=torch.long), "torch.bool"), ((2, 0, K), None, "at least one")],
)
def test_bad_input_raises_value_error(shape, mask, message):
    with pytest.raises(ValueError, match=message):
        make(0).log_partition(torch.randn(*shape), mask)


def test_marginals_of_a_padded_batch_equal_each_row_alone_even_with_large_scores():
    # long padding after a short row, with large emissions: the forward sums past the row's end
    # grow far beyond float32's exp range; that must give zeros there, never inf * 0 = nan
    torch.manual_seed(3)
    crf = CRF(5)
    with torch.no_grad():
        crf.start.normal_()
        crf.end.normal_()
    em = torch.randn(3, 150, 5) * 10
    lengths = [150, 1, 37]
    mask = torch.zeros(3, 150, dtype=torch.bool)
    for b, n in enumerate(lengths):
        mask[b, :n] = True
    with torch.no_grad():
        batch = crf.marginals(em, mask)
        assert not batch.isnan().any()
        assert (batch[~mask] == 0).all()
        for b, n in enumerate(lengths):
            alone = crf.marginals(em[b : b + 1, :n])
            assert torch.allclose(batch[b, :n], alone[0], atol=1e-5)
