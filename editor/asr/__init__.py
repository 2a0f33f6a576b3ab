"""Speech recognition: any audio or video file to a timed transcript with Vosk, and the models it needs.

Imports only ``editor.core``; vosk and PyAV load when first used, so importing this stays cheap.

``transcribe(audio, model)`` is the whole job; ``iter_transcription`` gives its events as they come
(for a view that shows words as they are recognised, with :class:`TokenAssembler`). Models are found
with ``resolve_model``/``installed_models``, listed with ``load_catalogue`` and fetched with
``download_model``. Everything that crosses a thread or process is a frozen dataclass.
"""

from editor.asr.catalogue import Catalogue, CatalogueEntry, load_catalogue, refresh_catalogue
from editor.asr.decode import AudioInfo, iter_pcm, probe_audio
from editor.asr.download import DownloadProgress, download_model
from editor.asr.engine import Finished, Progress, Word, WordBatch
from editor.asr.errors import (AsrError, AudioError, DownloadCancelled, DownloadError, ModelError,
                               NoSpeechError, RecognitionCancelled)
from editor.asr.models import ModelInfo, installed_models, models_dir, resolve_model, validate_model
from editor.asr.transcribe import TokenAssembler, iter_transcription, transcribe

__all__ = [
    "AsrError", "AudioError", "AudioInfo", "Catalogue", "CatalogueEntry", "DownloadCancelled",
    "DownloadError", "DownloadProgress", "Finished", "ModelError", "ModelInfo", "NoSpeechError",
    "Progress", "RecognitionCancelled", "TokenAssembler", "Word", "WordBatch", "download_model",
    "installed_models", "iter_pcm", "iter_transcription", "load_catalogue", "models_dir",
    "probe_audio", "refresh_catalogue", "resolve_model", "transcribe", "validate_model",
]
