"""The options of `stet train --family encoder` (and `python -m editor.restore.lab.train_encoder`).
Torch-free, so that `stet --help` lists them without loading torch."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_encoder_arguments(p: argparse.ArgumentParser, *, standalone: bool) -> None:
    """The encoder family's options: all of them for `python -m`, or those `stet train` lacks."""
    if standalone:
        p.add_argument("--data", default="../shared/data", help="folder with train/*.txt.gz and dev/dev2012.tsv")
        p.add_argument("--out", type=Path, required=True, help="the run folder (resumed where it holds a run)")
        p.add_argument("--lr", type=float, default=8e-5, help="peak learning rate of the encoder")
        p.add_argument("--asr-errors", type=float, default=0.5,
                       help="share of windows with simulated recognition errors")
        p.add_argument("--sources", default="default", help="'default' or name=weight,...")
        p.add_argument("--seed", type=int, default=7)
        p.add_argument("--resume", type=Path, help="start from another run's folder")
        p.add_argument("--from-model", type=Path, metavar="MODEL_DIR",
                       help="start from an exported encoder model directory (e.g. the shipped one)")
        p.add_argument("--write-int8", type=Path, metavar="DIR", help="only write --encoder in int8 to DIR and stop")
    g = p.add_argument_group("the encoder family (--family encoder)")
    g.add_argument("--encoder", type=Path, help="the published encoder's folder (model.safetensors, config.json, "
                                                "tokenizer.json), for a first run")
    g.add_argument("--seconds", type=float, default=480.0, help="wall-clock budget, preparation included (default 480)")
    g.add_argument("--device", default="auto", choices=("auto", "cpu", "cuda"), help="default: CUDA where torch finds it")
    g.add_argument("--words-per-batch", type=int, default=0, help="default: 12,800 on CUDA, 1,200 on CPU")
    g.add_argument("--workers", type=int, default=-1, help="DataLoader workers (default: cores - 2, at most 8)")
    g.add_argument("--head-lr", type=float, default=1e-3, help="peak learning rate of the BiLSTM, heads and CRF")
    g.add_argument("--lstm-hidden", type=int, default=256, help="BiLSTM units per direction of a first run (default 256)")
    g.add_argument("--dropout", type=float, default=0.1)
    g.add_argument("--freeze", type=int, default=0, help="keep the embeddings and the lowest N layers fixed (CPU)")
    g.add_argument("--eval-seconds", dest="eval_every", type=float, default=90.0,
                   help="seconds between dev evaluations (default 90)")
    g.add_argument("--dev-words", type=int, default=0, help="score the first N dev words only (0: all)")
