"""The author prior (suggest.with_author_prior): how likely the marks and capitals someone wrote
are right, fitted on the dev talks with simulated author errors, and measured by accepting all
suggestions at 0.9 on the correct and the perturbed text."""

from __future__ import annotations

import numpy as np

from editor.core.document.transcript import Token, Transcript
from editor.restore.passes.inference import Restorer
from editor.restore.model.labels import PUNCT_INDEX, LabelledWord
from editor.restore.passes.suggest import current_mark, make_suggestions, surface_probs


#: The perturbation that fits the author prior: the share of words whose mark is changed (to
#: another of none , . ? alike) and whose case is flipped (lowercase <-> capital), independently.
AUTHOR_ERRORS = {"punct": 0.05, "case": 0.02}
AUTHOR_PRIOR_GRID = (0.5, 0.7, 0.8, 0.9, 0.95, 0.97, 0.98, 0.99, 0.995, 0.998, 0.999)
_PERTURB_MARKS = ("", ",", ".", "?")


def perturb_authored(words: list, rng: np.random.Generator, errors: dict | None = None) -> list:
    """A copy of cased, punctuated words (LabelledWord) with author errors: a share of the marks
    changed to another of none , . ? and a share of the words' case flipped (see AUTHOR_ERRORS)."""
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
    return Transcript([Token(w.word, w.surface, w.punct) for w in words], paragraph_starts=para)


def accept_all_changes(restorer: Restorer, docs: list[tuple[list, list[int]]], joints: list[np.ndarray],
                       authored: list[list], prior: dict | None, threshold: float = 0.9) -> dict:
    """Accept-all at `threshold` on the `authored` versions of the dev talks `docs` (the reference):
    how many of the author's marks and words it changes, and how many of those changes give the
    reference's mark or form."""
    marks = changed_p = right_p = changed_c = right_c = wrong_before_p = fixed_p = 0
    for (ref, para), j, words in zip(docs, joints, authored):
        ends = np.zeros(len(ref), bool)
        ends[[k - 1 for k in para[1:]]] = True
        preds = restorer.predictions([w.word for w in ref], j, first_is_start=True, last_is_end=True, paragraph_ends=ends)
        doc = _authored_transcript(words, para)
        doc.set_suggestions(make_suggestions(doc.tokens, preds, restorer.lexicon, author_prior=prior,
                                             comma_capital=getattr(restorer, "may_capitalize_after_comma", None)))
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
            rows_p.append((pr.punct_distribution, PUNCT_INDEX[w.punct], PUNCT_INDEX[r.punct]))
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
