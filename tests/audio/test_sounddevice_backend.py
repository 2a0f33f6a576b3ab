"""The real output backend, PortAudio through sounddevice, on ALSA's null device (the counterpart
of tests/fakes/audio.py). The null device takes sound as fast as it is given, so these tests check
the wiring — callback thread, end of sound, pause, errors — and leave timing to the fake."""

from __future__ import annotations

import time

import pytest

from editor.audio import PcmAudio, Player, SoundDeviceBackend
from editor.audio import backend as backend_module
from tests.audio.devices import NO_DEVICE, alsa_config
from tests.audio.sounds import ramp_audio, tone


def wait_until(condition, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.005)
    return condition()


def test_the_null_device_is_found(null_alsa):
    backend = SoundDeviceBackend()
    assert backend.probe() is None
    assert backend.preferred_rate() > 0


def test_plays_to_the_end_on_the_callback_thread(null_alsa):
    player = Player(SoundDeviceBackend())
    assert player.available and player.notice is None
    player.set_audio(ramp_audio(1.0, 8_000))
    assert player.play()
    assert wait_until(lambda: not player.playing)
    assert player.position == pytest.approx(1.0)
    assert player.notice is None
    # and again from the start, on the same stream
    assert player.play()
    assert wait_until(lambda: not player.playing)
    player.close()


def test_stretched_playback_pauses_and_resumes(null_alsa):
    player = Player(SoundDeviceBackend())
    player.set_audio(PcmAudio.from_float(tone(60.0, 8_000), 8_000))
    player.set_speed(0.5)  # the time-stretch makes the null device slow enough to pause
    assert player.play()
    assert wait_until(lambda: player.position > 0.5)
    player.pause()
    held = player.position
    assert 0.5 < held < 60.0 and not player.playing
    time.sleep(0.05)
    assert player.position == held
    player.set_speed(2.0)
    assert player.play()
    assert wait_until(lambda: not player.playing, timeout=30)
    assert player.position == pytest.approx(60.0)
    assert player.notice is None
    player.close()


def test_passages_stop_and_start_again_on_the_same_stream(null_alsa):
    """A passage ends by the callback's own stop; the next one restarts the stream, as arriving
    at one suggestion after another does."""
    player = Player(SoundDeviceBackend())
    player.set_audio(ramp_audio(3.0, 8_000))
    for start, end in ((0.5, 1.0), (2.0, 2.25), (0.0, 0.1)):
        assert player.play_span(start, end)
        assert wait_until(lambda: not player.playing)
        assert player.position == pytest.approx(end)
        assert player.notice is None
    assert player.play()  # and on from the last passage's end, to the end
    assert wait_until(lambda: not player.playing)
    assert player.position == pytest.approx(3.0)
    player.close()


def test_a_stereo_file_at_the_device_rate(null_alsa, tmp_path):
    backend = SoundDeviceBackend()
    player = Player(backend)
    audio = PcmAudio.from_float(tone(0.5, backend.preferred_rate(), channels=2), backend.preferred_rate())
    player.set_audio(audio)
    assert player.play()
    assert wait_until(lambda: not player.playing)
    player.close()


def test_no_output_device_is_one_line_and_nothing_breaks(tmp_path):
    with alsa_config(NO_DEVICE, tmp_path):
        player = Player()  # the default backend: sounddevice
        assert not player.available
        assert player.notice.startswith("no sound: no audio output device")
        assert "\n" not in player.notice
        player.set_audio(ramp_audio(1.0, 8_000))
        assert player.play() is False
        player.seek(0.5)
        player.toggle()
        assert player.position == 0.5
        player.close()


def test_no_portaudio_library_is_one_line(monkeypatch):
    def missing():
        raise OSError("PortAudio library not found")

    monkeypatch.setattr(backend_module, "_import_sounddevice", missing)
    player = Player()
    assert not player.available
    assert player.notice == "no sound: the PortAudio library is not installed (libportaudio2)"
    assert player.decode  # decoding needs no device
    player.set_audio(ramp_audio(0.5, 8_000))
    assert player.play() is False


def test_no_sounddevice_module_is_one_line(monkeypatch):
    def missing():
        raise ImportError("No module named 'sounddevice'")

    monkeypatch.setattr(backend_module, "_import_sounddevice", missing)
    assert SoundDeviceBackend().probe() == "no sound: the sounddevice module is not installed"
    assert SoundDeviceBackend().preferred_rate() is None
