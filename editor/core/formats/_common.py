"""What every format shares: reading bytes safely, parsing JSON safely, atomic writes, times."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from editor.core.document import Token
from editor.core.errors import FormatError, UserError
from editor.core.text import Piece, split_words

#: Larger files are refused rather than read into memory (a day of speech is ~2 MB of text).
MAX_FILE_BYTES = 256 * 1024 * 1024
#: A time beyond this (about 11.5 days) is not a recording, it is a broken file.
MAX_SECONDS = 1_000_000.0
#: A silence at least this long starts a new paragraph.
PARAGRAPH_GAP = 2.0

PathLike = str | os.PathLike[str]


def read_bytes(path: PathLike) -> bytes:
    """The file's bytes, or a FormatError that says in words why it cannot be read."""
    p = Path(path)
    try:
        if p.is_dir():
            raise FormatError(path, "this is a folder, not a file")
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise FormatError(path, f"the file is too large ({size // 2**20} MB) to be a transcript")
        return p.read_bytes()
    except FileNotFoundError:
        raise FormatError(path, "no such file") from None
    except PermissionError:
        raise FormatError(path, "permission denied") from None
    except OSError as err:
        raise FormatError(path, f"cannot be read ({err.strerror or err})") from None


def decode_utf8(data: bytes, path: PathLike) -> str:
    """Strict UTF-8 (a BOM is dropped); the error names the line of the first bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise FormatError(path, "the text is not valid UTF-8", line=line) from None


def parse_json(text: str, path: PathLike) -> Any:
    """JSON, with the errors a hostile file can cause turned into a FormatError."""
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as err:
        raise FormatError(path, f"not valid JSON ({err.msg})", line=err.lineno) from None
    except RecursionError:
        raise FormatError(path, "the JSON is nested too deeply to be a transcript") from None
    except ValueError as err:
        raise FormatError(path, str(err)) from None


def _reject_constant(name: str) -> float:
    raise ValueError(f"the JSON contains {name}, which is not a number")


def seconds(value: Any, path: PathLike, where: str) -> float | None:
    """A time in seconds from a JSON value: None stays None, anything odd is a FormatError."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise FormatError(path, f"{where}: the time {value!r} is not a number")
    value = float(value)
    if not math.isfinite(value) or value < 0 or value > MAX_SECONDS:
        raise FormatError(path, f"{where}: the time {value!r} is not a plausible time in seconds")
    return value


def ordered(start: float | None, end: float | None) -> tuple[float | None, float | None]:
    """A (start, end) pair that is either both None or start <= end (reversed times are swapped)."""
    if start is None or end is None:
        return (start, start) if end is None and start is not None else (end, end)
    return (start, end) if start <= end else (end, start)


def spread(pieces: Sequence[Piece], start: float | None, end: float | None, *,
           speaker: str | None = None, confidence: float | None = None) -> list[Token]:
    """Tokens for pieces of text that together took start..end, by their length in characters."""
    if start is None or end is None or not pieces:
        return [Token(p.word, p.surface, p.punct, speaker=speaker, confidence=confidence)
                for p in pieces]
    weights = [len(p.surface) + 1 for p in pieces]
    total = sum(weights)
    tokens, acc = [], 0
    for piece, weight in zip(pieces, weights):
        t0 = start + (end - start) * acc / total
        acc += weight
        t1 = start + (end - start) * acc / total
        tokens.append(Token(piece.word, piece.surface, piece.punct, t0, t1, confidence, speaker))
    return tokens


def gap_paragraph_starts(tokens: Sequence[Token], gap: float = PARAGRAPH_GAP) -> list[int]:
    """Indices where a silence of at least ``gap`` seconds or a new speaker begins a paragraph."""
    starts = []
    for i in range(1, len(tokens)):
        prev, cur = tokens[i - 1], tokens[i]
        if cur.speaker != prev.speaker:
            starts.append(i)
        elif prev.end is not None and cur.start is not None and cur.start - prev.end >= gap:
            starts.append(i)
    return starts


def atomic_write(path: PathLike, data: bytes) -> None:
    """Write a file so that a crash leaves either the old file or the new one, never half of one.

    The temporary file lives in the same folder, so the final rename never crosses file systems.
    """
    target = Path(path)
    if target.is_dir():
        raise UserError(f"{path}: this is a folder; give a file name to write")
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as err:
        raise UserError(f"{path}: cannot write here ({err.strerror or err})") from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException as err:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(err, OSError):
            raise UserError(f"{path}: cannot write ({err.strerror or err})") from None
        raise
    _fsync_folder(folder)


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def format_clock(t: float, *, separator: str = ".") -> str:
    """00:01:02.345 (WebVTT), 00:01:02,345 (SubRip, separator=",") or 00:01:02 (separator="")."""
    ms = int(round(max(t, 0.0) * 1000))
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, ms = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}{separator}{ms:03d}" if separator else f"{h:02d}:{m:02d}:{s:02d}"


def add_words(tokens: list[Token], text: str, start: float | None, end: float | None, *,
              speaker: str | None = None, confidence: float | None = None) -> None:
    """Append the words of ``text`` (one recognised word, or a segment) spread over start..end.

    Punctuation standing alone (Whisper emits "," as a word at times) joins the word before.
    """
    pieces = split_words(text)
    if pieces and not any(ch.isalnum() for ch in pieces[0].surface) and len(pieces) == 1:
        if tokens:
            last = tokens[-1]
            tokens[-1] = dataclasses.replace(last, punct=last.punct + pieces[0].surface)
            return
    tokens.extend(spread(pieces, start, end, speaker=speaker, confidence=confidence))


def probability(value: Any) -> float | None:
    """A confidence in 0..1, or None when the value is missing or makes no sense."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return min(max(float(value), 0.0), 1.0)
