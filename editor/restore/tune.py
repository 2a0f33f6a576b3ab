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

from editor.restore.data import read_cased_paragraphs, read_cased_talks, read_iwslt_tsv
from editor.restore.evaluate import calibration, case_scores, punct_scores
from editor.restore.inference import DEFAULT_OVERLAP, DEFAULT_SIZE, Restorer, decide_marks, joint_marginals_chunked
from editor.restore.labels import (CASE_CLASSES, CASE_INDEX, END_INDEX, MARK_TO_3CLASS, MARK_GROUP, PUNCT_INDEX,
                                   PUNCT_MARKS, THREE_CLASS)
from editor.restore.model import BiLSTMCRF, ModelConfig
from editor.restore.package import export_model, write_checksums
from editor.restore.scoring import score_text, score_tsv, with_asr_errors
from editor.restore.train_config import DEFAULT_DATA_DIR
from editor.restore.vocab import Vocab


def load_run_checkpoint(path: Path) -> tuple[BiLSTMCRF, Vocab, dict, dict]:
    ck = torch.load(path, map_location="cpu", weights_only=True)
    model = BiLSTMCRF(ModelConfig(**ck["model_args"]))
    model.load_state_dict(ck["state_dict"])
    model.eval()
    return model, Vocab.from_dict(ck["vocab"]), ck["lexicon"], ck


def _f1_with_scales(punct: np.ndarray, gold: list[str], scales) -> float:
    pred = [MARK_TO_3CLASS[PUNCT_MARKS[i]] for i in decide_marks(punct, np.asarray(scales, float))]
    return punct_scores(gold, pred)["overall"]["f1"]


def _f1_with_scale(punct: np.ndarray, gold: list[str], scale: float) -> float:
    """F1 with "no mark" scaled by `scale` and the other classes unweighted."""
    return _f1_with_scales(punct, gold, [scale, 1.0, 1.0, 1.0])


def tune_class_scales(punct: np.ndarray, gold: list[str], log=print) -> dict:
    """Weights of the 3-class decision on dev2012: first "no mark" alone on a grid, then COMMA and
    QUESTION relative to PERIOD (fixed at 1) by coordinate ascent, two rounds."""
    grid = [round(x, 2) for x in np.arange(0.3, 1.51, 0.05)]
    none_grid = {g: _f1_with_scale(punct, gold, g) for g in grid}
    scales = [float(max(none_grid, key=none_grid.get)), 1.0, 1.0, 1.0]
    best = none_grid[scales[0]]
    for _round in range(2):
        for k in (1, 3, 0):
            for v in grid:
                trial = list(scales)
                trial[k] = float(v)
                f = _f1_with_scales(punct, gold, trial)
                if f > best + 1e-9:
                    best, scales = f, trial
    log(f"decision weights {dict(zip(THREE_CLASS, scales))}: F1 {best:.2f} "
        f"(no mark scaled alone: {none_grid[max(none_grid, key=none_grid.get)]:.2f}; unweighted {none_grid[1.0]:.2f})")
    return {"none_grid": {str(k): round(v, 2) for k, v in none_grid.items()}, "chosen": dict(zip(THREE_CLASS, scales)),
            "f1_chosen": round(best, 2), "f1_none_only": round(max(none_grid.values()), 2), "f1_unweighted": round(none_grid[1.0], 2)}


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


PARAGRAPH_ODDS_GRID = (1, 1.5, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 70, 100)


