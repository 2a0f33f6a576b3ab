"""Which files are recordings rather than transcripts, by their suffix (no file is opened)."""

from __future__ import annotations

import os
from pathlib import Path

AUDIO_SUFFIXES = (".wav", ".mp3", ".m4a", ".aac", ".flac", ".ogg", ".oga", ".opus", ".wma",
                  ".aif", ".aiff", ".amr")
VIDEO_SUFFIXES = (".webm", ".mp4", ".m4v", ".mkv", ".mov", ".avi", ".mpg", ".mpeg", ".3gp")
MEDIA_SUFFIXES = AUDIO_SUFFIXES + VIDEO_SUFFIXES
"""What the window and the command line hand to speech recognition rather than to a transcript
reader. PyAV reads more; these are the ones the Open dialog offers and drops are accepted for."""


def media_kind(path: str | os.PathLike[str]) -> str | None:
    """``"audio"``, ``"video"``, or None when the suffix names no recording."""
    suffix = Path(path).suffix.lower()
    if suffix in AUDIO_SUFFIXES:
        return "audio"
    if suffix in VIDEO_SUFFIXES:
        return "video"
    return None


def is_media(path: str | os.PathLike[str]) -> bool:
    return media_kind(path) is not None
