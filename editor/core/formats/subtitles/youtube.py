"""YouTube's other timed-text formats, as yt-dlp saves them (``--sub-format json3``, ``srv1``,
``srv2``) and YouTube's timedtext API serves them (``&fmt=json3``...).

- json3 is srv3 (`srv3`) in JSON, field for attribute: ``{"wireMagic": "pb3", "pens": [...],
  "wsWinStyles": [...], "wpWinPositions": [...], "events": [...]}``, each event a paragraph
  (``tStartMs``, ``dDurationMs``, ``pPenId``) whose ``segs`` are its segments (``utf8``, their
  offset ``tOffsetMs``: automatic captions time every word so, and ``pPenId``); an event without
  segments defines a window (``id``, ``wpWinPosId``, ``wsWinStyleId``) and holds no words; one
  whose segments are a line break alone (``aAppend``) scrolls automatic captions' window. A pen
  is found by its place in ``pens`` (``bAttr``, ``iAttr``, ``uAttr``, ``fcForeColor`` as a
  number). Each file is turned into the srv3 tree it stands for and read as srv3 is, so the two
  give the same transcript.
- srv1: ``<transcript><text start="1.5" dur="2.3">…</text></transcript>``, times in seconds, the
  text's character references escaped once more (``&amp;#39;``).
- srv2: ``<timedtext><text t="1500" d="2300">…</text></timedtext>``, times in milliseconds, the
  text escaped as srv1's.

Stet does not write these formats.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from editor.core.document.text import unescape
from editor.core.document.transcript import Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import MAX_JSON_BYTES, PathLike, decode_utf8, parse_json, read_bytes
from editor.core.formats.subtitles.reading import transcript_from_cues
from editor.core.formats.subtitles.srv3 import parse_xml, transcript_from_timedtext
from editor.core.formats.txt import read_source

#: json3's pen fields and the srv3 attributes they stand for (italics, bold, underline; colour apart)
_PEN_FLAGS = {"iAttr": "i", "bAttr": "b", "uAttr": "u"}
_SECONDS = re.compile(r"\s*\d{1,12}(?:\.\d{1,9})?\s*")


def read_json3(path: PathLike) -> Transcript:
    data = parse_json(decode_utf8(read_bytes(path, MAX_JSON_BYTES), path), path)
    return transcript_from_json3(data, path)


def is_json3(data: Any) -> bool:
    """Whether parsed JSON is YouTube's json3 (its ``wireMagic``, or events timed in ``tStartMs``)."""
    if not isinstance(data, dict) or not isinstance(data.get("events"), list):
        return False
    return data.get("wireMagic") == "pb3" or any(
        isinstance(e, dict) and "tStartMs" in e for e in data["events"][:20])


def transcript_from_json3(data: Any, path: PathLike) -> Transcript:
    if not isinstance(data, dict) or not isinstance(data.get("events"), list):
        raise FormatError(path, 'this is not YouTube\'s json3: no list of "events"')
    root = ET.Element("timedtext", format="3")
    head, body = ET.SubElement(root, "head"), ET.SubElement(root, "body")
    pens = data.get("pens")
    for n, pen in enumerate(pens if isinstance(pens, list) else []):
        if isinstance(pen, dict):
            ET.SubElement(head, "pen", _pen_attributes(pen, n, path))
    for n, event in enumerate(data["events"], 1):
        if not isinstance(event, dict):
            raise FormatError(path, f"event {n} is {_kind(event)}, not an object")
        segs = event.get("segs")
        if segs is None:  # a window's definition: no words
            continue
        if not isinstance(segs, list):
            raise FormatError(path, f'event {n}: "segs" is {_kind(segs)}, not a list')
        p = ET.SubElement(body, "p", _attributes(event, {"tStartMs": "t", "dDurationMs": "d",
                                                         "pPenId": "p"}, f"event {n}", path))
        for seg in segs:
            if not isinstance(seg, dict) or not isinstance(seg.get("utf8", ""), str):
                raise FormatError(path, f"event {n}: a segment is not an object with text")
            s = ET.SubElement(p, "s", _attributes(seg, {"tOffsetMs": "t", "pPenId": "p"},
                                                  f"event {n}", path))
            s.text = seg.get("utf8", "")
    return transcript_from_timedtext(root, path, [], "json3")


def _attributes(item: dict[str, Any], names: dict[str, str], where: str,
                path: PathLike) -> dict[str, str]:
    """srv3's attributes (text) from json3's fields (whole numbers); anything else is a
    FormatError naming the field."""
    out = {}
    for key, attribute in names.items():
        value = item.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise FormatError(path, f"{where}: {key} is {_kind(value)}, not a number of milliseconds")
        out[attribute] = str(value)
    return out


def _pen_attributes(pen: dict[str, Any], n: int, path: PathLike) -> dict[str, str]:
    out = {"id": str(n)}
    for key, attribute in _PEN_FLAGS.items():
        if pen.get(key) in (1, True):
            out[attribute] = "1"
    colour = pen.get("fcForeColor")
    if isinstance(colour, int) and not isinstance(colour, bool) and 0 <= colour <= 0xFFFFFF:
        out["fc"] = f"#{colour:06X}"
    return out


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, str):
        return f"the text {value[:20]!r}"
    return {dict: "an object", list: "a list", type(None): "null"}.get(type(value), f"{value!r}"[:20])


def read_srv1(path: PathLike, encoding: str | None = None) -> Transcript:
    return _read_text_elements(path, encoding, "transcript", ("start", "dur"), 1000, "srv1")


def read_srv2(path: PathLike, encoding: str | None = None) -> Transcript:
    return _read_text_elements(path, encoding, "timedtext", ("t", "d"), 1, "srv2")


def _read_text_elements(path: PathLike, encoding: str | None, root_tag: str,
                        names: tuple[str, str], scale: int, fmt: str) -> Transcript:
    """srv1 and srv2: each ``<text>`` a cue, its times in the attributes ``names`` (seconds for
    srv1, ``scale`` 1000; milliseconds for srv2), its text's references escaped twice. Read as
    the srv3 paragraphs they stand for."""
    text, warnings, _source = read_source(path, encoding)
    if not text.strip():
        return transcript_from_cues([], path, warnings, fmt)
    source = parse_xml(text, path)
    if source.tag != root_tag:
        raise FormatError(path, f"this is not YouTube's {fmt}: the root element is not <{root_tag}>")
    root = ET.Element("timedtext", format="3")
    body = ET.SubElement(root, "body")
    for n, element in enumerate(source.iter("text"), 1):
        attributes = {}
        for name, attribute in zip(names, ("t", "d")):
            value = element.get(name)
            if value is None:
                continue
            if not _SECONDS.fullmatch(value) or (scale == 1 and "." in value):
                raise FormatError(path, f"text {n}: the time {value[:20]!r} is not a number of "
                                  f"{'seconds' if scale == 1000 else 'milliseconds'}")
            attributes[attribute] = str(round(float(value) * scale))
        p = ET.SubElement(body, "p", attributes)
        p.text = unescape("".join(element.itertext()))
    return transcript_from_timedtext(root, path, warnings, fmt)
