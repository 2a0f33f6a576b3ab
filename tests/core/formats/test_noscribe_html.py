"""noScribe's own transcript format (.html): made here in the shape noScribe 0.6/0.7 writes it
(its template, a title and a header paragraph, a paragraph per turn of ``<a name="ts_START_END_
SPEAKER">`` segments, the label and a timestamp in a span at a turn's start, ``//`` around
overlapping speech, pauses) and in the shape of noScribe before 0.4 (``href="ts_START_END"``,
speakers only in the text)."""

import subprocess
import sys
from pathlib import Path

import pytest

from editor.core import FormatError
from editor.core.formats import read_any, write_any

ROOT = Path(__file__).parents[3]
HEAD = """<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.0//EN" "http://www.w3.org/TR/REC-html40/strict.dtd">
<html >
<head >
<meta charset="UTF-8" />
<meta name="qrichtext" content="1" />
<style type="text/css" >
p, li { white-space: pre-wrap; }
</style>
<meta name="audio_source" content="{audio}" /></head>
<body style="font-family: 'Arial'; font-weight: 400; font-style: normal" > <div class="WordSection1" >"""
TITLE = ("""<p style="font-weight: 600" >seed library</p><p ><span style="color: #909090; font-size: 0.8em" >"""
         """Transcribed with noScribe vers. 0.7<br />Audio file: {audio}<br />(Language: English (en) | """
         """Speaker detection: auto)</span></p>""")
TURNS = (
    """<p ><a name="ts_0_4000_" >(4 seconds pause) </a></p>"""
    """<p ><a name="ts_4000_6500_S01" >S01: <span style="color: #78909C" >[00:00:04]</span> so the seed"""
    """ library opens today.</a><a name="ts_6500_7200_S01" > (..)</a><a name="ts_7200_9000_S01" > Who runs"""
    """ it &amp; when?</a><a name="ts_9100_9900_//S02" > //S02: The volunteers.</a>"""
    """<a name="ts_10000_11000_S01" >// Good to know.</a></p>"""
    """<p ><a name="ts_11500_14000_S02" >S02: <span style="color: #78909C" >[00:00:11]</span> Every"""
    """ Saturday.</a><a name="ts_14000_15000_S02" > <span style="color: #78909C" >[00:00:14]</span> From"""
    """ ten.</a></p></div></body></html>""")
NEW = HEAD + TITLE + TURNS
OLD = """<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.0//EN" "http://www.w3.org/TR/REC-html40/strict.dtd">
<html ><head ><meta name="qrichtext" content="1" /><meta charset="UTF-8"><meta name="audio_source" content="" /></head>
<body>
<h1>seed library</h1>
<p><span style="font-size: small" >Transcribed with noScribe vers. 0.3 </span></p>
<p>  </p>
<p><a href="ts_1000_3000" ><span style="color: #000000" >S00: Hello and welcome.</span></a>
<a href="ts_3100_4000" ><span style="color: #000000" > //S01: Thank you.</span></a>
<a href="ts_4100_6000" ><span style="color: #000000" > // We begin today.</span></a>
<a href="ts_6100_7000" ><span style="color: #000000" > //S01: Yes.//</span></a>
<a href="ts_7100_9000" ><span style="color: #000000" > With the seeds. </span></a>
</p>
<p><a href="ts_9500_12000" ><span style="color: #000000" >S01: They come from gardens. </span></a></p>
</body></html>"""


def _read(tmp_path, text, name="interview.html", audio=""):
    path = tmp_path / name
    path.write_text(text.replace("{audio}", audio), encoding="utf-8")
    return read_any(path)


def _turns(doc):
    out = []
    for span in doc.paragraphs():
        words = [doc.tokens[i] for i in span]
        out.append((words[0].speaker, " ".join(t.text for t in words)))
    return out


