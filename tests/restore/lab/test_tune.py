"""Exporting a run's checkpoint (`stet train --export`): tuning on dev files and the written model."""

import json
import random

import torch

from editor.restore.passes.inference import Restorer
from editor.restore.model.bilstm_crf import BiLSTMCRF, ModelConfig
from editor.restore.lab.tune import tune
from editor.restore.lab.tune_decision import LOWER_GRID
from editor.restore.model.vocab import Vocab

SENTENCES = ["So what is this?", "I think it is okay, yes.", "And we know that.", "How is the iPhone for you?",
             "Yes, it is.", "This is what we do in the end."]


def _tiny_run(tiny_model_dir, tmp_path):
    vocab = Vocab.from_dict(json.loads((tiny_model_dir / "vocab.json").read_text()))
    cfg = ModelConfig(**json.loads((tiny_model_dir / "config.json").read_text())["model_args"])
    model = BiLSTMCRF(cfg)
    model.load_state_dict({k: v.float() for k, v in torch.load(tiny_model_dir / "weights.pt", weights_only=True).items()})
    best = tmp_path / "run" / "best.pt"
    best.parent.mkdir()
    torch.save({"format_version": 1, "model_args": cfg.to_dict(), "state_dict": model.state_dict(),
                "vocab": vocab.to_dict(), "lexicon": {"iphone": "iPhone"}, "metrics": {"seen": 1}, "train_config": {}}, best)
    rnd = random.Random(0)
    dev = tmp_path / "data" / "dev"
    dev.mkdir(parents=True)
    talks, tsv = [], []
    for k in range(4):
        paragraphs = [" ".join(rnd.choice(SENTENCES) for _ in range(10)) for _p in range(3)]
        text = " ".join(paragraphs)
        talks.append(f"# talk {k}\n" + "".join(f"{p}\n" for p in paragraphs))
        for tok in text.split():
            mark = {",": "COMMA", ".": "PERIOD", "?": "QUESTION"}.get(tok[-1], "O")
            tsv.append(f"{tok.strip(',.?').lower()}\t{mark}\n")
    (dev / "ted_dev2012_talks.txt").write_text("".join(talks))
    (dev / "dev2012.tsv").write_text("".join(tsv))
    return best, tmp_path / "data"


def test_export_tunes_the_decision_rule_on_dev(tiny_model_dir, tmp_path):
    best, data = _tiny_run(tiny_model_dir, tmp_path)
    out = tmp_path / "models" / "tiny-tuned"
    report = tune(best, data, out, "tiny-tuned", log=lambda s: None)
    d = report["decision"]
    assert d["f1_chosen"] >= d["f1_unweighted"] - 1e-9
    # the weights tuned without the honest rule are reported beside, for comparison
    assert "chosen" in report["decision_unconstrained"]
    chosen = d["chosen"]["O"]
    joint = report["joint_case"]
    assert set(joint["after_mid_mark_grid"]) == set(joint["after_no_mark_grid"]) == {str(t) for t in LOWER_GRID}
    grid = joint["after_no_mark_grid"]
    assert grid[str(joint["unmarked_lower"])]["case_f1"] == max(v["case_f1"] for v in grid.values())
    prior = report["author_prior"]
    assert prior["punct_loglik_grid"][str(prior["prior"]["punct"])] == max(prior["punct_loglik_grid"].values())
    assert prior["correct_text_with_prior"]["marks_changed"] <= prior["correct_text_without_prior"]["marks_changed"]
    config = json.loads((out / "config.json").read_text())
    assert config["decision"]["class_scales"] == d["chosen"]
    assert config["decision"]["position_free_lower"] == joint["position_free_lower"]
    assert config["decision"]["unmarked_lower"] == joint["unmarked_lower"]
    assert config["decision"]["author_prior"] == prior["prior"]
    assert config["language"] == "en"
    assert config["chunking"]["merge"] in ("owned", "weighted")
    # paragraph breaks: the odds are the likeliest on the even talks' paragraph ends, and written
    para = report["paragraph_ends"]
    assert para["fit_on"].startswith("4 paragraph ends") and para["reported_on"].startswith("4 paragraph ends")
    assert para["log_likelihood_grid"][str(para["odds"]).removesuffix(".0")] == max(para["log_likelihood_grid"].values())
    assert config["decision"]["paragraph_end_odds"] == para["odds"]
    # the written model loads (checksums, schema) and restores with the tuned settings
    restorer = Restorer.load(str(out), device="cpu")
    assert restorer.names is None  # no training text beside the dev files to count names in
    assert restorer.class_scales[0] == chosen
    assert restorer.position_free_lower == joint["position_free_lower"] and restorer.author_prior == prior["prior"]
    assert len(restorer.restore("so what is this i think".split())) == 6


def test_export_counts_the_names_lexicon_in_the_training_text(tiny_model_dir, tmp_path):
    import gzip

    best, data = _tiny_run(tiny_model_dir, tmp_path)
    (data / "train").mkdir()
    with gzip.open(data / "train" / "ted_saranyan.txt.gz", "wt", encoding="utf-8") as f:
        f.write("# a talk\nSo I said, Okay, it is what we do. And you, Okay?\n")
    out = tmp_path / "models" / "tiny-names"
    tune(best, data, out, "tiny-names", log=lambda s: None)
    assert json.loads((out / "names.json").read_text())["names"] == ["i", "okay"]
    assert Restorer.load(str(out), device="cpu").names == {"i", "okay"}
