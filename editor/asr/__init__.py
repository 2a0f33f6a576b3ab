"""Speech recognition: any audio or video file to a timed transcript with Vosk, and the models it needs.

Imports only ``editor.core`` and ``editor.media``; vosk and PyAV load when first used, so importing
this stays cheap.

``transcribe(audio, model)`` is the whole job; ``transcription_pass`` is the same pass as events
(words as they are heard, progress, who speaks when; what the window, ``stet transcribe`` and
batches all run; a view shows the words as they come with :class:`TokenAssembler`). Models are found
with ``resolve_model``/``installed_models``, listed with ``load_catalogue`` and fetched with
``download_model``. Everything that crosses a thread or process is a frozen dataclass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from editor.core.lazy import lazy_exports

# name -> submodule. Names load on first use: the recognition worker process imports this package
# and needs only the engine, and `stet --help` needs none of it.
_EXPORTS = {
    "AudioInfo": "audio_blocks", "iter_pcm": "audio_blocks", "probe_audio": "audio_blocks",
    "Catalogue": "catalogue", "CatalogueEntry": "catalogue", "MODEL_LIST_URL": "catalogue",
    "language_name": "catalogue", "load_catalogue": "catalogue", "refresh_catalogue": "catalogue",
    "DownloadProgress": "download", "download_model": "download", "install_model": "install",
    "Finished": "engine", "Progress": "engine", "Word": "engine", "WordBatch": "engine",
    "AsrError": "errors", "AudioError": "errors", "DownloadCancelled": "errors",
    "DownloadError": "errors", "ModelError": "errors", "NoConnection": "errors", "NoSpeechError": "errors",
    "RecognitionCancelled": "errors",
    "ModelInfo": "models", "installed_models": "models", "language_matches": "models",
    "models_dir": "models", "resolve_model": "models", "validate_model": "models",
    "ENCODER_CREDIT": "speakers", "Speakers": "speakers", "VoiceEncoder": "speakers",
    "check_speakers_installed": "speakers", "parse_speakers": "speakers",
    "PassEvent": "transcribe", "SpeakersFound": "transcribe", "TokenAssembler": "transcribe",
    "audio_notes": "transcribe", "iter_transcription": "transcribe", "transcribe": "transcribe",
    "transcription_pass": "transcribe",
}

__all__ = sorted(_EXPORTS)


__getattr__ = lazy_exports(__name__, _EXPORTS)


if TYPE_CHECKING:
    from editor.asr.audio_blocks import AudioInfo, iter_pcm, probe_audio
    from editor.asr.catalogue import (Catalogue, CatalogueEntry, MODEL_LIST_URL, language_name,
                                      load_catalogue, refresh_catalogue)
    from editor.asr.download import DownloadProgress, download_model
    from editor.asr.engine import Finished, Progress, Word, WordBatch
    from editor.asr.errors import (AsrError, AudioError, DownloadCancelled, DownloadError,
                                   ModelError, NoConnection, NoSpeechError, RecognitionCancelled)
    from editor.asr.install import install_model
    from editor.asr.models import (ModelInfo, installed_models, language_matches, models_dir,
                                   resolve_model, validate_model)
    from editor.asr.speakers import (ENCODER_CREDIT, Speakers, VoiceEncoder, check_speakers_installed,
                                     parse_speakers)
    from editor.asr.transcribe import (PassEvent, SpeakersFound, TokenAssembler, audio_notes,
                                       iter_transcription, transcribe, transcription_pass)
