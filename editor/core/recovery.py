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

try:  # POSIX
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]
    import msvcrt

LOCK, DATA, INFO = ".lock", ".stet", ".json"


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
    suggestions: tuple[Suggestion, ...]
    metadata: Metadata
    info: RecoveryInfo

    @classmethod
    def capture(cls, doc: Transcript, *, source: str | os.PathLike[str] | None = None,
                project: str | os.PathLike[str] | None = None) -> RecoveryState:
        """Call on the document's own thread; takes ~15 ms for 100,000 words with suggestions."""
        return cls(doc.tokens, tuple(doc.paragraph_starts), tuple(doc.iter_suggestions()),
                   doc.metadata, RecoveryInfo(str(source) if source else None,
                                              str(project) if project else None,
                                              time.time(), len(doc)))

    def encode(self, cache: EncodeCache | None = None) -> bytes:
        """The .stet project text (with a ``recovery`` key the reader ignores).

        Records are turned into JSON a run of tokens at a time and dropped: building all 200,000
        record dicts first (as ``stet_document`` does) wakes the cyclic garbage collector, whose
        full passes hold the interpreter for a third of a second at 100,000 words. With a
        ``cache`` (one per recovery file), runs whose tokens and suggestions are the very same
        objects as last time (records are immutable) reuse their JSON: an edit re-encodes only
        the runs it touched."""
        from editor.core.formats.stet import stet_document

        head = stet_document(Transcript(metadata=self.metadata))
        head["paragraph_starts"] = [self.tokens[i].id for i in self.paragraph_starts
                                    if 0 < i < len(self.tokens)]
        head["recovery"] = self.info.to_json()
        del head["tokens"], head["suggestions"]
        # one dict per kind, case first as in a saved project: no container per token, so the
        # garbage collector stays asleep
        kinds = sorted(Kind, key=lambda k: k != Kind.CASE)
        by_kind = [{s.token_id: s for s in self.suggestions if s.kind == k} for k in kinds]
        cache = cache if cache is not None else EncodeCache()
        tokens_json, suggestions_json = [], []
        for run in _runs(self.tokens):
            suggestions = tuple(s for t in run for table in by_kind
                                if (s := table.get(t.id)) is not None)
            tj, sj = cache.get(run, suggestions)
            if tj:
                tokens_json.append(tj)
            if sj:
                suggestions_json.append(sj)
        cache.keep_only_last()
        return (f'{_dumps(head)[:-1]},"tokens":[{",".join(tokens_json)}],'
                f'"suggestions":[{",".join(suggestions_json)}]}}').encode()


_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_RUN_END = 512  # a run of tokens ends after a token whose id is a multiple of this, minus one


def _runs(tokens: tuple[Token, ...]) -> Iterator[tuple[Token, ...]]:
    """Runs of tokens cut where the token's id says (not its position): an insertion or deletion
    changes only its own run, and the runs after it keep their boundaries (and their JSON)."""
    start = 0
    for i, t in enumerate(tokens):
        if t.id % _RUN_END == _RUN_END - 1 or i - start >= 4 * _RUN_END:
            yield tokens[start:i + 1]
            start = i + 1
    if start < len(tokens):
        yield tokens[start:]


_Encoded = tuple[tuple[Token, ...], tuple[Suggestion, ...], str, str]  # a run, its suggestions, their JSON


class EncodeCache:
    """The JSON of runs of tokens (and their suggestions) from the last encoding, by identity."""

    def __init__(self) -> None:
        self._runs: dict[int, _Encoded] = {}
        self._used: dict[int, _Encoded] = {}

    def get(self, run: tuple[Token, ...], suggestions: tuple[Suggestion, ...]) -> tuple[str, str]:
        from editor.core.formats.stet import suggestion_record, token_record

        key = id(run[0])
        hit = self._runs.get(key)
        if (hit is not None and len(hit[0]) == len(run) and len(hit[1]) == len(suggestions)
                and all(map(operator.is_, hit[0], run))
                and all(map(operator.is_, hit[1], suggestions))):
            entry = hit
        else:
            entry = (run, suggestions, _dumps([token_record(t) for t in run])[1:-1],
                     _dumps([suggestion_record(s) for s in suggestions])[1:-1])
        self._used[key] = entry
        return entry[2], entry[3]

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


class RecoverySlot(_Files):
    """This session's recovery files, owned through a held lock."""

    def __init__(self, folder: Path, name: str, lock: _HeldLock) -> None:
        super().__init__(folder, name)
        self._lock = lock
        self._io = threading.Lock()  # a write in flight finishes before a discard or close
        self.generation = 0  # bumped by discard: a state captured before it is not written
        self._cache = EncodeCache()
        self._encoding = threading.Lock()  # one encoding at a time: they share the cache

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
            data = state.encode(self._cache)
        with self._io:
            if not self.owned or (generation is not None and generation != self.generation):
                return False
            atomic_write(self.data, data)
            atomic_write(self.info_path, json.dumps(state.info.to_json()).encode("utf-8"))
            return True

    def discard(self) -> None:
        """Remove what was autosaved (the slot stays ours)."""
        with self._io:
            self.generation += 1
            for path in (self.data, self.info_path):
                path.unlink(missing_ok=True)

    def take_over(self, orphan: Orphan) -> None:
        """Make a recovered session's files this slot's own, and remove the orphan's lock."""
        with self._io:
            self.generation += 1
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
                self._lock.release(remove=not self.data.exists())


class Orphan(_Files):
    """A recovery file whose session is gone, locked by us while it is offered."""

    def __init__(self, folder: Path, name: str, lock: _HeldLock, info: RecoveryInfo) -> None:
        super().__init__(folder, name)
        self._lock, self.info = lock, info

    def release(self, *, remove: bool = False) -> None:
        """Keep it for a later start (``remove=False``), or drop the lock file too."""
        self._lock.release(remove=remove)

    def discard(self) -> None:
        for path in (self.data, self.info_path):
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
    for lock_path in folder.glob(f"session-*{LOCK}"):  # sessions killed before any autosave
        if not lock_path.with_suffix(DATA).exists() and (lock := _lock_unheld(lock_path, create=False)):
            if not lock_path.with_suffix(DATA).exists():  # checked again, under the lock
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
            data = json.loads(files.data.read_bytes()).get("recovery")
        except (OSError, ValueError, AttributeError, RecursionError):
            data = None
    info = RecoveryInfo.from_json(data, saved)
    if info.words < 0:  # an older Stet's autosave: count its words
        try:
            tokens = json.loads(files.data.read_bytes()).get("tokens")
            info = RecoveryInfo(info.source, info.project, saved, len(tokens))
        except (OSError, ValueError, AttributeError, TypeError, RecursionError):
            pass
    # the file's time is when the autosave landed; the info says when it was taken
    return RecoveryInfo(info.source, info.project, saved, info.words)
