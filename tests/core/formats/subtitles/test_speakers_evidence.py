"""Issue 41, part 2: speakers from evidence. "Name:" starts a speaker's turn only where the file
shows that pattern; a credit line, a "Note:" or a "Time: 10:30" names no one; no voice tag is
written where the file showed none."""

import json

import pytest

from editor.core.formats import read_any, write_any
from editor.core.formats.subtitles.prefixes import is_credit, speaker_prefix, takes_prefixes


def srt(texts, step=2):
    return "\n".join(f"{k}\n00:{(k * step) // 60:02d}:{(k * step) % 60:02d},000 --> "
                     f"00:{(k * step) // 60:02d}:{(k * step) % 60:02d},900\n{text}\n"
                     for k, text in enumerate(texts, 1))


def vtt(texts, step=2):
    return "WEBVTT\n\n" + "\n".join(f"00:{(k * step) // 60:02d}:{(k * step) % 60:02d}.000 --> "
                                    f"00:{(k * step) // 60:02d}:{(k * step) % 60:02d}.900\n{text}\n"
                                    for k, text in enumerate(texts, 1))


def speakers_by_cue(doc):
    return [doc.token(c.token_ids[0]).speaker if c.token_ids else None for c in doc.metadata.cues]


FILM = ["Subtitles: @moviesubs", "Where were you last night?", "I was at the office.",
        "Until midnight?", "Time: 10:30, and you still weren't home.",
        "GENEVIEVE: Stop it, both of you.", "We have guests.", "Note: the door was open.",
        "I saw it myself.", "Then who left it open?", *[f"Line {n} of the film goes on." for n in range(20)],
        "Nobody knows.", "Translated by: Jane Doe"]


def test_a_films_credit_and_one_label_name_no_speaker(tmp_path):
    path = tmp_path / "film.srt"
    path.write_text(srt(FILM), encoding="utf-8")
    doc = read_any(path)
    assert {t.speaker for t in doc.tokens} == {None}
    assert "speaker_prefixes" not in doc.metadata.extra
    assert doc[0].text == "Subtitles:" and "GENEVIEVE:" in [t.text for t in doc.tokens]
    write_any(doc, tmp_path / "out.vtt")
    assert "<v" not in (tmp_path / "out.vtt").read_text(encoding="utf-8")
    write_any(doc, tmp_path / "out.srt")
    assert (tmp_path / "out.srt").read_text(encoding="utf-8") == path.read_text(encoding="utf-8")


def test_names_now_and_then_in_a_film_are_no_speakers_far_from_them(tmp_path):
    """A film's subtitles name a voice now and then (off screen): two names, once each, mid-film."""
    texts = [f"Line {n} of the film." for n in range(40)]
    texts[5] = "GENEVIEVE: Stop it."
    texts[30] = "MARCEL: Who's there?"
    (tmp_path / "f.srt").write_text(srt(texts))
    doc = read_any(tmp_path / "f.srt")
    assert {t.speaker for t in doc.tokens} == {None}
    write_any(doc, tmp_path / "out.vtt")
    assert "<v" not in (tmp_path / "out.vtt").read_text()


INTERVIEW = ["Subtitles: @interviewsubs", "JOHN: Thanks for coming in today.", "It means a lot.",
             "MARY: Happy to be here.", "Note: I brought the notes you asked for.", "JOHN: Great.",
             "Let's start with the early years.", "MARY: I grew up by the sea.", "We had a boat.",
             "JOHN: Did you sail it?", "MARY: Every summer.", "Translated by: Jane Doe"]


def test_an_interviews_turns_are_speakers_and_its_credits_are_no_ones(tmp_path):
    path = tmp_path / "i.srt"
    path.write_text(srt(INTERVIEW), encoding="utf-8")
    doc = read_any(path)
    assert speakers_by_cue(doc) == [None, "JOHN", "JOHN", "MARY", "MARY", "JOHN", "JOHN", "MARY",
                                    "MARY", "JOHN", "MARY", None]
    assert [t.text for t in doc.tokens if t.text in ("Note:", "Subtitles:", "Translated")] == \
        ["Subtitles:", "Note:", "Translated"]
    write_any(doc, tmp_path / "same.srt")
    assert (tmp_path / "same.srt").read_text(encoding="utf-8") == path.read_text(encoding="utf-8")


