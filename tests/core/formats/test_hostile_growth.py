"""Hostile inputs whose cost grew faster than the file: a reader given four times a pattern takes
about four times as long, not sixteen (ratios with generous slack, never absolute times), and a
few hundred bytes never hang it. Each pattern here once made a reader's time quadratic or
exponential; what each rewritten part reads is checked against what it read before."""

import io
import json
import re
import time
import zipfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from editor.core import FormatError
from editor.core.formats import read_any
from editor.core.formats.subtitles import prefixes, srt
from tests.hostile import deadline

#: Linear reading takes about 4x as long for 4x the input; quadratic, 16x. Between them, with
#: room for a loaded machine.
MOST_GROWTH = 9.0



def _cpu_seconds(path) -> float:
    """The processor time one read takes: this process's own, so that other work on a loaded
    machine does not count (wall-clock ratios swung from 2 to 60 beside three other test runs)."""
    t = time.process_time()
    try:
        read_any(path)
    except FormatError:
        pass
    return time.process_time() - t


def growth(tmp_path, ext: str, make, n: int) -> float:
    """How many times longer reading ``make(4 * n)`` takes than ``make(n)`` (the least of three
    reads of each, taken in turn)."""
    small, large = tmp_path / f"small{ext}", tmp_path / f"large{ext}"
    small.write_bytes(make(n))
    large.write_bytes(make(4 * n))
    least_small = least_large = float("inf")
    with deadline(120):
        for _ in range(3):
            least_small = min(least_small, _cpu_seconds(small))
            least_large = min(least_large, _cpu_seconds(large))
    return least_large / max(least_small, 1e-9)


def srt_cue(text: bytes) -> bytes:
    return b"1\n00:00:01,000 --> 00:00:02,000\n" + text + b"\n"


# -- SubRip and SubViewer: time lines and cue numbers ----------------------------------------------
def test_blank_lines_inside_a_cue_cost_linear_time(tmp_path):
    # the cue numbers of cues without a time line were sought with a regular expression that
    # retried a run of blank lines from each of its lines (8,000 of them: 2.7 s)
    ratio = growth(tmp_path, ".srt", lambda n: srt_cue(b"a" + b"\n" * n + b"b"), 20_000)
    assert ratio < MOST_GROWTH


def test_a_line_that_begins_as_a_time_costs_linear_time(tmp_path):
    # "1:1" then dashes: is it a broken time line ("1:1 -> 2")? Quadratic in the dashes before
    ratio = growth(tmp_path, ".srt", lambda n: srt_cue(b"w") + b"\n1:1" + b"-" * n + b"\n", 50_000)
    assert ratio < MOST_GROWTH
    ratio = growth(tmp_path, ".sbv", lambda n: b"0:00:01.000,0:00:02.000\nw\n\n1:1" + b",1:1" * n
                   + b" x\n", 5_000)
    assert ratio < MOST_GROWTH


OLD_TIME_LIKE = re.compile(r"^\s*-?\d+:\d+\S*\s*-+>")
OLD_SBV_LIKE = re.compile(r"^\s*\d+:\d+\S*,\s*\d+:\d+\S*\s*$")
OLD_ORPHAN_CUE = re.compile(r"\n[ \t]*\n(?:[ \t]*\n)*[ \t]*(\d+)[ \t]*\n")


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="1:,- >\tx\u0663", max_size=14))
def test_the_time_line_checks_take_the_lines_they_took(line):
    assert bool(srt._TIME_LIKE.match(line)) == bool(OLD_TIME_LIKE.match(line))
    assert bool(srt._SBV_LIKE.match(line)) == bool(OLD_SBV_LIKE.match(line))


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(["", " ", "\t", "5", " 12 ", "a", "7 x", "\u0663"]), max_size=9))
def test_cues_without_a_time_line_are_found_as_they_were(body):
    content = "\n".join(body)
    numbers, kept = srt._without_orphans(body)
    assert (numbers, "\n".join(kept)) == (OLD_ORPHAN_CUE.findall(content),
                                          OLD_ORPHAN_CUE.sub("\n", content))


def test_a_cue_without_its_time_line_is_still_joined_and_said(tmp_path):
    path = tmp_path / "orphan.srt"
    path.write_text("1\n00:00:01,000 --> 00:00:02,000\nhello\n\n2\nthere\n\n"
                    "3\n00:00:03,000 --> 00:00:04,000\nagain\n", encoding="utf-8")
    doc = read_any(path)
    assert doc.words() == ["hello", "there", "again"]
    assert any("cue 2 has no time line" in w for w in doc.metadata.warnings)


