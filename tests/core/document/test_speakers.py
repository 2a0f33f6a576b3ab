"""Speakers: every format writes them and reads them back; diarizing recognisers' prefixes are
speakers; they are named, renamed and merged, each change one undo step."""

import pytest

from editor.core import Token, Transcript, render
from editor.core.formats import read_any, write_any
from editor.core.formats.subtitles.layout import SubtitleLayout
from editor.core.document.speakers import count_speakers, parse_renames, speakers_in_order

TURNS = [("Ann", "hello there how are you"), ("Bob", "i am fine thanks"),
         ("Ann", "good to hear it"), ("Speaker 3", "and so am i really")]


def _dialogue(paragraph_per_turn: bool = True) -> Transcript:
    tokens, starts, t = [], [], 0.0
    for name, words in TURNS:
        starts.append(len(tokens))
        for w in words.split():
            tokens.append(Token(w, start=t, end=t + 0.4, speaker=name))
            t += 0.5
        t += 0.3
    return Transcript(tokens, paragraph_starts=starts if paragraph_per_turn else ())


def _turns(doc: Transcript) -> list[tuple[str | None, str]]:
    out: list[tuple[str | None, list[str]]] = []
    for t in doc.tokens:
        if not out or out[-1][0] != t.speaker:
            out.append((t.speaker, []))
        out[-1][1].append(t.word.lower())
    return [(name, " ".join(words)) for name, words in out]


@pytest.mark.parametrize("ext", [".txt", ".md", ".docx", ".srt", ".vtt", ".ass", ".json", ".stet"])
def test_every_format_writes_speakers_and_reads_them_back(tmp_path, ext):
    doc = _dialogue()
    path = tmp_path / f"out{ext}"
    write_any(doc, path)
    back = read_any(path)
    assert _turns(back) == TURNS
    assert back.words() == doc.words()


@pytest.mark.parametrize("ext", [".txt", ".md", ".docx"])
def test_a_speaker_change_inside_a_paragraph_is_written_as_a_new_paragraph(tmp_path, ext):
    doc = _dialogue(paragraph_per_turn=False)
    path = tmp_path / f"out{ext}"
    write_any(doc, path)
    assert _turns(read_any(path)) == TURNS


def test_text_labels_each_change_once(tmp_path):
    doc = _dialogue()
    assert render(doc) == ("Ann: hello there how are you\n\nBob: i am fine thanks\n\n"
                           "Ann: good to hear it\n\nSpeaker 3: and so am i really")
    path = tmp_path / "out.md"
    write_any(doc, path)
    assert path.read_text().startswith("**Ann:** hello there")


def test_srt_of_a_webvtt_cue_with_two_voices_labels_both(tmp_path):
    src = tmp_path / "two.vtt"
    src.write_text("WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n<v Ann> Hello there, how are you?\n"
                   "<v Bob>I am fine,\n thanks.\n\n00:00:05.000 --> 00:00:07.000\n<v Bob>Good.\n")
    out = tmp_path / "two.srt"
    write_any(read_any(src), out)
    assert out.read_text() == ("1\n00:00:01,000 --> 00:00:04,000\nAnn: Hello there, how are you?\n"
                               "Bob: I am fine,\nthanks.\n\n2\n00:00:05,000 --> 00:00:07,000\nGood.\n")
    assert _turns(read_any(out)) == [("Ann", "hello there how are you"),
                                     ("Bob", "i am fine thanks good")]


def test_srt_dash_convention_marks_each_speakers_line(tmp_path):
    src = tmp_path / "two.vtt"
    src.write_text("WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n<v Ann>Hello there.\n<v Bob>Hi.\n")
    out = tmp_path / "two.srt"
    write_any(read_any(src), out, layout=SubtitleLayout(speaker_style="dash"))
    assert out.read_text() == "1\n00:00:01,000 --> 00:00:04,000\n- Hello there.\n- Hi.\n"
    assert read_any(out).words() == ["hello", "there", "hi"]


