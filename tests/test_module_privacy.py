"""Outside the window (tests/gui/test_module_privacy.py has its own check), no module reads a
private attribute (``thing._name``) that it does not define itself, so a module's insides can
change without breaking another."""

import ast
from pathlib import Path

import editor

EDITOR = Path(editor.__file__).parent


def defined_privates(tree: ast.AST) -> set[str]:
    """The private names a module defines: its classes' methods and slots, and attributes it
    assigns on self."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(item.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets)
                and isinstance(node.value, (ast.Tuple, ast.List))):
            names.update(e.value for e in node.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str))
    return {n for n in names if n.startswith("_")}


def private_reads(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = defined_privates(tree)
    return [f"{path.name}:{node.lineno}: {ast.unparse(node)}" for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
            and node.attr not in own]


def test_no_module_outside_the_window_reads_another_modules_private_attributes():
    found = [line for path in sorted(EDITOR.rglob("*.py")) if "gui" not in path.relative_to(EDITOR).parts
             for line in private_reads(path)]
    assert not found, "\n".join(found)


def test_the_check_finds_a_private_read(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("class A:\n    def _mine(self, other):\n        self._x = other._mine()\n"
                      "        return other._theirs, self._x, argparse._Action\n", encoding="utf-8")
    assert private_reads(sample) == ["sample.py:4: other._theirs", "sample.py:4: argparse._Action"]


def private_imports(path: Path) -> list[str]:
    """Private names (``_name``) a module imports from another module of editor: what is private
    to a module stays there, whatever the module (``_common`` of the formats is a module of the
    package's own, not a private name)."""
    def is_module(module: str, name: str) -> bool:
        where = EDITOR.parent.joinpath(*module.split("."), name)
        return where.with_suffix(".py").exists() or where.is_dir()

    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"{path.name}:{node.lineno}: from {node.module} import {alias.name}"
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("editor")
            for alias in node.names if alias.name.startswith("_") and not alias.name.startswith("__")
            and not is_module(node.module or "", alias.name)]


def test_no_module_imports_another_modules_private_names():
    found = [line for path in sorted(EDITOR.rglob("*.py")) for line in private_imports(path)]
    assert not found, "\n".join(found)


def test_the_check_finds_a_private_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from editor.core.formats.stet import _token, read_stet\n"
                      "from editor.core.formats import _common\nfrom os import _exit\n", encoding="utf-8")
    assert private_imports(sample) == ["sample.py:1: from editor.core.formats.stet import _token"]
