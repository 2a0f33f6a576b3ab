"""Files as real programs write them, beyond the corpus: each case here once lost, changed or
invented words or times (the program and flavour are named on each test)."""

import pytest

from editor.core import render
from editor.core.formats import read_any, write_any


def read(tmp_path, name, text, encoding="utf-8"):
    path = tmp_path / name
    path.write_bytes(text.encode(encoding) if isinstance(text, str) else text)
    return read_any(path)


# -- TTML and DFXP --------------------------------------------------------------------------------
OLD_DFXP = """<?xml version="1.0" encoding="utf-8"?>
<tt xmlns="http://www.w3.org/2006/10/ttaf1" xmlns:ttp="http://www.w3.org/2006/10/ttaf1#parameter"
    xmlns:tts="http://www.w3.org/2006/10/ttaf1#style" ttp:timeBase="media" ttp:tickRate="10000000"
    ttp:frameRate="25" xml:lang="en">
<head><styling><style id="s1" tts:fontStyle="italic"/></styling></head>
<body><div>
<p begin="10000000t" end="30000000t">Tick times in the old<br/>namespace</p>
<p begin="00:00:03:00" end="00:00:04:12"><span tts:fontStyle="italic">and</span> frames</p>
</div></body></tt>
"""


def test_dfxp_in_the_2006_namespace_takes_its_tick_and_frame_rates(tmp_path):
    """Flash-era DFXP names its parameters in the draft's namespace (ttaf1#parameter): its tick
    rate was not seen, and one second of ticks was read as 115 days."""
    doc = read(tmp_path, "old.dfxp", OLD_DFXP)
    assert render(doc) == "Tick times in the old namespace and frames"
    assert doc[0].start == 1.0 and doc[5].end == 3.0
    assert doc[6].start == 3.0 and doc[-1].end == pytest.approx(4.48)


def test_ttml_paragraphs_without_an_end_keep_their_words(tmp_path):
    """A <p> with only a begin (some caption tools), one timed only by its spans (word-timed
    TTML), one in a <div> that ends: all were dropped without a word said."""
    ttml = read(tmp_path, "open.ttml", """<?xml version="1.0" encoding="utf-8"?>
<tt xmlns="http://www.w3.org/ns/ttml"><body><div>
<p begin="00:00:01.000">Only a begin here</p>
<p begin="00:00:03.000" end="00:00:04.000">then an end</p>
<p><span begin="00:00:05.000" end="00:00:05.500">Times on</span>
<span begin="00:00:05.500" end="00:00:06.250">spans only</span></p>
</div><div begin="00:00:08.000" end="00:00:10.000"><p begin="1s">and a div</p></div>
<div begin="00:00:12.000"><p>last of all</p></div></body></tt>
""")
    assert " ".join(render(ttml).split()) == ("Only a begin here then an end Times on spans only and a"
                                              " div last of all")
    assert ttml[0].start == 1.0 and ttml[3].end == 3.0  # until the next <p>
    assert ttml[7].start == 5.0 and ttml[10].end == 6.25
    assert ttml[11].start == 9.0 and ttml[13].end == 10.0
    assert ttml[14].start == 12.0 and ttml[-1].end == 13.2
    assert any("2 <p> elements had no end time" in w for w in ttml.metadata.warnings)


# -- words highlighted one at a time --------------------------------------------------------------
def _highlighted(segments, tag=("<u>", "</u>"), prefix=lambda n: ""):
    """SubRip as openai-whisper's --highlight_words writes it (whisper/utils.py, WhisperX and
    stable-ts alike): per segment, a cue per word with that word marked, and a cue with none
    marked for a pause between two words."""
    def clock(t):
        return f"00:00:{int(t):02d},{round(t % 1 * 1000):03d}"
    cues = []
    for n, words in enumerate(segments):
        texts = [w for w, _, _ in words]
        last, first = words[0][1], len(cues)
        for i, (_, start, end) in enumerate(words):
            if last != start:
                cues.append((last, start, " ".join(texts)))
            cues.append((start, end, " ".join(f"{tag[0]}{w}{tag[1]}" if j == i else w
                                              for j, w in enumerate(texts))))
            last = end
        cues[first:] = [(a, b, prefix(n) + t) for a, b, t in cues[first:]]
    return "".join(f"{k}\n{clock(a)} --> {clock(b)}\n{t}\n\n" for k, (a, b, t) in enumerate(cues, 1))


