"""Decode any audio or video file FFmpeg reads into 16 kHz mono 16-bit PCM, streamed in blocks.

Nothing here holds the whole recording: frames are decoded, resampled and handed on block by block.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from editor.asr.errors import AudioError

SAMPLE_RATE = 16_000
"""The rate every Vosk model here expects; decoding resamples to it."""

BYTES_PER_SAMPLE = 2  # signed 16-bit, one channel

# A few undecodable packets in a long, slightly damaged recording are skipped; a file where
# decoding keeps failing is reported instead of being silently half-read.
_MAX_BAD_PACKETS = 50


@dataclass(frozen=True)
class AudioInfo:
    """What a file holds, read from its header without decoding it."""

    path: str
    duration: float | None
    """Seconds, or None when the container does not say (then progress has no fraction)."""
    codec: str
    sample_rate: int
    channels: int
    has_video: bool


@dataclass(frozen=True)
class PcmBlock:
    """One block of 16 kHz mono signed 16-bit little-endian samples and where it starts."""

    data: bytes
    start: float
    """Seconds from the start of the recording."""

    @property
    def duration(self) -> float:
        return len(self.data) / (BYTES_PER_SAMPLE * SAMPLE_RATE)


def _open(path: str | os.PathLike[str]):
    import av  # deferred: importing editor.asr must stay cheap

    p = Path(path)
    if not p.exists():
        raise AudioError(f"{p}: no such file")
    if p.is_dir():
        raise AudioError(f"{p}: is a folder, not an audio or video file")
    try:
        container = av.open(str(p), mode="r")
    except (av.error.FFmpegError, OSError, UnicodeDecodeError, ValueError) as exc:
        raise AudioError(f"{p.name}: not an audio or video file FFmpeg can read ({_reason(exc)})") from None
    if not container.streams.audio:
        container.close()
        raise AudioError(f"{p.name}: the file has no audio stream")
    return container


def _reason(exc: BaseException) -> str:
    text = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    # PyAV appends ": 'path'" to FFmpeg messages; the file is named already.
    return text.split(": '")[0].strip().rstrip(".")


def probe_audio(path: str | os.PathLike[str]) -> AudioInfo:
    """Read the header of ``path``; raise :class:`AudioError` if it is unreadable or has no sound."""
    container = _open(path)
    try:
        stream = container.streams.audio[0]
        return AudioInfo(
            path=os.fspath(path),
            duration=_duration(container, stream),
            codec=stream.codec_context.name,
            sample_rate=int(stream.codec_context.sample_rate or 0),
            channels=int(stream.codec_context.channels or 0),
            has_video=bool(container.streams.video),
        )
    finally:
        container.close()


def _duration(container, stream) -> float | None:
    if stream.duration is not None and stream.time_base is not None:
        seconds = float(stream.duration * stream.time_base)
        if seconds > 0:
            return seconds
    if container.duration is not None and container.duration > 0:
        return container.duration / 1_000_000  # AV_TIME_BASE
    return None


def iter_pcm(path: str | os.PathLike[str], block_seconds: float = 0.5) -> Iterator[PcmBlock]:
    """Yield the first audio stream of ``path`` as 16 kHz mono int16 blocks of ``block_seconds``.

    The last block may be shorter. Raises :class:`AudioError` for an unreadable file, one without
    an audio stream, or one whose audio cannot be decoded.
    """
    import av

    if block_seconds <= 0:
        raise ValueError(f"block_seconds must be positive, not {block_seconds}")
    block_bytes = max(1, round(block_seconds * SAMPLE_RATE)) * BYTES_PER_SAMPLE
    name = Path(path).name
    container = _open(path)
    try:
        stream = container.streams.audio[0]
        stream.thread_type = "AUTO"
        resampler = av.AudioResampler(format="s16", layout="mono", rate=SAMPLE_RATE)
        pending = bytearray()
        emitted = 0  # bytes already yielded
        bad_packets = good_packets = 0
        for packet in _demux(container, stream, name):
            try:
                frames = packet.decode()
            except av.error.FFmpegError as exc:
                bad_packets += 1
                if bad_packets > _MAX_BAD_PACKETS and bad_packets > good_packets:
                    raise AudioError(f"{name}: the audio is corrupt ({_reason(exc)})") from None
                continue
            good_packets += 1
            for frame in frames:
                for out in resampler.resample(frame):
                    pending += _frame_bytes(out)
            while len(pending) >= block_bytes:
                yield PcmBlock(bytes(pending[:block_bytes]), emitted / (BYTES_PER_SAMPLE * SAMPLE_RATE))
                emitted += block_bytes
                del pending[:block_bytes]
        for out in resampler.resample(None):
            pending += _frame_bytes(out)
        for i in range(0, len(pending), block_bytes):
            chunk = bytes(pending[i:i + block_bytes])
            yield PcmBlock(chunk, emitted / (BYTES_PER_SAMPLE * SAMPLE_RATE))
            emitted += len(chunk)
        if emitted == 0:
            if bad_packets:
                raise AudioError(f"{name}: the audio is corrupt; no packet could be decoded")
            raise AudioError(f"{name}: the audio stream holds no samples")
    finally:
        container.close()


def _demux(container, stream, name: str):
    import av

    try:
        for packet in container.demux(stream):
            if packet.size or packet.dts is None:  # the final empty packet flushes the decoder
                yield packet
    except av.error.FFmpegError as exc:
        raise AudioError(f"{name}: the file is damaged and cannot be read further ({_reason(exc)})") from None


def _frame_bytes(frame) -> bytes:
    # shape: (1, samples) for packed mono s16
    return frame.to_ndarray().tobytes()
