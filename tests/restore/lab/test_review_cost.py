"""`stet eval --review-cost`: the counting of decisions and fixes on tiny hand-made reviews (no
model: the suggestions are put on the words by hand), and the command on a small model."""

from __future__ import annotations

import json

import pytest

from editor.core.document.records import Kind, State, Suggestion
from editor.restore.model.labels import labelled_words
from editor.restore.lab.review_cost import raw_transcript, review


def reviewed(reference: str, *suggestions: tuple[int, Kind, str, dict[str, float]], apart=False, starts=(0,)):
    words = labelled_words(reference)
    doc = raw_transcript(words)
    doc.set_suggestions([Suggestion(doc[i].id, kind, value, probs) for i, kind, value, probs in suggestions])
    return doc, review(doc, words, starts, apart=apart)


def text(doc) -> str:
    return " ".join(t.text for t in doc.tokens)


REF = "We went home. Then we ate."


def test_a_sure_suggestion_is_accepted_at_once_and_costs_no_decision():
    doc, tally = reviewed(REF, (0, Kind.CASE, "We", {"We": 0.95, "we": 0.05}),
                          (5, Kind.PUNCT, ".", {".": 0.97, "": 0.03}))
    assert tally.decisions == 0 and tally.accepted_at_once == 2
    # "." after "home" and "Then" were never offered: two fixes
    assert tally.fixes == 2
    assert text(doc) == "We went home then we ate."


def test_a_sentence_end_and_its_capital_are_one_decision():
    marks = (2, Kind.PUNCT, ".", {".": 0.6, "": 0.3, ",": 0.1})
    capital = (3, Kind.CASE, "Then", {"Then": 0.6, "then": 0.4})
    doc, tally = reviewed(REF, (0, Kind.CASE, "We", {"We": 0.95, "we": 0.05}), marks, capital,
                          (5, Kind.PUNCT, ".", {".": 0.97, "": 0.03}))
    assert tally.decisions == 1 and tally.by_kind == {"sentence end": 1}
    assert tally.fixes == 0 and text(doc) == REF
    report = tally.report("every-pause")["review_cost"]
    assert report["final"]["sentence_end_f1"] == 100.0 and report["final"]["case_f1"] == 100.0
    assert report["decisions_per_1000_words"] == round(1000 / 6, 1)
    # each its own Tab stop, as before the grouping: two decisions
    _doc, apart = reviewed(REF, marks, capital, apart=True)
    assert apart.decisions == 2


def test_a_digit_picks_the_reference_mark_and_the_capital_follows():
    doc, tally = reviewed(REF, (2, Kind.PUNCT, ",", {",": 0.5, ".": 0.4, "": 0.1}))
    assert tally.decisions == 1
    assert doc[2].punct == "." and doc[3].surface == "Then"
    assert doc.suggestion(doc[2].id, Kind.PUNCT).value == "."  # chosen among the alternatives


def test_a_wrong_suggestion_is_rejected_and_a_missing_mark_is_a_fix():
    doc, tally = reviewed(REF, (1, Kind.PUNCT, ",", {",": 0.55, "": 0.45}))
    assert tally.decisions == 1
    assert doc.suggestion(doc[1].id, Kind.PUNCT).state == State.REJECTED and doc[1].punct == ""
    # ". Then" after "home", "We" and the final ".": four fixes, none offered
    assert tally.fixes == 4
    report = tally.report("sure")["review_cost"]
    assert report["final"]["comma_f1"] == 0.0 and report["final"]["sentence_end_f1"] == 0.0


def test_a_mark_the_reference_has_but_no_alternative_lists_is_rejected_and_fixed():
    # the reference's "." is not among the listed alternatives: Delete, and a fix
    doc, tally = reviewed(REF, (2, Kind.PUNCT, ",", {",": 0.6, "": 0.4}))
    assert tally.decisions == 1 and doc[2].punct == ""
    assert tally.fixes == 4


def test_a_paragraph_break_is_decided_by_the_reference_lines():
    doc, tally = reviewed("We went home.\nThen we ate.", (3, Kind.BREAK, "¶", {"¶": 0.6, "": 0.4}),
                          starts=(0, 3))
    assert tally.decisions == 1 and tally.by_kind == {"paragraph break": 1}
    assert doc.is_paragraph_start(3)


def test_the_reference_must_be_the_documents_words():
    words = labelled_words(REF)
    with pytest.raises(ValueError):
        review(raw_transcript(words[:3]), words)


def test_review_cost_on_a_small_model(tiny_model_dir, tmp_path, capsys):
    from editor.cli import main

    talks = tmp_path / "talks.txt"
    talks.write_text("# one\nSo we went home. Then we ate, and we slept.\n# two\nWhy not? We asked them.\n",
                     encoding="utf-8")
    assert main(["eval", str(talks), "--review-cost", "--commas", "sure", "--json", "--model",
                 str(tiny_model_dir), "--device", "cpu"]) == 0
    out = json.loads(capsys.readouterr().out)["review_cost"]
    assert out["commas"] == "sure" and out["talks"] == 2 and out["words"] == 15
    assert set(out["final"]) == {"sentence_end_f1", "comma_f1", "case_f1", "overall_f1"}
    assert out["decisions_per_1000_words"] > 0 and out["fixes_per_1000_words"] >= 0


def test_review_cost_refuses_a_style_that_is_none(tmp_path, capsys):
    from editor.cli import main

    talks = tmp_path / "talks.txt"
    talks.write_text("# one\nSo we went home.\n", encoding="utf-8")
    assert main(["eval", str(talks), "--review-cost", "--commas", "lots"]) != 0
    assert "no comma style 'lots'" in capsys.readouterr().err
