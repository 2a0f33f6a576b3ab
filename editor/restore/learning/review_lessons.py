"""Learning from the person reviewing: what one review teaches the restorer about a speaker and a text.

An `Adaptation` is small and never touches the shipped network: a bias on the mark and case
classes (fitted by likelihood on the reviewed words, pulled towards 0), the case forms the person
wrote mid-sentence (a user lexicon: "okafor" -> "Okafor", "ipad" -> "iPad", a capital the person
took away), and the marks the person chose between two words (the comma they keep rejecting
before "because"). It is applied to the network's joint marginals before the decision, so the
decision rule, the calibration and the paragraph evidence work on it as on the model's own output.

What is kept of it and applied to a restoration is in `editor.restore.learning.learned_store`;
`editor.restore.lab.simulate` measures it on reviewed talks.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from editor.restore.model.labels import CASE_INDEX, N_CASE, N_PUNCT, PUNCT_INDEX, case_of

if TYPE_CHECKING:
    from editor.restore.model.encoder import EncoderBiLSTMCRF
    from editor.restore.model.bilstm_crf import BiLSTMCRF
    from editor.restore.model.vocab import Vocab

#: How strongly a remembered case form or a remembered mark between two words moves the odds
#: (multiplies them). The odds act on the model's raw marginals, before its case temperature (1.25
#: for the shipped MiniLM model). Re-fitted for that model on 2026-12-04 with `stet eval
#: ted_dev2012_talks.txt --simulate-review 0.2 --case-odds X` on the even-numbered dev talks (20 %
#: reviewed; words left to change in the rest, 10,602 before learning): 30 and 300 left 10,445 but
#: lost names the model doubts (later uses of corrected names right 84.8 % and 89.1 %); 3,000:
#: 10,447 with them kept (91.3 %); 10,000: 10,454; 100,000: 10,463 (forms a reviewer writes one way
#: here, another there). Pair marks: 1.5, 3 and 6 left 10,464, 10,454 and 10,460.
CASE_MEMORY_ODDS = 3000.0
PAIR_MEMORY_ODDS = 3.0
#: The bias's pull towards 0 (an L2 penalty on the mean log-likelihood of the reviewed words); with
#: a few hundred reviewed words the bias moves only where the reviewer's evidence is consistent. A
#: review of fewer than BIAS_PRIOR_WORDS words is pulled as if it had that many: a handful of
#: decisions saved early barely moves it.
BIAS_PENALTY = 0.02
BIAS_PRIOR_WORDS = 400
#: Fewer reviewed words than this teach no bias at all (forms and pair marks still): a review of 9
#: words that happened to surprise the model learned +0.76 for "no mark", cutting every mark's
#: odds about 2.4x in every later file of the profile. A bias moves every suggestion of every
#: later file, so it waits for a review of some length.
BIAS_MIN_WORDS = 100
#: How many reviewed occurrences, every one agreeing, a case form or a pair's mark needs before it
#: is remembered (see `Adaptation.learn`): tuned on talk splits of dev (editor.restore.lab.splits).
#: A name (a word outside the model's `common` and `plain` words) needs one decision; a capital
#: of a word the model knows as an ordinary word ("campaign", "bridge"), alone or in a name, needs
#: two: once, it was as often a title's or a quotation's as the word's.
FORM_MIN_DECISIONS = 1
KNOWN_FORM_MIN_DECISIONS = 2
PAIR_MIN_DECISIONS = 1
#: Whether a review's bias is kept only where it holds across the review's two halves (`bias_holds`).
BIAS_CHECK = True
#: The most frequent words of the model's vocabulary, whose remembered form needs the word before it.
COMMON_WORDS = 2000
#: The head update (see `adapt_head`): Adam steps, learning rate, L2 pull towards the shipped heads.
HEAD_STEPS, HEAD_LR, HEAD_PENALTY = 40, 2e-3, 1.0


def common_words(vocab: Vocab) -> frozenset[str]:
    """The `COMMON_WORDS` most frequent words of a model's vocabulary (after padding and unknown)."""
    return frozenset(vocab.words[2 : 2 + COMMON_WORDS])


