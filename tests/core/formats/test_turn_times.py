"""A time at each speaker turn in .txt, .md and .docx, as noScribe writes it ("[00:12:34] Carme:
..."; issue 50): written with ``turn_times``, `stet convert --turn-times`, read back with the same
speakers and words (the times as times, not words)."""

from __future__ import annotations

from pathlib import Path

import pytest

from editor.cli import main
from editor.core.formats import read_any, write_any

SRT = ("1\n00:12:34,000 --> 00:12:36,000\nCarme: good morning and welcome\n\n"
       "2\n00:12:36,500 --> 00:12:38,000\nmany thanks\n\n"
       "3\n01:02:07,400 --> 01:02:09,000\nJoan: thank you for having me\n\n"
       "4\n01:02:10,000 --> 01:02:12,000\nCarme: so tell me about the village\n")


@pytest.fixture
def interview(tmp_path) -> Path:
    path = tmp_path / "interview.srt"
    path.write_text(SRT, encoding="utf-8")
    return path


def test_txt_has_the_time_before_each_speaker_turn_and_reads_back(interview, tmp_path):
    doc = read_any(interview)
    assert [t.speaker for t in doc.tokens][:1] == ["Carme"]
    out = tmp_path / "interview.txt"
    write_any(doc, out, turn_times=True)
    paragraphs = out.read_text(encoding="utf-8").strip().split("\n\n")
    assert paragraphs[0].startswith("[00:12:34] Carme: good morning")
    assert any(p.startswith("[01:02:07] Joan: thank you") for p in paragraphs)
    assert any(p.startswith("[01:02:10] Carme: so tell me") for p in paragraphs)
    assert sum(p.startswith("[") for p in paragraphs) == 3  # at turns only, not every paragraph
    back = read_any(out)
    assert [t.word for t in back.tokens] == [t.word for t in doc.tokens]
    assert [t.speaker for t in back.tokens] == [t.speaker for t in doc.tokens]
    assert back.tokens[0].start == pytest.approx(754.0)


@pytest.mark.parametrize("ext", [".md", ".docx"])
def test_md_and_docx_have_it_too_and_read_back(interview, tmp_path, ext):
    doc = read_any(interview)
    out = tmp_path / f"interview{ext}"
    write_any(doc, out, turn_times=True)
    if ext == ".md":
        assert out.read_text(encoding="utf-8").startswith("`[00:12:34]` **Carme:** good morning")
    else:
        import docx

        first = docx.Document(str(out)).paragraphs[0]
        assert first.text.startswith("[00:12:34] Carme: good morning")
    back = read_any(out)
    assert [t.word for t in back.tokens] == [t.word for t in doc.tokens]
    assert [t.speaker for t in back.tokens] == [t.speaker for t in doc.tokens]


def test_without_the_option_nothing_changes(interview, tmp_path):
    out = tmp_path / "interview.txt"
    write_any(read_any(interview), out)
    assert out.read_text(encoding="utf-8").startswith("Carme: good morning")


def test_stet_convert_turn_times(interview, tmp_path, capsys):
    out = tmp_path / "interview.docx"
    assert main(["convert", str(interview), "-o", str(out), "--turn-times"]) == 0
    import docx

    assert docx.Document(str(out)).paragraphs[0].text.startswith("[00:12:34] Carme: ")
    srt = tmp_path / "again.srt"
    assert main(["convert", str(interview), "-o", str(srt), "--turn-times"]) == 0
    assert "times at speaker turns are written in .txt, .md, .docx only" in capsys.readouterr().err
    second = interview.with_name("second.srt")
    second.write_text(SRT, encoding="utf-8")
    many = tmp_path / "out"
    assert main(["convert", str(interview), str(second), "-o", str(many), "--to", ".md",
                 "--turn-times", "-q", "-j", "1"]) == 0
    for name in ("interview.md", "second.md"):  # many inputs: the same in each
        assert (many / name).read_text(encoding="utf-8").startswith("`[00:12:34]` **Carme:** ")
