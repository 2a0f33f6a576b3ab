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

from editor.restore.lab.data import read_cased_paragraphs, read_cased_talks, read_iwslt_tsv
from editor.restore.lab.evaluate import calibration, case_scores, punct_scores
from editor.restore.inference import DEFAULT_OVERLAP, DEFAULT_SIZE, Restorer, decide_marks, joint_marginals_chunked
from editor.restore.labels import (CASE_CLASSES, CASE_INDEX, END_INDEX, MARK_TO_3CLASS, MARK_GROUP, PUNCT_INDEX,
                                   PUNCT_MARKS, THREE_CLASS)
from editor.restore.model import BiLSTMCRF, ModelConfig
from editor.restore.package import export_model, write_checksums
from editor.restore.lab.scoring import score_text, score_tsv, with_asr_errors
from editor.restore.lab.train_config import DEFAULT_DATA_DIR
from editor.restore.vocab import Vocab


def load_run_checkpoint(path: Path) -> tuple[BiLSTMCRF, Vocab, dict, dict]:
    ck = torch.load(path, map_location="cpu", weights_only=True)
    model = BiLSTMCRF(ModelConfig(**ck["model_args"]))
    model.load_state_dict(ck["state_dict"])
    model.eval()
    return model, Vocab.from_dict(ck["vocab"]), ck["lexicon"], ck


def _f1_with_scales(punct: np.ndarray, gold: list[str], scales, honest: bool = False) -> float:
    """dev2012 overall F1 of the weighted 3-class decision; `honest`: a mark only where it is
    likelier than no mark (the rule the suggestions follow)."""
    idx = decide_marks(punct, np.asarray(scales, float))
    if honest:
        idx[punct[np.arange(len(idx)), idx] <= punct[:, 0]] = 0
    pred = [MARK_TO_3CLASS[PUNCT_MARKS[i]] for i in idx]
    return punct_scores(gold, pred)["overall"]["f1"]


def _f1_with_scale(punct: np.ndarray, gold: list[str], scale: float) -> float:
    """F1 with "no mark" scaled by `scale` and the other classes unweighted."""
    return _f1_with_scales(punct, gold, [scale, 1.0, 1.0, 1.0])


def tune_class_scales(punct: np.ndarray, gold: list[str], log=print, honest: bool = False) -> dict:
    """Weights of the 3-class decision on dev2012: first "no mark" alone on a grid, then COMMA and
    QUESTION relative to PERIOD (fixed at 1) by coordinate ascent, two rounds. `honest`: under the
    rule that a mark is suggested only where it is likelier than no mark."""
    grid = [round(x, 2) for x in np.arange(0.3, 1.51, 0.05)]
    none_grid = {g: _f1_with_scales(punct, gold, [g, 1.0, 1.0, 1.0], honest) for g in grid}
    scales = [float(max(none_grid, key=none_grid.get)), 1.0, 1.0, 1.0]
    best = none_grid[scales[0]]
    for _round in range(2):
        for k in (1, 3, 0):
            for v in grid:
                trial = list(scales)
                trial[k] = float(v)
                f = _f1_with_scales(punct, gold, trial, honest)
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


#: The language of the training text (data.DEFAULT_SOURCES): exported models refuse text that does not look like it.
TRAINING_LANGUAGE = "en"
#: Thresholds tried for a capital not at a sentence start (the probability of the lowercase form
#: where no sentence ends before the word, below which the capital is suggested).
LOWER_GRID = (0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5)
#: The share of capitals after a suggested , : ; that the reference writes in lowercase that a
#: threshold may give: beyond it the capitals are no longer names and "I" alone.
WRONG_CAPITALS_AFTER_COMMA = 0.005


def tune_joint_case(restorer: Restorer, docs: list[tuple[list, list[int]]], joints: list[np.ndarray], log=print) -> dict:
    """The two case thresholds of the joint decision (see inference.decide_jointly), on the dev talks
    with their paragraphs: `position_free_lower` (after a suggested , : ;) is the largest of
    LOWER_GRID whose capitals there are names and "I" (at most WRONG_CAPITALS_AFTER_COMMA of them
    lowercase in the reference), `unmarked_lower` (after no mark) the one with the best case F1.
    Sets them on `restorer` and returns the report."""
    from editor.restore.lab.evaluate import case_errors

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


#: The perturbation that fits the author prior: the share of words whose mark is changed (to
#: another of none , . ? alike) and whose case is flipped (lowercase <-> capital), independently.
AUTHOR_ERRORS = {"punct": 0.05, "case": 0.02}
AUTHOR_PRIOR_GRID = (0.5, 0.7, 0.8, 0.9, 0.95, 0.97, 0.98, 0.99, 0.995, 0.998, 0.999)
_PERTURB_MARKS = ("", ",", ".", "?")


