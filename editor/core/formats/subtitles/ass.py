"""SubStation Alpha subtitles (.ass, .ssa: Aegisub and most fansub tools), read and written with
pysubs2, and SAMI (.smi, .sami: Windows Media captions) read with it. Dialogue events are cues;
comments and vector drawings are not text. A SAMI cue's italics, bold, underline and colours
(<i>, <b>, <u>, <s>, <font color>) are kept as SubRip's tags in its text: pysubs2 reads the
times and <i>, <b>, <u> but not <font color>, so the text is read again here."""

from __future__ import annotations

import re
import warnings as warnings_module
from dataclasses import replace
from html.parser import HTMLParser
from typing import TYPE_CHECKING, Any
from collections.abc import Callable

from editor.core.document.transcript import Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import PathLike, atomic_write
from editor.core.formats.subtitles.writing import OutCue, ass_text, cues_to_write, styling_warnings
from editor.core.formats.subtitles.layout import DEFAULT_LAYOUT, SubtitleLayout
from editor.core.formats.subtitles.cues import (ASS_BACKSLASH, Cue, checked_times, css_color, protect_ass, transcript_from_cues, unprotect_ass,
                                          visible)
from editor.core.formats.txt import read_source
from editor.core.formats.subtitles.writeback import encode, encode_as, source_of, unchanged
from editor.core.render import NONE, RenderPolicy

if TYPE_CHECKING:
    from pysubs2 import SSAFile  # imported when a file is read or written

#: Holds a literal backslash while the escapes are read (a character no subtitle holds)
_BACKSLASH = "\ue000"
_DRAWING = re.compile(r"\{[^}]*\\p[1-9]")
_OVERRIDE = re.compile(r"\{[^}]*\}")
_COMMENT = re.compile(r"\{(?!\\)[^}]*\}")


def _style_tags(subs: SSAFile, name: str) -> str:
    """Override tags saying what an event's style sets of what other formats carry: italics,
    bold, underline, strike-through and a position other than bottom centre."""
    style = subs.styles.get(name) or subs.styles.get(name.lstrip("*"))  # SSA's "*Default"
    if style is None:
        return ""
    tags = [f"\\{tag}1" for tag, on in (("b", style.bold), ("i", style.italic), ("u", style.underline),
                                         ("s", style.strikeout)) if on]
    if int(style.alignment) != 2:
        tags.append(f"\\an{int(style.alignment)}")
    return "{" + "".join(tags) + "}" if tags else ""


def _parse(path: PathLike, encoding: str | None, format_: str, name: str, marker: str,
           missing: str) -> tuple[SSAFile | None, str, list[str], dict[str, Any]]:
    """The file read by pysubs2 as `format_`, its text and the reading's warnings; None for a file
    with no text. A file without `marker` (lower case) is not `name` ("no ..." says what lacks)."""
    import pysubs2

    text, warnings, source = read_source(path, encoding)
    if not text.strip():
        return None, text, warnings, source
    if marker not in text.lower():
        raise FormatError(path, f"this is not {name}: {missing}")
    if format_ == "ass":
        format_, text = _in_pysubs2_order(text)
    try:
        with warnings_module.catch_warnings():  # a field it cannot read: its default, unsaid
            warnings_module.simplefilter("ignore")
            return pysubs2.SSAFile.from_string(text, format_=format_), text, warnings, source
    except Exception as err:  # noqa: BLE001 - pysubs2 raises many kinds; the user needs one line
        raise FormatError(path, f"this {name} file cannot be read ({_reason(err)})") from None


#: The columns of a Format line as the spec orders them, and what a column a file leaves out
#: holds: pysubs2 reads fields in this order whatever the file's Format line says
_EVENT_COLUMNS = {
    "ass": ("Layer", "Start", "End", "Style", "Name", "MarginL", "MarginR", "MarginV", "Effect", "Text"),
    "ssa": ("Marked", "Start", "End", "Style", "Name", "MarginL", "MarginR", "MarginV", "Effect", "Text")}
_STYLE_COLUMNS = {
    "ass": ("Name", "Fontname", "Fontsize", "PrimaryColour", "SecondaryColour", "OutlineColour",
            "BackColour", "Bold", "Italic", "Underline", "StrikeOut", "ScaleX", "ScaleY", "Spacing",
            "Angle", "BorderStyle", "Outline", "Shadow", "Alignment", "MarginL", "MarginR", "MarginV",
            "Encoding"),
    "ssa": ("Name", "Fontname", "Fontsize", "PrimaryColour", "SecondaryColour", "TertiaryColour",
            "BackColour", "Bold", "Italic", "BorderStyle", "Outline", "Shadow", "Alignment", "MarginL",
            "MarginR", "MarginV", "AlphaLevel", "Encoding")}
