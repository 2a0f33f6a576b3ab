"""Learning from the person reviewing: what one review teaches the restorer about a speaker and a text.

An `Adaptation` is small and never touches the shipped network: a bias on the mark and case
classes (fitted by likelihood on the reviewed words, pulled towards 0), the case forms the person
wrote mid-sentence (a user lexicon: "okafor" -> "Okafor", "ipad" -> "iPad", a capital the person
took away), and the marks the person chose between two words (the comma they keep rejecting
before "because"). It is applied to the network's joint marginals before the decision, so the
decision rule, the calibration and the paragraph evidence work on it as on the model's own output.

`simulate_review` measures it: per talk, a simulated reviewer fixes every error in the first share
of the words, an adaptation is fitted on them, and the rest is scored with and without it.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from editor.restore.labels import (CASE_INDEX, END_MARKS, MARK_TO_3CLASS, N_CASE, N_PUNCT, PUNCT_INDEX,
                                   case_of)

#: How strongly a remembered case form or a remembered mark between two words moves the odds
#: (multiplies them). Chosen on the even-numbered dev talks (see `tune_strengths`), reported on
#: the odd ones.
CASE_MEMORY_ODDS = 30.0
PAIR_MEMORY_ODDS = 3.0
#: The bias's pull towards 0 (an L2 penalty per reviewed word); with a few hundred reviewed words
#: the bias moves only where the reviewer's evidence is consistent.
BIAS_PENALTY = 0.02
#: The most frequent words of the model's vocabulary, whose remembered form needs the word before it.
COMMON_WORDS = 2000
#: The head update (see `adapt_head`): Adam steps, learning rate, L2 pull towards the shipped heads.
HEAD_STEPS, HEAD_LR, HEAD_PENALTY = 40, 2e-3, 1.0


@dataclass
class Decision:
    """One reviewed word: its lowercase form, the mark after it and its written form as the person
    left them, and whether it starts a sentence (so a capital there says nothing about the word)."""

    word: str
    punct: str
    surface: str
    sentence_start: bool
    proposed_punct: str | None = None  # what Stet proposed there (None: not known, count as decided)
    proposed_surface: str | None = None

    proposed_start: bool = False  # Stet's own marks made this word start a sentence

    @property
    def decided_case(self) -> bool:
        """The person decided the word's form: they wrote a form of their own, or turned down a
        capital Stet proposed mid-sentence (one that came with a sentence end says nothing of the word)."""
        if self.proposed_surface is None or self.surface != self.word:
            return True
        return self.proposed_surface != self.word and not self.proposed_start

    @property
    def corrected_mark(self) -> bool:
        """The person changed the mark Stet proposed (or wrote one where nothing was known)."""
        return self.proposed_punct is None or self.proposed_punct != self.punct


@dataclass
class Adaptation:
    punct_bias: np.ndarray = field(default_factory=lambda: np.zeros(N_PUNCT))
    case_bias: np.ndarray = field(default_factory=lambda: np.zeros(N_CASE))
    #: word -> the form written mid-sentence ("okafor" -> "Okafor"; "apple" -> "apple": not a capital)
    case_forms: dict[str, str] = field(default_factory=dict)
    #: (word, next word) -> the mark the person left between them
    pair_marks: dict[tuple[str, str], str] = field(default_factory=dict)
    #: (word before, word) -> form, for common words whose capital belongs to a name around them
    #: ("saddleback church" -> "Church", while "church" alone stays lowercase)
    context_forms: dict[tuple[str, str], str] = field(default_factory=dict)
    #: forms written outright, as the user lexicon gives them (the capital is the word's, wherever it stands)
    fixed_forms: dict[str, str] = field(default_factory=dict)
    words: int = 0  # how many reviewed words it was learned from
    case_odds: float = CASE_MEMORY_ODDS
    pair_odds: float = PAIR_MEMORY_ODDS

    # ------------------------------------------------------------------ learning
    @classmethod
    def learn(cls, decisions: Sequence[Decision], joint: np.ndarray | None = None, *,
              bias: bool = True, penalty: float = BIAS_PENALTY, case_bias: bool = False,
              common: Collection[str] = ()) -> Adaptation:
        """Learn from reviewed words; `joint` ((N, 28) marginals the model gave those words) is
        needed for the bias. A word is remembered in the form written mid-sentence when every
        such occurrence agrees; a pair's mark when every occurrence agrees. A word in `common` (the
        most frequent words: "church", "new", "we") is remembered only with the word before it, so
        "Saddleback Church" does not capitalise every church, nor a quoted "We" every we."""
        # every mid-sentence occurrence must agree (a capital that is only sometimes there, as in a
        # title, or "The" after a quote, is not the word's form), and one must be a decision
        forms: dict[object, set[str]] = {}
        decided: set[object] = set()
        for k, d in enumerate(decisions):
            if not d.sentence_start and any(ch.isalpha() for ch in d.surface):
                key: object = d.word
                if d.word in common:
                    if k == 0:
                        continue
                    key = (decisions[k - 1].word, d.word)
                forms.setdefault(key, set()).add(d.surface)
                if d.decided_case:
                    decided.add(key)
        agreed = {key: next(iter(f)) for key, f in forms.items() if len(f) == 1 and key in decided}
        case_forms = {k: f for k, f in agreed.items() if isinstance(k, str)}
        context_forms = {k: f for k, f in agreed.items() if isinstance(k, tuple)}
        pairs: dict[tuple[str, str], set[str]] = {}
        corrected: set[tuple[str, str]] = set()
        for a, b in zip(decisions, decisions[1:]):
            pairs.setdefault((a.word, b.word), set()).add(a.punct)
            if a.corrected_mark:
                corrected.add((a.word, b.word))
        pair_marks = {p: next(iter(m)) for p, m in pairs.items() if len(m) == 1 and p in corrected}
        out = cls(case_forms=case_forms, pair_marks=pair_marks, context_forms=context_forms,  # type: ignore[arg-type]
                  words=len(decisions))
        if bias and joint is not None and len(decisions):
            gold = np.asarray([PUNCT_INDEX.get(d.punct, 0) * N_CASE + CASE_INDEX[case_of(d.surface)]
                               for d in decisions])
            out.punct_bias, cb = fit_bias(joint, gold, penalty)
            if case_bias:
                out.case_bias = cb
        return out

    def merged(self, other: Adaptation) -> Adaptation:
        """This adaptation with `other`'s (later) decisions taking precedence; biases weighted by words."""
        n = self.words + other.words
        w = other.words / n if n else 0.0
        return Adaptation((1 - w) * self.punct_bias + w * other.punct_bias,
                          (1 - w) * self.case_bias + w * other.case_bias,
                          {**self.case_forms, **other.case_forms}, {**self.pair_marks, **other.pair_marks},
                          {**self.context_forms, **other.context_forms}, {**self.fixed_forms, **other.fixed_forms},
                          n, self.case_odds, self.pair_odds)

    # ------------------------------------------------------------------ applying
    def is_empty(self) -> bool:
        return not (self.case_forms or self.context_forms or self.fixed_forms or self.pair_marks
                    or np.any(self.punct_bias)
                    or np.any(self.case_bias))

    def mixed_forms(self) -> dict[str, str]:
        """Remembered forms the case classes cannot write ("iPad"): for the restorer's lexicon."""
        return {w: s for w, s in {**self.case_forms, **self.fixed_forms}.items() if case_of(s) == "mixed"}

    def apply(self, words: Sequence[str], joint: np.ndarray) -> np.ndarray:
        """(N, 28) joint marginals for `words` with what was learned applied, renormalised."""
        j = np.asarray(joint, np.float64).reshape(len(words), N_PUNCT, N_CASE).copy()
        j *= np.exp(self.punct_bias)[None, :, None]
        j *= np.exp(self.case_bias)[None, None, :]
        if self.case_forms:
            for i, w in enumerate(words):
                form = self.case_forms.get(w)
                if form is not None:
                    j[i, :, CASE_INDEX[case_of(form)]] *= self.case_odds
        if self.context_forms:
            for i in range(1, len(words)):
                form = self.context_forms.get((words[i - 1], words[i]))
                if form is not None:
                    j[i, :, CASE_INDEX[case_of(form)]] *= self.case_odds
        if self.fixed_forms:
            for i, w in enumerate(words):
                form = self.fixed_forms.get(w)
                if form is not None and case_of(form) != "lower":
                    c = CASE_INDEX[case_of(form)]
                    j[i, :, c] = j[i].sum(1)
                    j[i, :, [k for k in range(N_CASE) if k != c]] = 0.0
        if self.pair_marks:
            for i in range(len(words) - 1):
                mark = self.pair_marks.get((words[i], words[i + 1]))
                if mark is not None:
                    j[i, PUNCT_INDEX.get(mark, 0), :] *= self.pair_odds
        j /= j.sum((1, 2), keepdims=True)
        return j.reshape(len(words), -1).astype(np.float32)

    # ------------------------------------------------------------------ storing
    def to_dict(self) -> dict:
        return {"punct_bias": [round(float(x), 6) for x in self.punct_bias],
                "case_bias": [round(float(x), 6) for x in self.case_bias],
                "case_forms": dict(sorted(self.case_forms.items())),
                "pair_marks": [[a, b, m] for (a, b), m in sorted(self.pair_marks.items())],
                "context_forms": [[a, b, f] for (a, b), f in sorted(self.context_forms.items())],
                "words": self.words}

    @classmethod
    def from_dict(cls, data: Mapping) -> Adaptation:
        """The inverse of `to_dict`; a ValueError names what is wrong."""
        if not isinstance(data, Mapping):
            raise ValueError("an adaptation is a JSON object")

        def vector(key: str, n: int) -> np.ndarray:
            v = data.get(key, [0.0] * n)
            if not (isinstance(v, list) and len(v) == n and all(isinstance(x, (int, float)) for x in v)):
                raise ValueError(f"{key} must be a list of {n} numbers")
            a = np.asarray(v, np.float64)
            if not np.all(np.isfinite(a)) or np.any(np.abs(a) > 20):
                raise ValueError(f"{key} must hold finite numbers within -20..20")
            return a

        forms = data.get("case_forms", {})
        if not (isinstance(forms, Mapping) and all(isinstance(k, str) and isinstance(v, str) and v.lower() == k
                                                   for k, v in forms.items())):
            raise ValueError("case_forms must map lowercase words to the same words in another case")
        pairs = data.get("pair_marks", [])
        if not (isinstance(pairs, list) and all(isinstance(p, list) and len(p) == 3 and all(isinstance(x, str) for x in p)
                                                and p[2] in PUNCT_INDEX for p in pairs)):
            raise ValueError("pair_marks must be a list of [word, next word, mark]")
        contexts = data.get("context_forms", [])
        if not (isinstance(contexts, list) and all(isinstance(p, list) and len(p) == 3 and all(isinstance(x, str) for x in p)
                                                   and p[2].lower() == p[1] for p in contexts)):
            raise ValueError("context_forms must be a list of [word before, word, form of the word]")
        words = data.get("words", 0)
        if not isinstance(words, int) or isinstance(words, bool) or words < 0:
            raise ValueError("words must be a count")
        return cls(vector("punct_bias", N_PUNCT), vector("case_bias", N_CASE), dict(forms),
                   {(a, b): m for a, b, m in pairs}, {(a, b): f for a, b, f in contexts}, words=words)


