"""Markdown: one paragraph per paragraph, speaker names in bold, optional timestamps."""

from __future__ import annotations

import re

from editor.core.document import Transcript
from editor.core.formats._common import PathLike, atomic_write, format_clock
from editor.core.render import NONE, RenderPolicy, join_rendered, render_paragraphs

_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~])")


def escape_md(text: str) -> str:
    return _SPECIAL.sub(r"\\\1", text)


def write_md(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE, *,
             timestamps: bool = False, speakers: bool = True) -> None:
    out = []
    previous = None
    for speaker, words in render_paragraphs(transcript, policy):
        text = escape_md(join_rendered(words))
        if timestamps and words[0].start is not None:
            text = f"`[{format_clock(words[0].start, separator='')}]` {text}"
        if speakers and speaker and speaker != previous:
            text = f"**{escape_md(speaker)}:** {text}"
        previous = speaker
        out.append(text)
    atomic_write(path, ("\n\n".join(out) + "\n").encode("utf-8"))
