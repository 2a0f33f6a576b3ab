"""TTML and DFXP subtitles (.ttml, .dfxp, .xml from broadcasters and streaming services).

Read by hand with the standard library's XML parser: pysubs2 reads TTML but refuses the tick and
frame times (``begin="1234567t"``, ``00:00:01:12``) that broadcast DFXP files use. Each ``<p>`` is
a cue; ``<br/>`` breaks a line; times add up through nested ``<div>``s as the spec's parallel
timing says. Italics, bold, underline, strike-through and colour (``tts:fontStyle``,
``tts:fontWeight``, ``tts:textDecoration``, ``tts:color``, on the element or in a ``<style>`` it
refers to, inherited from ``<body>`` down to ``<span>``) are kept word by word as SubRip's tags
in the cue's text.

Written back to its own extension as it came where its cues are still its own (`_patched`:
only the changed characters of a changed ``<p>`` rewritten); otherwise written with pysubs2 from
the cues as SubStation Alpha events (`ass.ssa_events`), with who speaks added as ``ttm:agent``.
"""

from __future__ import annotations

import bisect
import html
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import replace
from typing import NamedTuple

from editor.core.document.text import CHARACTER_REFERENCE
from editor.core.document.transcript import Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import PathLike, atomic_write, guarded_xml
from editor.core.formats._html import parse_html, walk
from editor.core.formats.subtitles.ass import HELD_BACKSLASH, brace_warning, ssa_events
from editor.core.formats.subtitles.cues import BREAK_TAG, Cue, checked_times, visible
from editor.core.formats.subtitles.reading import transcript_from_cues
from editor.core.formats.subtitles.styles import css_color
from editor.core.formats.subtitles.layout import DEFAULT_LAYOUT, SubtitleLayout
from editor.core.formats.subtitles.writeback import (Source, collapsed_map, encode, encode_as, patch_places, source_of,
                                                    unchanged)
from editor.core.formats.subtitles.writing import source_runs, styling_warnings, timed_words
from editor.core.formats.txt import read_source
from editor.core.render import NONE, RenderPolicy

_OFFSET = re.compile(r"(\d+(?:\.\d+)?)(h|m|s|ms|f|t)")
_CLOCK = re.compile(r"(\d+):(\d{2}):(\d{2})(?:\.(\d+))?(?::(\d+(?:\.\d+)?))?")
_UNITS = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 0.001}


def read_ttml(path: PathLike, encoding: str | None = None) -> Transcript:
    text, warnings, source = read_source(path, encoding)
    if not text.strip():
        return transcript_from_cues([], path, warnings, "ttml")
    xml = guarded_xml(text, path)
    try:
        root = ET.fromstring(xml)
    except ET.ParseError as err:
        said: list[str] = []
        lenient = _lenient_cues(text, path, said)
        if lenient is None:
            raise FormatError(path, "this is not well-formed XML", line=err.position[0]) from None
        warnings.append(f"the XML is not well-formed (line {err.position[0]}); its <p> elements "
                        "were read as HTML is, leniently")
        warnings.extend(said)
        return transcript_from_cues(checked_times(lenient, path, warnings), path, warnings, "ttml",
                                    source=source)
    if _local(root.tag) != "tt":
        raise FormatError(path, "this is not TTML: the root element is not <tt>")
    rates = _rates(root)
    cues: list[Cue] = []
    body = next((el for el in root if _local(el.tag) == "body"), None)
    if body is not None:
        try:
            styles = _style_sheet(root)
            names = _agent_names(root)
            open_ends: list[int] = []
            ends = _time(body.get("end"), rates), _time(body.get("dur"), rates)
            until = next((t for t in ends if t is not None), None)  # the body's begin is 0
            _walk(body, 0.0, rates, cues, _element_style(body, styles, {}), styles, until, open_ends,
                  _Agents(names, _agent_of(body, names)))
            cues = _close_open_ends(cues, open_ends, warnings)
        except ValueError as err:
            raise FormatError(path, str(err)) from None
        except RecursionError:  # thousands of nested elements: no subtitle file has them
            raise FormatError(path, "its elements are nested too deep to be subtitles") from None
    return transcript_from_cues(checked_times(cues, path, warnings), path, warnings, "ttml", source=source)