def test_words_speakers_and_times_as_noscribe_wrote_them(tmp_path):
    doc = _read(tmp_path, NEW)
    assert _turns(doc) == [
        (None, "seed library"),
        (None, "Transcribed with noScribe vers. 0.7 Audio file: (Language: English (en) | Speaker detection: auto)"),
        (None, "(4 seconds pause)"),
        ("S01", "so the seed library opens today. (..) Who runs it & when?"),
        ("S02", "The volunteers."),
        ("S01", "Good to know."),
        ("S02", "Every Saturday. From ten."),
    ]
    words = {t.word: t for t in doc.tokens}
    assert words["so"].start == 4.0 and words["today"].end == 6.5
    assert words["who"].start == 7.2 and words["when"].end == 9.0
    assert words["volunteers"].end == 9.9 and words["from"].start == 14.0
    assert doc.tokens[0].text == "seed" and doc.tokens[0].start is None  # the title has no time
    assert "[00:00:04]" not in words and "S01:" not in words and "//" not in words
    assert any("8 timed segments, 1 of them overlapping speech" in w for w in doc.metadata.warnings)


def test_a_speaker_renamed_in_the_labels_is_named_so_everywhere(tmp_path):
    renamed = NEW.replace(">S01: <", ">Ann Lee: <").replace("//S02: ", "//Bob: ")
    doc = _read(tmp_path, renamed)
    assert [s for s, _ in _turns(doc)][3:] == ["Ann Lee", "Bob", "Ann Lee", "S02"]


def test_before_version_0_4_speakers_come_from_the_text(tmp_path):
    doc = _read(tmp_path, OLD)
    assert _turns(doc) == [
        (None, "seed library"),
        (None, "Transcribed with noScribe vers. 0.3"),
        ("S00", "Hello and welcome."),
        ("S01", "Thank you."),
        ("S00", "We begin today."),
        ("S01", "Yes."),
        ("S00", "With the seeds."),
        ("S01", "They come from gardens."),
    ]
    timed = [t for t in doc.tokens if t.start is not None]
    assert timed[0].text == "Hello" and timed[0].start == 1.0 and timed[-1].end == 12.0


def test_the_recording_it_names_is_attached_where_found(tmp_path):
    (tmp_path / "talk.mp3").write_bytes(b"")
    doc = _read(tmp_path, NEW, audio="C:/Users/someone/Documents/talk.mp3")
    assert doc.metadata.audio_file == str((tmp_path / "talk.mp3").resolve())
    gone = _read(tmp_path, NEW, name="b.html", audio="/nowhere/else.mp3")
    assert gone.metadata.audio_file is None
    assert any("else.mp3" in w for w in gone.metadata.warnings)


@pytest.mark.parametrize("ext", [".txt", ".srt", ".vtt", ".json", ".docx", ".stet"])
def test_every_word_and_speaker_goes_out(tmp_path, ext):
    doc = _read(tmp_path, NEW)
    out = tmp_path / f"out{ext}"
    write_any(doc, out)
    back = read_any(out)
    assert back.words() == doc.words()
    if ext in (".json", ".stet", ".vtt"):
        assert [t.speaker for t in back.tokens] == [t.speaker for t in doc.tokens]


@pytest.mark.parametrize(("text", "message"), [
    ("<html><body><p>Just a web page.</p></body></html>", "not a noScribe transcript"),
    ("<html><body><a href='https://example.com'>link</a></body></html>", "not a noScribe transcript"),
    ("<html><body><p><a name='ts_0_1000_S00'>   </a></p></body></html>", "no words"),
    ("\x00\x01\x02" * 50, "binary"),
])
def test_other_html_is_refused_in_one_line(tmp_path, text, message):
    with pytest.raises(FormatError, match=message) as info:
        _read(tmp_path, text, name="page.html")
    assert "\n" not in str(info.value)


def test_runs_of_unclosed_tags_are_read_at_once(tmp_path):
    """The standard library's html.parser takes time quadratic in runs of unclosed tags (20,000
    ``<a b='x`` took it 58 s on Python 3.11.7); libxml2's parser reads 200,000 at once."""
    path = tmp_path / "broken.html"
    path.write_text("<html><body>" + "<a b='x " * 200_000 + "'>" + TURNS, encoding="utf-8")
    # a process of its own, so that a parse that runs for hours fails the test (a signal does
    # not stop one) rather than holding the suite
    result = subprocess.run([sys.executable, "-m", "editor", "show", str(path)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert "Traceback" not in result.stderr and result.returncode == 0, result.stderr[-500:]
    assert "S02: The volunteers." in result.stdout
