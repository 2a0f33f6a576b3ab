"""A model directory is checked before it is used: checksums, schema, and no pickled code."""

import os
import pickle
import shutil

import pytest
import torch

from editor.core.errors import UserError
from editor.restore.inference import Restorer
from editor.restore.package import ModelError, write_checksums


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