class _LenientReader:
    """<p begin= end=|dur=> elements of TTML that XML will not parse (raw "<<", HTML entities,
    an undeclared prefix), read as an HTML parser reads tag soup (libxml2's, `_html`: linear in
    the text; the standard library's took time quadratic in unclosed tags). Nested times are not
    added; a <p> without an end (its index put in `open_ends`) ends where `_close_open_ends`
    says, one without a begin where the cue before it ends."""

    def __init__(self, rates: dict[str, float]) -> None:
        self.rates = rates
        self.cues: list[Cue] = []
        self.open_ends: list[int] = []
        self._p: tuple[float | None, float | None] | None = None
        self._text: list[str] = []

    def start(self, tag: str, attrs: Mapping[str, str]) -> None:
        values = {k.split(":")[-1]: v for k, v in attrs.items()}
        if tag.split(":")[-1] == "p":
            self._end_p()  # a <p> inside a <p>: the HTML parser ends the first where the next begins
            start = _time(values.get("begin"), self.rates)
            end = _time(values.get("end"), self.rates)
            dur = _time(values.get("dur"), self.rates)
            stop = end if end is not None else (start or 0.0) + dur if dur is not None else None
            self._p = (start, stop)
            self._text = []
        elif tag.split(":")[-1] == "br":
            self._text.append("\n")

    def end(self, tag: str) -> None:
        if tag.split(":")[-1] == "p":
            self._end_p()

    def _end_p(self) -> None:
        if self._p is not None:
            lines = [" ".join(line.split()) for line in "".join(self._text).split("\n")]
            lines = [line for line in lines if line]
            if lines:
                start, stop = self._p
                if start is None:
                    start = self.cues[-1].end if self.cues else 0.0
                if stop is None:
                    self.open_ends.append(len(self.cues))
                self.cues.append(Cue(start, start if stop is None else stop, tuple(lines), text="\n".join(lines)))
            self._p = None

    def data(self, text: str) -> None:
        if self._p is not None:
            self._text.append(" ".join(text.split("\n")))


def _lenient_cues(text: str, path: PathLike, warnings: list[str]) -> list[Cue] | None:
    """Cues from TTML that is not well-formed XML, or None when it is not TTML at all."""
    if not re.search(r"<tt[\s>]", text) or not re.search(r"<p[\s>]", text):
        return None
    tick = re.search(r"tickRate=[\"']([\d.]+)", text)
    frame = re.search(r"frameRate=[\"']([\d.]+)", text)
    rates = {"tick": float(tick.group(1)) if tick else 1.0,
             "frame": float(frame.group(1)) if frame else 30.0}
    reader = _LenientReader(rates)
    root = parse_html(text, path)
    try:
        if root is not None:
            walk(root, reader)
    except ValueError as err:
        raise FormatError(path, str(err)) from None
    return _close_open_ends(reader.cues, reader.open_ends, warnings)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _rates(root: ET.Element) -> dict[str, float]:
    # the parameters' namespace is TTML's (ns/ttml#parameter) or, in DFXP written before TTML 1.0
    # (Flash players' captions), the draft's (2006/10/ttaf1#parameter)
    params = {_local(key): value for key, value in root.attrib.items()
              if key.startswith("{") and key[1:key.index("}")].endswith("#parameter")}

    def number(name: str, default: float) -> float:
        try:
            return float(params.get(name, default))
        except ValueError:
            return default
    frame = number("frameRate", 30.0)
    multiplier = params.get("frameRateMultiplier", "1 1").split()
    try:
        frame *= float(multiplier[0]) / float(multiplier[1])
    except (ValueError, IndexError, ZeroDivisionError):
        pass
    return {"frame": frame or 30.0, "tick": number("tickRate", 1.0) or 1.0}


def _time(value: str | None, rates: dict[str, float]) -> float | None:
    if value is None:
        return None
    value = value.strip()
    m = _OFFSET.fullmatch(value)
    if m:
        count, unit = float(m.group(1)), m.group(2)
        if unit == "f":
            return count / rates["frame"]
        if unit == "t":
            return count / rates["tick"]
        return count * _UNITS[unit]
    if re.fullmatch(r"\d+(?:\.\d+)?", value):  # Apple's lyrics and some tools: bare seconds
        return float(value)
    m = re.fullmatch(r"(\d{1,2}):(\d{2}(?:\.\d+)?)", value)  # mm:ss.fff
    if m:
        return int(m.group(1)) * 60 + float(m.group(2))
    m = _CLOCK.fullmatch(value)
    if m:
        h, mm, ss, frac, frames = m.groups()
        if len(h.lstrip("0")) > 9:  # beyond any recording (and past what int() converts: said so)
            return float("inf")
        t = int(h) * 3600 + int(mm) * 60 + int(ss) + (float(f"0.{frac}") if frac else 0.0)
        return t + (float(frames) / rates["frame"] if frames else 0.0)
    raise ValueError(f"the time {value!r} cannot be read")


