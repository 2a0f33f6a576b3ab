"""Word documents (python-docx): paragraphs, optional speaker names and timestamps."""

from __future__ import annotations

import io

import docx

from editor.core.document import Transcript
from editor.core.formats._common import PathLike, atomic_write, format_clock
from editor.core.render import NONE, RenderPolicy, join_rendered, render_paragraphs


def write_docx(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE, *,
               timestamps: bool = False, speakers: bool = True) -> None:
    document = docx.Document()
    if transcript.metadata.source_file:
        document.core_properties.title = transcript.metadata.source_file
    previous = None
    for speaker, words in render_paragraphs(transcript, policy):
        paragraph = document.add_paragraph()
        if speakers and speaker and speaker != previous:
            paragraph.add_run(f"{speaker}: ").bold = True
        previous = speaker
        if timestamps and words[0].start is not None:
            paragraph.add_run(f"[{format_clock(words[0].start, separator='')}] ").italic = True
        paragraph.add_run(_xml_safe(join_rendered(words)))
    buffer = io.BytesIO()
    document.save(buffer)
    atomic_write(path, buffer.getvalue())


def _xml_safe(text: str) -> str:
    """XML 1.0 cannot hold most control characters; python-docx would raise on them."""
    return "".join(ch for ch in text if ch >= " " or ch in "\t\n")
