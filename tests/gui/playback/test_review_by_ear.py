"""Reviewing by ear: arriving at a suggestion plays the words around it, F5 plays it again (held:
over and over), F6 its sentence, Enter decides it; the pause is shown and said; and any
transcript takes a recording, by File > Attach recording… or by its name. On the fake output,
where the test says how much time passes (tests/fakes/audio.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # tests.fakes, also when pytest is not run as `python -m pytest`
    sys.path.insert(0, str(ROOT))

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QFileDialog  # noqa: E402

from editor.audio import Player  # noqa: E402
from editor.core import Kind, Metadata, State, Suggestion, Token, Transcript  # noqa: E402
from editor.core.formats import read_any  # noqa: E402
from tests.fakes.audio import FakeOutputBackend  # noqa: E402
from tests.fakes.captions import YOUTUBE_ROLLING_VTT  # noqa: E402
from tests.gui.playback.test_playback import RATE, write_wav  # noqa: E402

# "so the seed library . opens today": a 0.62 s pause after "library"
WORDS = [("so", 0.0, 0.4), ("the", 0.5, 0.7), ("seed", 0.8, 1.2), ("library", 1.3, 1.9),
         ("opens", 2.52, 2.8), ("today", 2.9, 3.3), ("and", 3.4, 3.6), ("then", 3.7, 4.0)]


def timed_doc(audio_file: str | None) -> Transcript:
    doc = Transcript([Token(w, start=s, end=e) for w, s, e in WORDS], metadata=Metadata(audio_file=audio_file))
    doc.set_suggestions([Suggestion(doc[3].id, Kind.PUNCT, ".", {".": 0.55, ",": 0.3, "": 0.15}),
                         Suggestion(doc[5].id, Kind.PUNCT, ",", {",": 0.8, "": 0.2})])
    return doc


@pytest.fixture
def output():
    return FakeOutputBackend(rate=RATE)


@pytest.fixture
def heard(window, qtbot, tmp_path, output):
    """The window with ``timed_doc`` open, its recording loaded on the fake output."""
    player = Player(output)
    window.playback.make_player = lambda: player
    doc = timed_doc(str(write_wav(tmp_path / "talk.wav", 5.0)))
    window.set_transcript(doc, restore=False)
    qtbot.waitUntil(lambda: player.audio is not None, timeout=10000)
    window.view.setFocus()
    return window, doc, player


def test_tab_plays_the_suggestion_and_enter_decides_it(heard, qtbot, output):
    window, doc, player = heard
    view = window.view
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert view.current.key == (doc[3].id, Kind.PUNCT)
    # from 1.5 s before "library" to 0.5 s after "opens" begins
    assert player.playing and player.position == 0.0  # 1.5 s before "library" (1.3 s) is the start
    assert player.span_end == pytest.approx(2.52 + 0.5)
    assert view.reviewing and view.hasFocus()  # still in review, the keys still in the text
    output.advance(2.9)
    assert player.playing
    output.advance(0.3)  # past the passage's end: it stops there by itself
    assert not player.playing and player.position == pytest.approx(3.02)
    assert view.reviewing and view.hasFocus()
    qtbot.keyClick(view, Qt.Key.Key_Return)  # the second key decides it
    assert doc.suggestion(doc[3].id, Kind.PUNCT).state == State.ACCEPTED
    # and Enter moved on to the next suggestion, which plays in turn
    assert view.current.key == (doc[5].id, Kind.PUNCT)
    assert player.playing and player.position == pytest.approx(2.9 - 1.5)
    assert player.span_end == pytest.approx(3.4 + 0.5)


def test_shift_tab_and_a_click_in_the_list_play_too(heard, qtbot, output):
    window, doc, player = heard
    view = window.view
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert player.position == pytest.approx(1.4)
    qtbot.keyClick(view, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert view.current.key == (doc[3].id, Kind.PUNCT) and player.position == pytest.approx(0.0)
    output.advance(1.0)
    window.panel.activated.emit(window.panel.items[1])  # as a click on the list's second row does
    assert view.current.key == (doc[5].id, Kind.PUNCT)
    assert player.playing and player.position == pytest.approx(1.4)


def test_no_playing_on_arrival_when_turned_off(heard, qtbot):
    window, doc, player = heard
    window.settings.set("listen.on_arrival", False)
    qtbot.keyClick(window.view, Qt.Key.Key_Tab)
    assert window.view.reviewing and not player.playing


def test_f5_plays_it_again_and_held_plays_it_over_and_over(heard, qtbot, output):
    window, doc, player = heard
    view = window.view
    listen = window.listen
    now = [100.0]
    listen.clock = lambda: now[0]
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    output.advance(3.5)
    assert not player.playing
    qtbot.keyClick(view, Qt.Key.Key_F5)  # once: the passage again
    assert player.playing and player.position == pytest.approx(0.0) and view.reviewing
    output.advance(1.0)
    now[0] += 0.6
    listen.replay()  # the key's first auto-repeat, after the keyboard's delay: not started afresh
    assert player.position == pytest.approx(1.0, abs=0.02)
    output.advance(2.5)  # the passage ends while the key is still held: it starts again
    now[0] += 0.05
    listen.replay()
    listen.tick()
    assert player.playing and player.position == pytest.approx(0.0)
    now[0] += 1.0  # let go
    output.advance(3.5)
    listen.tick()
    assert not player.playing and player.position == pytest.approx(3.02)


def test_f6_plays_the_whole_sentence(heard, qtbot, output):
    window, doc, player = heard
    qtbot.keyClick(window.view, Qt.Key.Key_Tab)  # the full stop after "library": its own ends nothing
    qtbot.keyClick(window.view, Qt.Key.Key_F6)
    assert player.playing and player.position == pytest.approx(0.0) and player.span_end == pytest.approx(4.0)
    qtbot.keyClick(window.view, Qt.Key.Key_Tab)  # the comma after "today": after the proposed full stop
    qtbot.keyClick(window.view, Qt.Key.Key_F6)
    assert player.position == pytest.approx(2.52) and player.span_end == pytest.approx(4.0)


def test_a_low_confidence_suggestion_plays_slower_when_asked(heard, qtbot, output):
    window, doc, player = heard
    window.settings.set("listen.slower_when_unsure", True)
    qtbot.keyClick(window.view, Qt.Key.Key_Tab)  # 55 %: low
    assert player.speed == pytest.approx(0.75)
    output.advance(5.0)
    window.listen.tick()
    assert player.speed == 1.0  # the person's speed back once it ended
    qtbot.keyClick(window.view, Qt.Key.Key_Tab)  # 80 %: not low
    assert player.speed == 1.0


def test_the_pause_is_shown_and_said(heard, qtbot):
    window, doc, player = heard
    qtbot.keyClick(window.view, Qt.Key.Key_Tab)
    assert "pause 0.62 s" in window.panel.current_label.text()
    # said at the end of the event loop's turn (text_view.accessibility.Narrator)
    qtbot.waitUntil(lambda: "pause 0.62 s" in window.view.accessibleDescription(), timeout=3000)


def test_no_pause_is_shown_or_said_where_the_times_were_spread_over_a_cue(window, qtbot, tmp_path):
    # subtitles give a cue's time, not its words': inside a cue no pause was measured, so none is
    # shown (not "pause 0.00 s", which would say the speaker ran on); between two cues it is
    (tmp_path / "talk.srt").write_text("1\n00:00:01,000 --> 00:00:02,500\nso the seed library\n\n"
                                       "2\n00:00:03,120 --> 00:00:04,000\nopens today\n", encoding="utf-8")
    doc = read_any(tmp_path / "talk.srt")
    doc.set_suggestions([Suggestion(doc[2].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}),
                         Suggestion(doc[3].id, Kind.PUNCT, ".", {".": 0.55, ",": 0.3, "": 0.15})])
    window.set_transcript(doc, restore=False)
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Tab)  # the comma after "seed", inside the first cue
    assert window.view.current.key == (doc[2].id, Kind.PUNCT)
    qtbot.waitUntil(lambda: "after “seed”" in window.view.accessibleDescription(), timeout=3000)
    assert "pause" not in window.panel.current_label.text()
    assert "pause" not in window.view.accessibleDescription()
    qtbot.keyClick(window.view, Qt.Key.Key_Tab)  # the full stop after "library", the cue's last word
    assert window.view.current.key == (doc[3].id, Kind.PUNCT)
    assert "pause 0.62 s" in window.panel.current_label.text()
    qtbot.waitUntil(lambda: "pause 0.62 s" in window.view.accessibleDescription(), timeout=3000)


def test_no_pause_is_shown_or_said_at_a_cue_change_of_youtube_rolling_captions(window, qtbot, tmp_path):
    """A captioner's YouTube .vtt showed "pause 0.01 s" at every cue change: the 10 ms before
    the next cue is when the display moves, and the last word's end is not in the file."""
    youtube = YOUTUBE_ROLLING_VTT
    (tmp_path / "talk.en.vtt").write_text(youtube, encoding="utf-8")
    doc = read_any(tmp_path / "talk.en.vtt")
    assert doc.words()[2] == "library"
    doc.set_suggestions([Suggestion(doc[2].id, Kind.PUNCT, ".", {".": 0.55, ",": 0.3, "": 0.15})])
    window.set_transcript(doc, restore=False)
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Tab)  # the full stop after "library", the cue's last word
    assert window.view.current.key == (doc[2].id, Kind.PUNCT)
    qtbot.waitUntil(lambda: "after “library”" in window.view.accessibleDescription(), timeout=3000)
    assert "pause" not in window.panel.current_label.text()
    assert "pause" not in window.view.accessibleDescription()


