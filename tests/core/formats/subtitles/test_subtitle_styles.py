"""Subtitle styling kept: italics, bold, underline, colours and {\\an8} survive editing a cue's
words and go from SubRip to WebVTT (<i>) to SubStation Alpha ({\\i1}) where the format carries
them; what a format cannot carry is said once when writing, never dropped silently."""

import re
from pathlib import Path

import pytest

from editor.core import render
from editor.core.formats import read_any, write_any

CORPUS = Path(__file__).parents[3] / "corpus" / "files"

# As Subtitle Edit writes SubRip: whole-cue and partial italics, bold and underline around
# words, {\an8} raising a cue to the top
SUBTITLE_EDIT = """1
00:00:01,000 --> 00:00:03,000
<i>Where were you
last night?</i>

2
00:00:04,000 --> 00:00:06,000
{\\an8}[DOOR SLAMS]

3
00:00:07,000 --> 00:00:09,500
I told you, <i>never</i> again.
<b>Never</b> and <u>ever</u>.
"""

# As Aegisub writes it: an italic style, override tags inside the text, a comment in braces,
# and a karaoke tag no other format carries
FORMAT = ("Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, "
          "BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, "
          "BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding")
AEGISUB = """[Script Info]
ScriptType: v4.00+

[V4+ Styles]
@FORMAT@
Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1
Style: Thoughts,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,-1,0,0,100,100,0,0,1,2,2,2,10,10,10,1
Style: Top,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,2,8,10,10,10,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:01.00,0:00:03.00,Thoughts,,0,0,0,,I should not have come
Dialogue: 0,0:00:04.00,0:00:06.00,Default,,0,0,0,,{a comment}This is {\\i1}really{\\i0} late
Dialogue: 0,0:00:07.00,0:00:09.00,Top,,0,0,0,,{\\k20}Sing {\\k30}along
""".replace("@FORMAT@", FORMAT)


