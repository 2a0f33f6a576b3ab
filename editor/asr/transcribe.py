"""Audio file in, :class:`~editor.core.Transcript` out: the whole of speech recognition in one call.

:func:`transcription_pass` is the one pass every caller runs (the window, ``stet transcribe`` and
batches): the recogniser's words as they are heard, progress, then who speaks when, all as events,
with one cancel. :func:`transcribe` folds those events into a transcript; the window folds them
into the transcript it shows as they arrive.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from editor.asr.audio_blocks import probe_audio
from editor.asr.engine import Event, Finished, Progress, Word, WordBatch, recognise
from editor.asr.errors import NoSpeechError, RecognitionCancelled
from editor.asr.models import ModelInfo, resolve_model
from editor.asr.worker import recognise_in_worker
from editor.core.document.transcript import Metadata, Token, Transcript
from editor.core.document.speakers import SpeakerTurn, apply_turns

if TYPE_CHECKING:
    from vosk import Model as VoskModel

    from editor.asr.speakers import SpeakerCount, Speakers, VoiceEncoder

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
    """The recogniser's part of :func:`transcription_pass`: its events, as they come.

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


@dataclass(frozen=True)
class SpeakersFound:
    """Who speaks when, found after the words: turns at the words' times, to give the words
    their speakers with :func:`editor.core.document.speakers.apply_turns` (by time, so words edited while
    the turns were found take their speakers all the same)."""

    turns: tuple[SpeakerTurn, ...]
    count: SpeakerCount | None = None
    """With ``auto``: how many were counted, and whether the count is unsure."""

    @property
    def note(self) -> str:
        """What to tell the person when the count is unsure (else "")."""
        return unsure_note(self.count) if self.count is not None and self.count.unsure else ""


def unsure_note(count: SpeakerCount) -> str:
    likely = sorted(count.likely)
    return (f"the number of speakers is unsure: {count.count} found, {', '.join(map(str, likely[:-1]))} or "
            f"{likely[-1]} are likely (give the number to find them again; Speakers ▸ Merge joins two)")


PassEvent = Progress | WordBatch | Finished | SpeakersFound
"""What :func:`transcription_pass` yields."""


def transcription_pass(audio_path: str | os.PathLike[str],
                       model: str | os.PathLike[str] | ModelInfo | None = None, *,
                       speakers: Speakers | None = None, cancel: threading.Event | None = None,
                       verbose: bool = False, in_worker: bool = True,
                       vosk_model: VoskModel | None = None,
                       encoder: VoiceEncoder | None = None) -> Iterator[PassEvent]:
    """The one transcription pass, as events: what the window, ``stet transcribe`` and batches run.

    Yields, in order: :class:`Progress` (stage ``"loading"``, then ``"recognising"``) and a
    :class:`WordBatch` each time the recogniser settles on words, as they are heard;
    :class:`Finished` at the end of the audio; then, when ``speakers`` is given (a number, or
    ``"auto"``) and words were heard, :class:`Progress` in stage ``"speakers"`` while who speaks
    when is found (:mod:`editor.asr.speakers`, with ``encoder`` if one is loaded already) and,
    last, :class:`SpeakersFound`. A progress's :attr:`Progress.eta` is None until there is a speed
    to go by. Setting ``cancel`` stops the pass within a second, at any stage, with
    :class:`RecognitionCancelled`. ``in_worker`` and ``vosk_model`` are as for
    :func:`iter_transcription`. Raises the errors :func:`transcribe` names, except
    :class:`NoSpeechError`: a pass that hears nothing just has no words.
    """
    info = model if isinstance(model, ModelInfo) else resolve_model(model)
    words: list[tuple[float, float]] = []
    duration: float | None = None
    for event in iter_transcription(audio_path, info, cancel=cancel, verbose=verbose,
                                    in_worker=in_worker, vosk_model=vosk_model):
        if isinstance(event, WordBatch):
            words.extend((w.start, w.end) for w in event.words)
        elif isinstance(event, Finished):
            duration = event.duration
        yield event
    if speakers is None or not words:
        return
    if cancel is not None and cancel.is_set():
        raise RecognitionCancelled("transcription cancelled")
    yield from _speaker_stage(audio_path, words, speakers, duration or words[-1][1], cancel=cancel,
                              encoder=encoder)