def adapt_head(model, vocab, words: Sequence[str], gold: np.ndarray, *, steps: int = HEAD_STEPS,
               lr: float = HEAD_LR, penalty: float = HEAD_PENALTY, window: int = 120):
    """A copy of `model` whose output layer (the heads: 2*hidden -> marks + case) is nudged towards
    the reviewed words' labels `gold` (joint indices). Only a delta on that one layer is trained,
    pulled towards 0 by `penalty`; the recurrent network, the embeddings and the CRF's transitions
    stay as shipped. Returns None where the model's heads are not separate."""
    import copy

    import torch

    from editor.restore.labels import N_PUNCT as NP

    if not getattr(model, "separate", False) or len(words) == 0:
        return None
    wid, cid = vocab.encode(list(words))
    n = len(words)
    spans = [(s, min(n, s + window)) for s in range(0, n, window)]
    T = max(e - s for s, e in spans)
    w = np.zeros((len(spans), T), np.int64)
    c = np.zeros((len(spans), T, cid.shape[1]), np.int64)
    lab = np.zeros((len(spans), T), np.int64)
    mask = np.zeros((len(spans), T), bool)
    for b, (s, e) in enumerate(spans):
        w[b, : e - s], c[b, : e - s], lab[b, : e - s], mask[b, : e - s] = wid[s:e], cid[s:e], gold[s:e], True
    captured = []
    hook = model.out.register_forward_hook(lambda _m, inp, _out: captured.append(inp[0].detach()))
    try:
        was = model.training
        model.eval()
        with torch.no_grad():
            model.emissions(torch.from_numpy(w), torch.from_numpy(c))
        model.train(was)
    finally:
        hook.remove()
    h = captured[0]
    base_w, base_b = model.out.weight.detach(), model.out.bias.detach()
    dw = torch.zeros_like(base_w, requires_grad=True)
    db = torch.zeros_like(base_b, requires_grad=True)
    opt = torch.optim.Adam([dw, db], lr=lr)
    mask_t = torch.from_numpy(mask)
    lab_t = torch.from_numpy(lab)
    p_lab, c_lab = lab_t // N_CASE, lab_t % N_CASE
    count = mask_t.sum()
    for _ in range(steps):
        em = torch.nn.functional.linear(h, base_w + dw, base_b + db)
        em_p, em_c = em[..., :NP], em[..., NP:]
        if model.crf is not None:
            lp = -model.crf.log_likelihood(em_p, p_lab, mask_t).sum()
        else:
            lp = (torch.nn.functional.cross_entropy(em_p.reshape(-1, NP), p_lab.reshape(-1), reduction="none")
                  * mask_t.reshape(-1)).sum()
        lc = (torch.nn.functional.cross_entropy(em_c.reshape(-1, N_CASE), c_lab.reshape(-1), reduction="none")
              * mask_t.reshape(-1)).sum()
        loss = (lp + lc) / count + penalty * (dw.pow(2).sum() + db.pow(2).sum())
        opt.zero_grad()
        loss.backward()
        opt.step()
    adapted = copy.deepcopy(model)
    with torch.no_grad():
        adapted.out.weight.add_(dw.detach())
        adapted.out.bias.add_(db.detach())
    return adapted


