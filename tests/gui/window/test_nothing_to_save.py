"""With nothing open, Save, Save As and Export say so in the status bar instead of offering an
empty "untitled.stet" (or an empty export); once there are words, they save as ever."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from editor.gui.window import files as window_files


@pytest.fixture
def dialogs(window, monkeypatch):
    """Every file or export dialog the window would show, recorded and cancelled; a question
    about unsaved work is recorded and answered "Discard" (closing at the end asks it too)."""
    shown = []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda _parent, title, *a, **k: shown.append(title) or QMessageBox.StandardButton.Discard)
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda _parent, title, *a, **k: shown.append(title) or ("", ""))
    monkeypatch.setattr(window_files, "run_modal", lambda dialog: shown.append("export") and False)
    window.interactive = True
    return shown


def action(window, text):
    (found,) = [a for m in window.menuBar().actions() for a in m.menu().actions() if a.text() == text]
    return found


@pytest.mark.parametrize("text, said", [("&Save", "save"), ("Save &As…", "save"), ("&Export…", "export")])
def test_with_nothing_open_saving_says_there_is_nothing(window, dialogs, text, said):
    assert len(window.transcript) == 0 and window.source is None
    action(window, text).trigger()
    assert dialogs == []
    assert f"Nothing to {said}" in window.statusBar().currentMessage()


def test_typed_words_save_as_ever(window, dialogs):
    window.view.edit_characters(0, 0, "typed words")
    assert len(window.transcript) == 2
    action(window, "&Save").trigger()
    action(window, "&Export…").trigger()
    assert dialogs[:2] == ["Save session", "export"]


def test_closing_an_emptied_untitled_window_asks_nothing(window, dialogs):
    """Typed into and emptied again, an untitled window has no work to lose."""
    window.view.edit_characters(0, 0, "typed")
    window.view.edit_characters(0, len("typed"), "")
    assert len(window.transcript) == 0 and window.dirty
    assert window.may_discard() and dialogs == []
