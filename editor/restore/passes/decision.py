"""The decision rules: from calibrated distributions to the mark after each word and its case.
numpy alone, so they are tested without torch or a model."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from editor.core.commas import COMMA_KEPT_FOR_END
from editor.restore.model.labels import CASE_CLASSES, END_INDEX, MARK_GROUP, PUNCT_MARKS, THREE_CLASS


def decision_scales(decision: Mapping[str, Any]) -> np.ndarray:
    """The per-class weights of the mark decision, in THREE_CLASS order (O, COMMA, PERIOD, QUESTION).

    `class_scales` names them; an older config's `none_scale` scales "no mark" alone."""
    scales = np.ones(len(THREE_CLASS))
    if "class_scales" in decision:
        for k, v in decision["class_scales"].items():
            scales[THREE_CLASS.index(k)] = float(v)
    else:
        scales[0] = float(decision.get("none_scale", 1.0))
    return scales


def decide_marks(punct: np.ndarray, class_scales: np.ndarray) -> np.ndarray:
    """The mark index per word: first the 3-class group (none, comma-like, sentence end, question)
    by its summed probability times its weight, then the likeliest mark within that group.

    Deciding on the group's whole mass means "a sentence ends here" is not lost when the model
    hesitates between "." and "!"; the weights are tuned on dev (fewer, surer suggestions or more)."""
    G = np.asarray(MARK_GROUP, punct.dtype)  # (7, 4)
    group = ((punct @ G) * class_scales).argmax(1)
    in_group = G[:, group].T.astype(bool)  # (N, 7)
    chosen: np.ndarray = np.where(in_group, punct, -1.0).argmax(1)
    return chosen


#: The marks after which only a name takes a capital (`decide_jointly`'s `comma_capital`).
_COMMA_LIKE = [PUNCT_MARKS.index(","), PUNCT_MARKS.index(";")]
_COMMA = PUNCT_MARKS.index(",")