def fit_bias(joint: np.ndarray, gold: np.ndarray, penalty: float = BIAS_PENALTY,
             steps: int = 60) -> tuple[np.ndarray, np.ndarray]:
    """Class biases (punct (7), case (4)) that make the gold joint classes likelier, by Newton-like
    gradient steps on the mean log-likelihood with an L2 pull of `penalty` towards 0. A handful of
    parameters: a review of a few hundred words fits them in milliseconds."""
    logp = np.log(np.clip(np.asarray(joint, np.float64).reshape(-1, N_PUNCT, N_CASE), 1e-9, None))
    gp, gc = np.divmod(np.asarray(gold), N_CASE)
    bp, bc = np.zeros(N_PUNCT), np.zeros(N_CASE)
    n = len(gold)
    obs_p = np.bincount(gp, minlength=N_PUNCT) / n
    obs_c = np.bincount(gc, minlength=N_CASE) / n
    lr = 1.0
    for _ in range(steps):
        z = logp + bp[None, :, None] + bc[None, None, :]
        z -= z.max((1, 2), keepdims=True)
        q = np.exp(z)
        q /= q.sum((1, 2), keepdims=True)
        exp_p, exp_c = q.sum(2).mean(0), q.sum(1).mean(0)
        # gradient of mean log-likelihood minus penalty * |b|^2 / 2
        g_p = obs_p - exp_p - penalty * bp
        g_c = obs_c - exp_c - penalty * bc
        bp += lr * g_p / np.maximum(exp_p * (1 - exp_p) + penalty, 1e-3)
        bc += lr * g_c / np.maximum(exp_c * (1 - exp_c) + penalty, 1e-3)
        bp -= bp.mean()  # only differences between classes matter
        bc -= bc.mean()
        np.clip(bp, -8, 8, out=bp)
        np.clip(bc, -8, 8, out=bc)
        lr = max(lr * 0.9, 0.2)
    return bp, bc


