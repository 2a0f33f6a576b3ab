"""``.json`` export: the transcript as the user sees it, in the shape openai-whisper writes, so
Whisper tools and Stet read it back. Documented in docs/formats.md::

    {"generator": "stet 0.x", "language": "en", "text": "Hello, world. ...",
     "segments": [{"id": 0, "start": 0.0, "end": 1.5, "speaker": "Ann",
                   "text": "Hello, world.",
                   "words": [{"word": "Hello,", "start": 0.0, "end": 0.8, "probability": 0.9},
                             ...]}]}

A word whose times Stet spread over its cue says which (``"spread": "start"``, ``"end"`` or
``"both"``: ``Token.spread``), so that Stet reading the file back shows no pause there.

A segment is a paragraph; a word is written as shown (capitals, punctuation after it). Times
and speaker are left out where unknown; ``probability`` is the recogniser's confidence. A
transcript read from subtitles or from Whisper's segments keeps them: each cue is a segment
with the cue's time (parted where a paragraph begins inside it; such a segment says
``"new_paragraph": false``), so Whisper tools and Stet see the same segments.
"""

from __future__ import annotations

import json
from typing import Any

from editor import __version__
from editor.core.document.transcript import Transcript
from editor.core.errors import UserError
from editor.core.formats._common import SPREAD_NAMES, PathLike, atomic_write
from editor.core.render import (NONE, RenderedWord, RenderPolicy, join_rendered, render,
                                render_paragraphs, render_words)

GENERATOR = "stet"


def write_json(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE) -> None:
    pieces = _cue_pieces(transcript, policy, path)
    if pieces is None:
        pieces = [(words, None, True) for _, words in render_paragraphs(transcript, policy)]
    segments = []
    for n, (words, times, new_paragraph) in enumerate(pieces):
        speaker = words[0].speaker if words else None
        items = []
        for w in words:
            item: dict[str, Any] = {"word": w.text}
            if w.start is not None:
                item.update(start=round(w.start, 3), end=round(w.end if w.end is not None else w.start, 3))
            token = transcript[w.index]
            if token.confidence is not None:
                item["probability"] = round(token.confidence, 4)
            if token.spread and w.start is not None:  # times spread over a cue: Stet reads it back so
                item["spread"] = SPREAD_NAMES[token.spread]
            items.append(item)
        segment: dict[str, Any] = {"id": n}
        known = [(w.start, w.end) for w in words if w.start is not None]
        if times is not None:
            segment.update(start=round(times[0], 3), end=round(times[1], 3))
        elif known:
            (first, _), (last_start, last_end) = known[0], known[-1]
            segment.update(start=round(first, 3), end=round(last_end or last_start, 3))
        if speaker:
            segment["speaker"] = speaker
        if not new_paragraph:
            segment["new_paragraph"] = False
        segment.update(text=join_rendered(words), words=items)
        segments.append(segment)
    data: dict[str, Any] = {"generator": f"{GENERATOR} {__version__}"}
    if transcript.metadata.language:
        data["language"] = transcript.metadata.language
    data.update(text=render(transcript, policy, speakers=False), segments=segments)
    atomic_write(path, (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))


def _cue_pieces(transcript: Transcript, policy: RenderPolicy, path: PathLike
                ) -> list[tuple[list[RenderedWord], tuple[float, float] | None, bool]] | None:
    """(words, time, whether they begin a paragraph) of each segment when the transcript keeps
    cues: a cue's words (parted where a paragraph or speaker begins inside them) with the cue's
    time at its ends (see `writing.run_times`). None without cues to keep."""
    from editor.core.formats.subtitles.writing import TimedWord, run_times, source_runs, timed_words

    if not transcript.metadata.cues:
        return None
    try:
        timed = timed_words(transcript, policy, path)
    except UserError:  # no word has a time: nothing to place a cue by
        return None
    runs = source_runs(transcript, timed)
    if runs is None:
        return None
    rendered = {w.index: w for w in render_words(transcript, policy)}
    count: dict[int, int] = {}
    for n, _ in runs:
        count[n] = count.get(n, 0) + 1
    out: list[tuple[list[RenderedWord], tuple[float, float] | None, bool]] = []
    for n, run in runs:
        if not run:
            continue  # a cue without words ("♪ ♪") has no words to write
        cue = transcript.metadata.cues[n]
        start, end = run_times(cue, run, count[n] == 1)
        parts: list[list[TimedWord]] = []
        for w in run:
            if not parts or w.paragraph_start or w.speaker != parts[-1][-1].speaker:
                parts.append([])
            parts[-1].append(w)
        for k, part in enumerate(parts):
            first = start if k == 0 else part[0].start
            last = end if k == len(parts) - 1 else part[-1].end
            out.append(([rendered[w.index] for w in part], (first, max(first, last)),
                        part[0].paragraph_start))
    return out
