"""Crash-recovery files, without Qt: which session owns which file, and writing one cheaply.

Each running session owns a *slot* in the recovery folder: ``<name>.lock``, ``<name>.stet`` (the
autosaved project) and ``<name>.json`` (what an offer shows: file, time, words). Ownership is an
exclusive ``flock`` on the lock file, held for the session's lifetime. The operating system drops
that lock when the process dies, however it dies (kill -9, power cut, crash), so a slot whose lock
can be taken belongs to a session that is gone, and one whose lock cannot be taken belongs to a live
session (never offered, never written by anyone else). PIDs play no part: they are reused after a
reboot, and inside a PID namespace (Flatpak, containers) every session may be PID 1. Names are made
unique with random bytes and created with ``O_EXCL``, so two sessions never share a slot.

Writing: ``RecoveryState.capture(doc)`` takes what is needed from the document in a few
milliseconds (its records are immutable; only the containers are copied), on the thread that owns
the document; ``write()`` then builds and writes the JSON on any thread, encoding it in slices so
that a worker thread never holds the interpreter for long (one ``json.dumps`` of 100,000 words
holds it for about half a second, felt as a frozen window).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import operator
import os
import secrets
import threading
import time
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from editor.core.document import Kind, Metadata, Suggestion, Token, Transcript
from editor.core.errors import UserError
from editor.core.formats.journal import JOURNAL_HEAD, is_journal, journal_info

try:  # POSIX
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]
    import msvcrt

LOCK, DATA, INFO = ".lock", ".stet", ".json"
#: A recovery journal with nothing unsaved in it (written ahead, or after a save) waits under this
#: name, never offered; the next autosave appends to it and renames it back to ``DATA``.
CLEAN = ".clean"


# -- locks ------------------------------------------------------------------------------------------
def _try_lock(fd: int) -> bool:
    """Take an exclusive lock on an open file without waiting; False if someone holds it."""
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:  # pragma: no cover - Windows
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:
        return False
    return True


def _close(fd: int) -> None:
    try:
        os.close(fd)
    except OSError:
        pass


class _HeldLock:
    """An open, locked lock file; closing it (or the process dying) releases the lock."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path, self.fd = path, fd
        self._finalizer = weakref.finalize(self, _close, fd)

    @property
    def held(self) -> bool:
        return self._finalizer.alive

    def still_ours(self) -> bool:
        """The lock file on disk is still the one we locked (not unlinked or replaced meanwhile)."""
        try:
            return os.stat(self.path).st_ino == os.fstat(self.fd).st_ino
        except OSError:
            return False

    def release(self, *, remove: bool = False) -> None:
        if not self.held:
            return
        if remove:  # unlink while locked, so nobody locks a file that is about to go
            try:
                self.path.unlink()
            except OSError:
                pass
        self._finalizer()


