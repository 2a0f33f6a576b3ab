"""The playback engine: play, pause, seek, speed with the pitch kept, skips; Qt-free.

Sound is rendered on the output backend's own thread (PortAudio's callback), which never waits:
if the UI thread holds the lock for the moment it takes to seek, that one block is silence. The
UI reads ``position`` at its own steady rate; events fire only for what the caller itself changed.
"""

from __future__ import annotations

import math
import os
import threading
from typing import Protocol

import numpy as np
from psygnal import Signal

from editor.audio.backend import Block, OutputBackend, OutputStream, SoundDeviceBackend
from editor.audio.pcm import PcmAudio, Samples, decode_audio

MIN_SPEED = 0.5
MAX_SPEED = 2.0
SPEED_STEP = 0.1
_SCALE = np.float32(1.0 / 32768.0)

_Buffer = np.ndarray[tuple[int, int], np.dtype[np.float32]]
"""What audiotsm reads into and writes from: float32 of shape (channels, frames)."""


class _TimeStretcher(Protocol):
    """What is used of an audiotsm TSM (``audiotsm.wsola``; audiotsm ships no types)."""

    def set_speed(self, speed: float) -> None: ...

    def clear(self) -> None: ...

    def read_from(self, reader: _SourceReader) -> int: ...

    def write_to(self, writer: _ViewWriter) -> tuple[int, bool]: ...

    def flush_to(self, writer: _ViewWriter) -> tuple[int, bool]: ...