def perturb_authored(words: list, rng: np.random.Generator, errors: dict | None = None) -> list:
    """A copy of cased, punctuated words (LabelledWord) with author errors: a share of the marks
    changed to another of none , . ? and a share of the words' case flipped (see AUTHOR_ERRORS)."""
    from editor.restore.labels import LabelledWord

    errors = errors or AUTHOR_ERRORS
    out = []
    for w in words:
        punct, surface, case = w.punct, w.surface, w.case
        if rng.random() < errors["punct"]:
            punct = str(rng.choice([m for m in _PERTURB_MARKS if m != punct]))
        if rng.random() < errors["case"]:
            if case == "lower":
                surface, case = surface[:1].upper() + surface[1:], "capitalized"
            else:
                surface, case = surface.lower(), "lower"
        out.append(LabelledWord(w.word, punct, case, surface))
    return out


def _authored_transcript(words: list, para: list[int]):
    from editor.core.document import Token, Transcript

    return Transcript([Token(w.word, w.surface, w.punct) for w in words], paragraph_starts=para)


def accept_all_changes(restorer: Restorer, docs: list[tuple[list, list[int]]], joints: list[np.ndarray],
                       authored: list[list], prior: dict | None, threshold: float = 0.9) -> dict:
    """Accept-all at `threshold` on the `authored` versions of the dev talks `docs` (the reference):
    how many of the author's marks and words it changes, and how many of those changes give the
    reference's mark or form."""
    from editor.restore.suggest import current_mark, make_suggestions

    marks = changed_p = right_p = changed_c = right_c = wrong_before_p = fixed_p = 0
    for (ref, para), j, words in zip(docs, joints, authored):
        ends = np.zeros(len(ref), bool)
        ends[[k - 1 for k in para[1:]]] = True
        preds = restorer.predictions([w.word for w in ref], j, first_is_start=True, last_is_end=True, paragraph_ends=ends)
        doc = _authored_transcript(words, para)
        doc.set_suggestions(make_suggestions(doc.tokens, preds, restorer.lexicon, author_prior=prior))
        marks += sum(1 for w in words if w.punct)
        wrong_before_p += sum(1 for w, r in zip(words, ref) if w.punct != r.punct)
        for s in doc.pending_to_apply(threshold):
            i = doc.index_of(s.token_id)
            if s.kind == "punct":
                changed_p += 1
                ok = current_mark(s.value) == ref[i].punct
                right_p += ok
                fixed_p += ok and words[i].punct != ref[i].punct
            else:
                changed_c += 1
                right_c += s.value == ref[i].surface
    return {"author_marks": marks, "marks_changed": changed_p, "marks_changed_share": 100 * changed_p / max(marks, 1),
            "mark_changes_right": right_p, "mark_precision": 100 * right_p / max(changed_p, 1),
            "author_mark_errors": wrong_before_p, "author_mark_errors_fixed": fixed_p,
            "words_recased": changed_c, "recasings_right": right_c, "case_precision": 100 * right_c / max(changed_c, 1)}