def _lock_unheld(path: Path, *, create: bool) -> _HeldLock | None:
    """Lock ``path`` if nobody holds it; None if someone does, or it is gone. ``create`` makes a
    missing lock file (for a recovery file that has none); without it only an existing one is
    locked (a lock file found alone, of a session killed before any autosave)."""
    try:
        fd = os.open(path, os.O_RDWR | (os.O_CREAT if create else 0), 0o600)
    except OSError:
        return None
    if not _try_lock(fd):
        _close(fd)
        return None
    lock = _HeldLock(path, fd)
    if not lock.still_ours():  # its owner removed it between our open and our lock
        lock.release()
        return None
    return lock


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

    @classmethod
    def capture(cls, doc: Transcript, *, source: str | os.PathLike[str] | None = None,
                project: str | os.PathLike[str] | None = None) -> RecoveryState:
        """Call on the document's own thread; takes ~15 ms for 100,000 words with suggestions
        (a ``DocumentTracker`` captures only what changed)."""
        return cls(doc.tokens, tuple(doc.paragraph_starts), tuple(doc.iter_suggestions()),
                   doc.metadata, RecoveryInfo(str(source) if source else None,
                                              str(project) if project else None,
                                              time.time(), len(doc)), next(_SEQ))

    def encode(self, cache: EncodeCache | None = None) -> bytes:
        """The .stet project text (with a ``recovery`` key the reader ignores).

        Records are turned into JSON a run of tokens at a time and dropped: building all 200,000
        record dicts first (as ``stet_document`` does) wakes the cyclic garbage collector, whose
        full passes hold the interpreter for a third of a second at 100,000 words. With a
        ``cache`` (one per recovery file), runs whose tokens and suggestions are the very same
        objects as last time (records are immutable) reuse their JSON: an edit re-encodes only
        the runs it touched."""
        head, entries = self.parts(cache)
        tokens_json = [e[2] for e in entries if e[2]]
        suggestions_json = [e[3] for e in entries if e[3]]
        return (f'{_dumps(head)[:-1]},"tokens":[{",".join(tokens_json)}],'
                f'"suggestions":[{",".join(suggestions_json)}]}}').encode()

    def parts(self, cache: EncodeCache | None = None, mirror: SuggestionMirror | None = None
              ) -> tuple[dict[str, Any], list[_Encoded]]:
        """The project's head (everything but tokens and suggestions) and its runs, in order.

        With the ``mirror`` and ``cache`` that one recovery file keeps, the state's changes are
        applied to the mirror, and a run whose tokens are the very ones encoded last time and
        none of whose suggestions changed is reused without looking at its suggestions: the
        cost of an autosave follows the edit, not the length of the transcript."""
        from editor.core.formats.stet import stet_document

        head = stet_document(Transcript(metadata=self.metadata))
        head["paragraph_starts"] = [self.tokens[i].id for i in self.paragraph_starts
                                    if 0 < i < len(self.tokens)]
        head["recovery"] = self.info.to_json()
        del head["tokens"], head["suggestions"]
        if mirror is None or cache is None:
            mirror, cache = SuggestionMirror(), cache if cache is not None else EncodeCache()
            mirror.apply(dataclasses.replace(self, changes=None))
        else:
            mirror.apply(self)
        dirty = mirror.take_dirty()
        entries = []
        for run in _runs(self.tokens):
            hit = cache.same_tokens(run) if dirty is not None else None
            if hit is not None and dirty is not None and dirty.isdisjoint(map(_ID, run)):
                entries.append(cache.keep(hit))
            else:
                entries.append(cache.entry(run, mirror.of_run(run)))
        cache.keep_only_last()
        return head, entries


_SEQ = itertools.count(1)  # captures are numbered in one sequence, whatever their document
_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
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

    def apply(self, state: RecoveryState) -> None:
        if state.seq < self._floor:
            return
        if state.changes is None:  # every suggestion: the mirror starts again from them
            self._floor, self._seq_of, self._dirty = state.seq, {}, None
            self.tables = [{s.token_id: s for s in state.suggestions if s.kind == k}
                           for k in _KINDS]
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
        seq = next(_SEQ)
        changed, self._changed = frozenset(self._changed), set()
        found = tuple(s for i in changed for s in doc.suggestion_view(i).values())
        return RecoveryState(doc.tokens, tuple(doc.paragraph_starts), found, doc.metadata,
                             RecoveryInfo(str(source) if source else None,
                                          str(project) if project else None, time.time(),
                                          len(doc)), seq, changed)

    def close(self) -> None:
        try:
            self.doc.suggestions_changed.disconnect(self._on_changed)
        except (ValueError, RuntimeError):
            pass


# a run, its suggestions, their JSON, and the run's number (new for every new content)
_Encoded = tuple[tuple[Token, ...], tuple[Suggestion, ...], str, str, int]


