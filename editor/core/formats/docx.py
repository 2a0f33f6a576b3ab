"""Word documents (python-docx): paragraphs, optional speaker names and timestamps; read back."""

from __future__ import annotations

import io
import re
import zipfile
from typing import Any

import docx
from docx.shared import RGBColor

from editor.core.document import Metadata, Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import PathLike, atomic_write, format_clock, read_bytes
from editor.core.formats.cue_writing import color_of, colons_not_bold, styled_runs, word_styles
from editor.core.formats.stamped import stamped_transcript
from editor.core.formats.txt import transcript_of_blocks
from editor.core.render import NONE, RenderPolicy, render_paragraphs


def write_docx(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE, *,
               timestamps: bool = False, speakers: bool = True) -> None:
    document = docx.Document()
    if transcript.metadata.source_file:
        document.core_properties.title = transcript.metadata.source_file
    previous = None
    styles = word_styles(transcript, policy)
    for speaker, words in render_paragraphs(transcript, policy):
        paragraph = document.add_paragraph()
        named = bool(speakers and speaker and speaker != previous)
        if named:
            paragraph.add_run(f"{speaker}: ").bold = True
        previous = speaker
        if timestamps and words[0].start is not None:
            paragraph.add_run(f"[{format_clock(words[0].start, separator='')}] ").italic = True
        runs = styled_runs(words, styles)
        if not named:
            runs = colons_not_bold(runs)  # a bold "Note:" first would read back as a speaker
        for text, style in runs:
            _add_styled_run(paragraph, _xml_safe(text), style)
    buffer = io.BytesIO()
    document.save(buffer)
    atomic_write(path, buffer.getvalue())


def _add_styled_run(paragraph: Any, text: str, style: frozenset[str]) -> None:
    """A run of ``text`` in italics, bold, underline, strike-through and colour as ``style`` says."""
    run = paragraph.add_run(text)
    if "i" in style:
        run.italic = True
    if "b" in style:
        run.bold = True
    if "u" in style:
        run.underline = True
    if "s" in style:
        run.font.strike = True
    color = color_of(style)
    if color:
        run.font.color.rgb = RGBColor.from_string(color.upper())


def _xml_safe(text: str) -> str:
    """XML 1.0 cannot hold most control characters; python-docx would raise on them."""
    return "".join(ch for ch in text if ch >= " " or ch in "\t\n")


_CLOCK = re.compile(r"^\[[0-9:.,]+\][ \t]*")
#: Most a .docx may unpack to: a transcript's text is a few MB; more is a zip bomb or not one.
MAX_UNPACKED = 256 * 2**20


def read_docx(path: PathLike) -> Transcript:
    """A Word document's paragraphs as Stet writes them (and as transcripts are typed): a bold
    "Ann: " at a paragraph's start is who speaks from there, an italic "[0:01:02] " timestamp is
    left out. Without bold names, times and names as Teams, Otter and Rev write them are read as
    plain text's are (`stamped`). Tables, headers and footnotes are not read."""
    data = read_bytes(path)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, ValueError, OSError) as err:
        raise FormatError(path, f"this is not a Word document (.docx): {err}") from None
    if unpacked > MAX_UNPACKED:
        raise FormatError(path, f"this Word document unpacks to {unpacked // 2**20} MB; Stet reads "
                          f"up to {MAX_UNPACKED // 2**20} MB")
    try:
        document = docx.Document(io.BytesIO(data))
        blocks = _blocks(document)
        text = "\n\n".join(paragraph.text for paragraph in document.paragraphs)
    except Exception as err:  # noqa: BLE001 - zip, XML and python-docx's own: the user needs one line
        raise FormatError(path, f"this Word document cannot be read ({type(err).__name__}: "
                          f"{str(err)[:80]})") from None
    metadata = Metadata(source_file=str(path))
    if not any(name for name, _ in blocks):  # times and names as text (Teams, Otter, Rev)
        stamped = stamped_transcript(text, metadata)
        if stamped is not None:
            return stamped
    return transcript_of_blocks(blocks, metadata)


def _blocks(document: Any) -> list[tuple[str | None, str]]:
    """(speaker who starts it or None, text) of each paragraph with text."""
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
    return blocks
