"""Exporting a run's checkpoint (`stet train --export`): tuning on dev files and the written model."""

import json
import random

import torch

from editor.restore.inference import Restorer
from editor.restore.model import BiLSTMCRF, ModelConfig
from editor.restore.tune import tune
from editor.restore.vocab import Vocab

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


def test_export_tunes_the_decisions_on_dev_and_breaks_ties_by_case_f1(tiny_model_dir, tmp_path):
    best, data = _tiny_run(tiny_model_dir, tmp_path)
    out = tmp_path / "models" / "tiny-tuned"
    report = tune(best, data, out, "tiny-tuned", log=lambda s: None)
    d = report["decision"]
    tie = d["case_tie_break"]
    assert tie, "the tuned weight itself is always a candidate"
    assert all(v["f1"] >= d["f1_chosen"] - 0.05 for v in tie.values())
    chosen = d["chosen"]["O"]
    assert tie[str(round(chosen, 2))]["case_f1"] == max(v["case_f1"] for v in tie.values())
    config = json.loads((out / "config.json").read_text())
    assert config["decision"]["class_scales"] == d["chosen"]
    grid = report["case_decision"]["lower_grid"]
    lower = report["case_decision"]["chosen"]["lower"]
    assert grid[str(lower)] == max(grid.values())
    assert config["decision"]["case_scales"] == {"lower": lower}
    assert config["chunking"]["merge"] in ("owned", "weighted")
    # paragraph breaks: the odds are the likeliest on the even talks' paragraph ends, and written
    para = report["paragraph_ends"]
    assert para["fit_on"].startswith("4 paragraph ends") and para["reported_on"].startswith("4 paragraph ends")
    assert para["log_likelihood_grid"][str(para["odds"]).removesuffix(".0")] == max(para["log_likelihood_grid"].values())
    assert config["decision"]["paragraph_end_odds"] == para["odds"]
    # the written model loads (checksums, schema) and restores with the tuned settings
    restorer = Restorer.load(str(out), device="cpu")
    assert restorer.class_scales[0] == chosen
    assert restorer.case_scales[0] == lower
    assert len(restorer.restore("so what is this i think".split())) == 6
