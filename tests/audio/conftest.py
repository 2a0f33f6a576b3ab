"""Fixtures for the playback tests: generated test tones, the fake output, and a null ALSA device
for the real sounddevice backend."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # tests.fakes, also when pytest is not run as `python -m pytest`
    sys.path.insert(0, str(ROOT))

from tests.audio.devices import NULL_DEVICE, alsa_config  # noqa: E402
from tests.fakes.audio import FakeOutputBackend  # noqa: E402


@pytest.fixture
def fake_output() -> FakeOutputBackend:
    return FakeOutputBackend()


@pytest.fixture
def null_alsa(tmp_path):
    """ALSA's default device is the null plugin for the test: proves the wiring, not the timing."""
    with alsa_config(NULL_DEVICE, tmp_path) as sd:
        yield sd