def read(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return read_any(path)


def write(doc, path):
    warnings = write_any(doc, path)
    return Path(path).read_text(encoding="utf-8"), warnings


def edit(doc, old, new):
    """Type ``new`` over the word ``old``, as in the editor."""
    index, token = next((i, t) for i, t in enumerate(doc.tokens) if (t.surface or t.word) == old)
    doc.replace_span(index, index + 1, new + token.punct)


def test_edited_words_keep_their_styles_in_subrip(tmp_path):
    doc = read(tmp_path, "a.srt", SUBTITLE_EDIT)
    edit(doc, "night", "evening")  # inside whole-cue italics
    edit(doc, "never", "not")  # typed over an italic word
    edit(doc, "ever", "always")  # typed over an underlined word
    text, warnings = write(doc, tmp_path / "out.srt")
    assert "<i>Where were you\nlast evening?</i>" in text
    assert "I told you, <i>not</i> again.\n<b>Never</b> and <u>always</u>." in text
    assert "{\\an8}[DOOR SLAMS]" in text and warnings == []
    back = read_any(tmp_path / "out.srt")
    assert render(back) == render(doc)
    assert [(c.start, c.end) for c in back.metadata.cues] == [(1.0, 3.0), (4.0, 6.0), (7.0, 9.5)]


def test_subrip_styles_convert_to_webvtt_and_substation(tmp_path):
    doc = read(tmp_path, "a.srt", SUBTITLE_EDIT)
    vtt, warnings = write(doc, tmp_path / "out.vtt")
    assert "<i>Where were you\nlast night?</i>" in vtt
    assert "00:00:04.000 --> 00:00:06.000 line:0\n[DOOR SLAMS]" in vtt
    assert "I told you, <i>never</i> again.\n<b>Never</b> and <u>ever</u>." in vtt
    assert warnings == []
    ass, warnings = write(doc, tmp_path / "out.ass")
    assert "{\\i1}Where were you\\Nlast night?" in ass
    assert "{\\an8}[DOOR SLAMS]" in ass
    assert "I told you, {\\i1}never{\\i0} again.\\N{\\b1}Never{\\b0} and {\\u1}ever{\\u0}." in ass
    assert warnings == []
    # and back: pysubs2 reads the tags Stet wrote, and they come back to SubRip
    srt, _ = write(read_any(tmp_path / "out.ass"), tmp_path / "back.srt")
    assert "<i>never</i>" in srt and "<b>Never</b>" in srt and "{\\an8}[DOOR SLAMS]" in srt
    srt, _ = write(read_any(tmp_path / "out.vtt"), tmp_path / "back2.srt")
    assert "<i>never</i>" in srt and "{\\an8}[DOOR SLAMS]" in srt


_OVERRIDE = re.compile(r"\{([^}]*)\}")
_TOGGLE = re.compile(r"\\([ibu])(\d+)")
_STYLE_NAMES = {"i": "italic", "b": "bold", "u": "underline"}


def _styled_chars(text):
    """(character, styles on) of one event's text: our own reading of the override blocks
    ({\\i1}, {\\b0}, {\\u1}; \\b700 is bold as well) that Stet writes, so the test leans on no
    private pysubs2 function. Colours and other tags change no style here."""
    on: set[str] = set()
    chars = []
    for k, part in enumerate(_OVERRIDE.split(text)):
        if k % 2:  # inside braces: the tags
            for name, value in _TOGGLE.findall(part):
                (on.add if int(value) else on.discard)(_STYLE_NAMES[name])
        else:
            chars += [(ch, frozenset(on)) for ch in part]
    return chars


def _pysubs2_runs(text):
    """(word, styles) of SubStation Alpha event text: the events as pysubs2 (its public API)
    reads them, their italics, bold and underline by ``_styled_chars``, split at spaces."""
    import pysubs2

    subs = pysubs2.SSAFile.from_string(text)
    out: list[tuple[str, frozenset]] = []
    for event in subs.events:
        style = subs.styles.get(event.style, pysubs2.SSAStyle())
        base = {name for name in ("italic", "bold", "underline") if getattr(style, name)}
        chars = [(ch, frozenset(base) | on) for ch, on in _styled_chars(event.text.replace("\\N", " "))]
        for ch, on in chars:  # a word takes the styles of its first letter
            if ch == " ":
                out.append((" ", on))
            elif out and out[-1][0] != " " and out[-1][0]:
                out[-1] = (out[-1][0] + ch, out[-1][1])
            else:
                out.append((ch, on))
        out.append(("", frozenset()))
    return [(w, on) for w, on in out if w]


def test_our_reading_of_substation_tags_agrees_with_what_players_show():
    import pysubs2

    subs = pysubs2.SSAFile()
    subs.append(pysubs2.SSAEvent(start=1000, end=2000, text=(
        "{\\i1}a {\\b1}b{\\i0} c{\\b0} {\\c&H0000FF&\\u1}d{\\u0\\c} e {\\b700}f{\\b0}")))
    runs = {w: on for w, on in _pysubs2_runs(subs.to_string("ass")) if w != " "}
    assert runs == {"a": {"italic"}, "b": {"italic", "bold"}, "c": {"bold"}, "d": {"underline"},
                    "e": set(), "f": {"bold"}}


def test_substation_closes_styles_before_the_space_and_pysubs2_reads_them_back(tmp_path):
    """{\\i1}word{\\i0} next, never {\\i1}word {\\i0}next: a style covers its words only, and
    pysubs2 reads the same words with the same styles."""
    doc = read(tmp_path, "a.srt", SUBTITLE_EDIT + "\n4\n00:00:10,000 --> 00:00:12,000\n"
               'Say <font color="#ff0000">red words</font> and <i><b>both</b> one</i> more.\n')
    ass, _ = write(doc, tmp_path / "out.ass")
    assert "{\\i1}never{\\i0} again" in ass
    assert "Say {\\c&H0000FF&}red words{\\c} and {\\b1\\i1}both{\\b0} one{\\i0} more." in ass
    assert not re.search(r" \{\\\\(?:[ibus]0|c\})", ass)  # nothing closes after a space
    runs = _pysubs2_runs(ass)
    # a space carries the styles the words either side share, no more
    spaces = [(runs[i - 1][1] & runs[i + 1][1], styles) for i, (word, styles) in enumerate(runs)
              if word == " " and 0 < i < len(runs) - 1]
    assert spaces and all(shared == styles for shared, styles in spaces)
    words = {word: styles for word, styles in runs if word != " "}
    assert words["never"] == {"italic"} and words["again."] == set()
    assert words["Never"] == {"bold"} and words["ever."] == {"underline"}
    assert words["both"] == {"italic", "bold"} and words["one"] == {"italic"}
    assert " ".join(w for w, _ in runs if w != " ") == " ".join(render(doc).split())
    srt, _ = write(read_any(tmp_path / "out.ass"), tmp_path / "back.srt")  # colours: Stet's reader
    assert 'Say <font color="#ff0000">red words</font> and <b><i>both</i></b> <i>one</i> more.' in srt


def test_colours_go_to_substation_and_to_webvtt_classes(tmp_path):
    """webvtt-py's styles_colours.srt: nested <font color> and italics, as a French broadcast
    subtitle file has them; WebVTT has no colour tag, so its own colour classes carry them (the
    "---" cues without words too), and nothing is said lost."""
    doc = read_any(CORPUS / "webvtt-py" / "styles_colours.srt")
    vtt, warnings = write(doc, tmp_path / "out.vtt")
    assert ("<c.blue><i>Some italic</i></c> <c.magenta>and normal coloured text. By the way, 2 &lt; 3 !</c>"
            in vtt)
    assert "<c.magenta>Musique douce</c>" in vtt and "<c.magenta>---</c>" in vtt
    assert "STYLE" not in vtt and warnings == []  # WebVTT's default classes need no style sheet
    srt, warnings = write(read_any(tmp_path / "out.vtt"), tmp_path / "back.srt")  # and back
    assert '<font color="#0000ff"><i>Some italic</i></font>' in srt and warnings == []
    assert '<font color="#ff00ff">---</font>' in srt
    ass, warnings = write(doc, tmp_path / "out.ass")
    assert "{\\c&HFF0000&\\i1}Some italic" in ass and warnings == []
    assert "{\\c&HFF00FF&}---" in ass
    srt, warnings = write(read_any(tmp_path / "out.ass"), tmp_path / "back.srt")
    assert '<font color="#0000ff"><i>Some italic</i></font>' in srt and warnings == []


def test_partial_italics_of_a_netflix_webvtt_survive_an_edit(tmp_path):
    doc = read_any(CORPUS / "webvtt-py" / "netflix_chicas_del_cable.vtt")
    edit(doc, "1928", "1929")
    srt, warnings = write(doc, tmp_path / "out.srt")
    assert "[Alba] <i>En 1929,</i>" in srt and warnings == []
    vtt, _ = write(doc, tmp_path / "out.vtt")
    assert "[Alba] <i>En 1929,</i>" in vtt


def test_substation_styles_and_overrides_carry_and_what_cannot_is_said(tmp_path):
    doc = read(tmp_path, "a.ass", AEGISUB)
    assert render(doc).split() == "I should not have come This is really late Sing along".split()
    srt, warnings = write(doc, tmp_path / "out.srt")
    assert "<i>I should not have come</i>" in srt  # the style's italics
    assert "This is <i>really</i> late" in srt
    assert "{\\an8}Sing along" in srt  # the style's alignment
    (warning,) = warnings
    assert "\\k" in warning and "1 cue" in warning
    vtt, warnings = write(doc, tmp_path / "out.vtt")
    assert "line:0\nSing along" in vtt and len(warnings) == 1
    ass, warnings = write(doc, tmp_path / "same.ass")  # nothing changed: the file as it came
    assert (tmp_path / "same.ass").read_bytes() == (tmp_path / "a.ass").read_bytes() and warnings == []
    edit(doc, "late", "late.")
    ass, warnings = write(doc, tmp_path / "out.ass")  # the file as it came but for that mark
    before = (tmp_path / "a.ass").read_text(encoding="utf-8").splitlines()
    after = ass.splitlines()
    assert len(after) == len(before) and warnings == []
    assert [(a, b) for a, b in zip(before, after) if a != b] == [(  # its comment stays, as all but the mark
        "Dialogue: 0,0:00:04.00,0:00:06.00,Default,,0,0,0,,{a comment}This is {\\i1}really{\\i0} late",
        "Dialogue: 0,0:00:04.00,0:00:06.00,Default,,0,0,0,,{a comment}This is {\\i1}really{\\i0} late.")]
    assert "{\\k20}Sing {\\k30}along" in ass  # a cue not changed keeps its karaoke


def test_unchanged_subrip_is_written_exactly_and_says_nothing(tmp_path):
    doc = read_any(CORPUS / "webvtt-py" / "styles_colours.srt")
    text, warnings = write(doc, tmp_path / "out.srt")
    assert text.replace("\r\n", "\n").strip() == (
        CORPUS / "webvtt-py" / "styles_colours.srt").read_text(encoding="utf-8").replace(
        "\r\n", "\n").strip()
    assert warnings == []


def test_subviewer_says_it_drops_styling(tmp_path):
    doc = read(tmp_path, "a.srt", SUBTITLE_EDIT)
    text, warnings = write(doc, tmp_path / "out.sbv")
    assert "<i>" not in text
    (warning,) = warnings
    assert "italics" in warning and "3 cues" in warning


@pytest.mark.parametrize("command", ["convert"])
def test_cli_prints_the_writing_warning(tmp_path, capsys, command):
    from editor import cli

    source = CORPUS / "webvtt-py" / "styles_colours.srt"
    assert cli.main([command, str(source), "-o", str(tmp_path / "out.sbv")]) == 0  # no styling at all
    err = capsys.readouterr().err
    assert "stet: warning: " in err and "colours" in err


def test_ttml_carries_italics_and_bold_and_says_colours_and_position_are_lost(tmp_path):
    doc = read(tmp_path, "a.srt", SUBTITLE_EDIT + "\n4\n00:00:10,000 --> 00:00:11,000\n"
               '<font color="#ffff00">Yellow</font>\n')
    text, (warning,) = write(doc, tmp_path / "out.ttml")
    assert 'tts:fontStyle="italic"' in text and 'tts:fontWeight="bold"' in text
    assert "colours" in warning and "position" in warning and "2 cues" in warning


# As a broadcaster's WebVTT has it: a style sheet colouring some classes, a class styled
# otherwise, WebVTT's default colour classes (<c.yellow>) and a class of two names
CLASSED_VTT = """WEBVTT

STYLE
/* speakers */
::cue(.loud) { color: #FF8000; font-weight: bold }
::cue(.narrator), ::cue(.aside) { color: rgb(0, 128, 255) }
::cue(.whisper) { font-style: italic }

00:00:01.000 --> 00:00:03.000
<c.loud>Stop right</c> there, <c.yellow>you</c> <c.whisper>fool</c>.

00:00:04.000 --> 00:00:06.000
Nothing <c.loud.yellow>here</c> to <c.aside>see</c>.
"""


def test_webvtt_class_styles_from_the_style_sheet_go_to_subrip_and_substation(tmp_path):
    doc = read(tmp_path, "a.vtt", CLASSED_VTT)
    edit(doc, "there", "then")
    edit(doc, "see", "look")
    srt, warnings = write(doc, tmp_path / "out.srt")
    # .loud: its colour and bold; <c.yellow>: the spec's colour class; .whisper: italics
    assert ('<font color="#ff8000"><b>Stop right</b></font> then, <font color="#ffff00">you</font> '
            "<i>fool</i>." in srt)
    # the style sheet's rule beats the default class; a selector list colours both classes
    assert 'Nothing <font color="#ff8000"><b>here</b></font> to <font color="#0080ff">look</font>.' in srt
    assert warnings == []  # every class set something SubRip carries
    ass, _ = write(doc, tmp_path / "out.ass")
    assert "{\\c&H0080FF&\\b1}Stop right{\\b0\\c} then, {\\c&H00FFFF&}you{\\c} {\\i1}fool{\\i0}." in ass


def test_webvtt_classes_survive_an_edit_back_to_webvtt_without_a_warning(tmp_path):
    doc = read(tmp_path, "a.vtt", CLASSED_VTT)
    edit(doc, "there", "then")
    edit(doc, "see", "look")
    vtt, warnings = write(doc, tmp_path / "out.vtt")
    assert warnings == []
    assert "::cue(.loud) { color: #FF8000; font-weight: bold }" in vtt  # the style sheet kept
    assert "<c.loud>Stop right</c> then, <c.yellow>you</c> <c.whisper>fool</c>." in vtt
    assert "Nothing <c.loud.yellow>here</c> to <c.aside>look</c>." in vtt
    # a class without a style sheet: a default colour class gives its colour, another none
    doc = read(tmp_path, "b.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n"
               "<c.red>Red</c> and <c.odd>odd</c> words\n")
    edit(doc, "words", "things")
    srt, (warning,) = write(doc, tmp_path / "b.srt")
    assert '<font color="#ff0000">Red</font> and odd things' in srt and "WebVTT classes" in warning
    vtt, warnings = write(doc, tmp_path / "b_out.vtt")
    assert "<c.red>Red</c> and <c.odd>odd</c> things" in vtt and warnings == []


def test_subrip_colours_bold_and_italics_go_to_webvtt_with_a_style_sheet(tmp_path):
    """A colour that is none of WebVTT's colour classes gets a class of its own and a STYLE
    rule before the first cue; bold and italics stay tags; an edit changes none of it; a colour
    given by name Stet does not know is the one thing said lost."""
    doc = read(tmp_path, "a.srt", '1\n00:00:01,000 --> 00:00:02,000\n<font color="#ff8000">Hot</font> tea\n\n'
               '2\n00:00:03,000 --> 00:00:04,000\n<b>Loud</b> and <i><font color="#FF8000">warm</font></i> '
               '<font color="#00ff00">leaf</font> <font color="puce">odd</font>\n')
    edit(doc, "tea", "coffee")
    vtt, (warning,) = write(doc, tmp_path / "out.vtt")
    assert vtt.startswith("WEBVTT\n\nSTYLE\n::cue(.color-ff8000) { color: #ff8000 }\n\n00:00:01.000")
    assert "<c.color-ff8000>Hot</c> coffee" in vtt
    assert "<b>Loud</b> and <c.color-ff8000><i>warm</i></c> <c.lime>leaf</c> odd" in vtt
    assert "colours by name" in warning and "<font color>" not in warning and "1 cue:" in warning
    back = read_any(tmp_path / "out.vtt")
    srt, _ = write(back, tmp_path / "back.srt")
    assert '<font color="#ff8000">Hot</font> coffee' in srt
    assert '<b>Loud</b> and <font color="#ff8000"><i>warm</i></font> <font color="#00ff00">leaf</font> odd' in srt
    edit(back, "coffee", "tea")  # and a WebVTT written again keeps its style sheet and classes
    again, warnings = write(back, tmp_path / "again.vtt")
    assert again.count("::cue(.color-ff8000)") == 1 and "<c.color-ff8000>Hot</c> tea" in again
    assert warnings == []


def test_a_webvtt_style_sheet_rule_for_a_default_class_name_is_not_taken_for_that_colour(tmp_path):
    """A source whose sheet makes .red bold and blue: a red <font> is then not written <c.red>."""
    doc = read(tmp_path, "a.vtt", "WEBVTT\n\nSTYLE\n::cue(.red) { color: #0000ff; font-weight: bold }\n\n"
               "00:00:01.000 --> 00:00:02.000\n<c.red>Blue</c> words\n")
    srt, _ = write(doc, tmp_path / "a.srt")
    red = read(tmp_path, "b.srt", srt.replace("words", '<font color="#ff0000">red</font>'))
    red.metadata.extra["vtt_header"] = doc.metadata.extra["vtt_header"]
    vtt, warnings = write(red, tmp_path / "b.vtt")
    assert "<c.color-ff0000>red</c>" in vtt and "::cue(.color-ff0000) { color: #ff0000 }" in vtt


# As Subtitle Edit writes SAMI: a style sheet (not read: it styles every cue), <br />, italics,
# bold, underline and <font color> around words, &nbsp; ending a cue
SAMI = """<SAMI>
<HEAD>
<TITLE>Test</TITLE>
<STYLE TYPE="text/css">
<!--
p { margin-left: 16pt; margin-right: 16pt; text-align: center; font-size: 18pt;
    font-family: arial; font-weight: bold; color: #f0f0f0;}
.UNKNOWNCC {Name:Unknown; lang:en-US; SAMIType:CC;}
-->
</STYLE>
</HEAD>
<BODY>
<-- Open play menu, choose Captions and Subtiles, On if available -->
<SYNC Start="1000"><P Class="UNKNOWNCC">
<i>Where were you<br />last night?</i>
</P></SYNC>
<SYNC Start="3000"><P Class="UNKNOWNCC">&nbsp;</P></SYNC>
<SYNC Start="4000"><P Class="UNKNOWNCC">
I told you, <i>never</i> again.<br /><B>Never</B> and <u>ever</u>.
</P></SYNC>
<SYNC Start="6000"><P Class="UNKNOWNCC">
Say <FONT COLOR="#FF0000">red</FONT> and <font color="yellow">yellow <i>too</i></font> &amp; more.
</P></SYNC>
<SYNC Start="8000"><P Class="UNKNOWNCC">&nbsp;</P></SYNC>
</BODY>
</SAMI>
"""


def test_sami_styles_are_kept_word_by_word(tmp_path):
    doc = read(tmp_path, "a.smi", SAMI)
    assert render(doc).split() == ("Where were you last night? I told you, never again. Never and "
                                   "ever. Say red and yellow too & more.").split()
    edit(doc, "night", "evening")
    srt, warnings = write(doc, tmp_path / "out.srt")
    assert "<i>Where were you\nlast evening?</i>" in srt
    assert "I told you, <i>never</i> again.\n<b>Never</b> and <u>ever</u>." in srt
    assert ('Say <font color="#ff0000">red</font> and <font color="#ffff00">yellow <i>too</i>'
            '</font> & more.' in srt)
    assert warnings == []
    # cues numbered as they are, not by <SYNC> (a &nbsp; one ends the cue before it)
    assert [line for line in srt.split("\n") if line.isdigit()] == ["1", "2", "3"]
    assert [(c.start, c.end) for c in doc.metadata.cues] == [(1.0, 3.0), (4.0, 6.0), (6.0, 8.0)]
    ass, _ = write(doc, tmp_path / "out.ass")
    words = {w: on for w, on in _pysubs2_runs(ass) if w != " "}
    assert words["never"] == {"italic"} and words["Never"] == {"bold"}
    assert words["ever."] == {"underline"} and words["again."] == set()
    assert words["too"] == {"italic"} and "{\\c&H0000FF&}red{\\c}" in ass


# As Netflix delivers TTML (DFXP): ticks, styles referred to by id (one based on another),
# italics on a span, colour white (the default) on the body
NETFLIX = """<?xml version="1.0" encoding="utf-8"?>
<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling"
    xmlns:ttp="http://www.w3.org/ns/ttml#parameter" ttp:tickRate="10000000"
    ttp:timeBase="media" xml:lang="en">
<head>
<styling>
<style tts:color="white" tts:fontFamily="monospaceSansSerif" tts:fontSize="100%" xml:id="bodyStyle"/>
<style style="bodyStyle" tts:fontStyle="italic" xml:id="style_0"/>
<style tts:fontWeight="bold" tts:color="#FFFF00" xml:id="shout"/>
</styling>
<layout><region tts:displayAlign="after" xml:id="region_00"/></layout>
</head>
<body style="bodyStyle">
<div xml:space="preserve">
<p begin="10000000t" end="30000000t" region="region_00" xml:id="subtitle0"
   ><span style="style_0">Where were you</span><br/><span style="style_0">last night?</span></p>
<p begin="40000000t" end="60000000t" region="region_00" xml:id="subtitle1"
   >I told you, <span style="style_0">never</span> again.<br/><span style="shout">Never</span> and <span tts:textDecoration="underline">ever</span>.</p>
<p begin="70000000t" end="90000000t" region="region_00" xml:id="subtitle2"
   style="style_0">All of this <span tts:fontStyle="normal">but this</span> in italics.</p>
</div>
</body>
</tt>
"""

# As YouTube serves TTML (fmt=ttml), and an old DFXP (ttaf1 namespace, as Flash players read)
YOUTUBE = (
    '<?xml version="1.0" encoding="utf-8" ?><tt xml:lang="en" xmlns="http://www.w3.org/ns/ttml" '
    'xmlns:ttm="http://www.w3.org/ns/ttml#metadata" xmlns:tts="http://www.w3.org/ns/ttml#styling" '
    'xmlns:ttp="http://www.w3.org/ns/ttml#parameter" ttp:profile="http://www.w3.org/TR/profile/sdp-us" >'
    '<head><styling><style xml:id="s1" tts:textAlign="center" tts:extent="90% 90%" tts:origin="5% 5%" '
    'tts:displayAlign="after"/><style xml:id="s2" tts:fontSize=".72c" tts:backgroundColor="black" '
    'tts:color="white"/></styling><layout><region xml:id="r1" style="s1"/></layout></head>'
    '<body region="r1"><div><p begin="00:00:00.320" end="00:00:03.440" style="s2">we&#39;re no '
    '<span tts:fontStyle="italic">strangers</span><br />to <span tts:color="#00FFFF">love</span></p>'
    '</div></body></tt>\n')
OLD_DFXP = """<?xml version="1.0" encoding="UTF-8"?>
<tt xml:lang="en" xmlns="http://www.w3.org/2006/10/ttaf1" xmlns:tts="http://www.w3.org/2006/10/ttaf1#style">
<head><styling><style id="b" tts:fontWeight="bold"/></styling></head>
<body><div><p begin="00:00:01.00" dur="00:00:02.00"><span tts:fontWeight="bold">Bold</span> then plain</p></div></body>
</tt>
"""


def test_netflix_ttml_styles_by_id_and_inline_are_kept_word_by_word(tmp_path):
    doc = read(tmp_path, "a.ttml", NETFLIX)
    edit(doc, "night", "evening")
    srt, warnings = write(doc, tmp_path / "out.srt")
    assert "<i>Where were you\nlast evening?</i>" in srt  # no white <font>: the default
    assert ('I told you, <i>never</i> again.\n<font color="#ffff00"><b>Never</b></font> and '
            "<u>ever</u>." in srt)
    assert "<i>All of this</i> but this <i>in italics.</i>" in srt
    assert warnings == []
    ass, _ = write(doc, tmp_path / "out.ass")
    words = {w: on for w, on in _pysubs2_runs(ass) if w != " "}
    assert words["never"] == {"italic"} and words["Never"] == {"bold"} and words["but"] == set()


def test_youtube_ttml_and_old_dfxp_keep_their_spans_styles(tmp_path):
    doc = read(tmp_path, "a.ttml", YOUTUBE)
    edit(doc, "love", "loving")
    srt, _ = write(doc, tmp_path / "out.srt")
    assert "we're no <i>strangers</i>\nto <font color=\"#00ffff\">loving</font>" in srt
    doc = read(tmp_path, "b.dfxp", OLD_DFXP)
    edit(doc, "plain", "plainly")
    srt, _ = write(doc, tmp_path / "b.srt")
    assert "<b>Bold</b> then plainly" in srt


def test_pycaption_nested_styles_and_pysubs2_ttml_colours(tmp_path):
    doc = read_any(CORPUS / "pycaption" / "sample_dfxp_with_nested_spans.dfxp")
    edit(doc, "nested", "nesting")
    srt, _ = write(doc, tmp_path / "out.srt")
    assert "That is <b><i><u>nesting</u></i></b>." in srt
    doc = read_any(CORPUS / "pysubs2" / "ttml_example.ttml")  # style s2: s1 (white) made yellow
    edit(doc, "puzzling", "puzzled")
    srt, _ = write(doc, tmp_path / "out2.srt")
    assert '<font color="#ffff00">It is puzzled, why is it\nwe do not see things upside-down?</font>' in srt
    assert "It seems a paradox, does it not," in srt


def test_subrip_colours_by_css_name_are_kept(tmp_path):
    doc = read(tmp_path, "a.srt", "1\n00:00:01,000 --> 00:00:02,000\n"
               '<font color="yellow">Sunny</font> and <font color=Cyan>cool</font> and '
               '<font color="puce">odd</font>\n')
    edit(doc, "and", "but")
    ass, (warning,) = write(doc, tmp_path / "out.ass")
    assert "{\\c&H00FFFF&}Sunny{\\c} but {\\c&HFFFF00&}cool{\\c} and odd" in ass
    assert "colours by name" in warning  # puce is no CSS colour Stet knows


def test_ttml_styles_chained_or_nested_without_end_are_one_line_not_a_crash(tmp_path):
    from editor.core.errors import FormatError

    chain = "".join(f'<style xml:id="s{i}" style="s{i + 1}" tts:fontWeight="bold"/>' for i in range(3000))
    loop = '<style xml:id="a" style="b"/><style xml:id="b" style="a" tts:fontStyle="italic"/>'
    head = ('<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling">'
            f"<head><styling>{chain}{loop}</styling></head><body><div>")
    doc = read(tmp_path, "a.ttml", head + '<p begin="1s" end="2s" style="s0">Hi</p>'
               '<p begin="3s" end="4s" style="a">there</p></div></body></tt>')
    assert [c.text for c in doc.metadata.cues] == ["<b>Hi</b>", "<i>there</i>"]
    deep = "<span>" * 5000 + "Hi" + "</span>" * 5000
    with pytest.raises(FormatError, match="nested too deep"):
        read(tmp_path, "b.ttml", head + f'<p begin="1s" end="2s">{deep}</p></div></body></tt>')


def test_accepting_suggestions_in_an_italic_cue_keeps_its_one_span(tmp_path):
    """Accept all on a finished italic SubRip: a mark added inside a two-line <i> cue and one at its
    end stay in the span, which is not split at the line break (it was: "<i>…river,</i>\\n<i>…</i>.")."""
    from editor.core.document.transcript import Kind, Suggestion

    doc = read(tmp_path, "a.srt", "1\n00:00:18,500 --> 00:00:21,000\n<i>We walked along the river\n"
                                  "and talked about the old days</i>\n\n2\n00:00:22,000 --> 00:00:23,000\nThen home.\n")
    ids = {t.word: t.id for t in doc.tokens}
    doc.set_suggestions([Suggestion(ids["river"], Kind.PUNCT, ",", {",": 0.95}),
                         Suggestion(ids["days"], Kind.PUNCT, ".", {".": 0.95})])
    assert doc.accept_all(0.9) == 2
    text, _ = write(doc, tmp_path / "out.srt")
    assert "<i>We walked along the river,\nand talked about the old days.</i>\n" in text
    vtt, _ = write(doc, tmp_path / "out.vtt")
    assert "<i>We walked along the river,\nand talked about the old days.</i>\n" in vtt


def test_word_styles_say_each_words_styles_by_token_for_the_editor(tmp_path):
    from editor.core.formats.subtitles.styles import WordStyles

    src = tmp_path / "edit.srt"
    src.write_text(SUBTITLE_EDIT, encoding="utf-8")
    doc = read_any(src)
    styles = WordStyles(doc)
    by_word = {(t.surface or t.word): styles.get(t.id) for t in doc.tokens}
    assert by_word["Where"] == (frozenset({"i"}), None)
    assert by_word["night"] == (frozenset({"i"}), frozenset({"i"}))  # "night?" in italics
    assert by_word["never"] == (frozenset({"i"}), None)
    assert by_word["Never"] == (frozenset({"b"}), None)
    assert by_word["ever"] == (frozenset({"u"}), frozenset())  # "<u>ever</u>.": its mark plain
    assert by_word["told"] is None and by_word["again"] is None


def test_subrip_from_substation_alpha_with_comments_is_numbered_without_gaps(tmp_path):
    source = tmp_path / "aegisub.ass"
    source.write_text(
        "[Script Info]\nScriptType: v4.00+\n\n[Aegisub Project Garbage]\nActive Line: 2\n\n"
        "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
        "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\an8}First line\n"
        "Comment: 0,0:00:02.00,0:00:03.00,Default,,0,0,0,,a note to the typesetter\n"
        "Dialogue: 0,0:00:03.00,0:00:04.00,Default,,0,0,0,,Second line\n", encoding="utf-8")
    out = tmp_path / "out.srt"
    write_any(read_any(source), out)
    assert re.findall(r"^(\d+)\n\d\d:", out.read_text(encoding="utf-8"), re.MULTILINE) == ["1", "2"]