def test_leaving_review_stops_the_passage(heard, qtbot, output):
    window, doc, player = heard
    qtbot.keyClick(window.view, Qt.Key.Key_Tab)
    assert player.playing
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)
    assert not window.view.reviewing and not player.playing


# -- attaching a recording ----------------------------------------------------------------------------

SRT = "1\n00:00:00,000 --> 00:00:01,900\nso the seed library\n\n2\n00:00:02,520 --> 00:00:04,000\nopens today and then\n"
VTT = "WEBVTT\n\n00:00.000 --> 00:01.900\nso the seed library\n\n00:02.520 --> 00:04.000\nopens today and then\n"
WHISPER = {"text": " so the seed library opens today and then", "language": "en",
           "segments": [{"id": 0, "start": 0.0, "end": 1.9, "text": " so the seed library"},
                        {"id": 1, "start": 2.52, "end": 4.0, "text": " opens today and then"}]}
NOSCRIBE = ("talk\n\n(Transcribed with noScribe vers. 0.6)\n\n"
            "S00: [00:00:00] so the seed library\n\nS01: [00:00:02] opens today and then\n")
NOSCRIBE_HTML = (  # noScribe's own format; the recording it names is not on this machine
    '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.0//EN" "http://www.w3.org/TR/REC-html40/strict.dtd">\n'
    '<html ><head ><meta charset="UTF-8" /><meta name="audio_source" content="C:/Users/kai/talk.mp3" />'
    '</head><body > <div class="WordSection1" ><p style="font-weight: 600" >talk</p><p ><span >'
    'Transcribed with noScribe vers. 0.7</span></p><p ><a name="ts_0_1900_S00" >S00: <span >[00:00:00]'
    '</span> so the seed library</a></p><p ><a name="ts_2520_4000_S01" >S01: <span >[00:00:02]</span>'
    ' opens today and then</a></p></div></body></html>')
