"""What every format shares: reading bytes safely, parsing JSON safely, times. Atomic writing lives
in ``editor.core.atomic`` (its names are re-exported here for the formats)."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import stat
from collections.abc import Sequence
from typing import Any

from editor.core.atomic import BACKUP_SUFFIX as BACKUP_SUFFIX
from editor.core.atomic import STALE_TEMP_SECONDS as STALE_TEMP_SECONDS
from editor.core.atomic import TEMP_INFIX as TEMP_INFIX
from editor.core.atomic import TEMP_SUFFIX as TEMP_SUFFIX
from editor.core.atomic import PathLike as PathLike
from editor.core.atomic import ReadOnlyFile as ReadOnlyFile
from editor.core.atomic import atomic_write as atomic_write
from editor.core.atomic import backup_path as backup_path
from editor.core.atomic import clean_stale_temps as clean_stale_temps
from editor.core.atomic import finish_interrupted_write as finish_interrupted_write
from editor.core.atomic import not_regular as _not_regular
from editor.core.atomic import os_problem as _os_problem
from editor.core.document.transcript import Spread, Token
from editor.core.errors import FormatError
from editor.core.document.text import TRAILING_MARKS, Piece, normalize_word, split_words

#: The most words a transcript may hold. Measured (tests/perf/bench_reader_memory.py; docs/performance.md):
#: reading costs 500 bytes of RAM per word for plain text, up to 870 for Vosk/Whisper JSON with
#: times and 3,000 for a .stet with two suggestions on every word; 3 M one-letter words of text
#: peaked at 1.5 GB, under the 2 GB a reader may use. 3 M words is about 300 hours of speech.
MAX_WORDS = 3_000_000
#: Text formats (txt, srt, vtt) hold at least two bytes per word ("a "), so this many bytes cannot
#: hold more than MAX_WORDS words: ~1.5 GB at the 500 bytes per word measured. A day of speech
#: is ~1 MB of text; War and Peace is 3.2 MB.
MAX_TEXT_BYTES = 2 * MAX_WORDS
#: JSON costs up to 49 bytes of RAM per byte of file to parse and read (measured on one-letter
#: Vosk word objects; ``[{},{},...]`` costs 26), so 32 MB peaks at 1.6 GB. That is 500,000 words
#: with times (~50 hours of speech). A .stet project is read a record at a time and has its own
#: limit (formats/stet.py MAX_STET_BYTES, 128 MB).
MAX_JSON_BYTES = 32 * 2**20
#: Kept for callers that name one limit: the largest JSON file (Vosk, Whisper) a reader accepts.
MAX_FILE_BYTES = MAX_JSON_BYTES
#: A time beyond this (about 3 years) is not a recording, it is a broken file. A live stream's
#: clock runs for weeks (HLS WebVTT segments time cues at 1088:42:00.500), and WebVTT allows any
#: number of hours.
MAX_SECONDS = 100_000_000.0
#: A silence at least this long starts a new paragraph.
PARAGRAPH_GAP = 2.0



def check_readable(path: PathLike) -> os.stat_result:
    """The file's status when it is a regular file (through symlinks); else a FormatError saying
    what it is: missing, a symlink loop, a folder, a FIFO, a device or a socket. Never opens it."""
    try:
        st = os.stat(path)
    except OSError as err:
        raise FormatError(path, _os_problem(err)) from None
    except ValueError:  # a NUL byte in the name
        raise FormatError(path, "the file name is not valid") from None
    if not stat.S_ISREG(st.st_mode):
        raise FormatError(path, _not_regular(st.st_mode))
    return st


def _too_large(path: PathLike, size: int, limit: int) -> FormatError:
    shown = f"{size / 2**20:.1f} MB" if size < 2**40 else "more than a terabyte"
    return FormatError(path, f"the file is too large ({shown}); Stet reads files of this kind up "
                       f"to {limit / 2**20:.1f} MB")


def read_bytes(path: PathLike, limit: int = MAX_TEXT_BYTES) -> bytes:
    """The file's bytes, or a FormatError that says in words why it cannot be read.

    Only a regular file is opened, and without blocking (a FIFO swapped in after the check fails
    the second check instead of waiting for a writer); at most ``limit`` + 1 bytes are read, so a
    file that grows, or a path that turns into a device, cannot exhaust memory.
    """
    fd = open_regular(path, limit)
    try:
        chunks, got = [], 0
        while got <= limit:
            chunk = os.read(fd, min(limit + 1 - got, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:
            raise _too_large(path, got, limit)
        return b"".join(chunks)
    except OSError as err:
        raise FormatError(path, _os_problem(err)) from None
    finally:
        os.close(fd)


def open_regular(path: PathLike, limit: int) -> int:
    """An open descriptor of ``path`` when it is a regular file of at most ``limit`` bytes (see
    ``read_bytes``); else a FormatError. The caller closes it."""
    check_readable(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | \
        getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as err:
        raise FormatError(path, _os_problem(err)) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # swapped between the check and the open
            raise FormatError(path, _not_regular(st.st_mode))
        if st.st_size > limit:
            raise _too_large(path, st.st_size, limit)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_head(path: PathLike, count: int) -> bytes:
    """The first ``count`` bytes of a regular file of any size (a FormatError as ``read_bytes``)."""
    fd = open_regular(path, 2**62)
    try:
        return os.read(fd, count)
    except OSError as err:
        raise FormatError(path, _os_problem(err)) from None
    finally:
        os.close(fd)


def decode_utf8(data: bytes, path: PathLike) -> str:
    """Strict UTF-8 (a BOM is dropped); the error names the line of the first bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise FormatError(path, "the text is not valid UTF-8", line=line) from None