SEGMENTS = [[("Thank", 0.0, 0.3), ("you.", 0.3, 0.6)], [("Thank", 1.0, 1.3), ("you.", 1.3, 1.8)],
            [("So", 2.0, 2.2), ("the", 2.4, 2.5), ("garden", 2.5, 3.0), ("grew.", 3.0, 3.6)]]


@pytest.mark.parametrize("tag", [("<u>", "</u>"), ('<font color="#00ff00">', "</font>")])
def test_whisper_highlighted_words_are_read_once_at_their_times(tmp_path, tag):
    """openai-whisper's --highlight_words (<u>) and stable-ts (a colour) repeat a segment's text
    for every word: read as cues, each word came once per word of its segment."""
    doc = read(tmp_path, "hl.srt", _highlighted(SEGMENTS, tag))
    assert render(doc).split() == "Thank you. Thank you. So the garden grew.".split()
    assert [t.start for t in doc.tokens] == pytest.approx([0.0, 0.3, 1.0, 1.3, 2.0, 2.4, 2.5, 3.0])
    assert doc[-1].end == pytest.approx(3.6)
    assert any("highlighted one at a time" in w for w in doc.metadata.warnings)
    write_any(doc, tmp_path / "out.srt")
    assert render(read_any(tmp_path / "out.srt")) == render(doc)


def test_whisperx_highlighted_words_keep_their_speakers(tmp_path):
    names = ["SPEAKER_00", "SPEAKER_01", "SPEAKER_00"]
    doc = read(tmp_path, "x.srt", _highlighted(SEGMENTS, prefix=lambda n: f"[{names[n]}]: "))
    assert [t.text for t in doc.tokens] == "Thank you. Thank you. So the garden grew.".split()
    assert [t.speaker for t in doc.tokens] == ["SPEAKER_00"] * 2 + ["SPEAKER_01"] * 2 + ["SPEAKER_00"] * 4


def test_a_cue_held_in_italics_then_plain_is_not_a_highlight(tmp_path):
    srt = ("1\n00:00:01,000 --> 00:00:02,000\n<i>Over here!</i>\n\n"
           "2\n00:00:02,000 --> 00:00:03,000\nOver here!\n\n")
    doc = read(tmp_path, "held.srt", srt)
    assert render(doc) == "Over here! Over here!" and len(doc.metadata.cues) == 2


# -- SubStation Alpha -----------------------------------------------------------------------------
SSA_V4 = """[Script Info]
Title: made with SubStation Alpha 4
ScriptType: v4.00

[V4 Styles]
""" + ("Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, TertiaryColour, BackColour, "
       "Bold, Italic, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, AlphaLevel, "
       "Encoding\n") + """Style: Default,Tahoma,24,16777215,65535,65535,-2147483640,-1,0,1,1,2,2,30,30,10,0,0
Style: Top,Tahoma,24,16777215,65535,65535,-2147483640,0,-1,1,1,2,6,30,30,10,0,0

[Events]
Format: Marked, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: Marked=0,0:00:01.00,0:00:02.50,Default,Ann,0000,0000,0000,,Old style line
Dialogue: Marked=0,0:00:03.00,0:00:04.50,*Default,Bob,0000,0000,0000,,Second one
Dialogue: Marked=0,0:00:05.00,0:00:06.00,Top,,0000,0000,0000,,up here
"""


def test_substation_alpha_v4_styles_are_read_by_its_own_columns(tmp_path, recwarn):
    """An SSA v4 file ([V4 Styles], "Marked=0") was read with ASS's columns: its bold style
    came out bold, underlined and struck through, and pysubs2 warned on stderr."""
    doc = read(tmp_path, "old.ssa", SSA_V4)
    assert render(doc) == "Ann: Old style line\n\nBob: Second one\n\nup here"
    assert not [w for w in recwarn if "pysubs2" in str(w.filename)]
    write_any(doc, tmp_path / "out.srt")
    assert (tmp_path / "out.srt").read_text().split("\n\n") == [
        "1\n00:00:01,000 --> 00:00:02,500\nAnn: <b>Old style line</b>",
        "2\n00:00:03,000 --> 00:00:04,500\nBob: <b>Second one</b>",
        "3\n00:00:05,000 --> 00:00:06,000\n{\\an8}<i>up here</i>\n"]


