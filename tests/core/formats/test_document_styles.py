"""Italics, bold, underline and colour that Stet keeps word by word from subtitles go into .docx
runs and .md emphasis; the words (and speakers) read back as they were, the marks not as words."""

import docx
import pytest

from editor.core.formats import read_any, write_any
from editor.core.render import render

ITALIC_SRT = """1
00:00:01,000 --> 00:00:03,000
<i>There is so much...</i>

2
00:00:04,000 --> 00:00:06,000
<i>Get that man!</i>

3
00:00:07,000 --> 00:00:09,000
<i>"Marriage"?</i>
"""
MIXED_SRT = """1
00:00:01,000 --> 00:00:03,000
The <u>river</u> was <font color="#ff0000">high</font>,

2
00:00:04,000 --> 00:00:06,000
said <b>Ann</b> <i>twice</i>.
"""


def _runs(path):
    return [r for p in docx.Document(str(path)).paragraphs for r in p.runs]


def test_an_all_italic_subrip_gives_italic_runs_in_docx(tmp_path):
    src = tmp_path / "film.srt"
    src.write_text(ITALIC_SRT, encoding="utf-8")
    out = tmp_path / "film.docx"
    write_any(read_any(src), out)
    runs = _runs(out)
    italic = [r for r in runs if r.italic]
    assert len(italic) >= 1
    assert "".join(r.text for r in italic).split() == 'There is so much... Get that man! "Marriage"?'.split()
    assert all(r.italic or not r.text.strip() for r in runs)
    assert render(read_any(out)) == render(read_any(src))


def test_bold_underline_and_colour_go_into_docx_runs(tmp_path):
    src = tmp_path / "mixed.srt"
    src.write_text(MIXED_SRT, encoding="utf-8")
    out = tmp_path / "mixed.docx"
    write_any(read_any(src), out)
    runs = {r.text: r for r in _runs(out)}
    assert runs["river"].underline and runs["Ann"].bold and runs["twice"].italic
    assert str(runs["high"].font.color.rgb) == "FF0000"
    assert render(read_any(out)) == "The river was high, said Ann twice."


def test_markdown_carries_emphasis_and_reads_back_the_words(tmp_path):
    src = tmp_path / "mixed.srt"
    src.write_text(MIXED_SRT, encoding="utf-8")
    out = tmp_path / "mixed.md"
    warnings = write_any(read_any(src), out)
    assert out.read_text(encoding="utf-8") == "The <u>river</u> was high, said **Ann** *twice*.\n"
    assert warnings and "colour" in warnings[0]
    assert render(read_any(out)) == "The river was high, said Ann twice."
    src.write_text(ITALIC_SRT, encoding="utf-8")
    write_any(read_any(src), out)
    assert out.read_text(encoding="utf-8").startswith("*There is so much... Get that man!")
    assert render(read_any(out)) == render(read_any(src))


@pytest.mark.parametrize("ext", [".md", ".docx"])
def test_speakers_and_styles_together_read_back(tmp_path, ext):
    src = tmp_path / "talk.vtt"
    src.write_text("WEBVTT\n\n00:01.000 --> 00:03.000\n<v Ann><i>Where were you?</i>\n\n"
                   "00:04.000 --> 00:06.000\n<v Bob><b>Note:</b> the river rose.\n", encoding="utf-8")
    doc = read_any(src)
    out = tmp_path / f"talk{ext}"
    write_any(doc, out)
    back = read_any(out)
    assert [(t.text, t.speaker) for t in back.tokens] == [(t.text, t.speaker) for t in doc.tokens]


@pytest.mark.parametrize("ext", [".md", ".docx"])
def test_a_bold_word_and_colon_starting_a_paragraph_is_no_speaker(tmp_path, ext):
    src = tmp_path / "note.srt"
    src.write_text("1\n00:00:01,000 --> 00:00:03,000\n<b>Note:</b> the river rose.\n", encoding="utf-8")
    out = tmp_path / f"note{ext}"
    write_any(read_any(src), out)
    back = read_any(out)
    assert render(back) == "Note: the river rose." and all(t.speaker is None for t in back.tokens)
    if ext == ".docx":
        assert any(r.bold and r.text == "Note" for r in _runs(out))
