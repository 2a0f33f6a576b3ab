"""YouTube's timed text, format 3 (.srv3: what yt-dlp saves with ``--sub-format srv3``, YouTube's
own captions and automatic captions with a time for each word).

Read by hand with the standard library's XML parser (pysubs2 and the other subtitle libraries do
not read it): ``<timedtext format="3">``, a ``<body>`` of ``<p t="ms" d="ms">`` paragraphs, each a
cue, their text in ``<s>`` segments, a segment's ``t`` its offset in milliseconds from the
paragraph's start (automatic captions time every word so: each is read at that time, as WebVTT's
inline timestamps are). A line break in the text breaks the cue's line; a paragraph of white space
alone (automatic captions append one to scroll the window) is no cue. The pens a paragraph or
segment names (``<pen id="1" b="1" i="1" u="1" fc="#FEFEFE">``) give its italics, bold, underline
and colour, kept as SubRip's tags. Automatic captions' paragraphs overlap, shown in a scrolling
window until the next but one begins: where words are timed, a paragraph ends where the next
begins, as YouTube's own WebVTT of the same captions has it. Stet does not write .srv3.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import replace

from editor.core.document.transcript import Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import MAX_SECONDS, PathLike, format_clock, guarded_xml
from editor.core.formats.subtitles.cues import Cue, checked_times, protect, visible
from editor.core.formats.subtitles.reading import transcript_from_cues
from editor.core.formats.subtitles.styles import css_color
from editor.core.formats.txt import read_source

_MS = re.compile(r"\s*\d+\s*")


def read_srv3(path: PathLike, encoding: str | None = None) -> Transcript:
    text, warnings, _source = read_source(path, encoding)
    if not text.strip():
        return transcript_from_cues([], path, warnings, "srv3")
    root = parse_xml(text, path)
    if root.tag != "timedtext":
        raise FormatError(path, "this is not YouTube timed text: the root element is not <timedtext>")
    return transcript_from_timedtext(root, path, warnings)


def parse_xml(text: str, path: PathLike) -> ET.Element:
    """The root element of YouTube's XML timed text (srv1, srv2, srv3), guarded (`guarded_xml`);
    a FormatError where it is not well-formed."""
    try:
        return ET.fromstring(guarded_xml(text, path))
    except ET.ParseError as err:
        raise FormatError(path, "this is not well-formed XML", line=err.position[0]) from None
    except RecursionError:
        raise FormatError(path, "its elements are nested too deep to be subtitles") from None


def transcript_from_timedtext(root: ET.Element, path: PathLike, warnings: list[str],
                              fmt: str = "srv3") -> Transcript:
    """The transcript of a ``<timedtext format="3">`` tree: its ``<head>``'s pens, its
    ``<body>``'s paragraphs (also the tree the other YouTube formats are read into: see
    `youtube`)."""
    head, body = root.find("head"), root.find("body")
    pens = {pen.get("id"): _tags(pen) for pen in (head.iter("pen") if head is not None else ())}
    cues: list[Cue] = []
    timed: list[bool] = []  # whether each cue's words have times of their own
    for n, p in enumerate(body.iter("p") if body is not None else (), 1):
        start = _ms(p.get("t"), path, n)
        end = start + _ms(p.get("d"), path, n)
        cue_text, worded = _text(p, start, pens, path, n)
        lines = tuple(line for line in (visible(raw) for raw in cue_text.split("\n")) if line.strip())
        if lines:
            timing = f"t={p.get('t')} d={p.get('d')}"
            cues.append(Cue(start, end, lines, text="\n".join(
                raw for raw in cue_text.split("\n") if visible(raw).strip()), ident=str(len(cues) + 1),
                timing=timing))
            timed.append(worded)
    for k in range(len(cues) - 1):  # a scrolling window's paragraph: until the next begins
        if timed[k] and cues[k].start < cues[k + 1].start < cues[k].end:
            cues[k] = replace(cues[k], end=cues[k + 1].start)
    return transcript_from_cues(checked_times(cues, path, warnings), path, warnings, fmt)


def _ms(value: str | None, path: PathLike, n: int) -> float:
    """A time in milliseconds as an attribute holds it, in seconds (no attribute: 0)."""
    if value is None:
        return 0.0
    if not _MS.fullmatch(value):
        raise FormatError(path, f"paragraph {n}: the time {value[:20]!r} is not a number of milliseconds")
    digits = value.strip().lstrip("0")
    if len(digits) > 15 or int(digits or "0") / 1000 > MAX_SECONDS:
        raise FormatError(path, f"paragraph {n} has an implausible time ({digits[:20]} ms)")
    return int(digits or "0") / 1000


def _tags(pen: ET.Element) -> tuple[str, str]:
    """The opening and closing SubRip tags a pen's italics, bold, underline and colour give."""
    opening, closing = "", ""
    for attribute, tag in (("i", "i"), ("b", "b"), ("u", "u")):
        if pen.get(attribute) == "1":
            opening, closing = opening + f"<{tag}>", f"</{tag}>" + closing
    colour = css_color(pen.get("fc") or "")
    if colour is not None and colour not in ("ffffff", "fefefe"):  # white: the default
        opening, closing = opening + f'<font color="#{colour}">', "</font>" + closing
    return opening, closing


def _text(p: ET.Element, start: float, pens: dict[str | None, tuple[str, str]], path: PathLike,
          n: int) -> tuple[str, bool]:
    """A paragraph's text as SubRip holds it (tags for its pens, an inline time before each
    segment timed after the paragraph's start), and whether a segment was so timed."""
    def styled(text: str, pen: str | None) -> str:
        opening, closing = pens.get(pen, ("", "")) if pen is not None else ("", "")
        return "\n".join(opening + protect(line) + closing if line.strip() else line
                         for line in text.split("\n"))

    parts, worded = [styled(p.text or "", p.get("p"))], False
    for segment in p:
        if segment.tag == "s":
            offset = _ms(segment.get("t"), path, n) if segment.get("t") is not None else None
            if offset:
                parts.append(f"<{format_clock(start + offset)}>")
                worded = True
            parts.append(styled("".join(segment.itertext()), segment.get("p") or p.get("p")))
        elif segment.tag == "br":
            parts.append("\n")
        else:  # no other element is in a paragraph; its words are kept
            parts.append(styled("".join(segment.itertext()), p.get("p")))
        parts.append(styled(segment.tail or "", p.get("p")))
    return "".join(parts), worded
