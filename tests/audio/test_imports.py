"""Playback loads what it needs only when used: `import editor.audio` is free, and a Player without
a device never needs Qt."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def loaded_after(code: str) -> set[str]:
    probe = (f"import sys\n{code}\n"
             "print('LOADED:' + ','.join(m for m in ['numpy', 'sounddevice', 'av', 'audiotsm', "
             "'PySide6'] if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                         cwd=ROOT, timeout=120).stdout
    return set(filter(None, out.rpartition("LOADED:")[2].strip().split(",")))


def test_importing_the_package_loads_nothing_heavy():
    assert loaded_after("import editor.audio") == set()


def test_a_player_never_loads_qt():
    code = ("from editor.audio import Player, PcmAudio\nimport numpy as np\n"
            "p = Player()\np.set_audio(PcmAudio(np.zeros((800, 1), np.int16), 8000))\np.seek(0.05)")
    assert "PySide6" not in loaded_after(code)