class EncodeCache:
    """The JSON of runs of tokens (and their suggestions) from the last encoding, by identity."""

    def __init__(self) -> None:
        self._runs: dict[int, _Encoded] = {}
        self._used: dict[int, _Encoded] = {}
        self._numbers = itertools.count()

    def get(self, run: tuple[Token, ...], suggestions: tuple[Suggestion, ...]) -> tuple[str, str]:
        entry = self.entry(run, suggestions)
        return entry[2], entry[3]

    def entry(self, run: tuple[Token, ...], suggestions: tuple[Suggestion, ...]) -> _Encoded:
        from editor.core.formats.stet import suggestion_record, token_record

        key = id(run[0])
        hit = self._runs.get(key)
        if (hit is not None and len(hit[0]) == len(run) and len(hit[1]) == len(suggestions)
                and all(map(operator.is_, hit[0], run))
                and all(map(operator.is_, hit[1], suggestions))):
            entry = hit
        else:
            entry = (run, suggestions, _dumps([token_record(t) for t in run])[1:-1],
                     _dumps([suggestion_record(s) for s in suggestions])[1:-1],
                     next(self._numbers))
        self._used[key] = entry
        return entry

    def same_tokens(self, run: tuple[Token, ...]) -> _Encoded | None:
        """Last time's entry for exactly these token objects (whatever their suggestions)."""
        hit = self._runs.get(id(run[0]))
        if hit is not None and len(hit[0]) == len(run) and all(map(operator.is_, hit[0], run)):
            return hit
        return None

    def keep(self, entry: _Encoded) -> _Encoded:
        self._used[id(entry[0][0])] = entry
        return entry

    def keep_only_last(self) -> None:
        self._runs, self._used = self._used, {}


# -- slots ------------------------------------------------------------------------------------------
class _Files:
    def __init__(self, folder: Path, name: str) -> None:
        self.folder, self.name = folder, name

    @property
    def data(self) -> Path:
        return self.folder / f"{self.name}{DATA}"

    @property
    def info_path(self) -> Path:
        return self.folder / f"{self.name}{INFO}"

    @property
    def lock_path(self) -> Path:
        return self.folder / f"{self.name}{LOCK}"

    @property
    def clean_path(self) -> Path:
        return self.folder / f"{self.name}{CLEAN}"