def tune_author_prior(restorer: Restorer, docs: list[tuple[list, list[int]]], joints: list[np.ndarray], log=print,
                      seed: int = 0) -> dict:
    """The author prior (suggest.with_author_prior), fitted on the dev talks: a copy of each with
    author errors (perturb_authored); on the even-numbered talks the prior of the marks and of the
    case that makes the reference likeliest given the model and the perturbed text; on the
    odd-numbered talks, accept-all at 0.9 on the correct text and on the perturbed copy, with and
    without the prior. Sets `restorer.author_prior`; returns the report."""
    from editor.restore.suggest import surface_probs

    rng = np.random.default_rng(seed)
    perturbed = [perturb_authored(words, rng) for words, _p in docs]
    rows_p: list[tuple[np.ndarray, int, int]] = []
    rows_c: list[tuple[float, float, int, bool]] = []
    for k in range(0, len(docs), 2):
        (ref, para), j, words = docs[k], joints[k], perturbed[k]
        ends = np.zeros(len(ref), bool)
        ends[[i - 1 for i in para[1:]]] = True
        preds = restorer.predictions([w.word for w in ref], j, first_is_start=True, last_is_end=True, paragraph_ends=ends)
        for w, r, pr in zip(words, ref, preds):
            rows_p.append((pr._punct_p, PUNCT_INDEX[w.punct], PUNCT_INDEX[r.punct]))
            sp = surface_probs(r.word, pr.case_probs, restorer.lexicon)
            if w.surface in sp and r.surface in sp:
                rows_c.append((sp[w.surface], sp[r.surface], len(sp), w.surface == r.surface))
    P = np.stack([np.asarray(r[0], float) for r in rows_p])
    A = np.asarray([r[1] for r in rows_p])
    T = np.asarray([r[2] for r in rows_p])
    n = np.arange(len(P))

    def loglik_p(alpha: float) -> float:
        k = P.shape[1] - 1
        num = P[n, T] * np.where(T == A, alpha, (1 - alpha) / k)
        den = P[n, A] * alpha + (1 - P[n, A]) * (1 - alpha) / k
        return float(np.log(np.clip(num / den, 1e-12, 1)).mean())

    pa, pt, kc, same = (np.asarray(x) for x in zip(*rows_c))

    def loglik_c(alpha: float) -> float:
        num = pt * np.where(same, alpha, (1 - alpha) / np.maximum(kc - 1, 1))
        den = pa * alpha + (1 - pa) * (1 - alpha) / np.maximum(kc - 1, 1)
        return float(np.log(np.clip(num / den, 1e-12, 1)).mean())

    grid_p = {str(a): round(loglik_p(a), 5) for a in AUTHOR_PRIOR_GRID}
    grid_c = {str(a): round(loglik_c(a), 5) for a in AUTHOR_PRIOR_GRID}
    prior = {"punct": float(max(grid_p, key=grid_p.get)), "case": float(max(grid_c, key=grid_c.get))}
    odd = slice(1, None, 2)
    clean = [w for w, _p in docs[odd]]
    report = {
        "errors_simulated": AUTHOR_ERRORS, "marks_drawn_from": list(_PERTURB_MARKS), "fit_on": "even-numbered dev talks",
        "reported_on": "odd-numbered dev talks, accept-all at 0.9", "punct_loglik_grid": grid_p, "case_loglik_grid": grid_c,
        "prior": prior,
        "correct_text_without_prior": accept_all_changes(restorer, docs[odd], joints[odd], clean, None),
        "correct_text_with_prior": accept_all_changes(restorer, docs[odd], joints[odd], clean, prior),
        "perturbed_text_without_prior": accept_all_changes(restorer, docs[odd], joints[odd], perturbed[odd], None),
        "perturbed_text_with_prior": accept_all_changes(restorer, docs[odd], joints[odd], perturbed[odd], prior),
    }
    restorer.author_prior = prior
    log(f"author prior: {report}")
    return report


def _decision_settings(restorer: Restorer) -> dict:
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
    config["decision"] = _decision_settings(restorer)
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

    # 3. the decision rule on dev: honest 3-class weights on dev2012, the joint case thresholds on the dev talks
    settings = {"decision": {"class_scales": {c: 1.0 for c in THREE_CLASS}, "capitalize_sentences": True},
                "calibration": {"punct_temperature": tp, "case_temperature": tc}, "chunking": chunking}
    restorer = Restorer(model, vocab, lexicon, settings, torch.device("cpu"), name=name)
    report.update(tune_decision(restorer, data_dir, log=log))
    settings["decision"] = _decision_settings(restorer)
    # 6. paragraph breaks: how much likelier a sentence end is at the last word of a paragraph
    report["paragraph_ends"] = tune_paragraph_ends(
        restorer, [d for d in read_cased_paragraphs(data_dir / "dev" / "ted_dev2012_talks.txt") if d[0]], log=log)
    settings["decision"]["paragraph_end_odds"] = report["paragraph_ends"]["odds"]
    scores = final_scores(restorer, data_dir)
    report.update(scores)
    metrics = scores["metrics"]
    log(f"dev2012 final: overall F1 {metrics['dev2012_overall_f1']:.2f} (with simulated recognition errors "
        f"{metrics['dev2012_noisy_f1']:.2f}), case F1 {metrics['dev_talks_case_f1']:.2f}")
    export_model(model, vocab, lexicon, out_dir, name=name, decision=settings["decision"],
                 calibration=settings["calibration"], chunking=chunking, metrics=metrics,
                 language=TRAINING_LANGUAGE)
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
    p.add_argument("--decision", metavar="MODEL_DIR",
                   help="only re-tune the decision rule of an exported model directory on dev and re-score it (updates "
                        "its config, checksums and TUNING_REPORT.json)")
    p.add_argument("--paragraphs", metavar="MODEL_DIR",
                   help="only fit the paragraph-end odds of an exported model directory (updates its config, "
                        "checksums and TUNING_REPORT.json)")
    a = p.parse_args(argv)
    torch.set_num_threads(a.threads)
    log = lambda s: print(time.strftime("%H:%M:%S"), s, flush=True)  # noqa: E731
    if a.decision:
        tune_decision_of_model_dir(Path(a.decision), Path(a.data), log=log)
        return 0
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