@pytest.mark.parametrize("columns,line", [
    ("Start, End, Style, Actor, Text", "0:00:01.00,0:00:02.00,Default,Ann,Hello there, friend"),
    ("Layer, Start, End, Style, Text", "0,0:00:01.00,0:00:02.00,Default,Hello there, friend"),
    ("Start, End, Style, Name, Text, Layer", "0:00:01.00,0:00:02.00,Default,Ann,Hello there,0"),
])
def test_substation_events_are_read_by_their_format_line(tmp_path, columns, line):
    """A Format line with other columns than Aegisub's ten: words were read as names and
    margins, or the file was refused ("Failed to parse timestamp")."""
    doc = read(tmp_path, "cols.ass", f"[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: {columns}\n"
                                     f"Dialogue: {line}\n")
    words = line.rsplit(",Default,", 1)[1].removeprefix("Ann,").removesuffix(",0")
    assert " ".join(t.text for t in doc.tokens) == words
    assert doc[0].start == 1.0 and doc[-1].end == 2.0
    assert {t.speaker for t in doc.tokens} == ({"Ann"} if "Ann" in line else {None})


# -- SAMI -----------------------------------------------------------------------------------------
SAMI_TWO_LANGUAGES = """<SAMI>
<HEAD>
<SAMIParam>
  Metrics {time:ms;}
  Spec {MSFT:1.0;}
</SAMIParam>
<STYLE TYPE="text/css">
<!--
  P { font-family: Arial; color: white; text-align: center; }
  .ENUSCC { Name: English; lang: en-US ; SAMIType: CC ; }
  .FRFRCC { Name: French; lang: fr-FR ; SAMIType: CC ; }
-->
</STYLE>
</HEAD>
<BODY>
<SYNC Start=1000>
  <P Class=ENUSCC>The tide is <i>out</i>.
  <P Class=FRFRCC>La marée est basse.
<SYNC Start=3000>
  <P Class=ENUSCC>&nbsp;
  <P Class=FRFRCC>&nbsp;
<SYNC Start=3500>
  <P Class=ENUSCC>Walk with me.
  <P Class=FRFRCC>Marche avec moi.
<SYNC Start=5500>
  <P Class=ENUSCC>&nbsp;
  <P Class=FRFRCC>&nbsp;
</BODY>
</SAMI>
"""


def test_sami_with_two_languages_reads_one(tmp_path):
    """Windows Media captions hold a <P> per language in each <SYNC>: both languages' words
    were read into one transcript, a line of English then its French."""
    doc = read(tmp_path, "two.smi", SAMI_TWO_LANGUAGES)
    assert " ".join(render(doc).split()) == "The tide is out. Walk with me."
    assert doc[0].start == 1.0 and doc[-1].end == 5.5
    assert "the SAMI file holds 2 languages (English, French); English was read" in doc.metadata.warnings
    write_any(doc, tmp_path / "out.srt")
    assert "<i>out</i>" in (tmp_path / "out.srt").read_text()


def test_substation_words_after_a_drawing_are_kept(tmp_path):
    """Aegisub typesetting may draw a shape and write words after it in one line ({\\p0} ends
    the drawing): the whole line was skipped, its words with it."""
    ass = ("[Script Info]\nScriptType: v4.00+\n\n[Events]\n"
           "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
           "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\p1}m 0 0 l 100 0 100 100{\\p0}After the box\n"
           "Dialogue: 0,0:00:02.00,0:00:03.00,Default,,0,0,0,,{\\pos(10,10)\\p2}m 0 0 l 5 5\n"
           "Dialogue: 0,0:00:03.00,0:00:04.00,Default,,0,0,0,,Before {\\p1}m 0 0 l 5 5{\\p0} and after\n")
    doc = read(tmp_path, "draw.ass", ass)
    assert render(doc) == "After the box Before and after"
    assert len(doc.metadata.cues) == 2


