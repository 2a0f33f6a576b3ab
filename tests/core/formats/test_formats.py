"""Every format in and out: words, times, paragraphs and suggestions survive where they should."""

import json
import os
import zipfile

import pytest

from editor.core import FormatError, RenderPolicy, Suggestion, Token, Transcript, UserError, render
from editor.core.formats import read_any, write_any
from editor.core.formats.subtitles.writing import cut_cues
from editor.core.formats.subtitles.layout import DEFAULT_LAYOUT
from editor.core.paths import resource_path

SAMPLE_SRT = resource_path("samples", "sample.srt")
SAMPLE_TXT = resource_path("samples", "sample.txt")


@pytest.fixture
def timed():
    words = "so we met in paris it was cold and the river was high".split()
    tokens = [Token(w, start=i * 0.5, end=i * 0.5 + 0.4, confidence=0.8) for i, w in enumerate(words)]
    doc = Transcript(tokens, paragraph_starts=[5])
    doc.set_suggestions([Suggestion(doc[4].id, "punct", ".", {".": 0.9, "": 0.1}),
                         Suggestion(doc[5].id, "case", "It", {"It": 0.85, "it": 0.15}),
                         Suggestion(doc[4].id, "case", "Paris", {"Paris": 0.99, "paris": 0.01})])
    doc.accept(doc[4].id, "case")
    doc.reject(doc[5].id, "case")
    return doc


def test_samples_exist_and_read():
    doc = read_any(SAMPLE_SRT)
    assert len(doc) > 250 and all(t.start is not None for t in doc.tokens)
    raw = read_any(SAMPLE_TXT)
    assert raw.words() == doc.words()
    assert render(raw) == render(raw).lower()


@pytest.mark.parametrize("ext", [".txt", ".srt", ".vtt", ".json", ".stet"])
def test_round_trip_keeps_every_word(tmp_path, ext):
    doc = read_any(SAMPLE_SRT)
    out = tmp_path / f"out{ext}"
    write_any(doc, out)
    back = read_any(out)
    assert back.words() == doc.words()
    if ext != ".json":
        assert render(back) == render(doc)


@pytest.mark.parametrize("ext", [".srt", ".vtt"])
def test_subtitle_round_trip_keeps_times_close(tmp_path, ext):
    doc = read_any(SAMPLE_SRT)
    write_any(doc, tmp_path / f"out{ext}")
    back = read_any(tmp_path / f"out{ext}")
    for a, b in zip(doc.tokens, back.tokens):
        assert abs(a.start - b.start) < 1.5


def test_stet_reopens_exactly(tmp_path, timed):
    # In memory the recording's path is as found from here (a relative one in the file is joined
    # to the project's folder: tests/core/formats/test_stet_audio_path.py).
    timed.set_metadata(language="en", audio_file=str(tmp_path / "talk.wav"), duration=7.0)
    write_any(timed, tmp_path / "p.stet")
    back = read_any(tmp_path / "p.stet")
    assert back.tokens == timed.tokens
    assert back.paragraph_starts == timed.paragraph_starts
    assert back.suggestions() == timed.suggestions()
    assert back.metadata == timed.metadata
    assert not back.history.can_undo
    # A reopened project goes on allocating fresh ids.
    back.replace_span(0, 1, "well")
    assert len({t.id for t in back.tokens}) == len(back)


def test_a_capital_that_needs_its_sentence_start_stays_so_in_a_project(tmp_path):
    doc = Transcript([Token("boy", punct=""), Token("you")])
    doc.set_suggestions([Suggestion(doc.tokens[1].id, "case", "You", {"You": 0.99, "you": 0.01}, needs_start=True)])
    write_any(doc, tmp_path / "p.stet")
    assert read_any(tmp_path / "p.stet").suggestions()[0].needs_start
    data = json.loads((tmp_path / "p.stet").read_text())
    data["suggestions"][0]["needs_start"] = "yes"
    (tmp_path / "bad.stet").write_text(json.dumps(data))
    with pytest.raises(FormatError, match="needs_start.*not true or false"):
        read_any(tmp_path / "bad.stet")


def test_stet_from_newer_version_is_refused(tmp_path):
    (tmp_path / "new.stet").write_text(json.dumps({"format_version": 99, "tokens": []}))
    with pytest.raises(FormatError, match="newer Stet"):
        read_any(tmp_path / "new.stet")


def test_text_writers_apply_policy(tmp_path, timed):
    write_any(timed, tmp_path / "none.txt", RenderPolicy.parse("none"))
    write_any(timed, tmp_path / "all.txt", RenderPolicy.parse("all"))
    assert (tmp_path / "none.txt").read_text() == \
        "so we met in Paris\n\nit was cold and the river was high\n"
    assert (tmp_path / "all.txt").read_text() == \
        "so we met in Paris.\n\nit was cold and the river was high\n"


