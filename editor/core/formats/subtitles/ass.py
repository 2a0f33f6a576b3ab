"""SubStation Alpha subtitles (.ass, .ssa: Aegisub and most fansub tools), read and written with
pysubs2. Dialogue events are cues; comments and vector drawings are not text. The pysubs2 reading
and the cues as pysubs2 events are shared with SAMI (``sami``) and the TTML writer (``ttml``)."""

from __future__ import annotations

import html
import re
import warnings as warnings_module
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from collections.abc import Callable

from editor.core.document.text import CHARACTER_REFERENCE
from editor.core.document.transcript import SourceCue, Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import PathLike, atomic_write
from editor.core.formats.subtitles.writing import (OutCue, ass_text, cues_to_write, source_runs, styling_warnings,
                                                   timed_words)
from editor.core.formats.subtitles.layout import DEFAULT_LAYOUT, SubtitleLayout
from editor.core.formats.subtitles.cues import (ASS_BACKSLASH, CUE_TAG, Cue, checked_times, protect_ass,
                                                unprotect_ass)
from editor.core.formats.subtitles.reading import transcript_from_cues
from editor.core.formats.txt import read_source
from editor.core.formats.subtitles.writeback import Source, encode, encode_as, patch_seen, source_of, unchanged
from editor.core.render import NONE, RenderPolicy

if TYPE_CHECKING:
    from pysubs2 import SSAFile  # imported when a file is read or written

#: Holds a literal backslash while the escapes are read (a character no subtitle holds)
HELD_BACKSLASH = "\ue000"
#: An override block that draws: no "{" or "}" between its "{" and the \\p, so a search takes
#: linear time (the same blocks as "{[^}]*" finds)
_DRAWING = re.compile(r"\{[^{}]*\\p[1-9]")
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


