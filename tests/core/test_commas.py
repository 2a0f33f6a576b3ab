"""The comma styles, and why a proposal is not the likeliest value listed beside it."""

from __future__ import annotations

import pytest

from editor.core.commas import COMMA_STYLES, DEFAULT_COMMAS, comma_line
from editor.core.document.records import CHOICE, Kind, Suggestion
from editor.core.errors import UserError
from editor.core.review.likeliest import likelier_refused
from editor.core.settings import Settings


def test_styles_go_from_fewest_commas_to_most_and_a_name_that_is_none_is_said():
    lines = [comma_line(name) for name in COMMA_STYLES]
    assert lines == sorted(lines, reverse=True) and lines[-1] == 0.0
    assert DEFAULT_COMMAS in COMMA_STYLES
    with pytest.raises(UserError, match="choose one of sure, careful, every-pause"):
        comma_line("lots")


def test_the_style_is_a_setting(tmp_path):
    s = Settings()
    assert s.review.commas == DEFAULT_COMMAS
    s.set("review.commas", "sure")
    s.save(tmp_path / "settings.json")
    assert Settings.load(tmp_path / "settings.json")[0].review.commas == "sure"


def test_a_likelier_sentence_end_refused_for_its_capital_is_named():
    s = Suggestion(1, Kind.PUNCT, ",", {".": 0.45, ",": 0.26, "": 0.25, "?": 0.04})
    assert likelier_refused(s) == "."
    assert likelier_refused(Suggestion(1, Kind.PUNCT, ".", {".": 0.45, ",": 0.26, "": 0.29})) is None
    # a likelier comma is no sentence end refused (the rule proposes the likeliest mark)
    assert likelier_refused(Suggestion(1, Kind.PUNCT, ":", {",": 0.4, ":": 0.35, "": 0.25})) is None
    assert likelier_refused(Suggestion(1, Kind.CASE, "then", {"Then": 0.6, "then": 0.4})) is None
    # a proposal from the person's choice repeats that choice, whatever the probabilities
    assert likelier_refused(Suggestion(1, Kind.PUNCT, ",", {".": 0.45, ",": 0.26, "": 0.29}, source=CHOICE)) is None
