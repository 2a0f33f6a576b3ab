"""YouTube's json3, srv1 and srv2 timed text, as yt-dlp saves them (``--sub-format json3``...) and
the timedtext API serves them. Files made here in the shapes YouTube serves: json3 automatic
captions (a window event, words timed by ``tOffsetMs``, ``acAsrConf``, ``aAppend`` line-break
events), json3 captions a person wrote (pens, lines parted by "\\n"), srv1 and srv2 with their
doubly escaped references."""

import json

import pytest

from editor.core import FormatError
from editor.core.formats import read_any, write_any

from tests.core.formats.subtitles.test_srv3 import AUTO, MANUAL

AUTO_JSON3 = {
    "wireMagic": "pb3",
    "pens": [{}],
    "wsWinStyles": [{}, {"mhModeHint": 2, "juJustifCode": 0, "sdScrollDir": 3}],
    "wpWinPositions": [{}, {"apPoint": 6, "ahHorPos": 20, "avVerPos": 100, "rcRows": 2, "ccCols": 40}],
    "events": [
        {"tStartMs": 0, "dDurationMs": 7000, "id": 1, "wpWinPosId": 1, "wsWinStyleId": 1},
        {"tStartMs": 80, "dDurationMs": 4559, "wWinId": 1, "segs": [
            {"utf8": "so", "acAsrConf": 0}, {"utf8": " today", "tOffsetMs": 320, "acAsrConf": 0},
            {"utf8": " we're", "tOffsetMs": 640, "acAsrConf": 0}]},
        {"tStartMs": 2350, "dDurationMs": 2289, "wWinId": 1, "aAppend": 1, "segs": [{"utf8": "\n"}]},
        {"tStartMs": 2360, "dDurationMs": 4640, "wWinId": 1, "segs": [
            {"utf8": "talk", "acAsrConf": 0}, {"utf8": " about", "tOffsetMs": 240, "acAsrConf": 0},
            {"utf8": " the", "tOffsetMs": 540, "acAsrConf": 0}]},
    ],
}
MANUAL_JSON3 = {
    "wireMagic": "pb3",
    "pens": [{}, {"fcForeColor": 16711422}, {"iAttr": 1, "fcForeColor": 16776960}],
    "wsWinStyles": [{}],
    "wpWinPositions": [{}],
    "events": [
        {"tStartMs": 1000, "dDurationMs": 2500, "pPenId": 1,
         "segs": [{"utf8": "Hello there, my friend.\nFish & chips <i> here."}]},
        {"tStartMs": 4000, "dDurationMs": 2000,
         "segs": [{"utf8": "Yellow italic", "pPenId": 2}, {"utf8": " words."}]},
    ],
}


def _write(tmp_path, name, content):
    path = tmp_path / name
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_text(json.dumps(content), encoding="utf-8")
    return path


def _same(a, b):
    assert [(t.text, t.start, t.end, t.spread) for t in a.tokens] == \
        [(t.text, t.start, t.end, t.spread) for t in b.tokens]
    assert [(c.start, c.end, c.text, c.words) for c in a.metadata.cues] == \
        [(c.start, c.end, c.text, c.words) for c in b.metadata.cues]


@pytest.mark.parametrize(("json3", "srv3"), [(AUTO_JSON3, AUTO), (MANUAL_JSON3, MANUAL)])
def test_json3_reads_as_the_srv3_of_the_same_captions(tmp_path, json3, srv3):
    _same(read_any(_write(tmp_path, "x.en.json3", json3)), read_any(_write(tmp_path, "x.srv3", srv3)))


def test_json3_automatic_captions_time_each_word(tmp_path):
    doc = read_any(_write(tmp_path, "x.json3", AUTO_JSON3))
    assert [(t.text, t.start) for t in doc.tokens] == [
        ("so", 0.08), ("today", 0.4), ("we're", 0.72), ("talk", 2.36), ("about", 2.6), ("the", 2.9)]


def test_json3_saved_as_json_is_read_too(tmp_path):
    """The timedtext API's &fmt=json3 saved by a browser or a script: a .json file."""
    doc = read_any(_write(tmp_path, "captions.json", AUTO_JSON3))
    assert doc.words()[:3] == ["so", "today", "we're"]