class Player:
    """Plays one recording. Every method is safe to call with no audio device and nothing loaded.

    Events (psygnal, emitted on the thread that made the change): ``state_changed(playing)``,
    ``speed_changed(speed)``, ``audio_changed()``. Reaching the end is not an event: the UI sees
    ``playing`` turn False when it next polls.
    """

    state_changed = Signal(bool)
    speed_changed = Signal(float)
    audio_changed = Signal()

    def __init__(self, backend: OutputBackend | None = None, *, skip_seconds: float = 5.0,
                 rewind_on_resume: float = 0.0) -> None:
        self._backend: OutputBackend = backend if backend is not None else SoundDeviceBackend()
        self.skip_seconds = float(skip_seconds)
        self.rewind_on_resume = float(rewind_on_resume)
        """Seconds to go back when playing again after a pause, so the last words are heard again."""
        try:
            self._reason = self._backend.probe()
        except Exception as exc:  # noqa: BLE001 — a broken backend means no sound, not a broken editor
            self._reason = f"no sound: {exc}"
        self._error: str | None = None
        self._lock = threading.Lock()
        self._audio: PcmAudio | None = None
        self._stream: OutputStream | None = None
        self._playing = False  # what the person asked for
        self._ended = False  # set by the render thread at the end of the sound
        self._rewind_pending = False
        self._speed = 1.0
        self._frame = 0.0  # next source frame to render (fractional when stretched)
        self._position = 0.0  # seconds; published by whichever thread moved it, under the lock
        self._origin = 0.0  # where the last seek or start put the sound: positions never go before it
        self._stop_at: float | None = None  # a passage's end (``play_span``): playing stops there
        self._span_done = False  # set by the render thread on reaching ``_stop_at``
        self._tsm: _TimeStretcher | None = None
        self._tsm_reader: _SourceReader | None = None
        self._tsm_stale = True
        self._tsm_shape: tuple[int, int] | None = None
        self._effective_speed = 1.0

    # -- what the UI reads ---------------------------------------------------------------------
    @property
    def available(self) -> bool:
        """False when there is no sound output (no device, no PortAudio); the rest still works."""
        return self._reason is None

    @property
    def notice(self) -> str | None:
        """One line to show the person: why there is no sound, or the last playback error."""
        return self._reason or self._error

    @property
    def audio(self) -> PcmAudio | None:
        return self._audio

    @property
    def path(self) -> str | None:
        return self._audio.path if self._audio is not None else None

    @property
    def duration(self) -> float:
        return self._audio.duration if self._audio is not None else 0.0

    @property
    def position(self) -> float:
        """Seconds into the recording; safe to read from any thread."""
        return self._position

    @property
    def playing(self) -> bool:
        return self._playing and not self._ended and not self._span_done

    @property
    def span_end(self) -> float | None:
        """Where the passage being played stops (``play_span``); None when playing goes on."""
        return None if self._span_done else self._stop_at

    @property
    def speed(self) -> float:
        return self._speed

    # -- loading ---------------------------------------------------------------------------------
    def load(self, path: str | os.PathLike[str]) -> PcmAudio:
        """Decode ``path`` and make it current. Slow for long files: the GUI calls :meth:`decode`
        off the UI thread and :meth:`set_audio` on it instead. Raises ``PlaybackError``."""
        audio = self.decode(path)
        self.set_audio(audio)
        return audio

    def decode(self, path: str | os.PathLike[str]) -> PcmAudio:
        """Decode ``path`` at a rate the output device takes; touches no player state."""
        rate = None
        if self.available:
            try:
                rate = self._backend.preferred_rate()
            except Exception:  # noqa: BLE001 — no preference then
                rate = None
        return decode_audio(path, preferred_rate=rate)

    def set_audio(self, audio: PcmAudio | None) -> None:
        """Make ``audio`` current (None unloads), paused at its start."""
        was_playing = self._playing
        self._close_stream()
        with self._lock:
            self._audio = audio
            self._playing = False
            self._ended = False
            self._rewind_pending = False
            self._frame = 0.0
            self._position = self._origin = 0.0
            self._stop_at = None
            self._span_done = False
            self._tsm = None
            self._tsm_stale = True
        self._error = None
        if was_playing:
            self.state_changed.emit(False)
        self.audio_changed.emit()

    def close(self) -> None:
        """Stop and let go of the output device."""
        self.set_audio(None)

    # -- transport -------------------------------------------------------------------------------
    def play(self) -> bool:
        """Start or resume; True if sound is now playing. At the end, plays again from the start."""
        if self._audio is None or not self.available:
            return False
        if self.playing:
            return True
        if self._span_done:  # a passage played to its end: go on from there, to the end
            with self._lock:
                self._span_done = False
                self._stop_at = None
                self._origin = self._position
        if self._ended or self._position >= self.duration:
            self.seek(0.0)
        elif self._rewind_pending and self.rewind_on_resume > 0:
            self.seek(self._position - self.rewind_on_resume)
        self._rewind_pending = False
        try:
            if self._stream is None:
                audio = self._audio
                self._stream = self._backend.open(audio.rate, audio.channels, self._render)
            with self._lock:
                self._playing = True
                self._ended = False
            self._stream.start()
        except Exception as exc:  # noqa: BLE001 — PortAudioError, OSError: say so, keep editing
            with self._lock:
                self._playing = False
            self._error = f"cannot play: {str(exc).strip() or type(exc).__name__}"
            self._close_stream()
            return False
        self._error = None
        self.state_changed.emit(True)
        return True

    def pause(self) -> None:
        if not self._playing:
            return
        with self._lock:
            self._playing = False
            self._stop_at = None
            self._span_done = False
        if self._stream is not None:
            try:
                self._stream.stop()
            except Exception:  # noqa: BLE001 — a device that vanished is stopped already
                self._close_stream()
        with self._lock:
            # resume where the person last heard, not where rendering had got to
            self._frame = self._position * self._audio.rate if self._audio is not None else 0.0
            self._origin = self._position
            self._tsm_stale = True
            self._rewind_pending = not self._ended
        self.state_changed.emit(False)

    def toggle(self) -> bool:
        """Play if paused, pause if playing; returns whether it plays now."""
        if self.playing:
            self.pause()
            return False
        return self.play()

    def seek(self, seconds: float) -> None:
        """Go to ``seconds`` (clamped to the recording); keeps playing if it was."""
        seconds = float(seconds)
        if math.isnan(seconds) or self._audio is None:
            return
        seconds = min(max(seconds, 0.0), self.duration)
        restart = False
        with self._lock:
            self._frame = seconds * self._audio.rate
            self._position = self._origin = seconds
            self._tsm_stale = True
            self._rewind_pending = False
            self._stop_at = None  # a seek is the person's: a passage under way plays on
            if self._span_done:  # a passage played to its end is paused there
                self._span_done = False
                self._playing = False
            if self._ended and seconds < self.duration:
                self._ended = False
                restart = self._playing
        if restart and self._stream is not None:  # the stream stopped itself at the end
            try:
                self._stream.start()
            except Exception as exc:  # noqa: BLE001 — a device that vanished: say so, keep editing
                self._error = f"cannot play: {str(exc).strip() or type(exc).__name__}"
                self._playing = False
                self.state_changed.emit(False)

    def play_span(self, start: float, end: float) -> bool:
        """Play from ``start`` and stop by itself at ``end`` (seconds, clamped to the recording):
        a passage heard again while reviewing. A later seek, pause or play goes on as usual.
        True if sound is now playing."""
        if self._audio is None or not self.available or math.isnan(start) or math.isnan(end):
            return False
        self.seek(start)
        with self._lock:
            self._stop_at = min(max(float(end), self._position), self.duration)
        return self.play()

    def skip(self, seconds: float) -> None:
        """Move by ``seconds`` (negative goes back)."""
        self.seek(self._position + float(seconds))

    def skip_back(self) -> None:
        self.skip(-self.skip_seconds)

    def skip_forward(self) -> None:
        self.skip(self.skip_seconds)

    def set_speed(self, speed: float) -> float:
        """Play at ``speed`` (clamped to 0.5–2.0) with the pitch kept; returns the speed now set."""
        speed = float(speed)
        if not math.isfinite(speed):
            raise ValueError(f"speed must be a number, not {speed}")
        speed = round(min(max(speed, MIN_SPEED), MAX_SPEED), 3)
        if speed == self._speed:
            return speed
        with self._lock:
            self._speed = speed
            self._frame = self._position * self._audio.rate if self._audio is not None else 0.0
            self._origin = self._position
            self._tsm_stale = True
        self.speed_changed.emit(speed)
        return speed

    def faster(self) -> float:
        return self.set_speed(round(self._speed + SPEED_STEP, 2))

    def slower(self) -> float:
        return self.set_speed(round(self._speed - SPEED_STEP, 2))

    def _close_stream(self) -> None:
        stream, self._stream = self._stream, None
        if stream is not None:
            try:
                stream.close()
            except Exception:  # noqa: BLE001 — closing a device that vanished
                pass

    # -- the render thread -----------------------------------------------------------------------
    def _render(self, out: Block, delay: float = 0.0) -> bool:
        """Fill ``out`` (float32, (frames, channels)); False at the end. Never blocks, never raises.

        The published position is what is heard now: the block's start less the ``delay`` of the
        sound still queued in front of it, but never before the place playing last started from.
        """
        if not self._lock.acquire(blocking=False):
            out.fill(0)  # the UI thread is seeking this very moment
            return True
        try:
            audio = self._audio
            if audio is None or not self._playing or self._ended:
                out.fill(0)
                return not self._ended
            heard = self._frame / audio.rate - delay * self._speed
            self._position = min(max(heard, self._origin), audio.duration)
            stop = self._stop_at
            if stop is not None and self._frame >= stop * audio.rate:  # the passage was all rendered
                out.fill(0)
                self._span_done = True
                self._stop_at = None
                self._frame = stop * audio.rate
                self._position = stop
                self._tsm_stale = True
                return False
            if self._speed == 1.0:
                done = self._render_plain(out, audio, None if stop is None else round(stop * audio.rate))
            else:
                done = self._render_stretched(out, audio)
            if done:
                self._ended = True
                self._frame = float(audio.frames)
                self._position = audio.duration
            return not done
        except Exception as exc:  # noqa: BLE001 — an exception here would kill the audio thread
            out.fill(0)
            self._error = f"playback stopped: {exc}"
            self._ended = True
            return False
        finally:
            self._lock.release()

    def _render_plain(self, out: Block, audio: PcmAudio, stop: int | None = None) -> bool:
        n = len(out)
        i = int(round(self._frame))
        k = max(0, min(n, (audio.frames if stop is None else min(stop, audio.frames)) - i))
        np.multiply(audio.samples[i:i + k], _SCALE, out=out[:k], casting="unsafe")
        out[k:] = 0
        self._frame = float(i + k)
        return i + k >= audio.frames

    def _render_stretched(self, out: Block, audio: PcmAudio) -> bool:
        tsm, reader = self._tsm, self._tsm_reader
        if tsm is None or reader is None or self._tsm_stale:
            tsm, reader = self._reset_tsm(audio)
        n = len(out)
        writer = _ViewWriter(out)
        finished = False
        for _ in range(4 * n + 64):  # each turn reads or writes something; this only guards a bug
            if writer.filled >= n:
                break
            if reader.empty:
                _, finished = tsm.flush_to(writer)
                if finished or writer.filled >= n:
                    break
            else:
                tsm.read_from(reader)
                tsm.write_to(writer)
        out[writer.filled:] = 0
        self._frame = min(self._frame + writer.filled * self._effective_speed, float(audio.frames))
        return finished and writer.filled < n

    def _reset_tsm(self, audio: PcmAudio) -> tuple[_TimeStretcher, _SourceReader]:
        from audiotsm import wsola  # deferred: only needed at speeds other than 1

        frame_length = 1024 if audio.rate >= 32_000 else 512
        tsm = self._tsm
        if tsm is None or self._tsm_shape != (audio.channels, frame_length):
            tsm = self._tsm = wsola(audio.channels, speed=self._speed, frame_length=frame_length)
            self._tsm_shape = (audio.channels, frame_length)
        tsm.set_speed(self._speed)
        tsm.clear()
        # audiotsm moves by whole analysis hops, so the real speed is a ratio of integers
        synthesis_hop = frame_length // 2
        self._effective_speed = int(synthesis_hop * self._speed) / synthesis_hop
        reader = self._tsm_reader = _SourceReader(audio, int(self._frame))
        self._tsm_stale = False
        return tsm, reader