def tune_paragraph_ends(restorer: Restorer, docs: list[tuple[list, list[int]]], log=print) -> dict:
    """Fit `paragraph_end_odds` on the paragraph breaks of the dev talks (their lines): the factor
    on the odds of a sentence end at a paragraph's last word that maximises the likelihood of the
    reference marks there on the even-numbered talks; reported on the odd-numbered ones. Sets it
    on `restorer` and returns the report."""
    from editor.restore.inference import boost_sentence_ends

    restorer.paragraph_end_odds = 1.0
    rows, gold, talk = [], [], []
    for k, (words, starts) in enumerate(docs):
        preds = restorer.restore([w.word for w in words])
        for s in starts[1:]:
            rows.append([preds[s - 1].punct_probs[m] for m in PUNCT_MARKS])
            gold.append(PUNCT_INDEX[words[s - 1].punct])
            talk.append(k)
    if not rows:
        log("paragraph ends: none in the dev talks; paragraph breaks are not used")
        return {"odds": 1.0, "fit_on": "no paragraph ends in the dev talks", "reported_on": ""}
    P, G, T = np.asarray(rows), np.asarray(gold), np.asarray(talk)
    fit, held = T % 2 == 0, T % 2 == 1

    def loglik(odds: float, sel: np.ndarray) -> float:
        q = boost_sentence_ends(P[sel], odds)
        return float(np.log(np.clip(q[np.arange(len(q)), G[sel]], 1e-12, 1)).mean())

    grid = {str(o): round(loglik(o, fit), 4) for o in PARAGRAPH_ODDS_GRID}
    odds = float(max(grid, key=grid.get))

    def measured(o: float) -> dict:
        q = boost_sentence_ends(P[held], o)
        d = decide_marks(q, restorer.class_scales)
        right = d == G[held]
        ends, said_end = np.isin(G[held], END_INDEX), np.isin(d, END_INDEX)
        return {"marks_right": 100 * float(right.mean()), "sentence_end_right": 100 * float((ends == said_end).mean()),
                "ece": calibration(q[np.arange(len(q)), d], right)["ece"], "log_likelihood": loglik(o, held)}

    odd_docs = [d for k, d in enumerate(docs) if k % 2 == 1]

    def odd_talks(o: float) -> dict:
        restorer.paragraph_end_odds = o
        res = score_text(restorer, [w for w, _s in odd_docs], [s for _w, s in odd_docs])
        return {"overall_f1": res["overall"]["f1"], "case_f1": res["case"]["f1"], "sentence_accuracy": res["sentence_accuracy"],
                "all_marks_f1": res["all_marks"]["overall"]["f1"]}

    report = {
        "odds": odds, "fit_on": f"{int(fit.sum()):,} paragraph ends of the even-numbered dev talks",
        "reported_on": f"{int(held.sum()):,} paragraph ends of the odd-numbered dev talks",
        "reference_marks_at_paragraph_ends": {m or "none": int((G == i).sum()) for i, m in enumerate(PUNCT_MARKS)},
        "log_likelihood_grid": grid, "before": measured(1.0), "after": measured(odds),
        "odd_talks_before": odd_talks(1.0), "odd_talks_after": odd_talks(odds),
    }
    restorer.paragraph_end_odds = odds
    log(f"paragraph ends: odds x{odds:g}; {report}")
    return report


def tune_paragraphs_of_model_dir(model_dir: Path, data_dir: Path, log=print) -> dict:
    """Fit `paragraph_end_odds` for an exported model directory: config.json, its checksum and the
    directory's TUNING_REPORT.json (when there is one) are updated."""
    restorer = Restorer.load(str(model_dir), device="cpu")
    docs = [d for d in read_cased_paragraphs(data_dir / "dev" / "ted_dev2012_talks.txt") if d[0]]
    rep = tune_paragraph_ends(restorer, docs, log=log)
    config = json.loads((model_dir / "config.json").read_text())
    config["decision"]["paragraph_end_odds"] = rep["odds"]
    (model_dir / "config.json").write_text(json.dumps(config, indent=1))
    write_checksums(model_dir)
    report_path = model_dir / "TUNING_REPORT.json"
    if report_path.is_file():
        full = json.loads(report_path.read_text())
        full["paragraph_ends"] = rep
        report_path.write_text(json.dumps(full, indent=1, default=float))
    return rep


