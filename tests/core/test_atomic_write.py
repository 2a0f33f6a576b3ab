"""Saving never destroys: read-only files refused, symlinks written through, hard links kept,
temporary files of killed processes cleaned and live ones left alone, faults leave the old file."""

import os
import subprocess
import sys
import time

import pytest

from editor.core.errors import UserError
from editor.core import atomic
from editor.core.formats import _common, read_any
from editor.core.formats._common import ReadOnlyFile, atomic_write, clean_stale_temps


def test_a_read_only_file_is_refused_even_for_root(tmp_path):
    target = tmp_path / "p.stet"
    target.write_bytes(b"old")
    target.chmod(0o444)
    with pytest.raises(ReadOnlyFile, match="read-only") as info:
        atomic_write(target, b"new")
    assert "\n" not in str(info.value) and target.read_bytes() == b"old"
    assert oct(target.stat().st_mode & 0o777) == "0o444"
    assert [p.name for p in tmp_path.iterdir()] == ["p.stet"]


def test_a_symlink_is_written_through_and_stays_a_link(tmp_path):
    real_dir = tmp_path / "real"
    real_dir.mkdir()
    real = real_dir / "p.stet"
    real.write_bytes(b"old")
    link = tmp_path / "link.stet"
    link.symlink_to(real)
    atomic_write(link, b"new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() == b"new" and link.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.stet", "real"]
    dangling = tmp_path / "dangling.txt"
    dangling.symlink_to(real_dir / "created.txt")
    atomic_write(dangling, b"made")
    assert dangling.is_symlink() and (real_dir / "created.txt").read_bytes() == b"made"


def test_a_symlink_loop_is_one_line(tmp_path):
    (tmp_path / "a.txt").symlink_to(tmp_path / "b.txt")
    (tmp_path / "b.txt").symlink_to(tmp_path / "a.txt")
    with pytest.raises(UserError, match="symbolic link loop"):
        atomic_write(tmp_path / "a.txt", b"x")


def test_a_device_is_not_written(tmp_path):
    with pytest.raises(UserError, match="a device"):
        atomic_write("/dev/null", b"x")


def test_hard_links_are_kept(tmp_path):
    first, second = tmp_path / "a.stet", tmp_path / "b.stet"
    first.write_bytes(b"old content that is longer")
    first.chmod(0o640)
    os.link(first, second)
    inode = first.stat().st_ino
    atomic_write(first, b"new")
    assert first.stat().st_ino == inode and first.stat().st_nlink == 2
    assert second.read_bytes() == b"new" and first.read_bytes() == b"new"
    assert oct(first.stat().st_mode & 0o777) == "0o640"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.stet", "b.stet"]


def test_a_fault_before_the_in_place_copy_leaves_every_link_untouched(tmp_path, monkeypatch):
    first, second = tmp_path / "a.stet", tmp_path / "b.stet"
    first.write_bytes(b"old")
    os.link(first, second)

    def full(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(_common.os, "fsync", full)
    with pytest.raises(UserError, match="No space left"):
        atomic_write(second, b"new")
    assert first.read_bytes() == second.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.stet", "b.stet"]


def test_a_fault_that_also_stops_putting_back_names_the_complete_old_copy(tmp_path, monkeypatch):
    """Writing into the file fails, and putting the old content back fails too: the message says
    where the complete old content is, and the next read puts it back (tests/core/
    test_hostile_writes.py tries every step)."""
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_bytes(b"old words")
    os.link(first, second)
    real = atomic._write_into

    def fail(target, data):
        real(target, data[:2])
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(atomic, "_write_into", fail)
    with pytest.raises(UserError, match="old content could not be put back; it is in") as info:
        atomic_write(first, b"new words")
    kept = str(info.value).rsplit(" ", 1)[1]
    assert open(kept, "rb").read() == b"old words" and first.stat().st_nlink == 2
    monkeypatch.setattr(atomic, "_write_into", real)
    assert read_any(first).words() == ["old", "words"] and second.read_bytes() == b"old words"
    assert not os.path.exists(kept)


@pytest.mark.parametrize("fault", ["write", "fsync", "chmod", "replace", "interrupt"])
def test_injected_faults_leave_the_old_file_byte_identical(tmp_path, monkeypatch, fault):
    target = tmp_path / "p.stet"
    target.write_bytes(b"the old file")

    def boom(*_args, **_kw):
        if fault == "interrupt":
            raise KeyboardInterrupt
        raise OSError(28, "No space left on device")

    name = {"interrupt": "replace"}.get(fault, fault)
    monkeypatch.setattr(_common.os, name, boom)
    with pytest.raises((UserError, KeyboardInterrupt)):
        atomic_write(target, b"the new file")
    assert target.read_bytes() == b"the old file"
    assert [p.name for p in tmp_path.iterdir()] == ["p.stet"]


def test_temp_files_are_named_recognisably(tmp_path, monkeypatch):
    seen = []
    real_replace = os.replace
    monkeypatch.setattr(_common.os, "replace", lambda a, b: seen.append(os.path.basename(a)) or
                        real_replace(a, b))
    atomic_write(tmp_path / "talk.srt", b"x")
    assert seen[0].startswith(".talk.srt.stet-") and seen[0].endswith(".tmp")


HOLD = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
os.utime(sys.argv[1], (time.time() - 3600, time.time() - 3600))
print("locked", flush=True)
time.sleep(60)
"""


def test_stale_temps_of_killed_processes_are_cleaned_live_ones_kept(tmp_path):
    name = "p.stet"
    stale = tmp_path / f".{name}.stet-dead1234.tmp"  # left by a process killed mid-save
    stale.write_bytes(b"x" * 1000)
    old = time.time() - 3600
    os.utime(stale, (old, old))
    fresh = tmp_path / f".{name}.stet-young123.tmp"  # too young to judge
    fresh.write_bytes(b"y")
    other = tmp_path / f".{name}.abcdefgh.tmp"  # not ours by name
    other.write_bytes(b"z")
    os.utime(other, (old, old))
    live = tmp_path / f".{name}.stet-live1234.tmp"  # another live process is writing it
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(live)], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        atomic_write(tmp_path / name, b"saved")
        names = sorted(p.name for p in tmp_path.iterdir())
        assert stale.name not in names
        assert {fresh.name, other.name, live.name, name} <= set(names)
        holder.kill()
        holder.wait()
        assert clean_stale_temps(tmp_path, name) == [live.name]  # its owner died: now stale
    finally:
        holder.kill()
        holder.wait()


def test_a_process_killed_mid_save_leaves_the_old_file_and_the_next_save_cleans_up(tmp_path):
    target = tmp_path / "p.stet"
    target.write_bytes(b"old")
    script = ("import os, sys; from editor.core.formats import _common as c\n"
              "c.os.replace = lambda *a: os.kill(os.getpid(), 9)\n"
              "c.atomic_write(sys.argv[1], b'new' * 100000)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    result = subprocess.run([sys.executable, "-c", script, str(target)], env=env, timeout=60)
    assert result.returncode == -9 and target.read_bytes() == b"old"
    leftovers = [p for p in tmp_path.iterdir() if p.name != "p.stet"]
    assert len(leftovers) == 1 and leftovers[0].stat().st_size == 300000
    old = time.time() - 3600
    os.utime(leftovers[0], (old, old))
    atomic_write(target, b"newer")
    assert [p.name for p in tmp_path.iterdir()] == ["p.stet"] and target.read_bytes() == b"newer"
