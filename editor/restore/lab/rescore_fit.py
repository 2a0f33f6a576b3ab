"""Fitting the mark rescorer (`editor.restore.lab.rescore`) on the dev talks (`python -m
editor.restore.lab.rescore_fit`; lab only, never the window).

Each talk's words go through the restorer as a recogniser gives them (lowercase, no marks), and
for every mark proposed the features the rescorer reads are kept with whether the reference
writes that mark there. A logistic regression per group of marks (commas, sentence ends,
question marks) is fitted on one half of the talks (even- or odd-numbered, as
`editor.restore.lab.splits`) and measured on the other: its reliability (how often a proposal
shown in each band of confidence is right) before and after. scikit-learn fits it (the lab's
extra, never the window's: the weights go into the model's config and apply with numpy).

The network's output is read from the review-cost cache (`review_cost.ReplayRestorer`,
runs/review-cost-joint.npz by default) when it is there, so a refit costs the Python alone."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from editor.restore.model.labels import PUNCT_MARKS
from editor.restore.lab.rescore import FEATURES, GROUPS, GroupWeights, MarkRescorer, group_of, mark_features

#: How many of the commonest words after and before a proposal get a weight of their own.
WORDS_KEPT = 40
#: The regularisation of the fit (scikit-learn's C: the inverse of the L2 penalty's weight).
C = 1.0
#: The confidence bands of the reliability table: (name, lowest confidence), highest first.
BANDS = (("90-100 %", 0.9), ("80-90 %", 0.8), ("70-80 %", 0.7), ("60-70 %", 0.6), ("50-60 %", 0.5),
         ("under 50 %", 0.0))


@dataclass
class Samples:
    """The marks proposed on the dev talks: features, words around, group, calibrated
    probability, whether the reference writes the mark, and the talk's number."""

    X: np.ndarray
    nxt: list[str]
    prev: list[str]
    group: np.ndarray
    p: np.ndarray
    right: np.ndarray
    talk: np.ndarray

    def select(self, mask: np.ndarray) -> Samples:
        idx = np.nonzero(mask)[0]
        return Samples(self.X[idx], [self.nxt[i] for i in idx], [self.prev[i] for i in idx], self.group[idx],
                       self.p[idx], self.right[idx], self.talk[idx])


def collect(restorer: Any, talks: Sequence[tuple[Sequence[Any], Sequence[int]]], comma_line: float = 0.0,
            on_talk: Callable[[int, int], None] | None = None) -> Samples:
    """The marks ``restorer`` (a `Restorer`, or a `review_cost.ReplayRestorer`) proposes on each
    talk of ``talks`` ((labelled words, paragraph starts), `read_cased_paragraphs`), as the
    review-cost pass restores them (the whole talk one region, no paragraph breaks given)."""
    from editor.core.document.text import bare_word

    inner = getattr(restorer, "_inner", restorer)
    joint_of = restorer.joint if hasattr(restorer, "joint") else None
    Xs, nxt, prev, groups, ps, right, talk = [], [], [], [], [], [], []
    for n, (ref, _starts) in enumerate(talks):
        words = [bare_word(w.word).lower() for w in ref]
        if joint_of is not None:
            joint = joint_of(words)
        else:
            from editor.restore.passes.windows import joint_marginals_chunked

            joint = joint_marginals_chunked(inner.model, inner.vocab, words, inner.size, inner.overlap, inner.cut,
                                            inner.merge, inner.windows_per_batch, inner.device)
        punct, raw_case, _case, p_idx, _c = inner.decisions(words, joint, first_is_start=True, last_is_end=True,
                                                            comma_line=comma_line)
        rows, X = mark_features(words, punct, raw_case, p_idx)
        Xs.append(X)
        nxt += [words[i + 1] for i in rows.tolist()]
        prev += [words[i - 1] if i > 0 else "" for i in rows.tolist()]
        groups.append(group_of(p_idx[rows]))
        ps.append(punct[rows, p_idx[rows]])
        right.append(np.fromiter((ref[i].punct == PUNCT_MARKS[p_idx[i]] for i in rows.tolist()), bool, len(rows)))
        talk.append(np.full(len(rows), n))
        if on_talk is not None:
            on_talk(n + 1, len(talks))
    return Samples(np.concatenate(Xs), nxt, prev, np.concatenate(groups), np.concatenate(ps),
                   np.concatenate(right), np.concatenate(talk))


def fit(samples: Samples, words_kept: int = WORDS_KEPT, c: float = C, features: Sequence[str] = FEATURES,
        groups: Sequence[str] = tuple(GROUPS)) -> MarkRescorer:
    """A logistic regression per group of ``groups`` (``GROUPS``) on ``samples``: the
    ``features`` (the others weigh nothing), and an indicator for each of the ``words_kept``
    commonest words after and before the proposals."""
    from sklearn.linear_model import LogisticRegression

    cols = [FEATURES.index(f) for f in features]
    out = {}
    for name in groups:
        s = samples.select(samples.group == name)
        if len(s.right) < 50 or s.right.all() or not s.right.any():
            continue  # too few to fit: the group keeps its calibrated confidence
        nxt_words = [w for w, _ in Counter(s.nxt).most_common(words_kept)]
        prev_words = [w for w, _ in Counter(s.prev).most_common(words_kept)]
        design = np.hstack([s.X[:, cols], _indicators(s.nxt, nxt_words), _indicators(s.prev, prev_words)])
        lr = LogisticRegression(C=c, max_iter=2000).fit(design, s.right)
        coef = lr.coef_[0]
        k = len(cols)
        weights = np.zeros(len(FEATURES))
        weights[cols] = coef[:k]
        out[name] = GroupWeights(float(lr.intercept_[0]), tuple(float(v) for v in weights),
                                 dict(zip(nxt_words, map(float, coef[k:k + len(nxt_words)]))),
                                 dict(zip(prev_words, map(float, coef[k + len(nxt_words):]))))
    return MarkRescorer(out)