TRANSCRIPTS = {"srt": SRT, "vtt": VTT, "json": json.dumps(WHISPER), "txt": NOSCRIBE, "html": NOSCRIBE_HTML}


def write_transcript(folder: Path, suffix: str) -> Path:
    path = folder / f"talk.{suffix}"
    path.write_text(TRANSCRIPTS[suffix], encoding="utf-8")
    return path


def open_quietly(window, path: Path) -> Transcript:
    doc = read_any(path)
    window.set_transcript(doc, source=path, restore=False)
    return doc


@pytest.mark.parametrize("suffix", sorted(TRANSCRIPTS))
def test_a_recording_with_the_transcripts_name_is_attached_on_open(window, qtbot, tmp_path, output, suffix):
    player = Player(output)
    window.playback.make_player = lambda: player
    transcript = write_transcript(tmp_path, suffix)
    recording = write_wav(tmp_path / "talk.wav", 5.0)
    doc = open_quietly(window, transcript)
    assert doc.metadata.audio_file == str(recording.resolve())
    qtbot.waitUntil(lambda: "talk.wav attached" in window.statusBar().currentMessage(), timeout=5000)
    qtbot.waitUntil(lambda: player.audio is not None, timeout=10000)
    assert not window.dirty  # nothing the person did
    assert any(t.start is not None for t in doc.tokens)
    # the project keeps it
    (tmp_path / "kept").mkdir()
    project = window.save(tmp_path / "kept" / "talk.stet", wait=True)
    assert read_any(project).metadata.audio_file is not None
    window.view.setFocus()
    library = doc.words().index("library")
    doc.set_suggestions([Suggestion(doc[library].id, Kind.PUNCT, ".", {".": 0.55, "": 0.45})])
    qtbot.keyClick(window.view, Qt.Key.Key_Tab)
    assert player.playing and player.span_end == pytest.approx(doc[library + 1].start + 0.5)


