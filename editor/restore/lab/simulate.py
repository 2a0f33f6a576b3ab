"""The simulated review (lab): per talk, a reviewer fixes every error in the first share of the
words, Stet learns from them as the editor does, and the rest is scored with and without it.
`stet eval FILE --simulate-review SHARE` runs it."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence

import numpy as np

from editor.restore.lab.evaluate import case_scores, punct_scores
from editor.restore.model.labels import CASE_INDEX, END_MARKS, MARK_TO_3CLASS, N_CASE, PUNCT_INDEX, case_of
from editor.restore.learning.review_lessons import Decision, adapt_head
from editor.restore.learning.learned_store import LEXICON_MIN_DECISIONS, learn_review

def _decisions(doc: Sequence, start: int, end: int, proposed: Sequence | None = None) -> list[Decision]:
    """The reviewed words as the reviewer left them (the reference), with what Stet proposed."""
    return [Decision(w.word, w.punct, w.surface, i == 0 or doc[i - 1].punct in END_MARKS,
                     proposed[i].punct if proposed is not None else None,
                     proposed[i].text.removesuffix(".") if proposed is not None else None,
                     proposed is not None and (i == 0 or proposed[i - 1].punct in END_MARKS))
            for i, w in enumerate(doc[start:end], start)]


def _lexicon_forms(decisions: Sequence[Decision], common=(), least: int = 1) -> dict[str, str]:
    """What a save adds to the user lexicon from these decisions (editor.core.review.repeat_choices.user_forms,
    less the model's `common` words: see editor.restore.learning.learned_store.remember_review): forms written
    mid-sentence, every such occurrence agreeing (at least `least` of them), the case decided by the person."""
    seen: dict[str, set[str]] = {}
    count: dict[str, int] = {}
    for d in decisions:
        if not d.sentence_start and any(ch.isalpha() for ch in d.surface) and d.surface.lower() == d.word.lower():
            seen.setdefault(d.word, set()).add(d.surface)
            count[d.word] = count.get(d.word, 0) + 1
    chosen = {d.word for d in decisions if d.decided_case and not d.sentence_start}
    return {w: next(iter(f)) for w, f in seen.items()
            if len(f) == 1 and w in chosen and next(iter(f)) != w and w not in common and count[w] >= least}


def _score(gold_doc: Sequence, preds: Sequence) -> dict:
    g3 = [MARK_TO_3CLASS[w.punct] for w in gold_doc]
    p3 = [MARK_TO_3CLASS[p.punct] for p in preds]
    surf = [p.text.removesuffix(".") for p in preds]
    gsurf = [w.surface for w in gold_doc]
    marks = sum(1 for w, p in zip(gold_doc, preds) if w.punct != p.punct)
    cases = sum(1 for g, s in zip(gsurf, surf) if g != s)
    return {"punct": punct_scores(g3, p3), "case": case_scores(gsurf, surf), "mark_actions": marks,
            "case_actions": cases, "g3": g3, "p3": p3, "gsurf": gsurf, "psurf": surf}


def summary_of(parts: Sequence[dict]) -> dict:
    """F1, case F1 and actions of several talks' scores (see `simulate_review`'s "per_talk")."""
    return _summary(list(parts))


def _summary(parts: list[dict]) -> dict:
    g3 = [x for p in parts for x in p["g3"]]
    p3 = [x for p in parts for x in p["p3"]]
    gs = [x for p in parts for x in p["gsurf"]]
    ps = [x for p in parts for x in p["psurf"]]
    marks = sum(p["mark_actions"] for p in parts)
    cases = sum(p["case_actions"] for p in parts)
    return {"overall_f1": round(punct_scores(g3, p3)["overall"]["f1"], 2),
            "case_f1": round(case_scores(gs, ps)["f1"], 2),
            "actions": marks + cases, "mark_actions": marks, "case_actions": cases, "words": len(g3)}


def simulate_review(restorer, docs: Sequence[Sequence], paragraphs: Sequence[Sequence[int]] | None = None,
                    share: float = 0.2, talks: Iterable[int] | None = None, *, bias: bool = True,
                    case_memory: bool = True, pair_memory: bool = True, head: bool = False, log=None,
                    lexicon: bool = True, case_odds: float | None = None, joints: Sequence | None = None,
                    limits: dict | None = None, per_talk: bool = False, **head_options) -> dict:
    """For each talk (a list of LabelledWord), a reviewer fixes every error in the first `share` of
    its words; Stet learns from them; the rest is scored before and after.

    "actions": the words of the rest whose mark or written form still differs from the reference
    (each one the person has to change: reject a wrong suggestion or make a missing one).
    "names": mid-sentence capitals the reviewer wrote in the reviewed part (a talk's names), and how
    often their later occurrences are written right. With `lexicon`, the forms a save adds to the
    user lexicon are written outright in the rest, as the editor's next restoration does. `case_odds`:
    the strength of the remembered case forms (default: the editor's, `CASE_MEMORY_ODDS`). "corrected_names": the stricter bar "a talk's
    own names are right after their first correction": words outside the model's most frequent
    (`common_words`) that the reviewer had to correct to a capitalised form mid-sentence (Stet
    proposed another form there), and how often their later occurrences are written right.
    "names_corrected_once": of those, the ones the reviewed part writes in one form wherever no
    sentence starts (a talk's names, as far as the review shows: not "campaign" written both
    "my campaign" and "SING Campaign"), with the later occurrences still written wrong after
    learning ("missed", the first 20).

    `joints`: the model's joint marginals of each talk, when computed already (the split
    evaluation reads them once for many settings); `limits`: `Adaptation.learn`'s `min_form` and
    `min_pair`, and `min_lexicon` (the occurrences a form needs to join the user lexicon: see
    `editor.restore.learning.learned_store.LEXICON_MIN_DECISIONS`); `per_talk`: also each talk's counts
    ("per_talk": talk -> its rest's scores without and with learning, for `summary_of`)."""
    if not 0.0 < share < 1.0:
        raise ValueError("the reviewed share must be between 0 and 1 (e.g. 0.2)")
    from editor.restore.learning.review_lessons import common_words, plain_words

    common = common_words(restorer.vocab)
    # what stays out of the user lexicon (see editor.restore.learning.learned_store.remember_review)
    unlisted = common | plain_words(restorer.vocab, getattr(restorer, "names", None))
    options = {"bias": bias, "case_memory": case_memory, "pair_memory": pair_memory, "lexicon": lexicon,
               "case_odds": case_odds, "unlisted": unlisted, **(limits or {})}
    before_parts, after_parts = [], []
    names, fixed, once = _Tally(), _Tally(), _Tally(misses=20)
    fit_seconds: list[float] = []
    talk_parts: dict[int, tuple[dict, dict]] = {}
    chosen = sorted(set(talks)) if talks is not None else range(len(docs))
    for k in chosen:
        doc = docs[k]
        n = len(doc)
        cut = int(round(n * share))
        if cut < 1 or n - cut < 1:
            continue
        proposed, before, after, seconds = _review_talk(restorer, doc, cut, paragraphs[k] if paragraphs else (), options,
                                                        head, head_options, joints[k] if joints is not None else None)
        fit_seconds.append(seconds)
        # the rest of the talk; its first word reads the reviewed (now right) mark before it
        rest = doc[cut:]
        b = _score(rest, before[cut:])
        a = _score(rest, after[cut:])
        before_parts.append(b)
        after_parts.append(a)
        talk_parts[k] = (b, a)
        sets = _name_sets(doc, cut, proposed, common)
        for tally, words in zip((names, fixed, once), sets):
            tally.words += len(words)
            tally.count(k, doc, cut, words, b["psurf"], a["psurf"])
        if log:
            log(f"talk {k}: {n} words, reviewed {cut}")
    if not before_parts:
        raise ValueError("no talk long enough to split into a reviewed part and a rest")
    return {"share": share, "talks": len(before_parts),
            "before": _summary(before_parts), "after": _summary(after_parts),
            "names": names.summary(words=False),
            "corrected_names": fixed.summary(),
            "names_corrected_once": {**once.summary(), "missed": once.missed},
            "fit_seconds_median": round(float(np.median(fit_seconds)), 4) if fit_seconds else None,
            **({"per_talk": talk_parts} if per_talk else {})}


def _review_talk(restorer, doc: Sequence, cut: int, paragraph_starts: Iterable[int], options: dict, head: bool,
                 head_options: dict, joint=None) -> tuple[list, list, list, float]:
    """One talk: what the model proposed for the reviewed first ``cut`` words, its proposals for
    the whole talk before and after learning from their review (the reviewed words then standing
    as the reviewer left them), and how long the learning took."""
    from editor.restore.passes.windows import joint_marginals_chunked

    words = [w.word for w in doc]
    n = len(words)
    if joint is None:
        joint = joint_marginals_chunked(restorer.model, restorer.vocab, words, restorer.size, restorer.overlap,
                                        restorer.cut, restorer.merge, device=restorer.device)
    para_end = np.zeros(n, bool)
    for i in paragraph_starts:
        if 0 < i <= n - 1:
            para_end[i - 1] = True
    t0 = time.perf_counter()
    proposed = restorer.predictions(words[:cut], joint[:cut], first_is_start=True, paragraph_ends=para_end[:cut])
    adapt = _learned(restorer, doc, cut, proposed, joint, options)
    seconds = time.perf_counter() - t0
    # the reviewed words stand as the reviewer left them (the rest's first word reads its mark)
    joint = np.array(joint, np.float32)
    for i in range(cut):
        joint[i] = 0.0
        joint[i, PUNCT_INDEX.get(doc[i].punct, 0) * N_CASE + CASE_INDEX[case_of(doc[i].surface)]] = 1.0
    before = restorer.predictions(words, joint, first_is_start=True, last_is_end=True, paragraph_ends=para_end)
    model_lexicon = restorer.lexicon
    restorer.lexicon = {**model_lexicon, **adapt.mixed_forms()}
    try:
        source = joint
        if head:
            gold = np.asarray([PUNCT_INDEX.get(w.punct, 0) * N_CASE + CASE_INDEX[case_of(w.surface)] for w in doc[:cut]])
            t1 = time.perf_counter()
            tuned = adapt_head(restorer.model, restorer.vocab, words[:cut], gold, **head_options)
            seconds += time.perf_counter() - t1
            if tuned is not None:
                source = joint_marginals_chunked(tuned, restorer.vocab, words, restorer.size, restorer.overlap,
                                                 restorer.cut, restorer.merge, device=restorer.device)
                source[:cut] = joint[:cut]
        # (an empty adaptation is not applied, as in the editor: `Restorer.adapt`)
        adapted = adapt.apply(words, source) if head or not adapt.is_empty() else source
        after = restorer.predictions(words, adapted, first_is_start=True, last_is_end=True, paragraph_ends=para_end)
    finally:
        restorer.lexicon = model_lexicon
    return proposed, before, after, seconds


def _learned(restorer, doc: Sequence, cut: int, proposed: Sequence, joint, options: dict):
    """What the editor learns from the review of the first ``cut`` words (see
    editor.restore.learning.learned_store.learn_review), less the parts ``options`` turn off."""
    decisions = _decisions(doc, 0, cut, proposed)
    adapt = learn_review(restorer, decisions, joint=joint[:cut], min_form=options.get("min_form"),
                         min_pair=options.get("min_pair"), check_bias=options.get("check_bias"),
                         penalty=options.get("penalty"), min_known_form=options.get("min_known_form"))
    if options["case_odds"] is not None:
        adapt.case_odds = float(options["case_odds"])
    if not options["bias"]:
        adapt.punct_bias = np.zeros_like(adapt.punct_bias)
    if not options["case_memory"]:
        adapt.case_forms, adapt.context_forms, adapt.next_forms = {}, {}, {}
    if not options["pair_memory"]:
        adapt.pair_marks = {}
    if options["lexicon"]:  # the forms a save puts in the user lexicon, written outright by the next restoration
        least = options.get("min_lexicon")
        adapt.fixed_forms = _lexicon_forms(decisions, options["unlisted"],
                                           LEXICON_MIN_DECISIONS if least is None else least)
    return adapt


def _name_sets(doc: Sequence, cut: int, proposed: Sequence, common) -> tuple[set[str], set[str], set[str]]:
    """The words whose later uses the simulation follows: mid-sentence capitals the reviewer wrote
    (names); of those outside the model's `common` words, the ones the reviewer had to correct
    (Stet proposed another form there); and of those, the ones the reviewed part writes in one
    form at every mid-sentence occurrence (not "campaign" of "my campaign" and "SING Campaign")."""
    names = {d.word for d in _decisions(doc, 0, cut) if not d.sentence_start and d.surface != d.word
             and any(ch.isalpha() for ch in d.word)}
    fixed = {d.word for d in _decisions(doc, 0, cut, proposed) if not d.sentence_start
             and d.surface != d.word and d.surface != d.proposed_surface and d.word not in common
             and any(ch.isalpha() for ch in d.word)}
    written: dict[str, set[str]] = {}
    for d in _decisions(doc, 0, cut):
        if not d.sentence_start:
            written.setdefault(d.word, set()).add(d.surface)
    once = {w for w in fixed if len(written.get(w, ())) == 1}
    return names, fixed, once


class _Tally:
    """How often the later uses of a set of words are written right, before and after learning
    (and, with ``misses``, the first wrong ones after)."""

    def __init__(self, misses: int = 0) -> None:
        self.words = self.total = self.before = self.after = 0
        self.limit = misses
        self.missed: list[str] = []

    def count(self, talk: int, doc: Sequence, cut: int, words: set[str], before: Sequence[str],
              after: Sequence[str]) -> None:
        for i in range(cut, len(doc)):
            if doc[i].word in words:
                self.total += 1
                self.before += before[i - cut] == doc[i].surface
                self.after += after[i - cut] == doc[i].surface
                if after[i - cut] != doc[i].surface and len(self.missed) < self.limit:
                    self.missed.append(f"talk {talk}: {doc[i].surface} written {after[i - cut]}")

    def summary(self, words: bool = True) -> dict:
        out = {"words": self.words} if words else {}
        return {**out, "later_occurrences": self.total,
                "right_before": round(100 * self.before / self.total, 1) if self.total else None,
                "right_after": round(100 * self.after / self.total, 1) if self.total else None}
