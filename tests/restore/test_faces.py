"""Restoration's faces: editor.restore and each of its folders (model, passes, learning) export
their names lazily, so importing a face loads no torch, and every name a face lists is one that the
folder's modules define."""

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("model", "passes", "learning")


@pytest.mark.parametrize("face", ["editor.restore", *(f"editor.restore.{f}" for f in FOLDERS)])
def test_importing_a_face_loads_no_torch(face):
    code = f"import sys, {face}; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ROOT, timeout=120).stdout.strip()
    assert out == "False"


@pytest.mark.parametrize("folder", FOLDERS)
def test_a_folder_face_exports_names_its_own_modules_define(folder):
    face = importlib.import_module(f"editor.restore.{folder}")
    assert face.__all__ == sorted(face._EXPORTS)
    for name in face.__all__:
        module = importlib.import_module(f"editor.restore.{folder}.{face._EXPORTS[name]}")
        assert getattr(face, name) is getattr(module, name)


def test_the_restore_face_exports_each_name_from_a_folder_face():
    import editor.restore

    for name in editor.restore.__all__:
        folder = editor.restore._EXPORTS[name]
        assert getattr(editor.restore, name) is getattr(importlib.import_module(f"editor.restore.{folder}"), name)