#: A style as TTML sets it: "i", "b", "u", "s" on (True) or off (False), "color" as "rrggbb" (""
#: for the default, white)
Style = dict[str, bool | str]
_XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
#: How many styles deep one may be based on another (real files: two or three)
_STYLE_DEPTH = 32


_TTM = "{http://www.w3.org/ns/ttml#metadata}"


class _Agents(NamedTuple):
    names: dict[str, str]  # an agent's xml:id -> the name to show
    current: str | None  # the speaker of the element being read (a <div>'s agent holds for its <p>s)


def _agent_names(root: ET.Element) -> dict[str, str]:
    """The ``<ttm:agent xml:id="ann"><ttm:name type="full">Ann Smith</ttm:name>`` of the head: id
    -> its full name, else its first name of any type, else nothing (the id is shown)."""
    names: dict[str, str] = {}
    for agent in root.iter(_TTM + "agent"):
        ident = agent.get(_XML_ID)
        given = [(n.get("type", ""), " ".join("".join(n.itertext()).split())) for n in agent.iter(_TTM + "name")]
        given = [(kind, name) for kind, name in given if name]
        if ident and given:
            names[ident] = next((name for kind, name in given if kind == "full"), given[0][1])
    return names


def _agent_of(element: ET.Element, names: dict[str, str], inherited: str | None = None) -> str | None:
    """The speaker ``ttm:agent`` (IDREFS: one or more ids) gives an element: their names, joined
    by " & " where several speak; else ``inherited``."""
    refs = (element.get(_TTM + "agent") or "").split()
    return " & ".join(names.get(r, r) for r in refs) if refs else inherited


def _walk(element: ET.Element, offset: float, rates: dict[str, float], cues: list[Cue],
          inherited: Style, styles: dict[str, Style], until: float | None = None,
          open_ends: list[int] | None = None, agents: _Agents | None = None) -> None:
    """The <p>s under ``element`` as cues. ``until``: when the element ends, where known; a <p>
    with no end of its own ends with the spans it times, else there, else (its index put in
    ``open_ends``) where `_close_open_ends` says. ``agents``: who speaks (``ttm:agent``)."""
    agents = agents or _Agents({}, None)
    for child in element:
        name = _local(child.tag)
        begin = _time(child.get("begin"), rates)
        start = offset + (begin or 0.0)
        end = _time(child.get("end"), rates)
        dur = _time(child.get("dur"), rates)
        stop = offset + end if end is not None else start + dur if dur is not None else None
        if name == "p":
            spans = _span_times(child, rates)
            if stop is None and spans is not None:  # times on its spans only (word by word)
                start, stop = start + spans[0], start + spans[1]
            lines = [line for line in _text(child).split("\n") if line.strip()]
            if lines:
                speaker = _agent_of(child, agents.names, agents.current)
                if stop is None and until is not None and until > start:
                    stop = until
                if stop is None and open_ends is not None:
                    open_ends.append(len(cues))
                if stop is not None or open_ends is not None:
                    cues.append(Cue(start, start if stop is None else stop,
                                    tuple(" ".join(line.split()) for line in lines),
                                    speaker, text=_tagged(child, inherited, styles),
                                    ident=child.get(_XML_ID)))
        elif name in ("div", "body"):
            _walk(child, start, rates, cues, _element_style(child, styles, inherited), styles,
                  stop if stop is not None else until, open_ends,
                  _Agents(agents.names, _agent_of(child, agents.names, agents.current)))


def _span_times(p: ET.Element, rates: dict[str, float]) -> tuple[float, float] | None:
    """(first begin, last end) of the timed elements inside a <p>, from the <p>'s begin; None
    when none has an end (or a begin and a duration)."""
    first, last = None, None
    for el in p.iter():
        if el is p:
            continue
        begin = _time(el.get("begin"), rates)
        end = _time(el.get("end"), rates)
        dur = _time(el.get("dur"), rates)
        stop = end if end is not None else (begin or 0.0) + dur if dur is not None else None
        if stop is None:
            continue
        first = min(first, begin or 0.0) if first is not None else begin or 0.0
        last = max(last, stop) if last is not None else stop
    return (first, last) if first is not None and last is not None and last >= first else None


