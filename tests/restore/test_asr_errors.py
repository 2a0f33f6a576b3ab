"""Simulated recognition errors: training windows and the noisy copy of a reference for `stet eval`."""

import numpy as np
import pytest

from editor.restore.lab.data import ASR_ERRORS, batch_with_asr_errors, simulate_asr_errors
from editor.restore.lab.scoring import with_asr_errors

TOKENS = np.arange(10, 15)
PUNCT = np.array([0, 1, 0, 2, 0])
CASE = np.array([1, 0, 0, 0, 2])
POOL = np.array([99])


def _run(**rates):
    return simulate_asr_errors(TOKENS, PUNCT, CASE, POOL, np.random.default_rng(0),
                               {"substitute": 0.0, "delete": 0.0, "insert": 0.0, **rates})


def test_no_errors_keeps_the_window():
    t, p, c = _run()
    assert t.tolist() == TOKENS.tolist() and p.tolist() == PUNCT.tolist() and c.tolist() == CASE.tolist()


def test_a_dropped_word_hands_its_mark_to_the_word_before():
    t, p, c = _run(delete=1.0)  # every word but the first is dropped
    assert t.tolist() == [10] and p.tolist() == [2] and c.tolist() == [1]


def test_a_substituted_word_keeps_its_labels():
    t, p, c = _run(substitute=1.0)
    assert t.tolist() == [99] * 5 and p.tolist() == PUNCT.tolist() and c.tolist() == CASE.tolist()


def test_an_inserted_word_has_no_mark_and_the_marks_stay_on_the_recognised_words():
    t, p, c = _run(insert=1.0)
    assert t.tolist() == [10, 99, 11, 99, 12, 99, 13, 99, 14, 99]
    assert p.tolist() == [0, 0, 1, 0, 0, 0, 2, 0, 0, 0]
    assert c.tolist() == [1, 0, 0, 0, 0, 0, 0, 0, 2, 0]


def test_the_input_arrays_are_not_changed():
    before = PUNCT.copy()
    _run(delete=0.5, substitute=0.5)
    assert PUNCT.tolist() == before.tolist()


def test_a_batch_gets_errors_in_the_given_share_of_windows_and_one_length():
    rng = np.random.default_rng(1)
    forms = np.arange(40 * 100).reshape(40, 100)
    labels = rng.integers(0, 28, forms.shape)
    assert batch_with_asr_errors(forms, labels, 0.0, rng, 4)[0] is forms
    f, lab = batch_with_asr_errors(forms, labels, 0.5, rng, 4)
    assert f.shape == lab.shape and 90 <= f.shape[1] <= 100
    clean = [row for row in range(40) if f[row].tolist() == forms[row, : f.shape[1]].tolist()]
    assert 10 <= len(clean) <= 30  # about half the windows untouched
    for row in clean:
        assert lab[row].tolist() == labels[row, : f.shape[1]].tolist()


def test_the_noisy_reference_is_reproducible_and_keeps_nearly_every_mark():
    rng = np.random.default_rng(2)
    words = [f"w{i}" for i in rng.integers(0, 500, 20000)]
    gold = rng.choice(["O", "O", "O", "O", "O", "COMMA", "PERIOD", "QUESTION"], 20000).tolist()
    w1, g1 = with_asr_errors(words, gold, seed=0)
    assert (w1, g1) == with_asr_errors(words, gold, seed=0)
    assert with_asr_errors(words, gold, seed=1) != (w1, g1)
    assert len(w1) == len(g1)
    expected_len = 20000 * (1 - ASR_ERRORS["delete"]) * (1 + ASR_ERRORS["insert"])
    assert len(w1) == pytest.approx(expected_len, rel=0.02)
    n_marks = sum(g != "O" for g in gold)
    # a dropped word's mark survives unless the word before had one
    assert 0.97 * n_marks <= sum(g != "O" for g in g1) <= n_marks
    changed = sum(a != b for a, b in zip(w1, words))
    assert changed > 0.05 * len(w1)
