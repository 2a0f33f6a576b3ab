"""A fake sound output for timing tests: the test decides when blocks are "played", so positions
and speeds are checked exactly. Its real counterpart, ``SoundDeviceBackend``, is exercised on a
null ALSA device in tests/audio/test_sounddevice_backend.py."""

from __future__ import annotations

import numpy as np

from editor.audio.backend import Render


class FakeOutputStream:
    def __init__(self, backend: FakeOutputBackend, rate: int, channels: int, render: Render) -> None:
        self.backend, self.rate, self.channels, self._render = backend, rate, channels, render
        self.active = False
        self.closed = False
        self.starts = 0

    def start(self) -> None:
        assert not self.closed, "start on a closed stream"
        self.active = True
        self.starts += 1

    def stop(self) -> None:
        self.active = False

    def close(self) -> None:
        self.active = False
        self.closed = True

    def pump(self, frames: int) -> np.ndarray:
        """Play ``frames`` frames (in backend-sized blocks) as the device thread would; returns them."""
        got = []
        while frames > 0 and self.active:
            n = min(frames, self.backend.blocksize)
            out = np.full((n, self.channels), np.nan, dtype=np.float32)  # render must fill all of it
            if not self._render(out, self.backend.latency):
                self.active = False
            got.append(out)
            frames -= n
        played = np.concatenate(got) if got else np.zeros((0, self.channels), np.float32)
        self.backend.played.append(played)
        return played


class FakeOutputBackend:
    """An output device that plays only when told to (``advance``), at ``rate`` frames a second."""

    def __init__(self, *, reason: str | None = None, rate: int | None = 16_000, blocksize: int = 160,
                 latency: float = 0.0, fail_open: str | None = None) -> None:
        """``latency``: seconds between rendering a block and hearing it, as the device reports."""
        self.reason, self.rate, self.blocksize, self.fail_open = reason, rate, blocksize, fail_open
        self.latency = latency
        self.streams: list[FakeOutputStream] = []
        self.played: list[np.ndarray] = []

    def probe(self) -> str | None:
        return self.reason

    def preferred_rate(self) -> int | None:
        return self.rate

    def open(self, rate: int, channels: int, render: Render) -> FakeOutputStream:
        if self.fail_open:
            raise OSError(self.fail_open)
        stream = FakeOutputStream(self, rate, channels, render)
        self.streams.append(stream)
        return stream

    @property
    def stream(self) -> FakeOutputStream | None:
        return self.streams[-1] if self.streams else None

    def advance(self, seconds: float) -> np.ndarray:
        """Let ``seconds`` of wall-clock time pass on the device; returns what it played."""
        stream = self.stream
        if stream is None:
            return np.zeros((0, 1), np.float32)
        return stream.pump(round(seconds * stream.rate))
