"""The window and the text view are made of parts given what they use, not stacks of mixins:
no class of editor/gui inherits from more than one class of the project."""

import importlib
import inspect
import pkgutil

import editor.gui


def _project_bases(cls: type) -> list[str]:
    return [f"{b.__module__}.{b.__qualname__}" for b in cls.__bases__
            if b.__module__ == "editor" or b.__module__.startswith("editor.")]


def _gui_classes() -> list[type]:
    found = []
    for info in pkgutil.walk_packages(editor.gui.__path__, "editor.gui."):
        module = importlib.import_module(info.name)
        found += [c for _, c in inspect.getmembers(module, inspect.isclass) if c.__module__ == info.name]
    return found


def test_no_gui_class_inherits_from_two_classes_of_the_project():
    classes = _gui_classes()
    assert any(c.__name__ == "MainWindow" for c in classes)  # the walk reached the window's modules
    stacked = {f"{c.__module__}.{c.__qualname__}": bases for c in classes
               if len(bases := _project_bases(c)) > 1}
    assert stacked == {}


def test_the_check_sees_a_class_with_two_project_bases():
    from editor.gui.text_view.build import TextBuilder
    from editor.gui.text_view.pointer import Pointer

    class Stacked(TextBuilder, Pointer):
        pass

    assert len(_project_bases(Stacked)) == 2
