"""packaging/screenshots.py and screenshots_help.py retake the user guide's screenshots: they still
run against the window as it is (the parts refactor once moved accept_all_dialog and broke it
unnoticed)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_screenshot_script_writes_every_picture(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, str(ROOT / "packaging" / "screenshots.py"), str(tmp_path)],
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    for name in ("decision.png", "editing.png", "accept-all.png", "export.png", "export-subtitles.png",
                 "cue-check.png", "settings.png", "not-restored.png"):
        assert (tmp_path / name).stat().st_size > 1000, name


def test_the_help_screenshot_script_writes_every_picture(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, str(ROOT / "packaging" / "screenshots_help.py"), str(tmp_path)],
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    for name in ("marks.png", "legend.png", "shortcuts.png", "tour.png", "about.png", "help.png"):
        assert (tmp_path / name).stat().st_size > 1000, name