def test_webvtt_cue_with_two_voices_keeps_both_in_ass_and_webvtt(tmp_path):
    src = tmp_path / "two.vtt"
    src.write_text("WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n<v Ann>Hello there.\n<v Bob>Hi.\n")
    doc = read_any(src)
    doc.rename_speakers({"Ann": "Anna"})  # no longer the cue as read: written from its words
    for ext in (".vtt", ".ass"):
        out = tmp_path / f"x{ext}"
        write_any(doc, out)
        assert _turns(read_any(out)) == [("Anna", "hello there"), ("Bob", "hi")]
    assert "<v Anna>Hello there.\n<v Bob>Hi." in (tmp_path / "x.vtt").read_text()


@pytest.mark.parametrize("prefix", ["[SPEAKER_{n}]: ", "SPEAKER_{n}: "])
def test_diarized_subrip_prefixes_are_speakers_and_paragraphs(tmp_path, prefix):
    cues = [("00", "Hello there."), ("01", "Hi, how are you?"), ("00", "Fine, thanks.")]
    path = tmp_path / "d.srt"
    path.write_text("\n".join(f"{k}\n00:00:0{k},000 --> 00:00:0{k},900\n{prefix.format(n=n)}{text}\n"
                              for k, (n, text) in enumerate(cues, 1)))
    doc = read_any(path)
    assert _turns(doc) == [("SPEAKER_00", "hello there"), ("SPEAKER_01", "hi how are you"),
                           ("SPEAKER_00", "fine thanks")]
    assert doc.paragraph_starts == [0, 2, 6]
    out = tmp_path / "same.srt"
    write_any(doc, out)
    assert out.read_text() == path.read_text()  # the cues as they were
    vtt = tmp_path / "d.vtt"
    write_any(doc, vtt)
    # the names were text on screen and stay so: a player shows no voice tag's name (issue 41)
    assert "\nSPEAKER_01: Hi, how are you?\n" in vtt.read_text() and "<v" not in vtt.read_text()
    assert _turns(read_any(vtt)) == _turns(doc)


def test_diarized_text_lines_are_paragraphs_of_their_speakers(tmp_path):
    path = tmp_path / "d.txt"
    lines = ["SPEAKER_00: so the plan for today is short", "SPEAKER_01: fine by me we can start",
             "SPEAKER_00: then let us begin with the budget", "SPEAKER_01: the budget is not done yet",
             "SPEAKER_00: we will wait for it then okay", "SPEAKER_01: good that works for me too"]
    path.write_text("\n".join(lines) + "\n")
    doc = read_any(path)
    assert len(doc.paragraphs()) == 6
    assert speakers_in_order(doc) == ["SPEAKER_00", "SPEAKER_01"]
    assert "SPEAKER_00" not in doc.words()


def test_name_prefix_once_is_a_word_not_a_speaker(tmp_path):
    path = tmp_path / "n.srt"
    path.write_text("1\n00:00:01,000 --> 00:00:02,000\nwe met at noon.\n\n"
                    "2\n00:00:02,000 --> 00:00:03,000\nNote: the river was high.\n\n"
                    "3\n00:00:03,000 --> 00:00:04,000\nand it was cold.\n")
    doc = read_any(path)
    assert "Note" in [t.surface for t in doc.tokens]
    assert speakers_in_order(doc) == []


def test_count_speakers():
    counts = count_speakers(_dialogue())
    assert [(c.name, c.words, c.turns) for c in counts] == [("Ann", 9, 2), ("Bob", 4, 1),
                                                            ("Speaker 3", 5, 1)]
    assert counts[1].seconds == pytest.approx(1.6)


def test_rename_merges_and_is_one_undo_step():
    doc = _dialogue()
    doc.rename_speakers({"Speaker 3": "Bob"})
    assert speakers_in_order(doc) == ["Ann", "Bob"]
    doc.rename_speakers({"Ann": "Anna", "Bob": "Rob"})
    assert speakers_in_order(doc) == ["Anna", "Rob"]
    doc.history.undo()
    assert speakers_in_order(doc) == ["Ann", "Bob"]
    doc.history.undo()
    assert speakers_in_order(doc) == ["Ann", "Bob", "Speaker 3"]


def test_set_speaker_on_a_selection_parts_the_paragraph_in_one_undo_step():
    doc = Transcript.from_text("one two three four five six")
    before = doc.paragraph_starts
    doc.set_speaker(2, 4, "Ann")
    assert [t.speaker for t in doc.tokens] == [None, None, "Ann", "Ann", None, None]
    assert doc.paragraph_starts == [0, 2, 4]
    doc.history.undo()
    assert [t.speaker for t in doc.tokens] == [None] * 6 and doc.paragraph_starts == before


