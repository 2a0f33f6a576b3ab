"""The one-way layering: core and the engines load no GUI, and core loads no torch or audio."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ["torch", "PySide6", "vosk", "sounddevice", "numpy", "av"]


def loaded_after(code: str) -> set[str]:
    probe = (f"import sys\n{code}\n"
             f"print('LOADED:' + ','.join(m for m in {HEAVY!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                         cwd=ROOT, timeout=120).stdout.strip()
    report = out.rpartition("LOADED:")[2]
    return set(filter(None, report.split(",")))


@pytest.mark.parametrize("code", [
    "import editor",
    "import editor.core",
    "import editor.core.formats",
    "from editor.core.formats import read_any, write_any",
    "import editor.cli",
    "import editor.media",
    "from editor.media import MEDIA_SUFFIXES, is_media",
])
def test_imports_load_nothing_heavy(code):
    assert loaded_after(code) == set()


def test_core_reads_and_writes_every_format_without_heavy_modules(tmp_path):
    sample = ROOT / "resources" / "samples" / "sample.srt"
    code = (f"from editor.core.formats import read_any, write_any, WRITERS\n"
            f"doc = read_any({str(sample)!r})\n"
            f"for ext in WRITERS: write_any(doc, {str(tmp_path)!r} + '/out' + ext)")
    assert loaded_after(code) == set()


def test_cli_version_and_help_load_nothing_heavy():
    assert loaded_after("from editor.cli import main\nmain(['--version'])") == set()
    code = ("from editor.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass")
    assert loaded_after(code) == set()


def test_import_contracts_hold():
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if lint is None:
        pytest.skip("import-linter is not installed")
    result = subprocess.run([lint], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
