"""oTranscribe projects (.otr): JSON whose ``text`` is the editor's HTML, with timestamps as
``<span class="timestamp" data-timestamp="12.3">0:12</span>``. Paragraphs (<p>, <div>, <br>)
start paragraphs; the words after a timestamp are spread up to the next one. No library reads
the format; the standard library's JSON parser and libxml2's HTML parser (`_html`) do the work."""

from __future__ import annotations

import math
from collections.abc import Mapping

from editor.core.document.transcript import Metadata, Spread, Token, Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import MAX_SECONDS, PathLike, parse_json, spread
from editor.core.formats._html import parse_html, walk
from editor.core.formats.txt import read_text
from editor.core.document.text import split_words

_BLOCKS = {"p", "div", "br", "li", "h1", "h2", "h3", "h4", "h5", "h6"}


class _Collector:
    """Runs of text with the timestamp before them and whether they begin a paragraph."""

    def __init__(self) -> None:
        self.runs: list[tuple[float | None, bool, list[str]]] = [(None, True, [])]  # time, new
        # paragraph, pieces of text (joined once: adding to a string copies it every time)
        self._in_stamp = 0

    def start(self, tag: str, attrs: Mapping[str, str]) -> None:
        if tag in _BLOCKS:
            self.runs.append((self.runs[-1][0], True, []))
        if tag == "span" and "timestamp" in (attrs.get("class") or "").split():
            self._in_stamp += 1
            try:
                t = float(attrs.get("data-timestamp") or "nan")
            except ValueError:
                t = math.nan
            if math.isfinite(t) and 0 <= t <= MAX_SECONDS:
                self.runs.append((t, False, []))
        elif tag == "span" and self._in_stamp:
            self._in_stamp += 1

    def end(self, tag: str) -> None:
        if tag == "span" and self._in_stamp:
            self._in_stamp -= 1
        elif tag in _BLOCKS:
            self.runs.append((self.runs[-1][0], True, []))

    def data(self, text: str) -> None:
        if not self._in_stamp:
            self.runs[-1][2].append(text)


def read_otr(path: PathLike, encoding: str | None = None) -> Transcript:
    text, warnings = read_text(path, encoding)
    data = parse_json(text, path) if text.strip() else {"text": ""}
    if not isinstance(data, dict) or not isinstance(data.get("text"), str):
        raise FormatError(path, "this is not an oTranscribe file: no \"text\"")
    collector = _Collector()
    root = parse_html(data["text"], path) if data["text"].strip() else None
    if root is not None:
        walk(root, collector)
    tokens: list[Token] = []
    starts: list[int] = []
    pending_break = True
    runs = collector.runs
    later = _next_later(runs)
    for n, (t, new_para, chunks) in enumerate(runs):
        pending_break = pending_break or new_para
        pieces = split_words("".join(chunks))
        if not pieces:
            continue
        nxt = later[n]
        if pending_break:
            starts.append(len(tokens))
            pending_break = False
        # up to the next timestamp: the end is that one's start, not when these words ended
        tokens.extend(spread(pieces, t, nxt, guessed=Spread.END) if t is not None and nxt is not None
                      else [Token(p.word, p.surface, p.punct) for p in pieces])
    media = data.get("media")
    return Transcript(tokens, paragraph_starts=starts, metadata=Metadata(
        source_file=str(path), warnings=tuple(warnings),
        extra={"otr_media": media} if isinstance(media, str) and media else {}))


def _next_later(runs: list[tuple[float | None, bool, list[str]]]) -> list[float | None]:
    """For each run, the first time after it that is later than its own (None where there is
    none, or it has no time): where its words end. One pass from the end with a stack of the
    times that may still be that answer, not a search of the runs after each (quadratic: 40,000
    timestamps took 24 s to read, now 1.4 s)."""
    later: list[float | None] = [None] * len(runs)
    # times further on that may be the answer: the nearest on top, each later than the one above
    stack: list[float] = []
    for n in range(len(runs) - 1, -1, -1):
        t = runs[n][0]
        if t is None:
            continue
        while stack and stack[-1] <= t:
            stack.pop()
        later[n] = stack[-1] if stack else None
        stack.append(t)
    return later
