"""Speakers as real tools write them: meeting platforms' and transcription services' exports,
diarizing recognisers' JSON. Each file here is shaped as the tool writes it."""

import json

from editor.core import render
from editor.core.formats import read_any, write_any
from editor.core.document.speakers import speakers_in_order


def _read(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return read_any(path)


def _turns(doc):
    out = []
    for t in doc.tokens:
        if not out or out[-1][0] != t.speaker:
            out.append((t.speaker, []))
        out[-1][1].append((t.surface or t.word) + t.punct)
    return [(name, " ".join(words)) for name, words in out]


# -- insanely-fast-whisper (transformers' pipeline, pyannote for speakers) ------------------------
def test_insanely_fast_whisper_speakers_and_chunks(tmp_path):
    """Its --diarization output: {"speakers": [{speaker, text, timestamp}], "chunks", "text"}; the
    chunks alone (no diarization: "speakers" is empty) still give the words their times."""
    chunks = [{"timestamp": [0.0, 2.1], "text": " Welcome back to the show."},
              {"timestamp": [2.5, 4.0], "text": " Thanks for having me."},
              {"timestamp": [4.2, None], "text": " Great."}]
    speakers = [{"speaker": "SPEAKER_00", "text": " Welcome back to the show.", "timestamp": [0.0, 2.1]},
                {"speaker": "SPEAKER_01", "text": " Thanks for having me.", "timestamp": [2.5, 4.0]},
                {"speaker": "SPEAKER_00", "text": " Great.", "timestamp": [4.2, None]}]
    text = "".join(c["text"] for c in chunks)
    doc = _read(tmp_path, "ifw.json", json.dumps({"speakers": speakers, "chunks": chunks, "text": text}))
    assert _turns(doc) == [("SPEAKER_00", "Welcome back to the show."),
                           ("SPEAKER_01", "Thanks for having me."), ("SPEAKER_00", "Great.")]
    assert doc[5].start == 2.5 and doc[9].start == 4.2
    plain = _read(tmp_path, "plain.json", json.dumps({"speakers": [], "chunks": chunks, "text": text}))
    assert render(plain, speakers=False).split() == text.split() and plain[5].start == 2.5
    write_any(doc, tmp_path / "out.srt")
    assert speakers_in_order(read_any(tmp_path / "out.srt")) == ["SPEAKER_00", "SPEAKER_01"]


# -- plain text exports: a time on the speaker's line, or alone on a line -------------------------
OTTER = """Speaker 1  0:03
Hello everyone, and welcome to the weekly sync.

Jane Doe  0:15
Thanks. I have two updates: the budget and the hiring plan.

Speaker 1  1:02
Great, go ahead.

Unknown Speaker  1:05:12
Can you hear me?
"""


def test_otter_speaker_lines_are_speakers_and_times(tmp_path):
    doc = _read(tmp_path, "otter.txt", OTTER)
    assert _turns(doc) == [
        ("Speaker 1", "Hello everyone, and welcome to the weekly sync."),
        ("Jane Doe", "Thanks. I have two updates: the budget and the hiring plan."),
        ("Speaker 1", "Great, go ahead."), ("Unknown Speaker", "Can you hear me?")]
    assert doc[0].start == 3.0 and doc[8].start == 15.0 and doc[-4].start == 3912.0
    assert any("times" in w for w in doc.metadata.warnings)
    write_any(doc, tmp_path / "out.srt")
    assert _turns(read_any(tmp_path / "out.srt")) == _turns(doc)


def test_rev_speaker_lines(tmp_path):
    rev = ("Jane Doe (00:01:02):\nThanks for coming in today.\n\nJohn Smith (00:01:09):\n"
           "Sure. I grew up in Ohio: Cleveland, mostly.\n\nJane Doe (01:20):\nAnd then?\n")
    doc = _read(tmp_path, "rev.txt", rev)
    assert _turns(doc) == [("Jane Doe", "Thanks for coming in today."),
                           ("John Smith", "Sure. I grew up in Ohio: Cleveland, mostly."),
                           ("Jane Doe", "And then?")]
    assert doc[0].start == 62.0


def test_descript_time_then_speaker_on_each_line(tmp_path):
    text = ("[00:00:05] John: Welcome to the podcast.\n[00:00:09] Mary Ann: Thanks, John. Happy "
            "to be here.\n[00:00:14] John: Let's dive in.\n")
    doc = _read(tmp_path, "descript.txt", text)
    assert _turns(doc) == [("John", "Welcome to the podcast."),
                           ("Mary Ann", "Thanks, John. Happy to be here."), ("John", "Let's dive in.")]
    assert doc[0].start == 5.0 and doc[4].start == 9.0


def test_google_meet_times_alone_on_a_line_are_not_words(tmp_path):
    text = ("Weekly sync (2024-03-05 10:02 GMT) - Transcript\nAttendees\nJane Doe, John Smith\n"
            "Transcript\n00:00:00\n \nJane Doe: Good morning, everyone.\nJohn Smith: Morning.\n"
            "Jane Doe: First: the launch date.\n00:01:12\n \nJohn Smith: It slips a week.\n")
    doc = _read(tmp_path, "meet.txt", text)
    assert _turns(doc)[1:] == [("Jane Doe", "Good morning, everyone."), ("John Smith", "Morning."),
                               ("Jane Doe", "First: the launch date."),
                               ("John Smith", "It slips a week.")]
    assert _turns(doc)[0] == (None, "Weekly sync (2024-03-05 10:02 GMT) - Transcript Attendees "
                                    "Jane Doe, John Smith Transcript")
    assert doc[-4].start == 72.0


def test_youtube_transcript_copied_with_its_times(tmp_path):
    text = ("0:00\nhello everyone and welcome back to\n0:02\nthe channel today we're going to "
            "talk\n0:05\nabout transcripts\n1:02\n[Music]\n")
    doc = _read(tmp_path, "yt.txt", text)
    assert render(doc) == ("hello everyone and welcome back to the channel today we're going to "
                           "talk about transcripts\n\n[Music]")
    assert doc[0].start == 0.0 and doc[6].start == 2.0 and doc[-1].start == 62.0


def test_times_that_are_not_the_file_s_pattern_stay_words(tmp_path):
    once = _read(tmp_path, "once.txt", "We met at the station.\n10:30\nThen we left.\n")
    assert "10:30" in render(once) and not once.metadata.warnings
    backwards = _read(tmp_path, "back.txt", "Ann  10:30\nHello.\nBob  9:15\nHi.\n")
    assert render(backwards).split()[:2] == ["Ann", "10:30"]
    prose = _read(tmp_path, "prose.txt", "[10:30] We met (as agreed): no one came.\n"
                                         "[11:00] So we left: early.\n")
    assert speakers_in_order(prose) == [] and render(prose).startswith("We met (as agreed): no one")


# -- meeting platforms' WebVTT ---------------------------------------------------------------------
def test_zoom_names_before_every_cue_are_speakers_whatever_they_are(tmp_path):
    """Zoom writes "Name: " at the start of every cue, the name as the person set it."""
    vtt = ("WEBVTT\n\n1\n00:00:05.790 --> 00:00:13.514\njsmith: okay so let's get going. Note: "
           "it's recorded\n\n2\n00:00:14.080 --> 00:00:16.320\nChristina Smith (she/her): can "
           "everyone hear me\n\n3\n00:00:17.000 --> 00:00:19.500\n+1 415-555-0100: yes loud and "
           "clear\n\n4\n00:00:20.100 --> 00:00:22.000\njsmith: great\n\n5\n00:00:22.500 --> "
           "00:00:24.000\niPhone de Pierre: oui\n")
    doc = _read(tmp_path, "zoom.vtt", vtt)
    assert _turns(doc) == [("jsmith", "okay so let's get going. Note: it's recorded"),
                           ("Christina Smith (she/her)", "can everyone hear me"),
                           ("+1 415-555-0100", "yes loud and clear"), ("jsmith", "great"),
                           ("iPhone de Pierre", "oui")]
    assert any("jsmith" in w for w in doc.metadata.warnings)
    write_any(doc, tmp_path / "back.vtt", )
    assert (tmp_path / "back.vtt").read_text() == vtt
    write_any(doc, tmp_path / "out.json")
    assert _turns(read_any(tmp_path / "out.json")) == _turns(doc)


def test_a_colon_in_most_cues_is_not_zoom(tmp_path):
    """Cues that begin "Word: " only now and then, or never with a name coming back, keep it."""
    srt = "".join(f"{n}\n00:00:0{n},000 --> 00:00:0{n},900\n{text}\n\n" for n, text in enumerate(
        ["step one: open it", "then: close it", "and finally: done"], 1))
    doc = _read(tmp_path, "steps.srt", srt)
    assert speakers_in_order(doc) == [] and render(doc).startswith("step one: open it")


# -- writing: a speaker's words that begin "Word: " are not read back as a name --------------------
def test_words_that_look_like_a_name_keep_their_speaker_through_text_and_subrip(tmp_path):
    """Jane's second paragraph begins "Ohio: "; written with "Jane Doe: " only where the speaker
    changes, it came back as the speaker "Ohio" and the word was gone. Her name goes before it."""
    from editor.core import Token, Transcript

    def tokens(text, speaker, t):
        out = []
        for k, w in enumerate(text.split()):
            surface, punct = (w[:-1], w[-1]) if w[-1] in ":,." else (w, "")
            out.append(Token(surface.lower(), surface, punct, t + k, t + k + 0.5, speaker=speaker))
        return out

    words = [*tokens("I grew up in", "Jane Doe", 0), *tokens("Ohio: Cleveland, mostly.", "Jane Doe", 10),
             *tokens("Yes I see.", "Bob", 20)]
    doc = Transcript(words, paragraph_starts=[0, 4, 7])
    for ext in (".txt", ".srt", ".sbv"):
        write_any(doc, tmp_path / f"out{ext}")
        back = read_any(tmp_path / f"out{ext}")
        assert _turns(back) == [("Jane Doe", "I grew up in Ohio: Cleveland, mostly."),
                                ("Bob", "Yes I see.")], ext


def test_a_list_of_times_is_not_a_transcript(tmp_path):
    """Chapters as a video's description lists them: a time with no words after it before the
    next is not a speaker's line; every word stays."""
    text = "Intro 0:00\nSetting up 1:23\nThe Build  4:56\nOutro 9:10\n"
    doc = _read(tmp_path, "chapters.txt", text)
    assert render(doc).split() == text.split() and not doc.metadata.warnings
    laps = _read(tmp_path, "laps.txt", "1:02\n1:05\n1:07\n")
    assert render(laps).split() == ["1:02", "1:05", "1:07"]


def test_teams_word_transcript(tmp_path):
    """Teams' .docx transcript: the name and the time on a line (one space or more), the words in
    the paragraph after it or on the next line of the same one."""
    import docx

    document = docx.Document()
    document.add_paragraph("Weekly sync")
    document.add_paragraph("Jane Doe 0:03")
    document.add_paragraph("Hi everyone, thanks for joining.")
    paragraph = document.add_paragraph("John Smith   0:10")
    paragraph.add_run().add_break()
    paragraph.add_run("Sure. First item: the budget.")
    document.save(tmp_path / "teams.docx")
    doc = read_any(tmp_path / "teams.docx")
    assert _turns(doc) == [(None, "Weekly sync"), ("Jane Doe", "Hi everyone, thanks for joining."),
                           ("John Smith", "Sure. First item: the budget.")]
    assert doc[2].start == 3.0


def test_webvtt_note_without_a_blank_line_before_the_cue_keeps_the_cue(tmp_path):
    """The spec ends a NOTE block at a time line after its second line: the cue is read."""
    vtt = ("WEBVTT\n\nNOTE Confidence: 0.91\n6f1a2b3c-4d5e-4f60-8a9b-0c1d2e3f4a5b/13-0\n"
           "00:00:01.000 --> 00:00:02.000\n<v Jane Doe>hello there</v>\n\n"
           "00:00:03.000 --> 00:00:04.000\n<v John Smith>again</v>\n")
    doc = _read(tmp_path, "note.vtt", vtt)
    assert _turns(doc) == [("Jane Doe", "hello there"), ("John Smith", "again")]
    one_line = _read(tmp_path, "note1.vtt", "WEBVTT\n\nNOTE x\n00:00:01.000 --> 00:00:02.000\n"
                                            "hello there\n")
    assert render(one_line) == "hello there"


def test_names_not_shaped_as_names_come_back_from_text_and_subrip(tmp_path):
    """Teams shows "Doe, Jane" (the directory's order), Zoom "jsmith" or a phone number: written
    as "Doe, Jane: " they came back as words. They go in brackets, as WhisperX writes its."""
    from editor.core import Token, Transcript

    names = ["Doe, Jane", "jsmith", "Doe, Jane", "+1 415-555-0100", "Ann Lee (she/her)"]
    tokens = [Token(w, start=4.0 * k + j, end=4.0 * k + j + 0.5, speaker=name)
              for k, name in enumerate(names) for j, w in enumerate(["hello", "there"])]
    doc = Transcript(tokens, paragraph_starts=range(0, 10, 2))
    for ext in (".txt", ".srt"):
        write_any(doc, tmp_path / f"out{ext}")
        back = read_any(tmp_path / f"out{ext}")
        assert [name for name, _ in _turns(back)] == names, ext
        assert render(back, speakers=False).split() == ["hello", "there"] * 5


def test_whisperx_subrip_cue_without_a_speaker_has_none(tmp_path):
    """WhisperX prefixes every cue it has a speaker for; a segment diarization gave to no one
    has no prefix, and is no one's (it was given to the speaker before)."""
    texts = ["[SPEAKER_00]: Welcome back to the show,", "[SPEAKER_00]: it's 2023 already.",
             "[SPEAKER_01]: Thanks for having me.", "[SPEAKER_01]: Glad to be here.", "Mm-hmm.",
             "[SPEAKER_00]: So, tell us."]
    srt = "".join(f"{n}\n00:00:0{n},000 --> 00:00:0{n},900\n{t}\n\n" for n, t in enumerate(texts, 1))
    doc = _read(tmp_path, "wx.srt", srt)
    assert [name for name, _ in _turns(doc)] == ["SPEAKER_00", "SPEAKER_01", None, "SPEAKER_00"]
    stets = ("Ann: Hello there.", "How are you?", "Bob: Fine.", "And you?", "Ann: Good.")
    own = "".join(f"{n}\n00:00:0{n},000 --> 00:00:0{n},900\n{t}\n\n" for n, t in enumerate(stets, 1))
    assert [name for name, _ in _turns(_read(tmp_path, "own.srt", own))] == ["Ann", "Bob", "Ann"]


def test_youtube_transcript_with_the_time_before_each_line(tmp_path):
    doc = _read(tmp_path, "yt2.txt", "0:00 hello everyone and welcome\n0:02 to the channel\n")
    assert render(doc) == "hello everyone and welcome to the channel" and doc[4].start == 2.0
    some = _read(tmp_path, "some.txt", "10:30 is fine for me.\nSee you then.\n11:00 works too.\n")
    assert render(some).split()[0] == "10:30" and not some.metadata.warnings


def test_teams_names_in_directory_order_go_through_subrip_without_a_word(tmp_path):
    vtt = "WEBVTT\n\n" + "".join(
        f"{n}-0\n00:00:0{n}.000 --> 00:00:0{n}.900\n<v {name}>{text}</v>\n\n" for n, (name, text) in
        enumerate([("Doe, Jane", "Morning all."), ("Smith, John (Contractor)", "Morning."),
                   ("Doe, Jane", "Let's begin.")], 1))
    doc = _read(tmp_path, "teams.vtt", vtt)
    write_any(doc, tmp_path / "out.srt")
    back = read_any(tmp_path / "out.srt")
    assert _turns(back) == _turns(doc) and not back.metadata.warnings


def test_whisperx_segment_whose_words_have_two_speakers_keeps_both_in_subtitles(tmp_path):
    """A WhisperX segment with no speaker of its own whose words diarization gave to two people
    (the segment is written as one cue): each speaker's words get their own cue."""
    data = {"language": "en", "segments": [{"start": 0.0, "end": 3.0, "text": " Hello there. Hi.",
            "words": [{"word": "Hello", "start": 0.0, "end": 0.5, "speaker": "SPEAKER_00"},
                      {"word": "there.", "start": 0.6, "end": 1.0, "speaker": "SPEAKER_00"},
                      {"word": "Hi.", "start": 2.0, "end": 2.5, "speaker": "SPEAKER_01"}]}]}
    doc = _read(tmp_path, "wx.json", json.dumps(data))
    assert _turns(doc) == [("SPEAKER_00", "Hello there."), ("SPEAKER_01", "Hi.")]
    for ext in (".srt", ".vtt", ".ass"):
        write_any(doc, tmp_path / f"out{ext}")
        assert _turns(read_any(tmp_path / f"out{ext}")) == _turns(doc), ext


def test_noscribe_text_speaker_then_time_on_each_paragraph(tmp_path):
    text = ("interview\n\n(Transcribed with noScribe vers. 0.6)\n\nS00: [00:00:00] so the seed "
            "library opens today\n\nS01: [00:00:04] and who runs it\n\nS00: [00:00:07] the volunteers do\n")
    doc = _read(tmp_path, "noscribe.txt", text)
    assert speakers_in_order(doc) == ["S00", "S01"]
    words = {t.word: t for t in doc.tokens}
    assert "[00:00:04]" not in words and "S01:" not in words
    assert words["so"].start == 0.0 and words["and"].start == 4.0 and words["volunteers"].start > 7.0
    assert words["interview"].start is None  # the title before the first time has none
