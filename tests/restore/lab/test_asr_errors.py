"""Simulated recognition errors: training windows and the noisy copy of a reference for `stet eval`."""

from collections import Counter

import numpy as np
import pytest

from editor.restore.model.labels import ASR_ERRORS
from editor.restore.lab.asr_noise import (
    RecognizerNoise,
    batch_with_asr_errors,
    recognizer_errors,
    simulate_asr_errors,
)
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


# ---- recogniser-like errors (--asr-noise recognizer)


FORMS = ["their", "there", "they're", "cat", "cut", "into", "in", "to", "the", "a", "elephant", "rare"]
PRON = {"their": [["DH", "EH1", "R"]], "there": [["DH", "EH1", "R"]], "they're": [["DH", "EH1", "R"]],
        "cat": [["K", "AE1", "T"]], "cut": [["K", "AH1", "T"]], "into": [["IH0", "N", "T", "UW1"]],
        "in": [["IH0", "N"]], "to": [["T", "UW1"], ["T", "AH0"]], "the": [["DH", "AH0"]], "a": [["AH0"]],
        "elephant": [["EH1", "L", "AH0", "F", "AH0", "N", "T"]], "rare": [["R", "EH1", "R"]]}
COUNTS = Counter({f: 100 for f in FORMS} | {"rare": 1, "they're": 50})
NOISE = RecognizerNoise(FORMS, COUNTS, min_count=20, part_count=50, pronunciations=PRON)
IDX = {f: i for i, f in enumerate(FORMS)}
NONE = {"substitute": 0.0, "sound_alike": 0.0, "delete_short": 0.0, "delete": 0.0, "insert": 0.0, "split": 0.0,
        "merge": 0.0}


def _ids(*words):
    return np.asarray([IDX[w] for w in words])


def _noisy(words, punct, case, seed=0, **rates):
    return recognizer_errors(_ids(*words), np.asarray(punct), np.asarray(case), _ids("elephant"),
                             np.random.default_rng(seed), NOISE, {**NONE, **rates})


def test_sound_alikes_are_homophones_first_then_one_phoneme_apart_and_only_frequent_forms():
    names = lambda w: [FORMS[i] for i in NOISE.sounds_like(IDX[w])]  # noqa: E731
    assert names("their") == ["there", "they're"]  # the same sounds, the more frequent first
    assert names("cat") == ["cut"]  # one vowel apart
    assert "rare" not in names("their")  # seen once: not in the recogniser's vocabulary
    assert names("elephant") == []


def test_a_compound_splits_only_where_it_sounds_as_its_parts():
    assert NOISE.split_to == {IDX["into"]: (IDX["in"], IDX["to"])}
    assert NOISE.merge_to == {(IDX["in"], IDX["to"]): IDX["into"]}


def test_no_errors_keeps_the_window_of_recogniser_like_errors():
    t, p, c = _noisy(["the", "cat", "into", "their"], [0, 1, 0, 2], [1, 0, 0, 0])
    assert t.tolist() == _ids("the", "cat", "into", "their").tolist()
    assert p.tolist() == [0, 1, 0, 2] and c.tolist() == [1, 0, 0, 0]


def test_a_substitute_sounds_alike_and_keeps_the_labels():
    t, p, c = _noisy(["their", "cat", "elephant"], [1, 0, 2], [1, 0, 0], substitute=1.0, sound_alike=1.0)
    assert FORMS[t[0]] in ("there", "they're") and FORMS[t[1]] == "cut"
    assert FORMS[t[2]] == "elephant"  # no sound-alike: a word of the pool (here the only one)
    assert p.tolist() == [1, 0, 2] and c.tolist() == [1, 0, 0]


def test_short_words_are_the_ones_dropped_and_hand_their_mark_back():
    t, p, c = _noisy(["elephant", "the", "a", "elephant", "cat"], [0, 0, 1, 0, 2], [1, 0, 0, 0, 0],
                     delete_short=1.0)
    assert [FORMS[i] for i in t] == ["elephant", "elephant"]
    assert p.tolist() == [1, 2] and c.tolist() == [1, 0]


def test_a_split_keeps_the_case_first_and_the_mark_last_and_a_merge_the_reverse():
    t, p, c = _noisy(["into", "the"], [3, 0], [1, 0], split=1.0)
    assert [FORMS[i] for i in t] == ["in", "to", "the"] and p.tolist() == [0, 3, 0] and c.tolist() == [1, 0, 0]
    t, p, c = _noisy(["in", "to", "cat"], [0, 1, 0], [2, 0, 0], merge=1.0)
    assert [FORMS[i] for i in t] == ["into", "cat"] and p.tolist() == [1, 0] and c.tolist() == [2, 0]
    t, p, c = _noisy(["in", "to"], [1, 0], [0, 0], merge=1.0)  # a mark between them: a pause, no merge
    assert [FORMS[i] for i in t] == ["in", "to"]


def test_a_batch_of_recogniser_like_errors_changes_about_a_tenth_of_the_words():
    rng = np.random.default_rng(4)
    forms = rng.integers(0, len(FORMS), (200, 100))
    labels = rng.integers(0, 28, forms.shape)
    f, lab = batch_with_asr_errors(forms, labels, 1.0, rng, 4, NOISE)
    assert f.shape == lab.shape and 85 <= f.shape[1] <= 100
    changed = np.mean([(row[:80] != orig[:80]).any() for row, orig in zip(f, forms)])
    assert changed > 0.9
    assert 0 < np.mean(f != forms[:, : f.shape[1]]) < 0.9


def test_the_shipped_pronouncing_dictionary_finds_real_sound_alikes():
    forms = ["their", "there", "affect", "effect", "into", "in", "to", "someone", "some", "one"]
    noise = RecognizerNoise(forms, Counter({f: 1000 for f in forms}))
    assert forms.index("there") in noise.sounds_like(0).tolist()
    assert forms.index("effect") in noise.sounds_like(forms.index("affect")).tolist()
    assert noise.split_to[forms.index("someone")] == (forms.index("some"), forms.index("one"))


def test_the_recogniser_like_noisy_reference_uses_sound_alikes_of_its_own_words():
    words = ("their there they're into in to the a cat cut " * 300).split()
    gold = ["PERIOD" if i % 10 == 9 else "O" for i in range(len(words))]
    w1, g1 = with_asr_errors(words, gold, seed=0, kind="recognizer")
    assert (w1, g1) == with_asr_errors(words, gold, seed=0, kind="recognizer")
    assert len(w1) == len(g1) and set(w1) <= set(words)
    assert 0.97 * gold.count("PERIOD") <= g1.count("PERIOD") <= gold.count("PERIOD")
    assert 0.8 * len(words) < len(w1) < 1.05 * len(words)
    with pytest.raises(ValueError, match="unknown kind"):
        with_asr_errors(words, gold, kind="loud")
