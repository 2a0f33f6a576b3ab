"""Chunked, batched inference: words -> per-word joint marginals, and the public `Restorer`."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence

import numpy as np
import torch

from editor.restore.chunks import ChunkPlan, merge_owned, merge_weighted, plan_chunks
from editor.restore.labels import CASE_CLASSES, END_INDEX, PUNCT_MARKS
from editor.restore.model import BiLSTMCRF
from editor.restore.vocab import UNK, Vocab

DEFAULT_SIZE, DEFAULT_OVERLAP = 120, 16


class Cancelled(Exception):
    """Restoration was cancelled; regions already reported through on_chunk stay valid."""


class CharFeatures:
    """The character CNN's output for each known word, computed once per text.

    A word's character features depend only on its spelling, and a text repeats its words (with
    overlapping windows, every word is also seen about 1.5 times), so each vocabulary word is
    spelled through the CNN once; unknown words (one id for many spellings) go through it each time.
    """

    def __init__(self, model: BiLSTMCRF, device: torch.device) -> None:
        self.model = model
        self.device = device
        self.table = torch.zeros(model.cfg.vocab_size, model.cfg.char_filters, device=device,
                                 dtype=model.word_emb.weight.dtype)
        self.known = np.zeros(model.cfg.vocab_size, bool)
        self.known[0] = True  # padding: no characters, features 0 (as the CNN gives)

    @torch.no_grad()
    def __call__(self, words: np.ndarray, chars: np.ndarray) -> torch.Tensor:
        """words (B, T), chars (B, T, C) -> features (B, T, char_filters)."""
        B, T = words.shape
        flat, flat_chars = words.reshape(-1), chars.reshape(B * T, -1)
        ids, first = np.unique(flat, return_index=True)
        new = (ids > UNK) & ~self.known[ids]
        if new.any():
            spelled = torch.from_numpy(flat_chars[first[new]]).to(self.device)
            self.table[torch.from_numpy(ids[new]).to(self.device)] = self.model.char_cnn(spelled).to(self.table.dtype)
            self.known[ids[new]] = True
        out = self.table[torch.from_numpy(flat).to(self.device)]
        unk = np.nonzero(flat == UNK)[0]
        if len(unk):
            out[torch.from_numpy(unk).to(self.device)] = self.model.char_cnn(
                torch.from_numpy(flat_chars[unk]).to(self.device)).to(out.dtype)
        return out.reshape(B, T, -1)


@torch.no_grad()
def run_windows(model: BiLSTMCRF, word_ids: np.ndarray, char_ids: np.ndarray, plan: ChunkPlan,
                idx: list[int], device: torch.device, char_features: CharFeatures | None = None) -> list[np.ndarray]:
    """Joint marginals (len, K) for the windows `idx` of the plan, batched and padded together.

    With `char_features` (inference) each known word's character features are computed once."""
    lens = [plan.windows[i][1] - plan.windows[i][0] for i in idx]
    B, T, C = len(idx), max(lens), char_ids.shape[1]
    w = np.zeros((B, T), np.int64)
    c = np.zeros((B, T, C), np.int64)
    mask = np.zeros((B, T), bool)
    for b, i in enumerate(idx):
        s, e = plan.windows[i]
        w[b, : e - s] = word_ids[s:e]
        c[b, : e - s] = char_ids[s:e]
        mask[b, : e - s] = True
    mask_t = torch.from_numpy(mask).to(device)
    if char_features is None:
        joint = model.joint_marginals(torch.from_numpy(w).to(device), torch.from_numpy(c).to(device), mask_t)
    else:
        joint = model.joint_marginals(torch.from_numpy(w).to(device), None, mask_t, char_feats=char_features(w, c))
    joint = joint.float().cpu().numpy()
    return [joint[b, :L] for b, L in enumerate(lens)]


