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


def test_the_window_imports_asr_through_its_face():
    """editor.gui asks editor.asr for what it needs by the names the package exports, so the
    package's insides can change without the window noticing."""
    import ast
    from pathlib import Path

    gui = Path(editor.asr.__file__).parent.parent / "gui"
    inside = []
    for path in sorted(gui.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("editor.asr."):
                inside.append(f"{path.name}:{node.lineno}: from {node.module}")
            elif isinstance(node, ast.ImportFrom) and node.module == "editor.asr":
                inside += [f"{path.name}:{node.lineno}: {a.name} is not exported"
                           for a in node.names if a.name not in editor.asr.__all__]
    assert not inside, "\n".join(inside)
