"""`stet restore` over many files: on worker processes and on a local Ray cluster, with the same
outputs as file-by-file runs (a tiny model, so that the test is about the batch, not the model)."""

import os
import subprocess
import sys
import time

import pytest

from editor.core.paths import resource_path

TEXT = "so what is the iphone for i asked and you said it is okay and we went on "


def stet(*args, **kw):
    return subprocess.run([sys.executable, "-m", "editor", *map(str, args)], capture_output=True,
                          text=True, timeout=600, **kw)


@pytest.fixture(scope="module")
def batch(tiny_model_dir, tmp_path_factory):
    """A folder with a sub-folder, three formats and an empty file, restored as one batch."""
    root = tmp_path_factory.mktemp("batch")
    src = root / "in"
    (src / "sub").mkdir(parents=True)
    (src / "a.txt").write_text(TEXT * 40)
    (src / "sub" / "b.txt").write_text(TEXT * 3 + "\n\n" + TEXT * 2)
    (src / "c.srt").write_bytes(resource_path("samples", "sample.srt").read_bytes())
    (src / "empty.txt").write_text("")
    run = stet("restore", src, "-r", "-o", root / "out", "-j", "2", "--model", tiny_model_dir,
               "--device", "cpu")
    return root, run


def outputs(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_batch_writes_what_file_by_file_runs_write_and_a_bad_file_stops_nothing(batch, tiny_model_dir):
    root, run = batch
    assert run.returncode == 1, run.stderr  # the empty file failed
    err = run.stderr
    assert "empty.txt: the file is empty" in err and "Traceback" not in err, err
    assert "restored 3 of 4 files" in err and "1 failed" in err, err
    got = outputs(root / "out")
    assert sorted(got) == ["a.txt", "c.srt", os.path.join("sub", "b.txt")]
    for name, data in got.items():
        single = root / "single" / name
        single.parent.mkdir(parents=True, exist_ok=True)
        r = stet("restore", root / "in" / name, "-o", single, "--model", tiny_model_dir, "--device", "cpu")
        assert r.returncode == 0, r.stderr
        assert single.read_bytes() == data, name
    assert not list((root / "out").rglob(".*.tmp"))  # nothing half-written left behind


def test_a_batch_run_again_skips_what_is_done_and_force_redoes_it(batch, tiny_model_dir):
    root, _ = batch
    common = ("-r", "-o", root / "out", "--model", tiny_model_dir, "--device", "cpu", "-j", "1")
    again = stet("restore", root / "in", *common)
    assert "3 skipped" in again.stderr and "restored 0 of" in again.stderr, again.stderr
    later = time.time() + 5
    os.utime(root / "in" / "a.txt", (later, later))  # the input changed after its output
    stale = stet("restore", root / "in" / "a.txt", root / "in" / "c.srt", *common)
    assert stale.returncode == 1 and "older than its input" in stale.stderr and "--force" in stale.stderr
    forced = stet("restore", root / "in" / "a.txt", *common, "--force")
    assert forced.returncode == 0 and "restored 1 of 1 files" in forced.stderr, forced.stderr


def test_a_local_ray_cluster_gives_the_same_outputs(batch, tiny_model_dir):
    import ray  # noqa: F401

    root, _ = batch
    run = stet("restore", root / "in", "-r", "-o", root / "ray", "--ray", "local", "-j", "2",
               "--model", tiny_model_dir, "--device", "cpu")
    assert run.returncode == 1 and "empty.txt: the file is empty" in run.stderr, run.stderr
    assert "restored 3 of 4 files" in run.stderr, run.stderr
    assert outputs(root / "ray") == outputs(root / "out")