def plain_words(vocab: Vocab, names: Collection[str] | None) -> frozenset[str]:
    """The words of a model's vocabulary that are not in its names lexicon (names.json): words the
    model knows as ordinary lowercase words ("bay", "divergence"), whose capital in a review may
    belong to a name around them. Empty for a model without a names lexicon."""
    if names is None:
        return frozenset()
    return frozenset(w for w in vocab.words[2:] if w not in names)


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
    authored: bool = False  # the form stands as the author wrote it (no suggestion, not typed)

    @property
    def decided_case(self) -> bool:
        """The person decided the word's form: they wrote a form of their own, or turned down a
        capital Stet proposed mid-sentence (one that came with a sentence end says nothing of the
        word). A form the author wrote and nobody touched is no decision."""
        if self.authored:
            return False
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
    #: (word, word after) -> form of the word, for a known word that opens a capitalised name
    #: ("great divergence" -> "Great") or is numbered ("route 128" -> "Route")
    next_forms: dict[tuple[str, str], str] = field(default_factory=dict)

    # ------------------------------------------------------------------ learning
    @classmethod
    def learn(cls, decisions: Sequence[Decision], joint: np.ndarray | None = None, *,
              bias: bool = True, penalty: float = BIAS_PENALTY, case_bias: bool = False,
              common: Collection[str] = (), reviewed: Sequence[bool] | None = None,
              plain: Collection[str] = (), min_form: int | None = None,
              min_pair: int | None = None, check_bias: bool | str | None = None,
              min_known_form: int | None = None) -> Adaptation:
        """Learn from reviewed words; `joint` ((N, 28) marginals the model gave those words) is
        needed for the bias (a row of NaN: a word it is not fitted on). `reviewed` (a flag per
        word; default all): words the person did not review (a suggestion still waits there) stand
        in the sequence but teach nothing. A word is remembered in the form written mid-sentence when every
        such occurrence agrees; a pair's mark when every occurrence agrees. A word in `common` (the
        most frequent words: "church", "new", "we") is remembered only with the word before it, so
        "Saddleback Church" does not capitalise every church, nor a quoted "We" every we.

        `plain` (the model's vocabulary words that are not names: "divergence", "bay"... see
        `plain_words`): where such a word's capital stands inside a capitalised name ("the Great
        Divergence", "Route 128"), it is remembered with its neighbour in the name, not alone, so
        that the later "a huge divergence" stays lowercase; written with a capital on its own
        ("at Interface"), it is remembered alone like any name, unless it is also written
        lowercase mid-sentence (then only its capitals inside names are kept). A common word's
        capital inside a name is kept with its neighbour in the name too ("World Peace Game":
        ("world", "peace"), not ("the", "world")).

        `min_form`, `min_known_form` and `min_pair` (default `FORM_MIN_DECISIONS`,
        `KNOWN_FORM_MIN_DECISIONS`, `PAIR_MIN_DECISIONS`): how many reviewed occurrences, all
        agreeing, a name's form, a known word's form (alone or with its neighbour) or a pair's
        mark needs before it is remembered.
        `check_bias` (default `BIAS_CHECK`): the bias is kept only where, fitted on either half of
        the reviewed words, it makes the other half likelier (`bias_holds`)."""
        min_form = FORM_MIN_DECISIONS if min_form is None else min_form
        min_known = KNOWN_FORM_MIN_DECISIONS if min_known_form is None else min_known_form
        min_pair = PAIR_MIN_DECISIONS if min_pair is None else min_pair
        check_bias = BIAS_CHECK if check_bias is None else check_bias
        # every mid-sentence occurrence must agree (a capital that is only sometimes there, as in a
        # title, or "The" after a quote, is not the word's form), and one must be a decision
        seen = [True] * len(decisions) if reviewed is None else [bool(r) for r in reviewed]
        if len(seen) != len(decisions):
            raise ValueError("one reviewed flag per decision")
        n = len(decisions)

        def capital_mid(j: int) -> bool:  # written with a capital where no sentence starts
            x = decisions[j]
            return seen[j] and not x.sentence_start and x.surface != x.word and any(ch.isalpha() for ch in x.surface)

        def numbered(j: int) -> bool:  # "128" of "Route 128", "2.0" of "Atheism 2.0"
            x = decisions[j].word
            return seen[j] and any(ch.isdigit() for ch in x) and not any(ch.isalpha() for ch in x)

        forms: dict[tuple[str, ...], set[str]] = {}
        form_count: dict[tuple[str, ...], int] = {}
        decided: set[tuple[str, ...]] = set()
        for k, d in enumerate(decisions):
            if not seen[k] or d.sentence_start or not any(ch.isalpha() for ch in d.surface):
                continue
            w = d.word
            before: list[tuple[str, ...]] = [("before", decisions[k - 1].word, w)] if k > 0 else []
            after: list[tuple[str, ...]] = [("after", w, decisions[k + 1].word)] if k + 1 < n else []
            keys: list[tuple[str, ...]]
            if w in common or w in plain:
                if d.surface != w:  # a capital: with its neighbours in the name, if it stands in one
                    keys = [*(before if k > 0 and capital_mid(k - 1) else []),
                            *(after if k + 1 < n and (capital_mid(k + 1) or numbered(k + 1)) else [])]
                    if not keys:
                        keys = before if w in common else [("word", w)]
                else:
                    keys = before if w in common else [("word", w), *before, *after]
            else:
                keys = [("word", w)]
            for key in keys:
                forms.setdefault(key, set()).add(d.surface)
                form_count[key] = form_count.get(key, 0) + 1
                if d.decided_case:
                    decided.add(key)
        agreed = {key: next(iter(f)) for key, f in forms.items()
                  if len(f) == 1 and key in decided
                  and form_count[key] >= (min_form if key[0] == "word" and key[1] not in common
                                          and key[1] not in plain else min_known)}
        # only what `from_dict` reads back: a form of the word itself (not of a word whose
        # lowercase differs, as "İstanbul" of "i̇stanbul")
        case_forms = {k[1]: f for k, f in agreed.items() if k[0] == "word" and f.lower() == k[1]}
        context_forms = {(k[1], k[2]): f for k, f in agreed.items() if k[0] == "before" and f.lower() == k[2]}
        next_forms = {(k[1], k[2]): f for k, f in agreed.items() if k[0] == "after" and f.lower() == k[1]}
        pairs: dict[tuple[str, str], set[str]] = {}
        pair_count: dict[tuple[str, str], int] = {}
        corrected: set[tuple[str, str]] = set()
        for k, (a, b) in enumerate(zip(decisions, decisions[1:])):
            if not seen[k] or a.punct not in PUNCT_INDEX:
                # a mark the model has no class for ("...", "--", '."', "?!") is no mark it can
                # propose again: kept, it made the saved profile unreadable ("pair_marks must be...")
                continue
            pairs.setdefault((a.word, b.word), set()).add(a.punct)
            pair_count[(a.word, b.word)] = pair_count.get((a.word, b.word), 0) + 1
            if a.corrected_mark:
                corrected.add((a.word, b.word))
        pair_marks = {p: next(iter(m)) for p, m in pairs.items()
                      if len(m) == 1 and p in corrected and pair_count[p] >= min_pair}
        rows = [k for k in range(len(decisions)) if seen[k]]
        out = cls(case_forms=case_forms, pair_marks=pair_marks, context_forms=context_forms,
                  next_forms=next_forms, words=len(rows))
        if bias and joint is not None and rows:
            if len(joint) != len(decisions):
                raise ValueError("one row of marginals per decision")
            known = np.isfinite(np.asarray(joint)[:, 0])  # a NaN row: marginals not read there
            rows = [k for k in rows if known[k]]
        if bias and joint is not None and len(rows) >= BIAS_MIN_WORDS:
            gold = np.asarray([PUNCT_INDEX.get(decisions[k].punct, 0) * N_CASE + CASE_INDEX[case_of(decisions[k].surface)]
                               for k in rows])
            rows_joint = np.asarray(joint)[rows]
            if not check_bias or bias_holds(rows_joint, gold, penalty, case_bias, errors=check_bias == "errors"):
                out.punct_bias, cb = fit_bias(rows_joint, gold, penalty * max(1.0, BIAS_PRIOR_WORDS / len(rows)))
                if case_bias:
                    out.case_bias = cb
        return out

    def merged(self, other: Adaptation) -> Adaptation:
        """This adaptation with `other`'s (later) decisions taking precedence; biases weighted by words."""
        n = self.words + other.words
        w = other.words / n if n else 0.0
        return Adaptation((1 - w) * self.punct_bias + w * other.punct_bias,
                          (1 - w) * self.case_bias + w * other.case_bias,
                          case_forms={**self.case_forms, **other.case_forms},
                          pair_marks={**self.pair_marks, **other.pair_marks},
                          context_forms={**self.context_forms, **other.context_forms},
                          next_forms={**self.next_forms, **other.next_forms},
                          fixed_forms={**self.fixed_forms, **other.fixed_forms},
                          words=n, case_odds=self.case_odds, pair_odds=self.pair_odds)

    # ------------------------------------------------------------------ applying
    def is_empty(self) -> bool:
        return not (self.case_forms or self.context_forms or self.next_forms or self.fixed_forms or self.pair_marks
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
        if self.next_forms:
            for i in range(len(words) - 1):
                form = self.next_forms.get((words[i], words[i + 1]))
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
    def to_dict(self) -> dict[str, Any]:
        return {"punct_bias": [round(float(x), 6) for x in self.punct_bias],
                "case_bias": [round(float(x), 6) for x in self.case_bias],
                "case_forms": dict(sorted(self.case_forms.items())),
                "pair_marks": [[a, b, m] for (a, b), m in sorted(self.pair_marks.items())],
                "context_forms": [[a, b, f] for (a, b), f in sorted(self.context_forms.items())],
                "next_forms": [[a, b, f] for (a, b), f in sorted(self.next_forms.items())],
                "words": self.words}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Adaptation:
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
        nexts = data.get("next_forms", [])
        if not (isinstance(nexts, list) and all(isinstance(p, list) and len(p) == 3 and all(isinstance(x, str) for x in p)
                                                and p[2].lower() == p[0] for p in nexts)):
            raise ValueError("next_forms must be a list of [word, word after, form of the word]")
        words = data.get("words", 0)
        if not isinstance(words, int) or isinstance(words, bool) or words < 0:
            raise ValueError("words must be a count")
        punct, case = vector("punct_bias", N_PUNCT), vector("case_bias", N_CASE)
        if words < BIAS_MIN_WORDS:  # kept before such short reviews stopped teaching a bias: not applied
            punct, case = np.zeros(N_PUNCT), np.zeros(N_CASE)
        return cls(punct, case, dict(forms),
                   {(a, b): m for a, b, m in pairs}, {(a, b): f for a, b, f in contexts}, words=words,
                   next_forms={(a, b): f for a, b, f in nexts})


def adapt_head(model: BiLSTMCRF | EncoderBiLSTMCRF, vocab: Vocab, words: Sequence[str], gold: np.ndarray, *,
               steps: int = HEAD_STEPS, lr: float = HEAD_LR, penalty: float = HEAD_PENALTY,
               window: int = 120) -> BiLSTMCRF | None:
    """A copy of `model` whose output layer (the heads: 2*hidden -> marks + case) is nudged towards
    the reviewed words' labels `gold` (joint indices). Only a delta on that one layer is trained,
    pulled towards 0 by `penalty`; the recurrent network, the embeddings and the CRF's transitions
    stay as shipped. Returns None where the model's heads are not separate."""
    import copy

    import torch

    from editor.restore.model.labels import N_PUNCT as NP
    from editor.restore.model.bilstm_crf import BiLSTMCRF

    if not isinstance(model, BiLSTMCRF) or not model.separate or len(words) == 0:
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
        loss.backward()  # type: ignore[no-untyped-call]  # torch leaves Tensor.backward unannotated
        opt.step()
    adapted = copy.deepcopy(model)
    with torch.no_grad():
        adapted.out.weight.add_(dw.detach())
        adapted.out.bias.add_(db.detach())
    return adapted


def _log_likelihood(joint: np.ndarray, gold: np.ndarray, bp: np.ndarray, bc: np.ndarray) -> float:
    """Mean log-probability of the gold joint classes once the biases are applied."""
    logp = np.log(np.clip(np.asarray(joint, np.float64).reshape(-1, N_PUNCT, N_CASE), 1e-9, None))
    z = logp + bp[None, :, None] + bc[None, None, :]
    z = z.reshape(len(gold), -1)
    top = z.max(1, keepdims=True)
    norm = top[:, 0] + np.log(np.exp(z - top).sum(1))
    return float(np.mean(z[np.arange(len(gold)), gold] - norm))


def _mark_errors(joint: np.ndarray, gold: np.ndarray, bp: np.ndarray) -> int:
    """Words whose likeliest mark, once the bias is applied, is not the gold one."""
    marks = np.asarray(joint, np.float64).reshape(-1, N_PUNCT, N_CASE).sum(2) * np.exp(bp)[None, :]
    return int(np.sum(marks.argmax(1) != np.asarray(gold) // N_CASE))


def bias_holds(joint: np.ndarray, gold: np.ndarray, penalty: float = BIAS_PENALTY, case_bias: bool = False,
               errors: bool = False) -> bool:
    """Whether a bias learned from a review would carry to words it was not learned from: fitted
    on the first half of the reviewed words it must make the second likelier than the model alone,
    and fitted on the second, the first. A reviewer's habit holds across a talk; a bias that
    follows the accidents of a few hundred words does not, and would move every mark of every
    later file (on dev, a bias that fails this added work in the talks where it failed: see
    editor.restore.lab.splits)."""
    n = len(gold)
    half = n // 2
    zero_p, zero_c = np.zeros(N_PUNCT), np.zeros(N_CASE)
    for fit, held in ((slice(0, half), slice(half, n)), (slice(half, n), slice(0, half))):
        bp, bc = fit_bias(joint[fit], gold[fit], penalty * max(1.0, BIAS_PRIOR_WORDS / max(1, len(gold[fit]))))
        if not case_bias:
            bc = zero_c
        if _log_likelihood(joint[held], gold[held], bp, bc) <= _log_likelihood(joint[held], gold[held], zero_p, zero_c):
            return False
        if errors and _mark_errors(joint[held], gold[held], bp) > _mark_errors(joint[held], gold[held], zero_p):
            return False  # (with `errors`: nor may it make more of the other half's likeliest marks wrong)
    return True


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
