"""Markdown: one paragraph per paragraph, speaker names in bold, optional timestamps; read back."""

from __future__ import annotations

import re

from editor.core.document import Metadata, Transcript
from editor.core.formats._common import PathLike, atomic_write, format_clock
from editor.core.formats.txt import read_text, transcript_of_blocks
from editor.core.render import NONE, RenderPolicy, join_rendered, render_paragraphs

_BLANK_LINE = re.compile(r"\n[ \t]*\n")
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


_BOLD_NAME = re.compile(r"^\*\*((?:\\.|[^*\\\n])+?):\*\*[ \t]*")
_CLOCK = re.compile(r"^`\[[0-9:.,]+\]`[ \t]*")
_ESCAPED = re.compile(r"\\([\\`*_\[\]<>#|~])")


def read_md(path: PathLike, encoding: str | None = None) -> Transcript:
    """Markdown as Stet writes it (and as people write transcripts in it): paragraphs parted by
    blank lines, "**Ann:** " where a speaker starts, "`[0:01:02]` " timestamps left out, the
    marks escaped with a backslash read as the marks."""
    text, warnings = read_text(path, encoding)
    blocks: list[tuple[str | None, str]] = []
    for paragraph in _BLANK_LINE.split(text):
        if not paragraph.strip():
            continue
        found = _BOLD_NAME.match(paragraph.lstrip())
        rest = paragraph.lstrip()[found.end():] if found else paragraph
        rest = _CLOCK.sub("", rest.lstrip())
        name = _ESCAPED.sub(r"\1", found.group(1)).strip() if found else None
        blocks.append((name or None, _ESCAPED.sub(r"\1", rest)))
    return transcript_of_blocks(blocks, Metadata(source_file=str(path), warnings=tuple(warnings)))
