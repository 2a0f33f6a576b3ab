"""Audio and video files: what counts as one, and one PyAV decoder for everything that reads them.

Imports only ``editor.core``; no Qt, no torch. PyAV and numpy load when a file is first opened, so
importing this (as the window and `stet --help` do) stays cheap.

``open_media(path)`` opens a file once: ``.info`` is what its header says, ``.frames(rate, channels)``
streams its first audio stream as int16 arrays. Speech recognition (editor.asr) and playback
(editor.audio) are thin adapters over it, so a damaged file fails, or plays and transcribes as far
as it can be read, the same way for both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from editor.core.lazy import lazy_exports

from editor.media.kinds import AUDIO_SUFFIXES, MEDIA_SUFFIXES, VIDEO_SUFFIXES, is_media, media_kind

_EXPORTS = {
    "MediaError": "decode", "MediaFile": "decode", "MediaInfo": "decode", "open_media": "decode",
    "probe": "decode", "check_sound": "decode",
}

__all__ = sorted([*_EXPORTS, "AUDIO_SUFFIXES", "MEDIA_SUFFIXES", "VIDEO_SUFFIXES", "is_media",
                  "media_kind"])


__getattr__ = lazy_exports(__name__, _EXPORTS)


if TYPE_CHECKING:
    from editor.media.decode import MediaError, MediaFile, MediaInfo, check_sound, open_media, probe
