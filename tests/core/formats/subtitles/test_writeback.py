"""Subtitles written back as they came (issue 41): a SubRip or WebVTT file written back to its
own format keeps every byte the person did not change — byte-order mark, encoding, line ends,
header, NOTE/STYLE/REGION blocks, identifiers, time lines as written, settings, tags, ruby — and a
changed cue changes its text and nothing else. Files are shaped as the W3C WebVTT spec, Subtitle
Edit, YouTube and Netflix write them; the corpus holds files real programs wrote."""

import codecs
import json
import re
from pathlib import Path

import pytest

from editor.core import RenderPolicy
from editor.core.formats import read_any, write_any
from editor.core.document.records import Kind, Suggestion

CORPUS = Path(__file__).parents[3] / "corpus"
MANIFEST = json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))
SUBTITLES = [e["file"] for e in MANIFEST
             if e["expect"] == "intact" and Path(e["file"]).suffix in (".srt", ".vtt", ".sbv")]
SURE = RenderPolicy(0.9)
#: The marks a restoration adds (and the edit below puts in), stripped before comparing
MARKS = re.compile(r"[.,?!]")


def write(tmp_path, name, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def written(doc, tmp_path, name, policy=SURE) -> bytes:
    out = tmp_path / name
    write_any(doc, out, policy)
    return out.read_bytes()


def suggest_marks(doc, every: int = 4) -> int:
    """Suggestions as a restoration makes them, all confident: a mark after every ``every``-th
    word (a full stop or a comma) and a capital on the word after each full stop."""
    suggestions = []
    capital_next = False
    for k, token in enumerate(doc.tokens):
        if capital_next and token.surface[:1].islower():
            suggestions.append(Suggestion(token.id, Kind.CASE, token.surface[:1].upper() + token.surface[1:],
                                          {token.surface[:1].upper() + token.surface[1:]: 0.97}))
        capital_next = False
        if (k % every == every - 1 or k == len(doc) - 1) and not token.punct:
            mark = "." if k % (2 * every) == every - 1 else ","
            suggestions.append(Suggestion(token.id, Kind.PUNCT, mark, {mark: 0.95, "": 0.05}))
            capital_next = mark == "."
    if not suggestions:  # every word has its mark: one more after the first
        token = doc.tokens[0]
        mark = token.punct + "!"
        suggestions.append(Suggestion(token.id, Kind.PUNCT, mark, {mark: 0.95}))
    return doc.set_suggestions(suggestions)


def _decode(data: bytes) -> tuple[bytes, str]:
    for bom, codec in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                       (codecs.BOM_UTF16_BE, "utf-16-be")):
        if data.startswith(bom):
            return bom, data[len(bom):].decode(codec)
    try:
        return b"", data.decode("utf-8")
    except UnicodeDecodeError:
        return b"", data.decode("gb18030")


def _without_marks_and_case(data: bytes) -> tuple[bytes, list[str]]:
    """The file's BOM and its lines with their ends; every line but a time line without the
    marks a restoration adds and in lower case (a time line stays as it is)."""
    bom, text = _decode(data)
    lines = text.splitlines(keepends=True)
    return bom, [line if "-->" in line else MARKS.sub("", line).lower() for line in lines]


# -- the corpus -------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", SUBTITLES)
def test_corpus_file_written_unchanged_is_byte_identical(tmp_path, name):
    source = CORPUS / "files" / name
    doc = read_any(source)
    assert written(doc, tmp_path, f"out{source.suffix}", RenderPolicy()) == source.read_bytes()
    suggest_marks(doc)  # pending, and below the threshold asked: nothing applied
    assert written(doc, tmp_path, f"none{source.suffix}", RenderPolicy(0.99)) == source.read_bytes()