def _speaker_stage(audio_path: str | os.PathLike[str], words: list[tuple[float, float]],
                   speakers: Speakers, total: float, *, cancel: threading.Event | None,
                   encoder: VoiceEncoder | None) -> Iterator[Progress | SpeakersFound]:
    """Who speaks when at ``words``' times: :class:`Progress` in stage ``"speakers"`` (in seconds
    of the recording, ``total`` long, as recognition's), then :class:`SpeakersFound`."""
    from editor.asr.speakers import iter_speaker_turns

    began = time.monotonic()
    yield Progress(stage="speakers", position=0.0, duration=total, elapsed=0.0)
    counted: list[SpeakerCount] = []
    stage = iter_speaker_turns(audio_path, words, speakers, cancel=cancel, encoder=encoder,
                               on_count=counted.append)
    while True:
        try:
            fraction = next(stage)
        except StopIteration as done:
            turns: tuple[SpeakerTurn, ...] = done.value
            break
        yield Progress(stage="speakers", position=fraction * total, duration=total,
                       elapsed=time.monotonic() - began)
    yield SpeakersFound(turns, counted[0] if counted else None)


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
    loaded already; None leaves the words without speakers. This is :func:`transcription_pass`
    folded into a transcript. Raises :class:`~editor.asr.errors.AudioError`, :class:`ModelError`,
    :class:`NoSpeechError` or :class:`RecognitionCancelled`, all of them ``UserError``.
    """
    info = model if isinstance(model, ModelInfo) else resolve_model(model)
    assembler = TokenAssembler(paragraph_gap)
    tokens: list[Token] = []
    starts: list[int] = []
    duration = header = None
    turns: tuple[SpeakerTurn, ...] = ()
    found_notes: list[str] = []
    for event in transcription_pass(audio_path, info, speakers=speakers, cancel=cancel,
                                    verbose=verbose, in_worker=in_worker, vosk_model=vosk_model,
                                    encoder=encoder):
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
        elif isinstance(event, SpeakersFound):
            turns = event.turns
            if event.note:
                found_notes.append(event.note)
    name = Path(audio_path).name
    if not tokens:
        raise NoSpeechError(f"{name}: no speech was recognised; the file may be silent, or not in "
                            f"the model's language ({info.language or info.name})")
    notes: list[str] = []
    if duration is not None:
        tokens = within(tokens, duration)
        notes = audio_notes(header, duration)
    notes += found_notes
    metadata = Metadata(audio_file=os.fspath(audio_path), language=info.language, model=info.name,
                        duration=duration, warnings=tuple(notes))
    doc = Transcript(tokens, paragraph_starts=starts, metadata=metadata)
    if turns:
        apply_turns(doc, turns)
        doc.history.clear()  # the turns are part of what was transcribed, not an edit to undo
    return doc


def add_speaker_turns(doc: Transcript, audio_path: str | os.PathLike[str], speakers: Speakers, *,
                      on_progress: Callable[[Progress], None] | None = None,
                      cancel: threading.Event | None = None, encoder: VoiceEncoder | None = None) -> int:
    """Find who speaks when in ``audio_path`` at the times of ``doc``'s words (a transcript that
    has its words already), and give the words their speakers (one undo step,
    :func:`editor.core.document.speakers.apply_turns`); returns how many words changed. ``on_progress``
    gets :class:`Progress` in stage ``"speakers"``: the speaker stage of :func:`transcription_pass`."""
    words = [(t.start, t.end) for t in doc.tokens if t.start is not None and t.end is not None]
    if not words:
        return 0
    turns: tuple[SpeakerTurn, ...] = ()
    for event in _speaker_stage(audio_path, words, speakers, doc.metadata.duration or words[-1][1],
                                cancel=cancel, encoder=encoder):
        if isinstance(event, SpeakersFound):
            turns = event.turns
        elif on_progress is not None:
            on_progress(event)
    return apply_turns(doc, turns)