#: How long a word of a <p> without an end is shown, when nothing after it says (reading speed)
_SECONDS_PER_WORD = 0.4


def _close_open_ends(cues: list[Cue], open_ends: list[int], warnings: list[str]) -> list[Cue]:
    """Cues whose <p> had no end (nor its spans or parents): each ends where the next cue after
    it begins, the last after a reading time of its words (at least 1 s); said once."""
    if not open_ends:
        return cues
    out = list(cues)
    starts = sorted(c.start for c in cues)
    for i in open_ends:
        cue = out[i]
        later = bisect.bisect_right(starts, cue.start)  # the first start after its own (a search of
        # every start for every cue was quadratic: 40,000 <p> without an end, 26 s)
        words = sum(len(line.split()) for line in cue.lines)
        end = starts[later] if later < len(starts) else cue.start + max(1.0, _SECONDS_PER_WORD * words)
        out[i] = Cue(cue.start, end, cue.lines, cue.speaker, cue.text, cue.ident, cue.timing)
    warnings.append(f"{len(open_ends)} <p> element{'s' if len(open_ends) > 1 else ''} had no end "
                    "time; each was shown until the next one begins")
    return out


def _style_attributes(element: ET.Element) -> Style:
    """The styles an element sets itself with tts: attributes (any TTML or DFXP namespace; names
    and values in any case, as some tools write them)."""
    out: Style = {}
    for key, value in element.attrib.items():
        if not key.startswith("{") or not key[1:key.index("}")].endswith(("#styling", "#style")):
            continue
        name, value = _local(key).lower(), value.strip().lower()
        if name == "fontstyle":
            out["i"] = value in ("italic", "oblique")
        elif name == "fontweight":
            out["b"] = value == "bold"
        elif name == "textdecoration":
            for word in value.split():
                if word in ("underline", "nounderline"):
                    out["u"] = word == "underline"
                elif word in ("linethrough", "nolinethrough"):
                    out["s"] = word == "linethrough"
                elif word == "none":
                    out["u"] = out["s"] = False
        elif name == "color":
            color = css_color(value)
            if color is not None:
                out["color"] = "" if color == "ffffff" else color
    return out


def _style_sheet(root: ET.Element) -> dict[str, Style]:
    """Each <style xml:id> of the head resolved: the styles it refers to (style="a b"), then
    its own attributes over them."""
    found = {el.get(_XML_ID, ""): el for el in root.iter() if _local(el.tag) == "style"
             and el.get(_XML_ID)}
    resolved: dict[str, Style] = {}

    def resolve(ident: str, seen: frozenset[str]) -> Style:
        if ident in resolved:
            return resolved[ident]
        element = found.get(ident)
        if element is None or ident in seen or len(seen) > _STYLE_DEPTH:
            return {}  # unknown, a loop, or a chain no tool writes (and no stack to spare)
        out: Style = {}
        for ref in element.get("style", "").split():
            out.update(resolve(ref, seen | {ident}))
        out.update(_style_attributes(element))
        resolved[ident] = out
        return out

    for ident in found:
        resolve(ident, frozenset())
    return resolved


def _element_style(element: ET.Element, styles: dict[str, Style], inherited: Style) -> Style:
    """An element's computed style: its parent's, then the styles it refers to, then its own."""
    out = dict(inherited)
    for ref in element.get("style", "").split():
        out.update(styles.get(ref, {}))
    out.update(_style_attributes(element))
    return out


def _styled_chars(element: ET.Element, style: Style, styles: dict[str, Style],
                  out: list[tuple[str, frozenset[str]]]) -> None:
    """The characters of an element's text with their styles ("i", "color:#rrggbb"...), a line
    break as "\n", each line break in the source a space (as _text)."""
    on = frozenset([*(k for k in ("b", "i", "u", "s") if style.get(k) is True),
                    *([f"color:#{style['color']}"] if style.get("color") else [])])
    out.extend((ch, on) for ch in " ".join((element.text or "").split("\n")))
    for child in element:
        if _local(child.tag) == "br":
            out.append(("\n", on))
        elif _local(child.tag) not in ("metadata", "set"):
            _styled_chars(child, _element_style(child, styles, style), styles, out)
        out.extend((ch, on) for ch in " ".join((child.tail or "").split("\n")))