def test_a_cue_edited_in_a_file_of_name_prefixes_gets_no_voice_tag(tmp_path):
    """The person added a question mark: that is all that changes, in WebVTT written from it too."""
    path = tmp_path / "i.vtt"
    path.write_text(vtt(INTERVIEW), encoding="utf-8")
    doc = read_any(path)
    at = next(i for i, t in enumerate(doc.tokens) if t.text == "boat.")  # MARY's, named a cue before
    doc.replace_span(at, at + 1, "boat?")
    write_any(doc, tmp_path / "out.vtt")
    out = (tmp_path / "out.vtt").read_text(encoding="utf-8")
    assert out == path.read_text(encoding="utf-8").replace("We had a boat.", "We had a boat?")
    write_any(read_any(path), tmp_path / "from.vtt")
    assert "<v" not in (tmp_path / "from.vtt").read_text()


def test_a_speaker_the_person_gives_is_written_where_they_begin(tmp_path):
    path = tmp_path / "i.vtt"
    path.write_text(vtt(INTERVIEW), encoding="utf-8")
    doc = read_any(path)
    starts = [c.token_ids[0] for c in doc.metadata.cues]
    ids = doc.metadata.cues[2].token_ids  # "It means a lot." was JOHN's: now ANN says it
    doc.set_speaker(doc.index_of(ids[0]), doc.index_of(ids[-1]) + 1, "ANN")
    write_any(doc, tmp_path / "out.vtt")
    out = (tmp_path / "out.vtt").read_text(encoding="utf-8")
    assert "\nANN: It means a lot.\n" in out and "\nMARY: Happy to be here.\n" in out
    assert "<v" not in out and len(starts) == len(INTERVIEW)


def test_webvtt_voice_tags_are_speakers_and_stay_tags(tmp_path):
    path = tmp_path / "v.vtt"
    path.write_text(vtt(["<v Ann>Note: the room is booked.", "<v Bob>Time: 10:30, then.",
                         "See you there.", "<v Ann>Fine."]), encoding="utf-8")
    doc = read_any(path)
    assert speakers_by_cue(doc) == ["Ann", "Bob", None, "Ann"]  # a voice is the cue's own
    assert doc[0].text == "Note:" and doc[5].text == "Time:"
    doc.replace_span(len(doc) - 1, len(doc), "Fine!")
    write_any(doc, tmp_path / "out.vtt")
    assert (tmp_path / "out.vtt").read_text() == path.read_text().replace("Fine.", "Fine!")


@pytest.mark.parametrize("text", [
    "Note: the meeting moved.\nWe start at nine.\nBring the report.\n",
    "Time: 10:30\nWe met at the cafe and talked for an hour.\nThen we left.\n",
    "Subtitles: @handle\nWhere were you?\nAt home.\nAll night?\n",
])
def test_a_label_in_plain_text_names_no_one(tmp_path, text):
    (tmp_path / "a.txt").write_text(text, encoding="utf-8")
    doc = read_any(tmp_path / "a.txt")
    assert {t.speaker for t in doc.tokens} == {None}


def test_a_credit_in_a_transcript_is_no_ones_and_ends_the_turn_before(tmp_path):
    (tmp_path / "a.txt").write_text("JOHN: Hello.\n\nMARY: Hi there.\n\nHow are you?\n\n"
                                    "Transcribed by: Acme Transcripts\n", encoding="utf-8")
    doc = read_any(tmp_path / "a.txt")
    assert [t.speaker for t in doc.tokens] == ["JOHN", "MARY", "MARY", "MARY", "MARY", "MARY",
                                               None, None, None, None]


