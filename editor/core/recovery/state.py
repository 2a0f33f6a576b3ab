"""What a recovery file holds: the document captured at one moment (``RecoveryState``), what an
offer shows of it (``RecoveryInfo``), and the cheap encoding of it into runs of JSON that an
autosave reuses when they did not change (``EncodeCache``, ``SuggestionMirror``,
``DocumentTracker``). The files and their ownership: ``editor.core.recovery.slots``."""

from __future__ import annotations

import dataclasses
import itertools
import json
import operator
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from editor.core.document.transcript import Kind, Metadata, SourceCue, Suggestion, Token, Transcript


# -- what a recovery file holds ---------------------------------------------------------------------
@dataclass(frozen=True)
class RecoveryInfo:
    """What the offer shows about a recovery file before anything is restored."""

    source: str | None  # the file the transcript came from
    project: str | None  # the .stet project it was saved as, if any
    saved: float  # time of the last autosave (seconds since the epoch)
    words: int

    @property
    def name(self) -> str:
        """The original file's name, or "Untitled"."""
        shown = self.project or self.source
        return Path(shown).name if shown else "Untitled"

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "project": self.project, "saved": self.saved,
                "words": self.words}

    @classmethod
    def from_json(cls, data: Any, saved: float) -> RecoveryInfo:
        if not isinstance(data, dict):
            data = {}

        def text(key: str) -> str | None:
            value = data.get(key)
            return value if isinstance(value, str) and value else None

        words = data.get("words")
        when = data.get("saved")
        return cls(text("source"), text("project"),
                   float(when) if isinstance(when, int | float) and not isinstance(when, bool)
                   and 0 < when < 1e11 else saved,
                   words if isinstance(words, int) and not isinstance(words, bool) and words >= 0
                   else -1)


@dataclass(frozen=True)
class RecoveryState:
    """The document as it stood at one moment, safe to write from another thread."""

    tokens: tuple[Token, ...]
    paragraph_starts: tuple[int, ...]
    suggestions: tuple[Suggestion, ...]  # all of them, or (with ``changes``) those that changed
    metadata: Metadata
    info: RecoveryInfo
    #: the order of captures in this process, and (from a ``DocumentTracker``) the tokens whose
    #: suggestions changed since the capture before (None: ``suggestions`` holds them all)
    seq: int = 0
    changes: frozenset[int] | None = None
    #: the number of the last change it holds, of the window's edit journal (None: none kept)
    edits: int | None = None

    @classmethod
    def capture(cls, doc: Transcript, *, source: str | os.PathLike[str] | None = None,
                project: str | os.PathLike[str] | None = None) -> RecoveryState:
        """Call on the document's own thread; takes ~15 ms for 100,000 words with suggestions
        (a ``DocumentTracker`` captures only what changed)."""
        return cls(doc.tokens, tuple(doc.paragraph_starts), doc.all_suggestions(),
                   doc.metadata, RecoveryInfo(os.path.abspath(source) if source else None,
                                              os.path.abspath(project) if project else None,
                                              time.time(), len(doc)), next(_SEQ))

    def encode(self, cache: EncodeCache | None = None) -> bytes:
        """The .stet project text (with a ``recovery`` key the reader ignores).

        Records are turned into JSON a run of tokens at a time and dropped: building all 200,000
        record dicts first (as the project writer once did) wakes the cyclic garbage collector, whose
        full passes hold the interpreter for a third of a second at 100,000 words. With a
        ``cache`` (one per recovery file), runs whose tokens and suggestions are the very same
        objects as last time (records are immutable) reuse their JSON: an edit re-encodes only
        the runs it touched."""
        head, entries = self.parts(cache)
        tokens_json = [e[2] for e in entries if e[2]]
        suggestions_json = [e[3] for e in entries if e[3]]
        return (f'{head_json(head)[:-1]},"tokens":[{",".join(tokens_json)}],'
                f'"suggestions":[{",".join(suggestions_json)}]}}').encode()

    def parts(self, cache: EncodeCache | None = None, mirror: SuggestionMirror | None = None,
              path: str | os.PathLike[str] | None = None, *, head: bool = True,
              give_way: Callable[[], float] | None = None) -> tuple[dict[str, Any], list[Encoded]]:
        """The project's head (everything but tokens and suggestions; an empty dict when not
        ``head``) and its runs, in order; with the ``path`` it is written to, a recording in that
        file's folder is named relative to it (``formats.stet.project_head``). The head's subtitle
        cues are JSON already made (``RawJSON``): encode the head with ``head_json``.

        With the ``mirror`` and ``cache`` that one recovery file keeps, the state's changes are
        applied to the mirror, and a run whose tokens are the very ones encoded last time and
        none of whose suggestions changed is reused without looking at its suggestions: the
        cost of an autosave follows the edit, not the length of the transcript. On a thread
        other than the main one the encoding rests between pieces (``Pacer``, which waits with
        ``give_way`` while a step of the window runs)."""
        from editor.core.formats.stet import project_head

        pacer = Pacer(give_way)
        if mirror is None or cache is None:
            mirror, cache = SuggestionMirror(), cache if cache is not None else EncodeCache()
            mirror.apply(dataclasses.replace(self, changes=None), pacer)
        else:
            mirror.apply(self, pacer)
        top: dict[str, Any] = {}
        if head:
            cues = cache.cues_json(self.metadata.cues, pacer) if self.metadata.cues else None
            top = project_head(self.metadata, path, cues=cues)
            top["paragraph_starts"] = [self.tokens[i].id for i in self.paragraph_starts
                                       if 0 < i < len(self.tokens)]
            top["recovery"] = self.info.to_json()
        dirty = mirror.take_dirty()
        entries = []
        for run in _runs(self.tokens):
            hit = cache.same_tokens(run) if dirty is not None else None
            if hit is not None and dirty is not None and dirty.isdisjoint(map(_ID, run)):
                entries.append(cache.keep(hit))
            else:
                entries.append(cache.entry(run, mirror.of_run(run)))
                pacer.rest()
        cache.keep_only_last(pacer)
        return top, entries


