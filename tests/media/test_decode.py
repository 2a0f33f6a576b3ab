"""The one decoder under playback and speech recognition: what it reads, how it treats damage,
and that a damaged file plays exactly as far as it transcribes."""

from __future__ import annotations

import random
import wave
from pathlib import Path

import numpy as np
import pytest

from editor.asr.audio_blocks import SAMPLE_RATE, iter_pcm
from editor.asr.errors import AudioError
from editor.audio.pcm import PlaybackError, decode_audio
from editor.core.errors import UserError
from editor.media import MEDIA_SUFFIXES, MediaError, is_media, media_kind, open_media, probe
from tests.fakes.media import encode


def tone_wav(path: Path, seconds: float, rate: int, freq: float = 440.0) -> Path:
    t = np.arange(int(seconds * rate)) / rate
    pcm = (0.3 * 32767 * np.sin(2 * np.pi * freq * t)).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.tobytes())
    return path


def damaged(tmp_path: Path, ext: str, how: str) -> Path:
    """A 3 s tone in ``ext`` with ``how`` done to its bytes, or two rates joined end to end."""
    codec = {".flac": "flac", ".mp3": "libmp3lame", ".m4a": "aac", ".wav": "pcm_s16le"}[ext]
    if how == "joined":  # two recordings at different rates, concatenated (a stream that changes rate)
        a = encode(tone_wav(tmp_path / "a.wav", 1.5, 44_100), tmp_path / f"a{ext}", codec)
        b = encode(tone_wav(tmp_path / "b.wav", 1.5, 22_050, 660), tmp_path / f"b{ext}", codec)
        out = tmp_path / f"joined{ext}"
        out.write_bytes(a.read_bytes() + b.read_bytes())
        return out
    src = tone_wav(tmp_path / "t.wav", 3.0, 44_100)
    data = bytearray(src.read_bytes() if ext == ".wav" else encode(src, tmp_path / f"t{ext}", codec).read_bytes())
    n, rnd = len(data), random.Random(7)
    if how == "zeros":
        data[n // 3:n // 3 + n // 10] = bytes(n // 10)
    elif how == "noise":
        data[n // 4:3 * n // 4] = bytes(rnd.randrange(256) for _ in range(3 * n // 4 - n // 4))
    elif how == "burst":
        data[n // 2:n // 2 + 200] = bytes(rnd.randrange(256) for _ in range(200))
    elif how == "cut":
        del data[n // 2:]
    elif how == "header":
        data[40:200] = bytes(rnd.randrange(256) for _ in range(160))
    out = tmp_path / f"{how}{ext}"
    out.write_bytes(bytes(data))
    return out


@pytest.mark.parametrize("ext", [".flac", ".mp3", ".m4a", ".wav"])
@pytest.mark.parametrize("how", ["zeros", "noise", "burst", "cut", "header", "joined"])
def test_a_damaged_file_plays_exactly_as_far_as_it_transcribes(tmp_path, ext, how):
    path = damaged(tmp_path, ext, how)
    try:
        heard = sum(b.duration for b in iter_pcm(path))
    except AudioError as exc:
        heard = exc
    try:
        played = decode_audio(path, preferred_rate=SAMPLE_RATE)
    except PlaybackError as exc:
        played = exc
    if isinstance(heard, Exception) or isinstance(played, Exception):
        assert str(heard) == str(played)  # refused by both, for the same one-line reason
        assert str(heard).startswith(f"{path.name}: ") and "\n" not in str(heard)
    else:
        assert played.channels == 1 and played.duration == pytest.approx(heard, abs=1e-3)
        assert heard > 0.5


def test_joined_recordings_at_two_rates_are_read_whole(tmp_path):
    path = damaged(tmp_path, ".mp3", "joined")
    assert sum(b.duration for b in iter_pcm(path)) == pytest.approx(3.0, abs=0.15)
    assert decode_audio(path).duration == pytest.approx(3.0, abs=0.15)


def test_frames_come_at_the_rate_and_layout_asked(tmp_path):
    path = tone_wav(tmp_path / "t.wav", 1.0, 22_050)
    with open_media(path) as media:
        assert media.info.sample_rate == 22_050 and media.info.channels == 1
        blocks = list(media.frames(48_000, 2))
        assert media.damage is None
    samples = np.concatenate(blocks)
    assert samples.dtype == np.int16 and samples.shape[1] == 2
    assert len(samples) == pytest.approx(48_000, abs=64)
    np.testing.assert_array_equal(samples[:, 0], samples[:, 1])
    assert not blocks[0].flags.writeable


def test_bad_requests_and_files(tmp_path):
    path = tone_wav(tmp_path / "t.wav", 0.1, 8_000)
    with open_media(path) as media, pytest.raises(ValueError):
        next(media.frames(16_000, 6))
    with pytest.raises(MediaError, match="no such file"):
        probe(tmp_path / "missing.wav")
    with pytest.raises(MediaError, match="is a folder, not a file"):
        probe(tmp_path)
    (tmp_path / "notes.mp3").write_text("not sound " * 40)
    with pytest.raises(MediaError, match="notes.mp3: not an audio or video file FFmpeg can read"):
        probe(tmp_path / "notes.mp3")
    assert issubclass(MediaError, UserError)


def test_media_kinds_by_suffix():
    assert is_media("talk.MP3") and is_media("/x/clip.mp4") and not is_media("notes.srt")
    assert media_kind("a.flac") == "audio" and media_kind("b.MKV") == "video"
    assert media_kind("c.vtt") is None and media_kind("noext") is None
    assert len(set(MEDIA_SUFFIXES)) == len(MEDIA_SUFFIXES)
    assert all(s.startswith(".") and s == s.lower() for s in MEDIA_SUFFIXES)
