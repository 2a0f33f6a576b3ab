"""Opening asks whether to save unsaved work only once a file is chosen, and only once: cancelling
the file dialog asked for nothing, and cancelling the question keeps the work as it is. A file that
cannot be opened (an empty .mp3, a text file named .wav, a broken transcript) is found out before
anything is asked: one message, and the open work, its title and its undo steps stay."""

from __future__ import annotations

import wave

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
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
    window.warned = []
    monkeypatch.setattr(QMessageBox, "warning",
                        lambda _parent, title, text, *a, **k: window.warned.append(f"{title}: {text}"))
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
    from editor.gui.work.opening import BACKGROUND_BYTES

    big = tmp_path / "big.txt"
    big.write_text(" ".join(["word"] * (BACKGROUND_BYTES // 4)), encoding="utf-8")
    typed.answer = QMessageBox.StandardButton.Discard
    with qtbot.waitSignal(typed.opening.finished, timeout=60_000) as done:
        typed.files._open_recent(str(big))
    assert done.args == ["opened"] and typed.source == big
    assert len(typed.asked) == 1, typed.asked


def _not_openable(tmp_path, kind):
    """Files users chose that cannot be opened: found out only once the work was let go."""
    if kind == "empty.mp3":
        path = tmp_path / "empty.mp3"
        path.write_bytes(b"")
    elif kind == "notes.wav":  # a text file named as a recording
        path = tmp_path / "notes.wav"
        path.write_text("not a recording, just notes\n" * 20, encoding="utf-8")
    elif kind == "silence.wav":  # a WAV header and no samples
        path = tmp_path / "silence.wav"
        with wave.open(str(path), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(16_000)
    elif kind == "broken.json":
        path = tmp_path / "broken.json"
        path.write_text('{"text": "a Whisper file cut sho', encoding="utf-8")
    else:  # a large broken transcript: read in the background
        from editor.gui.work.opening import BACKGROUND_BYTES

        path = tmp_path / "broken-big.json"
        path.write_text('{"segments": [' + '{"text": "word"},' * (BACKGROUND_BYTES // 16), encoding="utf-8")
    return path


def _as_it_was(window, warned_about):
    assert window.asked == [], "asked about the open work for a file that cannot be opened"
    assert len(window.warned) == 1 and window.warned[0].startswith("Cannot open"), window.warned
    assert warned_about in window.warned[0]
    assert window.transcript.words()[0] == "typed" and window.dirty
    assert window.source.name == "talk.txt" and window.windowTitle().startswith("talk")
    assert window.transcript.history.can_undo and not window.transcription.running


@pytest.mark.parametrize("kind", ["empty.mp3", "notes.wav", "silence.wav", "broken.json"])
def test_a_file_that_cannot_be_opened_leaves_the_work_as_it_was(typed, tmp_path, monkeypatch, kind):
    path = _not_openable(tmp_path, kind)
    typed.answer = QMessageBox.StandardButton.Discard
    title = typed.windowTitle()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    monkeypatch.setattr(typed.transcription, "ask_language",
                        lambda *a: pytest.fail("the language was asked for a file that cannot be opened"))
    typed.files.open_dialog()
    _as_it_was(typed, path.name)
    assert typed.windowTitle() == title


def test_a_large_broken_transcript_asks_nothing(typed, qtbot, tmp_path):
    path = _not_openable(tmp_path, "broken-big.json")
    typed.answer = QMessageBox.StandardButton.Discard
    with qtbot.waitSignal(typed.opening.finished, timeout=60_000) as done:
        typed.files.open_chosen(path)
    assert done.args == ["failed"]
    _as_it_was(typed, path.name)


def test_the_recent_list_and_a_drop_check_first_too(typed, tmp_path):
    recent, dropped = _not_openable(tmp_path, "empty.mp3"), _not_openable(tmp_path, "notes.wav")
    typed.answer = QMessageBox.StandardButton.Discard
    typed.files._open_recent(str(recent))
    _as_it_was(typed, recent.name)
    typed.warned.clear()
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(dropped))])
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, data, Qt.MouseButton.NoButton,
                       Qt.KeyboardModifier.NoModifier)
    typed.files.drop(event)
    _as_it_was(typed, dropped.name)


def test_a_recording_that_opens_asks_then_transcribes(typed, tmp_path, monkeypatch):
    """A half second of sound is enough: the question comes, then transcription (which asks the
    language), in that order."""
    path = tmp_path / "tone.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16_000)
        w.writeframes(bytes(range(256)) * 250)  # 2 s of (noisy) sound
    typed.answer = QMessageBox.StandardButton.Discard
    calls = []
    monkeypatch.setattr(typed.transcription, "open",
                        lambda p: calls.append((p, typed.asked[:])) or None)
    typed.files.open_chosen(path)
    assert calls == [(path, [typed.asked[0]])] and "Save the changes" in typed.asked[0]
    assert typed.warned == []
