"""Plain text: read in whatever encoding it came in; write the clean text."""

from __future__ import annotations

import re

from editor.core.document import Metadata, Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import PathLike, atomic_write, read_bytes
from editor.core.formats.encodings import decode_text
from editor.core.render import NONE, RenderPolicy, render
from editor.core.text import strip_controls

_BINARY = re.compile("[\x00-\x08\x0e-\x1f]")
#: Share of control characters above which text is taken for a binary file.
_MAX_CONTROL_SHARE = 0.05


def read_text(path: PathLike, encoding: str | None = None) -> tuple[str, list[str]]:
    """A text file's contents with "\n" line ends and no control characters, and the guesses
    made decoding it (none when ``encoding`` is given); a binary file is a FormatError."""
    text, warnings = decode_text(read_bytes(path), path, encoding)
    controls = len(_BINARY.findall(text))
    if text and controls > _MAX_CONTROL_SHARE * len(text):
        raise FormatError(path, "this looks like a binary file, not text")
    return strip_controls(text.replace("\r\n", "\n").replace("\r", "\n")), warnings


def read_txt(path: PathLike, encoding: str | None = None) -> Transcript:
    """Blank lines separate paragraphs (or, with none, every line is one); punctuation and
    capitals already in the text become the tokens' current state."""
    text, warnings = read_text(path, encoding)
    return Transcript.from_text(text, Metadata(source_file=str(path), warnings=tuple(warnings)))


def write_txt(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE) -> None:
    atomic_write(path, (render(transcript, policy) + "\n").encode("utf-8"))
