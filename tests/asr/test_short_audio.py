"""A recording that is short, cut or damaged, as a person meets it: a truncated .mp3 whose header
says 2.2 s and holds a fraction of that gave rc 0, one cue running past the end of the audio and
no word about it. Now how much audio was read is said, and no cue runs past its end; and a
transcript in another language says that it will not be restored."""

from __future__ import annotations

import pytest

from editor.asr.audio_blocks import probe_audio
from editor.asr.transcribe import audio_notes, within
from editor.cli import main
from editor.core.document.transcript import Token


def test_the_notes_say_how_much_audio_was_read():
    (cut,) = audio_notes(2.16, 0.31)
    assert "only 0.31 s of audio could be decoded" in cut and "2.16 s" in cut and "damaged" in cut
    (short,) = audio_notes(0.5, 0.5)
    assert short == "the recording holds only 0.50 s of audio"
    assert audio_notes(60.0, 59.9) == [] and audio_notes(None, 12.0) == []
    assert "1:05.0" in audio_notes(90.0, 65.0)[0]


def test_no_word_runs_past_the_end_of_the_audio():
    tokens = [Token("a", start=0.0, end=0.2), Token("b", start=0.25, end=0.4), Token("c")]
    assert [(t.start, t.end) for t in within(tokens, 0.31)] == [(0.0, 0.2), (0.25, 0.31), (None, None)]


@pytest.fixture
def cut_mp3(tmp_path, korean_speech, audio_tools):
    whole = audio_tools.encode(korean_speech, tmp_path / "whole.mp3")
    data = whole.read_bytes()
    cut = tmp_path / "cut.mp3"
    cut.write_bytes(data[:len(data) // 6])  # a download stopped short: the header is whole
    return cut


def test_a_truncated_mp3_is_said_and_its_cue_ends_with_the_audio(tmp_path, cut_mp3, korean_model, capsys):
    import srt

    stated = probe_audio(cut_mp3).duration
    out = tmp_path / "cut.srt"
    assert main(["transcribe", str(cut_mp3), "-m", str(korean_model), "-o", str(out), "-q"]) == 0
    err = capsys.readouterr().err
    warnings = [line for line in err.splitlines() if line.startswith("stet: warning:")]
    assert len(warnings) == 1 and str(cut_mp3) in warnings[0], err
    assert "could be decoded" in warnings[0] and f"{stated:.2f} s" in warnings[0]
    decoded = float(warnings[0].split("only ")[1].split(" s ")[0])
    assert 0 < decoded < stated / 2
    cues = list(srt.parse(out.read_text(encoding="utf-8")))
    assert cues, "the words heard in what was decoded are kept"
    assert cues[-1].end.total_seconds() <= decoded + 0.01, (cues[-1].end, decoded)


def test_another_language_says_it_will_not_be_restored(tmp_path, korean_speech, korean_model, capsys):
    out = tmp_path / "ko.stet"
    assert main(["transcribe", str(korean_speech), "-m", str(korean_model), "-o", str(out), "-q"]) == 0
    err = capsys.readouterr().err
    notes = [line for line in err.splitlines() if "not be restored" in line]
    assert len(notes) == 1 and "Korean (ko)" in notes[0] and "English" in notes[0], err
