"""Test sounds made with numpy: tones, and samples that count up so output shows what was played."""

from __future__ import annotations

import numpy as np

from editor.audio import PcmAudio


def tone(seconds: float, rate: int = 16_000, freq: float = 440.0, channels: int = 1,
         amplitude: float = 0.5) -> np.ndarray:
    """Floats of shape (frames, channels)."""
    t = np.arange(round(seconds * rate)) / rate
    wave = amplitude * np.sin(2 * np.pi * freq * t)
    return np.repeat(wave[:, None], channels, axis=1)


def ramp_audio(seconds: float, rate: int = 16_000) -> PcmAudio:
    """Mono samples that count up, so the output says exactly which source frames were played."""
    n = round(seconds * rate)
    return PcmAudio((np.arange(n) % 30000).astype(np.int16)[:, None], rate)
