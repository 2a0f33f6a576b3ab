"""Decoding any audio or video file to 16 kHz mono int16 blocks with PyAV."""

from __future__ import annotations

import wave

import pytest

from editor.asr.audio_blocks import SAMPLE_RATE, iter_pcm, probe_audio
from editor.asr.errors import AudioError


@pytest.mark.parametrize("ext", [".wav", ".flac", ".ogg", ".mp3", ".m4a"])
def test_every_format_becomes_contiguous_16k_mono_blocks(tmp_path, audio_tools, ext):
    src = audio_tools.tone(tmp_path / "tone.wav", seconds=1.5, rate=44100, channels=2)
    path = src if ext == ".wav" else audio_tools.encode(src, tmp_path / f"tone{ext}")

    info = probe_audio(path)
    blocks = list(iter_pcm(path, block_seconds=0.25))

    assert info.duration == pytest.approx(1.5, abs=0.1) and not info.has_video
    assert all(len(b.data) == 0.25 * SAMPLE_RATE * 2 for b in blocks[:-1])
    assert 0 < len(blocks[-1].data) <= 0.25 * SAMPLE_RATE * 2
    assert [b.start for b in blocks] == pytest.approx([i * 0.25 for i in range(len(blocks))])
    total = sum(b.duration for b in blocks)
    assert total == pytest.approx(1.5, abs=0.1)  # lossy codecs pad a little


def test_resampled_samples_keep_the_signal(tmp_path, audio_tools):
    import numpy as np

    path = audio_tools.tone(tmp_path / "t.wav", seconds=1.0, rate=22050, channels=1, amplitude=0.5)
    pcm = np.frombuffer(b"".join(b.data for b in iter_pcm(path)), dtype="<i2")
    assert len(pcm) == pytest.approx(SAMPLE_RATE, abs=32)
    assert 0.4 * 32767 < np.abs(pcm).max() <= 0.55 * 32767
    spectrum = np.abs(np.fft.rfft(pcm.astype(float)))
    assert np.argmax(spectrum) * SAMPLE_RATE / len(pcm) == pytest.approx(440, abs=3)


def test_the_sound_of_a_video_is_decoded(tmp_path, audio_tools):
    path = audio_tools.video(tmp_path / "clip.mp4", with_audio=True)
    assert probe_audio(path).has_video
    assert sum(b.duration for b in iter_pcm(path)) == pytest.approx(1.0, abs=0.1)


def test_a_video_without_sound_is_refused(tmp_path, audio_tools):
    path = audio_tools.video(tmp_path / "mute.mp4", with_audio=False)
    with pytest.raises(AudioError, match="mute.mp4: the file has no audio stream"):
        probe_audio(path)
    with pytest.raises(AudioError, match="no audio stream"):
        list(iter_pcm(path))


@pytest.mark.parametrize("content", [b"", b"\x00" * 4096, b"RIFF\x10\x00\x00\x00WAVEjunk" * 50,
                                     bytes(range(256)) * 40])
def test_corrupt_files_fail_with_one_sentence(tmp_path, content):
    path = tmp_path / "broken.mp3"
    path.write_bytes(content)
    with pytest.raises(AudioError) as err:
        list(iter_pcm(path))
    message = str(err.value)
    assert message.startswith("broken.mp3: ") and "\n" not in message


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(AudioError, match="no such file"):
        probe_audio(tmp_path / "nope.wav")
    with pytest.raises(AudioError, match="is a folder"):
        list(iter_pcm(tmp_path))


def test_a_wav_without_samples(tmp_path):
    path = tmp_path / "empty.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
    with pytest.raises(AudioError, match="holds no samples"):
        list(iter_pcm(path))


def test_a_truncated_file_gives_what_it_has(tmp_path, audio_tools):
    src = audio_tools.tone(tmp_path / "t.wav", seconds=2.0)
    flac = audio_tools.encode(src, tmp_path / "t.flac")
    cut = tmp_path / "cut.flac"
    cut.write_bytes(flac.read_bytes()[: flac.stat().st_size // 2])
    got = sum(b.duration for b in iter_pcm(cut))
    assert 0.5 < got < 2.0


def test_block_size_must_be_positive(tmp_path, audio_tools):
    path = audio_tools.tone(tmp_path / "t.wav", seconds=0.1)
    with pytest.raises(ValueError):
        list(iter_pcm(path, block_seconds=0))