class RecoverySlot(_Files):
    """This session's recovery files, owned through a held lock."""

    def __init__(self, folder: Path, name: str, lock: _HeldLock) -> None:
        super().__init__(folder, name)
        self._lock = lock
        self._io = threading.Lock()  # a write in flight finishes before a discard or close
        self.generation = 0  # bumped by discard: a state captured before it is not written
        self._cache = EncodeCache()
        self._encoding = threading.Lock()  # one encoding at a time: they share the cache
        self._mirror = SuggestionMirror()  # the suggestions as the captures written so far say
        self._encoded_seq = -1  # the newest capture encoded (an older one is not written after it)
        self._journal = _Journal()
        self._at = self.data  # where the journal is: DATA, or CLEAN while nothing is unsaved

    @classmethod
    def claim(cls, folder: Path) -> RecoverySlot:
        """A new slot with a name no other session has (random, created exclusively)."""
        folder.mkdir(parents=True, exist_ok=True)
        while True:
            name = f"session-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}-{secrets.token_hex(4)}"
            path = folder / f"{name}{LOCK}"
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                continue
            if _try_lock(fd):
                return cls(folder, name, _HeldLock(path, fd))
            _close(fd)  # pragma: no cover - someone locked a file we just made; try another name

    @property
    def owned(self) -> bool:
        return self._lock.held

    def write(self, state: RecoveryState, generation: int | None = None) -> bool:
        """Write the autosave (atomically: a kill mid-write leaves the previous one). Any thread.
        False when nothing was written: the slot was closed, or discarded after ``generation``."""
        from editor.core.formats._common import atomic_write

        with self._encoding:  # outside the lock: a discard need not wait for the encoding
            if state.seq < self._encoded_seq:  # a newer capture is written: only keep count
                self._mirror.apply(state)
                return False
            self._encoded_seq = max(self._encoded_seq, state.seq)
            head, entries = state.parts(self._cache, self._mirror)
        with self._io:
            if not self.owned or (generation is not None and generation != self.generation):
                return False
            if self._at != self.data and not self._at.exists():
                self._at, self._journal = self.data, _Journal()
            self._journal.write(self._at, head, entries)
            atomic_write(self.info_path, json.dumps(state.info.to_json()).encode("utf-8"))
            if self._at != self.data:  # there is unsaved work now: the file is offered
                os.replace(self._at, self.data)
                self._at = self.data
                _fsync_folder(self.folder)
            return True

    def prime(self, state: RecoveryState, generation: int | None = None) -> bool:
        """Write the document's runs ahead, while nothing is unsaved (a file never offered), so
        that the first autosave after an edit appends only what the edit changed: at a million
        words writing them all takes seconds. Any thread; False when not written (the slot holds
        unsaved work, was closed, or discarded after ``generation``)."""
        with self._encoding:
            if state.seq < self._encoded_seq:
                self._mirror.apply(state)
                return False
            self._encoded_seq = max(self._encoded_seq, state.seq)
            head, entries = state.parts(self._cache, self._mirror)
        with self._io:
            if (not self.owned or (generation is not None and generation != self.generation)
                    or self.data.exists()):
                return False
            self._at, self._journal = self.clean_path, _Journal()
            self._journal.write(self.clean_path, head, entries, state=False)
            return True

    def discard(self) -> None:
        """Nothing is left to recover (the work was saved or given up; the slot stays ours). The
        journal is kept aside, never offered, for the next autosave to append to."""
        with self._io:
            self.generation += 1
            self.info_path.unlink(missing_ok=True)
            if self._at == self.data and self._journal.size is not None and self.data.exists():
                os.replace(self.data, self.clean_path)
                self._at = self.clean_path
                _fsync_folder(self.folder)
            else:
                self.data.unlink(missing_ok=True)

    def take_over(self, orphan: Orphan) -> None:
        """Make a recovered session's files this slot's own, and remove the orphan's lock."""
        with self._io:
            self.generation += 1
            self._journal = _Journal()  # the next write starts the file afresh
            self.clean_path.unlink(missing_ok=True)
            self._at = self.data
            os.replace(orphan.data, self.data)
            if orphan.info_path.exists():
                os.replace(orphan.info_path, self.info_path)
            else:
                self.info_path.unlink(missing_ok=True)
        orphan.release(remove=True)

    def close(self) -> None:
        """End the session: with nothing autosaved the lock file goes too; with something left
        (a window closed by a script with work unsaved) only the lock is released, so the next
        start offers it."""
        with self._io:
            if self.owned:
                self.clean_path.unlink(missing_ok=True)
                self._lock.release(remove=not self.data.exists())


# -- the recovery file: a journal of runs (read by editor.core.formats.journal) --------------------
# An autosave appends the runs that changed and a state, so its cost follows the edit, not the
# document (at 1,000,000 words a whole file is ~140 MB); the file is written whole again when it
# holds more old runs than live ones. A kill mid-append leaves a torn last line, which is ignored.
def _fsync_folder(folder: Path) -> None:
    from editor.core.formats._common import _fsync_folder as fsync

    fsync(folder)


def _run_line(entry: _Encoded) -> bytes:
    return f'{{"run":{entry[4]},"tokens":[{entry[2]}],"suggestions":[{entry[3]}]}}\n'.encode()