_DEFAULTS = {"layer": "0", "marked": "Marked=0", "style": "Default", "name": "", "start": "0:00:00.00",
             "end": "0:00:00.00", "fontname": "Arial", "fontsize": "20", "primarycolour": "&H00FFFFFF",
             "secondarycolour": "&H000000FF", "outlinecolour": "&H00000000", "tertiarycolour": "&H00000000",
             "backcolour": "&H00000000", "bold": "0", "italic": "0", "underline": "0",
             "strikeout": "0", "scalex": "100", "scaley": "100", "spacing": "0", "angle": "0",
             "borderstyle": "1", "outline": "2", "shadow": "2", "alignment": "2", "marginl": "0",
             "marginr": "0", "marginv": "0", "encoding": "1", "alphalevel": "0"}
_SECTION = re.compile(r"^\s*\[([^\]]*)\]\s*$")
_FIELDS = re.compile(r"^(\s*)(Format|Style|Dialogue|Comment)(\s*:\s*)(.*)$", re.IGNORECASE)


def _in_pysubs2_order(text: str) -> tuple[str, str]:
    """("ass" or "ssa", the text with each Style and Dialogue line's fields in the order of the
    spec's Format line): pysubs2 ignores Format lines, so a file whose columns are in another
    order, or fewer (``Format: Start, End, Style, Actor, Text``), had words read as names or times
    or was refused. A SubStation Alpha v4 file ([V4 Styles]) has SSA's columns (no Underline,
    "Marked=0" for Layer); read as ASS, its styles were underlined and struck through."""
    sections = [m.group(1).strip().lower() for m in re.finditer(r"^\s*\[([^\]]*)\]", text, re.MULTILINE)]
    format_ = "ssa" if "v4 styles" in sections and "v4+ styles" not in sections else "ass"
    lines = text.split("\n")
    section, columns = "", None
    for n, line in enumerate(lines):
        heading = _SECTION.match(line)
        if heading:
            section, columns = heading.group(1).strip().lower(), None
            continue
        found = _FIELDS.match(line)
        if found is None or not ("styles" in section or section == "events"):
            continue
        kind = found.group(2).lower()
        wanted = _EVENT_COLUMNS[format_] if section == "events" else _STYLE_COLUMNS[format_]
        if kind == "format":
            names = [c.strip().lower() for c in found.group(4).split(",")]
            names = ["name" if c == "actor" else c for c in names]
            columns = None if names == [c.lower() for c in wanted] else names
        elif columns is not None and (kind == "style") == (section != "events"):
            values = dict(zip(columns, found.group(4).split(",", len(columns) - 1)))
            fields = [values.get(c.lower(), _DEFAULTS.get(c.lower(), "")) for c in wanted]
            lines[n] = f"{found.group(1)}{found.group(2)}{found.group(3)}{','.join(fields)}"
    return format_, "\n".join(lines)


def read_ass(path: PathLike, encoding: str | None = None) -> Transcript:
    subs, text, warnings, as_read = _parse(path, encoding, "ass", "SubStation Alpha", "[events]",
                                           "no [Events] section")
    if subs is None:
        return transcript_from_cues([], path, warnings, "ass")
    cues = []
    for n, event in enumerate(subs.events, 1):
        if event.is_comment:
            continue
        drawn = _DRAWING.search(event.text) is not None
        if drawn:  # the shape is no text; words after {\p0} are
            event = event.copy()
            event.text = _without_drawings(event.text)
        # a backslash Stet wrote as text ("C:\\{}New", see protect_ass) is no line break
        source = event.text.replace(ASS_BACKSLASH, _BACKSLASH)
        lines = tuple(line.replace(_BACKSLASH, "\\") for line in _OVERRIDE.sub("", source).replace(
            "\\h", "\u00a0").replace("\\n", "\n").replace("\\N", "\n").split("\n") if line.strip())
        if drawn and not lines:
            continue  # a shape alone
        # the text with its override tags ({\\i1}, {\\an8}; comments in braces dropped) and
        # its style's italics, bold and position, which carry to other formats (cue_style)
        tagged = _COMMENT.sub("", unprotect_ass(source)).replace("\\h", "\u00a0").replace(
            "\\n", "\n").replace("\\N", "\n").replace(_BACKSLASH, "\\")
        cues.append(Cue(event.start / 1000, event.end / 1000, lines, event.name.strip() or None,
                        text=_style_tags(subs, event.style) + tagged if lines else "",
                        ident=str(n)))
    if not cues and subs.events == [] and "dialogue:" in text.lower():
        raise FormatError(path, "no Dialogue line could be read (is the [Events] Format line missing?)")
    return transcript_from_cues(checked_times(cues, path, warnings), path, warnings, "ass", source=as_read)


