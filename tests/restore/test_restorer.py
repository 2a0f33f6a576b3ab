import subprocess
import sys
import threading

import pytest

from editor.restore.inference import Cancelled, Restorer

WORDS = ("so what is the iphone for i asked and you said it is okay yes " * 12).split()


@pytest.fixture(scope="module")
def restorer(tiny_model_dir):
    return Restorer.load(str(tiny_model_dir), device="cpu")


def test_every_word_gets_a_full_distribution(restorer):
    preds = restorer.restore(WORDS)
    assert len(preds) == len(WORDS)
    for w, p in zip(WORDS, preds):
        assert sum(p.punct_probs.values()) == pytest.approx(1.0, abs=1e-4)
        assert sum(p.case_probs.values()) == pytest.approx(1.0, abs=1e-4)
        assert p.punct in p.punct_probs and p.case in p.case_probs
        assert p.text.lower() == w
        if w != "iphone":
            assert p.case_probs["mixed"] == 0.0  # no mixed form known for this word


def test_chunks_arrive_once_each_and_the_priority_range_comes_first(restorer):
    seen = []
    restorer.restore(WORDS, on_chunk=lambda a, b, preds: seen.append((a, b, len(preds))), priority=(150, 160))
    assert all(b - a == n for a, b, n in seen)
    covered = sorted((a, b) for a, b, _ in seen)
    assert covered[0][0] == 0 and covered[-1][1] == len(WORDS)
    assert all(x[1] == y[0] for x, y in zip(covered, covered[1:]))
    assert seen[0][0] < 160 and seen[0][1] > 150


def test_chunked_result_matches_the_merged_result(restorer):
    chunks = {}
    full = restorer.restore(WORDS, on_chunk=lambda a, b, preds: chunks.update({a: preds}))
    assert [p for a in sorted(chunks) for p in chunks[a]] == full


def test_cancel_stops_with_cancelled(restorer):
    stop = threading.Event()
    stop.set()
    with pytest.raises(Cancelled):
        restorer.restore(WORDS, cancel=stop)


def test_empty_input(restorer):
    assert restorer.restore([]) == []


def test_importing_editor_restore_does_not_load_torch():
    code = "import editor.restore, editor.restore.suggest, sys; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_separate_heads_give_a_joint_distribution():
    import torch

    from editor.restore.model import BiLSTMCRF, ModelConfig

    torch.manual_seed(0)
    m = BiLSTMCRF(ModelConfig(vocab_size=10, n_chars=5, word_dim=4, char_dim=2, char_filters=3, hidden=4, heads="separate"))
    words, chars = torch.randint(2, 10, (2, 5)), torch.randint(1, 5, (2, 5, 16))
    mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]], dtype=torch.bool)
    j = m.joint_marginals(words, chars, mask)
    assert j.shape == (2, 5, 28)
    assert torch.allclose(j.sum(2), mask.float(), atol=1e-5)
    loss = m.loss(words, chars, torch.randint(0, 28, (2, 5)), mask)
    loss.backward()
    assert loss.item() > 0


def test_the_mark_decision_weighs_whole_groups_then_picks_the_likeliest_mark():
    import numpy as np

    from editor.restore.inference import decide_marks, decision_scales
    from editor.restore.labels import PUNCT_MARKS

    # columns: none , . ? ! : ;
    p = np.array([
        [0.45, 0.00, 0.30, 0.00, 0.25, 0.00, 0.00],  # a sentence end (0.55) though "no mark" is the top mark
        [0.40, 0.20, 0.00, 0.00, 0.00, 0.25, 0.15],  # comma-like 0.45 beats "no mark"; ":" is its likeliest mark
        [0.60, 0.10, 0.10, 0.20, 0.00, 0.00, 0.00],
    ])
    plain = decide_marks(p, decision_scales({}))
    assert [PUNCT_MARKS[i] for i in plain] == [".", ":", ""]
    # weights come from class_scales; an older config's none_scale weighs "no mark" alone
    assert [PUNCT_MARKS[i] for i in decide_marks(p, decision_scales({"none_scale": 0.3}))] == [".", ":", "?"]
    heavy_none = decision_scales({"class_scales": {"O": 1.0, "COMMA": 0.5, "PERIOD": 0.5, "QUESTION": 1.0}})
    assert list(heavy_none) == [1.0, 0.5, 0.5, 1.0]
    assert [PUNCT_MARKS[i] for i in decide_marks(p, heavy_none)] == ["", "", ""]