def joint_marginals_chunked(model: BiLSTMCRF, vocab: Vocab, words: Sequence[str], size: int = DEFAULT_SIZE,
                            overlap: int = DEFAULT_OVERLAP, cut: int | None = None, merge: str = "owned",
                            windows_per_batch: int = 64, device: torch.device | None = None) -> np.ndarray:
    """(N, K) joint marginals of a whole word stream (for evaluation; no callbacks)."""
    device = device or next(model.parameters()).device
    was_training = model.training
    model.eval()
    wid, cid = vocab.encode(list(words))
    plan = plan_chunks(len(words), size, overlap, cut)
    results: list[np.ndarray] = []
    char_features = CharFeatures(model, device)
    for i in range(0, len(plan.windows), windows_per_batch):
        idx = list(range(i, min(i + windows_per_batch, len(plan.windows))))
        results.extend(run_windows(model, wid, cid, plan, idx, device, char_features))
    model.train(was_training)
    if not results:
        return np.zeros((0, model.cfg.n_labels), np.float32)
    return merge_weighted(plan, results) if merge == "weighted" else merge_owned(plan, results)


# ------------------------------------------------------------------------------- the public API

class WordPrediction:
    """What the model says about one word. Probabilities are calibrated marginals.

    `punct` is the mark after the word ("" for none), `punct_probs` mark -> p (sums to 1), `case`
    lower / capitalized / upper / mixed, `case_probs` case -> p, and `text` the word written in its
    case (mixed forms from the lexicon), without punctuation. Read-only.

    The distributions may be given as dicts or as rows of probabilities in the order of
    PUNCT_MARKS / CASE_CLASSES; the dicts are built only when asked for (building 100,000 small
    dicts per 50,000 words took a quarter of restoration time).
    """

    __slots__ = ("punct", "case", "text", "_punct_p", "_case_p")

    def __init__(self, punct: str, punct_probs, case: str, case_probs, text: str) -> None:
        set_ = object.__setattr__
        set_(self, "punct", punct)
        set_(self, "_punct_p", punct_probs)
        set_(self, "case", case)
        set_(self, "_case_p", case_probs)
        set_(self, "text", text)

    def __setattr__(self, name: str, value) -> None:
        raise AttributeError(f"WordPrediction is read-only (cannot set {name!r})")

    @property
    def punct_probs(self) -> dict[str, float]:
        return _as_dict(self._punct_p, PUNCT_MARKS)

    @property
    def case_probs(self) -> dict[str, float]:
        return _as_dict(self._case_p, CASE_CLASSES)

    @property
    def punct_confidence(self) -> float:
        return _prob(self._punct_p, self.punct, PUNCT_MARKS)

    @property
    def case_confidence(self) -> float:
        return _prob(self._case_p, self.case, CASE_CLASSES)

    def _key(self) -> tuple:
        return (self.punct, self.punct_probs, self.case, self.case_probs, self.text)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WordPrediction):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # holds distributions, like the dicts it gives

    def __repr__(self) -> str:
        return (f"WordPrediction(punct={self.punct!r}, punct_probs={self.punct_probs!r}, case={self.case!r}, "
                f"case_probs={self.case_probs!r}, text={self.text!r})")


def _as_dict(p, labels: tuple[str, ...]) -> dict[str, float]:
    if isinstance(p, dict):
        return dict(p)
    return dict(zip(labels, p.tolist() if hasattr(p, "tolist") else p))


def _prob(p, label: str, labels: tuple[str, ...]) -> float:
    if isinstance(p, dict):
        return p[label]
    return float(p[labels.index(label)])


def _is_cancelled(cancel) -> bool:
    if cancel is None:
        return False
    if hasattr(cancel, "is_set"):
        return bool(cancel.is_set())
    return bool(cancel())


def resolve_device(device: str) -> torch.device:
    if device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if device not in ("cpu", "cuda") and not device.startswith("cuda:"):
        raise ValueError(f"device must be 'auto', 'cpu' or 'cuda', not {device!r}")
    if device.startswith("cuda") and not torch.cuda.is_available():
        from editor.core.errors import UserError

        raise UserError("CUDA was asked for but torch finds no CUDA device; use --device cpu or auto")
    return torch.device(device)


#: A text is taken for the restorer's language when at least this share of its words is in the
#: model's vocabulary (measured with the shipped model: the bundled sample 98 %, the dev talks 97 %,
#: a German paragraph 47 %, a French one 65 %) ...
IN_VOCABULARY_SHARE = 0.8
#: ... judged only on texts of at least this many words (fewer say too little).
LANGUAGE_MIN_WORDS = 12