def test_md_and_docx(tmp_path):
    doc = Transcript([Token("hi", "Hi", ".", 0, 1, speaker="Ann"),
                      Token("*yes*", start=2, end=3, speaker="Bob")], paragraph_starts=[1])
    write_any(doc, tmp_path / "a.md")
    assert (tmp_path / "a.md").read_text() == "**Ann:** Hi.\n\n**Bob:** \\*yes\\*\n"
    write_any(doc, tmp_path / "a.docx")
    with zipfile.ZipFile(tmp_path / "a.docx") as z:
        xml = z.read("word/document.xml").decode()
    assert "Ann: " in xml and "*yes*" in xml


def test_cues_respect_limits(tmp_path):
    doc = read_any(SAMPLE_SRT)
    cues = cut_cues(doc, RenderPolicy(), tmp_path / "x.srt")
    assert len(cues) > 20
    for cue, nxt in zip(cues, cues[1:]):
        assert len(cue.lines) <= 2 and all(len(line) <= DEFAULT_LAYOUT.line_length for line in cue.lines)
        assert cue.end - cue.start <= DEFAULT_LAYOUT.max_cue_seconds + 0.5
        assert cue.start <= cue.end <= nxt.start
    sentence_ends = sum(cue.lines[-1][-1] in ".?!" for cue in cues)
    assert sentence_ends > len(cues) / 2


def test_subtitles_need_times(tmp_path):
    doc = Transcript.from_text("no times here")
    with pytest.raises(UserError, match="no word times"):
        write_any(doc, tmp_path / "x.srt")


def test_missing_times_are_interpolated(tmp_path):
    doc = Transcript([Token("a", start=0.0, end=0.5), Token("b"), Token("c", start=2.0, end=2.5)])
    write_any(doc, tmp_path / "x.vtt")
    back = read_any(tmp_path / "x.vtt")
    assert back.words() == ["a", "b", "c"]


def test_srt_reader_strips_tags_and_swaps_reversed_times(tmp_path):
    path = tmp_path / "a.srt"
    path.write_text("1\n00:00:05,000 --> 00:00:04,000\n<i>Hello</i> {\\an8}there\n")
    doc = read_any(path)
    assert render(doc) == "Hello there"
    assert doc[0].start == 4.0 and doc[1].end == 5.0
    assert any("cue 1 ends before it starts" in w and "swapped" in w for w in doc.metadata.warnings)


def test_srt_cue_without_a_time_line_keeps_its_words_drops_its_number_and_says_so(tmp_path):
    path = tmp_path / "a.srt"
    path.write_text("1\n00:00:01,000 --> 00:00:02,000\nhello there\n\n2\nno time line here\n\n"
                    "3\n00:00:06,000 --> 00:00:07,000\nthird cue\n")
    doc = read_any(path)
    assert doc.words() == "hello there no time line here third cue".split()
    assert any("cue 2 has no time line" in w and "joined to cue 1" in w for w in doc.metadata.warnings)
    assert doc[-2].start == 6.0 and doc[-1].end == 7.0  # "third cue" keeps its own times


def test_vtt_reader_voices_and_entities(tmp_path):
    path = tmp_path / "a.vtt"
    path.write_text("WEBVTT\n\n00:01.000 --> 00:02.000\n<v Ann>Tom &amp; Jerry\n\n"
                    "00:05.000 --> 00:06.000\n<v Bob>yes\n")
    doc = read_any(path)
    assert render(doc) == "Ann: Tom & Jerry\n\nBob: yes"
    write_any(doc, tmp_path / "b.vtt")
    assert "<v Ann>Tom &amp; Jerry" in (tmp_path / "b.vtt").read_text()


VOSK_RESULT = {"result": [{"conf": 1.0, "end": 0.9, "start": 0.5, "word": "hello"},
                          {"conf": 0.6, "end": 1.4, "start": 1.0, "word": "world"}],
               "text": "hello world"}


@pytest.mark.parametrize("content", [
    json.dumps(VOSK_RESULT),
    json.dumps([VOSK_RESULT, {"text": ""}]),
    json.dumps(VOSK_RESULT) + "\n" + json.dumps({"partial": "x"}) + "\n",
    json.dumps({"alternatives": [{"confidence": 3.0, **VOSK_RESULT}]}),
])
def test_vosk_variants(tmp_path, content):
    path = tmp_path / "v.json"
    path.write_text(content)
    doc = read_any(path)
    assert doc.words() == ["hello", "world"]
    assert (doc[1].start, doc[1].end, doc[1].confidence) == (1.0, 1.4, 0.6)


def test_vosk_transcriber_output(tmp_path):
    data = {"schemaVersion": "2.0", "monologues": [
        {"speaker": {"id": "unknown", "name": None}, "start": 0.5, "end": 1.4, "terms": [
            {"confidence": 1.0, "start": 0.5, "end": 0.9, "text": "hello", "type": "WORD"},
            {"confidence": 1.0, "start": 1.0, "end": 1.4, "text": "world", "type": "WORD"}]}],
        "text": []}
    (tmp_path / "t.json").write_text(json.dumps(data))
    assert read_any(tmp_path / "t.json").words() == ["hello", "world"]


