"""WebVTT subtitles (.vtt), read by the parsing rules of the W3C WebVTT spec, written by hand.

Neither webvtt-py nor pysubs2 follows the spec's parsing rules: webvtt-py refuses cue settings
such as ``position:50.00%,middle``, a whitespace-only line between cues and times without hours
or milliseconds; pysubs2 reads a NOTE block as cue text and drops a cue whose time has no
milliseconds. Both strip "x <y and y> z" to "x z" and keep no cue as written, which an exact
round trip needs. So: the header (``X-TIMESTAMP-MAP`` and the like) is kept and not interpreted;
REGION, STYLE and NOTE blocks are skipped; a block with a time line is a cue, its settings kept;
any other block is skipped and counted.
"""

from __future__ import annotations

import re
from dataclasses import replace

from editor.core.document.transcript import Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import PathLike, atomic_write, format_clock
from editor.core.formats.subtitles.srt import SRT_TIMING, parse_blocks
from editor.core.formats.subtitles.writing import OutCue, cues_to_write, html_lines, styling_warnings
from editor.core.formats.subtitles.cues import Cue, checked_times, parse_clock
from editor.core.formats.subtitles.reading import shown_by_prefixes, transcript_from_cues, with_prefix
from editor.core.formats.subtitles.styles import ClassStyle, VTT_DEFAULT_CLASSES, class_sets, vtt_palette
from editor.core.formats.txt import read_source
from editor.core.formats.subtitles.layout import DEFAULT_LAYOUT, SubtitleLayout
from editor.core.formats.subtitles.writeback import encode, source_of, write_back
from editor.core.render import NONE, RenderPolicy

_CLOCK = r"(?:\d+:)?\d{1,2}:\d{1,2}(?:[.,]\d{1,9})?"
_TIMING = re.compile(rf"^\s*(-?{_CLOCK})[ \t]*-->[ \t]*(-?{_CLOCK})(?=[ \t]|$)(.*)$")
_SIGNATURE = re.compile(r"^\ufeff?WEBVTT(?:[ \t].*)?$")
_BLOCK_KEYWORD = re.compile(r"^(NOTE|STYLE|REGION)(?:[ \t].*)?$")


def read_vtt(path: PathLike, encoding: str | None = None) -> Transcript:
    text, warnings, source = read_source(path, encoding, line_breaks=False)
    lines = text.split("\n")
    if not text.strip():
        return transcript_from_cues([], path, warnings, "vtt")
    if not _SIGNATURE.match(lines[0]):
        if any(SRT_TIMING.match(line) for line in lines):
            warnings.append("the file does not begin with WEBVTT; it was read as SubRip")
            return transcript_from_cues(parse_blocks(text, path, warnings, SRT_TIMING), path,
                                        warnings, "srt", source={**source, "format": "vtt"})
        raise FormatError(path, "this is not WebVTT: it must begin with the line WEBVTT", line=1)
    header_end = _header_end(lines)
    cues: list[Cue] = []
    skipped: list[int] = []
    orphans: list[int] = []
    blocks = _blocks(lines, header_end)
    for first, block in blocks:
        if _BLOCK_KEYWORD.match(block[0]):
            continue  # a comment, style sheet or region (even one with "-->" inside)
        if "-->" in block[0]:
            ident, at = None, 0
        elif len(block) > 1 and "-->" in block[1]:
            ident, at = block[0].strip(), 1
        else:
            if cues:  # text with no time line: kept with the cue before it, and said
                orphans.append(first + 1)
                last = cues[-1]
                span = (last.span[0], last.span[1], first + len(block)) if last.span else None
                cues[-1] = Cue(last.start, last.end, text=f"{last.text}\n\n" + "\n".join(block),
                               ident=last.ident, timing=last.timing, span=span)
            else:
                skipped.append(first + 1)
            continue
        match = _TIMING.match(block[at])
        start = parse_clock(match.group(1)) if match else None
        end = parse_clock(match.group(2)) if match else None
        if match is None and not re.match(r"\s*-?\d", block[at]):
            skipped.append(first + 1)  # an arrow in text that is not a time line: not a cue
            continue
        if match is None or start is None or end is None:
            raise FormatError(path, f"the time line cannot be read: {block[at].strip()[:60]!r} "
                              "(expected one such as 00:00:01.000 --> 00:00:02.000)",
                              line=first + at + 1)
        cues.append(Cue(start, end, text="\n".join(block[at + 1:]), ident=ident,
                        timing=block[at], span=(first, first + at + 1, first + len(block))))
    if orphans:
        warnings.append(f"{len(orphans)} block{'s' if len(orphans) > 1 else ''} of text without a "
                        f"time line (from line {orphans[0]}) {'were' if len(orphans) > 1 else 'was'}"
                        " joined to the cue before")
    if skipped:
        warnings.append(f"{len(skipped)} block{'s' if len(skipped) > 1 else ''} without a time "
                        f"line {'were' if len(skipped) > 1 else 'was'} skipped (from line "
                        f"{skipped[0]})")
    if not cues and skipped:
        raise FormatError(path, "no cues found: no block has a time line such as "
                          "00:00:01.000 --> 00:00:02.000")
    header = "\n".join(lines[:header_end]).rstrip("\n")
    cues = _from_local_clock(cues, header, warnings)
    first_cue = min((n for n, (_, b) in enumerate(blocks) if not _BLOCK_KEYWORD.match(b[0])),
                    default=len(blocks))
    styles = ["\n".join(b) for _, b in blocks[:first_cue] if not b[0].startswith("NOTE")]
    extra = {"vtt_header": "\n\n".join([header, *styles])}
    return transcript_from_cues(checked_times(cues, path, warnings), path, warnings, "vtt", extra,
                                source=source)


