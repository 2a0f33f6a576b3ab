"""Audio file in, :class:`~editor.core.Transcript` out: the whole of speech recognition in one call."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from editor.asr.audio_blocks import probe_audio
from editor.asr.engine import Event, Finished, Progress, Word, WordBatch, recognise
from editor.asr.errors import NoSpeechError
from editor.asr.models import ModelInfo, resolve_model
from editor.asr.worker import recognise_in_worker
from editor.core.document import Metadata, Token, Transcript

if TYPE_CHECKING:
    from vosk import Model as VoskModel

    from editor.asr.speakers import Speakers, VoiceEncoder

PARAGRAPH_GAP = 2.0
"""Seconds of silence between two words that start a new paragraph."""
SHORT_RECORDING = 1.0
"""Seconds of audio under which a recording is said to be short (a word or two at most)."""


def _seconds(t: float) -> str:
    return f"{t:.2f} s" if t < 60 else f"{int(t // 60)}:{t % 60:04.1f}"


def audio_notes(header: float | None, decoded: float) -> list[str]:
    """What a person should know of the audio itself, given the length its file's header states
    (``header``; None when it states none) and the length actually decoded: a truncated .mp3
    whose header says 2.2 s but holds 0.31 s of sound gave one cue and no word about it."""
    if header and decoded < header - max(0.5, 0.02 * header):
        return [f"only {_seconds(decoded)} of audio could be decoded, though the file says it "
                f"lasts {_seconds(header)}: it may be cut short or damaged; the words end there"]
    if decoded < SHORT_RECORDING:
        return [f"the recording holds only {_seconds(decoded)} of audio"]
    return []


def within(tokens: list[Token], duration: float) -> list[Token]:
    """``tokens`` with no time past ``duration``, the end of the audio decoded."""
    import dataclasses

    return [t if (t.end is None or t.end <= duration) and (t.start is None or t.start <= duration)
            else dataclasses.replace(t, start=None if t.start is None else min(t.start, duration),
                                     end=None if t.end is None else min(t.end, duration))
            for t in tokens]


class TokenAssembler:
    """Turns word batches into tokens and says where paragraphs start, as words arrive.

    A view that shows words as they are recognised feeds each batch in and appends what comes out:
    ``for tokens, new_paragraph in assembler.add(batch.words):
    transcript.append_tokens(tokens, new_paragraph=new_paragraph)``.
    """

    def __init__(self, paragraph_gap: float = PARAGRAPH_GAP) -> None:
        self.paragraph_gap = paragraph_gap
        self.last_end: float | None = None

    def add(self, words: Iterable[Word]) -> list[tuple[list[Token], bool]]:
        groups: list[tuple[list[Token], bool]] = []
        for w in words:
            gap = None if self.last_end is None else w.start - self.last_end
            token = Token(word=w.text, start=w.start, end=w.end, confidence=w.confidence)
            if not groups or (gap is not None and gap >= self.paragraph_gap):
                groups.append(([token], gap is not None and gap >= self.paragraph_gap))
            else:
                groups[-1][0].append(token)
            self.last_end = w.end
        return groups


def iter_transcription(audio_path: str | os.PathLike[str],
                       model: str | os.PathLike[str] | ModelInfo | None = None, *,
                       cancel: threading.Event | None = None, verbose: bool = False,
                       in_worker: bool = True, vosk_model: VoskModel | None = None) -> Iterator[Event]:
    """The lower level of :func:`transcribe`: its events, as they come.

    Yields :class:`Progress`, :class:`WordBatch` and, last, :class:`Finished`. Recognition runs in a
    spawned child process unless ``in_worker`` is False; then it runs on this thread, where a crash
    in Vosk's native code would take the program down with it. The file is checked before the
    child starts, so an unreadable file fails at once. ``vosk_model``, a ``vosk.Model`` already
    loaded from ``model``, is used when recognition runs here (a batch worker loads it once).
    """
    info = model if isinstance(model, ModelInfo) else resolve_model(model)
    probe_audio(audio_path)
    if not in_worker:
        stop = (lambda: cancel.is_set()) if cancel is not None else None
        yield from recognise(audio_path, info.path, should_stop=stop, verbose=verbose, model=vosk_model)
    else:
        yield from recognise_in_worker(audio_path, info.path, cancel=cancel, verbose=verbose)


def transcribe(audio_path: str | os.PathLike[str],
               model: str | os.PathLike[str] | ModelInfo | None = None, *,
               on_progress: Callable[[Progress], None] | None = None,
               on_words: Callable[[tuple[Word, ...]], None] | None = None,
               cancel: threading.Event | None = None, verbose: bool = False,
               paragraph_gap: float = PARAGRAPH_GAP, in_worker: bool = True,
               vosk_model: VoskModel | None = None, speakers: Speakers | None = None,
               encoder: VoiceEncoder | None = None) -> Transcript:
    """Recognise the speech in ``audio_path`` (any audio or video FFmpeg reads).

    ``model`` is a folder, an installed model's name, a language code, or None for the first model
    found (see :func:`editor.asr.models.resolve_model`). ``on_progress`` and ``on_words`` are called
    on this thread. ``speakers`` (a number, or ``"auto"``) also finds who speaks when
    (:mod:`editor.asr.speakers`; progress in stage ``"speakers"``), with ``encoder`` if one is
    loaded already; None leaves the words without speakers. Raises :class:`~editor.asr.errors.AudioError`, :class:`ModelError`,
    :class:`NoSpeechError` or :class:`RecognitionCancelled`, all of them ``UserError``.
    """
    info = model if isinstance(model, ModelInfo) else resolve_model(model)
    assembler = TokenAssembler(paragraph_gap)
    tokens: list[Token] = []
    starts: list[int] = []
    duration = header = None
    for event in iter_transcription(audio_path, info, cancel=cancel, verbose=verbose,
                                    in_worker=in_worker, vosk_model=vosk_model):
        if isinstance(event, Progress) and event.stage == "loading":
            header = event.duration  # what the file's header says, before a block is decoded
        if isinstance(event, WordBatch):
            for group, new_paragraph in assembler.add(event.words):
                if new_paragraph:
                    starts.append(len(tokens))
                tokens.extend(group)
            if on_words is not None:
                on_words(event.words)
        elif isinstance(event, Progress):
            if on_progress is not None:
                on_progress(event)
        elif isinstance(event, Finished):
            duration = event.duration
    name = Path(audio_path).name
    if not tokens:
        raise NoSpeechError(f"{name}: no speech was recognised; the file may be silent, or not in "
                            f"the model's language ({info.language or info.name})")
    notes: list[str] = []
    if duration is not None:
        tokens = within(tokens, duration)
        notes = audio_notes(header, duration)
    metadata = Metadata(audio_file=os.fspath(audio_path), language=info.language, model=info.name,
                        duration=duration, warnings=tuple(notes))
    doc = Transcript(tokens, paragraph_starts=starts, metadata=metadata)
    if speakers is not None:
        add_speaker_turns(doc, audio_path, speakers, on_progress=on_progress, cancel=cancel, encoder=encoder)
        doc.history.clear()  # the turns are part of what was transcribed, not an edit to undo
    return doc


def add_speaker_turns(doc: Transcript, audio_path: str | os.PathLike[str], speakers: Speakers, *,
                      on_progress: Callable[[Progress], None] | None = None,
                      cancel: threading.Event | None = None, encoder: VoiceEncoder | None = None) -> int:
    """Find who speaks when in ``audio_path`` at the times of ``doc``'s words, and give the words
    their speakers (one undo step, :func:`editor.core.speakers.apply_turns`); returns how many
    words changed. ``on_progress`` gets :class:`Progress` in stage ``"speakers"``."""
    import time

    from editor.asr.speakers import find_speaker_turns
    from editor.core.speakers import apply_turns

    words = [(t.start, t.end) for t in doc.tokens if t.start is not None and t.end is not None]
    began = time.monotonic()
    duration = doc.metadata.duration or (words[-1][1] if words else None)

    def report(fraction: float) -> None:
        if on_progress is not None:
            on_progress(Progress(stage="speakers", position=fraction * (duration or 0.0), duration=duration,
                                 elapsed=time.monotonic() - began))

    report(0.0)
    turns = find_speaker_turns(audio_path, words, speakers, cancel=cancel, on_progress=report, encoder=encoder)
    return apply_turns(doc, turns)