def _indicators(words: Sequence[str], kept: Sequence[str]) -> np.ndarray:
    col = {w: j for j, w in enumerate(kept)}
    out = np.zeros((len(words), len(kept)))
    for i, w in enumerate(words):
        j = col.get(w)
        if j is not None:
            out[i, j] = 1.0
    return out


def rescored(rescorer: MarkRescorer, samples: Samples) -> np.ndarray:
    """Each sample's probability as ``rescorer`` gives it (a group without weights: as it was)."""
    out = samples.p.copy()
    for name, weights in rescorer.groups.items():
        idx = np.nonzero(samples.group == name)[0]
        if len(idx):
            out[idx] = weights.score(samples.X[idx], [samples.nxt[i] for i in idx], [samples.prev[i] for i in idx])
    return out


def reliability(p: np.ndarray, right: np.ndarray) -> dict[str, Any]:
    """How often a proposal shown in each band (``BANDS``) is right: {band: [proposals, mean
    shown, share right]}, and the expected calibration error over those bands (``ece``)."""
    table: dict[str, Any] = {}
    ece = 0.0
    upper = np.inf
    for name, low in BANDS:
        sel = (p >= low) & (p < upper)
        upper = low
        n = int(sel.sum())
        if n:
            shown, rate = float(p[sel].mean()), float(right[sel].mean())
            table[name] = [n, round(shown, 4), round(rate, 4)]
            ece += n / len(p) * abs(shown - rate)
    return {"bands": table, "ece": round(ece, 4), "proposals": int(len(p))}


def log_loss(p: np.ndarray, right: np.ndarray) -> float:
    q = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(np.where(right, np.log(q), np.log1p(-q))))


def measure(samples: Samples, fit_on: str, **how: Any) -> tuple[MarkRescorer, dict[str, Any]]:
    """Fit on ``fit_on`` ("even" or "odd" talks, or "all") and report on the other half (on all
    talks when fitted on all): reliability and log loss before and after, per group."""
    talks = samples.talk
    train = np.ones(len(talks), bool) if fit_on == "all" else (talks % 2 == (0 if fit_on == "even" else 1))
    test = train if fit_on == "all" else ~train
    rescorer = fit(samples.select(train), **how)
    held = samples.select(test)
    after = rescored(rescorer, held)
    report: dict[str, Any] = {"fit_on": f"{fit_on} talks", "reported_on": "all talks" if fit_on == "all"
                              else f"{'odd' if fit_on == 'even' else 'even'} talks"}
    for name in ("all", *GROUPS):
        sel = np.ones(len(held.p), bool) if name == "all" else held.group == name
        if not sel.any():
            continue
        report[name] = {"before": reliability(held.p[sel], held.right[sel]),
                        "after": reliability(after[sel], held.right[sel]),
                        "log_loss_before": round(log_loss(held.p[sel], held.right[sel]), 4),
                        "log_loss_after": round(log_loss(after[sel], held.right[sel]), 4)}
    return rescorer, report


def read_talks(path: Path) -> list[tuple[list[Any], list[int]]]:
    from editor.restore.lab.data import read_cased_paragraphs

    return [d for d in read_cased_paragraphs(path) if d[0]]


#: The variants measured (docs/performance.md, "A sharper confidence"): what each fits.
VARIANTS: dict[str, dict[str, Any]] = {
    "platt": {"features": ("logit",), "words_kept": 0, "groups": ("comma", "end")},
    "numeric": {"words_kept": 0, "groups": ("comma", "end")},
    "full": {},
}


def main(argv: Sequence[str] | None = None) -> int:
    """Fit a variant on each half, report it on the other, and write the weights for
    tests/perf/bench_review_cost.py --rescorer (OUT-even.json: fitted on the even talks)."""
    import argparse
    import json
    import sys

    from editor.core.threads import configure_threads

    ap = argparse.ArgumentParser(prog="python -m editor.restore.lab.rescore_fit", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", type=Path, help="cased dev talks (`# ` lines between talks)")
    ap.add_argument("--variant", choices=list(VARIANTS), default="full")
    ap.add_argument("--cache", default="runs/review-cost-joint.npz", help="the network's output kept here")
    ap.add_argument("--out", default="runs/rescorer", help="write OUT-even.json and OUT-odd.json")
    args = ap.parse_args(argv)
    configure_threads()
    from editor.restore.lab.review_cost import ReplayRestorer
    from editor.restore.passes.inference import Restorer

    inner = Restorer.load(None, "cpu")
    restorer = ReplayRestorer(inner, args.cache)
    samples = collect(restorer, read_talks(args.file))
    restorer.save()
    for fit_on in ("even", "odd"):
        rescorer, report = measure(samples, fit_on, **VARIANTS[args.variant])
        out = Path(f"{args.out}-{fit_on}.json")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(rescorer.to_config(), indent=1) + "\n", encoding="utf-8")
        print(json.dumps(report), flush=True)
    print(f"weights in {args.out}-even.json, {args.out}-odd.json", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
