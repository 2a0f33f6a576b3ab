"""Owning a file through an exclusive lock that the operating system drops when the process dies
(``flock`` on POSIX), as a recovery slot does (see ``editor.core.recovery.slots``)."""

from __future__ import annotations

import os
import weakref
from pathlib import Path

try:  # POSIX
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]
    import msvcrt


def try_lock(fd: int) -> bool:
    """Take an exclusive lock on an open file without waiting; False if someone holds it."""
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:  # pragma: no cover - Windows
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:
        return False
    return True


def close_fd(fd: int) -> None:
    try:
        os.close(fd)
    except OSError:
        pass


class HeldLock:
    """An open, locked lock file; closing it (or the process dying) releases the lock."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path, self.fd = path, fd
        self._finalizer = weakref.finalize(self, close_fd, fd)

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


def lock_unheld(path: Path, *, create: bool) -> HeldLock | None:
    """Lock ``path`` if nobody holds it; None if someone does, or it is gone. ``create`` makes a
    missing lock file (for a recovery file that has none); without it only an existing one is
    locked (a lock file found alone, of a session killed before any autosave)."""
    try:
        fd = os.open(path, os.O_RDWR | (os.O_CREAT if create else 0), 0o600)
    except OSError:
        return None
    if not try_lock(fd):
        close_fd(fd)
        return None
    lock = HeldLock(path, fd)
    if not lock.still_ours():  # its owner removed it between our open and our lock
        lock.release()
        return None
    return lock
