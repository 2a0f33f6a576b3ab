"""Markdown: one paragraph per paragraph, speaker names in bold, optional timestamps; read back."""

from __future__ import annotations

import re

from editor.core.document.transcript import Metadata, Transcript
from editor.core.formats._common import PathLike, atomic_write, format_clock
from editor.core.formats.txt import read_text, transcript_of_blocks
from editor.core.formats.subtitles.writing import color_of, colons_not_bold, styled_runs, word_styles
from editor.core.render import NONE, RenderPolicy, render_paragraphs, turn_time

_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~])")


def escape_md(text: str) -> str:
    return _SPECIAL.sub(r"\\\1", text)


def write_md(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE, *,
             timestamps: bool = False, speakers: bool = True, turn_times: bool = False) -> list[str]:
    """Paragraphs with "**Ann:** " where the speaker changes; a subtitle's italics, bold,
    strike-through and underline as ``*a*``, ``**a**``, ``~~a~~`` and ``<u>a</u>``. Returns a
    warning when colours were left out (Markdown has none). ``turn_times``: "`[00:12:34]` "
    before the name where a speaker takes over (`editor.core.render.turn_time`)."""
    out = []
    previous = None
    styles = word_styles(transcript, policy)
    colored = False
    for speaker, words in render_paragraphs(transcript, policy):
        runs = styled_runs(words, styles)
        named = bool(speakers and speaker and speaker != previous)
        colored = colored or any(color_of(style) for _, style in runs)
        text = "".join(_emphasised(escape_md(t), style) for t, style in
                       (runs if named else colons_not_bold(runs)))
        if timestamps and words[0].start is not None:
            text = f"`[{format_clock(words[0].start, separator='')}]` {text}"
        if named and speaker:
            text = f"**{escape_md(speaker)}:** {text}"
        if turn_times and speaker and speaker != previous and (stamp := turn_time(words)):
            text = f"`{stamp}` {text}"
        previous = speaker
        out.append(text)
    atomic_write(path, ("\n\n".join(out) + "\n").encode("utf-8"))
    return ["colours are not carried in Markdown; italics, bold and underline are"] if colored else []


def _emphasised(text: str, style: frozenset[str]) -> str:
    """``text`` (escaped) in the Markdown of ``style``, the space around it outside the marks."""
    core = text.strip(" ")
    if not core:
        return text
    opening = ("~~" if "s" in style else "") + ("**" if "b" in style else "") + (
        "*" if "i" in style else "") + ("<u>" if "u" in style else "")
    closing = ("</u>" if "u" in style else "") + ("*" if "i" in style else "") + (
        "**" if "b" in style else "") + ("~~" if "s" in style else "")
    lead = text[:len(text) - len(text.lstrip(" "))]
    trail = text[len(text.rstrip(" ")):]
    return f"{lead}{opening}{core}{closing}{trail}"


_BOLD_NAME = re.compile(r"^\*\*((?:\\.|[^*\\\n])+?):\*\*[ \t]*")
_CLOCK = re.compile(r"^`\[[0-9:.,]+\]`[ \t]*")
_ESCAPED = re.compile(r"\\([\\`*_\[\]<>#|~])")
#: What Markdown marks styles with (an escaped character is text: Stet escapes "*", "~", "<")
_EMPHASIS = re.compile(r"\\.|\*+|~~|</?u>")


def read_md(path: PathLike, encoding: str | None = None) -> Transcript:
    """Markdown as Stet writes it (and as people write transcripts in it): paragraphs parted by
    blank lines, "**Ann:** " where a speaker starts, "`[0:01:02]` " timestamps left out, the
    marks escaped with a backslash read as the marks, emphasis (``*a*``, ``**a**``, ``~~a~~``,
    ``<u>a</u>``) read as its words (a transcript keeps styles only by subtitle cue)."""
    text, warnings = read_text(path, encoding)
    blocks: list[tuple[str | None, str]] = []
    for paragraph in _BLANK_LINE.split(text):
        if not paragraph.strip():
            continue
        paragraph = _CLOCK.sub("", paragraph.lstrip())  # a turn's time before the name
        found = _BOLD_NAME.match(paragraph)
        rest = paragraph[found.end():] if found else paragraph
        rest = _CLOCK.sub("", rest.lstrip())
        name = _ESCAPED.sub(r"\1", found.group(1)).strip() if found else None
        rest = _EMPHASIS.sub(lambda m: m.group(0) if m.group(0).startswith("\\") else "", rest)
        blocks.append((name or None, _ESCAPED.sub(r"\1", rest)))
    return transcript_of_blocks(blocks, Metadata(source_file=str(path), warnings=tuple(warnings)))
