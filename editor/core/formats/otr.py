"""oTranscribe projects (.otr): JSON whose ``text`` is the editor's HTML, with timestamps as
``<span class="timestamp" data-timestamp="12.3">0:12</span>``. Paragraphs (<p>, <div>, <br>)
start paragraphs; the words after a timestamp are spread up to the next one. No library reads
the format; the standard library's JSON and HTML parsers do the work."""

from __future__ import annotations

import math
from html.parser import HTMLParser
from typing import Any

from editor.core.document.transcript import Metadata, Spread, Token, Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import MAX_SECONDS, PathLike, parse_json, spread
from editor.core.formats.txt import read_text
from editor.core.document.text import split_words

_BLOCKS = {"p", "div", "br", "li", "h1", "h2", "h3", "h4", "h5", "h6"}


class _Collector(HTMLParser):
    """Runs of text with the timestamp before them and whether they begin a paragraph."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.runs: list[list[Any]] = [[None, True, ""]]  # [time, new paragraph, text]
        self._in_stamp = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag in _BLOCKS:
            self.runs.append([self.runs[-1][0], True, ""])
        if tag == "span" and "timestamp" in (values.get("class") or "").split():
            self._in_stamp += 1
            try:
                t = float(values.get("data-timestamp") or "nan")
            except ValueError:
                t = math.nan
            if math.isfinite(t) and 0 <= t <= MAX_SECONDS:
                self.runs.append([t, False, ""])
        elif tag == "span" and self._in_stamp:
            self._in_stamp += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "span" and self._in_stamp:
            self._in_stamp -= 1
        elif tag in _BLOCKS:
            self.runs.append([self.runs[-1][0], True, ""])

    def handle_data(self, data: str) -> None:
        if not self._in_stamp:
            self.runs[-1][2] += data


def read_otr(path: PathLike, encoding: str | None = None) -> Transcript:
    text, warnings = read_text(path, encoding)
    data = parse_json(text, path) if text.strip() else {"text": ""}
    if not isinstance(data, dict) or not isinstance(data.get("text"), str):
        raise FormatError(path, "this is not an oTranscribe file: no \"text\"")
    collector = _Collector()
    collector.feed(data["text"])
    collector.close()
    tokens: list[Token] = []
    starts: list[int] = []
    pending_break = True
    runs = collector.runs
    for n, (t, new_para, chunk) in enumerate(runs):
        pending_break = pending_break or new_para
        pieces = split_words(chunk)
        if not pieces:
            continue
        nxt = next((r[0] for r in runs[n + 1:] if r[0] is not None and t is not None and r[0] > t),
                   None)
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
