"""Fixtures for the playback tests: generated test tones, the fake output, and a null ALSA device
for the real sounddevice backend."""

from __future__ import annotations

import pytest

from tests.audio.devices import NULL_DEVICE, alsa_config
from tests.fakes.audio import FakeOutputBackend


@pytest.fixture
def fake_output() -> FakeOutputBackend:
    return FakeOutputBackend()


@pytest.fixture
def null_alsa(tmp_path):
    """ALSA's default device is the null plugin for the test: proves the wiring, not the timing."""
    with alsa_config(NULL_DEVICE, tmp_path) as sd:
        yield sd
