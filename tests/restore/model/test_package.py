"""A model directory is checked before it is used: checksums, schema, and no pickled code."""

import os
import pickle
import re
import shutil

import pytest
import torch

from editor.core.errors import UserError
from editor.restore.passes.inference import Restorer
from editor.restore.model.package import ModelError, write_checksums


@pytest.fixture
def model_copy(tiny_model_dir, tmp_path):
    return shutil.copytree(tiny_model_dir, tmp_path / "model")


def test_a_good_model_loads(model_copy):
    r = Restorer.load(str(model_copy), device="cpu")
    assert r.name == "tiny" and isinstance(r.model, torch.nn.Module)


def test_a_changed_file_fails_its_checksum(model_copy):
    with open(model_copy / "weights.pt", "r+b") as f:
        f.seek(200)
        f.write(b"\x00\x01")
    with pytest.raises(ModelError, match="checksum mismatch"):
        Restorer.load(str(model_copy), device="cpu")


class Payload:
    def __reduce__(self):
        return (os.system, (f"touch {Payload.marker}",))


def test_a_pickle_payload_never_runs_even_with_matching_checksums(model_copy, tmp_path):
    Payload.marker = tmp_path / "pwned"
    with open(model_copy / "weights.pt", "wb") as f:
        pickle.dump({"x": Payload()}, f, protocol=2)
    write_checksums(model_copy)  # the attacker also rewrote the checksums
    with pytest.raises(ModelError, match="refused") as err:
        Restorer.load(str(model_copy), device="cpu")
    assert not Payload.marker.exists()
    assert "weights_only=False" not in str(err.value)  # torch's hint to load it unsafely is not passed on


def test_weights_of_the_wrong_shape_are_refused(model_copy):
    state = torch.load(model_copy / "weights.pt", weights_only=True)
    state["out.bias"] = torch.zeros(3)
    torch.save(state, model_copy / "weights.pt")
    write_checksums(model_copy)
    with pytest.raises(ModelError, match="wrong shape"):
        Restorer.load(str(model_copy), device="cpu")


def test_missing_directory_and_files_are_user_errors(model_copy, tmp_path):
    with pytest.raises(UserError, match="no such model directory"):
        Restorer.load(str(tmp_path / "nope"), device="cpu")
    (model_copy / "vocab.json").unlink()
    with pytest.raises(UserError, match="vocab.json is missing"):
        Restorer.load(str(model_copy), device="cpu")


def test_an_unknown_device_is_refused(model_copy):
    with pytest.raises(ValueError):
        Restorer.load(str(model_copy), device="tpu")


@pytest.mark.parametrize("field, value", [("hidden", "abc"), ("hidden", -3), ("layers", 0), ("dropout", 2.0),
                                          ("heads", "both"), ("n_labels", 5), ("use_crf", "yes"), ("hidden", True)])
def test_a_config_describing_an_impossible_network_is_refused_with_the_field_named(model_copy, field, value):
    import json

    config = json.loads((model_copy / "config.json").read_text())
    config["model_args"][field] = value
    (model_copy / "config.json").write_text(json.dumps(config))
    write_checksums(model_copy)
    with pytest.raises(ModelError, match=field):
        Restorer.load(str(model_copy), device="cpu")


def _tamper(model_dir, file, change):
    import json

    data = json.loads((model_dir / file).read_text())
    change(data)
    (model_dir / file).write_text(json.dumps(data))
    write_checksums(model_dir)  # the checksums were recomputed after tampering


def _set(*keys_and_value):
    *keys, value = keys_and_value

    def change(data):
        for key in keys[:-1]:
            data = data.setdefault(key, {})
        data[keys[-1]] = value
    return change


TAMPERED = [
    ("config.json", _set("decision", "class_scales", "EXCLAIM", 1.0), "unknown class 'EXCLAIM'"),
    ("config.json", _set("decision", "case_scales", "title", 0.5), "unknown class 'title'"),
    ("config.json", _set("decision", "class_scales", "O", "big"), "class_scales.O must be a number"),
    ("config.json", _set("decision", "class_scales", "O", -1), "class_scales.O"),
    ("config.json", _set("decision", [1, 2]), "\"decision\" must be an object"),
    ("config.json", _set("decision", "class_scales", [1, 2]), "class_scales must be an object"),
    ("config.json", _set("decision", "paragraph_end_odds", 0), "paragraph_end_odds"),
    ("config.json", _set("decision", "capitalize_sentences", "yes"), "capitalize_sentences"),
    ("config.json", _set("chunking", "size", 0), "chunking.size"),
    ("config.json", _set("chunking", "size", "big"), "chunking.size must be an integer"),
    ("config.json", _set("chunking", "size", 10 ** 30), "chunking.size"),
    ("config.json", _set("chunking", "overlap", 500), "must be smaller than the window"),
    ("config.json", _set("chunking", "overlap", -1), "chunking.overlap"),
    ("config.json", _set("chunking", "cut", 9999), "chunking.cut"),
    ("config.json", _set("chunking", "merge", "average"), "chunking.merge"),
    ("config.json", _set("chunking", "windows"), "\"chunking\" must be an object"),
    ("config.json", _set("calibration", "punct_temperature", 0), "punct_temperature"),
    ("config.json", _set("calibration", "case_temperature", "hot"), "case_temperature must be a number"),
    ("config.json", _set("calibration", "case_temperature", 1e400), "case_temperature"),
    ("config.json", _set("labels", ["a"]), "label set"),
    ("config.json", _set("name", 5), "name"),
    ("config.json", _set("model_args", "max_word_len", -3), "max_word_len"),
    ("vocab.json", _set("max_word_len", -3), "max_word_len"),
    ("vocab.json", _set("max_word_len", "16"), "max_word_len must be an integer"),
    ("vocab.json", _set("words", {"a": 1}), "\"words\" must be a list of text"),
    ("vocab.json", _set("chars", [1, 2]), "\"chars\" must be a list of text"),
    ("lexicon.json", _set("iphone", ["iPhone"]), "lexicon.json must map words"),
]


@pytest.mark.parametrize("file, change, message", TAMPERED)
def test_every_config_field_is_checked_even_with_recomputed_checksums(model_copy, file, change, message):
    _tamper(model_copy, file, change)
    with pytest.raises(ModelError, match=re.escape(message)) as info:
        Restorer.load(str(model_copy), device="cpu")
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_weights_that_are_not_finite_are_refused(model_copy, bad):
    state = torch.load(model_copy / "weights.pt", weights_only=True)
    key = next(iter(state))
    state[key] = state[key].clone()
    state[key].view(-1)[0] = bad
    torch.save(state, model_copy / "weights.pt")
    write_checksums(model_copy)
    with pytest.raises(ModelError, match="NaN or infinite"):
        Restorer.load(str(model_copy), device="cpu")


def test_a_tampered_model_is_one_line_from_the_command(model_copy, tmp_path):
    import subprocess
    import sys

    _tamper(model_copy, "config.json", _set("chunking", "overlap", 10_000))
    src = tmp_path / "a.txt"
    src.write_text("hello there\n")
    r = subprocess.run([sys.executable, "-m", "editor", "restore", str(src), "--model", str(model_copy)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "Traceback" not in r.stderr and r.stderr.count("\n") == 1
