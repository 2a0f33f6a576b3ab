"""The player bar over a Player on the fake output (and once on the real backend, without a device)."""

from __future__ import annotations

import sys
import wave
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # tests.fakes, also when pytest is not run as `python -m pytest`
    sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QPoint, Qt  # noqa: E402

from editor.audio import PcmAudio, Player  # noqa: E402
from editor.gui.playback.player_bar import NO_SOUND, QtPlayerBar, format_time  # noqa: E402
from tests.fakes.audio import FakeOutputBackend  # noqa: E402

RATE = 16_000


def audio(seconds: float = 10.0) -> PcmAudio:
    t = np.arange(round(seconds * RATE)) / RATE
    return PcmAudio.from_float(0.3 * np.sin(2 * np.pi * 440 * t), RATE)


@pytest.fixture
def output():
    return FakeOutputBackend(rate=RATE)


@pytest.fixture
def bar(qtbot, output):
    player = Player(output)
    player.set_audio(audio())
    widget = QtPlayerBar(player)
    qtbot.addWidget(widget)
    widget.resize(800, 40)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget
    player.close()


def test_play_button_plays_and_the_timer_follows(bar, output, qtbot):
    assert bar.time_label.text() == "0:00 / 0:10"
    qtbot.mouseClick(bar.play_button, Qt.MouseButton.LeftButton)
    assert bar.player.playing
    assert bar.play_button.toolTip() == "Pause (Esc)"
    output.advance(3.2)
    with qtbot.waitSignal(bar.position_changed, timeout=1000) as blocker:
        pass
    assert blocker.args[0] == pytest.approx(3.2, abs=0.02)
    assert bar.time_label.text() == "0:03 / 0:10"
    assert bar.timeline.value() == pytest.approx(3200, abs=20)
    qtbot.mouseClick(bar.play_button, Qt.MouseButton.LeftButton)
    assert not bar.player.playing and bar.play_button.toolTip() == "Play (Esc)"


def test_the_end_of_the_sound_shows_as_paused(bar, output, qtbot):
    bar.toggle()
    output.advance(11)
    qtbot.waitUntil(lambda: bar.play_button.toolTip() == "Play (Esc)", timeout=1000)
    assert bar.time_label.text() == "0:10 / 0:10"


