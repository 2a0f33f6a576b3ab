"""Writing a file atomically (a crash leaves the old file or the new one, never half of one), and
finishing or cleaning up what a killed writer left. Every write of Stet goes through
``atomic_write``; also how a file the operating system refuses is named to the user."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from editor.core.errors import UserError

PathLike = str | os.PathLike[str]

_KINDS = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))


def not_regular(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "this is a folder, not a file"
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    return f"this is {kind}; Stet reads only regular files"


def os_problem(err: OSError) -> str:
    if err.errno == errno.ELOOP:
        return "a symbolic link loop (the link leads back to itself)"
    if err.errno in (errno.ENOENT, errno.ENOTDIR):
        return "no such file"
    if err.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if err.errno == errno.ENAMETOOLONG:
        return "the file name is too long"
    return f"cannot be read ({err.strerror or err})"



#: Our temporary files are named ``.<name>.stet-<random>.tmp`` beside the file they will become.
TEMP_INFIX, TEMP_SUFFIX = ".stet-", ".tmp"
#: While a file with hard links is rewritten in place, its complete old content is kept beside it
#: as ``.<name>.stet-backup`` (see ``atomic_write``).
BACKUP_SUFFIX = ".stet-backup"
#: A temporary file of ours this old whose lock no process holds was left by a killed process.
STALE_TEMP_SECONDS = 60.0


class ReadOnlyFile(UserError):
    """The file to write exists and is read-only: Stet does not replace it."""


def atomic_write(path: PathLike, data: bytes) -> None:
    """Write a file so that a crash leaves either the old file or the new one, never half of one.

    The new content goes to a temporary file in the target's folder (so the final rename never
    crosses file systems), is fsynced, then renamed over the target, and the folder is fsynced.

    - A symlink is written through: its target gets the new content and the link stays a link.
    - A read-only file (no write permission bit, or not writable by us) is refused with
      ``ReadOnlyFile``, even for root.
    - A file with other hard links keeps them: the new content is written into the existing
      inode (no rename, which would leave the other names on the old content). First a complete
      copy of the old content is fsynced beside it as ``.<name>.stet-backup`` (written under a
      temporary name and renamed, so it exists only whole), and removed once the new content is
      fsynced. An error on the way puts the old content back at once; a kill or power cut leaves
      the backup, and the next read or write of the file puts it back
      (``finish_interrupted_write``): the file is the old one or the new one, never half of one.
    - The temporary file is locked (flock) while it lives, so a later write cleans those a killed
      process left (unlocked and older than a minute) and never another live process's.
    """
    given = os.fspath(path)
    if os.path.isdir(given):
        raise UserError(f"{given}: this is a folder; give a file name to write")
    target = Path(os.path.realpath(given))  # through symlinks: the link itself stays
    try:
        old = os.stat(target)
    except FileNotFoundError:
        old = None
    except OSError as err:
        raise UserError(f"{given}: cannot write ({os_problem(err)})") from None
    if old is not None:
        if not stat.S_ISREG(old.st_mode):
            raise UserError(f"{given}: {not_regular(old.st_mode)}; Stet writes only to files")
        if not old.st_mode & 0o222 or not os.access(target, os.W_OK):
            raise ReadOnlyFile(f"{given}: the file is read-only; Stet does not replace it (make "
                               "it writable, or choose another name)")
        finish_interrupted_write(target)  # a killed in-place write: its old content back first
    folder = target.parent
    clean_stale_temps(folder, target.name)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}{TEMP_INFIX}", suffix=TEMP_SUFFIX,
                                   dir=folder)
    except OSError as err:
        raise UserError(f"{given}: cannot write here ({err.strerror or err})") from None
    in_place = old is not None and old.st_nlink > 1
    try:
        _lock(fd)
        if in_place:
            _write_in_place(target, data, fd, tmp)
        else:
            _write_all(fd, data)
            os.fsync(fd)
            os.chmod(tmp, old.st_mode & 0o7777 if old is not None else 0o666 & ~_umask())
            if old is not None and (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
                try:  # root saving someone's file leaves it theirs
                    os.chown(tmp, old.st_uid, old.st_gid)
                except (OSError, AttributeError):
                    pass
            os.replace(tmp, target)
    except BaseException as err:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(err, OSError):
            raise UserError(f"{given}: cannot write ({err.strerror or err})") from None
        raise
    finally:
        os.close(fd)
    fsync_folder(folder)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def backup_path(path: PathLike) -> Path:
    """Where the old content of ``path`` is kept while it is rewritten in place."""
    target = Path(os.path.realpath(path))
    return target.with_name(f".{target.name}{BACKUP_SUFFIX}")


def _write_in_place(target: Path, data: bytes, fd: int, tmp: str) -> None:
    """Rewrite ``target``'s own inode with ``data``, its old content kept whole beside it until
    the new content is on disk. ``fd`` is our locked temporary file ``tmp``: it becomes the
    backup (the lock, held until the backup is gone, tells a reader that a writer lives)."""
    with open(target, "rb") as f:
        before = f.read()
    _write_all(fd, before)
    os.fsync(fd)
    backup = backup_path(target)
    os.replace(tmp, backup)  # the backup exists only whole
    fsync_folder(target.parent)
    try:
        _write_into(target, data)
    except BaseException:
        try:  # put the old content back now; if even that fails, the backup stays for later
            _write_into(target, before)
        except OSError:
            raise UserError(f"{target}: was only partly written, and the old content could not "
                            f"be put back; it is in {backup}") from None
        os.unlink(backup)
        raise
    os.unlink(backup)
    fsync_folder(target.parent)


def finish_interrupted_write(path: PathLike) -> str | None:
    """Put back the old content of a file whose in-place rewrite (see ``atomic_write``) was cut
    short by a kill or a power cut, and remove the backup. Returns what was done, in words, or
    None when there was nothing to do. A backup still locked belongs to a save in progress: a
    UserError. So does a backup that cannot be put back (it is then left where it is)."""
    target = Path(os.path.realpath(path))
    backup = backup_path(target)
    try:
        fd = os.open(backup, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return None
    except OSError as err:
        raise UserError(f"{path}: a save of this file was interrupted, and its old content in "
                        f"{backup} cannot be read ({os_problem(err)})") from None
    try:
        try:
            _lock(fd)
        except OSError:
            raise UserError(f"{path}: another Stet is saving this file right now; try again in "
                            "a moment") from None
        if not stat.S_ISREG(os.fstat(fd).st_mode) or not target.is_file():
            return None
        before = b"".join(iter(lambda: os.read(fd, 1 << 20), b""))
        try:
            with open(target, "rb") as f:
                same = f.read() == before
            if not same:
                _write_into(target, before)
            os.unlink(backup)
        except OSError as err:
            raise UserError(f"{path}: a save of this file was interrupted; its content from before "
                            f"that save is in {backup} (it cannot be put back: "
                            f"{os_problem(err)})") from None
        fsync_folder(target.parent)
    finally:
        os.close(fd)
    if same:
        return None
    return (f"{path}: a save of this file was interrupted (Stet stopped while writing it); its "
            "content from before that save was put back")


def _write_into(target: Path, data: bytes) -> None:
    """The new content into the existing file (its inode, so every hard link sees it)."""
    fd = os.open(target, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0))
    try:
        _write_all(fd, data)
        os.ftruncate(fd, len(data))
        os.fsync(fd)
    finally:
        os.close(fd)


def _lock(fd: int) -> None:
    try:
        import fcntl
    except ImportError:  # Windows: no flock; stale temporary files are then left alone
        return
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _umask() -> int:
    try:  # read without changing it: os.umask() to read it races with other threads
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def clean_stale_temps(folder: PathLike, name: str) -> list[str]:
    """Remove the temporary files of ours for ``name`` in ``folder`` that a killed process left:
    older than STALE_TEMP_SECONDS and locked by no process (a live writer holds its lock; the OS
    drops the lock of a dead one, whatever its PID was). Returns the names removed."""
    try:
        import fcntl
    except ImportError:
        return []
    import time

    prefix, removed = f".{name}{TEMP_INFIX}", []
    try:
        entries = [e for e in os.scandir(folder)
                   if e.name.startswith(prefix) and e.name.endswith(TEMP_SUFFIX)]
    except OSError:
        return []
    for entry in entries:
        try:
            st = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(st.st_mode) or time.time() - st.st_mtime < STALE_TEMP_SECONDS:
                continue
            fd = os.open(entry.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if os.fstat(fd).st_ino == st.st_ino:  # still the file we looked at
                os.unlink(entry.path)
                removed.append(entry.name)
        except OSError:  # locked: a live process is writing it
            pass
        finally:
            os.close(fd)
    return removed


def fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
