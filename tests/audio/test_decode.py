"""Decoding for playback: rate and channels chosen for the device and the memory cap, clear errors."""

from __future__ import annotations

import wave

import numpy as np
import pytest

from editor.audio import PcmAudio, PlaybackError, decode_audio
from editor.audio.pcm import choose_format
from tests.audio.sounds import tone


def write_wav(path, samples: np.ndarray, rate: int) -> None:
    pcm = np.clip(np.round(samples * 32767), -32768, 32767).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(pcm.shape[1])
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.tobytes())


def test_a_wav_comes_back_sample_for_sample(tmp_path):
    path = tmp_path / "a.wav"
    samples = tone(0.5, 22_050, channels=2)
    samples[:, 1] *= -1
    write_wav(path, samples, 22_050)
    audio = decode_audio(path)
    assert (audio.rate, audio.channels, audio.frames) == (22_050, 2, 11_025)
    assert audio.path == str(path) and not audio.truncated
    np.testing.assert_allclose(audio.samples / 32767, samples, atol=2e-4)
    assert not audio.samples.flags.writeable  # the render thread reads it without a lock


def test_resampled_to_the_device_rate(tmp_path):
    path = tmp_path / "b.wav"
    write_wav(path, tone(1.0, 16_000), 16_000)
    audio = decode_audio(path, preferred_rate=48_000)
    assert audio.rate == 48_000 and audio.channels == 1
    assert audio.duration == pytest.approx(1.0, abs=0.01)


def test_a_compressed_file_decodes(tmp_path):
    av = pytest.importorskip("av")
    path = tmp_path / "c.flac"
    with av.open(str(path), "w") as out:
        stream = out.add_stream("flac", rate=16_000, layout="mono")
        pcm = (tone(1.0) * 32767).astype(np.int16).T
        frame = av.AudioFrame.from_ndarray(np.ascontiguousarray(pcm), format="s16", layout="mono")
        frame.rate = 16_000
        for packet in stream.encode(frame):
            out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    audio = decode_audio(path)
    assert audio.rate == 16_000 and audio.duration == pytest.approx(1.0, abs=0.05)


def test_the_memory_cap_truncates_and_says_so(tmp_path):
    path = tmp_path / "d.wav"
    write_wav(path, tone(1.0, 8_000), 8_000)
    audio = decode_audio(path, max_bytes=8_000)  # half a second of 8 kHz mono
    assert audio.truncated and audio.frames == 4_000


def test_format_choice_steps_down_to_fit():
    assert choose_format(44_100, 2, 60.0) == (44_100, 2)
    assert choose_format(96_000, 6, 60.0) == (48_000, 2)
    assert choose_format(44_100, 2, 60.0, preferred_rate=48_000) == (48_000, 2)
    hour = 3600.0
    assert choose_format(48_000, 2, hour) == (48_000, 1)  # 330 MB mono
    assert choose_format(48_000, 2, 3 * hour) == (24_000, 1)
    assert choose_format(48_000, 2, 4 * hour) == (16_000, 1)
    assert choose_format(44_100, 1, None) == (44_100, 1)


@pytest.mark.parametrize("make, message", [
    (lambda p: None, "no such file"),
    (lambda p: p.mkdir(), "not a file"),
    (lambda p: p.write_text("not sound at all " * 50), "not an audio or video file"),
    (lambda p: p.write_bytes(b""), r"the file is empty \(0 bytes\)"),  # said as such (issue 50)
])
def test_unplayable_files_raise_one_line(tmp_path, make, message):
    path = tmp_path / "x.mp3"
    make(path)
    with pytest.raises(PlaybackError, match=message) as err:
        decode_audio(path)
    assert "\n" not in str(err.value)


def test_pcm_audio_checks_its_shape():
    with pytest.raises(ValueError):
        PcmAudio(np.zeros(10, np.int16), 16_000)
    with pytest.raises(ValueError):
        PcmAudio(np.zeros((10, 1), np.float32), 16_000)
    assert PcmAudio.from_float(np.ones(4) * 2, 8_000).samples.max() == 32767


def test_the_buffer_grows_when_the_header_said_too_little():
    from editor.audio.pcm import _Growing

    def frame(values):  # what the decoder hands over: int16, (frames, channels)
        return np.asarray(values, np.int16).reshape(-1, 2)

    pcm = _Growing(4, 2, limit=9)
    assert not pcm.take(frame([1, 1, 2, 2, 3, 3]))
    assert not pcm.take(frame([4, 4, 5, 5, 6, 6]))  # past the first guess: grows
    assert pcm.take(frame([7, 7, 8, 8, 9, 9, 10, 10]))  # past the limit: cut, and says so
    np.testing.assert_array_equal(pcm.data()[:, 0], np.arange(1, 10))
