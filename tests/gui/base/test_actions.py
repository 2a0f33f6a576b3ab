"""The table of actions (editor/gui/base/actions.py) is what the menus, the shortcut sheet and the tour are
built from: every handler it names exists on the window, no two actions share a key where both
work, and the menus are the table's."""

from __future__ import annotations

import itertools

import pytest

from editor.gui.base import hotkeys
from editor.gui.base.actions import ACTIONS, BY_ID, MENUS, PRECEDENCE, WINDOW
from editor.gui.window.menus import resolve


def _sequences(action):
    return {s.toString() for s in hotkeys.sequences(action.keys)} if action.keys is not None else set()


def test_ids_are_unique():
    assert len(BY_ID) == len(ACTIONS)


def test_no_two_actions_share_a_key_where_both_work(qapp):
    """Within a context no key is shared; a window-wide key (a shortcut that fires anywhere) is
    shared with nothing; two other contexts share a key only where PRECEDENCE says which wins."""
    clashes = []
    for a, b in itertools.combinations([x for x in ACTIONS if x.keys is not None], 2):
        shared = _sequences(a) & _sequences(b)
        if not shared:
            continue
        if a.context == b.context or WINDOW in (a.context, b.context):
            clashes.append((a.id, b.id, shared))
        elif not all(key in PRECEDENCE and {a.context, b.context} == set(PRECEDENCE[key]) for key in shared):
            clashes.append((a.id, b.id, shared))
    assert clashes == []


def test_the_check_sees_a_clash(qapp, monkeypatch):
    from editor.gui.base import actions

    twin = actions.Action("edit.twin", "Twin", "a second Ctrl+Z", "Edit", hotkeys.UNDO)
    pairs = [(a.id, b.id) for a, b in itertools.combinations([*ACTIONS, twin], 2)
             if a.keys is not None and b.keys is not None and _sequences(a) & _sequences(b)
             and (a.context == b.context or WINDOW in (a.context, b.context))]
    assert ("edit.undo", "edit.twin") in pairs


def test_every_handler_and_predicate_is_on_the_window(window):
    for action in ACTIONS:
        for path in filter(None, (action.handler, action.enabled_when)):
            assert callable(resolve(window, path)), (action.id, path)
        if action.menu:
            assert action.menu in MENUS


def test_the_menus_are_the_table(window):
    bar = {a.text().replace("&", ""): a.menu() for a in window.menuBar().actions()}
    assert list(bar) == list(MENUS)
    for title in MENUS:
        shown = [a.text().split("\t")[0] for a in bar[title].actions() if not a.isSeparator()]
        listed = [a.title for a in ACTIONS if a.menu == title]
        if title == "Review":  # its accept-confident entry says the threshold
            shown = [t if not t.startswith("Accept all &confident") else "Accept all &confident" for t in shown]
        assert shown == listed, title


def test_a_command_that_cannot_act_is_disabled_while_its_menu_is_open(window):
    """With nothing open, Speakers > Rename is shown disabled; once the menu closes it is enabled
    again, so that its key still reaches it and it says why it cannot act."""
    rename = window.menu_actions["speakers.rename"]
    speakers = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Speakers")
    speakers.aboutToShow.emit()
    assert not window.has_document() and not rename.isEnabled()
    speakers.aboutToHide.emit()
    assert rename.isEnabled()


@pytest.mark.parametrize("action_id", ["view.zoom_in", "review.accept_all"])
def test_a_menu_entry_runs_its_handler_with_its_arguments(window, monkeypatch, action_id):
    seen = []
    name = BY_ID[action_id].handler
    monkeypatch.setattr(window, name, lambda *args: seen.append(args))
    window.menu_actions[action_id].trigger()
    assert seen == [BY_ID[action_id].args]