# ---------------------------------------------------------------------------------- what is kept
def profile_key(language: str | None, speakers: Iterable[str | None] = ()) -> str:
    """Where an adaptation belongs: the text's language and its set of speakers. Learned state is
    applied only to a document with the same key unless the person chooses otherwise."""
    import hashlib

    names = sorted({s.strip().lower() for s in speakers if s and s.strip()})
    who = hashlib.sha1("\n".join(names).encode("utf-8")).hexdigest()[:12] if names else "anyone"
    lang = "".join(ch for ch in (language or "en").lower() if ch.isalnum() or ch == "-")[:16] or "en"
    return f"{lang}-{who}"


def learned_dir():
    from editor.core.paths import data_dir

    path = data_dir() / "learned"
    path.mkdir(parents=True, exist_ok=True)
    return path


def load_learned(key: str) -> Adaptation | None:
    """The adaptation kept for `key`, or None. A damaged file is a ValueError naming it."""
    import json

    path = learned_dir() / f"{key}.json"
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        return Adaptation.from_dict(json.loads(raw))
    except ValueError as err:
        raise ValueError(f"{path}: {err}") from None


def save_learned(key: str, adaptation: Adaptation) -> None:
    import json

    from editor.core.formats._common import atomic_write

    atomic_write(learned_dir() / f"{key}.json", (json.dumps(adaptation.to_dict(), ensure_ascii=False) + "\n").encode())


