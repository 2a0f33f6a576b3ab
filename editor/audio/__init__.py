"""Audio playback in the editor (sounddevice); imports only editor.core and editor.media.

``Player`` plays a recording on PortAudio's callback thread with speed (pitch kept), seeking and
skips; ``word_at`` says which token is playing. Nothing here needs Qt or an audio device, and
names load on first use, so importing this package (as `stet --help` does) stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from editor.core.lazy import lazy_exports

_EXPORTS = {
    "OutputBackend": "backend", "OutputStream": "backend", "SoundDeviceBackend": "backend",
    "PcmAudio": "pcm", "PlaybackError": "pcm", "decode_audio": "pcm",
    "WordTimeline": "follow", "timeline": "follow", "word_at": "follow",
    "MAX_SPEED": "player", "MIN_SPEED": "player", "Player": "player",
}

__all__ = sorted(_EXPORTS)


__getattr__ = lazy_exports(__name__, _EXPORTS)


if TYPE_CHECKING:
    from editor.audio.backend import OutputBackend, OutputStream, SoundDeviceBackend
    from editor.audio.pcm import PcmAudio, PlaybackError, decode_audio
    from editor.audio.follow import WordTimeline, timeline, word_at
    from editor.audio.player import MAX_SPEED, MIN_SPEED, Player
