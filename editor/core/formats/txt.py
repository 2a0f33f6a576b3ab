"""Plain text: read in whatever encoding it came in; write the clean text."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from editor.core.document.transcript import Metadata, Token, Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import PathLike, atomic_write, check_word_count, read_bytes
from editor.core.decoding import decode_source
from editor.core.formats.subtitles.prefixes import is_credit, speaker_prefix, takes_prefixes
from editor.core.formats.stamped import stamped_transcript
from editor.core.render import NONE, RenderPolicy, render
from editor.core.document.text import (character_references, normalize_newlines, strip_controls, unescape,
                              words_of_blocks)

_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_BINARY = re.compile("[\x00-\x08\x0e-\x1f]")
#: Share of control characters above which text is taken for a binary file.
_MAX_CONTROL_SHARE = 0.05


def read_text(path: PathLike, encoding: str | None = None, *,
              line_breaks: bool = True) -> tuple[str, list[str]]:
    """A text file's contents with "\n" line ends (whatever their style: `normalize_newlines`)
    and no control characters, and the guesses made decoding it (none when ``encoding`` is
    given); a binary file is a FormatError. ``line_breaks``: the other characters that end lines
    (form feed, NEL, U+2028...) are line breaks too (see `strip_controls`)."""
    text, warnings, _ = read_source(path, encoding, line_breaks=line_breaks)
    return text, warnings


def read_source(path: PathLike, encoding: str | None = None, *,
                line_breaks: bool = True) -> tuple[str, list[str], dict[str, Any]]:
    """`read_text`, and the text as it came (``"text"``: its line ends and every character) with
    how it was encoded (``"encoding"``, ``"bom"``): what a subtitle file keeps to be written
    back as it came (see `writeback`)."""
    raw, warnings, decoding = decode_source(read_bytes(path), path, encoding)
    controls = len(_BINARY.findall(raw))
    if raw and controls > _MAX_CONTROL_SHARE * len(raw):
        raise FormatError(path, "this looks like a binary file, not text")
    text = strip_controls(normalize_newlines(raw), line_breaks)
    return text, warnings, {"encoding": decoding.codec, "bom": decoding.bom, "text": raw,
                            "suffix": Path(path).suffix.lower()}


def read_txt(path: PathLike, encoding: str | None = None) -> Transcript:
    """Blank lines separate paragraphs (or, with none, every line is one); punctuation and
    capitals already in the text become the tokens' current state; "Ann: " where a speaker
    starts (see `from_speaker_text`)."""
    text, warnings = read_text(path, encoding)
    text = decode_references(text, warnings)
    return from_speaker_text(text, Metadata(source_file=str(path), warnings=tuple(warnings)))


def decode_references(text: str, warnings: list[str]) -> str:
    """Text with the HTML character references that caption tools write (YouTube's captions as
    youtube-dl, yt-dlp or a transcript copy give them: ``weren&#39;t``, ``&quot;``, ``&amp;``)
    decoded, and said in ``warnings``. Only a reference that ends in ";" and names a character
    counts: a lone "&" ("Smith & Sons", "AT&T") is text and stays."""
    found = character_references(text)
    if not found:
        return text
    kinds = " ".join(list(dict.fromkeys(found))[:3])
    warnings.append(f"{len(found)} HTML character reference{'s' if len(found) != 1 else ''} "
                    f"(such as {kinds}) read as the character{'s' if len(found) != 1 else ''} "
                    "they stand for")
    return unescape(text)


def from_speaker_text(text: str, metadata: Metadata) -> Transcript:
    """The transcript of text whose lines may begin with a speaker ("Ann: ", "SPEAKER_00: ", as
    Stet and diarizing recognisers write them): where they are the text's pattern (see
    `prefixes.takes_prefixes`), each such line starts a paragraph of that speaker, and a
    paragraph without one goes on with the speaker before; else the text is read as it is."""
    stamped = stamped_transcript(text, metadata)
    if stamped is not None:
        return stamped
    lines = [line for line in text.split("\n") if line.strip()]
    if not takes_prefixes(lines):
        return Transcript.from_text(text, metadata)
    blocks: list[list[str]] = []
    for paragraph in (_BLANK_LINE.split(text) if _BLANK_LINE.search(text) else lines):
        current: list[str] = []
        for line in paragraph.split("\n"):
            if current and (speaker_prefix(line)[0] is not None or is_credit(line)):
                blocks.append(current)
                current = []
            current.append(line)
        blocks.append(current)
    named: list[tuple[str | None, str]] = []
    for block in blocks:
        name, first = speaker_prefix(block[0])
        named.append((NOBODY if name is None and is_credit(first) else name,
                      "\n".join([first, *block[1:]])))
    return transcript_of_blocks(named, metadata)


#: `transcript_of_blocks`'s name for a block no one says (a credit line): the speaker before it
#: does not go on through it
NOBODY = ""


def transcript_of_blocks(blocks: Sequence[tuple[str | None, str]], metadata: Metadata) -> Transcript:
    """Paragraphs of text, each with the speaker who starts it (None: the one before goes on;
    `NOBODY`: no one)."""
    tokens: list[Token] = []
    starts: list[int] = []
    speaker: str | None = None
    for name, text in blocks:
        speaker = None if name == NOBODY else (name or speaker)
        pieces, _ = words_of_blocks([text])
        check_word_count(len(tokens) + len(pieces), metadata.source_file)
        if pieces:
            base = len(tokens)
            starts.append(base)
            tokens.extend(Token(p.word, p.surface, p.punct, speaker=speaker, id=base + k)
                          for k, p in enumerate(pieces))
    return Transcript(tokens, paragraph_starts=starts, metadata=metadata)


def write_txt(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE, *,
              turn_times: bool = False) -> None:
    """The clean text (`render`). ``turn_times``: "[00:12:34] Ann: " where a speaker takes over,
    the time their turn starts (as noScribe writes it; read back as times, see `stamped`)."""
    atomic_write(path, (render(transcript, policy, turn_times=turn_times) + "\n").encode("utf-8"))