# -- whisper.cpp ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name,text", [
    ("wcpp.srt", "1\n00:00:00,000 --> 00:00:02,000\n(speaker 0) And so my fellow Americans\n\n"
                 "2\n00:00:02,000 --> 00:00:04,000\n(speaker ?) ask not\n\n"
                 "3\n00:00:04,000 --> 00:00:05,000\n(speaker 1) what your country\n\n"),
    ("wcpp.txt", "(speaker 0) And so my fellow Americans\n(speaker ?) ask not\n(speaker 1) what your country\n"),
])
def test_whisper_cpp_diarized_speakers_are_speakers(tmp_path, name, text):
    """whisper.cpp --diarize (stereo) writes "(speaker 0) " before a segment in SubRip and text
    ("?" where the channels do not tell): it was read as the words "(speaker 0)"."""
    doc = read(tmp_path, name, text)
    assert [t.text for t in doc.tokens] == "And so my fellow Americans ask not what your country".split()
    assert [t.speaker for t in doc.tokens] == ["Speaker 0"] * 5 + ["Speaker ?"] * 2 + ["Speaker 1"] * 3
    out = tmp_path / f"out{name[-4:]}"
    write_any(doc, out)
    assert [(t.text, t.speaker) for t in read_any(out).tokens] == [(t.text, t.speaker) for t in doc.tokens]


@pytest.mark.parametrize("ext", [".ass", ".ttml"])
@pytest.mark.parametrize("line", ["Open C:\\New folder\\notes and \\h here",
                                  "<i>Open C:\\New folder\\notes and \\h here</i>"])
def test_a_backslash_of_the_text_stays_text_in_substation_and_ttml(tmp_path, ext, line):
    """SubStation Alpha reads \\N and \\n as line breaks and \\h as a hard space: a Windows path
    in a tutorial's SubRip came back from .ass (and from .ttml, written through it) as
    "C: ew folder otes"."""
    doc = read(tmp_path, "paths.srt", f"1\n00:00:01,000 --> 00:00:02,000\n{line}\n")
    write_any(doc, tmp_path / f"out{ext}")
    back = read_any(tmp_path / f"out{ext}")
    assert [t.text for t in back.tokens] == ["Open", "C:\\New", "folder\\notes", "and", "\\h", "here"]


def test_text_that_looks_like_a_tag_in_italics_stays_one_word_in_ttml(tmp_path):
    """The empty override block that keeps "<i>" text in .ass parted the text into spans in
    .ttml, and pysubs2 indents spans: "<i>" came back as "<" and "i>"."""
    doc = read(tmp_path, "tag.srt", "1\n00:00:01,000 --> 00:00:02,000\n<i>type &lt;i&gt; here</i>\n")
    write_any(doc, tmp_path / "out.ttml")
    assert [t.text for t in read_any(tmp_path / "out.ttml").tokens] == ["type", "<i>", "here"]


def test_a_highlighted_word_said_twice_in_a_row_takes_its_own_time(tmp_path):
    doc = read(tmp_path, "no.srt", _highlighted([[("No,", 1.0, 1.5), ("no,", 1.5, 2.0), ("no.", 2.0, 2.5)]]))
    assert [(t.text, t.start) for t in doc.tokens] == [("No,", 1.0), ("no,", 1.5), ("no.", 2.0)]


def test_substation_styles_are_read_by_their_format_line(tmp_path):
    """A style Format line with fewer columns: the colours it leaves out have their defaults
    (they were read as "" and the file was refused: "string index out of range")."""
    doc = read(tmp_path, "few.ass", "[Script Info]\nScriptType: v4.00+\n\n[V4+ Styles]\nFormat: Name, Italic, Fontname\n"
                                    "Style: Aside,-1,Arial\n\n[Events]\nFormat: Start, End, Style, Text\n"
                                    "Dialogue: 0:00:01.00,0:00:02.00,Aside,quietly now\n")
    write_any(doc, tmp_path / "out.srt")
    assert (tmp_path / "out.srt").read_text() == "1\n00:00:01,000 --> 00:00:02,000\n<i>quietly now</i>\n"


def test_sami_paragraphs_in_one_sync_are_lines_not_one_word(tmp_path):
    """Two <P>s in a <SYNC> (two speakers, or classes no style sheet names as languages) were
    joined with no space between: "one" and "two" read as "onetwo"."""
    doc = read(tmp_path, "p.smi", "<SAMI><BODY><SYNC Start=1000><P Class=A>one<P Class=B>two"
                                  "<SYNC Start=2000><P>three<P>four<SYNC Start=3000><P>&nbsp;</BODY></SAMI>")
    assert [t.text for t in doc.tokens] == ["one", "two", "three", "four"]