#: JSON text longer than this (characters) is parsed a value at a time (``_loads_in_pieces``).
JSON_IN_PIECES_FROM = 1 << 18
_JSON_SPACE = re.compile(r"[ \t\n\r]*")


def _loads_in_pieces(text: str) -> Any:
    """``json.loads(text)`` for a long text, the outer two levels of containers walked here and
    each value inside them parsed by the C scanner on its own. One ``json.loads`` of a 100,000-word
    Vosk or Whisper file holds the GIL 100-300 ms, and the window's thread, which needs it to
    handle any event, stalls as long while a file is read in the background; between pieces other
    threads get their turn. Any error (a ValueError) is for ``parse_json`` to say, by parsing the
    text whole."""
    decode = _JSON_DECODER.raw_decode
    space = _JSON_SPACE.match

    def value(pos: int, depth: int) -> tuple[Any, int]:
        pos = space(text, pos).end()  # type: ignore[union-attr]
        opening = text[pos:pos + 1]
        if depth >= 2 or opening not in ("[", "{"):
            return decode(text, pos)
        closing = "]" if opening == "[" else "}"
        pos = space(text, pos + 1).end()  # type: ignore[union-attr]
        items: list[Any] = []
        obj: dict[str, Any] = {}
        if text.startswith(closing, pos):
            return (items if opening == "[" else obj), pos + 1
        while True:
            if opening == "[":
                item, pos = value(pos, depth + 1)
                items.append(item)
            else:
                if not text.startswith('"', pos):
                    raise ValueError("expecting property name")
                key, pos = decode(text, pos)
                pos = space(text, pos).end()  # type: ignore[union-attr]
                if not text.startswith(":", pos):
                    raise ValueError("expecting ':'")
                obj[key], pos = value(pos + 1, depth + 1)  # a key twice: the last one counts
            pos = space(text, pos).end()  # type: ignore[union-attr]
            if text.startswith(closing, pos):
                return (items if opening == "[" else obj), pos + 1
            if not text.startswith(",", pos):
                raise ValueError("expecting ','")
            pos = space(text, pos + 1).end()  # type: ignore[union-attr]

    data, end = value(0, 0)
    if space(text, end).end() != len(text):  # type: ignore[union-attr]
        raise ValueError("extra data")
    return data


def parse_json(text: str, path: PathLike) -> Any:
    """JSON, with the errors a hostile file can cause turned into a FormatError. A long text is
    parsed a value at a time (``_loads_in_pieces``), or whole where that finds an error."""
    try:
        data: Any = None
        if len(text) > JSON_IN_PIECES_FROM:
            try:
                data = _loads_in_pieces(text)
            except (ValueError, RecursionError):
                data = None  # said as json.loads says it, below
        if data is None:
            data = json.loads(text, parse_constant=reject_constant)
        if SURROGATE_ESCAPE.search(text):  # rare: check the strings only then
            refuse_lone_surrogates(data)
        return data
    except json.JSONDecodeError as err:
        raise FormatError(path, f"not valid JSON ({err.msg})", line=err.lineno) from None
    except RecursionError:
        raise FormatError(path, "the JSON is nested too deeply to be a transcript") from None
    except ValueError as err:
        if "digits" in str(err):  # an integer longer than Python converts (4300 digits)
            raise FormatError(path, "the JSON holds a number with thousands of digits") from None
        raise FormatError(path, str(err).split("\n")[0]) from None


SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_SURROGATE = re.compile("[\ud800-\udfff]")


def refuse_lone_surrogates(data: Any) -> None:
    """JSON may escape half of a UTF-16 pair ("\\ud800") alone; no text holds such a character
    and no file can be written with it, so the file is refused rather than its words changed."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and _SURROGATE.search(item):
            raise ValueError("the JSON holds a broken character (half of a UTF-16 surrogate "
                             "pair, such as \\ud800)")


def reject_constant(name: str) -> float:
    raise ValueError(f"the JSON contains {name}, which is not a number")


_JSON_DECODER = json.JSONDecoder(parse_constant=reject_constant)


def _kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"the text {value[:20]!r}" + ("..." if len(value) > 20 else "")
    return f"a {type(value).__name__}"


def number(value: Any, path: PathLike, where: str, what: str = "the value", *,
           low: float = -math.inf, high: float = math.inf) -> float:
    """The one checked conversion of a number read from a file: an int or float (not true/false,
    text, an object or a list), that fits a float, is finite and lies within ``low..high``.
    Anything else is a one-line FormatError naming ``where`` and ``what``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise FormatError(path, f"{where}: {what} is {_kind_of(value)}, not a number")
    try:
        result = float(value)
    except OverflowError:
        raise FormatError(path, f"{where}: {what} is a number too large to be real") from None
    if not math.isfinite(result):
        raise FormatError(path, f"{where}: {what} is not a finite number")
    if not low <= result <= high:
        raise FormatError(path, f"{where}: {what} {result:g} is outside {low:g}..{high:g}")
    return result


def seconds(value: Any, path: PathLike, where: str) -> float | None:
    """A time in seconds from a JSON value: None stays None, anything odd is a FormatError."""
    if value is None:
        return None
    return number(value, path, where, "the time", low=0.0, high=MAX_SECONDS)


def probability(value: Any, path: PathLike, where: str, what: str = "the confidence") -> float | None:
    """A probability in 0..1 (a rounding error's overshoot is clamped); None stays None."""
    if value is None:
        return None
    p = number(value, path, where, what, low=-1e-6, high=1.0 + 1e-6)
    return min(max(p, 0.0), 1.0)


def ordered(start: float | None, end: float | None) -> tuple[float | None, float | None]:
    """A (start, end) pair that is either both None or start <= end (reversed times are swapped)."""
    if start is None or end is None:
        return (start, start) if end is None and start is not None else (end, end)
    return (start, end) if start <= end else (end, start)


def spread(pieces: Sequence[Piece], start: float | None, end: float | None, *,
           speaker: str | None = None, confidence: float | None = None,
           guessed: Spread = Spread.NONE) -> list[Token]:
    """Tokens for pieces of text that together took start..end, by their length in characters.
    Only start and end were measured: each word's time inside them is marked spread
    (``Token.spread``), as are the edges ``guessed`` names (an end from a speaking pace or the
    next time stamp)."""
    if start is None or end is None or not pieces:
        return [Token(p.word, p.surface, p.punct, speaker=speaker, confidence=confidence)
                for p in pieces]
    weights = [len(p.surface) + 1 for p in pieces]
    total = sum(weights)
    tokens, acc = [], 0
    last = len(pieces) - 1
    # the flags of the first, inner and last word, worked out once (IntFlag's operators are slow)
    first, tail = (guessed | Spread.END, guessed | Spread.START) if last else (guessed, guessed)
    for n, (piece, weight) in enumerate(zip(pieces, weights)):
        t0 = start + (end - start) * acc / total
        acc += weight
        t1 = start + (end - start) * acc / total
        flags = Spread.BOTH if 0 < n < last else first if n == 0 else tail
        tokens.append(Token(piece.word, piece.surface, piece.punct, t0, t1, confidence, speaker,
                            spread=flags))
    return tokens