@pytest.mark.parametrize("suffix", sorted(TRANSCRIPTS))
def test_file_attach_recording_gives_any_transcript_its_recording(window, qtbot, tmp_path, output,
                                                                  monkeypatch, suffix):
    player = Player(output)
    window.playback.make_player = lambda: player
    transcript = write_transcript(tmp_path, suffix)
    elsewhere = tmp_path / "audio"
    elsewhere.mkdir()
    recording = write_wav(elsewhere / "interview-final.wav", 5.0)
    doc = open_quietly(window, transcript)
    assert doc.metadata.audio_file is None and window.playback.player is None
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(recording), ""))
    window.menu_actions["file.attach_recording"].trigger()
    assert doc.metadata.audio_file == str(recording.resolve())
    assert "interview-final.wav attached" in window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: player.audio is not None, timeout=10000)
    assert window.dirty  # the person's change, kept by a save and undone by undo
    doc.history.undo()
    assert doc.metadata.audio_file is None


def test_opening_a_file_says_its_recording_after_what_its_reading_says(window, qtbot, tmp_path, output):
    player = Player(output)
    window.playback.make_player = lambda: player
    transcript = write_transcript(tmp_path, "txt")  # noScribe's text: a warning that times were read
    write_wav(tmp_path / "talk.mp3.wav", 5.0)  # not its name
    recording = write_wav(tmp_path / "talk.wav", 5.0)
    doc = window.open_path(transcript)  # as File > Open does: read, shown, restored
    assert doc.metadata.audio_file == str(recording.resolve())
    qtbot.waitUntil(lambda: "talk.wav attached: it has the name of talk.txt" in window.statusBar().currentMessage(),
                    timeout=5000)


def test_a_recording_shorter_than_the_transcript_is_said(window, qtbot, tmp_path, output):
    player = Player(output)
    window.playback.make_player = lambda: player
    transcript = write_transcript(tmp_path, "srt")
    short = write_wav(tmp_path / "cut.wav", 2.0)
    open_quietly(window, transcript)
    window.playback.attach(short)
    qtbot.waitUntil(lambda: player.audio is not None, timeout=10000)
    message = window.statusBar().currentMessage()
    assert "shorter than the transcript" in message and "0:02" in message and "0:04" in message


