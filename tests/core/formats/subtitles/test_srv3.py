"""YouTube's timed text (.srv3), as yt-dlp saves it: automatic captions with a time for each
word, and captions a person wrote with pens for italics and colour. Files made here in the shape
YouTube serves them (timedtext format 3)."""

import json

import pytest

from editor.core import FormatError
from editor.core.formats import read_any, write_any

AUTO = """<?xml version="1.0" encoding="utf-8" ?><timedtext format="3">
<head>
<ws id="0"/>
<ws id="1" mh="2" ju="0" sd="3"/>
<wp id="0"/>
<wp id="1" ap="6" ah="20" av="100" rc="2" cc="40"/>
</head>
<body>
<w t="0" id="1" wp="1" ws="1"/>
<p t="80" d="4559" w="1"><s ac="0">so</s><s t="320" ac="0"> today</s><s t="640" ac="0"> we&#39;re</s></p>
<p t="2350" d="2289" w="1" a="1">
</p>
<p t="2360" d="4640" w="1"><s ac="0">talk</s><s t="240" ac="0"> about</s><s t="540" ac="0"> the</s></p>
</body>
</timedtext>
"""
MANUAL = """<?xml version="1.0" encoding="utf-8" ?><timedtext format="3">
<head>
<pen id="1" fc="#FEFEFE"/>
<pen id="2" i="1" fc="#FFFF00"/>
</head>
<body>
<p t="1000" d="2500" p="1">Hello there, my friend.
Fish &amp; chips &lt;i&gt; here.</p>
<p t="4000" d="2000"><s p="2">Yellow italic</s> words.</p>
</body>
</timedtext>
"""


def _read(tmp_path, text, name="x.srv3"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return read_any(path)


def test_automatic_captions_time_each_word_and_end_where_the_next_begins(tmp_path):
    doc = _read(tmp_path, AUTO)
    assert [(t.text, t.start) for t in doc.tokens] == [
        ("so", 0.08), ("today", 0.4), ("we're", 0.72), ("talk", 2.36), ("about", 2.6), ("the", 2.9)]
    cues = doc.metadata.cues
    assert [(c.start, c.end) for c in cues] == [(0.08, 2.36), (2.36, 7.0)]


def test_pens_lines_and_references_are_kept(tmp_path):
    doc = _read(tmp_path, MANUAL)
    assert " ".join(t.text for t in doc.tokens) == (
        "Hello there, my friend. Fish & chips <i> here. Yellow italic words.")
    out = tmp_path / "out.srt"
    write_any(doc, out)
    assert out.read_text(encoding="utf-8") == (
        "1\n00:00:01,000 --> 00:00:03,500\nHello there, my friend.\nFish & chips &lt;i> here.\n\n"
        '2\n00:00:04,000 --> 00:00:06,000\n<font color="#ffff00"><i>Yellow italic</i></font> words.\n')


@pytest.mark.parametrize("ext", [".txt", ".srt", ".vtt", ".json", ".docx", ".ass", ".ttml"])
def test_every_word_goes_out_to_every_format(tmp_path, ext):
    doc = _read(tmp_path, AUTO)
    out = tmp_path / f"out{ext}"
    write_any(doc, out)
    assert read_any(out).words() == doc.words()


@pytest.mark.parametrize(("text", "message"), [
    ('<!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/passwd">]><timedtext><body><p t="0">&x;</p>'
     "</body></timedtext>", "DOCTYPE"),
    ("<timedtext><body><p t='0'>a</p>", "not well-formed"),
    ("<tt><body/></tt>", "not YouTube timed text"),
    ('<timedtext><body><p t="-5" d="1">a</p></body></timedtext>', "paragraph 1: the time '-5'"),
    ('<timedtext><body><p t="99999999999999" d="1">a</p></body></timedtext>', "implausible time"),
    ('<timedtext><body><p t="1" d="' + "9" * 5000 + '">a</p></body></timedtext>', "implausible time"),
    ('<timedtext><body><p t="1" d="1"><s t="x">a</s></p></body></timedtext>', "not a number"),
    ('<timedtext><body><p t="1" d="1">\n</p></body></timedtext>', "no words"),
])
def test_bad_files_are_one_line(tmp_path, text, message):
    with pytest.raises(FormatError, match=message) as info:
        _read(tmp_path, text)
    assert "\n" not in str(info.value)


def test_json_written_from_it_keeps_the_word_times(tmp_path):
    out = tmp_path / "out.json"
    write_any(_read(tmp_path, AUTO), out)
    words = [w for s in json.loads(out.read_text(encoding="utf-8"))["segments"] for w in s["words"]]
    assert [(w["word"], w["start"]) for w in words][:3] == [("so", 0.08), ("today", 0.4), ("we're", 0.72)]
