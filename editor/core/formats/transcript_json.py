"""``.json`` export: the transcript as the user sees it, in the shape openai-whisper writes, so
Whisper tools and Stet read it back. Documented in the README::

    {"generator": "stet 0.x", "language": "en", "text": "Hello, world. ...",
     "segments": [{"id": 0, "start": 0.0, "end": 1.5, "speaker": "Ann",
                   "text": "Hello, world.",
                   "words": [{"word": "Hello,", "start": 0.0, "end": 0.8, "probability": 0.9},
                             ...]}]}

A segment is a paragraph; a word is written as shown (capitals, punctuation after it). Times
and speaker are left out where unknown; ``probability`` is the recogniser's confidence.
"""

from __future__ import annotations

import json
from typing import Any

from editor import __version__
from editor.core.document import Transcript
from editor.core.formats._common import PathLike, atomic_write
from editor.core.render import NONE, RenderPolicy, join_rendered, render, render_paragraphs

GENERATOR = "stet"


def write_json(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE) -> None:
    segments = []
    for n, (speaker, words) in enumerate(render_paragraphs(transcript, policy)):
        items = []
        for w in words:
            item: dict[str, Any] = {"word": w.text}
            if w.start is not None:
                item.update(start=round(w.start, 3), end=round(w.end if w.end is not None else w.start, 3))
            confidence = transcript[w.index].confidence
            if confidence is not None:
                item["probability"] = round(confidence, 4)
            items.append(item)
        segment: dict[str, Any] = {"id": n}
        times = [(w.start, w.end) for w in words if w.start is not None]
        if times:
            (first, _), (last_start, last_end) = times[0], times[-1]
            segment.update(start=round(first, 3), end=round(last_end or last_start, 3))
        if speaker:
            segment["speaker"] = speaker
        segment.update(text=join_rendered(words), words=items)
        segments.append(segment)
    data: dict[str, Any] = {"generator": f"{GENERATOR} {__version__}"}
    if transcript.metadata.language:
        data["language"] = transcript.metadata.language
    data.update(text=render(transcript, policy, speakers=False), segments=segments)
    atomic_write(path, (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))
