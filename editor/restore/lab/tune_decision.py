"""The decision rule of a model, tuned on dev only: the weights of the 3-class mark decision
(dev2012.tsv), the case thresholds of the joint decision, the author prior (editor.restore.lab.
author_prior) and the odds of a sentence end at a paragraph break (the dev talks); then the final
figures. `python -m editor.restore.lab.tune --decision / --paragraphs MODEL_DIR` re-tunes an
exported model directory with these."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from editor.restore.passes.decision import boost_sentence_ends, decide_marks
from editor.restore.passes.inference import Restorer
from editor.restore.lab.author_prior import tune_author_prior
from editor.restore.lab.data import read_cased_paragraphs, read_iwslt_tsv
from editor.restore.lab.evaluate import calibration, case_errors, case_scores, punct_scores
from editor.restore.lab.scoring import score_text, score_tsv, with_asr_errors
from editor.restore.lab.train_config import TRAINING_LANGUAGE
from editor.restore.model.labels import END_INDEX, MARK_TO_3CLASS, PUNCT_INDEX, PUNCT_MARKS, THREE_CLASS
from editor.restore.model.package import write_checksums
from editor.restore.passes.windows import joint_marginals_chunked


def f1_with_scales(punct: np.ndarray, gold: list[str], scales, honest: bool = False) -> float:
    """dev2012 overall F1 of the weighted 3-class decision; `honest`: a mark only where it is
    likelier than no mark (the rule the suggestions follow)."""
    idx = decide_marks(punct, np.asarray(scales, float))
    if honest:
        idx[punct[np.arange(len(idx)), idx] <= punct[:, 0]] = 0
    pred = [MARK_TO_3CLASS[PUNCT_MARKS[i]] for i in idx]
    return punct_scores(gold, pred)["overall"]["f1"]


def f1_with_scale(punct: np.ndarray, gold: list[str], scale: float) -> float:
    """F1 with "no mark" scaled by `scale` and the other classes unweighted."""
    return f1_with_scales(punct, gold, [scale, 1.0, 1.0, 1.0])


def tune_class_scales(punct: np.ndarray, gold: list[str], log=print, honest: bool = False) -> dict:
    """Weights of the 3-class decision on dev2012: first "no mark" alone on a grid, then COMMA and
    QUESTION relative to PERIOD (fixed at 1) by coordinate ascent, two rounds. `honest`: under the
    rule that a mark is suggested only where it is likelier than no mark."""
    grid = [round(x, 2) for x in np.arange(0.3, 1.51, 0.05)]
    none_grid = {g: f1_with_scales(punct, gold, [g, 1.0, 1.0, 1.0], honest) for g in grid}
    scales = [float(max(none_grid, key=none_grid.get)), 1.0, 1.0, 1.0]
    best = none_grid[scales[0]]
    for _round in range(2):
        for k in (1, 3, 0):
            for v in grid:
                trial = list(scales)
                trial[k] = float(v)
                f = f1_with_scales(punct, gold, trial, honest)
                if f > best + 1e-9:
                    best, scales = f, trial
    log(f"decision weights {dict(zip(THREE_CLASS, scales))}: F1 {best:.2f} "
        f"(no mark scaled alone: {none_grid[max(none_grid, key=none_grid.get)]:.2f}; unweighted {none_grid[1.0]:.2f})")
    return {"none_grid": {str(k): round(v, 2) for k, v in none_grid.items()}, "chosen": dict(zip(THREE_CLASS, scales)),
            "f1_chosen": round(best, 2), "f1_none_only": round(max(none_grid.values()), 2), "f1_unweighted": round(none_grid[1.0], 2)}


#: Thresholds tried for a capital not at a sentence start (the probability of the lowercase form
#: where no sentence ends before the word, below which the capital is suggested).
LOWER_GRID = (0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5)
#: The share of capitals after a suggested , : ; that the reference writes in lowercase that a
#: threshold may give: beyond it the capitals are no longer names and "I" alone.
WRONG_CAPITALS_AFTER_COMMA = 0.005


def tune_joint_case(restorer: Restorer, docs: list[tuple[list, list[int]]], joints: list[np.ndarray], log=print) -> dict:
    """The two case thresholds of the joint decision (see decision.decide_jointly), on the dev talks
    with their paragraphs: `position_free_lower` (after a suggested , : ;) is the largest of
    LOWER_GRID whose capitals there are names and "I" (at most WRONG_CAPITALS_AFTER_COMMA of them
    lowercase in the reference), `unmarked_lower` (after no mark) the one with the best case F1.
    Sets them on `restorer` and returns the report."""
    gold_surface = [w.surface for words, _s in docs for w in words]
    gold_marks = [w.punct for words, _s in docs for w in words]
    starts = np.cumsum([0] + [len(words) for words, _s in docs[:-1]]).tolist()

    def measure(free: float, unmarked: float, colon: float) -> dict:
        restorer.position_free_lower, restorer.unmarked_lower, restorer.colon_lower = free, unmarked, colon
        preds = []
        for (words, para), j in zip(docs, joints):
            ends = np.zeros(len(words), bool)
            ends[[k - 1 for k in para[1:]]] = True
            preds += restorer.predictions([w.word for w in words], j, first_is_start=True, last_is_end=True,
                                          paragraph_ends=ends)
        surf = [p.text.removesuffix(".") for p in preds]
        ce = case_errors(gold_marks, [p.punct for p in preds], gold_surface, surf, starts)
        return {"case_f1": round(case_scores(gold_surface, surf)["f1"], 2), "capitals_after_mid_mark": ce["capitals_after_mid_mark"],
                "wrong_capitals_after_mid_mark": ce["wrong_capitals_after_mid_mark"]}

    free_grid = {str(t): measure(t, 0.5, t) for t in LOWER_GRID}
    ok = [t for t in LOWER_GRID if free_grid[str(t)]["wrong_capitals_after_mid_mark"]
          <= WRONG_CAPITALS_AFTER_COMMA * max(free_grid[str(t)]["capitals_after_mid_mark"], 1)]
    free = max(ok) if ok else LOWER_GRID[0]
    unmarked_grid = {str(t): measure(free, t, free) for t in LOWER_GRID}
    unmarked = max(LOWER_GRID, key=lambda t: (unmarked_grid[str(t)]["case_f1"], t))
    colon_grid = {str(t): measure(free, unmarked, t) for t in LOWER_GRID}
    colon = max(LOWER_GRID, key=lambda t: (colon_grid[str(t)]["case_f1"], t))
    restorer.position_free_lower, restorer.unmarked_lower, restorer.colon_lower = free, unmarked, colon
    report = {"position_free_lower": free, "unmarked_lower": unmarked, "colon_lower": colon,
              "after_mid_mark_grid": free_grid, "after_no_mark_grid": unmarked_grid, "after_colon_grid": colon_grid,
              "rule": f"after , : ; the largest threshold whose capitals there are at most {100 * WRONG_CAPITALS_AFTER_COMMA:g} % "
                      "lowercase in the reference; then after no mark, then after : alone, the best case F1"}
    log(f"joint case decision: {report}")
    return report


def tune_decision(restorer: Restorer, data_dir: Path, log=print) -> dict:
    """The decision rule of an exported model, on dev only: the 3-class weights under the rule that
    a mark is suggested only where it is likelier than no mark (dev2012), then the case thresholds
    of the joint decision (the dev talks). Sets them on `restorer`; returns the report."""
    words, gold = read_iwslt_tsv(data_dir / "dev" / "dev2012.tsv")
    kw = {"cut": restorer.cut, "merge": restorer.merge}
    joint = joint_marginals_chunked(restorer.model, restorer.vocab, words, restorer.size, restorer.overlap, **kw)
    punct, _case = restorer.calibrated(joint)
    report = {"decision_unconstrained": tune_class_scales(punct, gold, log=log),
              "decision": tune_class_scales(punct, gold, log=log, honest=True)}
    restorer.class_scales = np.asarray([report["decision"]["chosen"][c] for c in THREE_CLASS])
    docs = [d for d in read_cased_paragraphs(data_dir / "dev" / "ted_dev2012_talks.txt") if d[0]]
    joints = [joint_marginals_chunked(restorer.model, restorer.vocab, [w.word for w in d], restorer.size,
                                      restorer.overlap, **kw) for d, _s in docs]
    report["joint_case"] = tune_joint_case(restorer, docs, joints, log=log)
    report["author_prior"] = tune_author_prior(restorer, docs, joints, log=log)
    return report


PARAGRAPH_ODDS_GRID = (1, 1.5, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 70, 100)


def tune_paragraph_ends(restorer: Restorer, docs: list[tuple[list, list[int]]], log=print) -> dict:
    """Fit `paragraph_end_odds` on the paragraph breaks of the dev talks (their lines): the factor
    on the odds of a sentence end at a paragraph's last word that maximises the likelihood of the
    reference marks there on the even-numbered talks; reported on the odd-numbered ones. Sets it
    on `restorer` and returns the report."""
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


def decision_settings(restorer: Restorer) -> dict:
    return {"class_scales": dict(zip(THREE_CLASS, map(float, restorer.class_scales))),
            "position_free_lower": restorer.position_free_lower, "unmarked_lower": restorer.unmarked_lower,
            "colon_lower": restorer.colon_lower,
            "capitalize_sentences": restorer.capitalize_sentences, "paragraph_end_odds": restorer.paragraph_end_odds,
            "author_prior": dict(restorer.author_prior)}


def final_scores(restorer: Restorer, data_dir: Path) -> dict:
    """The figures of the tuning report's end, with the restorer's settings: dev2012 (words alone),
    its noisy copy, the dev talks with their paragraphs (and their odd-numbered half's calibration)."""
    words, gold = read_iwslt_tsv(data_dir / "dev" / "dev2012.tsv")
    paras = [d for d in read_cased_paragraphs(data_dir / "dev" / "ted_dev2012_talks.txt") if d[0]]
    docs = [w for w, _s in paras]
    tsv = score_tsv(restorer, words, gold)
    noisy = score_tsv(restorer, *with_asr_errors(words, gold, seed=0))
    talks = score_text(restorer, docs)
    talks_odd = score_text(restorer, docs[1::2])
    talks_paragraphs = score_text(restorer, docs, [s for _w, s in paras])
    metrics = {
        "dev2012_overall_f1": tsv["overall"]["f1"], "dev2012_comma_f1": tsv["COMMA"]["f1"],
        "dev2012_period_f1": tsv["PERIOD"]["f1"], "dev2012_question_f1": tsv["QUESTION"]["f1"],
        "dev2012_ser": tsv["ser"], "dev2012_noisy_f1": noisy["overall"]["f1"], "dev_talks_case_f1": talks["case"]["f1"],
        "dev_talks_sentence_accuracy": talks["sentence_accuracy"],
        "punct_ece_odd_talks": talks_odd["calibration"]["punct"]["all_words"]["ece"],
        "case_ece_odd_talks": talks_odd["calibration"]["case"]["all_words"]["ece"],
    }
    return {"dev2012_tsv": tsv, "dev2012_noisy": noisy, "dev_talks": talks, "dev_talks_paragraphs": talks_paragraphs,
            "dev_talks_odd_half": {"calibration": talks_odd["calibration"], "high_confidence": talks_odd["high_confidence"]},
            "metrics": metrics}


def tune_decision_of_model_dir(model_dir: Path, data_dir: Path, log=print) -> dict:
    """Re-tune the decision rule of an exported model directory on dev and re-score it: config.json
    (its decision and metrics), the checksums and TUNING_REPORT.json (the previous decision and
    figures kept under "before_joint_decision") are updated."""
    restorer = Restorer.load(str(model_dir), device="cpu")
    report_path = model_dir / "TUNING_REPORT.json"
    full = json.loads(report_path.read_text()) if report_path.is_file() else {}
    before = {k: full[k] for k in ("decision", "case_decision", "dev2012_tsv", "dev2012_noisy", "dev_talks", "metrics",
                                   "dev_talks_odd_half") if k in full}
    rep = tune_decision(restorer, data_dir, log=log)
    scores = final_scores(restorer, data_dir)
    config = json.loads((model_dir / "config.json").read_text())
    config["decision"] = decision_settings(restorer)
    config["metrics"] = scores["metrics"]
    config.setdefault("language", TRAINING_LANGUAGE)
    (model_dir / "config.json").write_text(json.dumps(config, indent=1))
    write_checksums(model_dir)
    full.pop("case_decision", None)
    if "before_joint_decision" not in full:
        full["before_joint_decision"] = before
    full.update(rep)
    full.update(scores)
    report_path.write_text(json.dumps(full, indent=1, default=float))
    log(f"decision re-tuned: {scores['metrics']}")
    return full
