"""The one-way layering: core and the engines load no GUI, and core loads no torch or audio."""

import os
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


@pytest.mark.parametrize("tool, args", [("ruff", ["check", "editor", "tests"]), ("mypy", [])])
def test_lint_and_types_pass(tool, args):
    """The checks `make test` runs before pytest, here too so that a run of the suite shows them:
    ruff (pyproject's rule set) over editor/ and tests/, mypy (strict) over the files pyproject's
    [tool.mypy] names."""
    exe = shutil.which(tool, path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip(f"{tool} is not installed (pip install -e '.[dev]')")
    result = subprocess.run([exe, *args], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr


def test_import_contracts_hold():
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if lint is None:
        pytest.skip("import-linter is not installed")
    result = subprocess.run([lint], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


def import_cycles(graph) -> list[list[str]]:
    """Groups of modules that import each other, directly or round a loop (Tarjan's strongly
    connected components), counting imports made inside functions too."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in graph.find_modules_directly_imported_by(module):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = [stack.pop()]
            while group[-1] != module:
                group.append(stack.pop())
            if len(group) > 1:
                cycles.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return cycles


def test_no_import_cycles_in_editor():
    import grimp  # installed with import-linter (the dev extra)
    graph = grimp.build_graph("editor", cache_dir=None)
    assert import_cycles(graph) == []


def test_the_cycle_finder_finds_a_loop():
    class Graph:
        modules = {"a", "b", "c", "d"}
        edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}

        def find_modules_directly_imported_by(self, module):
            return self.edges.get(module, set())

    assert import_cycles(Graph()) == [["a", "b", "c"]]


@pytest.mark.parametrize("required, expected", [("1", "1 failed, 1 skipped"), ("", "2 skipped")])
def test_a_skip_for_a_missing_system_package_fails_when_required(tmp_path, required, expected):
    (tmp_path / "test_needs.py").write_text(
        "import pytest\n\ndef test_speech():\n"
        "    pytest.skip('espeak-ng is not installed (apt-get install espeak-ng)')\n\n"
        "def test_other():\n    pytest.skip('not relevant here')\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "STET_REQUIRE_SYSTEM": required}
    result = subprocess.run([sys.executable, "-m", "pytest", "-p", "tests.system_required", "-q",
                             "-p", "no:cacheprovider", "-p", "no:randomly", str(tmp_path)],
                            capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert expected in result.stdout, result.stdout
    assert result.returncode == (1 if required else 0), result.stdout
