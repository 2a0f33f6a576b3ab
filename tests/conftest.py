"""Settings shared by every test: Qt draws offscreen, so the suite runs without a display; the Qt
workaround the app applies at start; and, with STET_REQUIRE_SYSTEM=1, no silent skips for
missing system packages (tests/system_required.py)."""

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The person's own Stet data (user lexicon, what reviews taught, recovery files, settings) is never
# the tests': a test that saves a reviewed project would teach the real profile ("one" -> "One" was
# found in a developer's lexicon) and leave recovery files the next start offers. Every test runs
# with its own folders (tests/gui/conftest.py gives each GUI test fresh ones on top of these).
_OWN = Path(tempfile.mkdtemp(prefix="stet-tests-"))
for _var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
    os.environ[_var] = str(_OWN / _var.lower())
atexit.register(shutil.rmtree, _OWN, ignore_errors=True)
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # tests.*, also when pytest is not run as `python -m pytest`
    sys.path.insert(0, str(ROOT))

from editor.core.process import make_singletons_immortal  # noqa: E402  (after the path is set)
from tests.system_required import pytest_runtest_makereport  # noqa: E402, F401  (a hook, found here)

# The editor calls this when its window starts (editor.core.process.configure_process); the Qt
# tests create windows without that start, and on Python 3.11 PySide6 needs it (see there).
make_singletons_immortal()

# Property tests draw the same examples on every run (a suite that fails one run in ten turns away
# good work): what a random draw once found is kept as an explicit case beside its test. To explore
# new draws on purpose: HYPOTHESIS_PROFILE=explore pytest tests/core/formats/test_hostile_fuzz.py
from hypothesis import settings as _hypothesis  # noqa: E402

_hypothesis.register_profile("suite", derandomize=True, database=None)
_hypothesis.register_profile("explore", derandomize=False)
_hypothesis.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))


#: Four cues as a film's subtitles have them: one within every limit, one said too fast (42
#: characters a second), one with a first line too long (59 characters), one without a word.
OVER_LIMITS_SRT = """1
00:00:01,000 --> 00:00:04,000
A short line.

2
00:00:05,000 --> 00:00:06,000
This cue says far too much for one second.

3
00:00:07,000 --> 00:00:10,000
and this one has a first line that runs on for far too long
but a short second one.

4
00:00:11,000 --> 00:00:12,000
♪ ♪
"""


@pytest.fixture
def over_limits_srt(tmp_path: Path) -> Path:
    """film.srt with OVER_LIMITS_SRT: the check of cues' file, in core and in the window."""
    path = tmp_path / "film.srt"
    path.write_text(OVER_LIMITS_SRT, encoding="utf-8")
    return path