def reset_learned() -> int:
    """Forget every adaptation ("reset what Stet learned"); the shipped model is never changed."""
    n = 0
    for path in learned_dir().glob("*.json"):
        path.unlink(missing_ok=True)
        n += 1
    return n


def adaptation_for(transcript, *, lexicon: bool = True, learned: bool = False) -> Adaptation:
    """What to apply when restoring `transcript`: the user lexicon (unless `lexicon` is False) and
    the project's own lexicon, and with `learned` the adaptation kept for the transcript's language
    and speakers (never one from another language or speaker set)."""
    return adaptation_from(transcript.metadata.extra, transcript.metadata.language,
                           {t.speaker for t in transcript.tokens}, lexicon=lexicon, learned=learned)


def adaptation_from(extra: Mapping, language: str | None, speakers: Iterable[str | None], *,
                    lexicon: bool = True, learned: bool = False) -> Adaptation:
    """`adaptation_for` from a document's parts (safe to call off the UI thread with copies)."""
    from editor.core.lexicon import UserLexicon, project_forms

    forms: dict[str, str] = {}
    if lexicon:
        forms.update(UserLexicon.load().forms)
    forms.update(project_forms(extra))
    out = Adaptation(fixed_forms={w: f for w, f in forms.items() if f != w})
    if learned:
        kept = load_learned(profile_key(language, speakers))
        if kept is not None:
            out = kept.merged(out)
    return out


