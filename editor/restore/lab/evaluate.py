"""Scores for punctuation and case restoration (pure numpy/Python, no torch).

- punct_scores: P/R/F1 per class of the 3-class IWSLT view and overall (micro over COMMA, PERIOD,
  QUESTION), and the slot error rate (substitutions + deletions + insertions over reference marks).
- case_scores: P/R/F1 of words that need a capital (or other non-lower form), exact surface match.
- case_errors: where the case errors are: at sentence starts or inside sentences, and capitals
  written right after a mid-sentence mark (, : ;).
- sentence_accuracy: share of reference sentences restored exactly (DeepPunct's absolute accuracy).
- calibration: expected calibration error and a reliability table.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from editor.core.document.text import SENTENCE_END

CLASSES = ("COMMA", "PERIOD", "QUESTION")


def _prf(tp: int, fp: int, fn: int) -> dict:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": 100 * p, "recall": 100 * r, "f1": 100 * f, "support": tp + fn}


def punct_scores(gold: Sequence[str], pred: Sequence[str], classes: Sequence[str] = CLASSES, none: str = "O") -> dict:
    if len(gold) != len(pred):
        raise ValueError(f"gold and predicted lengths differ: {len(gold)} vs {len(pred)}")
    out = {}
    TP = FP = FN = 0
    for c in classes:
        tp = sum(1 for g, p in zip(gold, pred) if g == c and p == c)
        fp = sum(1 for g, p in zip(gold, pred) if p == c and g != c)
        fn = sum(1 for g, p in zip(gold, pred) if g == c and p != c)
        out[c] = _prf(tp, fp, fn)
        TP, FP, FN = TP + tp, FP + fp, FN + fn
    out["overall"] = _prf(TP, FP, FN)
    subs = sum(1 for g, p in zip(gold, pred) if g != none and p != none and g != p)
    dels = sum(1 for g, p in zip(gold, pred) if g != none and p == none)
    ins = sum(1 for g, p in zip(gold, pred) if g == none and p != none)
    ref = sum(1 for g in gold if g != none)
    out["ser"] = 100 * (subs + dels + ins) / ref if ref else 0.0
    return out


def case_scores(gold_surface: Sequence[str], pred_surface: Sequence[str]) -> dict:
    """Positive = a word written other than all-lowercase. A prediction counts when it matches the
    reference surface exactly (so 'Iphone' for 'iPhone' is wrong)."""
    tp = fp = fn = 0
    for g, p in zip(gold_surface, pred_surface):
        g_pos, p_pos = g != g.lower(), p != p.lower()
        if g_pos and p == g:
            tp += 1
        else:
            if p_pos:
                fp += 1
            if g_pos:
                fn += 1
    return _prf(tp, fp, fn)


MID_MARKS = frozenset(",:;")


def case_errors(gold_punct: Sequence[str], pred_punct: Sequence[str], gold_surface: Sequence[str],
                pred_surface: Sequence[str], doc_starts: Sequence[int] = (0,)) -> dict:
    """Where case goes wrong. An error is a word whose surface differs from the reference where
    either is written other than all-lowercase. It is at a sentence start when the word opens a
    document or follows an end mark (. ? !) in the reference or in the prediction: a missed or a
    wrong sentence end carries its capital with it. `capitals_after_mid_mark` counts predicted
    capitals right after a predicted , : or ; (names included), `capitals_after_comma` those after
    a comma; `wrong_...` those the reference writes in lowercase."""
    starts = set(doc_starts)
    errors = at_start = after_mid = wrong_after_mid = after_comma = wrong_after_comma = 0
    for i, (g, p) in enumerate(zip(gold_surface, pred_surface)):
        first = i in starts
        p_cap = p != p.lower()
        if not first and pred_punct[i - 1] in MID_MARKS and p_cap:
            after_mid += 1
            wrong_after_mid += g == g.lower()
            if pred_punct[i - 1] == ",":
                after_comma += 1
                wrong_after_comma += g == g.lower()
        if g == p or not (p_cap or g != g.lower()):
            continue
        errors += 1
        at_start += first or gold_punct[i - 1] in SENTENCE_END or pred_punct[i - 1] in SENTENCE_END
    return {"errors": errors, "at_sentence_start": at_start, "capitals_after_mid_mark": after_mid,
            "wrong_capitals_after_mid_mark": wrong_after_mid, "capitals_after_comma": after_comma,
            "wrong_capitals_after_comma": wrong_after_comma}


def sentence_accuracy(gold_punct: Sequence[str], pred_punct: Sequence[str],
                      gold_surface: Sequence[str] | None = None, pred_surface: Sequence[str] | None = None) -> float:
    """Share of reference sentences (ended by . ? !) whose marks (and surfaces, if given) are all right."""
    n = ok = 0
    good = True
    for i, (g, p) in enumerate(zip(gold_punct, pred_punct)):
        if g != p or (gold_surface is not None and pred_surface is not None and gold_surface[i] != pred_surface[i]):
            good = False
        if g in SENTENCE_END:
            n += 1
            ok += good
            good = True
    return 100 * ok / n if n else 0.0


def calibration(confidence: np.ndarray, correct: np.ndarray, bins: int = 10) -> dict:
    """Expected calibration error (equal-width bins) and the reliability table."""
    confidence = np.asarray(confidence, np.float64)
    correct = np.asarray(correct, np.float64)
    if confidence.size == 0:
        return {"ece": 0.0, "n": 0, "table": []}
    edges = np.linspace(0, 1, bins + 1)
    idx = np.clip(np.digitize(confidence, edges[1:-1]), 0, bins - 1)
    ece = 0.0
    table = []
    for b in range(bins):
        sel = idx == b
        n = int(sel.sum())
        if not n:
            continue
        conf, acc = float(confidence[sel].mean()), float(correct[sel].mean())
        ece += n / confidence.size * abs(conf - acc)
        table.append({"bin": f"{edges[b]:.1f}-{edges[b + 1]:.1f}", "n": n, "confidence": conf, "accuracy": acc})
    return {"ece": ece, "n": int(confidence.size), "table": table}


def high_confidence(confidence: np.ndarray, correct: np.ndarray, n_reference: int, threshold: float = 0.9) -> dict:
    """Precision of suggestions at confidence >= threshold, and coverage: the share of all reference
    items that such correct suggestions cover."""
    sel = np.asarray(confidence) >= threshold
    n = int(sel.sum())
    good = int(np.asarray(correct)[sel].sum())
    return {"threshold": threshold, "suggestions": n, "precision": 100 * good / n if n else 0.0,
            "coverage": 100 * good / n_reference if n_reference else 0.0}
