"""The public face of editor.asr: every advertised name resolves, and importing it stays cheap."""

from __future__ import annotations

import subprocess
import sys

import editor.asr


def test_every_exported_name_resolves():
    for name in editor.asr.__all__:
        assert getattr(editor.asr, name) is not None, name


def test_importing_asr_loads_neither_vosk_nor_pyav():
    code = ("import sys, editor.asr, editor.asr.cli; "
            "print(sorted(m for m in ('vosk', 'av', 'numpy', 'torch', 'PySide6') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
