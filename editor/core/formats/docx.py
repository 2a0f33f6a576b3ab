"""Word documents (python-docx): paragraphs, optional speaker names and timestamps; read back."""

from __future__ import annotations

import io
import re
import zipfile

import docx

from editor.core.document import Metadata, Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import PathLike, atomic_write, format_clock, read_bytes
from editor.core.formats.txt import transcript_of_blocks
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


_CLOCK = re.compile(r"^\[[0-9:.,]+\][ \t]*")


def read_docx(path: PathLike) -> Transcript:
    """A Word document's paragraphs as Stet writes them (and as transcripts are typed): a bold
    "Ann: " at a paragraph's start is who speaks from there, an italic "[0:01:02] " timestamp is
    left out. Tables, headers and footnotes are not read."""
    from docx.opc.exceptions import PackageNotFoundError

    data = read_bytes(path)
    try:
        document = docx.Document(io.BytesIO(data))
    except (PackageNotFoundError, KeyError, ValueError, zipfile.BadZipFile) as err:
        raise FormatError(path, f"this is not a Word document (.docx) Stet can read ({err})") from None
    blocks: list[tuple[str | None, str]] = []
    for paragraph in document.paragraphs:
        runs = list(paragraph.runs)
        name = None
        bold = ""
        while runs and runs[0].bold and ":" not in bold:
            bold += runs.pop(0).text
        if bold and ":" in bold:
            head, _, tail = bold.partition(":")
            name = " ".join(head.split()) or None
            text = tail + "".join(r.text for r in runs)
        else:
            text = paragraph.text
        text = _CLOCK.sub("", text.lstrip())
        if text.strip():
            blocks.append((name, text))
    return transcript_of_blocks(blocks, Metadata(source_file=str(path)))
