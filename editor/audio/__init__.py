"""Audio playback in the editor (sounddevice); imports only editor.core.

``Player`` plays a recording on PortAudio's callback thread with speed (pitch kept), seeking and
skips; ``word_at`` says which token is playing. Nothing here needs Qt or an audio device.
"""

from editor.audio.backend import OutputBackend, OutputStream, SoundDeviceBackend
from editor.audio.decode import PcmAudio, PlaybackError, decode_audio
from editor.audio.follow import WordTimeline, timeline, word_at
from editor.audio.player import MAX_SPEED, MIN_SPEED, Player

__all__ = ["MAX_SPEED", "MIN_SPEED", "OutputBackend", "OutputStream", "PcmAudio", "PlaybackError",
           "Player", "SoundDeviceBackend", "WordTimeline", "decode_audio", "timeline", "word_at"]
