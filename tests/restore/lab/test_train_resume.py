"""`stet train` on a tiny corpus: an interrupted run resumes where it stopped, and a run resumed with
another model shape is refused with the options named (not a traceback from load_state_dict)."""

import gzip
import json

import pytest

from editor.core.errors import UserError
from editor.restore.lab.train import TrainConfig, train

TEXT = ("So what is it for? I asked, and you said it is okay. Yes, we know. "
        "The iPhone was new in 2007; how did it work? Well, it did.\n")


@pytest.fixture
def data_dir(tmp_path):
    (tmp_path / "train").mkdir()
    (tmp_path / "dev").mkdir()
    with gzip.open(tmp_path / "train" / "tiny.txt.gz", "wt", encoding="utf-8") as f:
        for d in range(20):
            f.write(f"# talk {d}\n" + TEXT * 5)
    (tmp_path / "dev" / "dev2012.tsv").write_text(
        "so\tO\nwhat\tO\nis\tO\nit\tO\nfor\tQUESTION\ni\tO\nasked\tCOMMA\nyes\tPERIOD\n")
    return tmp_path


def _config(data_dir, tmp_path, **kw):
    base = dict(data_dir=str(data_dir), out_dir=str(tmp_path / "run"), cache_dir=str(tmp_path / "cache"),
                sources={"tiny": 1.0}, vocab_size=100, tokens=2000, tokens_per_batch=400, warmup_tokens=100,
                eval_every_tokens=1000, seed=3, model={"hidden": 8, "word_dim": 8, "char_dim": 4, "char_filters": 6})
    base.update(kw)
    return TrainConfig(**base)


def test_a_stopped_run_resumes_and_another_model_shape_is_refused(data_dir, tmp_path):
    logs = []
    train(_config(data_dir, tmp_path, stop_at=800), log=logs.append)
    stopped = [line for line in logs if "run again to resume" in line]
    assert stopped, logs
    seen = stopped[0].split("stopping at ")[1].split(" words")[0]  # "1,083"
    assert 800 <= int(seen.replace(",", "")) < 2000
    logs.clear()
    with pytest.raises(UserError, match=r"another model: hidden 8 \(now 16\)"):
        train(_config(data_dir, tmp_path, model={"hidden": 16, "word_dim": 8, "char_dim": 4, "char_filters": 6}),
              log=logs.append)
    best = train(_config(data_dir, tmp_path), log=logs.append)
    assert any(line.startswith("resumed from") and f"{seen} words seen" in line for line in logs), logs
    assert best.is_file()
    history = json.loads((tmp_path / "run" / "history.json").read_text())
    assert history[-1]["seen"] >= 2000


def test_a_run_from_a_model_keeps_its_vocabulary_and_trains_with_recogniser_like_errors(data_dir, tmp_path, tiny_model_dir):
    import torch

    logs = []
    best = train(_config(data_dir, tmp_path, init=str(tiny_model_dir), asr_errors=0.5, asr_noise="recognizer",
                         model={"hidden": 8, "word_dim": 8, "char_dim": 4, "char_filters": 6}), log=logs.append)
    assert any(line.startswith("starting from") and "all weights" in line for line in logs), logs
    assert any("recogniser-like errors:" in line for line in logs), logs
    ck = torch.load(best, weights_only=True)
    assert ck["vocab"] == json.loads((tiny_model_dir / "vocab.json").read_text())
    assert ck["lexicon"] == {"iphone": "iPhone"}
    history = json.loads((tmp_path / "run" / "history.json").read_text())
    assert "f1" in history[-1]["dev_noisy"]["overall"]