#: A word's "spread" in a file Stet writes (a project, its .json): which of its times were spread
#: over its cue or segment (``Token.spread``); absent where both are measured, as in every file
#: written before Stet kept it, so an older Stet reads such a file as it always did.
SPREAD_NAMES = {Spread.START: "start", Spread.END: "end", Spread.BOTH: "both"}
_SPREAD_OF = {name: flag for flag, name in SPREAD_NAMES.items()}


def spread_of(value: Any, path: PathLike, where: str) -> Spread:
    """A word's ``Token.spread`` from its "spread" in a file (None: measured); anything else is
    a FormatError."""
    if value is None:
        return Spread.NONE
    if not isinstance(value, str) or value not in _SPREAD_OF:
        raise FormatError(path, f"{where}: \"spread\" is {str(value)[:40]!r}, not one of "
                                f"{', '.join(_SPREAD_OF)}")
    return _SPREAD_OF[value]


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




def format_clock(t: float, *, separator: str = ".") -> str:
    """00:01:02.345 (WebVTT), 00:01:02,345 (SubRip, separator=",") or 00:01:02 (separator="")."""
    ms = int(round(max(t, 0.0) * 1000))
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, ms = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}{separator}{ms:03d}" if separator else f"{h:02d}:{m:02d}:{s:02d}"


_CHUNK = re.compile(r"\S+")


def check_word_count(count: int, path: PathLike | None) -> None:
    """A FormatError when a transcript would hold more than MAX_WORDS words."""
    if count > MAX_WORDS:
        raise FormatError(path, f"the transcript holds more than {MAX_WORDS:,} words; Stet "
                          "opens transcripts up to that size (split the file)")


def add_words(tokens: list[Token], text: str, start: float | None, end: float | None, *,
              speaker: str | None = None, confidence: float | None = None,
              path: PathLike | None = None) -> None:
    """Append the words of ``text`` (one recognised word, or a segment) spread over start..end.

    Punctuation standing alone (Whisper emits "," as a word at times) joins the word before.
    More than MAX_WORDS words in all is a FormatError (counted before a long text is split, so a
    huge one is refused without the memory its words would take).
    """
    room = MAX_WORDS - len(tokens)
    if len(text) > 2 * room:  # it may hold too many words: count them, stopping past the limit
        chunks = 0
        for _ in _CHUNK.finditer(text):
            chunks += 1
            if chunks > room:
                check_word_count(len(tokens) + chunks, path)
    pieces = split_words(text)
    if pieces and not any(ch.isalnum() for ch in pieces[0].surface) and len(pieces) == 1:
        if tokens:
            last, mark = tokens[-1], pieces[0].surface
            # a comma or full stop Whisper sends alone is written against the word before; any
            # other mark ("&", "-", an emoji) with a space, as text has it, so that the written
            # text reads back as the same words ("rock & roll", not "rock&")
            glue = "" if all(ch in TRAILING_MARKS for ch in mark) else " "
            tokens[-1] = dataclasses.replace(last, punct=f"{last.punct}{glue}{mark}")
            return
    elif pieces and len(tokens) == 1 and not any(ch.isalnum() for ch in tokens[0].surface or ""):
        # marks before the first word ("- Hello", a dialogue dash) open it, as in written text
        first, piece = tokens.pop(), pieces[0]
        surface = f"{first.surface or first.word}{first.punct} {piece.surface}"
        pieces[0] = Piece(normalize_word(surface), surface, piece.punct)
        check_word_count(len(tokens) + len(pieces), path)
        begin = first.start if first.start is not None and start is not None else start
        tokens.extend(spread(pieces, begin, end, speaker=speaker, confidence=confidence))
        return
    check_word_count(len(tokens) + len(pieces), path)
    tokens.extend(spread(pieces, start, end, speaker=speaker, confidence=confidence))


def guarded_xml(text: str, path: PathLike) -> bytes:
    """The text of an XML subtitle file (TTML, YouTube's srv3) ready for ``ElementTree``: refused
    when it declares a DOCTYPE or entities (a subtitle file needs neither, and entity expansion is
    the classic attack on XML readers), its declaration dropped (it must come first in XML, and
    files with blank lines or a BOM before it are common)."""
    if "<!ENTITY" in text or "<!DOCTYPE" in text:
        raise FormatError(path, "the XML declares a DOCTYPE or entities, which a subtitle file "
                          "does not need; not read")
    return re.sub(r"^\s*<\?xml[^>]*\?>", "", text.lstrip("\ufeff \t\r\n")).encode("utf-8")