def read_with_pysubs2(path: PathLike, encoding: str | None, format_: str, name: str, marker: str,
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
    sections = [m.group(1).strip().lower() for m in re.finditer(r"^[ \t]*\[([^\]\n]*)\]", text, re.MULTILINE)]
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
    subs, text, warnings, as_read = read_with_pysubs2(path, encoding, "ass", "SubStation Alpha", "[events]",
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
        source = event.text.replace(ASS_BACKSLASH, HELD_BACKSLASH)
        lines = tuple(line.replace(HELD_BACKSLASH, "\\") for line in _without_blocks(_OVERRIDE, source).replace(
            "\\h", "\u00a0").replace("\\n", "\n").replace("\\N", "\n").split("\n") if line.strip())
        if drawn and not lines:
            continue  # a shape alone
        # the text with its override tags ({\\i1}, {\\an8}; comments in braces dropped) and
        # its style's italics, bold and position, which carry to other formats (cue_style)
        tagged = _flat_blocks(_without_blocks(_COMMENT, unprotect_ass(source))).replace("\\h", "\u00a0").replace(
            "\\n", "\n").replace("\\N", "\n").replace(HELD_BACKSLASH, "\\")
        cues.append(Cue(event.start / 1000, event.end / 1000, lines, _speaker(event.name),
                        text=_style_tags(subs, event.style) + tagged if lines else "",
                        ident=str(n)))
    if not cues and subs.events == [] and "dialogue:" in text.lower():
        raise FormatError(path, "no Dialogue line could be read (is the [Events] Format line missing?)")
    return transcript_from_cues(checked_times(cues, path, warnings), path, warnings, "ass", source=as_read)


#: The Name that Subtitle Edit and other SubStation Alpha v4 writers put on every Dialogue line
#: that names no one (the v4 spec's example line has it too): no speaker
_NO_NAME = "NTP"


def _speaker(name: str) -> str | None:
    """Who speaks a Dialogue line, by its Name field; None where it names no one."""
    name = name.strip()
    return name if name and name != _NO_NAME else None


def _without_blocks(blocks: re.Pattern[str], text: str) -> str:
    """``text`` without the override blocks ``blocks`` finds, in time linear in the text: a block
    ends at a "}", so none begins after the last one; searched there, each "{" would read on to
    the end (a line of 5 MB of "{" took hours)."""
    end = text.rfind("}") + 1
    return blocks.sub("", text[:end]) + text[end:]


def _flat_blocks(text: str) -> str:
    """``text`` with no "{" inside an override block: a block runs from its "{" to the first "}"
    ("{\\an8{\\i1}" is one), as players read it, while the cue tags read no "{\\" inside one."""
    end = text.rfind("}") + 1
    return _OVERRIDE.sub(lambda block: "{" + block.group()[1:].replace("{", ""), text[:end]) + text[end:]


_BLOCK_OR_TEXT = re.compile(r"\{[^}]*\}|[^{]+|\{")
_DRAWING_MODE = re.compile(r"\\p(\d+)")


def _without_drawings(text: str) -> str:
    """An event's text without its vector drawings: what follows an override block that sets
    \\p1 (or any scale but 0) up to one that sets \\p0 is a shape's commands, not words."""
    out, drawing = [], False
    end = text.rfind("}") + 1  # no block after the last "}" (see _without_blocks)
    for part in _BLOCK_OR_TEXT.findall(text[:end]) + ([text[end:]] if end < len(text) else []):
        if part.startswith("{") and part.endswith("}"):
            modes = _DRAWING_MODE.findall(part)
            if modes:
                drawing = int(modes[-1]) != 0
            out.append(part)
        elif not drawing:
            out.append(part)
    return "".join(out)


def _reason(err: Exception) -> str:
    if isinstance(err, ValueError) and "integer string conversion" in str(err):
        return "it holds a number with thousands of digits"  # Python's own words name its limit
    return " ".join(str(err).split())[:100] or type(err).__name__


def ssa_events(transcript: Transcript, policy: RenderPolicy, path: PathLike, layout: SubtitleLayout,
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


def brace_warning(cues: list[OutCue], name: str) -> list[str]:
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
    """Write SubStation Alpha (pysubs2) laid out by ``layout``, v4+ (.ass) or, to a ``.ssa``
    file, v4; the warnings say what styling could not be written."""
    source = source_of(transcript, "ass", path)
    if source is not None and unchanged(transcript, policy, source):  # the file as it came
        atomic_write(path, encode_as("".join(text + end for text, end in source.lines), source)[0])
        return []
    subs, cues = ssa_events(transcript, policy, path, layout)
    patched = _patched(transcript, source, subs, cues, policy, path) if source is not None else None
    if patched is not None and source is not None:  # the file as it came, the changed texts in
        data, said = encode_as("".join(text + end for text, end in patched), source)
        atomic_write(path, data)
        return said + brace_warning(cues, "SubStation Alpha")
    with warnings_module.catch_warnings():  # pysubs2 clamps a time past its limit, said below
        warnings_module.simplefilter("ignore", RuntimeWarning)
        text = subs.to_string("ssa" if Path(path).suffix.lower() == ".ssa" else "ass")
    data, said = encode(text, source)  # the line ends, encoding and byte-order mark it came with
    atomic_write(path, data)
    return said + (styling_warnings(cues, "ass", "SubStation Alpha", verbatim=False) + brace_warning(cues, "SubStation Alpha")
            + _late_warning(subs))


_CLOCK = re.compile(r"\s*(\d+):(\d{1,2}):(\d{1,2})(?:[.,](\d{1,3}))?\s*")


def _patched(transcript: Transcript, source: Source, subs: SSAFile, cues: list[OutCue],
             policy: RenderPolicy, path: PathLike) -> list[tuple[str, str]] | None:
    """The file's lines as it came with the Text field of each changed cue's Dialogue line
    patched where its words changed (`_patched_text`: its override tags, \\N and \\h kept), else
    replaced by the cue's text as written, so its script info, styles, comments, Aegisub's
    project data and every other line stay as they were. None where the cues are not the file's
    one for one (cut afresh, split between speakers, re-timed, a speaker renamed): then the file
    is written afresh."""
    read = transcript.metadata.cues
    if not read or len(cues) != len(read) or len(subs.events) != len(read):
        return None
    runs = source_runs(transcript, timed_words(transcript, policy, path)) or []
    by_cue = {n: run for n, run in runs}
    lines = list(source.lines)
    events: list[tuple[int, int]] = []  # (line, number of fields) of each Dialogue or Comment
    section, count = "", 0
    for n, (line, _end) in enumerate(lines):
        heading = _SECTION.match(line)
        if heading:
            section = heading.group(1).strip().lower()
            continue
        found = _FIELDS.match(line)
        if section != "events" or found is None:
            continue
        kind = found.group(2).lower()
        if kind == "format":
            count = len(found.group(4).split(","))
        elif kind in ("dialogue", "comment"):
            events.append((n, count))
    for n, (cue, event, was) in enumerate(zip(cues, subs.events, read)):
        if was.format != "ass" or not (was.ident or "").isdigit() or not 0 < int(was.ident or 0) <= len(events):
            return None
        at, fields = events[int(was.ident or 0) - 1]
        found = _FIELDS.match(lines[at][0])
        values = found.group(4).split(",", fields - 1) if found is not None and fields >= 4 else []
        times = [_CLOCK.fullmatch(v) for v in values[1:3]]
        if len(values) != fields or not all(times) or [_seconds(t) for t in times] != [
                round(was.start, 2), round(was.end, 2)] or (event.name or None) != (was.speaker or None) \
                or event.start != round(was.start * 1000) or event.end != round(was.end * 1000):
            return None
        if cue.source is None and found is not None:  # changed: its text patched, or written in its place
            head = found.group(0)[:len(found.group(0)) - len(values[-1])]
            run = by_cue.get(n, [])
            text = _patched_text(values[-1], was, [transcript[w.index].id for w in run], [w.text for w in run])
            lines[at] = (head + (event.text if text is None else text), lines[at][1])
    return lines


def _patched_text(raw: str, cue: SourceCue, ids: list[int], texts: list[str]) -> str | None:
    """A Dialogue line's Text field as written (``raw``) with the cue's words changed to
    ``texts`` where they stand (`writeback.patch_seen`): override blocks, karaoke, \\N, \\n,
    \\h and a drawing stay as they were. None where its words cannot be found in it."""
    if not ids:
        return None
    return patch_seen(raw, _seen_in_text(raw), cue, ids, texts, protect_ass, drop_emptied=False)


def _seen_in_text(raw: str) -> tuple[str, list[int], list[int]]:
    """A Text field as a player shows it, as the reader reads it (override blocks and a
    drawing's commands left out, \\N and \\n as line breaks, \\h as a no-break space, SubRip's
    tags and character references as `writeback.visible_map` reads them), and for each character
    shown where it is written: its start and end in ``raw``."""
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    at, n, drawing = 0, len(raw), False
    last = raw.rfind("}")  # no block begins after it (so a line of "{" is read in linear time)
    while at < n:
        ch = raw[at]
        close = raw.find("}", at) if ch == "{" and at < last else -1
        if close >= 0:  # an override block, or a comment: no text
            modes = _DRAWING_MODE.findall(raw, at, close)
            if modes:
                drawing = int(modes[-1]) != 0
            at = close + 1
            continue
        if drawing:  # a shape's commands
            at += 1
            continue
        if ch == "\\" and raw[at + 1:at + 2] in ("N", "n", "h"):
            seen, end = ("\u00a0" if raw[at + 1] == "h" else "\n"), at + 2
        elif ch in "<&":  # SubRip's tags and references, which the reader takes in .ass text too
            tag = CUE_TAG.match(raw, at) if ch == "<" else None
            if tag is not None:
                at = tag.end()
                continue
            ref = CHARACTER_REFERENCE.match(raw, at) if ch == "&" else None
            seen, end = (html.unescape(ref.group()), ref.end()) if ref is not None else (ch, at + 1)
        else:
            seen, end = ch, at + 1
        for shown in seen:
            out.append(shown)
            starts.append(at)
            ends.append(end)
        at = end
    return "".join(out), starts, ends


def _seconds(clock: re.Match[str] | None) -> float:
    if clock is None:
        return -1.0
    h, m, s, fraction = clock.groups()
    return round(int(h) * 3600 + int(m) * 60 + int(s) + int((fraction or "0").ljust(3, "0")) / 1000, 2)


def _late_warning(subs: SSAFile) -> list[str]:
    """One line where cues run past 9:59:59.99, which SubStation Alpha cannot write (a recording
    of ten hours or more): pysubs2 writes them at that time (its MAX_REPRESENTABLE_TIME)."""
    from pysubs2.formats.substation import MAX_REPRESENTABLE_TIME

    n = sum(1 for e in subs if e.end > MAX_REPRESENTABLE_TIME)
    return [f"{n} cue{'' if n == 1 else 's'} past 9:59:59.99, the last time SubStation Alpha can "
            f"hold, {'was' if n == 1 else 'were'} written ending (or starting and ending) there"] if n else []