def remember_review(decisions: Sequence, forms: Mapping[str, str], key: str) -> tuple[int, int]:
    """Keep what a review taught: `forms` join the user lexicon, and the marks chosen between word
    pairs join the adaptation kept for `key` (see `profile_key`). Returns (forms added or changed,
    pair marks now kept)."""
    from editor.core.lexicon import UserLexicon

    lex = UserLexicon.load()
    changed = lex.learn(forms)
    if changed:
        lex.save()
    learned = from_review(decisions)
    try:
        kept = load_learned(key)
    except ValueError:
        kept = None  # a damaged file is replaced by what this review taught
    merged = kept.merged(learned) if kept is not None else learned
    if not merged.is_empty():
        save_learned(key, merged)
    return len(changed), len(merged.pair_marks)


def from_review(decisions: Sequence) -> Adaptation:
    """An adaptation from a document's review (editor.core.learning.review_decisions): the marks
    the person left between two words where they accepted or turned down a proposal (every
    decision on the same pair must agree). Case forms go to the user lexicon instead."""
    pairs: dict[tuple[str, str], set[str]] = {}
    # a rejected mark leaves the token's mark as it was; an accepted one is in the text
    for d in decisions:
        if getattr(d, "kind", None) == "punct" and d.next_word:
            pairs.setdefault((d.word, d.next_word), set()).add(d.punct)
    return Adaptation(pair_marks={p: next(iter(m)) for p, m in pairs.items() if len(m) == 1 and next(iter(m)) in PUNCT_INDEX},
                      words=len(decisions))


# ---------------------------------------------------------------------------------- simulation
def _decisions(doc: Sequence, start: int, end: int, proposed: Sequence | None = None) -> list[Decision]:
    """The reviewed words as the reviewer left them (the reference), with what Stet proposed."""
    return [Decision(w.word, w.punct, w.surface, i == 0 or doc[i - 1].punct in END_MARKS,
                     proposed[i].punct if proposed is not None else None,
                     proposed[i].text.removesuffix(".") if proposed is not None else None,
                     proposed is not None and (i == 0 or proposed[i - 1].punct in END_MARKS))
            for i, w in enumerate(doc[start:end], start)]


def _score(gold_doc: Sequence, preds: Sequence) -> dict:
    from editor.restore.lab.evaluate import case_scores, punct_scores

    g3 = [MARK_TO_3CLASS[w.punct] for w in gold_doc]
    p3 = [MARK_TO_3CLASS[p.punct] for p in preds]
    surf = [p.text.removesuffix(".") for p in preds]
    gsurf = [w.surface for w in gold_doc]
    marks = sum(1 for w, p in zip(gold_doc, preds) if w.punct != p.punct)
    cases = sum(1 for g, s in zip(gsurf, surf) if g != s)
    return {"punct": punct_scores(g3, p3), "case": case_scores(gsurf, surf), "mark_actions": marks,
            "case_actions": cases, "g3": g3, "p3": p3, "gsurf": gsurf, "psurf": surf}


