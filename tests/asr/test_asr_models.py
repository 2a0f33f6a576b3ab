"""Finding and validating Vosk models: Stet's folder, VOSK_MODEL_PATH, packages, picked folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from editor.asr import models
from editor.asr.errors import ModelError
from editor.asr.models import (installed_models, language_of, problems, resolve_model,
                               validate_model)


def fake_model(folder: Path, layout: str = "v2") -> Path:
    files = {"v2": ["am/final.mdl", "conf/mfcc.conf", "graph/HCLG.fst"],
             "lookahead": ["am/final.mdl", "conf/mfcc.conf", "graph/HCLr.fst", "graph/Gr.fst"],
             "v1": ["final.mdl", "mfcc.conf", "HCLG.fst"]}[layout]
    for rel in files:
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(b"x")
    return folder


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    """Stet's model folder in tmp, no VOSK_MODEL_PATH, no model packages."""
    monkeypatch.setenv(models.DATA_DIR_ENV, str(tmp_path / "stet-models"))
    monkeypatch.delenv(models.ENV_VAR, raising=False)
    monkeypatch.setattr(models, "_MODEL_PACKAGES", {})
    return tmp_path


@pytest.mark.parametrize("layout", ["v2", "lookahead", "v1"])
def test_both_vosk_layouts_validate(tmp_path, layout):
    path = fake_model(tmp_path / "vosk-model-small-de-0.15", layout)
    info = validate_model(path)
    assert info.name == "vosk-model-small-de-0.15" and info.language == "de"
    assert info.path == str(path.resolve())


def test_validation_says_what_is_missing(tmp_path):
    path = fake_model(tmp_path / "m")
    (path / "graph" / "HCLG.fst").unlink()
    (path / "am" / "final.mdl").write_bytes(b"")  # an empty file is as good as none
    with pytest.raises(ModelError) as err:
        validate_model(path)
    text = str(err.value)
    assert "am/final.mdl" in text and "decoding graph" in text and "mfcc" not in text


def test_validation_points_into_the_folder_the_zip_made(tmp_path):
    fake_model(tmp_path / "download" / "vosk-model-small-fr-0.22")
    with pytest.raises(ModelError, match="did you mean the folder inside it.*vosk-model-small-fr-0.22"):
        validate_model(tmp_path / "download")


def test_a_zip_or_a_missing_folder(tmp_path):
    (tmp_path / "m.zip").write_bytes(b"PK")
    assert "unzip" in problems(tmp_path / "m.zip")[0]
    assert problems(tmp_path / "gone") == ["the folder does not exist"]


def test_language_from_official_names():
    assert language_of("vosk-model-small-en-us-0.15") == "en-us"
    assert language_of("vosk-model-en-us-0.22-lgraph") == "en-us"
    assert language_of("vosk-model-ru-0.42") == "ru"
    assert language_of("vosk-model-small-ko-0.22") == "ko"
    assert language_of("my-model") is None


def test_models_are_found_in_stets_folder_and_vosk_model_path(isolated, monkeypatch):
    fake_model(models.models_dir() / "vosk-model-small-de-0.15")
    env_a = fake_model(isolated / "one-model-itself")
    fake_model(isolated / "shelf" / "vosk-model-small-fr-0.22")
    (isolated / "shelf" / "half-a-model").mkdir()
    monkeypatch.setenv(models.ENV_VAR, f"{env_a}:{isolated / 'shelf'}:{isolated / 'nothing'}")

    found = installed_models()

    assert [(m.name, m.source) for m in found] == [
        ("vosk-model-small-de-0.15", "stet"), ("one-model-itself", "VOSK_MODEL_PATH"),
        ("vosk-model-small-fr-0.22", "VOSK_MODEL_PATH")]
    assert resolve_model().name == "vosk-model-small-de-0.15"
    assert resolve_model("fr").name == "vosk-model-small-fr-0.22"
    assert resolve_model("vosk-model-small-fr-0.22").source == "VOSK_MODEL_PATH"
    assert resolve_model(str(env_a)).source == "folder"


def test_resolve_explains_what_to_do(isolated):
    with pytest.raises(ModelError, match="no Vosk model is installed.*stet models download"):
        resolve_model()
    with pytest.raises(ModelError, match="not installed: run `stet models download vosk-model-small-en-us-0.15`"):
        resolve_model("vosk-model-small-en-us-0.15")
    with pytest.raises(ModelError, match="no installed model is called 'klingon'"):
        resolve_model("klingon")
    with pytest.raises(ModelError, match="is not a Vosk model"):
        resolve_model(str(isolated))


def test_the_korean_model_package_is_found(korean_model):
    ko = [m for m in installed_models() if m.source == "package"]
    assert ko and ko[0].language == "ko" and Path(ko[0].path) == korean_model.resolve()
    assert resolve_model("ko").language == "ko"
