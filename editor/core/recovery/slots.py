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

import contextlib
import json
import os
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path

from editor.core.atomic import atomic_write, fsync_folder
from editor.core.errors import UserError
from editor.core.document.transcript import Transcript
from editor.core.recovery.reading import is_journal, journal_info, read_recovery, replay_edits
from editor.core.recovery.edits import NEW
from editor.core.recovery.journal import Journal
from editor.core.recovery.lock import HeldLock, close_fd, lock_unheld, try_lock
from editor.core.recovery.state import (DocumentTracker, EncodeCache, RecoveryInfo, RecoveryState,
                                        SuggestionMirror)

__all__ = ["CLEAN", "DATA", "EDITS", "INFO", "LOCK", "DocumentTracker", "EncodeCache", "Orphan",
           "RecoveryInfo", "RecoverySlot", "RecoveryState", "SuggestionMirror", "find_orphans"]

LOCK, DATA, INFO = ".lock", ".stet", ".json"
#: The changes made since the last autosave, one a line (``editor.core.recovery.edits``).
EDITS = ".edits"
#: A recovery journal with nothing unsaved in it (written ahead, or after a save) waits under this
#: name, never offered; the next autosave appends to it and renames it back to ``DATA``.
CLEAN = ".clean"


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

    @property
    def edits_path(self) -> Path:
        return self.folder / f"{self.name}{EDITS}"

    def remove_edits(self) -> None:
        """The edit journal, and one a kill left half rewritten."""
        self.edits_path.unlink(missing_ok=True)
        self.folder.joinpath(f"{self.name}{EDITS}{NEW}").unlink(missing_ok=True)


class RecoverySlot(_Files):
    """This session's recovery files, owned through a held lock."""

    def __init__(self, folder: Path, name: str, lock: HeldLock) -> None:
        super().__init__(folder, name)
        self._lock = lock
        self._io = threading.Lock()  # a write in flight finishes before a discard or close
        self.generation = 0  # bumped by discard: a state captured before it is not written
        self._cache = EncodeCache()
        self._encoding = threading.Lock()  # one encoding at a time: they share the cache
        self._mirror = SuggestionMirror()  # the suggestions as the captures written so far say
        self._encoded_seq = -1  # the newest capture encoded (an older one is not written after it)
        self._journal = Journal()
        self._at = self.data  # where the journal is: DATA, or CLEAN while nothing is unsaved
        #: waits while a step of the window runs (editor.gui.base.turns); the encoding rests between pieces
        self.give_way: Callable[[], float] | None = None

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
            if try_lock(fd):
                return cls(folder, name, HeldLock(path, fd))
            close_fd(fd)  # pragma: no cover - someone locked a file we just made; try another name

    @property
    def owned(self) -> bool:
        return self._lock.held

    def write(self, state: RecoveryState, generation: int | None = None) -> bool:
        """Write the autosave (atomically: a kill mid-write leaves the previous one). Any thread.
        False when nothing was written: the slot was closed, or discarded after ``generation``."""
        with self._encoding:  # outside the lock: a discard need not wait for the encoding
            if state.seq < self._encoded_seq:  # a newer capture is written: only keep count
                self._mirror.apply(state)
                return False
            self._encoded_seq = max(self._encoded_seq, state.seq)
            head, entries = state.parts(self._cache, self._mirror, give_way=self.give_way)
        with self._io:
            if not self.owned or (generation is not None and generation != self.generation):
                return False
            if self._at != self.data and not self._at.exists():
                self._at, self._journal = self.data, Journal()
            self._journal.write(self._at, head, entries, edits=state.edits)
            atomic_write(self.info_path, json.dumps(state.info.to_json()).encode("utf-8"))
            if self._at != self.data:  # there is unsaved work now: the file is offered
                os.replace(self._at, self.data)
                self._at = self.data
                fsync_folder(self.folder)
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
            head, entries = state.parts(self._cache, self._mirror, head=False,  # runs alone
                                        give_way=self.give_way)
        with self._io:
            if (not self.owned or (generation is not None and generation != self.generation)
                    or self.data.exists()):
                return False
            self._at, self._journal = self.clean_path, Journal()
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
                fsync_folder(self.folder)
            else:
                self.data.unlink(missing_ok=True)

    def take_over(self, orphan: Orphan) -> None:
        """Make a recovered session's files this slot's own, and remove the orphan's lock."""
        with self._io:
            self.generation += 1
            self._journal = Journal()  # the next write starts the file afresh
            self.clean_path.unlink(missing_ok=True)
            self._at = self.data
            os.replace(orphan.data, self.data)
            orphan.remove_edits()  # replayed into the document taken over
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
                if not self.data.exists():
                    self.remove_edits()
                self._lock.release(remove=not self.data.exists())


class Orphan(_Files):
    """A recovery file whose session is gone, locked by us while it is offered."""

    def __init__(self, folder: Path, name: str, lock: HeldLock, info: RecoveryInfo) -> None:
        super().__init__(folder, name)
        self._lock, self.info = lock, info

    def read(self) -> Transcript:
        """The work it holds: the last autosave, and the changes journaled after it (up to the
        first missing). Raises ``UserError`` when the autosave cannot be read."""
        from editor.core.formats import read_any

        if not is_journal(self.data):  # an older Stet's autosave: a project, no journal beside it
            return read_any(self.data, allow_empty=True)
        doc, edits = read_recovery(self.data)
        if edits is not None:
            replay_edits(doc, self.edits_path, edits)
        return doc

    def release(self, *, remove: bool = False) -> None:
        """Keep it for a later start (``remove=False``), or drop the lock file too."""
        self._lock.release(remove=remove)

    def discard(self) -> None:
        for path in (self.data, self.info_path, self.clean_path):
            path.unlink(missing_ok=True)
        self.remove_edits()
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
        lock = lock_unheld(files.lock_path, create=True)
        if lock is None:
            continue  # a live session's
        try:
            saved = data.stat().st_mtime
            with contextlib.suppress(OSError):  # typed into after the last autosave
                saved = max(saved, files.edits_path.stat().st_mtime)
        except OSError:  # removed meanwhile: its owner saved or discarded it
            lock.release(remove=True)
            continue
        found.append(Orphan(folder, name, lock, _read_info(files, saved)))
    for lock_path in folder.glob(f"session-*{LOCK}"):  # sessions gone with nothing unsaved
        if not lock_path.with_suffix(DATA).exists() and (lock := lock_unheld(lock_path, create=False)):
            if not lock_path.with_suffix(DATA).exists():  # checked again, under the lock
                lock_path.with_suffix(CLEAN).unlink(missing_ok=True)
                _Files(folder, lock_path.name[:-len(LOCK)]).remove_edits()
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
