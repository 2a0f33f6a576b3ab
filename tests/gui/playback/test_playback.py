"""Listening in the main window: the bar appears for a transcript with audio, Ctrl+click plays
from a word, and the word being played is highlighted — on the fake output, and on the real
sounddevice backend over ALSA's null device."""

from __future__ import annotations

import sys
import time
import wave
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # tests.fakes, also when pytest is not run as `python -m pytest`
    sys.path.insert(0, str(ROOT))

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QTextCursor  # noqa: E402

from editor.audio import Player, SoundDeviceBackend  # noqa: E402
from editor.core import Metadata, Token, Transcript  # noqa: E402
from editor.core.settings import Settings  # noqa: E402
from editor.gui.playback.playback import PlaybackController, resolve_audio  # noqa: E402
from tests.audio.devices import NULL_DEVICE, alsa_config  # noqa: E402
from tests.fakes.audio import FakeOutputBackend  # noqa: E402

RATE = 16_000
WORDS = [("so", 0.0, 0.4), ("the", 0.5, 0.7), ("seed", 0.8, 1.2), ("library", 1.3, 1.9),
         ("opens", 2.2, 2.6), ("today", 2.7, 3.0)]


def write_wav(path: Path, seconds: float = 3.0) -> Path:
    t = np.arange(round(seconds * RATE)) / RATE
    pcm = np.round(0.3 * np.sin(2 * np.pi * 220 * t) * 32767).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm.tobytes())
    return path


def timed_doc(audio_file: str | None) -> Transcript:
    return Transcript([Token(w, start=s, end=e) for w, s, e in WORDS],
                      metadata=Metadata(audio_file=audio_file))


@pytest.fixture
def window(qtbot):
    from editor.gui import MainWindow

    w = MainWindow(Settings(), interactive=False)
    qtbot.addWidget(w)
    w.resize(900, 600)
    w.show()
    qtbot.waitExposed(w)
    return w


def attach(window, qtbot, player: Player, doc: Transcript) -> PlaybackController:
    """The window's own controller, on ``player``, with ``doc`` open and its audio loaded."""
    playback = window.playback
    playback.make_player = lambda: player
    window.set_transcript(doc, restore=False)
    assert playback.player is player
    qtbot.waitUntil(lambda: player.audio is not None, timeout=10000)
    return playback


def ctrl_click_word(qtbot, view, index: int) -> None:
    start, _, _ = view.token_range(index)
    cursor = QTextCursor(view.document())
    cursor.setPosition(start + 1)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier,
                     view.cursorRect(cursor).center())


def highlighted_text(view) -> str | None:
    selections = view.extraSelections()
    return selections[0].cursor.selectedText() if selections else None


def test_ctrl_click_plays_from_the_word_and_the_highlight_follows(window, qtbot, tmp_path):
    output = FakeOutputBackend(rate=RATE)
    playback = attach(window, qtbot, Player(output), timed_doc(str(write_wav(tmp_path / "a.wav"))))
    assert playback.bar.isVisible()
    view = window.view
    ctrl_click_word(qtbot, view, 2)
    assert playback.player.playing
    assert playback.player.position == pytest.approx(0.8)
    assert highlighted_text(view) == "seed"
    output.advance(0.6)  # into "library"
    qtbot.waitUntil(lambda: highlighted_text(view) == "library", timeout=1000)
    output.advance(0.7)  # the pause before "opens": nothing is being said
    qtbot.waitUntil(lambda: highlighted_text(view) is None, timeout=1000)
    output.advance(0.3)
    qtbot.waitUntil(lambda: highlighted_text(view) == "opens", timeout=1000)
    # a plain click still only moves the caret
    start, _, _ = view.token_range(0)
    cursor = QTextCursor(view.document())
    cursor.setPosition(start + 1)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.cursorRect(cursor).center())
    assert playback.player.position > 2.0


