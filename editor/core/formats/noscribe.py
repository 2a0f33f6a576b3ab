"""noScribe's transcripts (.html, its own format, as noScribe and noScribeEdit save them).

noScribe writes HTML from its own template: a title paragraph, a paragraph saying how it was
transcribed, then a paragraph per speaker's turn, each segment of speech an anchor that carries
its time and speaker, ``<a name="ts_12140_22800_S01">S01: <span>[00:00:12]</span> Guten Tag,
…</a>`` (start and end in milliseconds; versions before 0.4 wrote ``href="ts_12140_22800"`` and
the speaker only in the text). The label before a turn's words (``S01: ``), the timestamp shown
after it (``[00:00:12]``) and the ``//`` around overlapping speech (``//S02: Ja.`` inside
another's turn, ``// `` where the turn goes on) are how noScribe shows a segment's speaker and
time: they are read as such, not as words. A label renamed in noScribeEdit (``S00`` replaced by
``Ann``) names that speaker everywhere the anchors name ``S00``. Everything else in the body
(the title, the header, pauses noScribe marks as ``(..)`` or ``(12 seconds pause)``) is words.
An overlapping turn is its speaker's own paragraph. The recording noScribe names
(``<meta name="audio_source">``) is the transcript's where it is found (as written, or by its
name beside the file).

Parsed with libxml2's HTML parser (lxml, which python-docx already brings): linear in the file
whatever its markup; the standard library's ``html.parser`` takes time quadratic in runs of
unclosed tags (before Python 3.11.13: 20,000 ``<a b='x`` took it 58 s). Character references are
decoded; no DTD, entity or network is read. Stet does not write this format: Export offers .txt
with turn times, as noScribe's text.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from collections.abc import Mapping
from pathlib import Path

from editor.core.document.transcript import Metadata, Token, Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import PathLike, add_words
from editor.core.formats._html import parse_html, walk
from editor.core.formats.subtitles.prefixes import is_name
from editor.core.formats.txt import read_text

#: noScribe's segment anchor: "ts_" start "_" end (milliseconds), "_" speaker (empty for none,
#: "//" before it for overlapping speech); absent before version 0.4
_ANCHOR = re.compile(r"ts_(\d{1,15})_(\d{1,15})(?:_(.*))?", re.DOTALL)
#: the start of a segment's text: the overlap mark, a speaker's label, the timestamp shown
_OVERLAP = re.compile(r"\s*//")
_NAME_LABEL = re.compile(r"\s*([^\s:/\[][^:\n]{0,59}?):(?=\s)")
_STAMP = re.compile(r"\s*\[\d{1,3}:\d\d:\d\d\]")
#: the end of overlapping speech, at the end of its last segment ("Also hat es daran gelegen.//")
_CLOSING = re.compile(r"\s*//\s*\Z")
_BLOCKS = frozenset({"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "body", "table", "tr",
                     "td", "ul", "ol", "blockquote"})
_HIDDEN = frozenset({"head", "style", "script", "title"})


@dataclass(slots=True)
class _Run:
    anchor: str | None  # the segment's anchor ("ts_..."), None for text outside segments
    text: list[str] = field(default_factory=list)


class _Reader:
    """The body's blocks, each a list of runs of text, and the ``audio_source`` meta, from the
    start, text and end of each element in document order (`_html.walk`)."""

    def __init__(self) -> None:
        self.blocks: list[list[_Run]] = [[]]
        self.anchor: str | None = None
        self.hidden = 0
        self.audio: str | None = None
        self.anchors = 0

    def start(self, tag: str, attrs: Mapping[str, str]) -> None:
        if tag == "meta" and attrs.get("name") == "audio_source":
            self.audio = attrs.get("content", "")
        if tag in _HIDDEN:
            self.hidden += 1
        elif tag in _BLOCKS:
            self._new_block()
        elif tag == "br":
            self._run().text.append("\n")
        elif tag == "a":
            name = attrs.get("name") or attrs.get("href") or ""
            if _ANCHOR.fullmatch(name):
                self.anchor = name
                self.anchors += 1
                self.blocks[-1].append(_Run(name))  # each anchor its own segment, names alike or not

    def end(self, tag: str) -> None:
        if tag in _HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag in _BLOCKS:
            self._new_block()
        elif tag == "a" and self.anchor is not None:
            self.anchor = None
            self.blocks[-1].append(_Run(None))

    def data(self, text: str) -> None:
        if not self.hidden:
            self._run().text.append(text)

    def _run(self) -> _Run:
        block = self.blocks[-1]
        if not block or block[-1].anchor != self.anchor:
            block.append(_Run(self.anchor))
        return block[-1]

    def _new_block(self) -> None:
        self.anchor = None
        if self.blocks[-1]:
            self.blocks.append([])


def read_noscribe(path: PathLike, encoding: str | None = None) -> Transcript:
    text, warnings = read_text(path, encoding)
    if not text.strip():
        return Transcript(metadata=Metadata(source_file=str(path), warnings=tuple(warnings)))
    root = parse_html(text, path)
    if root is None:
        raise FormatError(path, "this HTML could not be read")
    reader = _Reader()
    walk(root, reader)
    if not reader.anchors:
        raise FormatError(path, "this HTML is not a noScribe transcript (it has no segments timed "
                          'as noScribe marks them, <a name="ts_...">); Stet reads noScribe\'s HTML only')
    tokens, starts, overlaps = _tokens(reader.blocks, str(path))
    warnings.append(f"read as noScribe's transcript: {reader.anchors} timed segments"
                    + (f", {overlaps} of them overlapping speech (noScribe's //), each its "
                       "speaker's own paragraph" if overlaps else ""))
    audio = _recording(reader.audio, Path(path), warnings)
    return Transcript(tokens, paragraph_starts=starts,
                      metadata=Metadata(source_file=str(path), audio_file=audio,
                                        warnings=tuple(warnings)))


def _tokens(blocks: list[list[_Run]], source: str) -> tuple[list[Token], list[int], int]:
    tokens: list[Token] = []
    starts: set[int] = set()
    turns = _Turns()
    for block in blocks:
        first = True  # the block's first segment: where noScribe puts a speaker's label
        for run in block:
            text = "".join(run.text)
            begin = end = None
            speaker = None
            if run.anchor is not None:
                found = _ANCHOR.fullmatch(run.anchor)
                assert found is not None
                begin, end = sorted((int(found.group(1)) / 1000, int(found.group(2)) / 1000))
                text, speaker = turns.segment(found.group(3), text, first)
            before = len(tokens)
            # a pause noScribe marks alone ("(..)") goes with the word before, as its text reads
            add_words(tokens, text, begin, end, speaker=speaker, path=source)
            if len(tokens) == before:
                continue
            if first or tokens[before - 1].speaker != speaker:  # a block, or a turn, begins
                starts.add(before)
            first = False
    return tokens, sorted(starts), turns.overlaps


class _Turns:
    """Who speaks each segment: its anchor's speaker, shown by the name its label gives that
    speaker; without one in the anchor (before noScribe 0.4), the label's, else the speaker
    before (or, after overlapping speech, the one it cut into)."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}  # the anchors' speaker ("S00") -> the name its label shows
        self.speaker: str | None = None
        self.resumed: str | None = None  # who speaks again when the overlap ends
        self.overlapping = False
        self.overlaps = 0

    def segment(self, field: str | None, text: str, first: bool) -> tuple[str, str | None]:
        """The segment's words (its label, timestamp and overlap marks taken off) and speaker."""
        key = (field or "").lstrip("/").strip() or None
        pos, named = 0, None
        mark = _OVERLAP.match(text)
        if mark:
            pos = mark.end()
        label = _NAME_LABEL.match(text, pos)
        # a label opens a turn; another name than the anchor's is that speaker renamed (or, in
        # files whose anchors name no one, the speaker); a file without speakers has no labels
        if label and (first or mark) and (label.group(1) == key or _shaped_as_name(label.group(1))
                                          and (key is not None or field is None)):
            named, pos = label.group(1), label.end()
        stamp = _STAMP.match(text, pos)
        if stamp:
            pos = stamp.end()
        words = text[pos:]
        closing = _CLOSING.search(words)
        if closing:
            words = words[:closing.start()]
        if named is not None and key is not None:
            self.names[key] = named
        starts_overlap = (field or "").startswith("//") or (mark is not None and named is not None)
        if starts_overlap:
            self.overlaps += 1
            if not self.overlapping:
                self.resumed = self.speaker
        if key is not None:
            speaker = self.names.get(key, key)
        elif named is not None:
            speaker = named
        elif field is not None:  # "ts_0_12140_": no one (a pause)
            speaker = None
        elif mark is not None:
            speaker = self.resumed  # "// ": the turn the overlap cut into goes on
        else:
            speaker = self.speaker
        self.overlapping = starts_overlap and closing is None
        # after "…//" (the overlap ends) the turn it cut into goes on
        self.speaker = self.resumed if starts_overlap and closing is not None else speaker
        return words, speaker


def _shaped_as_name(label: str) -> bool:
    """A label noScribe or a person gave a speaker: "S01", "Ann", "Dr. Jane Doe" (one to four
    words, capitalised)."""
    words = label.split()
    return 0 < len(words) <= 4 and is_name(label)


def _recording(named: str | None, source: Path, warnings: list[str]) -> str | None:
    """The recording noScribe transcribed, where it is found: as written, or by its name beside
    the transcript; else None (a recording named as the transcript may still be attached), said."""
    if not named or not named.strip():
        return None
    path = Path(os.path.expanduser(named.strip()))
    for candidate in ([path] if path.is_absolute() else []) + [source.parent / path.name,
                                                                source.parent / path]:
        try:
            if candidate.is_file():
                return os.fspath(candidate.resolve())
        except (OSError, ValueError):
            continue
    warnings.append(f"the recording noScribe transcribed ({path.name}) is not where the transcript "
                    "says, nor beside it")
    return None
