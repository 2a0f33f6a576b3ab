"""Decode an audio or video file into memory for playback: 16-bit PCM at a rate the output device
likes, stereo or mono, with a cap on memory so a long recording cannot exhaust it."""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from editor.core.errors import UserError
from editor.media.decode import MediaError, open_media

DEFAULT_MAX_BYTES = 512 * 1024 * 1024
"""Memory a decoded recording may take: about 46 minutes of 48 kHz stereo, 4.6 hours of 16 kHz mono."""

# Rates tried in turn when a recording would not fit in the cap; speech stays clear down to 16 kHz.
_FALLBACK_RATES = (24_000, 16_000, 11_025, 8_000)


Samples = np.ndarray[tuple[int, int], np.dtype[np.int16]]
"""Decoded sound: int16 of shape (frames, channels)."""


class PlaybackError(UserError):
    """A file cannot be decoded for playback: unreadable, corrupt, or without sound."""


@dataclass(frozen=True, eq=False)
class PcmAudio:
    """A decoded recording. ``samples`` is read-only int16 of shape (frames, channels)."""

    samples: Samples
    rate: int
    path: str | None = None
    truncated: bool = False
    """True when the recording did not fit in the memory cap and only its beginning is here."""

    def __post_init__(self) -> None:
        if self.samples.ndim != 2 or self.samples.dtype != np.int16:
            raise ValueError("samples must be int16 of shape (frames, channels)")
        if self.rate <= 0:
            raise ValueError(f"rate must be positive, not {self.rate}")
        self.samples.setflags(write=False)

    @property
    def frames(self) -> int:
        return self.samples.shape[0]

    @property
    def channels(self) -> int:
        return self.samples.shape[1]

    @property
    def duration(self) -> float:
        return self.frames / self.rate

    @classmethod
    def from_float(cls, samples: np.ndarray, rate: int, path: str | None = None) -> PcmAudio:
        """From floats in -1..1, shape (frames,) or (frames, channels); for tests and generated audio."""
        data = np.asarray(samples, dtype=np.float64)
        if data.ndim == 1:
            data = data[:, None]
        pcm = np.clip(np.round(data * 32767.0), -32768, 32767).astype(np.int16)
        return cls(np.ascontiguousarray(pcm), int(rate), path)


def choose_format(rate: int, channels: int, duration: float | None, *, preferred_rate: int | None = None,
                  max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[int, int]:
    """The (rate, channels) to decode to: the device's preferred rate (else the file's, at most 48 kHz),
    at most stereo, then mono and lower rates until ``duration`` seconds fit in ``max_bytes``."""
    rate = int(preferred_rate or min(rate or 48_000, 48_000))
    channels = 1 if channels <= 1 else 2
    if duration is None:
        return rate, channels

    def size(r: int, c: int) -> float:
        return duration * r * c * 2

    if size(rate, channels) > max_bytes:
        channels = 1
    for lower in _FALLBACK_RATES:
        if size(rate, channels) <= max_bytes or rate <= lower:
            break
        rate = lower
    return rate, channels


def decode_audio(path: str | os.PathLike[str], *, preferred_rate: int | None = None,
                 max_bytes: int = DEFAULT_MAX_BYTES) -> PcmAudio:
    """Decode the first audio stream of ``path`` (anything FFmpeg reads, video too) into memory,
    with editor.media's decoder (so a damaged file plays exactly as far as it transcribes).

    Blocks for a while on long files: the GUI calls this off the UI thread. Raises
    :class:`PlaybackError` with a one-line reason when the file cannot be played.
    """
    try:
        with open_media(path) as media:
            info = media.info
            rate, channels = choose_format(info.sample_rate, info.channels, info.duration,
                                           preferred_rate=preferred_rate, max_bytes=max_bytes)
            limit = max_bytes // (2 * channels)  # frames
            # one buffer sized from the header, so a long file does not need twice its size
            guess = round(info.duration * rate * 1.01) + rate if info.duration else 60 * rate
            pcm = _Growing(min(guess, limit), channels, limit)
            truncated = False
            for samples in media.frames(rate, channels):
                if pcm.take(samples):
                    truncated = True
                    break
    except MediaError as exc:
        raise PlaybackError(str(exc)) from None
    return PcmAudio(pcm.data(), rate, os.fspath(path), truncated)


class _Growing:
    """int16 frames appended into one buffer that grows only if the header's duration was short."""

    def __init__(self, capacity: int, channels: int, limit: int) -> None:
        self._buf = np.empty((max(capacity, 1), channels), np.int16)
        self._limit = limit
        self.have = 0

    def take(self, data: Samples) -> bool:
        """Append int16 samples of shape (frames, channels); True once the limit cut them short."""
        n = min(len(data), self._limit - self.have)
        if self.have + n > len(self._buf):
            grown = np.empty((min(max(self.have + n, len(self._buf) * 3 // 2), self._limit),
                              self._buf.shape[1]), np.int16)
            grown[:self.have] = self._buf[:self.have]
            self._buf = grown
        self._buf[self.have:self.have + n] = data[:n]
        self.have += n
        return n < len(data)

    def data(self) -> Samples:
        return self._buf[:self.have]
