"""One restoration pass over a document's words: what the window, `stet restore` and a batch worker
all run, so that the same file and settings give the same suggestions wherever it is restored.

A pass refuses an empty text (`NothingToRestore`) and, unless asked, a text that does not look like
the model's language (`NotTheLanguage`). It applies what was learned from reviews; an adaptation
that cannot be applied (a damaged profile or lexicon) is reported in one line (``on_note``) and the
pass goes on with less: without what reviews taught, then with the model alone. It restores the
words region by region and builds each region's suggestions as it becomes final (``on_region``).
Where the pass runs (a worker thread, a process) is the caller's; what its regions do to a document
is this module's too (`PassApplier`: the suggestions set, or a re-suggest's changes to pending ones,
and the proposed paragraph breaks placed again at the sentence ends now known), so that the window,
`stet restore` and a batch put the same suggestions and breaks into the same text. Each process
loads a model once (`restorer_for`), whoever asks for it, and the default of keeping the author's
punctuation is decided here alone (`keeps_author`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from editor.core.document.transcript import Kind, State, Suggestion, Token, Transcript, WordsSnapshot
from editor.core.commas import DEFAULT_COMMAS, comma_line
from editor.core.errors import UserError
from editor.core.document.records import CHOICE, LEXICON, evolve
from editor.core.document.text import split_opening
from editor.core.review.repeat_choices import keep_choices

if TYPE_CHECKING:
    from editor.restore.passes.inference import Restorer
    from editor.restore.passes.prediction import Cancel, WordPrediction

log = logging.getLogger(__name__)

#: Words read either side of words restored on their own (a paste), for context.
WORDS_AROUND = 60


# -- the restorers a process has loaded ------------------------------------------------------------
_LOADED: dict[tuple[str, str], Restorer] = {}
_LOADING = threading.Lock()
#: One pass at a time per restorer: a pass adapts it (what reviews taught) and then restores.
_PASSES: dict[int, threading.Lock] = {}


def restorer_for(model: str | None, device: str) -> Restorer:
    """The restorer of ``model`` (a model directory; None or "": the shipped one) on ``device``,
    loaded once in this process whoever asks (the window, its worker process, `stet restore`, a
    batch worker) and kept. Imports torch: never on a window's thread. Raises what
    `Restorer.load` raises (`UserError` for a model that cannot be used)."""
    key = (model or "", device)
    with _LOADING:
        found = _LOADED.get(key)
        if found is None:
            from editor.restore.passes.inference import Restorer

            found = _LOADED[key] = Restorer.load(model or None, device=device)
            _PASSES[id(found)] = threading.Lock()
        return found


def _pass_lock(restorer: Restorer) -> threading.Lock:
    with _LOADING:
        return _PASSES.setdefault(id(restorer), threading.Lock())


def keeps_author(tokens: Sequence[Token], keep_author: bool | None = None,
                 only: Collection[int] | None = None) -> bool:
    """Whether a pass over ``tokens`` proposes only missing marks and capitals (keeps the author's
    punctuation): ``keep_author`` where someone said (the Review menu's tick, --keep-author or
    --no-keep-author); by default where marks or capitals were written, outside the long raw runs
    (`suggest.raw_runs`: words no one wrote marks for) and among the words ``only`` (indices: a
    paste's) where given. The one place this default is decided."""
    if keep_author is not None:
        return keep_author
    from editor.restore.passes.suggest import authored

    return any(authored(_written_tokens(tokens, only)))


def _written_tokens(tokens: Sequence[Token], only: Collection[int] | None) -> Sequence[Token]:
    """The tokens whose marks and capitals say whether the text was written: ``only``'s (a paste's
    raw words), else all of them. The long raw runs (`suggest.raw_runs`) need not be left out: a
    run holds no word with a mark or a capital by definition, only such words end one, so leaving
    them out changes nothing `authored` finds (and cost a set of every index, 0.14 s at 100,000
    words, on the UI thread at each open)."""
    if only is not None:
        return [tokens[i] for i in sorted(only)]
    return tokens


class NotTheLanguage(UserError):
    """The text does not look like the restorer's language; the pass did not run."""


class NothingToRestore(UserError):
    """The text has no words; the pass did not run."""


@dataclass(frozen=True, slots=True)
class PassSettings:
    """What a pass applies besides the model, and whether it checks the language."""

    lexicon: bool = True  # the user lexicon (a project's own forms always apply)
    learned: bool = False  # what reviews of the document's language and speakers taught
    profile: str | None = None  # a kept profile chosen on purpose, whatever the language and speakers
    any_language: bool = False  # restore a text that does not look like the model's language
    #: propose only missing marks and capitals, never remove or replace what is written (keep the
    #: author's punctuation); None: so where the text read has marks or capitals written
    keep_author: bool | None = None
    #: the person's comma style (`editor.core.commas`): no comma less likely than its line is proposed
    commas: str = DEFAULT_COMMAS


@dataclass(frozen=True, slots=True)
class PassSource:
    """What a pass reads of a document, taken on the document's thread without copying the words
    (the token tuple is immutable; the snapshot is taken where the pass runs).

    ``marks``: the mark after word ``i`` as the text will stand, where a pending suggestion
    changes the written one, for the words just before those the pass proposes for (a paste)."""

    tokens: tuple[Token, ...]
    snapshot: Callable[[], WordsSnapshot]
    extra: Mapping[str, object]
    language: str | None
    marks: Mapping[int, str] = field(default_factory=dict)

    @classmethod
    def of(cls, doc: Transcript, marks: Mapping[int, str] | None = None) -> PassSource:
        return cls(doc.tokens, doc.snapshot_later(), dict(doc.metadata.extra), doc.metadata.language,
                   dict(marks or {}))


@dataclass(frozen=True, slots=True)
class RestoredRegion:
    """Words ``start:start + len(ids)`` of the snapshot taken at ``revision`` restored, and the
    suggestions made for words ``proposed`` (indices: all of them, or a paste's) in token order."""

    revision: int
    start: int
    ids: tuple[int, ...]
    suggestions: tuple[Suggestion, ...]
    proposed: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class PassOutcome:
    model_name: str
    words: int  # words restored (a paste's context included)
    notes: tuple[str, ...]  # what the person should read once (an adaptation left out)


def run_pass(restorer: Restorer, source: PassSource, settings: PassSettings = PassSettings(), *,
             on_region: Callable[[RestoredRegion], None] | None = None,
             on_note: Callable[[str], None] | None = None, cancel: Cancel = None,
             pause: Callable[[], object] | None = None, priority: tuple[int, int] | None = None,
             only: Collection[int] | None = None) -> PassOutcome:
    """Restore ``source``'s words with ``restorer``; see the module's note.

    ``cancel``, ``pause`` and ``priority`` (the words shown first) go to ``Restorer.restore``.
    ``only``: the indices of the words to propose for (words pasted into a restored text, raw
    whatever the text around them); the pass reads ``WORDS_AROUND`` words either side of them for
    context and skips the language check (the text's was checked when it was restored)."""
    tokens = source.tokens
    if not tokens or (only is not None and not only):
        raise NothingToRestore("no words to restore (the text is empty)")
    snapshot = source.snapshot()
    span = None
    if only is not None:
        found = sorted(only)
        span = (max(0, found[0] - WORDS_AROUND), min(len(tokens), found[-1] + 1 + WORDS_AROUND))
    elif not settings.any_language:
        check = restorer.language_check(snapshot.words)
        if not check.matches:
            raise NotTheLanguage(check.message)
    with _pass_lock(restorer):  # (the restorer is shared: another pass would adapt it meanwhile)
        notes = _adapt(restorer, source, settings)
        for note in notes:
            if on_note is not None:
                on_note(note)
        lo, hi = span if span is not None else (0, len(tokens))
        builder = _Builder(restorer, tokens, snapshot, source.marks, only, settings.keep_author)

        def on_chunk(a: int, b: int, predictions: list[WordPrediction]) -> None:
            if pause is not None:  # the suggestions are built in Python: the window may want its turn
                pause()
            region = builder.region(lo + a, lo + b, predictions)
            if on_region is not None:
                on_region(region)

        restorer.restore(snapshot.words[lo:hi], on_chunk=on_chunk, cancel=cancel, pause=pause,
                         comma_line=comma_line(settings.commas),
                         priority=priority if span is None else None,
                         paragraph_starts=[p - lo for p in sorted(set(snapshot.paragraph_starts)
                                                                  | speaker_turns(tokens)) if lo <= p < hi])
    return PassOutcome(restorer.name, hi - lo, tuple(notes))


def speaker_turns(tokens: Sequence[Token]) -> set[int]:
    """The words where another speaker takes over: like a paragraph's start, the word before is
    likelier to end a sentence (the restorer's paragraph-end odds apply there too)."""
    return {i for i in range(1, len(tokens))
            if tokens[i].speaker and tokens[i].speaker != tokens[i - 1].speaker}


def _adapt(restorer: Restorer, source: PassSource, settings: PassSettings) -> list[str]:
    """Apply what was learned, and where it cannot be, less: without what reviews taught, then the
    model alone. Returns the notes that say so (one line each)."""
    from editor.restore.learning.learned_store import adaptation_from

    notes: list[str] = []
    inputs = (source.extra, source.language, frozenset(t.speaker for t in source.tokens if t.speaker))
    try:
        restorer.adapt(adaptation_from(*inputs, lexicon=settings.lexicon, learned=settings.learned,
                                       profile=settings.profile, notes=notes))
        return notes
    except (UserError, ValueError) as err:
        log.warning("restoring without what Stet learned: %s", err)
        why = err
    if settings.learned or settings.profile:
        try:  # the person's own lexicon (and the project's forms) still apply
            restorer.adapt(adaptation_from(*inputs, lexicon=settings.lexicon))
            return [*notes, f"Restoring without what Stet learned ({why})"
                    + ("; your lexicon is used" if settings.lexicon else "")]
        except (UserError, ValueError) as again:
            why = again
    restorer.adapt(None)
    return [*notes, f"Restoring without what Stet learned or your lexicon: {why}"]


class _Builder:
    """Suggestions for each region of a pass as it becomes final, each region's case following the
    mark before it as the text will stand (this pass's where it reached the word before)."""

    def __init__(self, restorer: Restorer, tokens: Sequence[Token], snapshot: WordsSnapshot,
                 marks: Mapping[int, str], only: Collection[int] | None, keep_author: bool | None) -> None:
        from editor.restore.passes.suggest import asides, authored, rare_word, raw_runs

        self.tokens, self.snapshot, self.marks = tokens, snapshot, marks
        self.only = None if only is None else frozenset(only)
        # pasted raw words were written by no one, whatever the text around them: the model's say
        # is all the evidence there is for them (see make_suggestions' author prior); so are long
        # runs of words without a mark or a capital in a written text (a transcript exported half
        # reviewed): the author's evidence is that of the rest
        self.raw: list[tuple[int, int]] = raw_runs(tokens) if only is None else []
        # a raw stretch's first word follows the written mark before it; the rest of the stretch
        # gets what raw words get
        self.raw_starts = frozenset(x for x, _y in self.raw if x > 0)
        self.cuts = [*self.raw, *((x, x + 1) for x in self.raw_starts)]
        self.written = authored(_written_tokens(tokens, only))
        self.lexicon = getattr(restorer, "lexicon", None)
        self.prior = getattr(restorer, "author_prior", None)
        self.names = getattr(restorer, "may_capitalize_after_comma", None)
        self.rare = rare_word(restorer)  # a capital written on a rare word is a name: kept
        self.keep_author = keeps_author(tokens, keep_author, only)
        # the author's asides, read over the whole text: one may begin in a region before this one
        self.asides = asides(tokens)
        # the lexicons' forms (the user's and the project's): a capital they give is certain by
        # them, not by the model, and says so (LEXICON: accept all confident leaves it)
        adaptation = getattr(restorer, "adaptation", None)
        self.forms: Mapping[str, str] = dict(getattr(adaptation, "fixed_forms", None) or {})
        self.after: dict[int, str] = {}  # the mark this pass leaves after the last word of each run

    def mark_before(self, index: int) -> str | None:
        if index == 0:
            return None
        found = self.after.get(index - 1)
        return found if found is not None else self.marks.get(index - 1, self.tokens[index - 1].punct)

    def region(self, a: int, b: int, predictions: Sequence[WordPrediction]) -> RestoredRegion:
        from editor.restore.passes.suggest import make_suggestions

        if self.only is None:
            runs = _cut(a, b, self.cuts)
        else:  # the pasted words only, run by run (the words around were read for context)
            runs = _runs([i for i in range(a, b) if i in self.only])
        made: list[Suggestion] = []
        for ra, rb in runs:
            raw = any(x <= ra and rb <= y for x, y in self.raw)
            part = make_suggestions(self.tokens[ra:rb], predictions[ra - a:rb - a], self.lexicon,
                                    author_prior=self.prior, written=(False, False) if raw else self.written,
                                    mark_before=self.mark_before(ra),
                                    follow_marks=True if self.only is not None or ra in self.raw_starts else None,
                                    comma_capital=self.names, keep_author=self.keep_author, rare=self.rare,
                                    aside=self.asides[ra:rb])
            if self.forms:
                part = _from_lexicon(part, self.tokens[ra:rb], self.forms)
            last = self.tokens[rb - 1]
            self.after[rb - 1] = next((s.value for s in reversed(part)
                                       if s.token_id == last.id and s.kind == Kind.PUNCT), last.punct)
            made += part
        return RestoredRegion(self.snapshot.revision, a, self.snapshot.ids[a:b], tuple(made), tuple(runs))


def _from_lexicon(made: list[Suggestion], tokens: Sequence[Token], forms: Mapping[str, str]) -> list[Suggestion]:
    """``made`` with each case suggestion that writes a word in its lexicon form (``forms``, by
    lowercase word) marked as the lexicon's (``LEXICON``)."""
    words = {t.id: t.word.lower() for t in tokens}
    out = []
    for s in made:
        form = forms.get(words.get(s.token_id, "")) if s.kind == Kind.CASE else None
        if form is not None and split_opening(s.value)[1] == form:
            s = evolve(s, source=LEXICON)
        out.append(s)
    return out


def _cut(a: int, b: int, raw: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """[a, b) cut where the runs begin and end: (0, 10), [(4, 6)] -> [(0, 4), (4, 6), (6, 10)]."""
    cuts = sorted({a, b, *(x for r in raw for x in r if a < x < b)})
    return list(zip(cuts, cuts[1:]))


def _runs(indices: list[int]) -> list[tuple[int, int]]:
    """Sorted indices as runs of consecutive ones: [3, 4, 5, 9] -> [(3, 6), (9, 10)]."""
    runs: list[tuple[int, int]] = []
    for i in indices:
        if runs and runs[-1][1] == i:
            runs[-1] = (runs[-1][0], i + 1)
        else:
            runs.append((i, i + 1))
    return runs


#: The undo step's name of a pass, and of a re-suggest (`PassApplier`).
RESTORE_TEXT = "Restore punctuation and capitals"
RESUGGEST_TEXT = "Re-suggest with what Stet learned"


class PassApplier:
    """What a pass's regions do to the document they were restored from, wherever the pass ran:
    their suggestions set (one undo step, ``merge_id``), or with ``only_pending`` (re-suggest
    with what Stet learned) only the pending suggestions changed, and then the proposed paragraph
    breaks of the words proposed for placed again at the sentence ends now known
    (`Transcript.suggest_paragraphs`). The window puts a slice of regions at a time, `stet
    restore` and a batch each region as it comes: the same suggestions and breaks either way.

    The re-suggest policy: each pending suggestion of the model's takes the new pass's proposal, or
    goes where the new pass agrees with the text; a word the person decided on or typed is never
    touched, nor a proposal that repeats their own choice elsewhere ("from your choice"), nor a
    proposed paragraph break (placed again after the suggestions). ``changed`` and ``dropped``
    count what it did."""

    def __init__(self, merge_id: object, *, only_pending: bool = False, text: str | None = None) -> None:
        self.merge_id = merge_id
        self.only_pending = only_pending
        self.text = text if text is not None else RESUGGEST_TEXT if only_pending else RESTORE_TEXT
        self.changed = 0  # pending suggestions a re-suggest gave another value
        self.dropped = 0  # pending suggestions a re-suggest took away

    def put(self, doc: Transcript, regions: Iterable[RestoredRegion]) -> int:
        """Put ``regions`` (restored from ``doc``'s words as they stand: the caller drops those of an
        older ``words_revision``) into ``doc``. Returns how many suggestions they brought."""
        found: list[Any] = []
        spans: list[tuple[int, int]] = []
        for region in regions:
            spans += region.proposed  # (indices as the words stand: their revision is the pass's)
            made = list(region.suggestions)
            # a pending proposal from the person's choice stays where the pass proposes another
            # (keep_choices): only the person turns it down
            found += self._pending_changes(doc, region.ids, made) if self.only_pending else keep_choices(doc, made)
        if not found:
            return 0
        if self.only_pending:
            doc.push_changes(found, self.text, merge_id=self.merge_id)
        else:
            doc.set_suggestions(found, text=self.text, merge_id=self.merge_id)
        for a, b in spans:
            doc.suggest_paragraphs(a, b, text=self.text, merge_id=self.merge_id)
        return len(found)

    def _pending_changes(self, doc: Transcript, ids: Sequence[int], made: list[Suggestion]) -> list[Any]:
        """The changes a re-suggest makes to tokens ``ids``, given the new pass's suggestions
        ``made`` for them (see the class's note)."""

        new = {s.key: s for s in made}
        changes: list[Any] = []
        for token_id in ids:
            for old in doc.suggestion_view(token_id).values():
                if old.state != State.PENDING or old.source == CHOICE or old.kind == Kind.BREAK:
                    continue
                fresh = new.get(old.key)
                if fresh is None:
                    changes.append((old.key, None))
                    self.dropped += 1
                elif fresh.value != old.value or dict(fresh.probs) != dict(old.probs):
                    changes.append((old.key, fresh))
                    self.changed += fresh.value != old.value
        return changes


def restore_transcript(restorer: Restorer, doc: Transcript, settings: PassSettings = PassSettings(), *,
                       name: str = "the text", on_words: Callable[[int, int], None] | None = None,
                       on_note: Callable[[str], None] | None = None) -> Transcript:
    """What `stet restore` does to one file, alone or in a batch: `run_pass` over ``doc``, its
    suggestions and paragraph breaks put on it as the window puts them (`PassApplier`: pending,
    one undo step) and the model named in it. ``on_words(done,
    total)`` follows the regions finished; ``on_note`` gets the pass's notes. A refused text is a
    UserError naming ``name``. A text with marks or capitals written keeps them unless
    ``settings.keep_author`` is False (PassSettings: only missing ones are proposed)."""
    done = 0
    applier = PassApplier(object(), text="Restore")  # (its own undo step, whatever came before)

    def on_region(region: RestoredRegion) -> None:
        nonlocal done
        applier.put(doc, [region])
        done += len(region.ids)
        if on_words is not None:
            on_words(done, len(doc))

    # the breaks a window proposes as it shows a text (see Transcript.suggest_paragraphs), placed
    # again by the pass where it proposes marks
    doc.suggest_paragraphs(undoable=False)
    try:
        outcome = run_pass(restorer, PassSource.of(doc), settings, on_region=on_region, on_note=on_note)
    except NotTheLanguage as err:
        raise UserError(f"{name}: not restored: {err}; --any-language restores it anyway") from None
    except NothingToRestore:
        raise UserError(f"{name}: no words to restore (the file is empty or holds no text)") from None
    doc.set_metadata(restore_model=outcome.model_name)
    return doc
