"""Issue 41, part 1: every word whole on import. Invisible characters inside a word (zero-width
space, joiner, non-joiner, word joiner, soft hyphen, direction marks, embeddings, isolates) stay
in it and are written back where they were; every line-end style reads alike."""

import json

import pytest

from editor.core import render
from editor.core.document.transcript import Kind, Suggestion, Transcript
from editor.core.formats import read_any, write_any
from editor.core.document.text import bare_word, normalize_newlines, split_words

INVISIBLES = {
    "zero-width space": "\u200b", "zero-width non-joiner": "\u200c", "zero-width joiner": "\u200d",
    "word joiner": "\u2060", "soft hyphen": "\u00ad", "left-to-right mark": "\u200e",
    "right-to-left mark": "\u200f", "arabic letter mark": "\u061c",
    "left-to-right embedding": "\u202a", "right-to-left embedding": "\u202b",
    "pop directional formatting": "\u202c", "left-to-right override": "\u202d",
    "right-to-left override": "\u202e", "left-to-right isolate": "\u2066",
    "right-to-left isolate": "\u2067", "first strong isolate": "\u2068",
    "pop directional isolate": "\u2069",
}
CHARS = pytest.mark.parametrize("ch", list(INVISIBLES.values()), ids=list(INVISIBLES))


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


@CHARS
def test_an_invisible_character_inside_a_word_keeps_it_one_word(tmp_path, ch):
    doc = read_any(write(tmp_path, "a.txt", f"the fi{ch}rst word\n"))
    assert [t.surface for t in doc.tokens] == ["the", f"fi{ch}rst", "word"]
    assert len(doc) == 3


@CHARS
def test_plain_text_with_invisible_characters_is_written_back_as_it_came(tmp_path, ch):
    text = f"The fi{ch}rst word, and {ch}the last{ch}.\n"
    doc = read_any(write(tmp_path, "a.txt", text))
    write_any(doc, tmp_path / "out.txt")
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == text


@CHARS
@pytest.mark.parametrize("ext,head,clock", [
    (".srt", "", "1\n00:00:01,000 --> 00:00:02,500\n"),
    (".vtt", "WEBVTT\n\n", "00:00:01.000 --> 00:00:02.500\n"),
])
def test_subtitles_with_invisible_characters_come_back_byte_for_byte(tmp_path, ch, ext, head, clock):
    text = f"{head}{clock}The fi{ch}rst word,\nthen the se{ch}cond.\n"
    doc = read_any(write(tmp_path, f"a{ext}", text))
    assert doc.words() == ["the", f"fi{ch}rst", "word", "then", "the", f"se{ch}cond"]
    write_any(doc, tmp_path / f"out{ext}")
    assert (tmp_path / f"out{ext}").read_bytes() == text.encode("utf-8")


@CHARS
@pytest.mark.parametrize("ext", [".srt", ".vtt", ".txt", ".stet", ".json"])
def test_words_with_invisible_characters_survive_every_written_format(tmp_path, ch, ext):
    """Written afresh (from a recogniser's JSON, so no cue is kept as it came), the words still
    hold the characters where they were, and read back as the same words."""
    words = ["the", f"fi{ch}rst", "and", f"se{ch}cond", "words"]
    src = write(tmp_path, "v.json", json.dumps(
        {"result": [{"word": w, "start": i, "end": i + 0.5, "conf": 1.0} for i, w in enumerate(words)]}))
    doc = read_any(src)
    assert doc.words() == words
    write_any(doc, tmp_path / f"out{ext}")
    back = read_any(tmp_path / f"out{ext}")
    assert [t.surface for t in back.tokens] == words


def test_a_project_keeps_invisible_characters_in_words_and_in_suggestions(tmp_path):
    doc = read_any(write(tmp_path, "a.txt", "so the fi\u200brst is\u200f here\n"))
    doc.set_suggestions([Suggestion(doc[2].id, Kind.CASE, "Fi\u200brst", {"Fi\u200brst": 0.8, "fi\u200brst": 0.2})])
    write_any(doc, tmp_path / "a.stet")
    back = read_any(tmp_path / "a.stet")
    assert [t.surface for t in back.tokens] == ["so", "the", "fi\u200brst", "is\u200f", "here"]
    assert [s.value for s in back.suggestions()] == ["Fi\u200brst"]


@pytest.mark.parametrize("chunk,surface,punct", [
    ("שלום.\u200f", "שלום", ".\u200f"),  # a right-to-left mark after the full stop
    ("\u202bשלום?\u202c", "\u202bשלום", "?\u202c"),  # an embedding around the words
    ("word\u200f.", "word\u200f", "."),
    ("fi\u200drst\u200b", "fi\u200drst\u200b", ""),
    ("\u2067Hello\u2069,", "\u2067Hello\u2069", ","),
])
def test_invisible_characters_at_a_words_edge_stay_where_they_stand(chunk, surface, punct):
    (piece,) = split_words(chunk)
    assert (piece.surface, piece.punct) == (surface, punct)


def test_a_right_to_left_mark_stays_after_a_mark_the_model_replaces():
    from editor.restore.passes.suggest import with_mark

    assert with_mark(".\u200f", "?") == "?\u200f"
    assert with_mark('."\u200f', ",") == ',"\u200f'
    assert with_mark(".\u200f", "") == "\u200f"


def test_the_model_reads_words_without_their_invisible_characters():
    assert bare_word("fi\u200brst") == "first"
    assert bare_word("\u202bשלום\u202c") == "שלום"
    assert bare_word("\u200f") == "\u200f"  # nothing else: left as it is
    assert bare_word("plain") == "plain"