def test_a_transcript_without_audio_hides_the_bar(window, qtbot, tmp_path):
    output = FakeOutputBackend(rate=RATE)
    playback = attach(window, qtbot, Player(output), timed_doc(str(write_wav(tmp_path / "a.wav"))))
    window.set_transcript(timed_doc(None), restore=False)
    assert not playback.bar.isVisible() and playback.player.audio is None
    window.set_transcript(timed_doc(str(tmp_path / "moved.wav")), restore=False)
    assert not playback.bar.isVisible()
    assert "moved.wav was not found" in window.statusBar().currentMessage()


def test_an_untimed_word_says_so(window, qtbot, tmp_path):
    output = FakeOutputBackend(rate=RATE)
    doc = Transcript([Token("hello", start=0.0, end=0.5), Token("there")],
                     metadata=Metadata(audio_file=str(write_wav(tmp_path / "a.wav"))))
    playback = attach(window, qtbot, Player(output), doc)
    ctrl_click_word(qtbot, window.view, 1)
    assert not playback.player.playing
    assert "no time" in window.statusBar().currentMessage()


def test_audio_next_to_a_moved_project_is_found(tmp_path):
    (tmp_path / "project").mkdir()
    audio = write_wav(tmp_path / "project" / "talk.wav")
    source = tmp_path / "project" / "talk.stet"
    assert resolve_audio("talk.wav", source) == audio
    assert resolve_audio("/somewhere/else/talk.wav", source) == audio  # moved together
    assert resolve_audio(str(audio), None) == audio
    assert resolve_audio("nowhere.wav", source) is None
    assert resolve_audio(None, source) is None


def test_click_to_seek_and_follow_on_the_null_device(window, qtbot, tmp_path):
    with alsa_config(NULL_DEVICE, tmp_path):
        player = Player(SoundDeviceBackend())
        assert player.available
        playback = attach(window, qtbot, player, timed_doc(str(write_wav(tmp_path / "a.wav"))))
        seen = []
        playback.bar.position_changed.connect(lambda s: seen.append(highlighted_text(window.view)))
        ctrl_click_word(qtbot, window.view, 3)
        assert seen[0] == "library"  # the seek lands on the word before the sound starts
        # the null device takes the rest at once; the bar notices the end at its next poll
        qtbot.waitUntil(lambda: not player.playing and player.position == pytest.approx(3.0),
                        timeout=5000)
        qtbot.waitUntil(lambda: playback.bar.time_label.text() == "0:03 / 0:03", timeout=1000)
        assert player.notice is None
        playback.close()
        time.sleep(0.01)


def test_the_word_being_played_is_kept_in_view(window, qtbot, tmp_path):
    output = FakeOutputBackend(rate=RATE)
    tokens = [Token(f"word{i}", start=i * 0.05, end=(i + 1) * 0.05) for i in range(1200)]
    doc = Transcript(tokens, paragraph_starts=range(0, 1200, 10),
                     metadata=Metadata(audio_file=str(write_wav(tmp_path / "a.wav", 60.0))))
    playback = attach(window, qtbot, Player(output), doc)
    bar = window.view.verticalScrollBar()
    assert bar.value() == 0 and bar.maximum() > 0
    playback.bar.seek(50.0)
    assert bar.value() == 0  # a paused seek does not scroll: the person may be reading elsewhere
    playback.bar.toggle()
    output.advance(0.1)
    qtbot.waitUntil(lambda: bar.value() > 0, timeout=1000)
    index = playback._highlighted
    assert index is not None and index * 0.05 == pytest.approx(50.1, abs=0.06)
    start, _, _ = window.view.token_range(index)
    cursor = QTextCursor(window.view.document())
    cursor.setPosition(start)
    assert window.view.viewport().rect().contains(window.view.cursorRect(cursor).center())


def test_no_player_until_a_transcript_has_audio(window, qtbot, tmp_path):
    made = []

    def make_player():
        made.append(Player(FakeOutputBackend(rate=RATE)))
        return made[-1]

    playback = window.playback
    playback.make_player = make_player
    window.set_transcript(timed_doc(None), restore=False)
    ctrl_click_word(qtbot, window.view, 1)  # nothing to play: nothing happens
    assert made == [] and playback.bar is None
    window.set_transcript(timed_doc(str(write_wav(tmp_path / "a.wav"))), restore=False)
    assert len(made) == 1 and playback.bar.isVisible()
    qtbot.waitUntil(lambda: made[0].audio is not None, timeout=10000)
    window.set_transcript(timed_doc(str(write_wav(tmp_path / "b.wav"))), restore=False)
    assert len(made) == 1  # one player for the window's life
    playback.close()