def test_attaching_what_is_not_a_file_changes_nothing(window, tmp_path):
    doc = open_quietly(window, write_transcript(tmp_path, "srt"))
    assert not window.playback.attach(tmp_path / "missing.wav")
    assert doc.metadata.audio_file is None
    assert "missing.wav" in window.statusBar().currentMessage()


@pytest.mark.parametrize("wrong", ["the transcript", "an empty mp3"])
def test_attaching_a_file_without_sound_keeps_the_recording_attached_before(window, qtbot, tmp_path,
                                                                           output, monkeypatch, wrong):
    """File > Attach recording… with the subtitle file itself (or an empty .mp3) chosen by mistake
    said only "the file has no audio stream" once the player had tried: the transcript then named
    the .srt as its recording, the good one was let go, and a save kept it."""
    player = Player(output)
    window.playback.make_player = lambda: player
    transcript = write_transcript(tmp_path, "srt")
    doc = open_quietly(window, transcript)
    recording = write_wav(tmp_path / "interview.wav", 5.0)
    assert window.playback.attach(recording)
    qtbot.waitUntil(lambda: player.audio is not None, timeout=10000)
    chosen = transcript if wrong == "the transcript" else tmp_path / "empty.mp3"
    chosen.touch()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(chosen), ""))
    window.menu_actions["file.attach_recording"].trigger()
    message = window.statusBar().currentMessage()
    assert message.startswith("Not attached: ") and chosen.name in message
    assert doc.metadata.audio_file == str(recording.resolve())
    assert window.playback.audio_path == recording and player.audio is not None
    doc.history.undo()  # the one step is the good recording's
    assert doc.metadata.audio_file is None and not doc.history.can_undo


def test_the_settings_dialog_sets_how_suggestions_are_heard(qtbot):
    from editor.core.settings import Settings
    from editor.gui.dialogs.settings import SettingsDialog

    settings = Settings()
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    assert dialog.listen_on_arrival.isChecked() and dialog.listen_before.value() == 1.5
    dialog.listen_on_arrival.setChecked(False)
    dialog.listen_before.setValue(2.25)
    dialog.listen_after.setValue(0.75)
    dialog.listen_slower.setChecked(True)
    dialog.listen_slower_speed.setValue(60)
    dialog.apply()
    listen = settings.listen
    assert (listen.on_arrival, listen.before, listen.after, listen.slower_when_unsure, listen.slower_speed) \
        == (False, 2.25, 0.75, True, 0.6)


def test_ctrl_tab_to_the_least_confident_plays_it(heard, qtbot, output):
    window, doc, player = heard
    qtbot.keyClick(window.view, Qt.Key.Key_Tab)
    qtbot.keyClick(window.view, Qt.Key.Key_Tab)
    output.advance(3.0)
    assert window.view.current.key == (doc[5].id, Kind.PUNCT) and not player.playing
    qtbot.keyClick(window.view, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)
    assert window.view.current.key == (doc[3].id, Kind.PUNCT)  # 55 %, the least confident
    assert player.playing and player.position == 0.0 and player.span_end == pytest.approx(3.02)


def test_without_a_sound_output_review_goes_on_silently(window, qtbot, tmp_path):
    player = Player(FakeOutputBackend(reason="no audio output device"))
    window.playback.make_player = lambda: player
    doc = timed_doc(str(write_wav(tmp_path / "talk.wav", 5.0)))
    window.set_transcript(doc, restore=False)
    qtbot.waitUntil(lambda: player.audio is not None, timeout=10000)
    window.view.setFocus()
    window.statusBar().clearMessage()
    qtbot.keyClick(window.view, Qt.Key.Key_Tab)
    assert window.view.reviewing and not player.playing
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    assert doc.suggestion(doc[3].id, Kind.PUNCT).state == State.ACCEPTED
    assert "No sound output" in window.playback.bar.notice_label.text()  # the bar says why, once
