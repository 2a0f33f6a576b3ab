import numpy as np
import pytest

from editor.restore.lab.evaluate import calibration, case_errors, case_scores, high_confidence, punct_scores, sentence_accuracy


def test_punct_scores_count_substitutions_deletions_and_insertions():
    gold = ["O", "COMMA", "O", "PERIOD", "O", "QUESTION"]
    pred = ["COMMA", "COMMA", "O", "QUESTION", "O", "O"]
    r = punct_scores(gold, pred)
    assert r["COMMA"]["precision"] == pytest.approx(50.0) and r["COMMA"]["recall"] == pytest.approx(100.0)
    assert r["overall"]["precision"] == pytest.approx(100 / 3) and r["overall"]["recall"] == pytest.approx(100 / 3)
    assert r["ser"] == pytest.approx(100 * 3 / 3)  # one insertion, one substitution, one deletion over 3 marks


def test_case_scores_need_the_exact_surface():
    r = case_scores(["iPhone", "The", "cat"], ["Iphone", "The", "Cat"])
    assert r["precision"] == pytest.approx(100 / 3) and r["recall"] == pytest.approx(50.0)


def test_sentence_accuracy():
    assert sentence_accuracy(["", ".", "", "?"], ["", ".", ",", "?"]) == pytest.approx(50.0)


def test_calibration_of_a_perfectly_calibrated_predictor_is_near_zero():
    rng = np.random.default_rng(0)
    conf = rng.uniform(0, 1, 200000)
    correct = rng.uniform(0, 1, conf.size) < conf
    assert calibration(conf, correct)["ece"] < 0.01
    assert calibration(np.full(100, 0.9), np.zeros(100, bool))["ece"] == pytest.approx(0.9)


def test_high_confidence_precision_and_coverage():
    r = high_confidence(np.array([0.95, 0.92, 0.5]), np.array([True, False, True]), n_reference=4)
    assert r["suggestions"] == 2 and r["precision"] == 50.0 and r["coverage"] == 25.0


def test_case_errors_are_placed_at_sentence_starts_or_inside():
    gold_p = ["", ".", "", "", "", ""]
    gold_s = ["We", "left", "Then", "rain", "in", "Paris"]
    # missed end after "left" -> "then" wrong at a start; a comma then a wrong capital "Rain";
    # "paris" missed inside a sentence; a capital after the comma on a name is counted but not wrong
    pred_p = ["", ",", ",", "", ",", ""]
    pred_s = ["We", "left", "then", "Rain", "in", "Paris"]
    ce = case_errors(gold_p, pred_p, gold_s, pred_s)
    assert ce == {"errors": 2, "at_sentence_start": 1, "capitals_after_mid_mark": 2, "wrong_capitals_after_mid_mark": 1,
                  "capitals_after_comma": 2, "wrong_capitals_after_comma": 1}
    # a second document starting at "in": its first word is a start, not "after a mark"
    ce = case_errors(gold_p, pred_p, gold_s, ["We", "left", "then", "Rain", "In", "paris"], doc_starts=(0, 4))
    assert ce["errors"] == 4 and ce["at_sentence_start"] == 2


@pytest.mark.parametrize("name, body", [
    ("ref.srt", "1\n00:00:01,000 --> 00:00:03,000\nSo, what is it?\n\n2\n00:00:03,500 --> 00:00:05,000\nIt is a seed.\n"),
    ("ref.json", '{"segments": [{"start": 0.0, "end": 2.0, "text": " So, what is it? It is a seed.", "words": ['
                 '{"word": " So,", "start": 0.0, "end": 0.2}, {"word": " what", "start": 0.2, "end": 0.4}, '
                 '{"word": " is", "start": 0.4, "end": 0.6}, {"word": " it?", "start": 0.6, "end": 0.8}, '
                 '{"word": " It", "start": 1.0, "end": 1.2}, {"word": " is", "start": 1.2, "end": 1.4}, '
                 '{"word": " a", "start": 1.4, "end": 1.6}, {"word": " seed.", "start": 1.6, "end": 2.0}]}]}'),
])
def test_a_transcript_reference_is_scored_on_its_words_not_its_markup(tmp_path, tiny_model_dir, name, body):
    """A reviewed subtitle or JSON transcript is scored by its words: cue numbers, times and JSON
    syntax are not words of the reference (they were: 47 'words' with 42 commas from a Vosk file)."""
    from editor.restore.passes.inference import Restorer
    from editor.restore.lab.scoring import score_file

    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    res = score_file(Restorer.load(tiny_model_dir, "cpu"), path)
    assert res["words"] == 8
    assert res["COMMA"]["support"] == 1 and res["QUESTION"]["support"] == 1 and res["PERIOD"]["support"] == 1