def test_window_keys_while_the_bar_is_shown(window, qtbot, tmp_path):
    output = FakeOutputBackend(rate=RATE)
    playback = attach(window, qtbot, Player(output), timed_doc(str(write_wav(tmp_path / "a.wav"))))
    window.activateWindow()
    view = window.view
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_F4)  # oTranscribe's F3/F4 change speed, F1/F2 skip
    assert playback.player.speed == pytest.approx(1.1)
    qtbot.keyClick(view, Qt.Key.Key_F3)
    assert playback.player.speed == pytest.approx(1.0)
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert playback.player.playing
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert not playback.player.playing
    # Esc in the find bar closes it and leaves playback alone
    window.show_find()
    assert window.find_bar.isVisible()
    qtbot.keyClick(window.find_bar, Qt.Key.Key_Escape)
    assert not window.find_bar.isVisible() and not playback.player.playing


def test_closing_the_window_stops_playback(window, qtbot, tmp_path):
    output = FakeOutputBackend(rate=RATE)
    playback = attach(window, qtbot, Player(output), timed_doc(str(write_wav(tmp_path / "a.wav"))))
    playback.bar.toggle()
    assert playback.player.playing
    window.close()
    assert not playback.player.playing and output.stream.closed


def test_the_window_makes_its_own_player_for_audio(window, qtbot, tmp_path):
    assert window.playback.bar is None  # nothing loaded until a transcript has audio
    window.set_transcript(timed_doc(str(write_wav(tmp_path / "a.wav"))), restore=False)
    bar = window.playback.bar
    assert bar is not None and bar.isVisible()
    qtbot.waitUntil(lambda: window.playback.player.duration > 0, timeout=10000)
    if not window.playback.player.available:  # no sound card here: one line says so
        assert bar.notice_label.text().startswith("No sound output found")


def test_a_moved_recording_can_be_located(window, qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    output = FakeOutputBackend(rate=RATE)
    window.playback.make_player = lambda: Player(output)
    moved = write_wav(tmp_path / "elsewhere.wav")
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(moved), ""))
    window.interactive = True  # the offer is only made to a person
    window.set_transcript(timed_doc(str(tmp_path / "gone.wav")), restore=False)
    qtbot.waitUntil(lambda: window.playback.audio_path == moved, timeout=2000)
    assert window.transcript.metadata.audio_file == str(moved)
    qtbot.waitUntil(lambda: window.playback.player.audio is not None, timeout=10000)
    assert window.playback.bar.isVisible()
    window.interactive = False
    window.undo()  # the new place is an ordinary, undoable change
    assert window.transcript.metadata.audio_file == str(tmp_path / "gone.wav")
    assert not window.playback.bar.isVisible() and window.playback.player.audio is None


def test_ctrl_j_types_the_playback_time_at_the_caret(window, qtbot, tmp_path):
    output = FakeOutputBackend(rate=RATE)
    playback = attach(window, qtbot, Player(output), timed_doc(str(write_wav(tmp_path / "a.wav"))))
    view = window.view
    playback.player.seek(2.2)
    start, _, _ = view.token_range(4)  # before "opens"
    cursor = QTextCursor(view.document())
    cursor.setPosition(start)
    view.setTextCursor(cursor)
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_J, Qt.KeyboardModifier.ControlModifier)
    assert [t.text for t in window.transcript] == \
        ["so", "the", "seed", "library", "[0:02]", "opens", "today"]
    window.undo()
    assert window.transcript.words() == [w for w, _, _ in WORDS]


def test_ctrl_j_without_a_recording_says_so(window, qtbot):
    window.set_transcript(Transcript([Token("so")]), restore=False)
    assert window.review.insert_playback_time() is None
    assert "No recording" in window.statusBar().currentMessage()
    assert window.transcript.words() == ["so"]
