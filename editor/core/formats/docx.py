"""Word documents (python-docx): paragraphs, optional speaker names and timestamps; read back."""

from __future__ import annotations

import datetime
import getpass
import io
import os
import re
import zipfile
from pathlib import Path
from typing import Any

import docx
from docx.shared import RGBColor

from editor.core.document.transcript import Metadata, Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import PathLike, atomic_write, format_clock, read_bytes
from editor.core.formats.subtitles.writing import color_of, colons_not_bold, styled_runs, word_styles
from editor.core.formats.stamped import stamped_transcript
from editor.core.formats.txt import transcript_of_blocks
from editor.core.render import NONE, RenderedWord, RenderPolicy, join_rendered, render_paragraphs, turn_time


def system_author() -> str:
    """The person's name as the system knows it: the full name of their account (the first field
    of its GECOS entry), else the login name; "" where neither can be had."""
    try:
        import pwd  # (POSIX only)

        entry = pwd.getpwuid(os.getuid())
        return entry.pw_gecos.split(",")[0].strip() or entry.pw_name
    except (ImportError, KeyError, OSError):
        try:
            return getpass.getuser()
        except (ImportError, KeyError, OSError):
            return ""


#: A first paragraph this short, and not ending a sentence, is a heading ("Interview with Ann Lee").
_TITLE_WORDS = 12


def document_title(paragraphs: list[tuple[str | None, list[RenderedWord]]], source: str | None,
                   path: PathLike) -> str:
    """The title a Word document gets: the first of its ``paragraphs`` where it reads as a heading
    (short, no sentence end, more text after it), else the name of the ``source`` file without its
    extension, else the exported file's."""
    if len(paragraphs) > 1:
        words = paragraphs[0][1]
        text = join_rendered(words).strip()
        if 0 < len(words) <= _TITLE_WORDS and not text.endswith((".", "?", "!", ",", ";", ":", "…")):
            return text
    return Path(source).stem if source else Path(path).stem


def write_docx(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE, *,
               timestamps: bool = False, speakers: bool = True, author: str | None = None,
               turn_times: bool = False) -> None:
    """``author``: the name the document's properties give (None: the system's, ``system_author``).
    ``turn_times``: "[00:12:34] " before the name where a speaker takes over
    (`editor.core.render.turn_time`), as noScribe writes it."""
    document = docx.Document()
    # python-docx's template says it was written by "python-docx" on 2013-12-23, titled
    # whatever it was: the file's own properties say who, when and what instead.
    properties = document.core_properties
    now = datetime.datetime.now(datetime.UTC).replace(microsecond=0, tzinfo=None)
    name = system_author() if author is None else author
    properties.author = name
    properties.last_modified_by = name
    properties.created = now
    properties.modified = now
    properties.revision = 1
    paragraphs = render_paragraphs(transcript, policy)
    properties.title = document_title(paragraphs, transcript.metadata.source_file, path)
    properties.comments = ""
    properties.keywords = ""
    properties.subject = ""
    properties.category = ""
    previous = None
    styles = word_styles(transcript, policy)
    for speaker, words in paragraphs:
        paragraph = document.add_paragraph()
        named = bool(speakers and speaker and speaker != previous)
        if turn_times and speaker and speaker != previous and (stamp := turn_time(words)):
            _add_styled_run(paragraph, f"{stamp} ", _PLAIN)
        if named:
            _add_styled_run(paragraph, f"{speaker}: ", _BOLD)
        previous = speaker
        if timestamps and words[0].start is not None:
            _add_styled_run(paragraph, f"[{format_clock(words[0].start, separator='')}] ", _ITALIC)
        runs = styled_runs(words, styles)
        if not named:
            runs = colons_not_bold(runs)  # a bold "Note:" first would read back as a speaker
        for text, style in runs:
            _add_styled_run(paragraph, _xml_safe(text), style)
    buffer = io.BytesIO()
    document.save(buffer)
    atomic_write(path, buffer.getvalue())


_PLAIN: frozenset[str] = frozenset()
_BOLD, _ITALIC = frozenset({"b"}), frozenset({"i"})
_TABS_AND_LINES = re.compile(r"([\t\n])")


