"""Average the weights of encoder training runs ("model soup"): stages of one model, each continued
from the one before, lie close enough in weight space for their mean to be a network of its own.

    python -m editor.restore.lab.average OUT RUN_A=0.3 RUN_B=0.7 [--evaluate]

OUT becomes an encoder run like the ones `stet train --family encoder` writes (its record names the
runs and weights it was made from; the tokenizer is the first run's), so `stet train --family
encoder --out OUT --export MODEL_DIR` tunes and exports it as any other. `--evaluate` prints argmax
F1 on dev2012 and its noisy copy through the path the training loop evaluates with, for the average
and for each run alone. Only runs of the same network (the same `model_args`) are averaged; integer
tensors (none in today's network) must agree and are taken from the first run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import torch

from editor.restore.model.encoder import FAMILY
from editor.restore.lab.train_encoder import RUN_FORMAT, load_parts, read_run, save_parts


def parse_mix(specs: list[str]) -> dict[Path, float]:
    """["RUN=0.3", "RUN2=0.7"] (a bare RUN weighs 1) -> {run: weight}, weights summing to 1."""
    mix: dict[Path, float] = {}
    for spec in specs:
        path, _, w = spec.rpartition("=") if "=" in spec else (spec, "", "1")
        try:
            weight = float(w)
        except ValueError:
            raise SystemExit(f"{spec}: the weight after '=' is not a number") from None
        if weight <= 0:
            raise SystemExit(f"{spec}: a weight must be above 0")
        mix[Path(path)] = mix.get(Path(path), 0.0) + weight
    if len(mix) < 2:
        raise SystemExit("name at least two runs to average")
    total = sum(mix.values())
    return {p: w / total for p, w in mix.items()}


def average_runs(mix: dict[Path, float]) -> tuple[dict[str, torch.Tensor], dict[str, Any]]:
    """The weighted mean of the runs' best networks, and the first run's record."""
    runs = {p: read_run(p) for p in mix}
    first_path, first = next(iter(runs.items()))
    for p, run in runs.items():
        if run["model_args"] != first["model_args"]:
            raise SystemExit(f"{p}: a different network from {first_path}; only the same network can be averaged")
    states = {p: load_parts(p, run["parts"]) for p, run in runs.items()}
    base = states[first_path]
    out: dict[str, torch.Tensor] = {}
    for key, v in base.items():
        if v.is_floating_point():
            out[key] = sum((w * states[p][key] for p, w in mix.items()), torch.zeros_like(v))
        else:
            for p in mix:
                if not torch.equal(states[p][key], v):
                    raise SystemExit(f"{p}: {key} differs from {first_path}'s and cannot be averaged")
            out[key] = v
    return out, first


def write_average(out: Path, mix: dict[Path, float]) -> dict[str, Any]:
    """OUT as an encoder run holding the average; returns its record."""
    state, first = average_runs(mix)
    out.mkdir(parents=True, exist_ok=True)
    parts = save_parts(out, state)
    first_path = next(iter(mix))
    shutil.copyfile(first_path / "tokenizer.json", out / "tokenizer.json")
    runs = {str(p): read_run(p) for p in mix}
    record = {"format": RUN_FORMAT, "family": FAMILY, "model_args": first["model_args"],
              "origin": {"averaged": {p: round(w, 4) for p, w in zip(runs, mix.values())},
                         "from": [r["origin"] for r in runs.values()]},
              "sources": first["sources"], "settings": {"averaged": True}, "parts": parts,
              "best": {**first["best"], "tag": "averaged"}, "seen": max(r["seen"] for r in runs.values()),
              "history": first["history"]}
    tmp = out / "run.json.tmp"
    tmp.write_text(json.dumps(record, indent=1))
    os.replace(tmp, out / "run.json")
    return record


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("out", type=Path, help="the run folder to write the average into")
    p.add_argument("runs", nargs="+", help="RUN=WEIGHT (encoder run folders; weights are normalised)")
    p.add_argument("--evaluate", action="store_true", help="argmax F1 on dev2012 and its noisy copy, each run and the average")
    p.add_argument("--data", type=Path, default=Path("../shared/data"), help="the folder holding dev/dev2012.tsv")
    a = p.parse_args(argv)
    mix = parse_mix(a.runs)
    if a.out.resolve() in {r.resolve() for r in mix}:
        raise SystemExit(f"{a.out}: is one of the runs averaged; write the average elsewhere")
    write_average(a.out, mix)
    print(f"wrote {a.out}: " + ", ".join(f"{p} {w:.2f}" for p, w in mix.items()), flush=True)
    if a.evaluate:
        from editor.restore.lab.data import read_iwslt_tsv
        from editor.restore.lab.scoring import with_asr_errors
        from editor.restore.lab.train_encoder import dev_scores, load_run_model

        words, gold = read_iwslt_tsv(a.data / "dev" / "dev2012.tsv")
        noisy_words, noisy_gold = with_asr_errors(words, gold, seed=0)
        for run in [*mix, a.out]:
            model, _ = load_run_model(run)
            dev = dev_scores(model, words, gold)["overall"]["f1"]
            noisy = dev_scores(model, noisy_words, noisy_gold)["overall"]["f1"]
            print(f"{run}: dev2012 {dev:.2f}, noisy copy {noisy:.2f} (argmax)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
