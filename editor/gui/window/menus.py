"""The main window's menus, built from the table of actions (``editor.gui.base.actions``): every command
with its keys, in the order a person looks for it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial, reduce
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow, QMenu

from editor.gui.base import hotkeys
from editor.gui.base.actions import MENUS, WINDOW, Action, in_menu


def confident_text(high: float) -> str:
    """The Review menu's "accept all confident", with its threshold in percent as the list shows it."""
    return f"Accept all &confident (at or above {round(high * 100)} %)"


def resolve(window: object, path: str) -> Callable[..., object]:
    """What a handler's or predicate's path names on the window ("files.open_dialog")."""
    found = reduce(getattr, path.split("."), window)
    if not callable(found):
        raise TypeError(f"{path} is not callable on the window")
    return found


@dataclass
class Menus:
    """What the window keeps of its menus: each action by its id, each menu by its title, and the
    Open Recent submenu it fills when shown."""

    actions: dict[str, QAction]
    menus: dict[str, QMenu]
    recent: QMenu


def build_menus(window: QMainWindow) -> Menus:
    """The menu bar of ``window`` (the ``MainWindow``, whose handlers the table names) from the
    table. An action whose keys work everywhere gets them as shortcuts (working while the menu
    is closed); one whose keys belong to a part (the text view's review keys) shows them after a
    tab, without taking them over."""
    bar = window.menuBar()
    actions: dict[str, QAction] = {}
    menus: dict[str, QMenu] = {}
    recent: QMenu | None = None
    for title in MENUS:
        menu = bar.addMenu(f"&{title}")
        menus[title] = menu
        group: int | None = None
        for action in in_menu(title):
            if group is not None and action.group != group:
                menu.addSeparator()
            group = action.group
            if action.id == "file.recent":
                recent = menu.addMenu(action.title)
                continue
            actions[action.id] = make_action(window, menu, action)
        menu.aboutToShow.connect(partial(_enable, window, title, actions, True))
        menu.aboutToHide.connect(partial(_enable, window, title, actions, False))
    assert recent is not None  # (the table has it)
    return Menus(actions, menus, recent)


def make_action(window: QMainWindow, menu: QMenu, action: Action) -> QAction:
    made = QAction(action.title, window)
    if action.keys is not None:
        if action.context == WINDOW:
            made.setShortcuts(hotkeys.sequences(action.keys))
        else:
            made.setText(f"{action.title}\t{hotkeys.shortcut_text(action.keys)}")
    made.setStatusTip(action.does)
    made.setCheckable(action.checkable)
    if action.handler:
        handler, args = action.handler, action.args
        made.triggered.connect(lambda _=False: resolve(window, handler)(*args))
    menu.addAction(made)
    window.addAction(made)
    return made


def _enable(window: QMainWindow, title: str, actions: dict[str, QAction], showing: bool) -> None:
    """While a menu is open, an action that cannot act now is shown disabled; once it closes, every
    action is enabled again, so that its keys still reach it and it says why it cannot act."""
    for action in in_menu(title):
        if action.enabled_when and action.id in actions:
            actions[action.id].setEnabled(bool(resolve(window, action.enabled_when)()) if showing else True)