def test_whisper_with_and_without_words(tmp_path):
    data = {"language": "en", "segments": [
        {"start": 0.0, "end": 2.0, "text": " Hello, world.", "words": [
            {"word": " Hello,", "start": 0.0, "end": 0.8, "probability": 0.9},
            {"word": " world", "start": 0.9, "end": 1.5, "probability": 0.8},
            {"word": ".", "start": 1.5, "end": 1.5, "probability": 0.9}]},
        {"start": 5.0, "end": 6.0, "text": " How are you?", "speaker": "SPEAKER_01"}]}
    (tmp_path / "w.json").write_text(json.dumps(data))
    doc = read_any(tmp_path / "w.json")
    assert doc.words() == ["hello", "world", "how", "are", "you"]
    assert render(doc, speakers=False) == "Hello, world.\n\nHow are you?"
    assert doc.metadata.language == "en" and doc[2].speaker == "SPEAKER_01"
    assert 5.0 <= doc[3].start < doc[3].end <= 6.0


@pytest.mark.parametrize("encoding,bom", [("utf-8", b""), ("utf-8", b"\xef\xbb\xbf"),
                                          ("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff")])
def test_txt_encodings(tmp_path, encoding, bom):
    text = "Café déjà vu, naïve.\n\nZweiter Absatz."
    (tmp_path / "a.txt").write_bytes(bom + text.encode(encoding))
    doc = read_any(tmp_path / "a.txt")
    assert render(doc) == text
    assert doc.metadata.warnings == ()


def test_txt_cp1252_fallback_is_reported(tmp_path):
    (tmp_path / "a.txt").write_bytes("Café – fine".encode("cp1252"))
    doc = read_any(tmp_path / "a.txt")
    assert render(doc) == "Café – fine"
    assert "cp1252" in doc.metadata.warnings[0]


def test_txt_paragraphs_from_lines_or_blank_lines(tmp_path):
    (tmp_path / "a.txt").write_text("one two\nthree\n")
    assert read_any(tmp_path / "a.txt").paragraph_starts == [0, 2]
    (tmp_path / "b.txt").write_text("one two\nthree\n\nfour\n")
    assert read_any(tmp_path / "b.txt").paragraph_starts == [0, 3]


def test_write_is_atomic_and_keeps_old_file_on_failure(tmp_path, monkeypatch, timed):
    target = tmp_path / "p.stet"
    write_any(timed, target)
    before = target.read_bytes()

    def boom(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(UserError, match="No space left"):
        write_any(timed, target)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["p.stet"]


def test_unknown_extensions(tmp_path, timed):
    (tmp_path / "a.xyz").write_text("x")
    with pytest.raises(FormatError, match="cannot read .xyz"):
        read_any(tmp_path / "a.xyz")
    with pytest.raises(UserError, match="cannot write .xyz"):
        write_any(timed, tmp_path / "b.xyz")


def test_docx_and_md_options(tmp_path):
    doc = Transcript([Token("hi", start=61.0, end=62.0, speaker="Ann")])
    write_any(doc, tmp_path / "a.md", timestamps=True, speakers=False)
    assert (tmp_path / "a.md").read_text() == "`[00:01:01]` hi\n"
    write_any(doc, tmp_path / "a.docx", timestamps=True)
    with zipfile.ZipFile(tmp_path / "a.docx") as z:
        xml = z.read("word/document.xml").decode()
    assert "[00:01:01]" in xml and "Ann: " in xml


def test_stet_project_does_not_keep_the_sources_reading_warnings(tmp_path):
    src = tmp_path / "ansi.srt"
    src.write_bytes("1\n00:00:01,000 --> 00:00:02,000\nCaf\u00e9 cr\u00e8me br\u00fbl\u00e9e \u00e0 la fa\u00e7on\n".encode("cp1252"))
    first = read_any(src)
    assert any("UTF-8" in w for w in first.metadata.warnings)
    project = tmp_path / "a.stet"
    write_any(first, project)
    again = read_any(project)
    assert again.metadata.warnings == ()
    assert [t.word for t in again.tokens] == [t.word for t in first.tokens]


def test_a_threshold_is_taken_in_percent_too():
    """The window shows and takes thresholds in percent; `--policy 80%` and `--min-confidence 80%`
    were refused ("a confidence 0..1"). A plain number over 1 stays refused: 1.5 may mean 0.15."""
    import argparse

    from editor.commandline.arguments import probability

    assert RenderPolicy.parse("80%").min_confidence == pytest.approx(0.8)
    assert RenderPolicy.parse(" 90 % ").min_confidence == pytest.approx(0.9)
    assert probability("80%") == pytest.approx(0.8) and probability("0.8") == pytest.approx(0.8)
    for bad in ("1.5", "180%", "-5%", "%"):
        with pytest.raises(ValueError, match="80%"):
            RenderPolicy.parse(bad)
        with pytest.raises(argparse.ArgumentTypeError, match="80%"):
            probability(bad)