_SEQ = itertools.count(1)  # captures are numbered in one sequence, whatever their document
dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


class RawJSON:
    """JSON text already made, standing for a value of a head (``head_json`` writes it as it is);
    ``json`` itself refuses it, so a head is never encoded with the text as a string."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def head_json(head: dict[str, Any]) -> str:
    """``dumps(head)`` for a head from ``RecoveryState.parts``, its metadata's cues (``RawJSON``)
    written as they were encoded: the same text, without encoding 8,000 cues again."""
    metadata = head.get("metadata")
    if not isinstance(metadata, dict) or not any(isinstance(v, RawJSON)
                                                 for v in metadata.values()):
        return dumps(head)

    def encoded(value: Any) -> str:
        return value.text if isinstance(value, RawJSON) else dumps(value)

    inner = ",".join(f"{dumps(k)}:{encoded(v)}" for k, v in metadata.items())
    return "{" + ",".join(f"{dumps(k)}:" + ("{" + inner + "}" if k == "metadata" else dumps(v))
                          for k, v in head.items()) + "}"


#: A worker's encoding gives the interpreter up once it has held it this long, for as long again
#: (at most REST_MAX_S): the window's thread, waiting for it, then has it back within a few ms.
WORK_S = 0.002
REST_MAX_S = 0.005


class Pacer:
    """Rests (sleeps, the interpreter given up) between pieces of an encoding on a thread other
    than the main one. A write ahead at 100,000 timed words is ~0.2 s of Python and JSON beside a
    restoration streaming in: without rests the window waited for the interpreter 90-200 ms at a
    time; at most half the time goes to the encoding, so a background write takes up to twice as
    long. On the main thread (a last write when the window closes, tests) it never rests.
    ``give_way``: waits while a step of the window runs, returning the seconds waited
    (editor.gui.base.turns.WindowTurns.give_way); None: no window to wait for."""

    __slots__ = ("_give_way", "_since", "_worker")

    def __init__(self, give_way: Callable[[], float] | None = None) -> None:
        self._worker = threading.current_thread() is not threading.main_thread()
        self._since = time.perf_counter()
        self._give_way = give_way

    def rest(self) -> None:
        if self._worker:
            worked = time.perf_counter() - self._since
            if worked >= WORK_S:
                # while a step of the window runs, until it ends (the window then wants the
                # interpreter most); else a rest as long as the work, as before
                if self._give_way is None or not self._give_way():
                    time.sleep(min(worked, REST_MAX_S))
                self._since = time.perf_counter()
_RUN_END = 512  # a run of tokens ends after a token whose id is a multiple of this, minus one
_ID = operator.attrgetter("id")
#: kinds in the order a saved project lists a token's suggestions: case first
_KINDS = sorted(Kind, key=lambda k: k != Kind.CASE)


def _runs(tokens: tuple[Token, ...]) -> Iterator[tuple[Token, ...]]:
    """Runs of tokens cut where the token's id says (not its position): an insertion or deletion
    changes only its own run, and the runs after it keep their boundaries (and their JSON). A run
    is at most 2,048 tokens (inserted tokens get new ids). The cuts are found by C loops: at a
    million tokens this is called at every autosave."""
    ends = itertools.compress(itertools.count(1), map((_RUN_END - 1).__eq__, map(
        _RUN_END.__rmod__, map(_ID, tokens))))
    start = 0
    for end in itertools.chain(ends, (len(tokens),)):
        while end - start > 4 * _RUN_END:
            yield tokens[start:start + 4 * _RUN_END + 1]
            start += 4 * _RUN_END + 1
        if end > start:
            yield tokens[start:end]
            start = end


class SuggestionMirror:
    """A recovery file's own copy of the document's suggestions, by kind and token id, kept up to
    date from captures (``RecoveryState.changes``) on the writing thread. Captures may be written
    out of order (a last write at close beside one in flight): each token's entry is taken from
    the newest capture that changed it, and a capture older than the last whole one is ignored."""

    def __init__(self) -> None:
        self.tables: list[dict[int, Suggestion]] = [{} for _ in _KINDS]
        self._seq_of: dict[int, int] = {}
        self._floor = -1
        self._dirty: set[int] | None = None  # token ids changed since the last encoding; None: all

    def apply(self, state: RecoveryState, pacer: Pacer | None = None) -> None:
        """Take in a capture; with a ``pacer``, a capture of every suggestion is taken in a piece
        at a time, resting between pieces (100,000 suggestions are 30-60 ms of Python that held
        the window's thread waiting for the GIL while a write-ahead ran beside a restoration)."""
        if state.seq < self._floor:
            return
        if state.changes is None:  # every suggestion: the mirror starts again from them
            self._floor, self._seq_of, self._dirty = state.seq, {}, None
            tables: list[dict[int, Suggestion]] = [{} for _ in _KINDS]
            by_kind = dict(zip(_KINDS, tables))
            suggestions = state.suggestions
            for at in range(0, len(suggestions), MIRROR_PIECE):
                for s in suggestions[at:at + MIRROR_PIECE]:
                    by_kind[s.kind][s.token_id] = s
                if pacer is not None:
                    pacer.rest()
            old, self.tables = self.tables, tables
            for table in old:  # often the last references to a replaced document's suggestions
                release(table, pacer, MIRROR_PIECE)
            return
        taken = {i for i in state.changes if self._seq_of.get(i, -1) <= state.seq}
        for i in taken:
            self._seq_of[i] = state.seq
            for table in self.tables:
                table.pop(i, None)
        for s in state.suggestions:
            if s.token_id in taken:
                self.tables[_KINDS.index(s.kind)][s.token_id] = s
        if self._dirty is not None:
            self._dirty |= taken

    def of_kind(self, kind: Kind) -> dict[int, Suggestion]:
        """The suggestions of one kind, by token id."""
        return self.tables[_KINDS.index(kind)]

    def take_dirty(self) -> set[int] | None:
        dirty, self._dirty = self._dirty, set()
        return dirty

    def of_run(self, run: tuple[Token, ...]) -> tuple[Suggestion, ...]:
        tables = self.tables
        return tuple(s for t in run for table in tables if (s := table.get(t.id)) is not None)


class DocumentTracker:
    """Follows one document's suggestion changes so that a capture holds the thread that owns
    the document for as long as the changes take, not the whole transcript (at 1,000,000 words
    with suggestions, copying them all holds it ~0.2-0.4 s). Use one per document, on its own
    thread; ``close()`` when done."""

    def __init__(self, doc: Transcript) -> None:
        self.doc = doc
        self._changed: set[int] | None = None  # None: the next capture takes everything
        doc.suggestions_changed.connect(self._on_changed)

    def _on_changed(self, token_ids: tuple[int, ...]) -> None:
        if self._changed is not None:
            self._changed.update(token_ids)

    def capture(self, *, source: str | os.PathLike[str] | None = None,
                project: str | os.PathLike[str] | None = None) -> RecoveryState:
        doc = self.doc
        if self._changed is None:
            self._changed = set()
            return RecoveryState.capture(doc, source=source, project=project)
        if len(self._changed) >= 2_000 and len(self._changed) * 2 >= doc.suggested_count():
            # most changed (accept all, undoing it): taking them all is quicker than by id
            self._changed = set()
            return RecoveryState.capture(doc, source=source, project=project)
        seq = next(_SEQ)
        changed, self._changed = frozenset(self._changed), set()
        found = doc.suggestions_on(changed)
        return RecoveryState(doc.tokens, tuple(doc.paragraph_starts), found, doc.metadata,
                             RecoveryInfo(os.path.abspath(source) if source else None,
                                          os.path.abspath(project) if project else None, time.time(),
                                          len(doc)), seq, changed)

    def close(self) -> None:
        try:
            self.doc.suggestions_changed.disconnect(self._on_changed)
        except (ValueError, RuntimeError):
            pass


CUES_PIECE = 256  # cues encoded at a time: ~1 ms
MIRROR_PIECE = 5_000  # suggestions taken into a recovery file's mirror at a time: ~1 ms


def release(table: dict[Any, Any], pacer: Pacer | None, piece: int) -> None:
    """Empty ``table`` ``piece`` items at a time, the ``pacer`` resting between pieces. What a
    recovery file's cache and mirror held of a replaced document is often the last reference to
    its tokens and suggestions: freed at once on the writing thread, 100,000 of them held the GIL
    50-100 ms in one go (freeing is C: no switch to the window's thread in it), growing with each
    document opened in the process (tests/perf/bench_gui_stalls.py, after restoring)."""
    while table:
        for _ in range(min(piece, len(table))):
            table.popitem()
        if pacer is not None:
            pacer.rest()

# a run, its suggestions, their JSON, and the run's number (new for every new content)
Encoded = tuple[tuple[Token, ...], tuple[Suggestion, ...], str, str, int]


class EncodeCache:
    """The JSON of runs of tokens (and their suggestions) from the last encoding, by identity."""

    def __init__(self) -> None:
        self._runs: dict[int, Encoded] = {}
        self._used: dict[int, Encoded] = {}
        self._numbers = itertools.count()
        self._cues: tuple[tuple[SourceCue, ...], RawJSON] | None = None

    def cues_json(self, cues: tuple[SourceCue, ...], pacer: Pacer | None = None) -> RawJSON:
        """The JSON list of subtitle cues, kept while the metadata holds the very same tuple
        (metadata is immutable: an autosave's head reuses it); made CUES_PIECE cues at a time,
        resting between pieces."""
        from editor.core.formats.stet import cue_record

        if self._cues is not None and self._cues[0] is cues:
            return self._cues[1]
        pieces = []
        for at in range(0, len(cues), CUES_PIECE):
            pieces.append(dumps([cue_record(c) for c in cues[at:at + CUES_PIECE]])[1:-1])
            if pacer is not None:
                pacer.rest()
        self._cues = (cues, RawJSON("[" + ",".join(pieces) + "]"))
        return self._cues[1]

    def get(self, run: tuple[Token, ...], suggestions: tuple[Suggestion, ...]) -> tuple[str, str]:
        entry = self.entry(run, suggestions)
        return entry[2], entry[3]

    def entry(self, run: tuple[Token, ...], suggestions: tuple[Suggestion, ...]) -> Encoded:
        from editor.core.formats.stet import suggestion_record, token_record

        key = id(run[0])
        hit = self._runs.get(key)
        if (hit is not None and len(hit[0]) == len(run) and len(hit[1]) == len(suggestions)
                and all(map(operator.is_, hit[0], run))
                and all(map(operator.is_, hit[1], suggestions))):
            entry = hit
        else:
            entry = (run, suggestions, dumps([token_record(t) for t in run])[1:-1],
                     dumps([suggestion_record(s) for s in suggestions])[1:-1],
                     next(self._numbers))
        self._used[key] = entry
        return entry

    def same_tokens(self, run: tuple[Token, ...]) -> Encoded | None:
        """Last time's entry for exactly these token objects (whatever their suggestions)."""
        hit = self._runs.get(id(run[0]))
        if hit is not None and len(hit[0]) == len(run) and all(map(operator.is_, hit[0], run)):
            return hit
        return None

    def keep(self, entry: Encoded) -> Encoded:
        self._used[id(entry[0][0])] = entry
        return entry

    def keep_only_last(self, pacer: Pacer | None = None) -> None:
        """Forget the runs the last encoding did not use; with a ``pacer``, a few at a time."""
        old, self._runs, self._used = self._runs, self._used, {}
        release(old, pacer, 4)  # (a run's tokens: up to 2,048, often their last reference)