def _tagged(p: ET.Element, inherited: Style, styles: dict[str, Style]) -> str:
    """A <p>'s text as SubRip text: each run of a style in its tags (<font color> outermost,
    then <b>, <i>, <u>, <s>), spaces between runs outside them, whitespace collapsed."""
    chars: list[tuple[str, frozenset[str]]] = []
    _styled_chars(p, _element_style(p, styles, inherited), styles, chars)
    lines: list[str] = []
    line: list[tuple[str, frozenset[str]]] = []
    for ch, on in [*chars, ("\n", frozenset())]:
        if ch != "\n":
            line.append((" " if ch.isspace() else ch, on))
            continue
        runs: list[tuple[str, frozenset[str]]] = []
        for k, (c, s) in enumerate(line):
            if c == " " and (k == 0 or line[k - 1][0] == " "):
                continue  # collapsed
            if runs and (runs[-1][1] == s or c == " "):
                runs[-1] = (runs[-1][0] + c, runs[-1][1])
            else:
                runs.append((c, s))
        text = "".join(_run(t, s) for t, s in runs).strip()
        if text:
            lines.append(text)
        line = []
    return "\n".join(lines)


def _run(text: str, on: frozenset[str]) -> str:
    """A run of text in its tags, its spaces at either end outside them."""
    core = text.strip(" ")
    if not core or not on:
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    lead, trail = text[:len(text) - len(text.lstrip(" "))], text[len(text.rstrip(" ")):]
    tags = [f'font color="{s[6:]}"' if s.startswith("color:") else s
            for s in sorted(on, key=lambda s: "bius".find(s) if len(s) == 1 else -1)]
    escaped = core.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return (lead + "".join(f"<{t}>" for t in tags) + escaped
            + "".join(f"</{t.split()[0]}>" for t in reversed(tags)) + trail)


def _text(element: ET.Element) -> str:
    """The text of a <p>: spans' text in order, <br/> as a line break, whitespace collapsed as XML
    text is (a line break in the source is a space)."""
    parts = [" ".join((element.text or "").split("\n"))]
    for child in element:
        if _local(child.tag) == "br":
            parts.append("\n")
        elif _local(child.tag) not in ("metadata", "set"):
            parts.append(_text(child))
        parts.append(" ".join((child.tail or "").split("\n")))
    return "".join(parts)


def _ttml_protect(text: str) -> str:
    """Text for pysubs2's TTML writer, which reads \\N and \\h as SubStation Alpha does: each
    backslash held as `HELD_BACKSLASH` (put back in the XML). XML escapes "<" and "&", and Stet's TTML
    reader takes text as text: no empty override blocks, which part the text into spans."""
    return text.replace("\\", HELD_BACKSLASH)


_TTM_NAMESPACE = "http://www.w3.org/ns/ttml#metadata"


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
        text = text.replace("<tt ", f"<tt xmlns:ttm={quoteattr(_TTM_NAMESPACE)} ", 1)
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
    patched = _patched(transcript, policy, path, source) if source is not None else None
    if patched is not None:  # the file as it came, its changed <p>s patched where they stand
        atomic_write(path, patched[0])
        return patched[1]
    subs, cues = ssa_events(transcript, policy, path, layout, _ttml_protect)
    xml = _with_agents(subs.to_string("ttml"), [e.name for e in subs.get_text_events()])
    xml = xml.replace(f"&#{ord(HELD_BACKSLASH)};", "\\").replace(HELD_BACKSLASH, "\\")
    # its line ends and byte-order mark; UTF-8 always, as the XML declaration says
    utf8 = None if source is None else replace(source, encoding="utf-8")
    atomic_write(path, encode(xml, utf8)[0])
    return styling_warnings(cues, "ttml", "TTML", verbatim=False) + brace_warning(cues, "the TTML writer")


# -- written back as it came ------------------------------------------------------------------------
#: A start or end tag (a prefix allowed: EBU-TT-D writes <tt:p>), its attributes' values quoted
#: (an attribute's value holds no "<" in XML, so a search from each "<" stops at the next one)
_XML_TAG = re.compile(r"""<(/?)(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)(?:\s+[^\s=<>/]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*\s*(/?)>""")
#: What begins and ends a comment, CDATA, a processing instruction and a document type
_NOT_MARKUP = (("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", "?>"), ("<!DOCTYPE", ">"))