#: A clock this far from 0 (about 11.5 days) is a stream's, not a recording's.
_FAR = 1_000_000.0


def _from_local_clock(cues: list[Cue], header: str, warnings: list[str]) -> list[Cue]:
    """HLS segments may time cues on a clock that starts far from 0 (hours in four digits) and
    map it with ``X-TIMESTAMP-MAP=LOCAL:...``: then times count from that LOCAL time. Where the
    cues begin before LOCAL (or LOCAL is 0) they keep their times, however late."""
    found = re.search(r"X-TIMESTAMP-MAP=.*?LOCAL:([0-9:.,]+)", header)
    local = parse_clock(found.group(1)) if found else None
    if found is None or not cues or not local or max(c.end for c in cues) <= _FAR:
        return cues
    if min(min(c.start, c.end) for c in cues) < local:
        return cues
    warnings.append(f"cue times count from X-TIMESTAMP-MAP's LOCAL time {found.group(1)}")
    return [replace(c, start=c.start - local, end=c.end - local) for c in cues]


def _header_end(lines: list[str]) -> int:
    """Index of the line after the header: the first blank line, or a line with a time arrow."""
    for i in range(1, len(lines)):
        if not lines[i].strip() or "-->" in lines[i]:
            return i
    return len(lines)


def _blocks(lines: list[str], start: int) -> list[tuple[int, list[str]]]:
    """Blocks separated by blank (or whitespace-only) lines, as (index of first line, lines). A
    time line inside a block begins a new block, as the spec reads a cue's text."""
    blocks: list[tuple[int, list[str]]] = []
    current: list[str] = []
    first = start
    for i in range(start, len(lines)):
        line = lines[i]
        if line and not line.strip() and _inside_cue(lines, i, current):
            current.append(line)
            continue
        if not line.strip():
            if current:
                blocks.append((first, current))
            current = []
            continue
        if current and _TIMING.match(line) and (any("-->" in x for x in current)
                                                or _BLOCK_KEYWORD.match(current[0])):
            blocks.append((first, current))  # a cue with no blank line before it: after a cue,
            current = []  # or after a comment ("NOTE Confidence: 0.9"), whose words it is not
        if not current:
            first = i
        current.append(line)
    if current:
        blocks.append((first, current))
    return blocks


def _inside_cue(lines: list[str], i: int, current: list[str]) -> bool:
    """Whether a whitespace-only line is a line of the cue being read (YouTube's automatic
    captions begin cues with a line holding one space) rather than a break between blocks: it
    is when cue text follows it, not a new block."""
    if not any("-->" in x for x in current) or i + 1 >= len(lines) or not lines[i + 1].strip():
        return False
    follow = lines[i + 1]
    after = lines[i + 2] if i + 2 < len(lines) else ""
    return "-->" not in follow and "-->" not in after and not _BLOCK_KEYWORD.match(follow)


# -- writing --------------------------------------------------------------------------------------
def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


#: A cue's position ({\\anN}, numpad) as WebVTT cue settings.
_SETTINGS = {1: " align:left", 3: " align:right", 4: " line:50% align:left", 5: " line:50%",
             6: " line:50% align:right", 7: " line:0 align:left", 8: " line:0",
             9: " line:0 align:right"}


