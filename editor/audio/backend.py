"""Where rendered sound goes: an output backend opens a stream that calls ``render(out, delay)`` on
its own thread for every block. The real one is PortAudio through sounddevice; tests use a fake."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Protocol

import numpy as np

Block = np.ndarray[tuple[int, int], np.dtype[np.float32]]
"""A block of sound on its way to the device: float32 of shape (frames, channels)."""

Render = Callable[[Block, float], bool]
"""``render(out, delay)`` fills ``out`` (a :data:`Block`) and returns False once
the sound has ended; ``delay`` is how many seconds pass before the block is heard (0 if unknown).
Runs on the backend's thread; it must not block and must not raise."""


class OutputStream(Protocol):
    @property
    def active(self) -> bool:
        """True while the stream is calling ``render`` (False once render returned False)."""

    def start(self) -> None: ...

    def stop(self) -> None:
        """Stop at once, dropping what is queued; ``start`` may follow."""

    def close(self) -> None: ...


class OutputBackend(Protocol):
    def probe(self) -> str | None:
        """None when sound can be played, else why not in one line."""

    def preferred_rate(self) -> int | None:
        """The sample rate the output device runs at natively, if it says."""

    def open(self, rate: int, channels: int, render: Render) -> OutputStream:
        """Open (not start) a stream; raises :class:`OSError` or a backend error if it cannot."""


def _import_sounddevice() -> ModuleType:
    import sounddevice  # raises OSError when the PortAudio library itself is missing

    module: ModuleType = sounddevice  # no type information: its names are read as Any
    return module


class SoundDeviceBackend:
    """PortAudio's default output device, through sounddevice."""

    def __init__(self, device: int | str | None = None, *, latency: str | float = "high") -> None:
        # 'high' latency: the render callback needs the GIL, and a busy UI thread must not make it click
        self.device = device
        self.latency = latency

    def _sd(self) -> ModuleType:
        return _import_sounddevice()

    def probe(self) -> str | None:
        try:
            sd = self._sd()
        except OSError:
            return "no sound: the PortAudio library is not installed (libportaudio2)"
        except ImportError:
            return "no sound: the sounddevice module is not installed"
        try:
            info = sd.query_devices(self.device, kind="output")
        except Exception as exc:  # noqa: BLE001 — PortAudioError, ValueError: all mean "no device"
            detail = str(exc).strip() or type(exc).__name__
            return f"no sound: no audio output device ({detail})"
        if int(info.get("max_output_channels", 0)) < 1:
            return f"no sound: {info.get('name', 'the device')} has no output channels"
        return None

    def preferred_rate(self) -> int | None:
        try:
            rate = self._sd().query_devices(self.device, kind="output")["default_samplerate"]
        except Exception:  # noqa: BLE001 — no device, no preference
            return None
        return int(rate) if rate and rate > 0 else None

    def open(self, rate: int, channels: int, render: Render) -> OutputStream:
        sd = self._sd()

        def callback(outdata: Block, frames: int, time: _StreamTime, status: object) -> None:
            # PortAudio's signature: all four are passed
            try:
                delay = max(0.0, min(1.0, time.outputBufferDacTime - time.currentTime))
            except Exception:  # noqa: BLE001 — some host APIs give no times
                delay = 0.0
            if not render(outdata, delay):
                raise sd.CallbackStop

        return _SoundDeviceStream(sd.OutputStream(samplerate=rate, channels=channels, dtype="float32",
                                                  device=self.device, latency=self.latency,
                                                  callback=callback))


class _StreamTime(Protocol):
    """The times sounddevice hands the callback (a CFFI struct), in seconds of the stream's clock."""

    @property
    def currentTime(self) -> float: ...  # PortAudio's field names

    @property
    def outputBufferDacTime(self) -> float: ...


class _PortAudioStream(Protocol):
    """What is used of a ``sounddevice.OutputStream``."""

    @property
    def active(self) -> bool: ...

    @property
    def stopped(self) -> bool: ...

    def start(self) -> None: ...

    def stop(self, ignore_errors: bool = True) -> None: ...

    def abort(self, ignore_errors: bool = True) -> None: ...

    def close(self, ignore_errors: bool = True) -> None: ...


class _SoundDeviceStream:
    def __init__(self, stream: _PortAudioStream) -> None:
        self._stream = stream

    @property
    def active(self) -> bool:
        return bool(self._stream.active)

    def start(self) -> None:
        if not self._stream.stopped:  # ended by CallbackStop: PortAudio wants a stop before a start
            self._stream.stop()
        self._stream.start()

    def stop(self) -> None:
        self._stream.abort()

    def close(self) -> None:
        self._stream.close(ignore_errors=True)
