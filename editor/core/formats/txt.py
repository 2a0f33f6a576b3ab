"""Plain text: read in whatever encoding it came in; write the clean text."""

from __future__ import annotations

import codecs
import re

from editor.core.document import Metadata, Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import PathLike, atomic_write, read_bytes
from editor.core.render import NONE, RenderPolicy, render
from editor.core.text import strip_controls

_BOMS = [  # longest first: the UTF-32 LE BOM begins with the UTF-16 LE one
    (codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
]
_BINARY = re.compile("[\x00-\x08\x0e-\x1f]")
#: Share of control characters above which text is taken for a binary file.
_MAX_CONTROL_SHARE = 0.05


def decode_text(data: bytes, path: PathLike) -> tuple[str, list[str]]:
    """Decode bytes of text; returns the text and warnings about guesses made."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom):].decode(encoding), []
            except UnicodeDecodeError as err:
                raise FormatError(path, f"the text is not valid {encoding.upper()} despite its "
                                  "byte-order mark", offset=err.start + len(bom)) from None
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError:
        pass
    utf16 = _guess_utf16(data)
    if utf16:
        try:
            return data.decode(utf16), [f"no byte-order mark; read as {utf16.upper()}"]
        except UnicodeDecodeError:
            pass
    nul = data.find(b"\0")
    if nul >= 0:
        raise FormatError(path, "contains NUL bytes; this is a binary file, not text", offset=nul)
    return data.decode("cp1252", errors="replace"), [
        "the text is not UTF-8; read it as Windows-1252 (cp1252), so check accented letters"]


def _guess_utf16(data: bytes) -> str | None:
    """UTF-16 without a byte-order mark shows as NUL in every other byte for Latin text."""
    if len(data) < 4 or len(data) % 2:
        return None
    even, odd = data[0::2], data[1::2]
    if odd.count(0) > 0.4 * len(odd) and even.count(0) < 0.05 * len(even):
        return "utf-16-le"
    if even.count(0) > 0.4 * len(even) and odd.count(0) < 0.05 * len(odd):
        return "utf-16-be"
    return None


def read_text(path: PathLike) -> tuple[str, list[str]]:
    """A text file's contents with "\n" line ends and no control characters, and the guesses
    made decoding it; a binary file is a FormatError."""
    text, warnings = decode_text(read_bytes(path), path)
    controls = len(_BINARY.findall(text))
    if text and controls > _MAX_CONTROL_SHARE * len(text):
        raise FormatError(path, "this looks like a binary file, not text")
    return strip_controls(text.replace("\r\n", "\n").replace("\r", "\n")), warnings


def read_txt(path: PathLike) -> Transcript:
    """Blank lines separate paragraphs (or, with none, every line is one); punctuation and
    capitals already in the text become the tokens' current state."""
    text, warnings = read_text(path)
    return Transcript.from_text(text, Metadata(source_file=str(path), warnings=tuple(warnings)))


def write_txt(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE) -> None:
    atomic_write(path, (render(transcript, policy) + "\n").encode("utf-8"))