# -- credits: handles and links after a colon ------------------------------------------------------
def test_a_run_of_links_after_a_name_does_not_hang_reading(tmp_path):
    # "Ann: www.www.www. ... x" was tried as a list of handles every way it could be cut: time
    # doubling with every two more (28 of them: 1.5 s; 60 would take days)
    path = tmp_path / "links.txt"
    path.write_text("Ann: " + "www." * 60 + " x\nBob: hello there\nAnn: yes\n", encoding="utf-8")
    with deadline(60):
        doc = read_any(path)
    assert doc.words()[-3:] == ["hello", "there", "yes"]
    srt_path = tmp_path / "links.srt"
    srt_path.write_text(srt_cue(("Subtitles: " + "@a." * 30 + "www." * 60 + " x").encode())
                        .decode() + "\n2\n00:00:03,000 --> 00:00:04,000\nhello\n", encoding="utf-8")
    with deadline(60):
        assert read_any(srt_path).words()[-1] == "hello"


def test_credits_are_still_told_from_names():
    for line in ("Subtitles: @moviesubs", "Sync: www.example.com", "Subtitles: @a, @b and www.x.com",
                 "Subtitles: subs@mail.com / example.org/x", "www.example.com", "@a @b"):
        assert prefixes.is_credit(line), line
    for line in ("Ann: hello there", "Note: example.com is down", "Ann: " + "www." * 60 + " x"):
        with deadline(60):
            assert not prefixes.is_credit(line), line


# -- oTranscribe: its HTML ---------------------------------------------------------------------------
def otr(html: str) -> bytes:
    return json.dumps({"text": html, "media": "a.mp3"}).encode()


def test_otr_tags_left_open_cost_linear_time(tmp_path):
    # html.parser (Python 3.11.7) rescanned the rest of the text at each unclosed tag: 10,000
    # "<a b='x" took 48 s, 20,000 took 133 s
    ratio = growth(tmp_path, ".otr", lambda n: otr("hi there " + "<a b='x" * n), 10_000)
    assert ratio < MOST_GROWTH


def test_otr_timestamps_and_paragraphs_cost_linear_time(tmp_path):
    # each run's end was sought in a copy of the runs after it, and each paragraph's text
    # grew by copying
    stamps = lambda n: otr("".join(f'<span class="timestamp" data-timestamp="{i}">{i}</span> w{i} '  # noqa: E731
                                   for i in range(n)))
    assert growth(tmp_path, ".otr", stamps, 2_000) < MOST_GROWTH
    assert growth(tmp_path, ".otr", lambda n: otr("<p>w</p>" * n), 2_000) < MOST_GROWTH


def test_otr_words_end_at_the_next_later_timestamp(tmp_path):
    path = tmp_path / "t.otr"
    path.write_bytes(otr('<p><span class="timestamp" data-timestamp="2">0:02</span> one two '
                         '<span class="timestamp" data-timestamp="1">0:01</span> three '
                         '<span class="timestamp" data-timestamp="6">0:06</span> four</p><p>five &amp; six</p>'))
    doc = read_any(path)
    assert doc.words() == ["one", "two", "three", "four", "five", "six"]
    assert doc.tokens[1].end == 6.0 and doc.tokens[2].end == 6.0  # the next time later than theirs
    assert doc.tokens[3].end is None and len(doc.paragraph_starts) == 2


# -- SAMI and TTML: numbers and style sheets ------------------------------------------------------
def sami(body: bytes) -> bytes:
    return (b'<SAMI><HEAD><STYLE TYPE="text/css"><!--\n.ENUSCC { Name: English; lang: en-US; }\n'
            b'--></STYLE></HEAD><BODY>' + body + b'</BODY></SAMI>')


def test_sami_style_rules_cost_linear_time(tmp_path):
    # the languages were sought with a look-ahead to the next "}" from every "." (".a{" 20,000
    # times without one: 80 s)
    ratio = growth(tmp_path, ".smi", lambda n: sami(b"<SYNC Start=0><P>hi there\n") + b".a{" * n, 5_000)
    assert ratio < MOST_GROWTH


