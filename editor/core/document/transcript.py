"""The transcript document: tokens, suggestions on them, paragraphs, metadata, undo and change events.

Every change goes through ``Transcript.history`` as a command, bumps ``revision`` and emits an event
that says what changed, so a view redraws only that.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import operator
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any, cast

from psygnal import Signal

from editor.core.review import accept_rules
from editor.core.review import decision_points as decisions
from editor.core.review.decision_points import DecisionPoint
from editor.core.document import paragraphs
from editor.core.document.history import History, Swap
from editor.core.review.suggestion_review import SuggestionChanges as _SuggestionChanges
from editor.core.review.suggestion_review import SuggestionReview
from editor.core.document.span_edit import align_span, parse_span, span_paragraphs
from editor.core.document.records import (Kind, Metadata, SourceCue, Spread, State, Suggestion, Token, WordsSnapshot,
                                          evolve)
from editor.core.document.text import split_paragraphs, words_of_blocks

__all__ = ["Kind", "Metadata", "SourceCue", "Spread", "State", "Suggestion", "Token", "Transcript", "WordsSnapshot"]

_ID, _WORD = operator.attrgetter("id"), operator.attrgetter("word")
#: Words a pass at C speed over the tokens takes at a time on a thread beside the window's: one
#: ``map`` over 100,000 words never lets go of the interpreter (3-8 ms), and the window's thread,
#: which wants it back after every Qt call, waited that long in the turn that showed a file
#: (tests/perf/bench_gui_stalls.py, opening); between pieces it may have it.
_PIECE = 2_000


def _pieces(fn: Callable[[Any], Any], seq: Sequence[Any]) -> Iterator[Any]:
    """``map(fn, seq)``, ``_PIECE`` items at a time: between two pieces the generator runs a line
    of Python, where the interpreter may pass to another thread."""
    return itertools.chain.from_iterable(map(fn, seq[i:i + _PIECE]) for i in range(0, len(seq), _PIECE))


def _in_pieces(fn: Callable[[Any], Any], seq: Sequence[Any]) -> tuple[Any, ...]:
    """``tuple(map(fn, seq))`` made ``_PIECE`` items at a time (``_pieces``)."""
    return tuple(_pieces(fn, seq))
_SPEAKER = operator.attrgetter("speaker")


# -- commands ---------------------------------------------------------------------------------------
class _Splice:
    def __init__(self, doc: Transcript, start: int, old: list[Token], new: list[Token]) -> None:
        self.doc, self.start, self.old, self.new = doc, start, old, new

    def do(self) -> None:
        self.doc._splice(self.start, len(self.old), self.new)

    def undo(self) -> None:
        self.doc._splice(self.start, len(self.new), self.old)


_NO_SUGGESTIONS: Mapping[Kind, Suggestion] = MappingProxyType({})


#: Pending suggestions are counted by confidence in this many steps (0.1 % each).
_STEPS = 1000
#: The confidence where each step begins: k / 1000, the same float a threshold of k / 1000 is
_EDGES = [k / _STEPS for k in range(1, _STEPS + 1)]


def _step(confidence: float) -> int:
    """The step of a confidence: step k holds k / 1000 <= confidence < (k + 1) / 1000, compared
    as floats, so "at or above 57 %" is the steps from 570 on, exactly."""
    return bisect.bisect_right(_EDGES, confidence)


def _edge(threshold: float) -> int:
    """The first step at or above ``threshold``."""
    return min(max(round(threshold * _STEPS), 0), _STEPS + 1)


class Transcript(SuggestionReview):
    """Tokens with suggestions, paragraphs and metadata; all changes undoable via ``history``.

    Events (psygnal): ``tokens_changed(start, removed, inserted)`` — tokens ``start:start+removed``
    were replaced by ``inserted`` tokens (an in-place change has removed == inserted);
    ``suggestions_changed(token_ids)``; ``paragraphs_changed()``; ``metadata_changed()``.

    Not thread-safe: change a transcript on one thread (the UI thread) and give workers a
    ``snapshot()``; results that come back carry token ids, and ``set_suggestions`` skips ids that
    an edit removed meanwhile.
    """

    tokens_changed = Signal(int, int, int)
    suggestions_changed = Signal(tuple)
    paragraphs_changed = Signal()
    metadata_changed = Signal()

    def __init__(self, tokens: Iterable[Token] = (), *, paragraph_starts: Iterable[int] = (),
                 metadata: Metadata | None = None, suggestions: Iterable[Suggestion] = ()) -> None:
        """``paragraph_starts`` are token indices; the first token always starts a paragraph."""
        given = list(tokens)
        if all(t.id >= 0 for t in given):  # a reader's tokens: ids given, checked by the index
            self._tokens: list[Token] = given
            self._index: dict[int, int] = {t.id: i for i, t in enumerate(given)}
            if len(self._index) != len(given):
                raise ValueError("token ids must be unique")
            self._next_id = max(self._index, default=-1) + 1
        else:
            used = {t.id for t in given if t.id >= 0}
            if len(used) != sum(1 for t in given if t.id >= 0):
                raise ValueError("token ids must be unique")
            self._next_id = max(used, default=-1) + 1
            del used  # not held beside the index (a set of a million ids is 32 MB)
            self._tokens = [t if t.id >= 0 else self._with_new_id(t) for t in given]
            self._index = {t.id: i for i, t in enumerate(self._tokens)}
        self._stale_from: int | None = None  # indices from here on are out of date
        self._tuple: tuple[Token, ...] | None = None
        self._words: tuple[str, ...] | None = None  # the raw words, kept until one changes
        self._speakers: tuple[str, ...] | None = None  # speaker_names, kept until a speaker changes
        self._para: frozenset[int] = frozenset(
            self._tokens[i].id for i in paragraph_starts if 0 < i < len(self._tokens))
        self._sugg: dict[int, dict[Kind, Suggestion]] = {}
        for s in suggestions:
            if s.token_id not in self._index:
                raise ValueError(f"suggestion for unknown token id {s.token_id}")
            self._sugg.setdefault(s.token_id, {})[s.kind] = s
        self._pending = sum(1 for s in self.iter_suggestions(state=State.PENDING))
        # pending suggestions by confidence in steps of 0.1 %, counted from the first time a
        # count by confidence is asked for (a review panel's band filter), kept from then on
        self._by_confidence: list[int] | None = None
        # the capitals decided with the mark pending before them (decision_points.joins_mark),
        # by word id, each with its confidence's step: what the pending count has over the
        # decisions a person makes. Found the first time ``pending_decisions`` is asked for,
        # then kept: words whose pairs a change may have joined or split wait in ``_rejoin``.
        self._joined: dict[int, int] | None = None
        self._rejoin: set[int] = set()
        self.metadata = metadata or Metadata()
        self.history = History()
        self.revision = 0  # bumps on every change, undo and redo included
        self.words_revision = 0  # bumps only when the word sequence changes
        self._proposed_at: int | None = None  # revision at which paragraph breaks were proposed

    # -- construction helpers ------------------------------------------------------------------
    @classmethod
    def from_text(cls, text: str, metadata: Metadata | None = None) -> Transcript:
        """Words of already written text; its punctuation and capitals become the current state."""
        pieces, starts = words_of_blocks(split_paragraphs(text))
        # ids given here, as the constructor would give them: no second copy of each token; each
        # piece is replaced by its token where it stands, so the two lists are never held at once
        tokens = cast(list[Token], pieces)
        for i, p in enumerate(pieces):
            tokens[i] = Token(p.word, p.surface, p.punct, id=i)
        return cls(tokens, paragraph_starts=starts, metadata=metadata)

    @classmethod
    def from_words(cls, words: Iterable[str], metadata: Metadata | None = None) -> Transcript:
        return cls((Token(w, id=i) for i, w in enumerate(words)), metadata=metadata)

    def _with_new_id(self, token: Token) -> Token:
        token = evolve(token, id=self._next_id)
        self._next_id += 1
        return token

    # -- reading -------------------------------------------------------------------------------
    @property
    def tokens(self) -> tuple[Token, ...]:
        if self._tuple is None:
            self._tuple = tuple(self._tokens)
        return self._tuple

    def __len__(self) -> int:
        return len(self._tokens)

    def __getitem__(self, index: int) -> Token:
        return self._tokens[index]

    def words(self, start: int = 0, end: int | None = None) -> list[str]:
        """The raw word list, as a restoration engine wants it."""
        return list(map(_WORD, self._tokens[start:end]))

    def positions_of(self, word: str) -> list[int]:
        """The indices of the tokens whose raw word is ``word``, in text order, found at C speed in
        the raw words, which are kept until a word changes (accepting marks and capitals changes
        none): "the", 6,000 times in 100,000 words, costs Enter no copy of every word."""
        words, j = self.index_words(), -1
        found: list[int] = []
        while True:
            try:
                j = words.index(word, j + 1)
            except ValueError:
                return found
            found.append(j)

    def index_words(self) -> tuple[str, ...]:
        """The raw words ``positions_of`` reads, made now if a change of words let them go (3-5 ms
        at 100,000 words): an editor calls it in an idle moment, so that the next decision
        (Enter) does not make them in its turn."""
        if self._words is None:
            self._words = tuple(map(_WORD, self._tokens))
        return self._words

    def speaker_names(self) -> list[str]:
        """The speakers' names in the order they first speak, kept until a word's speaker changes:
        counting them reads every word (4-5 ms at 100,000), which a file read in the background
        does there (``editor.gui.work.opening``), not in the turn that shows it."""
        if self._speakers is None:
            names = dict.fromkeys(_pieces(_SPEAKER, self._tokens))
            self._speakers = tuple(n for n in names if n)
        return list(self._speakers)

    @property
    def words_indexed(self) -> bool:
        """Whether ``positions_of`` finds the raw words made (``index_words``)."""
        return self._words is not None

    def snapshot(self, start: int = 0, end: int | None = None) -> WordsSnapshot:
        chosen = self._tokens[start:end]
        stop = start + len(chosen)
        paragraphs = tuple(i - start for i in self.paragraph_starts if start <= i < stop)
        return WordsSnapshot(self.words_revision, start, tuple(map(_ID, chosen)),
                             tuple(map(_WORD, chosen)), paragraphs)

    def snapshot_later(self) -> Callable[[], WordsSnapshot]:
        """``snapshot()`` of the whole text as it stands now, to be taken later on another thread
        (what it reads, the token tuple and the paragraph starts' ids, is immutable): copying
        100,000 words held the UI thread 20-40 ms when a restoration started."""
        tokens, para, revision = self.tokens, self._para, self.words_revision

        def take() -> WordsSnapshot:
            # at C speed (a Python loop over 100,000 words held the interpreter ~10 ms from the UI
            # thread as a File > Open's restoration started), a piece at a time (_in_pieces)
            ids = _in_pieces(_ID, tokens)
            paragraphs = (0, *itertools.compress(range(1, len(ids)), _in_pieces(para.__contains__, ids[1:]))) \
                if ids else ()
            return WordsSnapshot(revision, 0, ids, _in_pieces(_WORD, tokens), paragraphs)

        return take

    def copy_later(self) -> Callable[[], Transcript]:
        """A copy of the document as it stands now, built when called, on any thread: an export
        written while the person goes on editing. What is taken now is immutable (the token tuple,
        every suggestion, the paragraph starts' ids, the metadata): a few milliseconds at 100,000
        words, where rendering them held the UI thread 40-250 ms at 12,300."""
        tokens, suggestions, para, metadata = self.tokens, self.all_suggestions(), self._para, self.metadata

        def take() -> Transcript:
            starts = [i for i, t in enumerate(tokens) if i and t.id in para]
            return Transcript(tokens, paragraph_starts=starts, metadata=metadata, suggestions=suggestions)

        return take

    def index_of(self, token_id: int) -> int:
        """Index of a token id; KeyError when the token is gone."""
        if self._stale_from is not None:
            # An index recorded before the edit, or for a word it put in, holds where the token
            # there has that id: the words after the edit are indexed again only when one of them
            # is asked for (each slice of a long paste would index 50,000 words again).
            i = self._index.get(token_id)
            if i is not None and i < len(self._tokens) and self._tokens[i].id == token_id:
                return i
            start, self._stale_from = self._stale_from, None  # the words after it, at C speed
            self._index.update(zip(map(_ID, self._tokens[start:]), range(start, len(self._tokens))))
        return self._index[token_id]

    def token(self, token_id: int) -> Token:
        return self._tokens[self.index_of(token_id)]

    def indices_of(self, token_ids: Iterable[int]) -> list[int]:
        """Indices of those of ``token_ids`` still in the text, in the order given (the gone left
        out): one dictionary pass at C speed, where ``index_of`` per id on 20,000 pasted words
        held the UI thread ~10 ms a pass."""
        if self._stale_from is not None:
            start, self._stale_from = self._stale_from, None
            self._index.update(zip(map(_ID, self._tokens[start:]), range(start, len(self._tokens))))
        return [i for i in map(self._index.get, token_ids) if i is not None]

    def has_token(self, token_id: int) -> bool:
        try:
            self.index_of(token_id)
        except KeyError:
            return False
        return True

    # -- paragraphs ----------------------------------------------------------------------------
    @property
    def paragraph_starts(self) -> list[int]:
        """Sorted token indices that start a paragraph (0 included when there are tokens)."""
        if not self._tokens:
            return []
        found = {self.index_of(i) for i in self._para if self.has_token(i)}
        found.add(0)
        return sorted(found)

    def is_paragraph_start(self, index: int) -> bool:
        return index == 0 or self._tokens[index].id in self._para

    def paragraphs(self) -> list[range]:
        starts = self.paragraph_starts
        return [range(a, b) for a, b in zip(starts, [*starts[1:], len(self._tokens)])]

    @property
    def paragraph_ids(self) -> frozenset[int]:
        """Ids of the tokens after the first that start a paragraph (may name tokens since gone)."""
        return self._para

    def value_of(self, index: int, kind: Kind | str) -> str:
        """Token ``index``'s current value for a suggestion kind; for a paragraph break "¶" where
        one is before it, else ""."""
        kind = Kind(kind)
        if kind == Kind.BREAK:
            return paragraphs.BREAK if index > 0 and self._tokens[index].id in self._para else ""
        return self._tokens[index].value(kind)

    def suggest_paragraphs(self, start: int = 0, end: int | None = None, *, text: str = "Suggest paragraph breaks",
                           merge_id: object | None = None, undoable: bool = True) -> int:
        """Propose paragraph breaks in the long paragraphs over words ``start:end`` (or move the
        pending proposals there to better places: see ``editor.core.document.paragraphs``); one undo step,
        or none when not ``undoable`` (proposals made as a document is opened). Returns how many
        suggestions changed."""
        if not undoable and self._proposed_at == self.revision:
            return 0  # done as it was read, on a worker thread, and nothing changed since
        changes = paragraphs.propose(self._tokens, self._sugg, self.paragraph_starts, start, end)
        if not undoable:
            if changes:
                self._apply_suggestions(changes)
            self._proposed_at = self.revision
            return len(changes)
        return self.push_changes(changes, text, merge_id=merge_id)

    def set_paragraph_start(self, index: int, starts: bool = True) -> None:
        token_id = self._tokens[index].id
        new = self._para | {token_id} if starts else self._para - {token_id}
        if new != self._para:
            text = "Split paragraph" if starts else "Join paragraphs"
            self.history.push(Swap(self._apply_paragraphs, self._para, frozenset(new)), text)

    # -- suggestions: reading ------------------------------------------------------------------
    def suggestion(self, token_id: int, kind: Kind | str) -> Suggestion | None:
        return self._sugg.get(token_id, {}).get(Kind(kind))

    def suggestions_of(self, token_id: int) -> dict[Kind, Suggestion]:
        return dict(self._sugg.get(token_id, {}))

    def suggestion_view(self, token_id: int) -> Mapping[Kind, Suggestion]:
        """The suggestions on one token by kind, read-only and not copied (empty when none): for a
        view that reads every token of a long transcript when it redraws."""
        slot = self._sugg.get(token_id)
        return _NO_SUGGESTIONS if slot is None else MappingProxyType(slot)

    @property
    def next_id(self) -> int:
        """The id the next new token gets: ids at or above it are of tokens made after now (the
        words a paste puts in, not the neighbours it writes again)."""
        return self._next_id

    def has_suggestions(self) -> bool:
        """Whether any token carries a suggestion, whatever its state (no list made of them)."""
        return any(self._sugg.values())

    def suggested_token_ids(self) -> list[int]:
        """Ids of the tokens that carry suggestions, in no particular order: a copy made at C
        speed, to look through a slice at a time (with :meth:`suggestion_view`) while edits come."""
        return list(self._sugg)

    def suggested_count(self) -> int:
        """How many tokens carry suggestions (pending or decided)."""
        return len(self._sugg)

    @property
    def pending_count(self) -> int:
        """How many suggestions are pending, kept up to date with every change (no pass over
        them): what a count on screen shows at once, however long the transcript."""
        return self._pending

    def pending_between(self, low: float = 0.0, high: float | None = None) -> int:
        """How many pending suggestions have a confidence at or above ``low`` and under ``high``
        (no bound: up to 1), kept with every change as ``pending_count`` is: exact for bounds
        in steps of 0.1 % (a percent threshold), to the nearest 0.1 % otherwise."""
        counts = self._by_confidence
        if counts is None:  # one pass, the first time: 70-100 ms for 200,000 suggestions
            counts = self._by_confidence = [0] * (_STEPS + 1)
            for s in self.iter_suggestions(state=State.PENDING):
                counts[_step(s.probs[s.value])] += 1
        first = _edge(low)
        last = _edge(high) if high is not None else len(counts)
        return sum(counts[first:last]) if last > first else 0

    @property
    def pending_decisions(self) -> int:
        """How many decisions the pending suggestions make: a sentence end and the capital after
        it are one (``decision_points``), as the list's rows and Tab's stops count them. Kept as
        ``pending_count`` is (after the first time: one pass over the pending capitals)."""
        return self._pending - len(self._joined_capitals())

    def pending_decisions_between(self, low: float = 0.0, high: float | None = None) -> int:
        """How many decisions are led by a pending suggestion of a confidence at or above ``low``
        and under ``high`` (as ``pending_between``): a capital decided with the mark before it
        counts in the mark's band, not its own."""
        first = _edge(low)
        last = _edge(high) if high is not None else _STEPS + 1
        joined = sum(1 for step in self._joined_capitals().values() if first <= step < last)
        return self.pending_between(low, high) - joined

    def _joined_capitals(self) -> dict[int, int]:
        joined = self._joined
        if joined is None:  # in reading order: a pending mark, then the next word's capital
            joined = self._joined = {}
            sugg, get, pending = self._sugg, self._sugg.get, State.PENDING
            mark: Suggestion | None = None
            for word in self._tokens if sugg else ():
                slot = get(word.id)
                if slot is None:
                    mark = None
                    continue
                if mark is not None:
                    capital = slot.get(Kind.CASE)
                    if capital is not None and capital.state == pending and decisions.joins_mark(word, capital, mark):
                        joined[word.id] = _step(capital.probs[capital.value])
                mark = slot.get(Kind.PUNCT)
                if mark is not None and mark.state != pending:
                    mark = None
            self._rejoin.clear()
        elif self._rejoin:
            tokens, sugg = self._tokens, self._sugg
            index_of = self._index.get if self._stale_from is None else None
            for token_id in self._rejoin:
                i = index_of(token_id) if index_of is not None else self._index_or_none(token_id)
                if i is None or i >= len(tokens) or tokens[i].id != token_id:
                    joined.pop(token_id, None)  # (the word is gone)
                    continue
                # the pair this word ends (its capital) and the one it begins (its mark)
                for k in (i, i + 1):
                    if k <= 0 or k >= len(tokens):
                        continue
                    word = tokens[k]
                    capital = sugg.get(word.id, _NO_SUGGESTIONS).get(Kind.CASE)
                    if capital is not None and decisions.joins_mark(
                            word, capital, sugg.get(tokens[k - 1].id, _NO_SUGGESTIONS).get(Kind.PUNCT)):
                        joined[word.id] = _step(capital.probs[capital.value])
                    else:
                        joined.pop(word.id, None)
            self._rejoin.clear()
        return joined

    def _index_or_none(self, token_id: int) -> int | None:
        try:
            return self.index_of(token_id)
        except KeyError:
            return None

    def all_suggestions(self) -> tuple[Suggestion, ...]:
        """Every suggestion, in no particular order, copied at C speed (~8 ms for 150,000): what
        an autosave captures on the UI thread."""
        return tuple(itertools.chain.from_iterable(map(dict.values, self._sugg.values())))

    def suggestions_on(self, token_ids: Iterable[int]) -> tuple[Suggestion, ...]:
        """The suggestions on these tokens (none for a token without any or gone), copied at C
        speed: what an autosave captures of the tokens whose suggestions changed."""
        return tuple(itertools.chain.from_iterable(
            map(dict.values, filter(None, map(self._sugg.get, token_ids)))))

    def iter_suggestions(self, *, state: State | str | None = None,
                         kind: Kind | str | None = None) -> Iterator[Suggestion]:
        """Suggestions filtered by state and kind, in no particular order and without building a
        list: for ranking or counting them where :meth:`suggestions`' sort would be wasted."""
        for slot in self._sugg.values():
            for s in slot.values():
                if (state is None or s.state == state) and (kind is None or s.kind == kind):
                    yield s

    def suggestions(self, *, state: State | str | None = None, kind: Kind | str | None = None,
                    order: str = "position") -> list[Suggestion]:
        """Suggestions filtered by state and kind, by ``order`` "position" or "confidence"
        (least confident first, the order a careful review wants)."""
        if order == "position" and len(self._sugg) * 8 >= len(self._tokens):
            # Many suggestions: reading them in token order is quicker than sorting them.
            return accept_rules.in_token_order(self._tokens, self._sugg, state=state, kind=kind)
        found = [s for slot in self._sugg.values() for s in slot.values()
                 if (state is None or s.state == state) and (kind is None or s.kind == kind)]
        if order == "position":
            found.sort(key=lambda s: (self.index_of(s.token_id), s.kind != Kind.CASE))
        elif order == "confidence":
            found.sort(key=lambda s: (s.confidence, self.index_of(s.token_id)))
        else:
            raise ValueError(f"order must be 'position' or 'confidence', not {order!r}")
        return found

    def pending(self, *, kind: Kind | str | None = None, order: str = "position") -> list[Suggestion]:
        return self.suggestions(state=State.PENDING, kind=kind, order=order)

    def next_pending(self, after: int = -1, *, reverse: bool = False, kind: Kind | str | None = None,
                     wanted: Callable[[Suggestion], bool] | None = None) -> Suggestion | None:
        """The first pending suggestion on a token after index ``after`` (before it if ``reverse``)
        that ``wanted`` (when given) says yes to."""
        return accept_rules.next_pending(self._tokens, self._sugg, after, reverse=reverse, kind=kind, wanted=wanted)

    def decision_points(self, start: int = 0, end: int | None = None) -> list[DecisionPoint]:
        """The decision points whose leads are on words ``start:end``, in reading order: a mark
        and the capital after it are one (``editor.core.review.decision_points``)."""
        return decisions.decision_points(self._tokens, self._sugg, start, end)

    def decision_point(self, token_id: int, kind: Kind | str) -> DecisionPoint | None:
        """The decision point the pending suggestion of ``kind`` on this token is part of (None:
        no such suggestion pending)."""
        if not self.has_token(token_id):
            return None
        return decisions.point_of(self._tokens, self._sugg, self.index_of(token_id), kind)

    def follows_mark(self, s: Suggestion) -> bool:
        """Whether ``s`` is the capital of a decision point led by the mark pending before its
        word (``decision_points.joins_mark``): no stop or row of its own. Quick: one look at
        the word before it."""
        if s.kind != Kind.CASE or not self.has_token(s.token_id):
            return False
        index = self.index_of(s.token_id)
        if index == 0:
            return False
        mark = self._sugg.get(self._tokens[index - 1].id, {}).get(Kind.PUNCT)
        return decisions.joins_mark(self._tokens[index], self._sugg.get(s.token_id, {}).get(Kind.CASE), mark)

    def decision_count(self, chosen: list[Suggestion], min_confidence: float = 0.0) -> int:
        """How many decisions accepting ``chosen`` (``pending_to_apply(min_confidence)``'s choice)
        makes: a sentence end and the capital after it count once
        (``decision_points.decision_count``)."""
        return decisions.decision_count(self._tokens, self._sugg, chosen, self.index_of, min_confidence)

    def next_decision_point(self, after: tuple[int, int] | None = None, *, reverse: bool = False,
                            wanted: Callable[[DecisionPoint], bool] | None = None,
                            ) -> DecisionPoint | None:
        """The first decision point after the reading position ``after`` (word index and rank, as
        ``DecisionPoint.position``; None: from the start), before it if ``reverse``, that
        ``wanted`` (when given) says yes to; no wrapping around."""
        return decisions.next_point(self._tokens, self._sugg, after, reverse=reverse, wanted=wanted)

    # -- suggestions: changing -----------------------------------------------------------------
    def set_suggestions(self, suggestions: Iterable[Suggestion], *, text: str = "Restore",
                        merge_id: object | None = None, keep_decided: bool = True) -> int:
        """Put suggestions on tokens; returns how many were stored.

        Suggestions for tokens that no longer exist are skipped (results that arrive after an
        edit). With ``keep_decided``, accepted or rejected suggestions are not overwritten. Calls
        with the same ``merge_id`` in a row are one undo step: a pass delivered chunk by chunk.
        """
        changes: _SuggestionChanges = []
        for s in suggestions:
            if not self.has_token(s.token_id):
                continue
            old = self.suggestion(s.token_id, s.kind)
            if old is not None and keep_decided and old.state != State.PENDING:
                continue
            changes.append((s.key, s))
        return self.push_changes(changes, text, merge_id=merge_id)

    def clear_suggestions(self, start: int = 0, end: int | None = None, *,
                          states: Iterable[State | str] = (State.PENDING,),
                          kind: Kind | str | None = None) -> int:
        wanted = {State(s) for s in states}
        changes: _SuggestionChanges = [
            (s.key, None) for t in self._tokens[start:end]
            for s in self._sugg.get(t.id, {}).values()
            if s.state in wanted and (kind is None or s.kind == kind)]
        return self.push_changes(changes, "Clear suggestions")

    def drop_suggestions(self, keys: Iterable[tuple[int, Kind | str]], *, text: str = "Drop suggestions") -> int:
        """Remove the pending suggestions with these (token id, kind) keys; one undo step.
        Decided (accepted or rejected) suggestions are kept."""
        changes: _SuggestionChanges = []
        for token_id, kind in keys:
            s = self.suggestion(token_id, kind)
            if s is not None and s.state == State.PENDING:
                changes.append((s.key, None))
        return self.push_changes(changes, text)

    # -- editing tokens ------------------------------------------------------------------------
    def pending_to_apply(self, min_confidence: float = 0.0, *, kind: Kind | str | None = None,
                         start: int = 0, end: int | None = None,
                         sources: Collection[str] | None = None) -> list[Suggestion]:
        """The pending suggestions with confidence >= ``min_confidence`` (of ``sources`` only, when
        given) that accepting them all (or writing the text at that threshold) applies, of words
        ``start:end``: a capital waits for the end mark before it (the rule:
        editor.core.review.accept_rules.pending_to_apply)."""
        return accept_rules.pending_to_apply(self._tokens, self._sugg, min_confidence, kind=kind, start=start, end=end,
                                             sources=sources)

    def append_tokens(self, tokens: Iterable[Token], *, new_paragraph: bool = False,
                      merge_id: object | None = "append") -> range:
        """Append words (ASR output as it arrives); returns their index range.

        Appends in a row share one undo step by default (``merge_id``).
        """
        new = [self._with_new_id(t) for t in tokens]
        start = len(self._tokens)
        if not new:
            return range(start, start)
        with self.history.group("Add words", merge_id=merge_id):
            self.history.push(_Splice(self, start, [], new))
            if new_paragraph and start > 0:
                self.history.push(Swap(self._apply_paragraphs, self._para,
                                        self._para | {new[0].id}))
        return range(start, start + len(new))

    def edit_token(self, index: int, *, surface: str | None = None, punct: str | None = None) -> None:
        """Set a token's surface and/or punctuation by hand; a pending suggestion of that kind goes."""
        token = self._tokens[index]
        new = dataclasses.replace(token, surface=token.surface if surface is None else surface,
                                  punct=token.punct if punct is None else punct)
        if new == token:
            return
        drop: _SuggestionChanges = [
            (s.key, None) for s in self._sugg.get(token.id, {}).values()
            if s.state == State.PENDING and new.value(s.kind) != token.value(s.kind)]
        with self.history.group("Edit word"):
            self.push_tokens([(index, new)], "")
            if drop:
                self.push_suggestions(drop, "")

    def replace_span(self, start: int, end: int, text: str, *, keep_pending: bool = False) -> range:
        """Replace tokens ``start:end`` with typed ``text``; returns the new tokens' index range.
        Unchanged words keep their ids, times and suggestions (see span_edit.align_span); a line
        break in ``text`` starts a paragraph. ``keep_pending``: ``text`` is as shown, with the
        pending suggestions in it, and a value that reads as one proposes is no decision (a find
        and replace: the suggestion stays pending; span_edit.align_span)."""
        if not 0 <= start <= end <= len(self._tokens):
            raise IndexError(f"span {start}:{end} outside 0:{len(self._tokens)}")
        old = self._tokens[start:end]
        pieces, breaks, break_after = parse_span(text)
        moved: list[Suggestion] = []
        new, dropped = align_span(self._tokens, start, end, pieces, self._sugg, self._with_new_id,
                                  keep_pending=keep_pending, moved=moved)
        drop: _SuggestionChanges = [(key, None) for key in dropped] + [(s.key, s) for s in moved]
        para = span_paragraphs(self._tokens, self._para, start, end, new, breaks, break_after)
        if new == old and para == self._para:
            return range(start, end)
        with self.history.group("Delete" if not new else "Edit text"):
            self.history.push(_Splice(self, start, old, new))
            if drop:
                self.push_suggestions(drop, "")
            if para != self._para:
                self.history.push(Swap(self._apply_paragraphs, self._para, frozenset(para)))
        return range(start, start + len(new))

    def set_speaker(self, start: int, end: int, name: str | None) -> None:
        """Give words ``start:end`` the speaker ``name`` (None: nobody); a speaker change starts
        a paragraph, so the words become their own paragraph where others spoke around them.
        One undo step; nothing when nothing changes."""
        if not 0 <= start < end <= len(self._tokens):
            raise IndexError(f"span {start}:{end} outside 0:{len(self._tokens)}")
        updates = [(i, evolve(t, speaker=name)) for i, t in enumerate(self._tokens[start:end], start)
                   if t.speaker != name]
        tokens = self._tokens
        breaks = {tokens[i].id: True for i, other in ((start, start - 1), (end, end))
                  if 0 < i < len(tokens) and tokens[other].speaker != name}
        if not updates:
            return
        with self.history.group(f"Speaker: {name}" if name else "No speaker"):
            self.push_tokens(updates, "")
            self.push_paragraphs(breaks, "")

    def rename_speakers(self, renames: Mapping[str, str | None]) -> int:
        """Rename speakers everywhere ({"Speaker 1": "Ann"}); two names given one are merged.
        One undo step; returns how many words changed."""
        updates = [(i, evolve(t, speaker=renames[t.speaker])) for i, t in enumerate(self._tokens)
                   if t.speaker is not None and t.speaker in renames and renames[t.speaker] != t.speaker]
        if updates:
            names = ", ".join(f"{old} → {new}" for old, new in renames.items())
            self.push_tokens(updates, f"Rename speaker {names}" if len(renames) == 1 else "Rename speakers")
        return len(updates)

    def delete_span(self, start: int, end: int) -> None:
        self.replace_span(start, end, "")

    def set_metadata(self, *, undoable: bool = True, **changes: Any) -> None:
        """``undoable=False``: no undo step, for what is kept beside the person's work (the
        project's own lexicon, brought up to date by a save)."""
        new = dataclasses.replace(self.metadata, **changes)
        if new != self.metadata:
            if undoable:
                self.history.push(Swap(self._apply_metadata, self.metadata, new), "Change details")
            else:
                self._apply_metadata(new)

    def apply_recorded(self, *, splice: tuple[int, int, list[Token]] | None = None,
                       suggestions: Mapping[int, Iterable[Suggestion]] | None = None,
                       paragraph_ids: Iterable[int] | None = None) -> None:
        """Make a change recorded from another copy of this document as it was made (an edit
        journal's line: ``editor.core.recovery.reading.replay_edits``), with no undo step:
        ``splice``: tokens ``start:start+removed`` become the tokens given, ids and all;
        ``suggestions``: each token id's suggestions become those given; ``paragraph_ids``:
        the tokens that start a paragraph. Raises ``ValueError`` when it does not fit."""
        if splice is not None:
            start, removed, new = splice
            if not (isinstance(start, int) and isinstance(removed, int)
                    and 0 <= start <= start + removed <= len(self._tokens)):
                raise ValueError(f"splice {start}+{removed} outside 0:{len(self._tokens)}")
            gone = {t.id for t in self._tokens[start:start + removed]}
            ids = [t.id for t in new]
            if len(set(ids)) != len(ids) or any(i not in gone and self.has_token(i) for i in ids):
                raise ValueError("a spliced token's id is taken")
            self._next_id = max([self._next_id, *(i + 1 for i in ids)])
            self._splice(start, removed, list(new))
        if suggestions is not None:
            changes: _SuggestionChanges = []
            for token_id, marks in suggestions.items():
                given = {s.kind: s for s in marks if s.token_id == token_id}
                changes += [((token_id, kind), None) for kind in self.suggestion_view(token_id)
                            if kind not in given]
                changes += [(s.key, s) for s in given.values()]
            if changes:
                self._apply_suggestions(changes)
        if paragraph_ids is not None:
            self._apply_paragraphs(frozenset(paragraph_ids))

    # -- pushing commands ----------------------------------------------------------------------
    # -- undoable changes that apply no review rule (the review operations are built on them) --
    def push_tokens(self, updates: list[tuple[int, Token]], text: str) -> None:
        old = [(i, self._tokens[i]) for i, _ in updates]
        self.history.push(Swap(self._apply_tokens, old, updates), text)

    def push_paragraphs(self, starts: dict[int, bool], text: str) -> None:
        """Set which tokens (by id) start a paragraph; one undo step, none if nothing changes."""
        on = frozenset(i for i, v in starts.items() if v)
        new = (self._para | on) - frozenset(starts.keys() - on)
        if new != self._para:
            self.history.push(Swap(self._apply_paragraphs, self._para, new), text)

    def push_changes(self, changes: _SuggestionChanges, text: str, *, merge_id: object | None = None) -> int:
        """Push the suggestion changes, if any, as one step; returns how many."""
        if changes:
            self.push_suggestions(changes, text, merge_id=merge_id)
        return len(changes)

    def push_suggestions(self, changes: _SuggestionChanges, text: str, *,
                          merge_id: object | None = None) -> None:
        old = [(key, self._sugg.get(key[0], {}).get(key[1])) for key, _ in changes]
        self.history.push(Swap(self._apply_suggestions, old[::-1], changes), text,
                          merge_id=merge_id)

    # -- primitive changes (only commands call these) ------------------------------------------
    def _changed(self, words: bool = False) -> None:
        self.revision += 1
        if words:
            self.words_revision += 1

    def _splice(self, start: int, removed: int, new: list[Token]) -> None:
        at_end = start + removed == len(self._tokens)
        gone = self._tokens[start:start + removed]
        self._tokens[start:start + removed] = new
        self._tuple = self._words = None
        if self._speakers is not None and (any(map(_SPEAKER, gone)) or any(map(_SPEAKER, new))):
            self._speakers = None  # (words without a speaker change no speaker's place in the order)
        for token in gone:  # (an id kept in ``new`` is set again below or when brought up to date)
            self._index.pop(token.id, None)
        for i, token in enumerate(new, start):
            self._index[token.id] = i
        if self._joined is not None:  # pairs across the change's edges, and those it made or took
            self._rejoin.update(map(_ID, gone))
            self._rejoin.update(map(_ID, new))
            if not new and start < len(self._tokens):  # words taken out: the two now side by side
                self._rejoin.add(self._tokens[start].id)
        if not (at_end or removed == len(new)):
            # Changing only the end (ASR appending) or as many words as there were (a key typed
            # in a word) leaves every other index valid; else the words after the change are
            # indexed again when one of them is asked for (see ``index_of``).
            self._stale_from = start if self._stale_from is None else min(self._stale_from, start)
        self._changed(words=True)
        self.tokens_changed.emit(start, removed, len(new))

    def _apply_tokens(self, updates: list[tuple[int, Token]]) -> None:
        if not updates:
            return
        if self._words is not None and any(self._tokens[i].word != token.word for i, token in updates):
            self._words = None
        if self._speakers is not None and any(self._tokens[i].speaker != token.speaker for i, token in updates):
            self._speakers = None
        for i, token in updates:
            self._tokens[i] = token
        if self._joined is not None:  # a word's own case decides whether its capital joins a mark
            self._rejoin.update(token.id for _, token in updates)
        self._tuple = None
        first = min(i for i, _ in updates)
        count = max(i for i, _ in updates) - first + 1
        self._changed()
        self.tokens_changed.emit(first, count, count)

    def _apply_suggestions(self, changes: _SuggestionChanges) -> None:
        pending, PENDING, counts = self._pending, State.PENDING, self._by_confidence
        step, edges = bisect.bisect_right, _EDGES  # _step, inline: 200,000 changes in an undo
        for (token_id, kind), s in changes:
            slot = self._sugg.get(token_id)
            old = None if slot is None else slot.get(kind)
            if old is not None and old.state == PENDING:
                pending -= 1
                if counts is not None:
                    counts[step(edges, old.probs[old.value])] -= 1
            if s is None:
                if slot is not None and old is not None:
                    del slot[kind]
                    if not slot:
                        del self._sugg[token_id]
            else:
                if slot is None:
                    slot = self._sugg[token_id] = {}
                slot[kind] = s
                if s.state == PENDING:
                    pending += 1
                    if counts is not None:
                        counts[step(edges, s.probs[s.value])] += 1
        self._pending = pending
        self._changed()
        changed = tuple(dict.fromkeys(key[0] for key, _ in changes))
        if self._joined is not None:
            self._rejoin.update(changed)
        self.suggestions_changed.emit(changed)

    def _apply_paragraphs(self, ids: frozenset[int]) -> None:
        self._para = ids
        self._changed()
        self.paragraphs_changed.emit()

    def _apply_metadata(self, metadata: Metadata) -> None:
        self.metadata = metadata
        self._changed()
        self.metadata_changed.emit()

    def take_apart(self) -> Iterator[None]:
        """Empty this document and its history a slice at a time, yielding between slices.

        For freeing a replaced document without holding the caller's thread; the document is
        unusable afterwards.
        """
        yield from self.history.take_apart()
        while self._sugg:
            for key in list(itertools.islice(self._sugg, 2_000)):
                del self._sugg[key]
            yield
        while self._tokens:
            del self._tokens[-5_000:]
            yield
        self._tuple = self._words = self._speakers = None
        self._index.clear()
        self._stale_from = None

    def __repr__(self) -> str:
        return f"<Transcript {len(self._tokens)} tokens, revision {self.revision}>"
