"""Recordings as Vosk takes them: 16 kHz mono signed 16-bit PCM in blocks, from editor.media's
decoder (so a damaged file transcribes exactly as far as it plays). Errors become
:class:`~editor.asr.errors.AudioError`.

Nothing here holds the whole recording: frames are decoded, resampled and handed on block by block.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

from editor.asr.errors import AudioError
from editor.media.decode import MediaError, MediaInfo, open_media, probe

SAMPLE_RATE = 16_000
"""The rate every Vosk model here expects; decoding resamples to it."""

BYTES_PER_SAMPLE = 2  # signed 16-bit, one channel

AudioInfo = MediaInfo
"""What a file holds, read from its header without decoding it."""


@dataclass(frozen=True)
class PcmBlock:
    """One block of 16 kHz mono signed 16-bit little-endian samples and where it starts."""

    data: bytes
    start: float
    """Seconds from the start of the recording."""

    @property
    def duration(self) -> float:
        return len(self.data) / (BYTES_PER_SAMPLE * SAMPLE_RATE)


def probe_audio(path: str | os.PathLike[str]) -> AudioInfo:
    """Read the header of ``path``; raise :class:`AudioError` if it is unreadable or has no sound."""
    try:
        return probe(path)
    except MediaError as exc:
        raise AudioError(str(exc)) from None


def iter_pcm(path: str | os.PathLike[str], block_seconds: float = 0.5) -> Iterator[PcmBlock]:
    """Yield the first audio stream of ``path`` as 16 kHz mono int16 blocks of ``block_seconds``.

    The last block may be shorter. Raises :class:`AudioError` for an unreadable file, one without
    an audio stream, or one whose audio cannot be decoded.
    """
    if block_seconds <= 0:
        raise ValueError(f"block_seconds must be positive, not {block_seconds}")
    block_bytes = max(1, round(block_seconds * SAMPLE_RATE)) * BYTES_PER_SAMPLE
    pending = bytearray()
    emitted = 0  # bytes already yielded
    try:
        with open_media(path) as media:
            for samples in media.frames(SAMPLE_RATE, 1):
                pending += samples.astype("<i2", copy=False).tobytes()
                while len(pending) >= block_bytes:
                    yield PcmBlock(bytes(pending[:block_bytes]), emitted / (BYTES_PER_SAMPLE * SAMPLE_RATE))
                    emitted += block_bytes
                    del pending[:block_bytes]
    except MediaError as exc:
        raise AudioError(str(exc)) from None
    for i in range(0, len(pending), block_bytes):
        chunk = bytes(pending[i:i + block_bytes])
        yield PcmBlock(chunk, emitted / (BYTES_PER_SAMPLE * SAMPLE_RATE))
        emitted += len(chunk)
