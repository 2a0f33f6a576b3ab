"""Fixtures for the playback tests: generated test tones, the fake output, and a null ALSA device
for the real sounddevice backend."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # tests.fakes, also when pytest is not run as `python -m pytest`
    sys.path.insert(0, str(ROOT))

from tests.fakes.audio import FakeOutputBackend  # noqa: E402


@pytest.fixture
def fake_output() -> FakeOutputBackend:
    return FakeOutputBackend()


@pytest.fixture
def null_alsa(tmp_path):
    """PortAudio re-initialised with ALSA's default device being the null plugin, then put back.

    The null device takes sound as fast as it is given, so it proves the wiring, not the timing."""
    try:
        import sounddevice as sd
    except OSError:
        pytest.skip("the PortAudio library is not installed (apt-get install libportaudio2)")
    conf = tmp_path / "asound.conf"
    conf.write_text("pcm.!default { type null }\nctl.!default { type null }\n")
    old = os.environ.get("ALSA_CONFIG_PATH")
    os.environ["ALSA_CONFIG_PATH"] = str(conf)
    sd._terminate()  # sounddevice's documented way to rescan devices
    sd._initialize()
    try:
        yield sd
    finally:
        if old is None:
            os.environ.pop("ALSA_CONFIG_PATH", None)
        else:
            os.environ["ALSA_CONFIG_PATH"] = old
        sd._terminate()
        sd._initialize()