def test_a_time_of_thousands_of_digits_is_said_as_one(tmp_path):
    ttml = tmp_path / "t.ttml"
    ttml.write_text('<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="' + "9" * 5000
                    + ':00:00.000" end="1s">hi</p></div></body></tt>', encoding="utf-8")
    with pytest.raises(FormatError, match="implausible time") as info:
        read_any(ttml)
    assert "set_int_max_str_digits" not in str(info.value)
    smi = tmp_path / "t.smi"
    smi.write_bytes(sami(b"<SYNC Start=" + b"9" * 5000 + b"><P>hi\n"))
    with pytest.raises(FormatError, match="thousands of digits") as info:
        read_any(smi)
    assert "set_int_max_str_digits" not in str(info.value)


# -- cues: open ends, cues shown at once, cues of many lines -----------------------------------------
def ttml(body: bytes) -> bytes:
    return b'<tt xmlns="http://www.w3.org/ns/ttml"><body><div>' + body + b"</div></body></tt>"


def test_ttml_paragraphs_without_an_end_cost_linear_time(tmp_path):
    # each open end was sought among every start (40,000 of them: 26 s)
    ratio = growth(tmp_path, ".ttml", lambda n: ttml(b'<p begin="1s">w</p>' * n), 5_000)
    assert ratio < MOST_GROWTH
    path = tmp_path / "ends.ttml"
    path.write_bytes(ttml(b'<p begin="2s">a</p><p begin="1s">b</p><p begin="5s">c</p>'))
    assert [(t.start, t.end) for t in read_any(path).tokens] == [(2.0, 5.0), (1.0, 2.0), (5.0, 6.0)]


def test_many_cues_at_once_and_cues_of_many_lines_cost_linear_time(tmp_path):
    # a roll was sought in a copy of the lines of every cue shown at once, and between every
    # pair of lines of two cues (8,000 lines a cue: 8 s)
    at_once = lambda n: b"".join(b"%d\n00:00:01,000 --> 00:00:02,000\nw%d\n\n" % (i, i)  # noqa: E731
                                 for i in range(n))
    assert growth(tmp_path, ".srt", at_once, 2_000) < MOST_GROWTH
    two = lambda n: (b"1\n00:00:01,000 --> 00:00:02,000\n" + b"".join(b"a%d b\n" % i for i in range(n))  # noqa: E731
                     + b"\n2\n00:00:03,000 --> 00:00:04,000\n" + b"".join(b"c%d d\n" % i for i in range(n)))
    assert growth(tmp_path, ".srt", two, 1_000) < MOST_GROWTH


# -- HTML read leniently: TTML that is not XML, SAMI ------------------------------------------------
def test_ttml_read_as_html_costs_linear_time_and_keeps_a_p_left_open(tmp_path):
    # html.parser's close() was quadratic in tags left open ("<a b='x" at the end: a hang)
    ratio = growth(tmp_path, ".ttml", lambda n: ttml(b'<p begin="1s" end="2s">a &nbsp; b</p>')
                   + b"<a b='x" * n, 10_000)
    assert ratio < MOST_GROWTH
    path = tmp_path / "open.ttml"
    path.write_bytes(ttml(b'<p begin="1s" end="2s">a &nbsp; b</p><p begin="3s">c d<p begin="4s" end="5s">e</p>'))
    doc = read_any(path)
    assert doc.words() == ["a", "b", "c", "d", "e"]  # "c d" was lost: its <p> had no </p>
    assert (doc.tokens[2].start, doc.tokens[3].end) == (3.0, 4.0)


def test_sami_tags_left_open_at_the_end_cost_linear_time(tmp_path):
    for tail in (b"<a b='x", b"<!--"):
        ratio = growth(tmp_path, ".smi", lambda n, tail=tail: sami(b"<SYNC Start=0><P>hi there\n") + tail * n, 5_000)
        assert ratio < MOST_GROWTH
    path = tmp_path / "t.smi"
    path.write_bytes(sami(b"<SYNC Start=0><P>hi <i>there</i>\n<SYNC Start=1500><P><font color=red>red</font>\n")
                     + b"<a b='x" * 100)
    doc = read_any(path)
    assert doc.words() == ["hi", "there", "red"] and doc.tokens[2].start == 1.5


