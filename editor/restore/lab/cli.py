"""`stet eval` and `stet train`: scoring a model on reference text, training one and exporting it.
torch is imported inside the handlers only."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from editor.commandline.arguments import add_encoding_argument
from editor.restore.lab.train_config import add_train_arguments, train_config_from_args


def _error_rates() -> str:
    from editor.restore.model.labels import ASR_ERRORS

    return ", ".join(f"{100 * rate:g} %% of words {verb}" for verb, rate in
                     zip(("substituted", "dropped", "inserted"),
                         (ASR_ERRORS["substitute"], ASR_ERRORS["delete"], ASR_ERRORS["insert"])))


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "eval", help="score the restoration model on a reference file",
        description="FILE is IWSLT-style `word<TAB>LABEL` (labels O, COMMA, PERIOD, QUESTION; contractions "
                    "split as `do n't` are joined as an ASR engine writes them) or cased, punctuated text "
                    "(`# ` lines separate documents; each other line is a paragraph, whose break the model "
                    "is given as the editor gives it a document's paragraphs), or a reviewed transcript in any format "
                    "Stet reads (.srt, .vtt, .json, .stet...), scored on its words as they stand, a paragraph "
                    "a line. Reports P/R/F1 per class and overall, slot error rate, "
                    "sentence accuracy, calibration error and precision/coverage at confidence >= 0.9; for "
                    "text also case P/R/F1.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print the full result as JSON")
    p.add_argument("--simulate-asr-errors", type=int, nargs="?", const=0, default=None, metavar="SEED",
                   help="score a copy of a word<TAB>LABEL FILE with the recognition errors training simulates "
                        f"({_error_rates()}; seed 0 unless given)")
    p.add_argument("--asr-noise", choices=("random", "recognizer"), default="random",
                   help="with --simulate-asr-errors, the kind of errors: 'random' (any word of the text replaces a "
                        "word) or 'recognizer' (words that sound alike by a pronouncing dictionary, short words "
                        "dropped, compounds split and merged; needs the training extra)")
    p.add_argument("--ignore-paragraphs", action="store_true",
                   help="in cased text, do not give the model the paragraph breaks (the words alone, as in "
                        "the word<TAB>LABEL benchmarks)")
    p.add_argument("--simulate-review", type=_share, default=None, metavar="SHARE",
                   help="cased text only: per talk, a simulated reviewer fixes every error in the first SHARE "
                        "(e.g. 0.2) of its words, Stet learns from them (what the editor learns from a review: "
                        "a mark bias, remembered case forms and marks between word pairs), and the rest is "
                        "scored before and after: overall F1, case F1, and the words the person still has "
                        "to change")
    p.add_argument("--adapt-heads", action="store_true",
                   help="with --simulate-review, also tune the model's output layer on the reviewed words")
    p.add_argument("--case-odds", type=float, default=None, metavar="X",
                   help="with --simulate-review, how strongly a remembered case form moves the odds (default: "
                        "the editor's)")
    p.add_argument("--review-cost", action="store_true",
                   help="cased text only: what a review costs a person. Raw words in, one accept-all at the "
                        "high threshold (as Ctrl+Shift+A), then every suggestion in reading order decided as "
                        "the text says (a sentence end and its capital one decision), then one fix for each "
                        "mark or capital no suggestion offered: decisions and fixes per 1,000 words, and the "
                        "F1s of the text after the decisions")
    p.add_argument("--commas", default=None, metavar="STYLE",
                   help="with --review-cost, the comma style (sure, careful, every-pause; default: the "
                        "editor's)")
    p.add_argument("--talks", type=int, default=None, metavar="N",
                   help="with --review-cost, only the first N talks")
    p.add_argument("--device", default="auto", choices=("auto", "cpu", "cuda"))
    p.add_argument("--model", metavar="DIR", help="a model directory, or the name of a shipped one (default: the "
                                                  "shipped default; stet-en-bilstm-crf is the fast word model)")
    add_encoding_argument(p)
    p.set_defaults(handler=run_eval)

    p = subparsers.add_parser(
        "train", help="train the restoration model (needs the training text and the `train` extra)",
        description="Train the BiLSTM-CRF on DATA/train/*.txt.gz, selecting on DATA/dev. A run folder "
                    "holds a resumable checkpoint: run the same command again to continue. With "
                    "--export, tune the best checkpoint on dev and write a model directory instead.")
    add_train_arguments(p)
    p.add_argument("--export", metavar="MODEL_DIR", help="tune the run's best checkpoint on dev and write MODEL_DIR")
    p.add_argument("--family", choices=("word", "encoder"), default="word",
                   help="'word': the BiLSTM-CRF on word embeddings (default); 'encoder': all-MiniLM-L6-v2 under "
                        "the BiLSTM-CRF, trained for a wall-clock budget (--seconds), on CPU or CUDA")
    from editor.restore.lab.train_encoder_args import add_encoder_arguments

    add_encoder_arguments(p, standalone=False)
    p.set_defaults(handler=run_train)

    p = subparsers.add_parser(
        "names", help="count a model's names lexicon in the training text (needs the training text)",
        description="Write MODEL_DIR/names.json: the words of the model's vocabulary that the training text "
                    "writes capitalised where no sentence starts (names, \"I\", \"OK\"). Only they, words the "
                    "vocabulary does not hold, and mixed forms of the lexicons take a capital right after a "
                    "suggested , or ;. `stet train --export` writes it too; this adds it to a model exported "
                    "before. The model's checksums are rewritten.")
    p.add_argument("model", metavar="MODEL_DIR")
    p.add_argument("--data", default=None, metavar="DIR", help="the data folder with train/*.txt.gz "
                                                               "(default: ../shared/data)")
    p.add_argument("--sources", nargs="+", metavar="NAME", default=None,
                   help="the training sources to count (default: those the model was trained on, as its "
                        "model card's train_config gives them, else every default source)")
    p.set_defaults(handler=run_names)


def _share(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 < v < 1.0:
        raise argparse.ArgumentTypeError(f"{text} is not a share between 0 and 1 (e.g. 0.2)")
    return v


def run_eval(args: argparse.Namespace) -> int:
    from editor.core.threads import configure_threads

    configure_threads()
    from editor.restore.passes.inference import Restorer
    from editor.restore.lab.scoring import format_report, score_file

    if args.review_cost or args.commas is not None or args.talks is not None:
        return _run_review_cost(args)
    restorer = Restorer.load(args.model, args.device)
    if args.adapt_heads and args.simulate_review is None:
        from editor.core.errors import UserError

        raise UserError("--adapt-heads goes with --simulate-review SHARE")
    if args.case_odds is not None and (args.simulate_review is None or not args.case_odds > 0):
        from editor.core.errors import UserError

        raise UserError("--case-odds goes with --simulate-review SHARE and is a number above 0")
    if args.asr_noise != "random" and args.simulate_asr_errors is None:
        from editor.core.errors import UserError

        raise UserError("--asr-noise goes with --simulate-asr-errors")
    res = score_file(restorer, args.file, args.simulate_asr_errors, paragraphs=not args.ignore_paragraphs,
                     simulate_review=args.simulate_review, adapt_heads=args.adapt_heads, case_odds=args.case_odds,
                     encoding=args.encoding, asr_noise=args.asr_noise)
    if args.json:
        print(json.dumps(res, indent=1))
    else:
        print(format_report(res))
    return 0


def _run_review_cost(args: argparse.Namespace) -> int:
    from editor.core.commas import DEFAULT_COMMAS, comma_line
    from editor.core.errors import UserError

    if not args.review_cost:
        raise UserError("--commas and --talks go with --review-cost")
    if args.talks is not None and args.talks < 1:
        raise UserError("--talks is a number of talks, 1 or more")
    commas = DEFAULT_COMMAS if args.commas is None else args.commas
    comma_line(commas)  # a style that is none is said before the model loads
    from editor.restore.passes.inference import Restorer
    from editor.restore.lab.review_cost import review_cost_file

    restorer = Restorer.load(args.model, args.device)
    res = review_cost_file(restorer, args.file, commas, limit=args.talks, encoding=args.encoding)
    if args.json:
        print(json.dumps(res, indent=1))
    else:
        r = res["review_cost"]
        final = ", ".join(f"{k.removesuffix('_f1').replace('_', ' ')} {v:.1f}" for k, v in r["final"].items())
        print(f"{r['words']:,} words, {r['talks']} talks, commas {r['commas']}: "
              f"{r['decisions_per_1000_words']} decisions and {r['fixes_per_1000_words']} fixes per 1,000 words "
              f"after one accept-all at {r['threshold']:.0%}; F1 after the decisions: {final}")
    return 0


def run_train(args: argparse.Namespace) -> int:
    from editor.core.errors import UserError

    data = Path(args.data_dir)  # --data and --out are TrainConfig's data_dir and out_dir
    if not (data / "train").is_dir() or not (data / "dev" / "dev2012.tsv").is_file():
        raise UserError(f"{data}: expected train/*.txt.gz and dev/dev2012.tsv there (see --data)")
    def log(s: str) -> None:
        print(time.strftime("%H:%M:%S"), s, flush=True)
    if args.export:
        from editor.restore.lab.tune import tune

        best = Path(args.out_dir) / ("best.pt" if args.family == "word" else "")
        if args.family == "encoder" and not (best / "run.json").is_file():
            raise UserError(f"{best}: no encoder run in this folder yet")
        if not best.exists():
            raise UserError(f"{best}: no best checkpoint in this run folder yet")
        rep = tune(best, data, Path(args.export), Path(args.export).name, log=log)
        (Path(args.export).parent / f"{Path(args.export).name}.tuning.json").write_text(json.dumps(rep, indent=1, default=float))
        return 0
    if args.family == "encoder":
        from editor.restore.lab.train_encoder import train as train_encoder

        out = Path(args.out_dir)
        args.out, args.data = out, str(data)
        args.resume = out if (out / "run.json").is_file() else None
        if args.resume is None and args.encoder is None:
            raise UserError("a first encoder run needs --encoder DIR (the published all-MiniLM-L6-v2: "
                            "model.safetensors, config.json, tokenizer.json)")
        if args.lr == 2e-3:  # the word model's default is far too high for a pretrained encoder
            args.lr = 8e-5
        args.sources = train_config_from_args(args).sources
        return train_encoder(args)
    from editor.restore.lab.train import train

    train(train_config_from_args(args), log=log)
    return 0


def run_names(args: argparse.Namespace) -> int:
    from editor.core.errors import UserError
    from editor.restore.lab.names import counted_names
    from editor.restore.lab.train_config import DEFAULT_DATA_DIR, DEFAULT_SOURCES
    from editor.restore.model.package import ModelError, verify_checksums, write_checksums, write_names

    model_dir = Path(args.model)
    if not model_dir.is_dir():
        raise UserError(f"{model_dir}: no such model directory")
    verify_checksums(model_dir)
    try:
        words = json.loads((model_dir / "vocab.json").read_text(encoding="utf-8"))["words"]
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise ModelError(f"{model_dir / 'vocab.json'}: not a vocabulary ({err})") from None
    sources = args.sources
    if sources is None:
        try:
            report = json.loads((model_dir / "TUNING_REPORT.json").read_text(encoding="utf-8"))
            sources = list((report.get("train_config") or {}).get("sources") or [])
        except (OSError, ValueError):
            sources = []
        sources = sources or list(DEFAULT_SOURCES)
    names, about = counted_names(words, Path(args.data or DEFAULT_DATA_DIR), sources)
    write_names(model_dir, names, about)
    write_checksums(model_dir)
    print(f"{model_dir / 'names.json'}: {len(names):,} name{'' if len(names) == 1 else 's'}")
    return 0
