"""PortAudio re-initialised over a chosen ALSA configuration, for tests of the real backend."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

NULL_DEVICE = "pcm.!default { type null }\nctl.!default { type null }\n"
"""ALSA's null plugin as the default device: it takes sound as fast as it is given."""

NO_DEVICE = "pcm.!default { type hw card 99 }\n"
"""A default device on a card that is not there (an empty configuration makes ALSA abort)."""


@contextlib.contextmanager
def alsa_config(text: str, folder: Path) -> Iterator[object]:
    """Run with ALSA_CONFIG_PATH pointing at ``text``; PortAudio rescans before and after."""
    try:
        import sounddevice as sd
    except OSError:
        pytest.skip("the PortAudio library is not installed (apt-get install libportaudio2)")
    conf = folder / "asound.conf"
    conf.write_text(text)
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
