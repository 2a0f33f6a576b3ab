"""Fitting the mark rescorer (`editor.restore.lab.rescore_fit`): on made-up proposals where a word
after them tells right from wrong, and the proposals of a small model on a reference text."""

from __future__ import annotations

import numpy as np
import pytest

from editor.restore.lab import rescore_fit as rf
from editor.restore.model.labels import PUNCT_MARKS, labelled_words
from editor.restore.passes.inference import Restorer
from editor.restore.lab.rescore import FEATURES

pytest.importorskip("sklearn")


def made_up(n: int, seed: int) -> rf.Samples:
    """Sentence ends shown at their calibrated probability, but wrong wherever "and" follows."""
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.3, 0.99, n)
    nxt = rng.choice(["and", "the", "we", "so"], n).tolist()
    right = (rng.uniform(size=n) < p) & (np.array(nxt) != "and")
    X = np.zeros((n, len(FEATURES)))
    X[:, 0] = np.log(p / (1 - p))
    return rf.Samples(X, nxt, ["x"] * n, np.array(["end"] * n, dtype=object), p, right, np.arange(n) % 2)


def test_a_fit_learns_what_the_calibration_ignores_and_is_measured_on_the_other_half():
    samples = made_up(4000, 0)
    rescorer, report = rf.measure(samples, "even")
    assert report["reported_on"] == "odd talks"
    w = rescorer.groups["end"]
    assert w.next_words["and"] < -2 < 0 < w.weights[0]  # "and" after it: wrong
    assert report["end"]["log_loss_after"] < report["end"]["log_loss_before"] - 0.05
    assert report["end"]["after"]["ece"] < report["end"]["before"]["ece"]
    assert "comma" not in rescorer.groups  # no commas proposed: nothing to fit, left as it is


def test_the_reliability_table_counts_each_band():
    table = rf.reliability(np.array([0.95, 0.92, 0.55, 0.1]), np.array([True, False, True, False]))
    assert table["bands"]["90-100 %"] == [2, 0.935, 0.5]
    assert table["bands"]["50-60 %"] == [1, 0.55, 1.0]
    assert table["proposals"] == 4 and table["ece"] == pytest.approx((2 * 0.435 + 0.45 + 0.1) / 4, abs=1e-4)


def test_collected_proposals_are_the_marks_the_restorer_proposes(tiny_model_dir):
    restorer = Restorer.load(str(tiny_model_dir), device="cpu")
    talk = labelled_words("So what is the iPhone for? I asked, and you said it is okay. Yes. " * 3)
    samples = rf.collect(restorer, [(talk, [0])])
    preds = restorer.restore([w.word for w in talk])
    marked = [i for i, p in enumerate(preds[:-1]) if p.punct]
    assert marked, "the tiny model proposes no mark here: the test shows nothing"
    assert len(samples.p) == len(marked) and samples.X.shape == (len(marked), len(FEATURES))
    assert samples.right.tolist() == [talk[i].punct == preds[i].punct for i in marked]
    assert samples.p.tolist() == pytest.approx([preds[i].punct_probs[preds[i].punct] for i in marked])
    assert set(samples.group) <= {"comma", "end", "question", ""}
    assert all(preds[i].punct in PUNCT_MARKS for i in marked)
