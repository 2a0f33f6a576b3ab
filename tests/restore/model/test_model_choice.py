"""Every shipped model states its weights' licence in config.json, and the person (or an install)
chooses among them: by name, by $STET_RESTORE_MODEL for a whole install, with the reason said."""

import json

import pytest

from editor.core import restore_models as rm
from editor.restore.lab.train_config import SOURCE_LICENCES, weights_licence
from editor.restore.model.package import ModelError, default_model_dir, load_model_dir, resource_model_dir, shipped_models


def test_every_shipped_model_states_its_weights_licence():
    names = shipped_models()
    assert rm.DEFAULT_MODEL in names and rm.WORD_MODEL in names
    for name in names:
        config = json.loads((resource_model_dir(name) / "config.json").read_text())
        licence = config.get("weights_licence")
        assert isinstance(licence, str) and licence.strip(), name
        # each part an SPDX identifier (or "public-domain"), joined by AND
        for part in licence.split(" AND "):
            assert part in {*SOURCE_LICENCES.values(), "Apache-2.0"}, (name, part)


def test_the_licence_follows_the_sources_trained_on():
    assert weights_licence({"ted_saranyan": 0.5, "presidential_speeches": 0.5}, encoder=False) == \
        "CC-BY-NC-ND-4.0 AND public-domain"
    assert weights_licence({"presidential_speeches": 0.6, "gutenberg_dialogue_subset": 0.4, "ted_saranyan": 0.0},
                           encoder=True) == "public-domain AND Apache-2.0"
    assert weights_licence(["somewhere_else"], encoder=False) == "unknown"


def test_what_a_licence_allows():
    assert rm.commercial_use("CC-BY-NC-ND-4.0 AND CC-BY-NC-4.0 AND Apache-2.0") == "non-commercial only"
    assert rm.commercial_use("public-domain AND Apache-2.0") == "paid work too"
    assert rm.commercial_use("") == "not stated"


def test_the_shipped_models_are_listed_with_their_licence_and_quality():
    listed = {m.name: m for m in rm.shipped_restore_models()}
    assert set(listed) == set(shipped_models())
    default = listed[rm.DEFAULT_MODEL]
    assert default.use == "non-commercial only" and default.figures["dev2012_overall_f1"] > 60


def test_an_install_names_its_default_model(monkeypatch, tmp_path):
    monkeypatch.delenv(rm.MODEL_ENV, raising=False)
    assert default_model_dir() == resource_model_dir(rm.DEFAULT_MODEL)
    assert "Stet's default" in rm.why_this_model(None)
    monkeypatch.setenv(rm.MODEL_ENV, rm.WORD_MODEL)
    assert default_model_dir() == resource_model_dir(rm.WORD_MODEL)
    assert rm.model_folder(None) == resource_model_dir(rm.WORD_MODEL)
    note = rm.in_use_note(None)
    assert rm.WORD_MODEL in note and "non-commercial only" in note and rm.MODEL_ENV in note
    assert "Settings" in rm.in_use_note(rm.DEFAULT_MODEL) and rm.DEFAULT_MODEL in rm.in_use_note(rm.DEFAULT_MODEL)
    monkeypatch.setenv(rm.MODEL_ENV, str(tmp_path / "nowhere"))
    with pytest.raises(ModelError, match=rm.MODEL_ENV):
        load_model_dir(None, None, lambda *a, **k: None)  # type: ignore[arg-type]


def test_a_config_whose_licence_is_not_text_is_refused(tiny_model_dir, tmp_path):
    import shutil

    from editor.restore.model.package import write_checksums

    bad = tmp_path / "bad"
    shutil.copytree(tiny_model_dir, bad)
    config = json.loads((bad / "config.json").read_text())
    config["weights_licence"] = ["CC-BY-4.0"]
    (bad / "config.json").write_text(json.dumps(config))
    write_checksums(bad)
    with pytest.raises(ModelError, match="weights_licence"):
        load_model_dir(bad, None, lambda *a, **k: None)  # type: ignore[arg-type]