class LanguageCheck:
    """Whether a text looks like the restorer's language, from the share of its words that the
    model's vocabulary knows (`Restorer.language_check`)."""

    __slots__ = ("language", "words", "known", "matches")

    def __init__(self, language: str | None, words: int, known: int) -> None:
        self.language, self.words, self.known = language, words, known
        self.matches = language is None or words < LANGUAGE_MIN_WORDS or known >= IN_VOCABULARY_SHARE * words

    @property
    def share(self) -> float:
        return self.known / self.words if self.words else 1.0

    @property
    def message(self) -> str:
        name = LANGUAGE_NAMES.get(self.language or "", self.language or "the model's language")
        return (f"this text does not look like {name}: only {100 * self.share:.0f} % of its words are in the "
                f"{name} restorer's vocabulary, so its suggestions would be wrong (another language?)")


LANGUAGE_NAMES = {"en": "English"}


class Restorer:
    """Punctuation and case for a stream of words, from a shipped or trained model directory.

    >>> r = Restorer.load()                       # the shipped model, CUDA if available
    >>> [p.text + p.punct for p in r.restore("hello there how are you".split())]
    """

    def __init__(self, model: BiLSTMCRF, vocab: Vocab, lexicon: dict[str, str], settings: dict,
                 device: torch.device, name: str = "model") -> None:
        self.model = model.to(device).eval()
        self.vocab = vocab
        self.lexicon = lexicon
        self.device = device
        self.name = name
        self.settings = settings
        d = settings.get("decision", {})
        c = settings.get("calibration", {})
        k = settings.get("chunking", {})
        self.class_scales = decision_scales(d)
        # a word not at a sentence start is capitalised only where its lowercase form is less likely
        # than this (tuned on the dev talks; see decide_jointly)
        self.position_free_lower = float(d.get("position_free_lower", 0.05))  # after , : ;
        self.unmarked_lower = float(d.get("unmarked_lower", 0.5))  # after no mark
        self.colon_lower = float(d.get("colon_lower", 0.5))  # after ":"
        # how likely the marks and capitals someone wrote are right (suggest.with_author_prior; fitted on
        # the dev talks with simulated author errors); none: the model alone decides
        self.author_prior = {k: float(v) for k, v in d.get("author_prior", {}).items()}
        self.capitalize_sentences = bool(d.get("capitalize_sentences", True))
        # a paragraph break (typed, or a recogniser's long pause) multiplies the odds of a sentence
        # end at the word before it by this (fitted on the dev talks' paragraphs; 1 = ignored)
        self.paragraph_end_odds = float(d.get("paragraph_end_odds", 1.0))
        self.punct_temperature = float(c.get("punct_temperature", 1.0))
        self.case_temperature = float(c.get("case_temperature", 1.0))
        self.size = int(k.get("size", DEFAULT_SIZE))
        self.overlap = int(k.get("overlap", DEFAULT_OVERLAP))
        self.cut = k.get("cut")
        self.merge = k.get("merge", "owned")
        # the language of the model's training text (config "language"); a model without one is not checked
        self.language: str | None = settings.get("language")
        self.windows_per_batch = 64  # windows run through the network together (after a small first batch)
        self._lock = threading.Lock()
        # what was learned from the person's reviews (editor.restore.learn); None: the model alone
        self.adaptation = None
        self._model_lexicon = lexicon

    @classmethod
    def load(cls, path: str | None = None, device: str = "auto") -> Restorer:
        from editor.restore.package import load_model_dir

        return load_model_dir(path, resolve_device(device), cls)

    def adapt(self, adaptation) -> None:
        """Use what was learned from reviews (an `editor.restore.learn.Adaptation`: remembered case
        forms, marks between word pairs, a class bias) in later restorations; None: the model alone.
        The person's forms come before the model's own lexicon."""
        with self._lock:
            self.adaptation = adaptation if adaptation is not None and not adaptation.is_empty() else None
            self.lexicon = {**self._model_lexicon, **(adaptation.mixed_forms() if adaptation is not None else {})}

    def language_check(self, words: Sequence[str]) -> LanguageCheck:
        """Whether `words` look like the restorer's language: the share of them in the model's
        vocabulary (tags such as "[noise]" and words without letters are not counted). Cheap: one
        dictionary look-up per distinct word. A model whose config names no language matches anything."""
        from collections import Counter

        counts = Counter(str(w).lower() for w in words)
        known = total = 0
        index = self.vocab._word_index
        for w, n in counts.items():
            core = w.strip(".,?!:;\"'()[]{}<>")
            if not any(ch.isalpha() for ch in core) or w[:1] in "[<{":
                continue
            total += n
            known += n * (core in index or core.replace("'", "") in index)
        return LanguageCheck(self.language, total, known)

    # ---------------------------------------------------------------- probabilities -> predictions
    def calibrated(self, joint: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(N, 28) joint marginals -> calibrated punct (N, 7) and case (N, 4) distributions."""
        from editor.restore.labels import N_CASE, N_PUNCT

        j = joint.reshape(-1, N_PUNCT, N_CASE)
        return (_temper(j.sum(2), self.punct_temperature), _temper(j.sum(1), self.case_temperature))

    def predictions(self, words: Sequence[str], joint: np.ndarray, first_is_start: bool = False,
                    last_is_end: bool = False, paragraph_ends: np.ndarray | None = None) -> list[WordPrediction]:
        """Decisions from joint marginals. `paragraph_ends` (bool per word): the word is the last of a
        paragraph, so a sentence end there is likelier than the words alone say."""
        from editor.restore.labels import PERIOD_IN_LOWER, apply_case

        if self.adaptation is not None:
            joint = self.adaptation.apply(words, joint)
        punct, case = self.calibrated(joint)
        if paragraph_ends is not None and self.paragraph_end_odds != 1.0 and paragraph_ends.any():
            punct = boost_sentence_ends(punct, self.paragraph_end_odds, paragraph_ends)
        if last_is_end and len(words):
            # a text ends with a sentence end: the model, which never sees where the text stops
            # (its windows end anywhere), keeps its choice among . ? ! and the rest goes to "."
            ends = list(END_INDEX)
            last = np.zeros(punct.shape[1], punct.dtype)
            last[ends] = punct[-1, ends]
            last[ends[0]] += 1e-3
            punct = punct.copy()
            punct[-1] = last / last.sum()
        N = len(words)
        mixed_i = CASE_CLASSES.index("mixed")
        cap_i = CASE_CLASSES.index("capitalized")
        end_list = list(END_INDEX)
        case = case.copy()
        # no known mixed form: that mass means "capitalized"
        no_lex = np.fromiter((w not in self.lexicon for w in words), bool, N)
        case[no_lex, cap_i] += case[no_lex, mixed_i]
        case[no_lex, mixed_i] = 0.0
        # a word after a sentence end is capitalised: its capital is at least as likely as the end
        # mark before it (certain at the start of the text)
        p_end = np.zeros(N, case.dtype)
        p_end[1:] = punct[:-1, end_list].sum(1)
        if first_is_start and N:
            p_end[0] = 1.0
        lacking = np.clip(p_end - (1.0 - case[:, 0]), 0.0, None)
        case[:, 0] -= lacking
        case[:, cap_i] += lacking
        p_idx, c_idx = decide_jointly(punct, case, self.class_scales, self.position_free_lower,
                                      first_is_start=first_is_start, capitalize_sentences=self.capitalize_sentences,
                                      unmarked_lower=self.unmarked_lower, colon_lower=self.colon_lower)
        lex = self.lexicon
        # lower case needs no writing unless an abbreviation takes its period anyway ("e.g.", "vs.")
        texts = [w if ci == 0 and "." not in w and w not in PERIOD_IN_LOWER else apply_case(w, CASE_CLASSES[ci], lex)
                 for w, ci in zip(words, c_idx.tolist())]
        # an abbreviation written with its period ("U.S.") needs no second one to end a sentence
        period = PUNCT_MARKS.index(".")
        for i in np.nonzero(p_idx == period)[0].tolist():
            if texts[i].endswith("."):
                p_idx[i] = 0
        p_l, c_l = p_idx.tolist(), c_idx.tolist()
        # each prediction keeps a row of these arrays (its distributions), read-only from here on
        punct.flags.writeable = False
        case.flags.writeable = False
        return [
            WordPrediction(PUNCT_MARKS[pi], pp, CASE_CLASSES[ci], cp, t)
            for t, pi, pp, ci, cp in zip(texts, p_l, punct, c_l, case)
        ]

    # ---------------------------------------------------------------- restore
    def restore(self, words: Sequence[str], on_chunk: Callable[[int, int, list[WordPrediction]], None] | None = None,
                cancel=None, priority: tuple[int, int] | None = None,
                paragraph_starts: Iterable[int] = ()) -> list[WordPrediction]:
        """Predictions for every word, computed over overlapping windows batched together.

        The words are a whole text: the first starts a sentence and the last ends one. They are
        bare words as a recogniser writes them (a document's `Token.word`); a mark written into a
        word ("hello,") is taken as part of it, and an empty word is a ValueError.
        `on_chunk(start, end, predictions)` fires as each region becomes final; `priority`
        (start, end) is computed first; `cancel` (an Event or a callable) stops between batches
        with `Cancelled`. `paragraph_starts`: indices of words that start a paragraph; the word
        before each is likelier to end a sentence (see `paragraph_end_odds`).
        """
        words = [str(w).lower() for w in words]
        empty = next((i for i, w in enumerate(words) if not w.strip()), None)
        if empty is not None:
            raise ValueError(f"word {empty} is empty: restore() takes the words of a text, each non-empty")
        n = len(words)
        if n == 0:
            return []
        para_end = np.zeros(n, bool)
        for i in paragraph_starts:
            if 0 < i <= n - 1:
                para_end[i - 1] = True
        plan = plan_chunks(n, self.size, self.overlap, self.cut)
        order = list(range(len(plan.windows)))
        first = order[:4]  # a small first batch gives the view something to show at once
        if priority is not None:
            a, b = max(0, int(priority[0])), min(n, int(priority[1]))
            first = [i for i in order if plan.owned[i][0] < b and plan.owned[i][1] > a] or first
        chosen = set(first)
        rest = [i for i in order if i not in chosen]
        batches = [first] + [rest[i : i + self.windows_per_batch] for i in range(0, len(rest), self.windows_per_batch)]
        # words are encoded batch by batch, so the first chunk does not wait for the whole text
        wid = np.zeros(n, np.int64)
        cid = np.zeros((n, self.vocab.max_word_len), np.int64)
        encoded = np.zeros(n, bool)
        results: list[np.ndarray | None] = [None] * len(plan.windows)
        merged: list[WordPrediction | None] = [None] * n
        char_features = CharFeatures(self.model, self.device)
        held: set[int] = set()  # words by a region boundary waiting for the window beyond it
        with self._lock:
            for idx in batches:
                if not idx:
                    continue
                if _is_cancelled(cancel):
                    raise Cancelled()
                for i in idx:
                    s, e = plan.windows[i]
                    if not encoded[s:e].all():
                        wid[s:e], cid[s:e] = self.vocab.encode(words[s:e])
                        encoded[s:e] = True
                for i, r in zip(idx, run_windows(self.model, wid, cid, plan, idx, self.device, char_features)):
                    results[i] = r
                if self.merge == "weighted":
                    continue  # regions are final only when both neighbours are in: report at the end
                for a, b, preds in self._final_regions(words, plan, results, idx, held, para_end):
                    merged[a:b] = preds
                    if on_chunk is not None:
                        on_chunk(a, b, preds)
        if self.merge == "weighted":
            merged = self.predictions(words, merge_weighted(plan, results), first_is_start=True,  # type: ignore[arg-type]
                                      last_is_end=True, paragraph_ends=para_end)
            if on_chunk is not None:
                on_chunk(0, n, merged)  # type: ignore[arg-type]
        return merged  # type: ignore[return-value]


    def _final_regions(self, words: list[str], plan: ChunkPlan, results: list, idx: list[int], held: set[int],
                       para_end: np.ndarray):
        """(start, end, predictions) for the regions the windows `idx` own, adjacent regions joined so
        that the predictions of a whole batch are made in one vectorised pass.

        Mark and case are decided together (decide_jointly): a word's case reads the mark before it,
        and a word's mark the case of the word after it. So a region's first word needs the row of
        the word before it, and its last word the row of the word after it, each from the window
        that owns that word. Where that window has not run yet, the word is held back (added to
        `held`, which holds words either side of a region boundary) and reported with the
        neighbouring region when it runs, so every word is reported once, final, and the result does
        not depend on the order the windows run in."""

        def row(w: int) -> np.ndarray | None:
            """The joint marginals of word `w` from the window that owns it (None: not run yet)."""
            k = plan.owner_of(w)
            r = results[k]
            if r is None:
                return None
            s = plan.windows[k][0]
            return r[w - s : w - s + 1]

        runs: list[list[int]] = []
        for i in sorted(i for i in idx if plan.owned[i][0] < plan.owned[i][1]):
            if runs and plan.owned[runs[-1][-1]][1] == plan.owned[i][0]:
                runs[-1].append(i)
            else:
                runs.append([i])
        n = plan.n
        for run in runs:
            a, b = plan.owned[run[0]][0], plan.owned[run[-1]][1]
            owned = [results[i][plan.owned[i][0] - plan.windows[i][0] : plan.owned[i][1] - plan.windows[i][0]]
                     for i in run]
            before: list[np.ndarray] = []
            after: list[np.ndarray] = []
            start, end = a, b  # the words reported
            if a > 0:
                left = row(a - 1)
                if left is None:
                    held.add(a)
                    start = a + 1
                elif a - 1 in held:  # the word before waited for this region: report it too
                    held.discard(a - 1)
                    start = a - 1
                    before = [left] if a < 2 else [row(a - 2), left]  # type: ignore[list-item]
                else:
                    before = [left]
            if b < n:
                right = row(b)
                if right is None:
                    held.add(b - 1)
                    end = b - 1
                elif b in held:  # the next region's first word waited for this one's last
                    held.discard(b)
                    end = b + 1
                    after = [right] if b + 1 >= n else [right, row(b + 1)]  # type: ignore[list-item]
                else:
                    after = [right]
            if start >= end:
                continue
            lo, hi = a - len(before), b + len(after)
            preds = self.predictions(words[lo:hi], np.concatenate(before + owned + after), first_is_start=lo == 0,
                                     last_is_end=hi == n, paragraph_ends=para_end[lo:hi])
            yield start, end, preds[start - lo : end - lo]


def decision_scales(decision: dict) -> np.ndarray:
    """The per-class weights of the mark decision, in THREE_CLASS order (O, COMMA, PERIOD, QUESTION).

    `class_scales` names them; an older config's `none_scale` scales "no mark" alone."""
    from editor.restore.labels import THREE_CLASS

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
    from editor.restore.labels import MARK_GROUP

    G = np.asarray(MARK_GROUP, punct.dtype)  # (7, 4)
    group = ((punct @ G) * class_scales).argmax(1)
    in_group = G[:, group].T.astype(bool)  # (N, 7)
    return np.where(in_group, punct, -1.0).argmax(1)


def decide_jointly(punct: np.ndarray, case: np.ndarray, class_scales: np.ndarray, position_free_lower: float,
                   first_is_start: bool = False, capitalize_sentences: bool = True,
                   unmarked_lower: float | None = None, colon_lower: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The mark after each word and the case of each word, decided together from the distributions
    `punct` (N, 7) and `case` (N, 4) (a word's case already at least as likely capitalised as a
    sentence end before it). Returns (mark index (N,), case index (N,)).

    One rule for every suggestion: a value is chosen only where it is likelier than the raw text
    as it stands (no mark, lowercase), and the probability shown is that value's. The mark is the
    weighted 3-class choice (`decide_marks`) where the chosen mark beats "no mark". A sentence end
    is kept only where the capital it brings to the next word is likelier than that word's
    lowercase form (else the best mark that is not a sentence end). The word after a sentence end
    takes its likeliest capital form; any other word is capitalised only where its lowercase form
    is unlikely anywhere (probability under `position_free_lower`: names, "I"), so no capital follows
    a comma because the model half-believed a sentence ended there. `unmarked_lower` (default: the
    same) is that threshold for a word after no mark, `colon_lower` after ":" (which often opens a
    quote or a sentence)."""
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
        cap = starts | (lower_mid < threshold)
    else:
        cap = lower < 0.5
    c_idx = np.where(cap & cap_ok, best_cap, 0)
    return p_idx, c_idx


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


def _temper(p: np.ndarray, temperature: float) -> np.ndarray:
    """Temperature scaling of a distribution: p^(1/T), renormalised."""
    if temperature == 1.0:
        return p / np.maximum(p.sum(1, keepdims=True), 1e-12)
    q = np.power(np.clip(p, 1e-12, 1.0), 1.0 / temperature)
    return q / q.sum(1, keepdims=True)
