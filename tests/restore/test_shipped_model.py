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
