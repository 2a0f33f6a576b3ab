"""Settings shared by every test: Qt draws offscreen, so the suite runs without a display."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from editor.core.process import make_singletons_immortal

# The editor calls this when its window starts (editor.core.process.configure_process); the Qt
# tests create windows without that start, and on Python 3.11 PySide6 needs it (see there).
make_singletons_immortal()