def tune(run_best: Path, data_dir: Path, out_dir: Path, name: str, log=print) -> dict:
    t0 = time.time()
    model, vocab, lexicon, ck = load_run_checkpoint(run_best)
    words, gold = read_iwslt_tsv(data_dir / "dev" / "dev2012.tsv")
    report: dict = {"checkpoint_metrics": ck.get("metrics"), "train_config": ck.get("train_config")}

    # 1. chunk merge, on dev2012 with plain argmax
    merges = {}
    for label, kw in {
        "centre (cut=overlap/2)": {"cut": DEFAULT_OVERLAP // 2},
        "min_words_cut=0": {"cut": 0},
        f"min_words_cut={DEFAULT_OVERLAP}": {"cut": DEFAULT_OVERLAP},
        "weighted marginals": {"merge": "weighted"},
    }.items():
        joint = joint_marginals_chunked(model, vocab, words, DEFAULT_SIZE, DEFAULT_OVERLAP, **kw)
        punct = joint.reshape(-1, len(PUNCT_MARKS), len(CASE_CLASSES)).sum(2)
        merges[label] = {"f1": _f1_with_scale(punct, gold, 1.0), "kw": kw, "punct": punct}
        log(f"merge {label}: dev2012 overall F1 {merges[label]['f1']:.2f}")
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

    # 3. the decision weights of the 3-class groups, on dev2012 with the calibrated punctuation distribution
    q = np.power(np.clip(punct, 1e-12, 1), 1 / tp)
    q /= q.sum(1, keepdims=True)
    report["decision"] = tune_class_scales(q, gold, log=log)

    def restorer_with(scales: dict, case_scales: dict | None = None) -> Restorer:
        settings = {"decision": {"class_scales": scales, "case_scales": case_scales or {}, "capitalize_sentences": True},
                    "calibration": {"punct_temperature": tp, "case_temperature": tc}, "chunking": chunking}
        return Restorer(model, vocab, lexicon, settings, torch.device("cpu"), name=name)

    gold_surface = [w.surface for d in docs for w in d]

    def talks_case_f1(r: Restorer) -> float:
        """Case F1 on the dev talks from their marginals computed above (only the decisions change)."""
        pred = [p.text.removesuffix(".") for doc, j in zip(docs, talk_joint)
                for p in r.predictions([w.word for w in doc], j, first_is_start=True, last_is_end=True)]
        return round(case_scores(gold_surface, pred)["f1"], 2)

    # 4. the punctuation F1 is flat near its best (a few hundredths between neighbouring "no mark"
    # weights), but the weight also decides where sentences start, so where capitals go: among the
    # "no mark" weights within 0.05 F1 of the best, take the one with the best case F1 on the dev talks
    report["decision"]["case_tie_break"] = tie = {}
    chosen = dict(report["decision"]["chosen"])
    for o in [round(x, 2) for x in np.arange(0.3, 1.01, 0.05)]:
        trial = {**chosen, "O": o}
        f1 = _f1_with_scales(q, gold, [trial[c] for c in THREE_CLASS])
        if f1 < report["decision"]["f1_chosen"] - 0.05:
            continue
        tie[str(o)] = {"f1": round(f1, 2), "case_f1": talks_case_f1(restorer_with(trial))}
    best_o = max(tie, key=lambda o: (tie[o]["case_f1"], tie[o]["f1"]))
    report["decision"]["chosen"] = {**chosen, "O": float(best_o)}
    log(f"case tie-break among 'no mark' weights within 0.05 F1 of the best: {tie}; chosen O = {best_o}")

    # 5. the case decision: the weight of "lower" against the capitals, for case F1 on the dev talks
    # (the case head leaves more capitals out than it puts in wrongly)
    lower_grid = {}
    for lw in [round(x, 2) for x in np.arange(0.4, 1.01, 0.05)]:
        lower_grid[str(lw)] = talks_case_f1(restorer_with(report["decision"]["chosen"], {"lower": lw}))
    best_lower = max(lower_grid, key=lambda k: (lower_grid[k], float(k)))
    case_chosen = {"lower": float(best_lower)}
    report["case_decision"] = {"lower_grid": lower_grid, "chosen": case_chosen}
    log(f"case decision, weight of 'lower' -> case F1 on the dev talks: {lower_grid}; chosen {best_lower}")

    restorer = restorer_with(report["decision"]["chosen"], case_chosen)
    settings = restorer.settings
    # 6. paragraph breaks: how much likelier a sentence end is at the last word of a paragraph
    report["paragraph_ends"] = tune_paragraph_ends(
        restorer, [d for d in read_cased_paragraphs(data_dir / "dev" / "ted_dev2012_talks.txt") if d[0]], log=log)
    settings["decision"]["paragraph_end_odds"] = report["paragraph_ends"]["odds"]
    tsv = score_tsv(restorer, words, gold)
    odd = [d for k, d in enumerate(docs) if k % 2 == 1]
    talks = score_text(restorer, docs)
    talks_odd = score_text(restorer, odd)
    noisy = score_tsv(restorer, *with_asr_errors(words, gold, seed=0))
    report["dev2012_tsv"] = tsv
    report["dev2012_noisy"] = noisy
    report["dev_talks"] = talks
    report["dev_talks_odd_half"] = {"calibration": talks_odd["calibration"], "high_confidence": talks_odd["high_confidence"]}
    log(f"dev2012 final: overall F1 {tsv['overall']['f1']:.2f} (with simulated recognition errors "
        f"{noisy['overall']['f1']:.2f}), case F1 {talks['case']['f1']:.2f}")
    metrics = {
        "dev2012_overall_f1": tsv["overall"]["f1"], "dev2012_comma_f1": tsv["COMMA"]["f1"],
        "dev2012_period_f1": tsv["PERIOD"]["f1"], "dev2012_question_f1": tsv["QUESTION"]["f1"],
        "dev2012_ser": tsv["ser"], "dev2012_noisy_f1": noisy["overall"]["f1"], "dev_talks_case_f1": talks["case"]["f1"],
        "dev_talks_sentence_accuracy": talks["sentence_accuracy"],
        "punct_ece_odd_talks": talks_odd["calibration"]["punct"]["all_words"]["ece"],
        "case_ece_odd_talks": talks_odd["calibration"]["case"]["all_words"]["ece"],
    }
    export_model(model, vocab, lexicon, out_dir, name=name, decision=settings["decision"],
                 calibration=settings["calibration"], chunking=chunking, metrics=metrics)
    report["metrics"] = metrics
    report["tune_seconds"] = time.time() - t0
    return report


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("best", nargs="?", help="best.pt of a training run")
    p.add_argument("out", nargs="?", help="model directory to write")
    p.add_argument("--data", default=DEFAULT_DATA_DIR)
    p.add_argument("--name", default="stet-en-bilstm-crf")
    p.add_argument("--report", help="write the full tuning report (JSON) here")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--paragraphs", metavar="MODEL_DIR",
                   help="only fit the paragraph-end odds of an exported model directory (updates its config, "
                        "checksums and TUNING_REPORT.json)")
    a = p.parse_args(argv)
    torch.set_num_threads(a.threads)
    log = lambda s: print(time.strftime("%H:%M:%S"), s, flush=True)  # noqa: E731
    if a.paragraphs:
        tune_paragraphs_of_model_dir(Path(a.paragraphs), Path(a.data), log=log)
        return 0
    if not (a.best and a.out):
        p.error("give BEST and OUT, or --paragraphs MODEL_DIR")
    rep = tune(Path(a.best), Path(a.data), Path(a.out), a.name, log=log)
    if a.report:
        Path(a.report).write_text(json.dumps(rep, indent=1, default=float))
    return 0


if __name__ == "__main__":
    sys.exit(main())


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
        f1s = {s: _f1_with_scale(punct, gold, s) for s in np.round(np.arange(0.3, 1.51, 0.05), 2)}
        best = max(f1s, key=f1s.get)
        p3 = punct @ to3
        pred = p3.argmax(1)
        out[name] = {"seen": ck["metrics"]["seen"], "f1_argmax": f1s[1.0], "f1_tuned": f1s[best], "none_scale": float(best),
                     "ece_raw": calibration(p3[np.arange(len(pred)), pred], pred == g)["ece"]}
        log(f"{name}: {out[name]}")
    return out