class _SourceReader:
    """audiotsm's Reader over the decoded samples from a frame on; channels first, floats."""

    def __init__(self, audio: PcmAudio, frame: int) -> None:
        self._samples: Samples = audio.samples
        self._pos = min(max(frame, 0), audio.frames)

    @property
    def channels(self) -> int:
        return self._samples.shape[1]

    @property
    def empty(self) -> bool:
        return self._pos >= len(self._samples)

    def read(self, buffer: _Buffer) -> int:
        # shape: buffer (channels, n); samples (frames, channels)
        n = min(buffer.shape[1], len(self._samples) - self._pos)
        np.multiply(self._samples[self._pos:self._pos + n].T, _SCALE, out=buffer[:, :n], casting="unsafe")
        self._pos += n
        return n

    def skip(self, n: int) -> int:
        n = min(n, len(self._samples) - self._pos)
        self._pos += n
        return n


class _ViewWriter:
    """audiotsm's Writer into the output block, counting what it was given."""

    def __init__(self, out: Block) -> None:
        self._out = out
        self.filled = 0

    @property
    def channels(self) -> int:
        return self._out.shape[1]

    def write(self, buffer: _Buffer) -> int:
        # shape: buffer (channels, n); out (frames, channels)
        n = min(buffer.shape[1], len(self._out) - self.filled)
        self._out[self.filled:self.filled + n] = buffer[:, :n].T
        self.filled += n
        return n
