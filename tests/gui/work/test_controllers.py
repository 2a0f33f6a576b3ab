"""The window's controllers on their own, without a MainWindow: they know a session and the
settings (and the view, for playback), and say what the window should show through signals."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # tests.fakes, also when pytest is not run as `python -m pytest`
    sys.path.insert(0, str(ROOT))

from editor.asr.engine import Finished, Progress, Word, WordBatch  # noqa: E402
from editor.asr.models import ModelInfo  # noqa: E402
from editor.audio import Player  # noqa: E402
from editor.core import Metadata, Token, Transcript  # noqa: E402
from editor.core.settings import Settings  # noqa: E402
from editor.gui.work.opening import BACKGROUND_BYTES, Opener  # noqa: E402
from editor.gui.playback.playback import PlaybackController  # noqa: E402
from editor.gui.base.session import Session  # noqa: E402
from editor.gui.work.transcription import TranscriptionController  # noqa: E402
from tests.fakes.audio import FakeOutputBackend  # noqa: E402
from tests.gui.playback.test_playback import write_wav  # noqa: E402

MODEL = ModelInfo(name="vosk-model-fake", path="/nowhere/vosk-model-fake", language="en", source="folder")


class Heard:
    """Every signal a controller sends, in order, as (name, args)."""

    def __init__(self, controller, *names: str) -> None:
        self.log: list[tuple[str, tuple]] = []
        for name in names:
            getattr(controller, name).connect(lambda *args, name=name: self.log.append((name, args)))

    def of(self, name: str) -> list[tuple]:
        return [args for n, args in self.log if n == name]


def _events(*_args, **_kwargs):
    yield Progress("loading", 0.0, 2.0, 0.0)
    yield WordBatch((Word("hello", 0.0, 0.4, 0.9), Word("there", 0.5, 0.9, 0.8)))
    yield Progress("recognising", 2.0, 2.0, 0.5)  # all heard: shown however soon
    yield WordBatch((Word("friends", 1.0, 1.6, 0.7),))
    yield Finished(duration=2.0, elapsed=1.0)


@pytest.fixture
def recording(tmp_path) -> Path:
    path = tmp_path / "talk.wav"
    path.write_bytes(b"not read: the recogniser is stood in for")
    return path


def _transcription(qtbot, monkeypatch, events) -> tuple[TranscriptionController, Session, Heard]:
    import importlib

    transcribe = importlib.import_module("editor.asr.transcribe")  # the module, not the function
    monkeypatch.setattr(transcribe, "iter_transcription", events)
    session = Session()
    controller = TranscriptionController(session, Settings())
    # what the window does with ``opened``: the new transcript becomes the session's, and the
    # session hears of its changes
    def opened(doc, path):
        session.replace(doc, source=path)
        doc.history.changed.connect(session.note_change)

    controller.opened.connect(opened)
    heard = Heard(controller, "opened", "said", "said_why", "message", "error", "restore_requested",
                  "words_arriving", "words_added", "finished", "settings_changed")
    return controller, session, heard


def test_a_transcription_fills_the_session_and_says_how_far_it_is(qtbot, monkeypatch, recording):
    controller, session, heard = _transcription(qtbot, monkeypatch, _events)
    with qtbot.waitSignal(controller.finished, timeout=30_000) as finished:
        doc = controller.open(recording, model=MODEL)
        assert heard.of("opened") == [(doc, recording)] and session.transcript is doc
        assert controller.running and heard.of("said")[-1][0].endswith("loading the speech model vosk-model-fake…")
    assert finished.args == ["done"]
    assert [t.word for t in doc.tokens] == ["hello", "there", "friends"]
    assert heard.of("words_added") == [(2,), (3,)] and len(heard.of("words_arriving")) == 2
    assert any("transcribing (English (en)): 2 words" in said for (said,) in heard.of("said")), heard.of("said")
    done = heard.of("said")[-1][0]
    assert "3 words transcribed" in done and heard.of("message")[-1] == (done, 8000)
    assert heard.of("restore_requested") == [()] and not heard.of("error")
    # the words are where editing starts, and they are in no file yet
    assert not doc.history.can_undo and session.dirty
    names = [name for name, _ in heard.log]
    assert names.index("restore_requested") < names.index("finished")


def test_a_failed_transcription_reports_an_error_and_restores_nothing(qtbot, monkeypatch, recording):
    def broken(*_args, **_kwargs):
        yield Progress("loading", 0.0, 2.0, 0.0)
        raise RuntimeError("the decoder choked")

    controller, session, heard = _transcription(qtbot, monkeypatch, broken)
    with qtbot.waitSignal(controller.finished, timeout=30_000) as finished:
        controller.open(recording, model=MODEL)
    assert finished.args[0].startswith("failed: ") and "choked" in finished.args[0]
    (title, err), = heard.of("error")
    assert title == "Transcription failed" and "choked" in str(err)
    assert heard.of("said_why") == [("",), (str(err),)]
    assert heard.of("said")[-1][0].endswith("transcription failed")
    assert not heard.of("restore_requested") and not session.dirty


def test_choosing_a_model_asks_for_the_settings_to_be_saved(qtbot):
    settings = Settings()
    controller = TranscriptionController(Session(), settings)
    heard = Heard(controller, "settings_changed")
    controller.remember_model(MODEL)
    assert settings.engine.vosk_model_dir == MODEL.path and heard.of("settings_changed") == [()]


def test_a_controller_follows_the_window_being_told_of_another_transcript(qtbot, monkeypatch, recording):
    def endless(*_args, cancel=None, **_kwargs):
        yield Progress("loading", 0.0, None, 0.0)
        cancel.wait(30)

    controller, session, heard = _transcription(qtbot, monkeypatch, endless)
    controller.open(recording, model=MODEL)
    other = Transcript.from_words("something else".split())
    session.replace(other)
    with qtbot.waitSignal(controller.finished, timeout=5_000) as finished:
        controller.transcript_opened(other)
    assert finished.args == ["cancelled"] and not controller.running


def _timed(audio_file: str | None) -> Transcript:
    words = [("so", 0.0, 0.4), ("we", None, None), ("met", 0.8, 1.2)]
    return Transcript([Token(w, start=s, end=e) for w, s, e in words], metadata=Metadata(audio_file=audio_file))


def test_playback_asks_for_its_bar_and_reports_what_it_cannot_play(qtbot, tmp_path):
    from editor.gui.text_view.view import QtTranscriptView

    session = Session()
    view = QtTranscriptView(session.transcript, Settings())
    qtbot.addWidget(view)
    output = FakeOutputBackend(rate=16_000)
    playback = PlaybackController(session, view, make_player=lambda: Player(output))
    heard = Heard(playback, "bar_made", "message")

    missing = _timed(str(tmp_path / "gone.wav"))
    session.replace(missing)
    playback.transcript_opened(missing)
    assert heard.of("message") == [(f"The recording {tmp_path / 'gone.wav'} was not found", 8000)]
    assert not heard.of("bar_made") and playback.bar is None

    doc = _timed(str(write_wav(tmp_path / "a.wav")))
    session.replace(doc)
    view.set_transcript(doc)
    playback.transcript_opened(doc)
    assert heard.of("bar_made") == [(playback.bar,)] and playback.audio_path == tmp_path / "a.wav"
    qtbot.waitUntil(lambda: playback.player.audio is not None, timeout=10_000)
    playback.play_from_token(1)  # "we" has no time
    assert heard.of("message")[-1] == ("This word has no time in the recording", 3000)
    playback.play_from_token(2)
    assert playback.player.playing
    playback.close()


def test_the_opener_hands_over_what_it_read_or_why_not(qtbot, tmp_path):
    opener = Opener()
    heard = Heard(opener, "opened", "message", "error", "finished")
    big = tmp_path / "big.txt"
    big.write_text("word " * (BACKGROUND_BYTES // 5 + 10), encoding="utf-8")
    with qtbot.waitSignal(opener.finished, timeout=60_000) as done:
        opener.start(big)
    assert done.args == ["opened"]
    ((path, doc),) = heard.of("opened")
    assert path == big and len(doc) > BACKGROUND_BYTES // 5
    assert heard.of("message") == [("Opening big.txt…", 0), ("", 0)] and not heard.of("error")

    kept = Opener(may_discard=lambda: False)  # the person keeps the work open meanwhile
    heard = Heard(kept, "opened", "finished")
    with qtbot.waitSignal(kept.finished, timeout=60_000) as done:
        kept.start(big)
    assert done.args == ["cancelled"] and not heard.of("opened")

    bad = tmp_path / "bad.json"
    bad.write_text("{" + " " * BACKGROUND_BYTES, encoding="utf-8")
    failing = Opener()
    heard = Heard(failing, "error", "finished")
    with qtbot.waitSignal(failing.finished, timeout=60_000) as done:
        failing.start(bad)
    assert done.args == ["failed"]
    ((title, err),) = heard.of("error")
    assert title == "Cannot open" and "bad.json" in str(err)