def _colour_classes(cues: list[OutCue], palette: dict[str, ClassStyle]) -> tuple[list[OutCue], list[str]]:
    """Cues whose colours (SubRip's <font color>, SubStation's {\\c}) become WebVTT classes, and
    the style sheet rules they need: WebVTT has no colour tag, only <c.class> and a STYLE block.
    A colour of WebVTT's own colour classes is written as that class (<c.yellow>, shown by
    players without a style sheet too); any other as ``<c.color-rrggbb>`` with a rule
    ``::cue(.color-rrggbb) { color: #rrggbb }``. ``palette`` learns the classes added."""
    defaults = {color: name for name, color in VTT_DEFAULT_CLASSES.items()
                if class_sets([name], palette) == {"color": color}}
    rules: dict[str, str] = {}

    def classed(styles: frozenset[str]) -> frozenset[str]:
        color = next((x[7:] for x in styles if x.startswith("color:#")), None)
        if color is None or any(x.startswith("class:") for x in styles):
            return styles  # a class's own colour goes back with the class (see html_line)
        name = defaults.get(color) or f"color-{color}"
        if name not in defaults.values() and name not in palette:
            rules[name] = f"::cue(.{name}) {{ color: #{color} }}"
            palette[name] = {"color": color}
        return (styles - {f"color:#{color}"}) | {f"class:{name}"}

    out = []
    for cue in cues:
        if cue.styled and not (cue.source is not None and cue.source.format == "vtt"):
            cue = replace(cue, styled=tuple(
                tuple(replace(w, styles=classed(w.styles), tail_styles=classed(w.tail_styles)) for w in line)
                for line in cue.styled))
        out.append(cue)
    return out, list(rules.values())


def write_vtt(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE, *,
              layout: SubtitleLayout = DEFAULT_LAYOUT) -> list[str]:
    """Write WebVTT laid out by ``layout``; colours as classes with a style sheet (see
    `_colour_classes`); the warnings say what styling could not be written. Written back to the
    WebVTT file it was read from, the file is patched (see `writeback`)."""
    source = source_of(transcript, "vtt", path)
    if source is not None:
        mode = shown_by_prefixes(transcript)
        patched = write_back(transcript, policy, path, source, _escape,
                             lambda cue, _: _cue_text(cue, {}, mode), layout)
        if patched is not None:
            atomic_write(path, patched[0])
            return patched[1]
    header = transcript.metadata.extra.get("vtt_header")
    blocks = [header if isinstance(header, str) and header.startswith("WEBVTT") else "WEBVTT"]
    palette = vtt_palette(header)
    cues, rules = _colour_classes(cues_to_write(transcript, policy, path, layout), palette)
    if rules:
        blocks.append("STYLE\n" + "\n".join(rules))
    mode = shown_by_prefixes(transcript)  # no voice tag where the file showed names as text
    previous: str | None = None
    for cue in cues:
        src = cue.source
        before, previous = previous, (cue.line_voices() or (cue.speaker,))[-1]
        if src is not None and src.format == "vtt":
            blocks.append("\n".join(x for x in (src.ident, src.timing, src.text or None) if x is not None))
            continue
        settings = _SETTINGS.get(cue.align or 2, "")
        blocks.append(f"{format_clock(cue.start)} --> {format_clock(cue.end)}{settings}\n"
                      + _cue_text(cue, palette, mode, before))
    data, warnings = encode("\n\n".join(blocks) + "\n", source)
    atomic_write(path, data)
    return warnings + styling_warnings(cues, "vtt", "WebVTT")


def _cue_text(cue: OutCue, palette: dict[str, ClassStyle], mode: bool | str = False,
              before: str | None = None) -> str:
    """A cue's WebVTT text: its styles as tags (classes by ``palette``), a voice where the
    speaker changes within it; where the file showed speakers as "Name: " text (``mode``, see
    `shown_by_prefixes`), a prefix where another speaker than ``before`` begins instead."""
    if cue.styled:
        lines = html_lines(cue.styled, colors=False, escape=True, classes=palette)
    else:
        lines = [_escape(line) for line in cue.lines]
        if cue.italic:
            lines = [f"<i>{line}</i>" for line in lines]
    voices = cue.line_voices()
    for k, voice in enumerate(voices):
        if mode:
            if voice:
                plain = cue.lines[k] if k < len(cue.lines) else lines[k]
                lines[k] = with_prefix(plain, lines[k], voice, before, mode, k == 0, _escape)
            before = voice
        elif voice and (k == 0 or voice != voices[k - 1]):
            lines[k] = f"<v {_escape(voice)}>{lines[k]}"
    return "\n".join(lines)
