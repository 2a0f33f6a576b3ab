"""Settings shared by every test: Qt draws offscreen, so the suite runs without a display; the Qt
workaround the app applies at start; and, with STET_REQUIRE_SYSTEM=1, no silent skips for
missing system packages (tests/system_required.py)."""

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # tests.*, also when pytest is not run as `python -m pytest`
    sys.path.insert(0, str(ROOT))

from editor.core.process import make_singletons_immortal  # noqa: E402  (after the path is set)
from tests.system_required import pytest_runtest_makereport  # noqa: E402, F401  (a hook, found here)

# The editor calls this when its window starts (editor.core.process.configure_process); the Qt
# tests create windows without that start, and on Python 3.11 PySide6 needs it (see there).
make_singletons_immortal()