@pytest.mark.parametrize("name", SUBTITLES)
def test_corpus_file_restored_changes_only_marks_and_case(tmp_path, name):
    source = CORPUS / "files" / name
    doc = read_any(source)
    assert suggest_marks(doc) > 0
    data = written(doc, tmp_path, f"out{source.suffix}")
    assert data != source.read_bytes()
    assert _without_marks_and_case(data) == _without_marks_and_case(source.read_bytes())
    back = read_any(tmp_path / f"out{source.suffix}")
    before = read_any(source)
    assert [(c.ident, c.timing) for c in back.metadata.cues] == [(c.ident, c.timing) for c in before.metadata.cues]
    assert [t.text.lower() for t in back.tokens] != [t.text.lower() for t in before.tokens]
    assert [MARKS.sub("", t.text).lower() for t in back.tokens] == \
        [MARKS.sub("", t.text).lower() for t in before.tokens]


# -- SubRip as Subtitle Edit and others write it ----------------------------------------------------
SRT = ("1\r\n00:00:01,000 --> 00:00:03,000\r\n<i>where were you</i>\r\n<i>last night</i>\r\n\r\n"
       "7\r\n00:00:04,000 --> 00:00:06,500 X1:100 X2:200 Y1:10 Y2:20\r\n{\\an8}<font color=\"#ffff00\">stop</font> he said\r\n\r\n"
       "12\r\n00:00:07,000 --> 00:00:09,000\r\n<b>x</b>^3 is </b> odd &amp; fine\r\n\r\n")


def _edit(doc, word: str, new: str) -> None:
    index = [t.text for t in doc.tokens].index(word)
    doc.replace_span(index, index + 1, new)


@pytest.mark.parametrize("bom,codec", [(b"", "utf-8"), (codecs.BOM_UTF8, "utf-8"),
                                       (codecs.BOM_UTF16_LE, "utf-16-le"),
                                       (codecs.BOM_UTF16_BE, "utf-16-be")])
def test_subrip_keeps_bom_encoding_crlf_numbers_and_tags(tmp_path, bom, codec):
    path = write(tmp_path, "in.srt", bom + SRT.encode(codec))
    doc = read_any(path)
    assert written(doc, tmp_path, "same.srt", RenderPolicy()) == path.read_bytes()
    _edit(doc, "where", "Where")
    _edit(doc, "night", "night?")
    _edit(doc, "stop", "Stop")
    _edit(doc, "said", "said.")
    _edit(doc, "x^3", "X^3")
    _edit(doc, "fine", "fine.")
    expected = (SRT.replace("<i>where", "<i>Where").replace("night</i>", "night?</i>")
                .replace(">stop</font> he said", ">Stop</font> he said.")
                .replace("<b>x</b>", "<b>X</b>").replace("fine\r\n", "fine.\r\n"))
    assert written(doc, tmp_path, "out.srt") == bom + expected.encode(codec)


def test_a_mark_after_a_word_in_tags_goes_outside_them_when_the_line_goes_on(tmp_path):
    path = write(tmp_path, "in.srt", SRT.encode())
    doc = read_any(path)
    _edit(doc, "stop", "stop,")
    assert b'<font color="#ffff00">stop</font>, he said' in written(doc, tmp_path, "out.srt")