def test_json3_goes_out_to_subtitles_with_its_times_and_styles(tmp_path):
    doc = read_any(_write(tmp_path, "x.json3", MANUAL_JSON3))
    out = tmp_path / "out.srt"
    write_any(doc, out)
    assert out.read_text(encoding="utf-8") == (
        "1\n00:00:01,000 --> 00:00:03,500\nHello there, my friend.\nFish & chips &lt;i> here.\n\n"
        '2\n00:00:04,000 --> 00:00:06,000\n<font color="#ffff00"><i>Yellow italic</i></font> words.\n')


SRV1 = ('<?xml version="1.0" encoding="utf-8" ?><transcript><text start="0.08" dur="2.28">so today '
        'we&amp;#39;re</text><text start="2.36" dur="4.64">talk about the\nfish &amp;amp; chips</text></transcript>')
SRV2 = ('<?xml version="1.0" encoding="utf-8" ?><timedtext><window t="0" id="1" op="define" rc="15" cc="32" '
        'ap="7" ah="50" av="95"/><text w="1" t="80" d="2280">so today we&amp;#39;re</text><text w="1" t="2360" '
        'd="4640">talk about the\nfish &amp;amp; chips</text></timedtext>')


@pytest.mark.parametrize(("name", "text"), [("x.en.srv1", SRV1), ("x.en.srv2", SRV2)])
def test_srv1_and_srv2_cues_with_their_references_decoded(tmp_path, name, text):
    doc = read_any(_write(tmp_path, name, text))
    assert " ".join(t.text for t in doc.tokens) == "so today we're talk about the fish & chips"
    assert [(c.start, c.end, c.text) for c in doc.metadata.cues] == [
        (0.08, 2.36, "so today we're"), (2.36, 7.0, "talk about the\nfish & chips")]
    assert doc.tokens[0].start == 0.08 and doc.tokens[-1].end == 7.0


@pytest.mark.parametrize(("name", "content", "message"), [
    ("x.json3", {"events": "no"}, "no list of \"events\""),
    ("x.json3", [1, 2], "no list of \"events\""),
    ("x.json3", {"events": [7]}, "event 1 is 7, not an object"),
    ("x.json3", {"events": [{"tStartMs": -5, "segs": [{"utf8": "a"}]}]}, "event 1: tStartMs is -5"),
    ("x.json3", {"events": [{"tStartMs": "5", "segs": [{"utf8": "a"}]}]}, "tStartMs is the text '5'"),
    ("x.json3", {"events": [{"tStartMs": 10**20, "segs": [{"utf8": "a"}]}]}, "implausible time"),
    ("x.json3", {"events": [{"tStartMs": 1, "segs": {"utf8": "a"}}]}, "\"segs\" is an object"),
    ("x.json3", {"events": [{"tStartMs": 1, "segs": [{"utf8": 5}]}]}, "not an object with text"),
    ("x.json3", {"events": [{"tStartMs": 1, "segs": [{"utf8": "\n"}]}]}, "no words"),
    ("x.json3", "{\"events\": [", "not valid JSON"),
    ("x.srv1", "<timedtext><text t='1'>a</text></timedtext>", "not YouTube's srv1"),
    ("x.srv1", "<transcript><text start='x'>a</text></transcript>", "text 1: the time 'x'"),
    ("x.srv2", "<timedtext><text t='1.5'>a</text></timedtext>", "not a number of milliseconds"),
    ("x.srv2", "<transcript><text start='1'>a</text></transcript>", "not YouTube's srv2"),
    ("x.srv2", "<timedtext><text t='1'>a</text>", "not well-formed"),
    ("x.srv1", '<!DOCTYPE t [<!ENTITY x "y">]><transcript/>', "DOCTYPE"),
])
def test_bad_files_are_one_line(tmp_path, name, content, message):
    with pytest.raises(FormatError, match=message) as info:
        read_any(_write(tmp_path, name, content))
    assert "\n" not in str(info.value)