def test_a_byte_order_mark_within_the_text_is_still_dropped(tmp_path):
    """Where files were joined, a BOM begins a line; it is no part of any word."""
    doc = read_any(write(tmp_path, "a.txt", "one two\n\ufeffthree four\n"))
    assert [t.surface for t in doc.tokens] == ["one", "two", "three", "four"]


# -- line ends -----------------------------------------------------------------------------------
SRT = "1\n00:00:01,000 --> 00:00:02,000\nHello there,\nmy friend.\n\n2\n00:00:03,000 --> 00:00:04,000\nGeneral Kenobi.\n\n"
VTT = "WEBVTT\n\nNOTE made by hand\n\n00:00:01.000 --> 00:00:02.000\nHello there,\nmy friend.\n\n" \
      "00:00:03.000 --> 00:00:04.000\nGeneral Kenobi.\n"
TXT = "Hello there, my friend.\n\nGeneral Kenobi.\nYou are a bold one.\n"
SBV = "0:00:01.000,0:00:02.000\nHello there,\nmy friend.\n\n0:00:03.000,0:00:04.000\nGeneral Kenobi.\n"
ASS = ("[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, "
       "MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,Hello there,\\N"
       "my friend.\nDialogue: 0,0:00:03.00,0:00:04.00,Default,,0,0,0,,General Kenobi.\n")
MD = "**Ann:** Hello there, my friend.\n\n**Bob:** General Kenobi.\n"
ENDS = {"LF": "\n", "CRLF": "\r\n", "CR": "\r", "LFCR": "\n\r", "CRCRLF": "\r\r\n"}


def mixed(text):
    """Each line end another style in turn."""
    out, styles = [], list(ENDS.values())
    for k, line in enumerate(text.split("\n")[:-1]):
        out.append(line + styles[k % len(styles)])
    return "".join(out)


def cues_of(doc):
    return [(c.start, c.end, c.words, c.line_starts) for c in doc.metadata.cues]


@pytest.mark.parametrize("name,text", [("a.srt", SRT), ("a.vtt", VTT), ("a.txt", TXT), ("a.sbv", SBV),
                                       ("a.ass", ASS), ("a.md", MD)])
@pytest.mark.parametrize("style", [*ENDS, "mixed"])
def test_every_line_end_style_reads_alike(tmp_path, name, text, style):
    plain = read_any(write(tmp_path, "lf-" + name, text))
    assert plain.words()[:5] == ["hello", "there", "my", "friend", "general"]
    styled = text.replace("\n", ENDS[style]) if style != "mixed" else mixed(text)
    doc = read_any(write(tmp_path, name, styled))
    assert [t.text for t in doc.tokens] == [t.text for t in plain.tokens]
    assert doc.paragraph_starts == plain.paragraph_starts
    assert cues_of(doc) == cues_of(plain)
    assert doc.metadata.warnings == plain.metadata.warnings


def test_a_subrip_file_with_lf_cr_line_ends_has_no_numbers_for_words(tmp_path):
    doc = read_any(write(tmp_path, "a.srt", SRT.replace("\n", "\n\r")))
    assert render(doc) == "Hello there, my friend. General Kenobi."
    assert len(doc.metadata.cues) == 2


@pytest.mark.parametrize("text,expected", [
    ("a\r\nb\r\n\r\nc", "a\nb\n\nc"), ("a\n\rb\n\r\n\rc", "a\nb\n\nc"), ("a\rb\r\rc", "a\nb\n\nc"),
    ("a\r\r\nb", "a\nb"), ("a\nb\r\nc\rd\n\re", "a\nb\nc\nd\ne"),
])
def test_line_ends_are_read_left_to_right(text, expected):
    assert normalize_newlines(text) == expected


@pytest.mark.parametrize("brk", ["\u2028", "\x85", "\x0c", "\x0b"])
def test_unicode_line_breaks_end_lines_in_plain_text(tmp_path, brk):
    """Python's splitlines and Unicode's line breaking rules take these for line ends: in plain
    text they end a line like a newline does."""
    doc = read_any(write(tmp_path, "a.txt", f"First line here.{brk}Second line here.\n"))
    plain = read_any(write(tmp_path, "b.txt", "First line here.\nSecond line here.\n"))
    assert doc.paragraph_starts == plain.paragraph_starts == [0, 3]


@pytest.mark.parametrize("brk", ["\u2028", "\u2029", "\x85", "\x0c"])
@pytest.mark.parametrize("ext,head,clock", [
    (".srt", "", "1\n00:00:01,000 --> 00:00:02,000\n"),
    (".vtt", "WEBVTT\n\n", "00:00:01.000 --> 00:00:02.000\n"),
])
def test_unicode_line_breaks_in_a_cue_part_words_and_stay_as_written(tmp_path, brk, ext, head, clock):
    """SubRip and WebVTT lines end at CR and LF only (the WebVTT spec's line terminators): a
    U+2028 in a cue's text parts words as whitespace does and is written back where it was."""
    text = f"{head}{clock}Hello{brk}world\n"
    doc = read_any(write(tmp_path, f"a{ext}", text))
    assert doc.words() == ["hello", "world"]
    assert doc.metadata.cues[0].line_starts == ()
    write_any(doc, tmp_path / f"out{ext}")
    assert (tmp_path / f"out{ext}").read_bytes() == text.encode("utf-8")


def test_typed_text_keeps_invisible_characters_in_its_words():
    doc = Transcript.from_text("so the word")
    doc.replace_span(2, 3, "fi\u200brst\u200f.")
    assert [t.text for t in doc.tokens] == ["so", "the", "fi\u200brst\u200f."]
