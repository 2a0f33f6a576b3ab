"""Errors of speech recognition that the person can fix; each reads as one sentence."""

from __future__ import annotations

from editor.core.errors import UserError


class AsrError(UserError):
    """Base of every speech-recognition error the CLI prints as one line."""


class AudioError(AsrError):
    """An audio or video file cannot be decoded: unreadable, corrupt, or without sound."""


class ModelError(AsrError):
    """A Vosk model is missing, incomplete, or cannot be loaded."""


class NoSpeechError(AsrError):
    """The audio decoded fine but nothing in it was recognised as speech."""


class RecognitionCancelled(AsrError):
    """The person cancelled a transcription; not a failure, but it ends the run."""


class DownloadError(AsrError):
    """A model download failed: network, checksum, a broken or hostile archive, a full disk."""


class DownloadCancelled(DownloadError):
    """The person cancelled a download; a partial file is kept so the next try resumes."""


class NoConnection(DownloadError):
    """A download found no connection (offline): a model can still be installed from a file."""
