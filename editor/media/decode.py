"""One PyAV decoder for every reader of recordings: open and probe a file, then stream its first
audio stream at the rate and channel layout the reader asks for.

One policy for what real files do wrong, so that a file plays exactly as far as it transcribes:

- a packet that cannot be decoded is skipped; a file where more than ``MAX_BAD_PACKETS`` fail, and
  more fail than decode, is refused as corrupt instead of being silently half-read;
- a container that breaks off mid-way (a cut download, a damaged index) gives what came before the
  break, and says so in :attr:`MediaFile.damage` and the log; it is refused only when nothing
  before the break could be read;
- timestamps are ignored (the resampler keeps its own clock), so gaps and jumps in them change
  nothing; a stream whose sample rate or layout changes mid-way (joined recordings) is resampled
  piece by piece instead of failing.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np

from editor.core.errors import UserError

MAX_BAD_PACKETS = 50
"""Undecodable packets forgiven before a file where most packets fail is called corrupt."""

_log = logging.getLogger(__name__)


class MediaError(UserError):
    """A recording cannot be read: missing, not audio or video, without sound, or corrupt."""


@dataclass(frozen=True)
class MediaInfo:
    """What a file holds, read from its header without decoding it."""

    path: str
    duration: float | None
    """Seconds, or None when the container does not say."""
    codec: str
    sample_rate: int
    channels: int
    has_video: bool


def open_media(path: str | os.PathLike[str]) -> MediaFile:
    """Open ``path`` for reading its first audio stream; raise :class:`MediaError` with a one-line
    reason when it is missing, not something FFmpeg reads, or has no sound. Close it (or use it
    in a ``with`` block) when done."""
    import av  # deferred: importing editor.media stays cheap

    p = Path(path)
    if not p.exists():
        raise MediaError(f"{p}: no such file")
    if p.is_dir():
        raise MediaError(f"{p}: is a folder, not a file")
    if not p.is_file():  # a pipe or a device would block FFmpeg
        raise MediaError(f"{p}: not a file")
    if p.stat().st_size == 0:  # FFmpeg's word for it is "Invalid data found when processing input"
        raise MediaError(f"{p.name}: the file is empty (0 bytes)")
    try:
        container = av.open(str(p), mode="r")
    except (av.error.FFmpegError, OSError, UnicodeDecodeError, ValueError) as exc:
        raise MediaError(f"{p.name}: not an audio or video file FFmpeg can read "
                         f"({_reason(exc)})") from None
    if not container.streams.audio:
        container.close()
        raise MediaError(f"{p.name}: the file has no audio stream")
    return MediaFile(container, os.fspath(path))


def probe(path: str | os.PathLike[str]) -> MediaInfo:
    """Read the header of ``path``; raise :class:`MediaError` if it is unreadable or has no sound."""
    with open_media(path) as media:
        return media.info


#: How much sound ``check_sound`` decodes: enough to know the stream holds decodable audio.
CHECK_SECONDS = 0.5


def check_sound(path: str | os.PathLike[str], seconds: float = CHECK_SECONDS) -> MediaInfo:
    """Open ``path`` and decode its first ``seconds`` of sound, with the decoder and policy that
    transcription and playback use; raise :class:`MediaError` (one line) when it cannot be
    opened or no sound in it decodes. Only the beginning is read, so an hour costs what a
    minute does: a check before anything open is let go for it, not a proof that every later
    packet decodes."""
    with open_media(path) as media:
        wanted = max(1, round(seconds * _CHECK_RATE))
        got = 0
        for block in media.frames(_CHECK_RATE, 1):
            got += len(block)
            if got >= wanted:
                break
        return media.info


_CHECK_RATE = 16_000  # what speech recognition reads


class MediaFile:
    """An open recording: its header (:attr:`info`) and its sound (:meth:`frames`)."""

    def __init__(self, container: Any, path: str) -> None:
        self._container = container
        self._stream = container.streams.audio[0]
        self._stream.thread_type = "AUTO"
        self.name = Path(path).name
        ctx = self._stream.codec_context
        self.info = MediaInfo(path=path, duration=_duration(container, self._stream),
                              codec=ctx.name, sample_rate=int(ctx.sample_rate or 0),
                              channels=int(ctx.channels or 0),
                              has_video=bool(container.streams.video))
        self.damage: str | None = None
        """Why the sound ended before the file did, when it did; None for a whole read."""

    def frames(self, rate: int, channels: int) -> Iterator[np.ndarray]:
        """The first audio stream as read-only int16 arrays of shape (frames, channels), resampled
        to ``rate`` and down- or up-mixed to ``channels`` (1 or 2), in order and without gaps.

        Raises :class:`MediaError` when the audio is corrupt or holds no samples. A caller that
        needs only the beginning may stop iterating at any point.
        """
        import av

        if rate <= 0 or channels not in (1, 2):
            raise ValueError(f"cannot decode to {rate} Hz with {channels} channels")
        layout = "mono" if channels == 1 else "stereo"
        resampler = av.AudioResampler(format="s16", layout=layout, rate=rate)
        emitted = bad = good = 0
        for packet in self._packets():
            try:
                decoded = packet.decode()
            except (av.error.FFmpegError, ValueError) as exc:
                bad += 1
                if bad > MAX_BAD_PACKETS and bad > good:
                    raise MediaError(f"{self.name}: the audio is corrupt ({_reason(exc)})") from None
                continue
            good += 1
            for frame in decoded:
                frame.pts = None  # the resampler keeps its own clock: broken timestamps do not matter
                try:
                    converted = resampler.resample(frame)
                except ValueError:  # the rate or layout changed mid-stream (joined recordings):
                    for out in _flush(resampler, channels):  # finish the old piece first
                        emitted += len(out)
                        yield out
                    resampler = av.AudioResampler(format="s16", layout=layout, rate=rate)
                    converted = resampler.resample(frame)
                for out in _arrays(converted, channels):
                    emitted += len(out)
                    yield out
        for out in _flush(resampler, channels):
            emitted += len(out)
            yield out
        if emitted == 0:
            if bad:
                raise MediaError(f"{self.name}: the audio is corrupt; no packet could be decoded")
            if self.damage:
                raise MediaError(f"{self.name}: the file is damaged and no sound in it can be read "
                                 f"({self.damage})")
            raise MediaError(f"{self.name}: the audio stream holds no samples")

    def _packets(self) -> Iterator[Any]:
        import av

        try:
            for packet in self._container.demux(self._stream):
                if packet.size or packet.dts is None:  # the final empty packet flushes the decoder
                    yield packet
        except av.error.FFmpegError as exc:
            self.damage = _reason(exc)
            _log.warning("%s: the file is damaged; reading stopped there (%s)", self.name, self.damage)

    def close(self) -> None:
        self._container.close()

    def __enter__(self) -> MediaFile:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def _arrays(frames: list[Any], channels: int) -> Iterator[np.ndarray]:
    for out in frames:
        # packed s16 comes as one row: (1, samples * channels)
        data = out.to_ndarray().reshape(-1, channels)
        if len(data):
            data.setflags(write=False)
            yield data


def _flush(resampler: Any, channels: int) -> Iterator[np.ndarray]:
    return _arrays(resampler.resample(None), channels)


def _duration(container: Any, stream: Any) -> float | None:
    if stream.duration is not None and stream.time_base is not None:
        seconds = float(stream.duration * stream.time_base)
        if seconds > 0:
            return seconds
    if container.duration is not None and container.duration > 0:
        return float(container.duration / 1_000_000)  # AV_TIME_BASE
    return None


def _reason(exc: BaseException) -> str:
    text = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    # PyAV appends ": 'path'" to FFmpeg messages; the file is named already.
    return str(text).split(": '")[0].strip().rstrip(".")