def test_a_two_turn_transcript_stet_wrote_keeps_its_speakers(tmp_path):
    """Stet writes a name where a speaker begins: a host's opening and a long talk after it name
    two speakers once each, from the first line on."""
    words = ["welcome", "everyone", *[w for n in range(12) for w in ("part", str(n), "of", "the", "talk")]]
    (tmp_path / "v.json").write_text(json.dumps({"result": [
        {"word": w, "start": k * 0.5, "end": k * 0.5 + 0.4, "conf": 1.0} for k, w in enumerate(words)]}))
    doc = read_any(tmp_path / "v.json")
    doc.set_speaker(0, 2, "Host")
    doc.set_speaker(2, len(doc), "Dr. Lee")
    for ext in (".txt", ".srt", ".vtt"):
        write_any(doc, tmp_path / f"t{ext}")
        back = read_any(tmp_path / f"t{ext}")
        assert [t.speaker for t in back.tokens] == [t.speaker for t in doc.tokens], ext


@pytest.mark.parametrize("line,credit", [
    ("Subtitles: @moviesubs", True), ("Translated by: Jane Doe", True), ("Sous-titres par : Ann", True),
    ("Sync: www.example.com", True), ("Untertitel: Max", True), ("Ann: hello there", False),
    ("Note: the door was open", False), ("JOHN: and", False), ("Dr. Jones: yes", False),
    ("Sync & corrections by: n17t01", True), ("Sync & corrections by n17t01", True),
    ("Subtitles by explosiveskull", True), ("Synced and corrected by Ann", True),
    ("www.opensubtitles.org", True), ("Reviewer: Bob Smith", True),
    ("Written by my mother, it was", False), ("Translated by whom?", False),
    ("and the subtitles by the door", False), ("Visit www.example.com today", False),
])
def test_credit_lines(line, credit):
    assert is_credit(line) is credit


@pytest.mark.parametrize("line", ["Note: the door was open.", "Time: 10:30", "Subtitles: @x",
                                  "Date: Monday", "Location: the harbour", "Ann: @someone"])
def test_labels_and_handles_name_no_one(line):
    assert speaker_prefix(line) == (None, line)


def test_one_name_or_a_credit_on_the_first_line_is_no_pattern():
    assert not takes_prefixes(["GENEVIEVE: Stop it.", "We have guests.", "Sit down."])
    assert not takes_prefixes(["Subtitles: @x", "Hello.", "MARCEL: Hi.", *["Words."] * 20, "ANNE: Bye."])
    assert takes_prefixes(["Subtitles: @x", "JOHN: Hello.", "Words.", "MARY: Hi.", "Words.", *["Words."] * 20])
    assert takes_prefixes(["JOHN: Hi.", "MARY: Hello.", "JOHN: Bye."])


def test_roles_that_speak_are_speakers():
    assert speaker_prefix("TRANSLATOR: He says hello.") == ("TRANSLATOR", "He says hello.")
    assert takes_prefixes(["JOHN: Hi.", "TRANSLATOR: He says hello.", "JOHN: Good."])


def test_an_interview_written_to_webvtt_reads_back_with_its_speakers(tmp_path):
    path = tmp_path / "i.srt"
    path.write_text(srt(INTERVIEW[:-1] + ["Translated by: Jane Doe", "MARY: One more thing.", "It was blue."]))
    doc = read_any(path)
    write_any(doc, tmp_path / "i.vtt")
    back = read_any(tmp_path / "i.vtt")
    assert [t.speaker for t in back.tokens] == [t.speaker for t in doc.tokens]
    assert "<v" not in (tmp_path / "i.vtt").read_text()


def test_one_name_on_most_lines_is_a_pattern_once_is_not():
    assert takes_prefixes(["ANN: So I began.", "ANN: Then I moved.", "It was cold.", "ANN: The end."])
    assert not takes_prefixes(["ANN: So I began.", "ANN: Then I moved.", "It was cold.", "And far.", "The end."])