def test_ttml_agents_are_speakers_by_their_names(tmp_path):
    """IMSC and EBU-TT name who speaks with ttm:agent, an id of a <ttm:agent> in the head holding
    the person's names: the id ("ann") was shown as the speaker, and a <div>'s agent was lost."""
    ttml = """<?xml version="1.0" encoding="UTF-8"?>
<tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttm="http://www.w3.org/ns/ttml#metadata" xml:lang="en">
  <head><metadata>
    <ttm:agent xml:id="ann" type="person"><ttm:name type="alias">Annie</ttm:name><ttm:name type="full">Ann Smith</ttm:name></ttm:agent>
    <ttm:agent xml:id="bob" type="person"><ttm:name type="given">Bob</ttm:name></ttm:agent>
    <ttm:agent xml:id="crowd" type="group"/>
  </metadata></head>
  <body><div ttm:agent="bob">
    <p begin="00:00:01.000" end="00:00:02.000" ttm:agent="ann">Hello there.</p>
    <p begin="00:00:02.000" end="00:00:03.000">Hi Ann.</p>
    <p begin="00:00:03.000" end="00:00:04.000" ttm:agent="crowd">Cheers.</p>
    <p begin="00:00:04.000" end="00:00:05.000" ttm:agent="ann bob">Both of us.</p>
  </div></body>
</tt>
"""
    doc = read(tmp_path, "agents.ttml", ttml)
    assert [t.text for t in doc.tokens] == "Hello there. Hi Ann. Cheers. Both of us.".split()
    assert [t.speaker for t in doc.tokens] == (["Ann Smith"] * 2 + ["Bob"] * 2 + ["crowd"]
                                               + ["Ann Smith & Bob"] * 3)


def test_speakers_go_into_ttml_as_agents_and_come_back(tmp_path):
    """TTML was written without speakers, silently (pysubs2 writes none): a captioner's WebVTT
    voices were gone from the .ttml. They go in as ttm:agent, named in the head."""
    doc = read(tmp_path, "two.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Ann & Co>Hello there.\n"
               "<v Bob \"B\">Hi Ann.\n\n00:00:02.000 --> 00:00:03.000\n<v Ann & Co>Bye now.\n")
    write_any(doc, tmp_path / "out.ttml")
    xml = (tmp_path / "out.ttml").read_text()
    assert xml.count("<ttm:agent ") == 2 and xml.count('ttm:agent="speaker1"') == 2
    back = read_any(tmp_path / "out.ttml")
    assert [(t.text, t.speaker) for t in back.tokens] == [(t.text, t.speaker) for t in doc.tokens]
    assert {t.speaker for t in back.tokens} == {"Ann & Co", 'Bob "B"'}


def test_ttml_without_speakers_is_written_as_before(tmp_path):
    doc = read(tmp_path, "one.srt", "1\n00:00:01,000 --> 00:00:02,000\nHello there.\n")
    write_any(doc, tmp_path / "out.ttml")
    assert "ttm:" not in (tmp_path / "out.ttml").read_text()


def test_ttml_that_is_not_well_formed_keeps_a_p_without_an_end(tmp_path):
    """TTML read leniently (an HTML entity makes it not XML) dropped, without a word, every <p>
    that had no end time, and every one without a begin."""
    doc = read(tmp_path, "soup.ttml", '<tt xmlns="http://www.w3.org/ns/ttml"><body><div>\n'
               '<p begin="00:00:01.000" end="00:00:02.000">One &nbsp; two</p>\n'
               '<p begin="00:00:03.000">three four</p>\n'
               '<p begin="00:00:05.000" end="00:00:06.000">five</p>\n<p>six seven</p>\n</div></body></tt>\n')
    assert [t.text for t in doc.tokens] == "One two three four five six seven".split()
    assert [t.start is not None and t.start >= 1.0 for t in doc.tokens] == [True] * 7
    assert any("2 <p> elements had no end time" in w for w in doc.metadata.warnings)


def test_a_cue_past_ten_hours_in_substation_is_said_not_warned_by_pysubs2(tmp_path):
    """SubStation Alpha's times have one digit of hours: pysubs2 clamps a later cue to 9:59:59.99
    and says so with a RuntimeWarning on stderr, which the window never shows."""
    import warnings

    doc = read(tmp_path, "long.srt", "1\n09:59:58,000 --> 09:59:59,000\nStill here.\n\n"
               "2\n10:00:05,000 --> 10:00:07,000\nLate words.\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        said = write_any(doc, tmp_path / "out.ass")
    assert any("1 cue past 9:59:59.99" in w for w in said)
    assert [t.text for t in read_any(tmp_path / "out.ass").tokens] == ["Still", "here.", "Late", "words."]
