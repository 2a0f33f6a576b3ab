"""Settings shared by every test: Qt draws offscreen, so the suite runs without a display."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