def test_clicking_the_timeline_seeks_there(bar, qtbot):
    x = bar.timeline.width() // 2
    with qtbot.waitSignal(bar.position_changed, timeout=1000) as blocker:
        qtbot.mouseClick(bar.timeline, Qt.MouseButton.LeftButton, pos=QPoint(x, bar.timeline.height() // 2))
    assert blocker.args[0] == pytest.approx(5.0, abs=0.5)
    assert bar.player.position == blocker.args[0]


def test_skip_buttons_and_speed_box(bar, qtbot):
    bar.player.seek(4.0)
    qtbot.mouseClick(bar.forward_button, Qt.MouseButton.LeftButton)
    assert bar.player.position == 9.0
    qtbot.mouseClick(bar.back_button, Qt.MouseButton.LeftButton)
    assert bar.player.position == 4.0
    bar.speed_box.setValue(1.5)
    assert bar.player.speed == 1.5
    bar.player.set_speed(0.7)  # from elsewhere (a key): the box follows
    assert bar.speed_box.value() == pytest.approx(0.7)


def test_otranscribe_keys(bar, qtbot):
    names = {name: action.shortcut().toString() for name, action in bar.actions_by_name.items()}
    assert names == {"play_pause": "Esc", "skip_back": "F1", "skip_forward": "F2", "slower": "F3",
                     "faster": "F4"}
    bar.activateWindow()
    bar.setFocus()
    qtbot.keyClick(bar, Qt.Key.Key_Escape)
    assert bar.player.playing
    qtbot.keyClick(bar, Qt.Key.Key_Escape)
    assert not bar.player.playing
    bar.player.seek(6.0)
    qtbot.keyClick(bar, Qt.Key.Key_F1)
    assert bar.player.position == 1.0
    qtbot.keyClick(bar, Qt.Key.Key_F2)
    assert bar.player.position == 6.0
    qtbot.keyClick(bar, Qt.Key.Key_F4)
    assert bar.player.speed == pytest.approx(1.1)
    qtbot.keyClick(bar, Qt.Key.Key_F3)
    qtbot.keyClick(bar, Qt.Key.Key_F3)
    assert bar.player.speed == pytest.approx(0.9)


def test_rewind_when_resuming_option(bar, output):
    bar.rewind_action.setChecked(True)
    bar.toggle()
    output.advance(5.0)
    bar.toggle()
    at = bar.player.position
    bar.toggle()
    assert bar.player.position == pytest.approx(at - 2.0)


def test_no_device_shows_one_line_and_seeking_still_works(qtbot):
    player = Player(FakeOutputBackend(reason="no sound: no audio output device"))
    player.set_audio(audio())
    bar = QtPlayerBar(player)
    qtbot.addWidget(bar)
    bar.show()
    assert bar.notice_label.isVisible()
    # in plain words, in the text's colour (it was faint grey); the detail in the tooltip
    assert bar.notice_label.text() == "No sound output found: playback is off. Stet works without it."
    assert "no audio output device" in bar.notice_label.toolTip()
    assert "palette(mid)" not in bar.notice_label.styleSheet()
    image = bar.notice_label.grab().toImage()  # drawn in the text's colour: some pixel is dark
    assert min(image.pixelColor(x, y).lightness() for x in range(image.width())
               for y in range(image.height())) < 80
    assert not bar.play_button.isEnabled()
    bar.toggle()  # Esc does nothing harmful
    with qtbot.waitSignal(bar.position_changed, timeout=1000):
        bar.seek(7.5)
    assert bar.time_label.text() == "0:07 / 0:10"


def test_the_no_sound_note_gives_way_in_a_narrow_window(qtbot):
    """The note's whole line was the bar's minimum, so a window with a recording and no sound
    card could not be narrower than 669 px; it now ends in "…" (whole in its tooltip)."""
    player = Player(FakeOutputBackend(reason="no sound: no audio output device"))
    player.set_audio(audio())
    bar = QtPlayerBar(player)
    qtbot.addWidget(bar)
    bar.show()
    whole = bar.notice_label.fontMetrics().horizontalAdvance(NO_SOUND)
    narrowest = bar.minimumSizeHint().width()
    bar.notice_label.hide()
    assert narrowest <= bar.minimumSizeHint().width() + 10  # the note adds no more than a gap
    bar.notice_label.show()
    bar.resize(bar.sizeHint().width(), bar.sizeHint().height())
    qtbot.wait(10)
    assert bar.notice_label.shown() == NO_SOUND  # room for it: whole
    bar.resize(bar.sizeHint().width() - whole // 2, bar.height())
    qtbot.waitUntil(lambda: bar.notice_label.shown().endswith("…"))
    assert NO_SOUND in bar.notice_label.toolTip()
    assert bar.timeline.width() >= 120  # the timeline keeps room to click in


def test_open_audio_decodes_off_the_ui_thread(qtbot, output, tmp_path):
    path = tmp_path / "speech.wav"
    pcm = (audio(1.5).samples).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm.tobytes())
    player = Player(output)
    bar = QtPlayerBar(player)
    qtbot.addWidget(bar)
    assert not bar.timeline.isEnabled()
    with qtbot.waitSignal(bar.audio_loaded, timeout=10000):
        bar.open_audio(path)
    assert player.duration == pytest.approx(1.5) and bar.timeline.isEnabled()
    assert bar.time_label.text() == "0:00 / 0:01"
    with qtbot.waitSignal(bar.audio_failed, timeout=10000) as failed:
        bar.open_audio(tmp_path / "missing.mp3")
    assert "no such file" in failed.args[0] and bar.notice_label.text() == failed.args[0]


def test_with_the_real_backend_and_no_device(qtbot, monkeypatch):
    from editor.audio import backend

    def missing():
        raise OSError("PortAudio library not found")

    monkeypatch.setattr(backend, "_import_sounddevice", missing)
    bar = QtPlayerBar(Player())
    qtbot.addWidget(bar)
    bar.show()
    assert bar.notice_label.text().startswith("No sound output found")
    assert "libportaudio2" in bar.notice_label.toolTip()


def test_format_time():
    assert format_time(0) == "0:00"
    assert format_time(61.9) == "1:01"
    assert format_time(3725) == "1:02:05"
    assert format_time(5, hours=True) == "0:00:05"


def test_a_decode_overtaken_by_another_is_dropped(qtbot, output, tmp_path):
    first, second = tmp_path / "first.wav", tmp_path / "second.wav"
    for path, seconds in ((first, 3.0), (second, 1.0)):
        with wave.open(str(path), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(RATE)
            w.writeframes(audio(seconds).samples.astype("<i2").tobytes())
    player = Player(output)
    bar = QtPlayerBar(player)
    qtbot.addWidget(bar)
    loaded = []
    bar.audio_loaded.connect(loaded.append)
    op1 = bar.open_audio(first)
    op2 = bar.open_audio(second)
    qtbot.waitUntil(lambda: op1.done and op2.done, timeout=10000)
    assert loaded == [str(second)] and player.duration == pytest.approx(1.0)
    bar.unload()
    assert player.audio is None and not bar.timeline.isEnabled()