_BLOCK_OR_TEXT = re.compile(r"\{[^}]*\}|[^{]+|\{")
_DRAWING_MODE = re.compile(r"\\p(\d+)")


def _without_drawings(text: str) -> str:
    """An event's text without its vector drawings: what follows an override block that sets
    \\p1 (or any scale but 0) up to one that sets \\p0 is a shape's commands, not words."""
    out, drawing = [], False
    for part in _BLOCK_OR_TEXT.findall(text):
        if part.startswith("{") and part.endswith("}"):
            modes = _DRAWING_MODE.findall(part)
            if modes:
                drawing = int(modes[-1]) != 0
            out.append(part)
        elif not drawing:
            out.append(part)
    return "".join(out)


def read_sami(path: PathLike, encoding: str | None = None) -> Transcript:
    subs, _text, warnings, _ = _parse(path, encoding, "sami", "SAMI", "<sync", "no <SYNC> element")
    if subs is None:
        return transcript_from_cues([], path, warnings, "sami")
    styled = _SamiText.texts_of(_text, warnings)
    if len(styled) != len(subs.events):  # the two readers disagree on the <SYNC>s: no styles
        styled = ["\n".join(_escape(line) for line in event.plaintext.split("\n"))
                  for event in subs.events]
    cues: list[Cue] = []
    for event, text in zip(subs.events, styled):
        lines = tuple(visible(line) for line in text.split("\n") if visible(line).strip())
        if lines:
            cues.append(Cue(event.start / 1000, event.end / 1000, lines,
                            text="\n".join(line for line in text.split("\n") if visible(line).strip()),
                            ident=str(len(cues) + 1)))
    return transcript_from_cues(checked_times(cues, path, warnings), path, warnings, "sami")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class _SamiText(HTMLParser):
    """The text of each <SYNC> of a SAMI file as SubRip text: <br> a line break, a line break
    in the source a space (as HTML reads it), <i> <b> <u> <s> and <font color> kept as tags.
    Windows Media captions may hold a <P> per language in each <SYNC> (Class=ENUSCC,
    Class=FRFRCC): each language's text is kept apart, by its class."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[dict[str | None, str]] = []  # by <SYNC>: the text of each <P> class
        self.classes: list[str | None] = []  # the classes of <P>s, in the order first seen
        self._class: str | None = None
        self._fonts: list[bool] = []  # open <font>s: whether each wrote a tag

    @classmethod
    def texts_of(cls, text: str, warnings: list[str] | None = None) -> list[str]:
        """The text of each <SYNC>; of one language where there are more (the style sheet's
        first, said in ``warnings``)."""
        parser = cls()
        parser.feed(text)
        parser.close()
        chosen = parser._language(text, warnings)
        return ["\n".join(" ".join(line.split()) for line in
                          ("\n".join(t.values()) if chosen is None else t.get(chosen, "")).split("\n"))
                for t in parser.texts]

    def _language(self, text: str, warnings: list[str] | None) -> str | None:
        """The <P> class to read, None for all: a file whose <P>s are of two classes or more
        that the style sheet names as languages (``.FRFRCC { Name: French; lang: fr-FR }``)."""
        declared = {m.group(1).lower(): (m.group(2) or m.group(1)).strip() for m in re.finditer(
            r"\.([\w-]+)\s*\{(?=[^}]*\blang\s*:)(?:[^}]*\bname\s*:\s*([^;}]+))?", text, re.IGNORECASE)}
        used = [c for c in self.classes if c in declared]
        if len(used) < 2:
            return None
        chosen = next(c for c in declared if c in used)
        if warnings is not None:
            warnings.append(f"the SAMI file holds {len(used)} languages ({', '.join(declared[c] for c in used)}); "
                            f"{declared[chosen]} was read")
        return chosen

    def _add(self, text: str) -> None:
        self.texts[-1][self._class] = self.texts[-1].get(self._class, "") + text

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "sync":
            self.texts.append({})
            self._fonts = []
            self._class = None
        elif not self.texts:
            return
        elif tag == "p":
            self._class = (dict(attrs).get("class") or "").lower() or None
            if self._class not in self.classes:
                self.classes.append(self._class)
            if self.texts[-1].get(self._class, "").strip():
                self._add("\n")  # a paragraph begins a line
        elif tag == "br":
            self._add("\n")
        elif tag in ("b", "i", "u", "s"):
            self._add(f"<{tag}>")
        elif tag == "font":
            color = css_color(dict(attrs).get("color") or "")
            self._fonts.append(color is not None)
            if color is not None:
                self._add(f'<font color="#{color}">')

    def handle_endtag(self, tag: str) -> None:
        if not self.texts:
            return
        if tag in ("b", "i", "u", "s"):
            self._add(f"</{tag}>")
        elif tag == "font" and self._fonts and self._fonts.pop():
            self._add("</font>")

    def handle_data(self, data: str) -> None:
        if self.texts:
            self._add(_escape(" ".join(data.split("\n"))))


def _reason(err: Exception) -> str:
    return " ".join(str(err).split())[:100] or type(err).__name__


def _subs(transcript: Transcript, policy: RenderPolicy, path: PathLike, layout: SubtitleLayout,
          protect: Callable[[str], str] = protect_ass) -> tuple[SSAFile, list[OutCue]]:
    """The cues as pysubs2 events, their styles as override tags ({\\i1}, {\\an8}...), their
    text as ``protect`` writes it."""
    import pysubs2

    subs = pysubs2.SSAFile()
    cues = cues_to_write(transcript, policy, path, layout)
    for cue in cues:
        # a cue where two speak is an event per speaker, at the same time: Name holds one
        for part in _by_voice(cue):
            if part.styled:
                text = ass_text(part.styled, protect)
            else:
                text = "\\N".join(protect(line.replace("{", "(").replace("}", ")")) for line in part.lines)
                if part.italic:
                    text = "{\\i1}" + text
            if part.align:
                text = f"{{\\an{part.align}}}{text}"
            subs.append(pysubs2.SSAEvent(start=round(part.start * 1000), end=round(part.end * 1000),
                                         text=text, name=part.speaker or ""))
    return subs, cues


def _brace_warning(cues: list[OutCue], name: str) -> list[str]:
    """One line where braces of the text were written as parentheses: in SubStation Alpha text (and
    pysubs2's TTML is written from it) "{...}" holds styling codes and is never shown."""
    n = sum(1 for cue in cues if any("{" in line or "}" in line for line in cue.lines))
    return [f"{n} cue{'' if n == 1 else 's'}: braces written as parentheses ({name} reads "
            "text in braces as styling codes)"] if n else []


def _by_voice(cue: OutCue) -> list[OutCue]:
    """The cue parted where its lines' speaker changes (one part when one speaks)."""
    voices = cue.line_voices()
    if len(set(voices)) < 2:
        return [cue]
    parts: list[OutCue] = []
    for k, voice in enumerate(voices):
        if k and voice == voices[k - 1]:
            last = parts[-1]
            parts[-1] = replace(last, lines=(*last.lines, *cue.lines[k:k + 1]),
                                styled=(*last.styled, *cue.styled[k:k + 1]))
        else:
            parts.append(replace(cue, lines=tuple(cue.lines[k:k + 1]),
                                 styled=tuple(cue.styled[k:k + 1]), speaker=voice, voices=()))
    return parts


def write_ass(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE, *,
              layout: SubtitleLayout = DEFAULT_LAYOUT) -> list[str]:
    """Write SubStation Alpha (pysubs2) laid out by ``layout``; the warnings say what styling
    could not be written."""
    source = source_of(transcript, "ass", path)
    if source is not None and unchanged(transcript, policy, source):  # the file as it came
        atomic_write(path, encode_as("".join(text + end for text, end in source.lines), source)[0])
        return []
    subs, cues = _subs(transcript, policy, path, layout)
    with warnings_module.catch_warnings():  # pysubs2 clamps a time past its limit, said below
        warnings_module.simplefilter("ignore", RuntimeWarning)
        text = subs.to_string("ass")
    data, said = encode(text, source)  # the line ends, encoding and byte-order mark it came with
    atomic_write(path, data)
    return said + (styling_warnings(cues, "ass", "SubStation Alpha", verbatim=False) + _brace_warning(cues, "SubStation Alpha")
            + _late_warning(subs))


def _late_warning(subs: SSAFile) -> list[str]:
    """One line where cues run past 9:59:59.99, which SubStation Alpha cannot write (a recording
    of ten hours or more): pysubs2 writes them at that time (its MAX_REPRESENTABLE_TIME)."""
    from pysubs2.formats.substation import MAX_REPRESENTABLE_TIME

    n = sum(1 for e in subs if e.end > MAX_REPRESENTABLE_TIME)
    return [f"{n} cue{'' if n == 1 else 's'} past 9:59:59.99, the last time SubStation Alpha can "
            f"hold, {'was' if n == 1 else 'were'} written ending (or starting and ending) there"] if n else []


def _ttml_protect(text: str) -> str:
    """Text for pysubs2's TTML writer, which reads \\N and \\h as SubStation Alpha does: each
    backslash held as `_BACKSLASH` (put back in the XML). XML escapes "<" and "&", and Stet's TTML
    reader takes text as text: no empty override blocks, which part the text into spans."""
    return text.replace("\\", _BACKSLASH)


_TTM = "http://www.w3.org/ns/ttml#metadata"


def _with_agents(xml: str, speakers: list[str]) -> str:
    """pysubs2's TTML with who speaks (it writes none): each <p> of a speaker's cue gets a
    ``ttm:agent``, and each speaker a ``<ttm:agent>`` in the head holding the name, as IMSC and
    EBU-TT name speakers. Unchanged where no cue has a speaker. The text pysubs2 wrote is kept as
    it is (its <p>s are found in order, a <p> per text event) and the result parsed to check it."""
    if not any(speakers):
        return xml
    from xml.sax.saxutils import quoteattr, escape
    import xml.etree.ElementTree as ET

    opens = list(re.finditer(r"<p(?=[\s>/])", xml))
    if len(opens) != len(speakers) or "<head>" not in xml or not xml.startswith("<tt "):
        raise FormatError("", "the TTML writer's output is not as expected; speakers cannot be added")
    ids: dict[str, str] = {}
    out, at = [], 0
    for m, who in zip(opens, speakers):
        out.append(xml[at:m.end()])
        if who:
            out.append(f' ttm:agent="{ids.setdefault(who, f"speaker{len(ids) + 1}")}"')
        at = m.end()
    out.append(xml[at:])
    text = "".join(out)
    agents = "".join(f'\n      <ttm:agent xml:id="{ident}" type="person">\n        <ttm:name type="full">'
                     f"{escape(who)}</ttm:name>\n      </ttm:agent>" for who, ident in ids.items())
    text = text.replace("<head>", f"<head>\n    <metadata>{agents}\n    </metadata>", 1)
    if "xmlns:ttm=" not in text.split(">", 1)[0]:
        text = text.replace("<tt ", f"<tt xmlns:ttm={quoteattr(_TTM)} ", 1)
    ET.fromstring(text)  # well-formed, or the error is the writer's
    return text


def write_ttml(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE, *,
               layout: SubtitleLayout = DEFAULT_LAYOUT) -> list[str]:
    """Write TTML (pysubs2) laid out by ``layout``; the warnings say what styling could not be
    written."""
    source = source_of(transcript, "ttml", path)
    if source is not None and unchanged(transcript, policy, source):  # the file as it came
        atomic_write(path, encode_as("".join(text + end for text, end in source.lines), source)[0])
        return []
    subs, cues = _subs(transcript, policy, path, layout, _ttml_protect)
    xml = _with_agents(subs.to_string("ttml"), [e.name for e in subs.get_text_events()])
    xml = xml.replace(f"&#{ord(_BACKSLASH)};", "\\").replace(_BACKSLASH, "\\")
    # its line ends and byte-order mark; UTF-8 always, as the XML declaration says
    utf8 = None if source is None else replace(source, encoding="utf-8")
    atomic_write(path, encode(xml, utf8)[0])
    return styling_warnings(cues, "ttml", "TTML", verbatim=False) + _brace_warning(cues, "the TTML writer")
