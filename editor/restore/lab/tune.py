"""Turn a training run's best checkpoint into a shipped model directory, tuning on dev only.

Steps (all on the dev sets of the data folder, DATA/dev): pick the chunk merge (centre-owned vs. the paper's
min_words_cut extremes vs. weighted marginals), fit calibration temperatures on half of the dev
talks and report calibration on the other half, tune the weights of the 3-class decision on
dev2012.tsv (among "no mark" weights within 0.05 F1 of the best, the one with the best case F1 on
the dev talks wins) and the weight of "lower" in the case decision on the dev talks, then score
everything with the final settings and export (float16 weights + checksums).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import torch

from editor.restore.passes.inference import Restorer
from editor.restore.lab.data import read_cased_paragraphs, read_cased_talks, read_iwslt_tsv
from editor.restore.lab.evaluate import calibration
from editor.restore.lab.names import counted_names
from editor.restore.lab.train_config import DEFAULT_DATA_DIR, DEFAULT_SOURCES, TRAINING_LANGUAGE, weights_licence
from editor.restore.lab.tune_decision import (decision_settings, f1_with_scale, final_scores, tune_decision,
                                              tune_decision_of_model_dir, tune_paragraph_ends,
                                              tune_paragraphs_of_model_dir)
from editor.restore.model.labels import CASE_CLASSES, CASE_INDEX, MARK_GROUP, PUNCT_INDEX, PUNCT_MARKS, THREE_CLASS
from editor.restore.model.encoder import EncoderBiLSTMCRF
from editor.restore.model.bilstm_crf import BiLSTMCRF, ModelConfig
from editor.restore.model.package import export_model
from editor.restore.model.quant import dequantize_state, quantize_state
from editor.restore.model.vocab import Vocab
from editor.restore.passes.windows import DEFAULT_OVERLAP, DEFAULT_SIZE, joint_marginals_chunked


def load_run_checkpoint(path: Path) -> tuple[BiLSTMCRF | EncoderBiLSTMCRF, Vocab, dict, dict]:
    """A word-model run's best.pt, or an encoder run's folder (run.json and its weights). The encoder
    family reads words by its tokenizer; it borrows the shipped word model's vocabulary (which
    words the language check and the comma-capital rule know) and mixed-case lexicon."""
    if path.is_dir():
        from editor.restore.lab.train import vocabulary_of_model_dir
        from editor.restore.lab.train_encoder import load_run_model
        from editor.restore.model.package import WORD_MODEL, resource_model_dir

        model, run = load_run_model(path)
        if (path / "vocab.json").is_file() and (path / "lexicon.json").is_file():
            # counted on the run's own training text (editor.restore.lab.train_frozen)
            vocab = Vocab.from_dict(json.loads((path / "vocab.json").read_text(encoding="utf-8")))
            lexicon = json.loads((path / "lexicon.json").read_text(encoding="utf-8"))
        else:
            vocab, lexicon = vocabulary_of_model_dir(resource_model_dir(WORD_MODEL))
        return model, vocab, lexicon, {"metrics": run["best"], "train_config": {"sources": run["sources"]},
                                       "run": {k: run[k] for k in ("origin", "settings", "seen", "history")}}
    ck = torch.load(path, map_location="cpu", weights_only=True)
    model = BiLSTMCRF(ModelConfig(**ck["model_args"]))
    model.load_state_dict(ck["state_dict"])
    model.eval()
    return model, Vocab.from_dict(ck["vocab"]), ck["lexicon"], ck


def _nll(p: np.ndarray, gold: np.ndarray, t: float) -> float:
    q = np.power(np.clip(p, 1e-12, 1), 1 / t)
    q /= q.sum(1, keepdims=True)
    return float(-np.log(np.clip(q[np.arange(len(gold)), gold], 1e-12, 1)).mean())


def fit_temperature(p: np.ndarray, gold: np.ndarray) -> float:
    grid = np.exp(np.linspace(np.log(0.4), np.log(3.0), 61))
    return float(grid[int(np.argmin([_nll(p, gold, t) for t in grid]))])


def _ece_at(p: np.ndarray, gold: np.ndarray, t: float, scale: float = 1.0) -> dict:
    q = np.power(np.clip(p, 1e-12, 1), 1 / t)
    q /= q.sum(1, keepdims=True)
    s = q.copy()
    s[:, 0] *= scale
    pred = s.argmax(1)
    conf = q[np.arange(len(pred)), pred]
    return calibration(conf, pred == gold)


MERGES = {
    "centre (cut=overlap/2)": {"cut": DEFAULT_OVERLAP // 2},
    "min_words_cut=0": {"cut": 0},
    f"min_words_cut={DEFAULT_OVERLAP}": {"cut": DEFAULT_OVERLAP},
    "weighted marginals": {"merge": "weighted"},
}


def tune(run_best: Path, data_dir: Path, out_dir: Path, name: str, log=print, merges: list[str] | None = None) -> dict:
    t0 = time.time()
    model, vocab, lexicon, ck = load_run_checkpoint(run_best)
    if isinstance(model, EncoderBiLSTMCRF):
        # tuned and measured with the weights as shipped (large matrices stored in int8)
        model.load_state_dict(dequantize_state(quantize_state(model.state_dict())))
        model.window_cache = {}  # every step reads the same dev windows: run each through the network once
    words, gold = read_iwslt_tsv(data_dir / "dev" / "dev2012.tsv")
    report: dict = {"checkpoint_metrics": ck.get("metrics"), "train_config": ck.get("train_config")}

    # 1. chunk merge, on dev2012 with plain argmax
    merges_done: dict = {}
    for label, kw in MERGES.items():
        if merges and label not in merges:
            continue
        joint = joint_marginals_chunked(model, vocab, words, DEFAULT_SIZE, DEFAULT_OVERLAP, **kw)
        punct = joint.reshape(-1, len(PUNCT_MARKS), len(CASE_CLASSES)).sum(2)
        merges_done[label] = {"f1": f1_with_scale(punct, gold, 1.0), "kw": kw, "punct": punct}
        log(f"merge {label}: dev2012 overall F1 {merges_done[label]['f1']:.2f}")
    merges = merges_done
    # weighted marginals can only be reported once both neighbours of a region are done, which
    # delays what the editor shows; it has to win clearly (0.2 F1) to be chosen
    best_merge = max(merges, key=lambda k: merges[k]["f1"] - (0.2 if merges[k]["kw"].get("merge") == "weighted" else 0.0))
    report["merge"] = {k: round(v["f1"], 2) for k, v in merges.items()}
    report["merge_chosen"] = best_merge
    punct = merges[best_merge]["punct"]
    kw = merges[best_merge]["kw"]
    chunking = {"size": DEFAULT_SIZE, "overlap": DEFAULT_OVERLAP, "cut": kw.get("cut"), "merge": kw.get("merge", "owned")}

    # 2. calibration temperatures on even dev talks; measured on odd talks
    docs = [d for d in read_cased_talks(data_dir / "dev" / "ted_dev2012_talks.txt") if d]
    P, C, GP, GC, half, talk_joint = [], [], [], [], [], []
    for k, doc in enumerate(docs):
        j = joint_marginals_chunked(model, vocab, [w.word for w in doc], DEFAULT_SIZE, DEFAULT_OVERLAP, **kw)
        talk_joint.append(j)
        j = j.reshape(-1, len(PUNCT_MARKS), len(CASE_CLASSES))
        P.append(j.sum(2))
        C.append(j.sum(1))
        GP.extend(PUNCT_INDEX[w.punct] for w in doc)
        GC.extend(CASE_INDEX[w.case] for w in doc)
        half.extend([k % 2] * len(doc))
    P, C = np.concatenate(P), np.concatenate(C)
    GP, GC, half = np.asarray(GP), np.asarray(GC), np.asarray(half)
    fit, held = half == 0, half == 1
    tp = fit_temperature(P[fit], GP[fit])
    tc = fit_temperature(C[fit], GC[fit])
    report["calibration_fit"] = {
        "punct_temperature": tp, "case_temperature": tc, "fit_on": "even-numbered dev talks", "reported_on": "odd-numbered dev talks",
        "punct_ece_before": _ece_at(P[held], GP[held], 1.0)["ece"], "punct_ece_after": _ece_at(P[held], GP[held], tp)["ece"],
        "case_ece_before": _ece_at(C[held], GC[held], 1.0)["ece"], "case_ece_after": _ece_at(C[held], GC[held], tc)["ece"],
    }
    log(f"calibration: {report['calibration_fit']}")

    # 3. the decision rule on dev: honest 3-class weights on dev2012, the joint case thresholds on the dev talks
    settings = {"decision": {"class_scales": {c: 1.0 for c in THREE_CLASS}, "capitalize_sentences": True},
                "calibration": {"punct_temperature": tp, "case_temperature": tc}, "chunking": chunking}
    # the names lexicon first: the case thresholds are tuned with the rule that uses it
    sources = (ck.get("train_config") or {}).get("sources") or DEFAULT_SOURCES
    present = [s for s in sources if (sources[s] if isinstance(sources, dict) else 1) > 0
               and (data_dir / "train" / f"{s}.txt.gz").is_file()]
    names = counted_names(vocab.words, data_dir, present, log=log) if present else None
    if names is None:
        log(f"{data_dir / 'train'}: no training text to count names in; the model has no names lexicon")
    restorer = Restorer(model, vocab, lexicon, settings, torch.device("cpu"), name=name,
                        names=frozenset(names[0]) if names else None)
    report.update(tune_decision(restorer, data_dir, log=log))
    settings["decision"] = decision_settings(restorer)
    # 6. paragraph breaks: how much likelier a sentence end is at the last word of a paragraph
    report["paragraph_ends"] = tune_paragraph_ends(
        restorer, [d for d in read_cased_paragraphs(data_dir / "dev" / "ted_dev2012_talks.txt") if d[0]], log=log)
    settings["decision"]["paragraph_end_odds"] = report["paragraph_ends"]["odds"]
    scores = final_scores(restorer, data_dir)
    report.update(scores)
    metrics = scores["metrics"]
    log(f"dev2012 final: overall F1 {metrics['dev2012_overall_f1']:.2f} (with simulated recognition errors "
        f"{metrics['dev2012_noisy_f1']:.2f}), case F1 {metrics['dev_talks_case_f1']:.2f}")
    if isinstance(model, EncoderBiLSTMCRF):
        model.window_cache = None
    export_model(model, vocab, lexicon, out_dir, name=name, decision=settings["decision"],
                 calibration=settings["calibration"], chunking=chunking, metrics=metrics,
                 language=TRAINING_LANGUAGE, names=names,
                 licence=weights_licence(sources, isinstance(model, EncoderBiLSTMCRF)))
    report["metrics"] = metrics
    report["tune_seconds"] = time.time() - t0
    return report


def quick_compare(checkpoints: dict[str, Path], data_dir: Path, log=print) -> dict:
    """Equal-budget comparison of training variants on dev2012: F1 with the argmax decision, F1 with
    the tuned "no mark" scale, and the raw (uncalibrated) calibration error of the 3-class decision."""
    words, gold = read_iwslt_tsv(data_dir / "dev" / "dev2012.tsv")
    to3 = np.asarray(MARK_GROUP, float)  # (7 marks, 4 classes)
    g = np.asarray([THREE_CLASS.index(x) for x in gold])
    out = {}
    for name, path in checkpoints.items():
        model, vocab, _lex, ck = load_run_checkpoint(path)
        joint = joint_marginals_chunked(model, vocab, words)
        punct = joint.reshape(-1, len(PUNCT_MARKS), len(CASE_CLASSES)).sum(2)
        f1s = {s: f1_with_scale(punct, gold, s) for s in np.round(np.arange(0.3, 1.51, 0.05), 2)}
        best = max(f1s, key=f1s.get)
        p3 = punct @ to3
        pred = p3.argmax(1)
        out[name] = {"seen": ck["metrics"]["seen"], "f1_argmax": f1s[1.0], "f1_tuned": f1s[best], "none_scale": float(best),
                     "ece_raw": calibration(p3[np.arange(len(pred)), pred], pred == g)["ece"]}
        log(f"{name}: {out[name]}")
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("best", nargs="?", help="best.pt of a training run, or the folder of an encoder run")
    p.add_argument("out", nargs="?", help="model directory to write")
    p.add_argument("--data", default=DEFAULT_DATA_DIR)
    p.add_argument("--name", default="stet-en-bilstm-crf")
    p.add_argument("--report", help="write the full tuning report (JSON) here")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--merge", action="append", choices=list(MERGES),
                   help="only try these chunk merges (repeatable; default: all)")
    p.add_argument("--decision", metavar="MODEL_DIR",
                   help="only re-tune the decision rule of an exported model directory on dev and re-score it (updates "
                        "its config, checksums and TUNING_REPORT.json)")
    p.add_argument("--paragraphs", metavar="MODEL_DIR",
                   help="only fit the paragraph-end odds of an exported model directory (updates its config, "
                        "checksums and TUNING_REPORT.json)")
    a = p.parse_args(argv)
    torch.set_num_threads(a.threads)

    def log(s: str) -> None:
        print(time.strftime("%H:%M:%S"), s, flush=True)

    if a.decision:
        tune_decision_of_model_dir(Path(a.decision), Path(a.data), log=log)
        return 0
    if a.paragraphs:
        tune_paragraphs_of_model_dir(Path(a.paragraphs), Path(a.data), log=log)
        return 0
    if not (a.best and a.out):
        p.error("give BEST and OUT, or --paragraphs MODEL_DIR")
    rep = tune(Path(a.best), Path(a.data), Path(a.out), a.name, log=log, merges=a.merge)
    if a.report:
        Path(a.report).write_text(json.dumps(rep, indent=1, default=float))
    return 0


if __name__ == "__main__":
    sys.exit(main())