def decide_jointly(punct: np.ndarray, case: np.ndarray, class_scales: np.ndarray, position_free_lower: float,
                   first_is_start: bool = False, capitalize_sentences: bool = True,
                   unmarked_lower: float | None = None, colon_lower: float | None = None,
                   comma_capital: np.ndarray | None = None,
                   names_after_no_mark: bool = False, comma_line: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """The mark after each word and the case of each word, decided together from the distributions
    `punct` (N, 7) and `case` (N, 4) (a word's case already at least as likely capitalised as a
    sentence end before it). Returns (mark index (N,), case index (N,)).

    One rule for every suggestion: a value is chosen only where it is likelier than the raw text
    as it stands (no mark, lowercase), and the probability shown is that value's. The mark is the
    weighted 3-class choice (`decide_marks`) where the chosen mark beats "no mark". A sentence end
    is kept only where the capital it brings to the next word is likelier than that word's
    lowercase form (else the best mark that is not a sentence end). The mark proposed is the
    likeliest mark there (the weights decide only whether one goes there), but for such a refused
    sentence end. The word after a sentence end
    takes its likeliest capital form; any other word is capitalised only where its lowercase form
    is unlikely anywhere (probability under `position_free_lower`: names, "I"), so no capital follows
    a comma because the model half-believed a sentence ended there. `unmarked_lower` (default: the
    same) is that threshold for a word after no mark, `colon_lower` after ":" (which often opens a
    quote or a sentence). `comma_capital` (bool (N,), optional): the words that may take a capital
    right after a , or ; at all (names of the lexicon, "I"); the others stay lowercase there, and
    with `names_after_no_mark` also after no mark ("the tea By noon": a capital that only a missed
    sentence end would explain is not proposed without that end). `comma_line` (the person's comma
    style: `editor.core.commas`): a comma less likely than this is not chosen, and no mark stands
    there (not the next best mark: the style says how many commas, not that a full stop may take
    a comma's place); the next word's case then follows no mark."""
    N = len(punct)
    rows = np.arange(N)
    p_idx = decide_marks(punct, class_scales)
    p_idx[punct[rows, p_idx] <= punct[:, 0]] = 0
    lower = case[:, 0]
    best_cap = 1 + case[:, 1:].argmax(1)
    cap_ok = case[rows, best_cap] > lower
    ends = list(END_INDEX)
    if capitalize_sentences and N > 1:
        bad = np.nonzero(np.isin(p_idx[:-1], ends) & ~cap_ok[1:])[0]
        if len(bad):
            alt = punct[bad].copy()
            alt[:, ends] = 0.0
            q = decide_marks(alt, class_scales)
            q[alt[np.arange(len(bad)), q] <= alt[:, 0]] = 0
            p_idx[bad] = q
    # The weights decide whether a mark goes after a word; the mark proposed is the likeliest the
    # panel lists beside it (a full stop at 35 % is not proposed where a comma has 40 %), but for a
    # sentence end refused above for the capital it would bring.
    marked = np.nonzero(p_idx > 0)[0]
    if len(marked):
        allowed = punct[marked].copy()
        allowed[:, 0] = -1.0
        if capitalize_sentences:
            refused = marked < N - 1
            refused[refused] = ~cap_ok[marked[refused] + 1]
            allowed[np.ix_(refused, np.asarray(ends))] = -1.0
        p_idx[marked] = allowed.argmax(1)
    if comma_line > 0.0:
        # a comma under the person's line goes, unless a sentence may end there: then it is
        # still asked (the likeliest mark, with the sentence end beside it in the panel)
        unsure_end = punct[:, ends].sum(1) < COMMA_KEPT_FOR_END
        p_idx[(p_idx == _COMMA) & (punct[:, _COMMA] < comma_line) & unsure_end] = 0
    starts = np.zeros(N, bool)
    starts[1:] = np.isin(p_idx[:-1], ends)
    if N:
        starts[0] = first_is_start
    if unmarked_lower is None:
        unmarked_lower = position_free_lower
    threshold = np.full(N, float(position_free_lower))
    unmarked = np.zeros(N, bool)
    unmarked[1:] = p_idx[:-1] == 0
    threshold[unmarked] = float(unmarked_lower)
    if colon_lower is not None:
        colon = np.zeros(N, bool)
        colon[1:] = p_idx[:-1] == PUNCT_MARKS.index(":")
        threshold[colon] = float(colon_lower)
    # how likely the lowercase form is where no sentence ends before the word: the case head's
    # capital mass includes its belief in a sentence start, which the mark before has settled
    p_end = np.zeros(N, punct.dtype)
    p_end[1:] = punct[:-1, ends].sum(1)
    lower_mid = np.minimum(lower / np.maximum(1.0 - p_end, 1e-6), 1.0)
    if capitalize_sentences:
        mid_ok = lower_mid < threshold
        if comma_capital is not None and N > 1:
            after_comma = np.zeros(N, bool)
            after_comma[1:] = np.isin(p_idx[:-1], _COMMA_LIKE)
            if names_after_no_mark:
                after_comma |= unmarked
            mid_ok &= ~after_comma | comma_capital
        cap = starts | mid_ok
    else:
        cap = lower < 0.5
    c_idx = np.where(cap & cap_ok, best_cap, 0)
    return p_idx, c_idx


def end_with_sentence_end(punct: np.ndarray) -> np.ndarray:
    """`punct` (N, 7) with the last word's mark a sentence end: a text ends with one. The model,
    which never sees where the text stops (its windows end anywhere), keeps its choice among . ? !
    and the rest goes to "."."""
    ends = list(END_INDEX)
    last = np.zeros(punct.shape[1], punct.dtype)
    last[ends] = punct[-1, ends]
    last[ends[0]] += 1e-3
    punct = punct.copy()
    punct[-1] = last / last.sum()
    return punct


def settle_case(punct: np.ndarray, case: np.ndarray, no_lexicon: np.ndarray, first_is_start: bool) -> np.ndarray:
    """The case distributions `case` (N, 4) made consistent with what is known before deciding: a
    word with no known mixed form (`no_lexicon`, bool (N,)) gives that mass to "capitalized", and a
    word after a sentence end is capitalised, so its capital is at least as likely as the end mark
    before it in `punct` (N, 7) (certain at the start of the text when `first_is_start`)."""
    N = len(case)
    mixed_i = CASE_CLASSES.index("mixed")
    cap_i = CASE_CLASSES.index("capitalized")
    case = case.copy()
    case[no_lexicon, cap_i] += case[no_lexicon, mixed_i]
    case[no_lexicon, mixed_i] = 0.0
    p_end = np.zeros(N, case.dtype)
    p_end[1:] = punct[:-1, list(END_INDEX)].sum(1)
    if first_is_start and N:
        p_end[0] = 1.0
    lacking = np.clip(p_end - (1.0 - case[:, 0]), 0.0, None)
    case[:, 0] -= lacking
    case[:, cap_i] += lacking
    # moving mass can leave "lower" a rounding error below 0 (-8e-09 seen): still a probability
    settled: np.ndarray = np.clip(case, 0.0, 1.0)
    return settled


def boost_sentence_ends(punct: np.ndarray, odds: float, rows: np.ndarray | None = None) -> np.ndarray:
    """The distributions `punct` (N, 7) with the odds of a sentence end (. ? !) multiplied by
    `odds` in the rows selected by `rows` (all when None); the end marks keep their proportions
    among themselves."""
    out = punct.copy()
    sel = out if rows is None else out[rows]
    sel[:, list(END_INDEX)] *= odds
    sel /= sel.sum(1, keepdims=True)
    if rows is not None:
        out[rows] = sel
    return out


def temper(p: np.ndarray, temperature: float) -> np.ndarray:
    """Temperature scaling of a distribution: p^(1/T), renormalised. Rounding in the marginals
    (float32 forward-backward, a product of heads) can leave a probability a hair below 0 or above
    1: each is clipped to [0, 1] before and after, so a confidence is always a probability."""
    q: np.ndarray
    if temperature == 1.0:
        p = np.clip(p, 0.0, 1.0)
        q = p / np.maximum(p.sum(1, keepdims=True), 1e-12)
    else:
        q = np.power(np.clip(p, 1e-12, 1.0), 1.0 / temperature)
        q = q / q.sum(1, keepdims=True)
    out: np.ndarray = np.clip(q, 0.0, 1.0)  # numpy types clip of an untyped array as Any
    return out
