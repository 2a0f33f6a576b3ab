"""`python -m editor.restore.lab.lease pack`: the folder a GPU lease carries."""

from __future__ import annotations

import gzip
import lzma

import pytest

from editor.restore.lab.lease import CARRY_LIMIT, MARKER, PackError, pack


def _data(tmp_path):
    data = tmp_path / "data"
    (data / "train").mkdir(parents=True)
    (data / "dev").mkdir()
    with gzip.open(data / "train" / "talks.txt.gz", "wt") as f:
        f.write("Hello there. How are you?\n")
    (data / "dev" / "dev2012.tsv").write_text("hello\tO\nthere\tPERIOD\n")
    return data


def test_a_pack_replaces_the_previous_one_and_carries_nothing_stale(tmp_path):
    data, out = _data(tmp_path), tmp_path / ".gpu"
    (out / "data" / "train").mkdir(parents=True)  # a pack of an earlier version: no marker
    (out / "encoder").mkdir()
    (out / "encoder" / "model.safetensors").write_bytes(b"x" * 1000)  # 23 MB in the real one
    (out / "data" / "train" / "old_source.txt.xz").write_bytes(b"y")
    size = pack(data, out, ("talks",), wheels=())
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [
        MARKER, "data/dev/dev2012.tsv.xz", "data/train/talks.txt.xz"]
    assert lzma.open(out / "data" / "train" / "talks.txt.xz", "rt").read() == "Hello there. How are you?\n"
    assert size == sum(p.stat().st_size for p in out.rglob("*") if p.is_file())


def test_a_pack_refuses_a_folder_of_something_else_and_a_pack_that_would_not_travel(tmp_path):
    data = _data(tmp_path)
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("keep me")
    with pytest.raises(PackError, match="not a lease pack"):
        pack(data, other, ("talks",), wheels=())
    assert (other / "notes.txt").read_text() == "keep me"
    with pytest.raises(PackError, match="over the lease"):
        pack(data, tmp_path / "big", ("talks",), wheels=(), tree=CARRY_LIMIT)
    with pytest.raises(PackError, match="no training text absent"):
        pack(data, tmp_path / "none", ("absent",), wheels=())