NOSCRIBE = ('<html><head><meta charset="UTF-8" /></head><body><p><a name="ts_0_1000_S00">S00: '
            '<span>[00:00:00]</span> hello there</a></p>{}<p><a name="ts_1000_2000_S00">S00: '
            '<span>[00:00:01]</span> later words</a></p></body></html>')


@pytest.mark.parametrize("ext, make", [
    (".otr", lambda inner: otr(f"<p>first {inner} after</p><p>later words</p>")),
    (".html", lambda inner: NOSCRIBE.format(inner).encode()),
    (".ttml", lambda inner: ttml(f'<p begin="1s" end="2s">a &nbsp; {inner}</p><p begin="3s" end="4s">later words</p>'.encode())),
])
def test_html_nested_deep_is_read_whole_or_refused_in_one_line(tmp_path, ext, make):
    # libxml2 drops what lies inside and after markup nested past its limit (256 levels): words
    # were lost without a word said (a noScribe file's segments after 300 nested <span>s)
    path = tmp_path / f"deep{ext}"
    path.write_bytes(make("<span>" * 300 + "deep" + "</span>" * 300))
    words = read_any(path).words()
    assert "deep" in words and words[-2:] == ["later", "words"]
    path.write_bytes(make("<span>" * 3000 + "deep" + "</span>" * 3000))
    with pytest.raises(FormatError, match="nested more than 2,048 levels deep") as info:
        read_any(path)
    assert "\n" not in str(info.value)


# -- SubStation Alpha's sections, Word documents ----------------------------------------------------
ASS_HEAD = (b"[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, "
            b"MarginL, MarginR, MarginV, Effect, Text\n")


def test_substation_lines_that_open_a_section_cost_linear_time(tmp_path):
    # a heading was sought up to the next "]" across lines (40,000 lines of "[x": 40 s)
    make = lambda n: ASS_HEAD + b"[x\n" * n + b"Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,hello\n"  # noqa: E731
    assert growth(tmp_path, ".ass", make, 5_000) < MOST_GROWTH


def docx_bytes(body: bytes) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/'
                   'package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxml'
                   'formats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
                   '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-'
                   'officedocument.wordprocessingml.document.main+xml"/></Types>')
        z.writestr("_rels/.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/'
                   'package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
                   'officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>')
        z.writestr("word/document.xml", b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml'
                   b'/2006/main"><w:body>' + body + b"</w:body></w:document>")
    return buf.getvalue()


def test_a_word_document_of_millions_of_paragraphs_is_refused_before_it_is_parsed(tmp_path, monkeypatch):
    # 40 MB of empty paragraphs (a 60 KB zip) took python-docx minutes and gigabytes
    path = tmp_path / "many.docx"
    path.write_bytes(docx_bytes(b"<w:p/>" * 1_200_000 + b"<w:p><w:r><w:t>hi</w:t></w:r></w:p>"))
    with pytest.raises(FormatError, match="more than 1,000,000 paragraphs and runs") as info:
        read_any(path)  # counted, not parsed
    assert "\n" not in str(info.value)
    from editor.core.formats import docx
    monkeypatch.setattr(docx, "MAX_ELEMENTS", 5)
    path.write_bytes(docx_bytes(b"<w:p><w:r><w:t>hello</w:t></w:r><w:r><w:t> there</w:t></w:r></w:p>"))
    assert read_any(path).words() == ["hello", "there"]  # 3 elements
    path.write_bytes(docx_bytes(b"<w:p><w:r><w:t>a</w:t></w:r></w:p>" * 3))
    with pytest.raises(FormatError, match="more than 5 paragraphs"):
        read_any(path)


def test_a_word_document_keeps_no_entity_out_of_the_file(tmp_path):
    # python-docx resolves no entity: a DOCTYPE naming a local file reads nothing of it
    path = tmp_path / "xxe.docx"
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRETWORD", encoding="utf-8")
    body = b'<w:p><w:r><w:t>hello &xxe; there</w:t></w:r></w:p>'
    data = docx_bytes(body)
    buf = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(buf, "w") as out:
        for info in src.infolist():
            content = src.read(info)
            if info.filename == "word/document.xml":
                content = (b'<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY xxe SYSTEM "'
                           + secret.as_uri().encode() + b'">]>' + content)
            out.writestr(info, content)
    path.write_bytes(buf.getvalue())
    try:
        words = read_any(path).words()
    except FormatError:
        return
    assert "secretword" not in words