def test_parse_renames():
    assert parse_renames(["Speaker 1=Ann", " Speaker 2 = Ann "]) == {"Speaker 1": "Ann", "Speaker 2": "Ann"}
    from editor.core.errors import UsageError
    for bad in ("Ann", "=Ann", "A=", "A=B:C"):
        with pytest.raises(UsageError):
            parse_renames([bad])


def test_speakers_are_recovered_after_a_crash_also_when_changed_after_the_last_write(tmp_path):
    from editor.core.recovery.slots import RecoverySlot, RecoveryState

    doc = _dialogue()
    slot = RecoverySlot.claim(tmp_path)
    assert slot.write(RecoveryState.capture(doc, source="/talks/talk.srt"))
    assert _turns(read_any(slot.data)) == TURNS
    doc.rename_speakers({"Bob": "Robert"})
    doc.set_speaker(0, 2, "Cleo")
    assert slot.write(RecoveryState.capture(doc, source="/talks/talk.srt"))
    back = read_any(slot.data)
    assert [t.speaker for t in back.tokens] == [t.speaker for t in doc.tokens]
    assert back.paragraph_starts == doc.paragraph_starts


def test_speaker_turns_give_timed_words_their_speakers_in_one_undo_step():
    from editor.core.document.speakers import SpeakerTurn, apply_turns, speaker_at

    tokens = [Token("one", start=0.0, end=0.4), Token("two", start=0.5, end=0.9),
              Token("typed"),  # typed by the person: no time, takes the speaker before it
              Token("three", start=1.6, end=2.0), Token("four", start=2.1, end=2.5),
              Token("five", start=3.9, end=4.2)]  # past the last turn: the nearest one
    doc = Transcript([Token("hm")] + tokens, paragraph_starts=[1])
    turns = [SpeakerTurn(0.0, 0.9, "Speaker 1"), SpeakerTurn(1.6, 2.0, "Speaker 2"),
             SpeakerTurn(2.1, 3.0, "Speaker 1")]
    assert speaker_at(turns, 0.95, 1.0) == "Speaker 1" and speaker_at(turns, 1.4, 1.5) == "Speaker 2"
    assert speaker_at([], 0, 1) is None

    assert apply_turns(doc, turns) == 7
    assert [t.speaker for t in doc.tokens] == ["Speaker 1", "Speaker 1", "Speaker 1", "Speaker 1",
                                               "Speaker 2", "Speaker 1", "Speaker 1"]
    assert doc.paragraph_starts == [0, 1, 4, 5]  # the paragraph there stays; one at each change
    assert apply_turns(doc, turns) == 0  # again: nothing changes
    doc.history.undo()
    assert all(t.speaker is None for t in doc.tokens) and doc.paragraph_starts == [0, 1]
    assert not doc.history.can_undo


def test_the_speakers_names_are_kept_until_a_speaker_changes():
    """``Transcript.speaker_names`` counts every word once (4-5 ms at 100,000: a file read in the
    background counts them there) and again only after a word's speaker changes: named, renamed,
    undone, or words with a speaker typed over or put in."""
    doc = _dialogue()
    assert doc.speaker_names() == ["Ann", "Bob", "Speaker 3"]
    doc.replace_span(0, 1, "hi")  # a word typed over: still Ann's, and so the names stand
    assert doc.speaker_names() == ["Ann", "Bob", "Speaker 3"]
    doc.rename_speakers({"Speaker 3": "Cleo"})
    assert doc.speaker_names() == ["Ann", "Bob", "Cleo"]
    doc.set_speaker(0, 5, "Dan")
    assert doc.speaker_names() == ["Dan", "Bob", "Ann", "Cleo"]
    doc.history.undo()
    doc.history.undo()
    assert doc.speaker_names() == ["Ann", "Bob", "Speaker 3"]
    doc.replace_span(0, len(doc), "all gone")
    assert doc.speaker_names() == speakers_in_order(doc)
    names = doc.speaker_names()
    names.append("Eve")  # a copy: the kept names are not the caller's to change
    assert "Eve" not in doc.speaker_names()
