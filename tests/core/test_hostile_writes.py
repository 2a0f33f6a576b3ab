"""A file with hard links is rewritten in place (so every name sees the new content): an error or
a kill at any step leaves it old or new, never half written, and the next read or write of it
puts a cut-short save right (editor/core/atomic.py, ``atomic_write``)."""

import os
import subprocess
import sys
import textwrap
import time

import pytest

from editor.core import FormatError, UserError
from editor.core import atomic
from editor.core.formats import read_any
from editor.core.formats._common import (BACKUP_SUFFIX, STALE_TEMP_SECONDS, atomic_write,
                                         backup_path, clean_stale_temps, finish_interrupted_write)

OLD = "the old words " * 2000 + "\n"
NEW = "quite different new words " * 3000 + "\n"


@pytest.fixture
def linked(tmp_path):
    """A transcript with a second name (a hard link), holding OLD."""
    target = tmp_path / "talk.txt"
    target.write_text(OLD, encoding="utf-8")
    other = tmp_path / "other-name.txt"
    os.link(target, other)
    return target, other


def leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_in_place_write_keeps_the_links_and_leaves_nothing(linked):
    target, other = linked
    atomic_write(target, NEW.encode())
    assert other.read_text(encoding="utf-8") == NEW and os.path.samefile(target, other)
    assert leftovers(target.parent) == []


@pytest.mark.parametrize("fail_at", ["backup", "target"])
def test_an_error_at_any_step_leaves_the_old_content(linked, monkeypatch, fail_at):
    """The disk fills up while the backup or the new content is written: the old content is in
    place (put back at once), the links kept, and no backup or temporary file is left."""
    target, other = linked
    real = atomic._write_all
    calls = []

    def failing(fd, data):
        calls.append(len(data))
        if len(calls) == (1 if fail_at == "backup" else 2):
            real(fd, data[:len(data) // 2])
            raise OSError(28, "No space left on device")
        real(fd, data)

    monkeypatch.setattr(atomic, "_write_all", failing)
    with pytest.raises(UserError, match="cannot write .*No space left"):
        atomic_write(target, NEW.encode())
    assert other.read_text(encoding="utf-8") == OLD and os.path.samefile(target, other)
    assert leftovers(target.parent) == []


KILLER = textwrap.dedent("""
    import os, sys
    from editor.core import atomic
    from editor.core.formats import _common
    step, target, new = sys.argv[1], sys.argv[2], sys.argv[3]
    real_write_all, real_into, real_unlink = atomic._write_all, atomic._write_into, os.unlink
    calls = []

    def write_all(fd, data):  # call 1: the backup of the old content; call 2: the target
        calls.append(1)
        if (step, len(calls)) in (("backup-half", 1), ("target-half", 2)):
            real_write_all(fd, data[:len(data) // 2])
            os.fsync(fd)
            os._exit(9)
        real_write_all(fd, data)

    def write_into(path, data):
        if step == "backup-whole":
            os._exit(9)
        real_into(path, data)

    def unlink(path, *args, **kwargs):
        if step == "target-whole" and str(path).endswith(_common.BACKUP_SUFFIX):
            os._exit(9)
        real_unlink(path, *args, **kwargs)

    atomic._write_all, atomic._write_into, os.unlink = write_all, write_into, unlink
    _common.atomic_write(target, open(new, "rb").read())
    os._exit(0)
""")
STEPS = ["backup-half", "backup-whole", "target-half", "target-whole", "none"]


@pytest.mark.parametrize("step", STEPS)
def test_a_kill_at_any_step_leaves_old_or_new_and_the_next_read_repairs(linked, tmp_path, step):
    target, other = linked
    new = tmp_path / "new-content"
    new.write_text(NEW, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-c", KILLER, step, str(target), str(new)], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == (0 if step == "none" else 9), done.stderr
    half = step == "target-half"
    assert (other.read_text(encoding="utf-8") not in (OLD, NEW)) == half  # the fault is real
    assert backup_path(target).exists() == (step in ("backup-whole", "target-half", "target-whole"))

    # the next open by the name it was saved under puts the old content back (another name of
    # the file cannot know of the backup: it is named after the name written)
    doc = read_any(target)
    text = other.read_text(encoding="utf-8")
    assert text in (OLD, NEW) and os.path.samefile(target, other)
    assert text == (NEW if step == "none" else OLD)
    assert doc.words() == text.split()
    said = [w for w in doc.metadata.warnings if "interrupted" in w]
    assert len(said) == (1 if step in ("target-half", "target-whole") else 0)
    assert not backup_path(target).exists()

    # a temporary file a kill left is ours to clean once it is stale
    for name in leftovers(tmp_path):
        old = time.time() - STALE_TEMP_SECONDS - 5
        os.utime(tmp_path / name, (old, old))
    atomic_write(target, NEW.encode())  # and the next save works, links kept
    assert other.read_text(encoding="utf-8") == NEW and os.path.samefile(target, other)
    assert leftovers(tmp_path) == []
    assert clean_stale_temps(tmp_path, target.name) == []


def test_the_next_save_repairs_before_writing(linked):
    """A kill mid-write, then a save (not a read) of the same file: the half-written content is
    never taken for the old content (the backup is put back first)."""
    target, other = linked
    backup = backup_path(target)
    backup.write_text(OLD, encoding="utf-8")
    target.write_text(OLD[:100], encoding="utf-8")  # half written, still the same inode
    assert finish_interrupted_write(target) is not None
    assert other.read_text(encoding="utf-8") == OLD and not backup.exists()
    backup.write_text(OLD, encoding="utf-8")
    target.write_text(OLD[:100], encoding="utf-8")
    atomic_write(target, NEW.encode())
    assert other.read_text(encoding="utf-8") == NEW and not backup.exists()


def test_a_save_in_progress_is_not_taken_for_a_killed_one(linked):
    import fcntl

    target, _ = linked
    backup = backup_path(target)
    backup.write_text(OLD, encoding="utf-8")
    with open(backup, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # a live writer holds its backup
        with pytest.raises(FormatError, match="another Stet is saving this file"):
            read_any(target)
        with pytest.raises(UserError, match="another Stet is saving this file"):
            atomic_write(target, NEW.encode())
    assert backup.exists() and target.read_text(encoding="utf-8") == OLD


def test_a_backup_that_cannot_be_put_back_is_named_and_kept(linked, monkeypatch):
    target, _ = linked
    backup = backup_path(target)
    backup.write_text(OLD, encoding="utf-8")
    target.write_text("half", encoding="utf-8")

    def refused(*_args):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(atomic, "_write_into", refused)
    with pytest.raises(FormatError, match=f"interrupted.*{BACKUP_SUFFIX}.*permission denied"):
        read_any(target)
    assert backup.read_text(encoding="utf-8") == OLD
