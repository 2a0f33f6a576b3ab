"""The open model's recipe on a tiny corpus: a frozen encoder's word states cached in shards that a
stopped run resumes, a head trained on them that resumes too, and an export that counts its
vocabulary on its own (public-domain) text and states the weights' licence."""

import gzip
import json

import numpy as np
import pytest
import torch

from editor.cli import main
from editor.restore.passes.inference import Restorer
from editor.restore.lab import frozen_features, train_frozen

from .test_train_encoder import TEXT, encoder_dir  # noqa: F401 - a fixture

SOURCES = "presidential_speeches=0.7,gutenberg_dialogue_subset=0.3"


@pytest.fixture
def pd_data(tmp_path):
    """Two public-domain sources (and nothing else) and the dev sets."""
    root = tmp_path / "data"
    (root / "train").mkdir(parents=True)
    (root / "dev").mkdir()
    for name, n in (("presidential_speeches", 12), ("gutenberg_dialogue_subset", 6)):
        with gzip.open(root / "train" / f"{name}.txt.gz", "wt", encoding="utf-8") as f:
            for d in range(n):
                f.write(f"# document {d}\n" + TEXT * 6)
    (root / "dev" / "dev2012.tsv").write_text(
        "so\tO\nwhat\tO\nis\tO\nit\tO\nfor\tQUESTION\ni\tO\nasked\tCOMMA\nyes\tPERIOD\n" * 40)
    (root / "dev" / "ted_dev2012_talks.txt").write_text("".join(f"# talk {d}\n" + TEXT * 3 for d in range(4)))
    return root


def _cache(encoder, data, out, words):
    return frozen_features.main(["--encoder", str(encoder), "--out", str(out), "--data", str(data),
                                 "--sources", SOURCES, "--words", str(words), "--shard-windows", "4",
                                 "--dev-windows", "0"])


def test_the_cache_resumes_where_it_stopped_and_holds_what_the_encoder_computes(encoder_dir, pd_data, tmp_path):  # noqa: F811
    feat = tmp_path / "feat"
    assert _cache(encoder_dir, pd_data, feat, 1000) == 0
    first = sorted(p.name for p in feat.glob("shard-*.npy"))
    assert len(first) == 3  # 1,000 words in shards of 4 windows of 120
    before = np.load(feat / first[0])
    assert _cache(encoder_dir, pd_data, feat, 2000) == 0  # asked for more: the first shards stay as they were
    assert len(list(feat.glob("shard-*.npy"))) == 5
    assert np.array_equal(np.load(feat / first[0]), before)
    z = np.load(feat / "shard-00000.npz")
    assert set(z["sources"]) <= {"presidential_speeches", "gutenberg_dialogue_subset"}
    assert z["lens"].min() > 0 and z["labels"].shape == (4, frozen_features.WINDOW)
    # a window's cached states are the encoder's output for its words, as inference reads them
    model, _origin = frozen_features.frozen_model(encoder_dir)
    dev = np.load(feat / "dev.npz")
    s, e = dev["windows"][0]
    words = [str(w) for w in dev["words"][s:e]]
    table, lens = model.pieces.table(words)
    direct = frozen_features.window_states(model, table[None], lens[None])[0]
    cached = np.load(feat / "dev-states.npy")[0, : e - s]
    assert np.allclose(direct[: e - s].astype(np.float32), cached.astype(np.float32), atol=1e-3)


def test_a_cache_made_with_other_settings_is_refused(encoder_dir, pd_data, tmp_path):  # noqa: F811
    feat = tmp_path / "feat"
    assert _cache(encoder_dir, pd_data, feat, 500) == 0
    with pytest.raises(SystemExit, match="other settings"):
        frozen_features.main(["--encoder", str(encoder_dir), "--out", str(feat), "--data", str(pd_data),
                              "--sources", "presidential_speeches=1", "--words", "500", "--shard-windows", "4"])


def test_the_head_trains_resumes_and_exports_an_open_model(encoder_dir, pd_data, tmp_path, capsys):  # noqa: F811
    feat, run, out = tmp_path / "feat", tmp_path / "run", tmp_path / "model"
    assert _cache(encoder_dir, pd_data, feat, 1500) == 0
    args = ["--features", str(feat), "--encoder", str(encoder_dir), "--out", str(run), "--data", str(pd_data),
            "--seconds", "6", "--eval-seconds", "2", "--batch-windows", "2"]
    assert train_frozen.main(args) == 0
    head = torch.load(run / "head.pt", weights_only=False)
    first = head["seen"]
    assert first > 0 and (run / "run.json").is_file() and (run / "vocab.json").is_file()
    record = json.loads((run / "run.json").read_text())
    assert record["family"] == "encoder-bilstm-crf" and record["settings"]["frozen_encoder"] is True
    assert train_frozen.main(args) == 0  # again: continues from head.pt
    again = torch.load(run / "head.pt", weights_only=False)
    assert again["seen"] > first and {h["run"] for h in again["history"]} == {0, 1}
    # the encoder in the run's weights is the published one, unchanged by training
    from editor.restore.lab.train_encoder import load_run_model

    model, _ = load_run_model(run)
    frozen, _ = frozen_features.frozen_model(encoder_dir)
    key = "layers.0.qkv.weight"
    assert torch.allclose(model.encoder.state_dict()[key], frozen.encoder.state_dict()[key], atol=1e-3)
    assert main(["train", "--family", "encoder", "--data", str(pd_data), "--out", str(run), "--export", str(out)]) == 0
    config = json.loads((out / "config.json").read_text())
    assert config["weights_licence"] == "public-domain AND Apache-2.0"
    # its vocabulary is the one counted on its own text, not the shipped word model's
    assert json.loads((out / "vocab.json").read_text()) == json.loads((run / "vocab.json").read_text())
    assert len(Restorer.load(str(out), device="cpu").restore("so what is it for".split())) == 5
    # the exported model is the checkpoint a later session continues from
    later = tmp_path / "later"
    assert train_frozen.main([*args[:4], "--out", str(later), *args[6:], "--from-model", str(out), "--seconds", "1"]) == 0
    assert "head from" in capsys.readouterr().out