def _passed_over(text: str, at: int) -> int | None:
    """Where the comment, CDATA, processing instruction or document type at ``at`` ends; None
    where none begins there; the text's length where one is never closed."""
    for opening, closing in _NOT_MARKUP:
        if text.startswith(opening, at):
            end = text.find(closing, at + len(opening))
            return len(text) if end < 0 else end + len(closing)
    return None


def _patched(transcript: Transcript, policy: RenderPolicy, path: PathLike, source: Source
             ) -> tuple[bytes, list[str]] | None:
    """The TTML file as it came, each changed cue's ``<p>`` patched where its words changed
    (`writeback.patch_seen`: spans, ``<br/>``, styles, regions, ids, times, the indentation and
    every other byte kept), in the file's encoding with its byte-order mark. None where the cues
    are not the file's ``<p>``s one for one with their words and speakers, where a cue's words
    were all deleted, or where its words cannot be found in its text as written: then the file
    is written afresh."""
    from xml.sax.saxutils import escape

    cues = transcript.metadata.cues
    if not cues:
        return None
    text = "".join(line + end for line, end in source.lines)
    places = [(start, end, seen) for start, end in _paragraphs(text)
              if (seen := _seen_in_paragraph(text[start:end]))[0]]
    if len(places) != len(cues) or any(
            seen[0] != "\n".join(visible(line) for line in BREAK_TAG.sub("\n", cue.text).split("\n"))
            for cue, (_, _, seen) in zip(cues, places)):
        return None
    runs = source_runs(transcript, timed_words(transcript, policy, path))
    patched = None if runs is None else patch_places(text, cues, places, transcript, runs, escape)
    return None if patched is None else encode_as(patched, source)


def _paragraphs(text: str) -> list[tuple[int, int]]:
    """Where the content of each ``<p>`` element after the ``<body>`` stands in the file's text
    (start, end), in the order of the file; an empty ``<p/>`` has none. Comments, CDATA and
    processing instructions are passed over."""
    out: list[tuple[int, int]] = []
    at, in_body, opened = 0, False, None
    while (at := text.find("<", at)) >= 0:
        other = _passed_over(text, at)
        if other is not None:
            at = other
            continue
        tag = _XML_TAG.match(text, at)
        if tag is None:
            at += 1
            continue
        closing, name, empty = tag.group(1), tag.group(2), tag.group(3)
        if name == "body" and not closing:
            in_body = True
        elif name == "p" and in_body:
            if closing and opened is not None:
                out.append((opened, at))
                opened = None
            elif not closing and not empty:
                opened = tag.end()
        at = tag.end()
    return out


def _seen_in_paragraph(raw: str) -> tuple[str, list[int], list[int]]:
    """A ``<p>``'s content as the reader reads it (`_text`: elements left out but for their
    text, ``<br/>`` as a line break, references decoded, white space collapsed to one space
    and none at a line's ends, lines without words left out), and for each character seen
    where it is written in ``raw``: its start and end (a collapsed space spans its run)."""
    lines: list[list[tuple[str, int, int]]] = [[]]
    breaks: list[tuple[int, int]] = []  # where each line after the first begins: its <br/>
    at, n, skipping = 0, len(raw), 0
    while at < n:
        ch = raw[at]
        if ch == "<":
            other = _passed_over(raw, at)
            tag = _XML_TAG.match(raw, at) if other is None else None
            if other is not None or tag is not None:
                end = other if other is not None else tag.end() if tag is not None else at + 1
                if tag is not None and tag.group(2) in ("metadata", "set") and not tag.group(3):
                    skipping += -1 if tag.group(1) else 1  # their text is no subtitle's
                elif tag is not None and tag.group(2) == "br" and not tag.group(1) and not skipping:
                    lines.append([])
                    breaks.append((at, end))
                at = end
                continue
        if skipping:
            at += 1
            continue
        ref = CHARACTER_REFERENCE.match(raw, at) if ch == "&" else None
        if ref is not None:
            lines[-1].extend((seen, at, ref.end()) for seen in html.unescape(ref.group()))
            at = ref.end()
        else:
            lines[-1].append((ch, at, at + 1))
            at += 1
    return collapsed_map(lines, breaks)
