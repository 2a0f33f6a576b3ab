"""A sharper confidence for the marks proposed: a logistic regression over what the per-class
calibration ignores (the margin to the next choice, how likely no mark or a sentence end is, the
words around, the marks proposed nearby), fitted on dev talks as whether the reference writes the
mark proposed (`editor.restore.lab.rescore_fit`). numpy alone: its coefficients are a JSON file
and apply with a dot product.

Measured and not shipped (docs/performance.md, "A sharper confidence"): it saved decisions only as
a lower accept-all line does, at a worse quality. So it lives in the lab: `attach` runs a
restorer's decisions through it for the review-cost benchmarks; no model, window or command uses it.

It changes no decision: the mark proposed stays the one `decide_jointly` chose, and stays the
likeliest value where it was (no mark included); only its probability moves (the other marks keep their
proportions), so accept-all's threshold and the percentage shown read it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from editor.restore.model.labels import END_INDEX, PUNCT_MARKS
from editor.restore.passes.decision import settle_case
from editor.restore.passes.inference import Restorer

#: The proposals rescored, by the group of the mark proposed; each group has its own weights.
GROUPS: dict[str, tuple[int, ...]] = {
    "comma": (PUNCT_MARKS.index(","),),
    "end": (PUNCT_MARKS.index("."), PUNCT_MARKS.index("!")),
    "question": (PUNCT_MARKS.index("?"),),
}
#: The numeric features, in the order of the weights (`mark_features`).
FEATURES: tuple[str, ...] = (
    "logit",        # the logit of the calibrated probability of the mark proposed
    "margin",       # its log odds against the next likeliest value (a mark or none)
    "none",         # the logit of "no mark"
    "end",          # the logit of a sentence end (. ? ! together)
    "next_lower",   # the logit of the next word's lowercase form (the case head, calibrated)
    "near_end",     # the likeliest sentence end one word before or after
    "near_comma",   # the likeliest comma one word before or after
    "gap_before",   # log(1 + words since the mark proposed before), 3 for none
    "gap_after",    # log(1 + words to the mark proposed after), 3 for none
)
_EPS = 1e-4


def _logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, _EPS, 1.0 - _EPS)
    out: np.ndarray = np.log(p) - np.log1p(-p)
    return out


def group_of(p_idx: np.ndarray) -> np.ndarray:
    """The rescoring group of each mark index (``GROUPS``' names; "" for none or another mark)."""
    out = np.full(len(p_idx), "", dtype=object)
    for name, marks in GROUPS.items():
        out[np.isin(p_idx, marks)] = name
    return out


def mark_features(words: Sequence[str], punct: np.ndarray, case: np.ndarray,
                  p_idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rows of the words with a mark proposed (``p_idx`` > 0, the last word left out: its
    sentence end is the text's) and their numeric features (R, len(FEATURES)), from the
    calibrated distributions ``punct`` (N, 7) and ``case`` (N, 4, before a sentence start is
    settled into it)."""
    N = len(p_idx)
    rows = np.nonzero(p_idx[: max(N - 1, 0)] > 0)[0]
    if not len(rows):
        return rows, np.zeros((0, len(FEATURES)))
    p = punct[rows, p_idx[rows]]
    others = punct[rows].copy()
    others[np.arange(len(rows)), p_idx[rows]] = -1.0
    second = others.max(1)
    ends = punct[:, list(END_INDEX)].sum(1)
    comma = punct[:, PUNCT_MARKS.index(",")]
    pad_end, pad_comma = np.pad(ends, 1), np.pad(comma, 1)  # shape: (N + 2,)
    near_end = np.maximum(pad_end[rows], pad_end[rows + 2])
    near_comma = np.maximum(pad_comma[rows], pad_comma[rows + 2])
    marked = np.nonzero(p_idx > 0)[0]
    at = np.searchsorted(marked, rows)
    before = np.where(at > 0, rows - marked[np.maximum(at - 1, 0)], 0)
    after = np.where(at + 1 < len(marked), marked[np.minimum(at + 1, len(marked) - 1)] - rows, 0)
    gap_before = np.where(before > 0, np.log1p(before), 3.0)
    gap_after = np.where(after > 0, np.log1p(after), 3.0)
    X = np.stack([_logit(p), np.log(np.maximum(p, _EPS)) - np.log(np.maximum(second, _EPS)),
                  _logit(punct[rows, 0]), _logit(ends[rows]), _logit(case[rows + 1, 0]),
                  _logit(near_end), _logit(near_comma), gap_before, gap_after], axis=1)
    return rows, X


@dataclass(frozen=True)
class GroupWeights:
    """One group's logistic regression: a bias, a weight per feature (``FEATURES``), and a weight
    for each of the commonest words after and before the word (the others weigh nothing)."""

    bias: float
    weights: tuple[float, ...]
    next_words: Mapping[str, float]
    prev_words: Mapping[str, float]

    def score(self, X: np.ndarray, nxt: Sequence[str], prev: Sequence[str]) -> np.ndarray:
        z = self.bias + X @ np.asarray(self.weights)
        z = z + np.fromiter((self.next_words.get(w, 0.0) for w in nxt), float, len(nxt))
        z = z + np.fromiter((self.prev_words.get(w, 0.0) for w in prev), float, len(prev))
        out: np.ndarray = 1.0 / (1.0 + np.exp(-z))
        return out

    def to_config(self) -> dict[str, Any]:
        return {"bias": self.bias, "weights": dict(zip(FEATURES, self.weights)),
                "next_words": dict(self.next_words), "prev_words": dict(self.prev_words)}

    @classmethod
    def from_config(cls, d: Mapping[str, Any]) -> GroupWeights:
        w = d["weights"]
        missing = [f for f in FEATURES if f not in w]
        if missing:
            raise ValueError(f"mark_rescorer weights lack {', '.join(missing)}")
        return cls(float(d["bias"]), tuple(float(w[f]) for f in FEATURES),
                   {str(k): float(v) for k, v in d.get("next_words", {}).items()},
                   {str(k): float(v) for k, v in d.get("prev_words", {}).items()})


@dataclass(frozen=True)
class MarkRescorer:
    """The weights of each group (``GROUPS``); a group without weights keeps its confidence."""

    groups: Mapping[str, GroupWeights]

    @classmethod
    def from_config(cls, d: Mapping[str, Any]) -> MarkRescorer:
        unknown = set(d.get("groups", {})) - set(GROUPS)
        if unknown:
            raise ValueError(f"mark_rescorer: unknown groups {', '.join(sorted(unknown))}")
        return cls({k: GroupWeights.from_config(v) for k, v in d.get("groups", {}).items()})

    def to_config(self) -> dict[str, Any]:
        return {"features": list(FEATURES), "groups": {k: g.to_config() for k, g in self.groups.items()}}

    def confidences(self, words: Sequence[str], punct: np.ndarray, case: np.ndarray,
                    p_idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(rows, their new probability of the mark proposed), for the rows rescored."""
        rows, X = mark_features(words, punct, case, p_idx)
        groups = group_of(p_idx[rows])
        out_rows, out_p = [], []
        for name, weights in self.groups.items():
            sel = np.nonzero(groups == name)[0]
            if not len(sel):
                continue
            r = rows[sel]
            nxt = [words[i + 1] for i in r.tolist()]
            prev = [words[i - 1] if i > 0 else "" for i in r.tolist()]
            out_rows.append(r)
            out_p.append(weights.score(X[sel], nxt, prev))
        if not out_rows:
            return np.zeros(0, int), np.zeros(0)
        return np.concatenate(out_rows), np.concatenate(out_p)

    def apply(self, words: Sequence[str], punct: np.ndarray, case: np.ndarray, p_idx: np.ndarray) -> np.ndarray:
        """``punct`` (N, 7) with the probability of each mark proposed (``p_idx``) rescored, the
        other values of the row scaled to keep the sum 1 and their proportions. A proposal that
        was the likeliest value of its row stays at least as likely as the next (no mark
        included: a suggestion is made only where its value is likelier than the text as it
        stands, `editor.restore.passes.suggest`)."""
        rows, new = self.confidences(words, punct, case, p_idx)
        if not len(rows):
            return punct
        out = punct.copy()
        cols = p_idx[rows]
        old = out[rows, cols]
        others = out[rows].copy()
        others[np.arange(len(rows)), cols] = -1.0
        # the value it must stay above: the likeliest other where it was the likeliest, else no
        # mark (a mark is proposed only where it is likelier than the text as it stands)
        best = np.maximum(others.max(1), 0.0)
        rival = np.where(old >= best, best, np.minimum(out[rows, 0], old))
        floor = rival / np.maximum(1.0 - old + rival, 1e-12)
        new = np.clip(np.maximum(new, floor), 1e-6, 1.0 - 1e-6)
        rest = np.maximum(1.0 - old, 1e-12)
        scale = (1.0 - new) / rest
        out[rows] *= scale[:, None]
        out[rows, cols] = new
        out[rows] /= out[rows].sum(1, keepdims=True)
        return out


def attach(restorer: Restorer, rescorer: MarkRescorer | None) -> None:
    """Run ``restorer``'s decisions through ``rescorer`` from now on (None: as they were), as a
    model with it would: the mark proposed keeps its place, its probability moves, and a sentence
    end's capital stays at least as likely as the end."""
    plain = Restorer.decisions.__get__(restorer)
    if rescorer is None:
        restorer.__dict__.pop("decisions", None)
        return

    def decisions(words: Sequence[str], joint: np.ndarray, first_is_start: bool = False,
                  *args: Any, **kwargs: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        punct, raw_case, case, p_idx, c_idx = plain(words, joint, first_is_start, *args, **kwargs)
        punct = rescorer.apply(words, punct, raw_case, p_idx)
        case = settle_case(punct, case, np.zeros(len(words), bool), first_is_start)
        return punct, raw_case, case, p_idx, c_idx

    restorer.decisions = decisions  # type: ignore[method-assign]