@pytest.mark.parametrize("codec,bom", [("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE)])
@pytest.mark.parametrize("named", [None, "utf-16"])
def test_utf16_named_or_not_goes_back_in_its_byte_order(tmp_path, codec, bom, named):
    path = write(tmp_path, "in.srt", bom + SRT.encode(codec))
    doc = read_any(path, named)
    _edit(doc, "fine", "fine.")
    assert written(doc, tmp_path, "out.srt") == bom + SRT.replace("fine\r\n", "fine.\r\n").encode(codec)


def test_mixed_line_ends_stay_line_by_line(tmp_path):
    text = "1\r\n00:00:01,000 --> 00:00:02,000\nhello there\r\n\n2\n00:00:03,000 --> 00:00:04,000\r\nbye now\n"
    path = write(tmp_path, "in.srt", text.encode())
    doc = read_any(path)
    assert written(doc, tmp_path, "same.srt", RenderPolicy()) == text.encode()
    _edit(doc, "now", "now.")
    assert written(doc, tmp_path, "out.srt") == text.replace("bye now", "bye now.").encode()


def test_a_legacy_code_page_is_written_back_in_it(tmp_path):
    text = "1\r\n00:00:01,000 --> 00:00:03,000\r\nl'élève est à la maison\r\n\r\n"
    path = write(tmp_path, "in.srt", text.encode("cp1252"))
    doc = read_any(path)
    assert written(doc, tmp_path, "same.srt", RenderPolicy()) == path.read_bytes()
    _edit(doc, "maison", "maison.")
    assert written(doc, tmp_path, "out.srt") == text.replace("maison", "maison.").encode("cp1252")
    _edit(doc, "maison.", "maison…")  # the code page holds it: still cp1252
    assert written(doc, tmp_path, "out2.srt") == text.replace("maison", "maison…").encode("cp1252")
    _edit(doc, "maison…", "maison✓")  # it does not: UTF-8, and said
    out = tmp_path / "out3.srt"
    warnings = write_any(doc, out, SURE)
    assert out.read_bytes() == text.replace("maison", "maison✓").encode("utf-8")
    assert any("UTF-8" in w for w in warnings)


def test_a_mark_never_splits_a_cue_nor_moves_a_line_break(tmp_path):
    text = ("1\n00:00:01,000 --> 00:00:05,000\nso the seed library began three winters ago with a few\n"
            "neighbours who swapped seeds\n")
    path = write(tmp_path, "in.srt", text.encode())
    doc = read_any(path)
    for word in ("ago", "few", "seeds"):
        _edit(doc, word, word + ",")
    _edit(doc, "so", "So")
    assert written(doc, tmp_path, "out.srt") == (
        text.replace("so", "So", 1).replace("ago", "ago,").replace("few", "few,").replace("seeds", "seeds,")
    ).encode()


def test_words_typed_in_past_the_files_line_length_wrap_within_the_cue(tmp_path):
    cues = [f"{n}\n00:00:{10 + 5 * n:02d},000 --> 00:00:{14 + 5 * n:02d},000\nline number {n} of the film\n"
            for n in range(1, 7)]
    long = ("7\n00:00:40,000 --> 00:00:44,000\n"
            "so the seed library began three winters ago with a few neighbours\n")
    text = "\n".join([*cues, long])
    path = write(tmp_path, "in.srt", text.encode())
    doc = read_any(path)
    _edit(doc, "ago", "ago. Then")
    _edit(doc, "with", "With")
    data = written(doc, tmp_path, "out.srt").decode()
    assert data.count("-->") == 7
    assert data.startswith("\n".join(cues))  # the other cues byte for byte
    last = data.split("\n\n")[-1]
    assert last.split("\n")[:2] == ["7", "00:00:40,000 --> 00:00:44,000"]
    lines = last.rstrip("\n").split("\n")[2:]
    assert len(lines) == 2 and " ".join(lines) == ("so the seed library began three winters ago. "
                                                   "Then With a few neighbours")
    assert all(len(line) <= 65 for line in lines)  # the file's own line length


def test_a_line_within_the_files_width_is_not_wrapped(tmp_path):
    text = ("1\n00:00:01,000 --> 00:00:03,000\nshort one\n\n"
            "2\n00:00:04,000 --> 00:00:06,000\na somewhat longer line of the film here\n")
    path = write(tmp_path, "in.srt", text.encode())
    doc = read_any(path)
    _edit(doc, "one", "one, and some more words")
    assert written(doc, tmp_path, "out.srt") == text.replace("short one", "short one, and some more words").encode()


def test_a_cue_whose_words_are_all_deleted_goes_with_its_block(tmp_path):
    text = ("1\r\n00:00:01,000 --> 00:00:02,000\r\nfirst\r\n\r\n"
            "2\r\n00:00:03,000 --> 00:00:04,000\r\nsecond cue\r\n\r\n"
            "3\r\n00:00:05,000 --> 00:00:06,000\r\nthird\r\n")
    path = write(tmp_path, "in.srt", text.encode())
    doc = read_any(path)
    start = [t.text for t in doc.tokens].index("second")
    doc.delete_span(start, start + 2)
    assert written(doc, tmp_path, "out.srt") == text.replace(
        "2\r\n00:00:03,000 --> 00:00:04,000\r\nsecond cue\r\n\r\n", "").encode()
    doc.delete_span(start, start + 1)  # the last cue: the file still ends as it did
    assert written(doc, tmp_path, "out2.srt") == b"1\r\n00:00:01,000 --> 00:00:02,000\r\nfirst\r\n"


def test_a_deleted_word_goes_with_its_space_and_a_typed_word_after_its_neighbour(tmp_path):
    text = "1\n00:00:01,000 --> 00:00:04,000\n<i>I really like</i> cats\n"
    path = write(tmp_path, "in.srt", text.encode())
    doc = read_any(path)
    k = [t.text for t in doc.tokens].index("really")
    doc.delete_span(k, k + 1)
    assert written(doc, tmp_path, "out.srt") == b"1\n00:00:01,000 --> 00:00:04,000\n<i>I like</i> cats\n"
    k = [t.text for t in doc.tokens].index("cats")
    doc.replace_span(k, k + 1, "dogs")
    assert written(doc, tmp_path, "out2.srt") == b"1\n00:00:01,000 --> 00:00:04,000\n<i>I like</i> dogs\n"


# -- WebVTT as the W3C spec, Netflix and YouTube write it -------------------------------------------
VTT = ("WEBVTT - a film\n"
       "X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n\n"
       "REGION\nid:fred\nwidth:40%\nlines:3\nregionanchor:0%,100%\n\n"
       "STYLE\n::cue(.loud) {\n  color: red;\n}\n\n"
       "NOTE This file was written\nby hand, as the spec shows\n\n"
       "intro\n00:16.500 --> 00:18.000 align:start position:10% line:0\n"
       "<v Ann>hello <c.loud>there</c></v>\n<v.first Bob>my friend\n\n"
       "NOTE between cues\n\n"
       "q-3\n00:00:19.000 --> 00:00:21.000 region:fred\n"
       "<ruby>blue apple tree<rt>blue apple tree!</rt></ruby> is <lang en-GB>colour</lang>\n\n"
       "00:22.000 --> 00:23.000\n<i>x</i>^3 is </b> odd &amp; &lt;fine&gt;\n")


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("bom", [b"", codecs.BOM_UTF8])
def test_webvtt_keeps_header_blocks_ids_timings_and_tags(tmp_path, newline, bom):
    source = bom + VTT.replace("\n", newline).encode()
    path = write(tmp_path, "in.vtt", source)
    doc = read_any(path)
    assert written(doc, tmp_path, "same.vtt", RenderPolicy()) == source
    _edit(doc, "hello", "Hello,")
    _edit(doc, "friend", "friend.")
    _edit(doc, "colour", "colour!")
    _edit(doc, "x^3", "X^3")
    _edit(doc, "odd &", "odd, &")
    expected = (VTT.replace("<v Ann>hello", "<v Ann>Hello,").replace("my friend\n", "my friend.\n")
                .replace("colour</lang>", "colour!</lang>").replace("<i>x</i>", "<i>X</i>")
                .replace("odd &amp;", "odd, &amp;"))
    assert written(doc, tmp_path, "out.vtt") == bom + expected.replace("\n", newline).encode()


def test_webvtt_escapes_what_it_writes(tmp_path):
    path = write(tmp_path, "in.vtt", VTT.encode())
    doc = read_any(path)
    _edit(doc, "<fine>", "<fine>&")
    assert b"&lt;fine&gt;&amp;\n" in written(doc, tmp_path, "out.vtt")


def test_lyrics_timed_word_by_word_keep_their_cues(tmp_path):
    source = CORPUS / "files" / "webvtt-py" / "cue_tags.vtt"
    doc = read_any(source)
    assert len(doc.metadata.cues) == 3
    assert doc.tokens[3].text == "hits" and doc.tokens[3].start == pytest.approx(17.5)
    _edit(doc, "eye", "eye,")
    _edit(doc, "pie", "pie.")
    data = written(doc, tmp_path, "out.vtt")
    assert data == source.read_bytes().replace(b"eye\n", b"eye,\n").replace(b"pie\n", b"pie.\n")


def test_written_to_another_format_nothing_of_the_source_layout_goes_along(tmp_path):
    path = write(tmp_path, "in.srt", codecs.BOM_UTF8 + SRT.encode())
    doc = read_any(path)
    data = written(doc, tmp_path, "out.vtt", RenderPolicy())
    assert data.startswith(b"WEBVTT\n") and b"\r\n" not in data


def test_a_project_keeps_the_file_it_came_from(tmp_path):
    path = write(tmp_path, "in.srt", codecs.BOM_UTF8 + SRT.encode())
    doc = read_any(path)
    _edit(doc, "fine", "fine.")
    write_any(doc, tmp_path / "film.stet")
    again = read_any(tmp_path / "film.stet")
    expected = codecs.BOM_UTF8 + SRT.replace("fine\r\n", "fine.\r\n").encode()
    assert written(again, tmp_path, "out.srt") == expected


# -- SubViewer, SubStation Alpha, TTML: the file as it came where nothing changed; else its line
# ends and byte-order mark
OTHERS = [e["file"] for e in MANIFEST if e["expect"] == "intact" and Path(e["file"]).suffix in (".ass", ".ttml")]


@pytest.mark.parametrize("name", OTHERS)
def test_substation_and_ttml_written_unchanged_are_byte_identical(tmp_path, name):
    source = CORPUS / "files" / name
    assert written(read_any(source), tmp_path, f"out{source.suffix}", RenderPolicy()) == source.read_bytes()


def test_subviewer_keeps_crlf_and_its_cues(tmp_path):
    text = "0:00:01.000,0:00:03.000\r\nhello there\r\n\r\n0:00:04.000,0:00:06.000\r\nsee you\r\n"
    path = write(tmp_path, "in.sbv", codecs.BOM_UTF8 + text.encode())
    doc = read_any(path)
    assert written(doc, tmp_path, "same.sbv", RenderPolicy()) == path.read_bytes()
    _edit(doc, "you", "you.")
    assert written(doc, tmp_path, "out.sbv") == codecs.BOM_UTF8 + text.replace("see you", "see you.").encode()


def test_substation_changed_keeps_its_line_ends_and_bom(tmp_path):
    text = ("[Script Info]\r\nScriptType: v4.00+\r\n\r\n[V4+ Styles]\r\n"
            "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, "
            "Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, "
            "Alignment, MarginL, MarginR, MarginV, Encoding\r\n"
            "Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,2,2,"
            "10,10,10,1\r\n\r\n[Events]\r\n"
            "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\r\n"
            "Dialogue: 0,0:00:01.00,0:00:03.00,Default,,0,0,0,,hello there\r\n")
    path = write(tmp_path, "in.ass", codecs.BOM_UTF8 + text.encode())
    doc = read_any(path)
    assert written(doc, tmp_path, "same.ass", RenderPolicy()) == path.read_bytes()
    _edit(doc, "there", "there.")
    data = written(doc, tmp_path, "out.ass")
    assert data.startswith(codecs.BOM_UTF8) and b"hello there." in data
    assert data.count(b"\r\n") == data.count(b"\n")


def test_text_typed_in_reads_back_as_typed(tmp_path):
    """SubRip has no escapes: "&amp;" typed as text is written "&amp;amp;", which reads back
    as it was typed; WebVTT escapes each character."""
    for name, text in (("in.srt", SRT), ("in.vtt", VTT)):
        path = write(tmp_path, name, text.encode())
        doc = read_any(path)
        _edit(doc, "fine" if name == "in.srt" else "colour", "&amp;")
        _edit(doc, "odd &" if name == "in.srt" else "is", "a<b")
        out = tmp_path / f"out{path.suffix}"
        write_any(doc, out, SURE)
        assert read_any(out).words() == doc.words()


def test_deleting_the_words_of_a_cue_that_lost_its_time_line_leaves_no_number(tmp_path):
    source = CORPUS / "files" / "webvtt-py" / "missing_timeframe.srt"
    doc = read_any(source)  # cue 2 has no time line: its words were joined to cue 1
    texts = [t.text for t in doc.tokens]
    start = next(k for k in range(len(doc) - 2) if texts[k:k + 3] == ["Caption", "text", "#2"])
    doc.delete_span(start, start + 3)
    out = tmp_path / "out.srt"
    write_any(doc, out, SURE)
    assert read_any(out).words() == doc.words()


@pytest.mark.parametrize("prefix", ["", "[SPEAKER_00]: "])
def test_words_highlighted_one_at_a_time_keep_their_cues(tmp_path, prefix):
    """WhisperX's --highlight_words: the text in a cue per word, that word underlined; read once
    each, a mark or capital goes into every cue that shows the word."""
    words = ["hello", "there", "my", "friend"]
    text = "".join(
        f"{n + 1}\n00:00:0{n + 1},000 --> 00:00:0{n + 2},000\n{prefix}"
        + " ".join(f"<u>{w}</u>" if k == n else w for k, w in enumerate(words)) + "\n\n"
        for n in range(4))
    path = write(tmp_path, "in.srt", text.encode())
    doc = read_any(path)
    assert [t.text for t in doc.tokens] == words
    assert written(doc, tmp_path, "same.srt", RenderPolicy()) == text.encode()
    doc.edit_token(0, surface="Hello")
    doc.edit_token(1, punct=",")
    doc.edit_token(3, punct=".")
    expected = (text.replace("hello", "Hello").replace("there ", "there, ").replace("there</u> ", "there</u>, ")
                .replace("friend\n", "friend.\n").replace("friend</u>\n", "friend.</u>\n"))
    assert written(doc, tmp_path, "out.srt") == expected.encode()


def test_rolling_captions_written_back_as_they_came_are_known_before_writing(tmp_path):
    """The window's check of cues asks, without writing, whether Export to the file's own
    extension writes rolling captions back as they came (no layout applies) or cuts them afresh."""
    from editor.core.formats.subtitles.writeback import rolling_written_back
    from editor.core.render import NONE

    youtube = Path(__file__).parents[3] / "corpus" / "files" / "webvtt-py" / "youtube_dl.vtt"
    source = tmp_path / "talk.en.vtt"
    source.write_bytes(youtube.read_bytes())
    doc = read_any(source)
    assert not doc.metadata.cues and rolling_written_back(doc, NONE) == ".vtt"
    doc.replace_span(0, 1, doc[0].text.capitalize() + ".")  # marks and capitals: patched in place
    assert rolling_written_back(doc, NONE) == ".vtt"
    out = tmp_path / "out.en.vtt"
    write_any(doc, out)
    assert out.read_text(encoding="utf-8").count("-->") == source.read_text(encoding="utf-8").count("-->")
    doc.replace_span(0, 1, "well hello")  # a word added: cut afresh
    assert rolling_written_back(doc, NONE) is None
    srt = tmp_path / "talk.srt"
    srt.write_text("1\n00:00:01,000 --> 00:00:02,000\nso the library\n", encoding="utf-8")
    assert rolling_written_back(read_any(srt), NONE) is None