def _add_styled_run(paragraph: Any, text: str, style: frozenset[str]) -> None:
    """A run of ``text`` in italics, bold, underline, strike-through and colour as ``style`` says.

    Its text goes in as python-docx's ``Run.text`` puts it (a tab as ``<w:tab/>``, a line end as
    ``<w:br/>``, the rest in ``<w:t>``), by the run's own ``add_tab``, ``add_break`` and
    ``add_text``: ``Run.text`` first clears the new run with an XPath query, and a thread making
    hundreds of runs that way kept the interpreter (the GIL) from the window's thread for 40-190 ms
    at a time while a long transcript was exported (tests/perf/bench_gui_stalls.py); it also
    looked at every character in Python."""
    run = paragraph.add_run()
    for piece in _TABS_AND_LINES.split(text):
        if piece == "\t":
            run.add_tab()
        elif piece == "\n":
            run.add_break()
        elif piece:
            run.add_text(piece)
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


#: Most paragraphs and runs (``<w:p>``, ``<w:r>``) a .docx may hold. python-docx takes about 37 µs
#: of processor time for each, and 60 bytes of memory per byte of XML (measured 2026-12-06 on a
#: loaded machine: 2 MB of empty paragraphs, 350,000 of them, 13 s and 126 MB), so a zip of a few
#: kilobytes that unpacked to 40 MB of them took minutes and gigabytes. At the limit, 961,000 empty
#: paragraphs took 30 s and 330 MB; a transcript Stet writes has a paragraph a turn (100,000
#: words: 1,700 paragraphs, read in 0.6 s).
MAX_ELEMENTS = 1_000_000
#: A paragraph or a run, whatever the namespace's prefix
_ELEMENT = re.compile(rb"<(?:[\w.-]+:)?[pr][\s/>]")


def _paragraphs_and_runs(archive: zipfile.ZipFile) -> int:
    """About how many paragraphs and runs the XML parts hold (one cut between two megabytes read
    is not counted), read a megabyte at a time, stopping past MAX_ELEMENTS."""
    count = 0
    for info in archive.infolist():
        if info.filename.lower().endswith(".xml"):
            with archive.open(info) as part:
                while count <= MAX_ELEMENTS and (chunk := part.read(1 << 20)):
                    count += len(_ELEMENT.findall(chunk))
    return count


def read_docx(path: PathLike) -> Transcript:
    """A Word document's paragraphs as Stet writes them (and as transcripts are typed): a bold
    "Ann: " at a paragraph's start is who speaks from there, an italic "[0:01:02] " timestamp is
    left out. Without bold names, times and names as Teams, Otter and Rev write them are read as
    plain text's are (`stamped`). Tables, headers and footnotes are not read."""
    data = read_bytes(path)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
            if unpacked > MAX_UNPACKED:
                raise FormatError(path, f"this Word document unpacks to {unpacked // 2**20} MB; Stet "
                                  f"reads up to {MAX_UNPACKED // 2**20} MB")
            elements = _paragraphs_and_runs(archive)
    except (zipfile.BadZipFile, ValueError, OSError, EOFError) as err:
        raise FormatError(path, f"this is not a Word document (.docx): {err}") from None
    if elements > MAX_ELEMENTS:
        raise FormatError(path, f"this Word document holds more than {MAX_ELEMENTS:,} paragraphs and "
                          "runs of text; Stet reads Word documents up to that size (save it as text)")
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
        timed = bool(runs) and not runs[0].bold and _CLOCK.fullmatch(runs[0].text) is not None
        if timed:  # a turn's time before the name
            runs.pop(0)
        name = None
        bold = ""
        while runs and runs[0].bold and ":" not in bold:
            bold += runs.pop(0).text
        if bold and ":" in bold:
            head, _, tail = bold.partition(":")
            name = " ".join(head.split()) or None
            text = tail + "".join(r.text for r in runs)
        else:
            text = "".join(r.text for r in runs) if timed else paragraph.text
        text = _CLOCK.sub("", text.lstrip())
        if text.strip():
            blocks.append((name, text))
    return blocks