class _Journal:
    """What this session has written to its recovery file (only ever written by its owner)."""

    def __init__(self) -> None:
        self.size: int | None = None  # bytes on disk; None: write the file whole next time
        self.on_disk: set[int] = set()  # run numbers the file holds

    def write(self, path: Path, head: dict[str, Any], entries: list[_Encoded], *,
              state: bool = True) -> None:
        """Append the runs the file lacks and (``state``) the state that uses them, or write the
        file whole: the first time, when it is not as we left it, or when old runs outweigh the
        live ones."""
        from editor.core.formats._common import atomic_write

        line = (_dumps({"state": head, "runs": [e[4] for e in entries]}) + "\n").encode() \
            if state else b""
        new = [_run_line(e) for e in entries if e[4] not in self.on_disk]
        added = sum(map(len, new)) + len(line)
        live = sum(len(e[2]) + len(e[3]) + 40 for e in entries) + len(line)
        if self.size is None or self.size + added > 2 * live + 2**20 or not self._append(
                path, new, line):
            self.size = None
            data = b"".join([JOURNAL_HEAD, *(_run_line(e) for e in entries), line])
            atomic_write(path, data)
            self.size, self.on_disk = len(data), {e[4] for e in entries}
            return
        self.on_disk.update(e[4] for e in entries)

    def _append(self, path: Path, lines: list[bytes], state: bytes) -> bool:
        """Append the new runs and the state and flush them to disk; False when the file is not
        as we left it (then it is written whole)."""
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)
                         | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return False
        try:
            if os.fstat(fd).st_size != self.size:
                return False
            data = b"".join([*lines, state])
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        except OSError:
            return False  # a partial append is cut off by the whole write that follows
        finally:
            os.close(fd)
        assert self.size is not None
        self.size += len(data)
        return True


class Orphan(_Files):
    """A recovery file whose session is gone, locked by us while it is offered."""

    def __init__(self, folder: Path, name: str, lock: _HeldLock, info: RecoveryInfo) -> None:
        super().__init__(folder, name)
        self._lock, self.info = lock, info

    def release(self, *, remove: bool = False) -> None:
        """Keep it for a later start (``remove=False``), or drop the lock file too."""
        self._lock.release(remove=remove)

    def discard(self) -> None:
        for path in (self.data, self.info_path, self.clean_path):
            path.unlink(missing_ok=True)
        self.release(remove=True)


def find_orphans(folder: Path) -> list[Orphan]:
    """Recovery files of sessions that are gone, newest first. Each stays locked by this process
    until ``release``d, ``discard``ed or taken over, so two sessions starting at once never both
    offer (or restore) the same file."""
    found: list[Orphan] = []
    if not folder.is_dir():
        return found
    for data in folder.glob(f"session-*{DATA}"):
        name = data.name[:-len(DATA)]
        files = _Files(folder, name)
        lock = _lock_unheld(files.lock_path, create=True)
        if lock is None:
            continue  # a live session's
        try:
            saved = data.stat().st_mtime
        except OSError:  # removed meanwhile: its owner saved or discarded it
            lock.release(remove=True)
            continue
        found.append(Orphan(folder, name, lock, _read_info(files, saved)))
    for lock_path in folder.glob(f"session-*{LOCK}"):  # sessions gone with nothing unsaved
        if not lock_path.with_suffix(DATA).exists() and (lock := _lock_unheld(lock_path, create=False)):
            if not lock_path.with_suffix(DATA).exists():  # checked again, under the lock
                lock_path.with_suffix(CLEAN).unlink(missing_ok=True)
                lock.release(remove=True)
            else:
                lock.release()
    found.sort(key=lambda o: o.info.saved, reverse=True)
    return found


def _read_info(files: _Files, saved: float) -> RecoveryInfo:
    try:
        data = json.loads(files.info_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = None
    if not isinstance(data, dict):  # written by a Stet before 0.x, or cut short: ask the file
        try:
            data = journal_info(files.data) if is_journal(files.data) else \
                json.loads(files.data.read_bytes()).get("recovery")
        except (OSError, ValueError, AttributeError, RecursionError, UserError):
            data = None
    info = RecoveryInfo.from_json(data, saved)
    if info.words < 0:  # an older Stet's autosave: count its words
        try:
            if is_journal(files.data):
                words = RecoveryInfo.from_json(journal_info(files.data), saved).words
            else:
                words = len(json.loads(files.data.read_bytes()).get("tokens"))
            info = RecoveryInfo(info.source, info.project, saved, words)
        except (OSError, ValueError, AttributeError, TypeError, RecursionError, UserError):
            pass
    # the file's time is when the autosave landed; the info says when it was taken
    return RecoveryInfo(info.source, info.project, saved, info.words)