def _summary(parts: list[dict]) -> dict:
    from editor.restore.lab.evaluate import case_scores, punct_scores

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
                    **head_options) -> dict:
    """For each talk (a list of LabelledWord), a reviewer fixes every error in the first `share` of
    its words; Stet learns from them; the rest is scored before and after.

    "actions": the words of the rest whose mark or written form still differs from the reference
    (each one the person has to change: reject a wrong suggestion or make a missing one).
    "names": mid-sentence capitals the reviewer wrote in the reviewed part (a talk's names), and how
    often their later occurrences are written right."""
    if not 0.0 < share < 1.0:
        raise ValueError("the reviewed share must be between 0 and 1 (e.g. 0.2)")
    from editor.restore.windows import joint_marginals_chunked

    before_parts, after_parts = [], []
    names_total = names_before = names_after = 0
    fit_seconds: list[float] = []
    chosen = sorted(set(talks)) if talks is not None else range(len(docs))
    model_lexicon = restorer.lexicon
    common = frozenset(restorer.vocab.words[2 : 2 + COMMON_WORDS])
    for k in chosen:
        doc = docs[k]
        words = [w.word for w in doc]
        n = len(words)
        cut = int(round(n * share))
        if cut < 1 or n - cut < 1:
            continue
        joint = joint_marginals_chunked(restorer.model, restorer.vocab, words, restorer.size, restorer.overlap,
                                        restorer.cut, restorer.merge, device=restorer.device)
        para_end = np.zeros(n, bool)
        for i in (paragraphs[k] if paragraphs else ()):
            if 0 < i <= n - 1:
                para_end[i - 1] = True
        t0 = time.perf_counter()
        proposed = restorer.predictions(words[:cut], joint[:cut], first_is_start=True, paragraph_ends=para_end[:cut])
        adapt = Adaptation.learn(_decisions(doc, 0, cut, proposed), joint[:cut], bias=bias, common=common)
        if not case_memory:
            adapt.case_forms, adapt.context_forms = {}, {}
        if not pair_memory:
            adapt.pair_marks = {}
        fit_seconds.append(time.perf_counter() - t0)
        # the reviewed words stand as the reviewer left them (the rest's first word reads its mark)
        joint = np.array(joint, np.float32)
        for i in range(cut):
            joint[i] = 0.0
            joint[i, PUNCT_INDEX.get(doc[i].punct, 0) * N_CASE + CASE_INDEX[case_of(doc[i].surface)]] = 1.0
        before = restorer.predictions(words, joint, first_is_start=True, last_is_end=True, paragraph_ends=para_end)
        restorer.lexicon = {**model_lexicon, **adapt.mixed_forms()}
        try:
            source = joint
            if head:
                gold = np.asarray([PUNCT_INDEX.get(w.punct, 0) * N_CASE + CASE_INDEX[case_of(w.surface)] for w in doc[:cut]])
                t1 = time.perf_counter()
                tuned = adapt_head(restorer.model, restorer.vocab, words[:cut], gold, **head_options)
                fit_seconds[-1] += time.perf_counter() - t1
                if tuned is not None:
                    source = joint_marginals_chunked(tuned, restorer.vocab, words, restorer.size, restorer.overlap,
                                                     restorer.cut, restorer.merge, device=restorer.device)
                    source[:cut] = joint[:cut]
            adapted = adapt.apply(words, source)
            after = restorer.predictions(words, adapted, first_is_start=True, last_is_end=True, paragraph_ends=para_end)
        finally:
            restorer.lexicon = model_lexicon
        # the rest of the talk; its first word reads the reviewed (now right) mark before it
        rest = doc[cut:]
        b = _score(rest, before[cut:])
        a = _score(rest, after[cut:])
        before_parts.append(b)
        after_parts.append(a)
        names = {d.word for d in _decisions(doc, 0, cut) if not d.sentence_start and d.surface != d.word
                 and any(ch.isalpha() for ch in d.word)}
        for i in range(cut, n):
            if doc[i].word in names:
                names_total += 1
                names_before += b["psurf"][i - cut] == doc[i].surface
                names_after += a["psurf"][i - cut] == doc[i].surface
        if log:
            log(f"talk {k}: {n} words, reviewed {cut}")
    if not before_parts:
        raise ValueError("no talk long enough to split into a reviewed part and a rest")
    return {"share": share, "talks": len(before_parts),
            "before": _summary(before_parts), "after": _summary(after_parts),
            "names": {"later_occurrences": names_total,
                      "right_before": round(100 * names_before / names_total, 1) if names_total else None,
                      "right_after": round(100 * names_after / names_total, 1) if names_total else None},
            "fit_seconds_median": round(float(np.median(fit_seconds)), 4) if fit_seconds else None}
