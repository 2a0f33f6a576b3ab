"""The generated hostile inputs (tests/hostile.py) through `stet convert` as a user runs it: a
subprocess per case, on a sample of each kind. No traceback, exit 0/1/2 only, no hang, and an
import that exits 0 keeps the words."""

import subprocess
import sys

import pytest

from editor.core.formats import read_any
from tests import hostile

SAMPLE = ["special-fifo-txt", "special-dev_zero-json", "special-loop-srt", "special-socket-stet",
          "num-stet-tokens-0-start-huge_int", "num-whisper.json-segments-0-words-0-probability-object",
          "type-stet-suggestions-0-probs-list", "stet-lone_surrogate", "raw-deep_list-json",
          "enc-latin-utf-16-txt"]
CASES = {c.name: c for c in hostile.cases()}


@pytest.mark.parametrize("name", SAMPLE)
def test_hostile_input_through_the_command(tmp_path, name):
    case = CASES[name]
    try:
        path = case.build(tmp_path)
        out = tmp_path / "out.stet"
        result = subprocess.run([sys.executable, "-m", "editor", "convert", str(path), "-o", str(out)],
                                capture_output=True, text=True, timeout=60)
    finally:
        hostile.close_sockets()
    assert "Traceback" not in result.stderr and result.returncode in (0, 1, 2), result.stderr
    if result.returncode == 0:
        assert case.words is None or tuple(read_any(out).words()) == case.words
    else:
        errors = [x for x in result.stderr.splitlines() if x.startswith("stet: error: ")]
        assert len(errors) == 1 and str(path) in errors[0], result.stderr
        assert not out.exists()
