"""One way to type a host (docs/architecture.md, "How a part gets what it needs"): a part says
what it uses of the window or the view in a Protocol; no module of editor/gui names a type as
``Any`` to stand for its host, and none but the package's face imports the window's class."""

import ast
from pathlib import Path

import editor.gui

GUI = Path(editor.gui.__file__).parent


MAKERS = {"window/main_window.py", "app.py", "__init__.py"}


def loose_hosts(path: Path, where: str | None = None) -> list[str]:
    """``Name = Any`` aliases, and imports of ``MainWindow`` outside the modules that make or
    export it (its own, the application's ``app.py``, the package's face). ``where``: the
    module's path inside editor/gui, when it is not there."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = [f"{path.name}:{node.lineno}: {ast.unparse(node)}" for node in ast.walk(tree)
             if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Name)
             and node.value.id == "Any"]
    if (where or path.relative_to(GUI).as_posix()) not in MAKERS:
        found += [f"{path.name}:{node.lineno}: imports MainWindow" for node in ast.walk(tree)
                  if isinstance(node, ast.ImportFrom) and any(a.name == "MainWindow" for a in node.names)]
    return found


def test_no_gui_module_types_its_host_as_any_or_as_the_window_class():
    found = [line for path in sorted(GUI.rglob("*.py")) for line in loose_hosts(path)]
    assert not found, "\n".join(found)


def test_the_check_finds_a_loose_host(tmp_path):
    sample = tmp_path / "part.py"
    sample.write_text("from typing import Any\nView = Any\n"
                      "from editor.gui.window.main_window import MainWindow\n", encoding="utf-8")
    assert loose_hosts(sample, "text_view/part.py") == ["part.py:2: View = Any", "part.py:3: imports MainWindow"]
    assert loose_hosts(sample, "app.py") == ["part.py:2: View = Any"]
