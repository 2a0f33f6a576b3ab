"""Opening asks whether to save unsaved work only once a file is chosen, and only once: cancelling
the file dialog asked for nothing, and cancelling the question keeps the work as it is."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox


@pytest.fixture
def typed(window, tmp_path, monkeypatch):
    """The window with unsaved work, a person answering (each question recorded)."""
    source = tmp_path / "talk.txt"
    source.write_text("the words of the talk", encoding="utf-8")
    window.open_path(source)
    window.cancel_restoration()
    window.view.edit_characters(0, 0, "typed ")
    assert window.dirty
    window.interactive = True
    window.asked = []
    window.answer = QMessageBox.StandardButton.Cancel

    def question(_parent, title, text, *args, **kwargs):
        window.asked.append(f"{title}: {text}")
        return window.answer

    monkeypatch.setattr(QMessageBox, "question", question)
    return window


def test_cancelling_the_file_dialog_asks_nothing(typed, monkeypatch):
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: ("", ""))
    typed.files.open_dialog()
    assert typed.asked == []
    assert typed.dirty and typed.transcript.words()[0] == "typed"


def test_a_chosen_file_asks_then_cancel_keeps_the_work(typed, tmp_path, monkeypatch):
    other = tmp_path / "other.txt"
    other.write_text("something else entirely", encoding="utf-8")
    picked = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        lambda *a, **k: picked.append(typed.asked[:]) or (str(other), ""))
    typed.files.open_dialog()
    assert picked == [[]]  # the file first
    assert len(typed.asked) == 1 and "Save the changes" in typed.asked[0]
    assert typed.transcript.words()[0] == "typed" and typed.source != other


def test_a_large_recent_file_asks_once(typed, qtbot, tmp_path):
    """Read in the background, it is asked about when the read ends: asked before as well, a
    "Discard" left the work modified and the same question came again."""
    from editor.gui.opening import BACKGROUND_BYTES

    big = tmp_path / "big.txt"
    big.write_text(" ".join(["word"] * (BACKGROUND_BYTES // 4)), encoding="utf-8")
    typed.answer = QMessageBox.StandardButton.Discard
    with qtbot.waitSignal(typed.opening.finished, timeout=60_000) as done:
        typed.files._open_recent(str(big))
    assert done.args == ["opened"] and typed.source == big
    assert len(typed.asked) == 1, typed.asked
