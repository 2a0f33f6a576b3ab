"""The model shipped in resources/models loads, passes its checks and restores plain speech."""

import json

import pytest

from editor.restore.inference import Restorer
from editor.restore.package import FILES, default_model_dir


@pytest.fixture(scope="module")
def shipped():
    return Restorer.load(None, device="cpu")


def test_shipped_model_is_complete_and_small():
    d = default_model_dir()
    assert all((d / f).is_file() for f in FILES) and (d / "MODEL_CARD.md").is_file()
    assert sum((d / f).stat().st_size for f in FILES) <= 20 * 1024 * 1024
    config = json.loads((d / "config.json").read_text())
    assert config["metrics"]["dev2012_overall_f1"] > 50  # the figure the model card reports


def test_shipped_model_restores_a_question_and_capitals(shipped):
    words = "so what do you think about the iphone i think it is great but the price is high".split()
    preds = shipped.restore(words)
    text = " ".join(p.text + p.punct for p in preds)
    assert text.startswith("So ")
    assert "iPhone?" in text and " I " in text
    assert "great, but" in text or "great. But" in text  # a clause boundary either way


def test_already_punctuated_abbreviations_are_kept_not_stripped(shipped):
    from editor.core.document import Kind, Transcript
    from editor.core.render import RenderPolicy, render
    from editor.restore.suggest import make_suggestions

    doc = Transcript.from_text("I met Mr. Smith and Dr. Jones at 9 a.m. on Main St. near the U.N. building.")
    preds = shipped.restore(doc.words())
    doc.set_suggestions(make_suggestions(doc.tokens, preds, shipped.lexicon))
    touched = {doc.token(s.token_id).word for s in doc.suggestions() if s.kind == Kind.PUNCT}
    assert not touched & {"mr", "dr", "a.m", "st", "u.n"}
    assert "Mr. Smith" in render(doc, RenderPolicy(0.0)) and "U.N." in render(doc, RenderPolicy(0.0))


def test_raw_abbreviations_are_written_with_their_period_and_end_a_text_once(shipped):
    preds = shipped.restore("i met mr smith and we flew to the u.s".split())
    text = " ".join(p.text + p.punct for p in preds)
    assert "Mr. Smith" in text and text.endswith("U.S.")


def test_the_model_card_is_what_its_sources_give():
    """Every figure in MODEL_CARD.md comes from the files kept beside it; rebuild it after changing one
    (`python -m editor.restore.card resources/models/stet-en-bilstm-crf`)."""
    from editor.restore.card import card_from_sources

    d = default_model_dir()
    assert card_from_sources(d) == (d / "MODEL_CARD.md").read_text()
