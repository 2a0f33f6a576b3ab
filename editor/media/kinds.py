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


def recording_beside(path: str | os.PathLike[str]) -> Path | None:
    """A recording with the same name as the transcript ``path`` in its folder (``talk.srt``:
    ``talk.mp3``, ``talk.wav``, ``talk.mp4``…; audio before video, in the order of the suffixes
    above; a name in other case, ``Talk.MP3``, too), or one named without the language that
    subtitles often carry (``talk.en.vtt``: ``talk.mp4``, as yt-dlp saves them). None when there
    is none or the folder cannot be listed. Only names are compared: no file is opened."""
    source = Path(path)
    if is_media(source):
        return None
    stems = [source.stem.lower()]
    if "." in stems[0]:
        stems.append(stems[0].rpartition(".")[0])
    try:  # names only (no stat of each file: a folder of downloads can hold thousands)
        with os.scandir(source.parent) as entries:
            beside = {e.name.lower(): Path(e.path) for e in entries
                      if e.name.lower().startswith(stems[-1]) and e.is_file()}
    except OSError:
        return None
    return next((beside[stem + suffix] for stem in stems for suffix in MEDIA_SUFFIXES
                 if stem + suffix in beside), None)
