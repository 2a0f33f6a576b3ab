"""The public `Restorer`: punctuation and case for a stream of words, computed over overlapping
windows batched together and reported region by region as each becomes final."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import torch

from editor.core.document.text import bare_word
from editor.restore.passes.chunks import merge_weighted, plan_chunks
from editor.restore.passes.decision import (boost_sentence_ends, decide_jointly, decision_scales, end_with_sentence_end,
                                    settle_case, temper)
from editor.restore.model.labels import CASE_CLASSES, N_CASE, N_PUNCT, PERIOD_IN_LOWER, PUNCT_MARKS, apply_case
from editor.restore.model.encoder import EncoderBiLSTMCRF
from editor.restore.model.bilstm_crf import BiLSTMCRF
from editor.restore.model.package import load_model_dir
from editor.restore.passes.prediction import Cancel, CancelFlag, Cancelled, LanguageCheck, WordPrediction
from editor.restore.passes.schedule import batches, final_regions
from editor.restore.model.vocab import Vocab
from editor.restore.passes.windows import DEFAULT_OVERLAP, DEFAULT_SIZE, windows_for

if TYPE_CHECKING:
    from editor.restore.learning.review_lessons import Adaptation


def _is_cancelled(cancel: Cancel) -> bool:
    if cancel is None:
        return False
    if isinstance(cancel, CancelFlag):  # has is_set: an Event
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


def paragraph_end_flags(n: int, paragraph_starts: Iterable[int]) -> np.ndarray:
    """For ``n`` words, True at each word that ends a paragraph (the word before a start)."""
    para_end = np.zeros(n, bool)
    for i in paragraph_starts:
        if 0 < i <= n - 1:
            para_end[i - 1] = True
    return para_end


class Restorer:
    """Punctuation and case for a stream of words, from a shipped or trained model directory.

    >>> r = Restorer.load()                       # the shipped model, CUDA if available
    >>> [p.text + p.punct for p in r.restore("hello there how are you".split())]
    """

    def __init__(self, model: BiLSTMCRF | EncoderBiLSTMCRF, vocab: Vocab, lexicon: dict[str, str], settings: dict[str, Any],
                 device: torch.device, name: str = "model", names: frozenset[str] | None = None) -> None:
        self.model = model.to(device).eval()
        self.vocab = vocab
        self.lexicon = lexicon
        # the vocabulary's names (names.json): only they, words the vocabulary does not hold and
        # mixed forms take a capital right after a , or ; (None: the probabilities alone decide)
        self.names = names
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
        # after no mark too, only a name (names.json) takes a capital (see decide_jointly)
        self.names_after_no_mark = bool(d.get("names_after_no_mark", False))
        # a sentence end refused for its capital where no other mark would stand is kept, with
        # its capital (see decide_jointly); a model's config may say no
        self.keep_lone_ends = bool(d.get("keep_lone_ends", True))
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
        # windows run through the network together (after a small first batch); a GPU is kept busy by
        # more (the encoder restored dev2012 at 80k words/s with 64, 115k with 256 on an H200)
        self.windows_per_batch = 256 if device.type == "cuda" else 64
        self._lock = threading.Lock()
        # what was learned from the person's reviews (editor.restore.learning.review_lessons); None: the model alone
        self.adaptation: Adaptation | None = None
        self._model_lexicon = lexicon

    @classmethod
    def load(cls, path: str | None = None, device: str = "auto") -> Restorer:
        return load_model_dir(path, resolve_device(device), cls)

    def adapt(self, adaptation: Adaptation | None) -> None:
        """Use what was learned from reviews (an `editor.restore.learning.review_lessons.Adaptation`: remembered case
        forms, marks between word pairs, a class bias) in later restorations; None: the model alone.
        The person's forms come before the model's own lexicon."""
        with self._lock:
            self.adaptation = adaptation if adaptation is not None and not adaptation.is_empty() else None
            self.lexicon = {**self._model_lexicon, **(adaptation.mixed_forms() if adaptation is not None else {})}

    def may_capitalize_after_comma(self, word: str) -> bool:
        """Whether `word` (lowercase) may take a capital right after a , or ;: a name of the model's
        names lexicon ("I", "OK", "Mandela"), a form of the lexicons ("iPhone", the person's own),
        or a word the vocabulary does not hold, which the model judges by its letters. A common word
        ("well", "so") stays lowercase there however much the model believed a sentence ended."""
        return self.names is None or word in self.names or word in self.lexicon or word not in self.vocab

    def language_check(self, words: Sequence[str]) -> LanguageCheck:
        """Whether `words` look like the restorer's language: the share of them in the model's
        vocabulary (tags such as "[noise]" and words without letters are not counted). Cheap: one
        dictionary look-up per distinct word. A model whose config names no language matches anything."""
        counts = Counter(bare_word(str(w)).lower() for w in words)
        known = total = 0
        vocab = self.vocab
        for w, n in counts.items():
            core = w.strip(".,?!:;\"'()[]{}<>")
            if not any(ch.isalpha() for ch in core) or w[:1] in "[<{":
                continue
            total += n
            known += n * (core in vocab or core.replace("'", "") in vocab)
        return LanguageCheck(self.language, total, known)

    # ---------------------------------------------------------------- probabilities -> predictions
    def calibrated(self, joint: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(N, 28) joint marginals -> calibrated punct (N, 7) and case (N, 4) distributions."""
        j = joint.reshape(-1, N_PUNCT, N_CASE)
        return (temper(j.sum(2), self.punct_temperature), temper(j.sum(1), self.case_temperature))

    def decisions(self, words: Sequence[str], joint: np.ndarray, first_is_start: bool = False,
                  last_is_end: bool = False, paragraph_ends: np.ndarray | None = None,
                  pause: Callable[[], object] | None = None, comma_line: float = 0.0
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The steps of `predictions` before the words are written: (punct (N, 7) calibrated, the
        case (N, 4) calibrated, the case settled with the sentence ends, the mark index (N,), the
        case index (N,)). The lab measures confidences on them (`editor.restore.lab.rescore_fit`)."""
        if self.adaptation is not None:
            joint = self.adaptation.apply(words, joint)
            if pause is not None:
                pause()
        punct, raw_case = self.calibrated(joint)
        if paragraph_ends is not None and self.paragraph_end_odds != 1.0 and paragraph_ends.any():
            punct = boost_sentence_ends(punct, self.paragraph_end_odds, paragraph_ends)
        if last_is_end and len(words):
            punct = end_with_sentence_end(punct)
        no_lexicon = np.fromiter((w not in self.lexicon for w in words), bool, len(words))
        case = settle_case(punct, raw_case, no_lexicon, first_is_start)
        comma_capital = None
        if self.names is not None:
            ok = self.may_capitalize_after_comma
            comma_capital = np.fromiter((ok(w) for w in words), bool, len(words))
        p_idx, c_idx = decide_jointly(punct, case, self.class_scales, self.position_free_lower,
                                      first_is_start=first_is_start, capitalize_sentences=self.capitalize_sentences,
                                      unmarked_lower=self.unmarked_lower, colon_lower=self.colon_lower,
                                      comma_capital=comma_capital, names_after_no_mark=self.names_after_no_mark,
                                      comma_line=comma_line, keep_lone_ends=self.keep_lone_ends)
        return punct, raw_case, case, p_idx, c_idx

    def predictions(self, words: Sequence[str], joint: np.ndarray, first_is_start: bool = False,
                    last_is_end: bool = False, paragraph_ends: np.ndarray | None = None,
                    pause: Callable[[], object] | None = None, comma_line: float = 0.0) -> list[WordPrediction]:
        """Decisions from joint marginals. `paragraph_ends` (bool per word): the word is the last of a
        paragraph, so a sentence end there is likelier than the words alone say. `pause`: called
        between the steps (see `restore`). `comma_line`: no comma less likely than this (the
        person's comma style, `editor.core.commas`)."""
        punct, raw_case, case, p_idx, c_idx = self.decisions(words, joint, first_is_start, last_is_end,
                                                             paragraph_ends, pause, comma_line)
        lex = self.lexicon
        # lower case needs no writing unless an abbreviation takes its period anyway ("e.g.", "vs.")
        if pause is not None:
            pause()
        texts = [w if ci == 0 and "." not in w and w not in PERIOD_IN_LOWER else apply_case(w, CASE_CLASSES[ci], lex)
                 for w, ci in zip(words, c_idx.tolist())]
        if pause is not None:
            pause()
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
                cancel: Cancel = None, priority: tuple[int, int] | None = None,
                paragraph_starts: Iterable[int] = (), pause: Callable[[], object] | None = None,
                comma_line: float = 0.0) -> list[WordPrediction]:
        """Predictions for every word, computed over overlapping windows batched together.

        The words are a whole text: the first starts a sentence and the last ends one. They are
        bare words as a recogniser writes them (a document's `Token.word`); a mark written into a
        word ("hello,") is taken as part of it, and an empty word is a ValueError.
        `on_chunk(start, end, predictions)` fires as each region becomes final; `priority`
        (start, end) is computed first; `cancel` (an Event or a callable) stops between batches
        with `Cancelled`. `paragraph_starts`: indices of words that start a paragraph; the word
        before each is likelier to end a sentence (see `paragraph_end_odds`). `pause`: called
        between pieces of the work done in Python (a few ms each), where another thread may be
        given the interpreter (the editor's window: `editor.core.process.give_way`). `comma_line`:
        no comma is chosen where it is less likely than this (the person's comma style,
        `editor.core.commas`; 0: every comma the model chooses).
        """
        # the model knows words without the invisible characters a text may hold inside them
        # (a zero-width space, a direction mark: see `bare_word`); the document keeps them
        words = [bare_word(str(w)).lower() for w in words]
        empty = next((i for i, w in enumerate(words) if not w.strip()), None)
        if empty is not None:
            raise ValueError(f"word {empty} is empty: restore() takes the words of a text, each non-empty")
        n = len(words)
        if n == 0:
            return []
        para_end = paragraph_end_flags(n, paragraph_starts)
        plan = plan_chunks(n, self.size, self.overlap, self.cut)
        # words are encoded batch by batch, so the first chunk does not wait for the whole text
        runner = windows_for(self.model, self.vocab, words, self.device)
        results: list[np.ndarray | None] = [None] * len(plan.windows)
        merged: list[WordPrediction | None] = [None] * n
        held: set[int] = set()  # words by a region boundary waiting for the window beyond it
        with self._lock:
            for idx in batches(plan, self.windows_per_batch, priority):
                if not idx:
                    continue
                if _is_cancelled(cancel):
                    raise Cancelled()
                for k, i in enumerate(idx):
                    runner.encode(*plan.windows[i])
                    if pause is not None and k % 8 == 7:
                        pause()
                if pause is not None:
                    pause()
                for i, r in zip(idx, runner.run(plan, idx)):
                    results[i] = r
                if self.merge == "weighted":
                    continue  # regions are final only when both neighbours are in: report at the end
                for a, b, lo, hi, joint in final_regions(plan, results, idx, held):
                    if pause is not None:
                        pause()
                    preds = self.predictions(words[lo:hi], joint, first_is_start=lo == 0, last_is_end=hi == n,
                                             paragraph_ends=para_end[lo:hi], pause=pause,
                                             comma_line=comma_line)[a - lo : b - lo]
                    merged[a:b] = preds
                    if on_chunk is not None:
                        on_chunk(a, b, preds)
        if self.merge == "weighted":
            preds = self.predictions(words, merge_weighted(plan, cast(list[np.ndarray], results)), first_is_start=True,
                                     last_is_end=True, paragraph_ends=para_end, comma_line=comma_line)
            if on_chunk is not None:
                on_chunk(0, n, preds)
            return preds
        return cast(list[WordPrediction], merged)
