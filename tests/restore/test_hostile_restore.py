"""`stet restore` on generated hostile inputs (tests/hostile.py), in a subprocess with a tiny model:
no traceback, exit 1 with one line, no hang, nothing written."""

import subprocess
import sys

import pytest

from tests import hostile

CASES = {c.name: c for c in hostile.cases()}


@pytest.mark.parametrize("name", ["special-fifo-txt", "num-stet-metadata-duration-huge_int",
                                  "type-stet-tokens-0-object"])
def test_restore_refuses_hostile_input_in_one_line(tiny_model_dir, tmp_path, name):
    path = CASES[name].build(tmp_path)
    out = tmp_path / "out.stet"
    r = subprocess.run([sys.executable, "-m", "editor", "restore", str(path), "-o", str(out),
                        "--model", str(tiny_model_dir), "--device", "cpu"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.startswith("stet: error: ") and r.stderr.count("\n") == 1
    assert not out.exists()
