"""The mark rescorer (`editor.restore.lab.rescore`): a logistic regression on the marks proposed,
applied with numpy from the model's decision config, moving only the probability of the mark
proposed (never the decision), and read by `Restorer.predictions`."""

from __future__ import annotations

import json

import numpy as np
import pytest

from editor.restore.model.labels import PUNCT_MARKS
from editor.restore.passes.inference import Restorer
from editor.restore.lab.rescore import FEATURES, GroupWeights, MarkRescorer, attach, group_of, mark_features

COMMA, PERIOD = PUNCT_MARKS.index(","), PUNCT_MARKS.index(".")


def rows(*ps):
    return np.array(ps, float)


def weights(bias=0.0, **w):
    return GroupWeights(bias, tuple(float(w.get(f, 0.0)) for f in FEATURES), {}, {})


WORDS = ["we", "went", "home", "then", "we", "ate"]
PUNCT = rows([.9, .1, 0, 0, 0, 0, 0], [.2, .7, .1, 0, 0, 0, 0], [.1, .3, .55, .05, 0, 0, 0],
             [.95, .05, 0, 0, 0, 0, 0], [.9, .1, 0, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0, 0])
CASE = np.tile([.9, .1, 0, 0], (6, 1))
P_IDX = np.array([0, COMMA, PERIOD, 0, 0, PERIOD])


def test_features_are_read_for_each_mark_proposed_but_the_texts_last():
    r, X = mark_features(WORDS, PUNCT, CASE, P_IDX)
    assert r.tolist() == [1, 2] and X.shape == (2, len(FEATURES))
    f = dict(zip(FEATURES, X[1]))
    assert f["logit"] == pytest.approx(np.log(.55 / .45))
    assert f["margin"] == pytest.approx(np.log(.55 / .3))  # against the comma, the next likeliest
    assert f["gap_before"] == pytest.approx(np.log(2)) and f["gap_after"] == pytest.approx(np.log(4))  # the last's
    assert dict(zip(FEATURES, X[0]))["gap_before"] == 3.0  # no mark proposed before it
    assert list(group_of(P_IDX[r])) == ["comma", "end"]


def test_a_rescored_mark_keeps_the_decision_and_the_others_proportions():
    # a rescorer that holds every sentence end 90 % sure, whatever the marginal said
    sure = MarkRescorer({"end": weights(bias=float(np.log(9)))})
    out = sure.apply(WORDS, PUNCT, CASE, P_IDX)
    assert out[2, PERIOD] == pytest.approx(0.9)
    assert out[2].sum() == pytest.approx(1.0)
    assert out[2, 1] / out[2, 0] == pytest.approx(.3 / .1)  # the others keep their proportions
    assert (out[[0, 1, 3, 4, 5]] == PUNCT[[0, 1, 3, 4, 5]]).all()  # commas have no weights: as they were


def test_a_lowered_proposal_stays_the_likeliest_value_of_its_row():
    # the comma at 70 % (no mark 20 %) lowered to 1 %: it stays as likely as no mark (a suggestion
    # is made only where its value beats the text as it stands)
    doubt = MarkRescorer({"comma": weights(bias=-float(np.log(99)))})
    out = doubt.apply(WORDS, PUNCT, CASE, P_IDX)
    assert out[1, COMMA] == pytest.approx(out[1, 0]) and out[1, COMMA] > out[1, PERIOD]
    assert out[1].sum() == pytest.approx(1.0)


def test_the_weights_read_the_features():
    # the logit's weight alone at 2: a 70 % comma shows at 0.7^2 / (0.7^2 + 0.3^2)
    sharper = MarkRescorer({"comma": weights(logit=2.0)})
    out = sharper.apply(WORDS, PUNCT, CASE, P_IDX)
    assert out[1, COMMA] == pytest.approx(.49 / (.49 + .09))
    g = GroupWeights(0.0, tuple(0.0 for _ in FEATURES), {"then": 2.0}, {"went": -1.0})
    p = g.score(np.zeros((2, len(FEATURES))), ["then", "so"], ["went", "home"])
    assert p[0] == pytest.approx(1 / (1 + np.exp(-1.0))) and p[1] == pytest.approx(0.5)


def test_the_config_round_trips_and_a_bad_one_is_refused():
    r = MarkRescorer({"end": GroupWeights(0.5, tuple(range(len(FEATURES))), {"and": -1.0}, {"so": 0.5})})
    assert MarkRescorer.from_config(json.loads(json.dumps(r.to_config()))) == r
    with pytest.raises(ValueError, match="lack"):
        MarkRescorer.from_config({"groups": {"end": {"bias": 0, "weights": {"logit": 1.0}}}})
    with pytest.raises(ValueError, match="unknown groups"):
        MarkRescorer.from_config({"groups": {"dash": r.to_config()["groups"]["end"]}})


def test_attach_runs_a_restorers_decisions_through_the_rescorer(tiny_model_dir):
    words = ("so what is the iphone for i asked and you said it is okay yes " * 4).split()
    restorer = Restorer.load(str(tiny_model_dir), device="cpu")
    before = restorer.restore(words)
    every = {g: weights(bias=float(np.log(3))) for g in ("comma", "end", "question")}  # each proposal 75 %
    attach(restorer, MarkRescorer(every))
    after = restorer.restore(words)
    attach(restorer, None)
    assert restorer.restore(words) == before  # detached: as it was
    marked = [i for i, p in enumerate(before[:-1]) if p.punct in (",", ".", "?", "!")]
    assert marked, "the tiny model proposes no mark: the test shows nothing"
    at_75 = 0
    for i, (b, a) in enumerate(zip(before, after)):
        assert (a.punct, a.text) == (b.punct, b.text)  # no decision changed
        if i in marked:
            p = a.punct_probs[a.punct]
            at_75 += p == pytest.approx(0.75, abs=1e-6)
            # else held up to the likeliest other value, which it was above before
            assert p == pytest.approx(0.75, abs=1e-6) or \
                p == pytest.approx(max(v for k, v in a.punct_probs.items() if k != a.punct))
        else:
            assert a.punct_probs == pytest.approx(b.punct_probs)
    assert at_75
