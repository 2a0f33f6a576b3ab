"""The window's modules talk through public names: none reads another object's private attribute
(``thing._name``), so a module's insides can change without breaking another."""

import ast
from pathlib import Path

import editor.gui

GUI = Path(editor.gui.__file__).parent

def private_reads(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = {"self", "cls"} | {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                and not node.attr.startswith("__")):
            continue
        target = node.value
        if isinstance(target, ast.Name) and target.id in own:
            continue
        if isinstance(target, ast.Call) and isinstance(target.func, ast.Name) and target.func.id == "super":
            continue
        found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_gui_module_reads_another_objects_private_attributes():
    found = [line for path in sorted(GUI.rglob("*.py")) for line in private_reads(path)]
    assert not found, "\n".join(found)


def test_the_check_finds_a_private_read(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("class A:\n    def f(self, w):\n        self._ok = A._also_ok\n"
                      "        return w._error\n", encoding="utf-8")
    assert private_reads(sample) == ["sample.py:4: w._error"]
