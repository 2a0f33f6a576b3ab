"""Transcript files in and out, chosen by extension: ``read_any(path)``, ``write_any(doc, path)``.

Each format is one module with ``read_*`` and/or ``write_*``; they are imported when first used, so
importing this package stays cheap (python-docx alone pulls in lxml).
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import stat
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from editor.core.document.transcript import Transcript
from editor.core.errors import FormatError, UserError
from editor.core.formats._common import (PathLike, atomic_write, check_readable,
                                         finish_interrupted_write)
from editor.core.formats.subtitles.layout import SubtitleLayout
from editor.core.render import NONE, RenderPolicy

#: extension -> (module, function); a reader takes a path (and ``encoding=`` when it reads text),
#: a writer (transcript, path, policy).
READERS: dict[str, tuple[str, str]] = {
    ".txt": ("editor.core.formats.txt", "read_txt"),
    ".text": ("editor.core.formats.txt", "read_txt"),
    ".srt": ("editor.core.formats.subtitles.srt", "read_srt"),
    ".vtt": ("editor.core.formats.subtitles.vtt", "read_vtt"),
    ".sbv": ("editor.core.formats.subtitles.sbv", "read_sbv"),
    ".ass": ("editor.core.formats.subtitles.ass", "read_ass"),
    ".ssa": ("editor.core.formats.subtitles.ass", "read_ass"),
    ".ttml": ("editor.core.formats.subtitles.ttml", "read_ttml"),
    ".dfxp": ("editor.core.formats.subtitles.ttml", "read_ttml"),
    ".otr": ("editor.core.formats.otr", "read_otr"),
    ".smi": ("editor.core.formats.subtitles.sami", "read_sami"),
    ".sami": ("editor.core.formats.subtitles.sami", "read_sami"),
    ".srv3": ("editor.core.formats.subtitles.srv3", "read_srv3"),
    ".srv2": ("editor.core.formats.subtitles.youtube", "read_srv2"),
    ".srv1": ("editor.core.formats.subtitles.youtube", "read_srv1"),
    ".json3": ("editor.core.formats.subtitles.youtube", "read_json3"),
    ".html": ("editor.core.formats.noscribe", "read_noscribe"),
    ".htm": ("editor.core.formats.noscribe", "read_noscribe"),
    ".json": ("editor.core.formats", "read_json"),
    ".jsonl": ("editor.core.formats.vosk", "read_vosk"),
    ".stet": ("editor.core.recovery.reading", "read_project"),
    ".md": ("editor.core.formats.md", "read_md"),
    ".docx": ("editor.core.formats.docx", "read_docx"),
}
#: Readers of text whose encoding the user may name (JSON and .stet are UTF-8 by definition).
TEXT_READERS = frozenset({".txt", ".text", ".srt", ".vtt", ".sbv", ".ass", ".ssa", ".ttml", ".dfxp",
                          ".otr", ".smi", ".sami", ".srv3", ".srv2", ".srv1", ".md", ".html",
                          ".htm"})
WRITERS: dict[str, tuple[str, str]] = {
    ".txt": ("editor.core.formats.txt", "write_txt"),
    ".md": ("editor.core.formats.md", "write_md"),
    ".docx": ("editor.core.formats.docx", "write_docx"),
    ".srt": ("editor.core.formats.subtitles.srt", "write_srt"),
    ".vtt": ("editor.core.formats.subtitles.vtt", "write_vtt"),
    ".sbv": ("editor.core.formats.subtitles.sbv", "write_sbv"),
    ".ass": ("editor.core.formats.subtitles.ass", "write_ass"),
    ".ssa": ("editor.core.formats.subtitles.ass", "write_ass"),  # SubStation Alpha v4
    ".ttml": ("editor.core.formats.subtitles.ttml", "write_ttml"),
    ".dfxp": ("editor.core.formats.subtitles.ttml", "write_ttml"),  # TTML by its older name
    ".smi": ("editor.core.formats.subtitles.sami", "write_sami"),
    ".sami": ("editor.core.formats.subtitles.sami", "write_sami"),
    ".json": ("editor.core.formats.transcript_json", "write_json"),
    ".stet": ("editor.core.project_writer", "write_stet"),  # the one writer of projects
}


def _load(entry: tuple[str, str]) -> Callable[..., Any]:
    module, name = entry
    function: Callable[..., Any] = getattr(importlib.import_module(module), name)
    return function


def _extension(path: PathLike) -> str:
    return Path(path).suffix.lower()


def _describe(path: PathLike) -> str:
    ext = _extension(path)
    return f"{ext} files" if ext else "files without an extension"


def can_read(path: PathLike) -> bool:
    return _extension(path) in READERS


def can_write(path: PathLike) -> bool:
    return _extension(path) in WRITERS


#: Formats each of whose cues needs a time: a transcript without a single word time cannot fill
#: them (writing.timed_words refuses it).
TIMED_FORMATS = frozenset({".srt", ".vtt", ".sbv", ".ass", ".ssa", ".ttml", ".dfxp", ".smi", ".sami"})


def why_not_writable(transcript: Transcript, ext: str) -> str | None:
    """Why ``transcript`` cannot be written as ``ext`` (".srt"), in one line; None when it can.
    Asked before a format is offered, so that the refusal comes before the choice, not after."""
    if ext.lower() in TIMED_FORMATS and len(transcript) and not any(
            token.start is not None and token.end is not None for token in transcript.tokens):
        return ("subtitles need times, and this transcript has none: no word was timed (transcribe "
                "the recording, or open subtitles or a recogniser's JSON)")
    return None


def read_any(path: PathLike, encoding: str | None = None, *, allow_empty: bool = False) -> Transcript:
    """Read a transcript by its extension; every failure is a FormatError. ``encoding`` names the
    text encoding of a text or subtitle file instead of detecting it. A file without a word (zero
    bytes, blank space, a header alone, cues without text) is a FormatError too, unless
    ``allow_empty`` (a recovery journal of work whose every word was deleted)."""
    entry = READERS.get(_extension(path))
    check_readable(path)  # missing, a symlink loop, a folder, a FIFO, a device: said as such
    if entry is None:
        raise FormatError(path, f"Stet cannot read {_describe(path)}; it reads "
                          f"{', '.join(sorted(READERS))}")
    try:  # a save of this file cut short by a kill: its old content back before reading
        restored = finish_interrupted_write(path)
    except FormatError:
        raise
    except UserError as err:
        raise FormatError(None, str(err)) from None
    if not allow_empty and _zero_bytes(path):  # said as such, not as a format's broken header
        raise FormatError(path, "the file is empty (0 bytes): there are no words to open")
    if encoding and _extension(path) in TEXT_READERS:
        doc: Transcript = _load(entry)(path, encoding=encoding)
    else:
        if encoding:
            from editor.core.decoding import check_encoding

            if check_encoding(encoding) != "utf-8":
                raise UserError(f"{path}: {_describe(path)} are UTF-8; --encoding applies to "
                                "text and subtitle files")
        doc = _load(entry)(path)
    doc.history.clear()
    if not allow_empty and not len(doc):
        raise FormatError(path, _why_no_words(doc))
    if restored:
        doc.metadata = dataclasses.replace(doc.metadata,
                                           warnings=(*doc.metadata.warnings, restored))
    return doc


def _zero_bytes(path: PathLike) -> bool:
    """A plain file of 0 bytes (a FIFO's size says nothing: its reader looks at what comes)."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_size == 0


def _why_no_words(doc: Transcript) -> str:
    """One line on a file that was read but holds no word."""
    cues = len(doc.metadata.cues)
    if cues:
        return f"there are no words in it ({cues} cue{'s' if cues != 1 else ''}, none with text)"
    return "there are no words in it"


def write_any(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE,
              layout: SubtitleLayout | None = None, **options: Any) -> list[str]:
    """Write by extension; ``policy`` says which pending suggestions to apply (not for .stet).
    Returns the writing's warnings: what the format could not carry (a subtitle's colours in
    WebVTT...), each one line.

    ``layout`` lays out subtitles (`TIMED_FORMATS`; other formats have no lines to lay out);
    ``options`` go to the writer: ``timestamps=True`` or ``speakers=False`` for .md and .docx."""
    entry = WRITERS.get(_extension(path))
    if entry is None:
        raise UserError(f"{path}: Stet cannot write {_describe(path)}; it writes "
                        f"{', '.join(sorted(WRITERS))}")
    if layout is not None and _extension(path) in TIMED_FORMATS:
        options["layout"] = layout
    warnings = _load(entry)(transcript, path, policy, **options)
    return list(warnings) if isinstance(warnings, list) else []


def read_json(path: PathLike) -> Transcript:
    """A .json file: Whisper output, Vosk output, a Stet project or YouTube's json3, told apart
    by their keys."""
    from editor.core.formats import stet, vosk, whisper

    warnings: list[str] = []
    try:
        data = vosk.load_json_documents(path)
    except FormatError as err:
        data = _whisper_cpp_not_utf8(path, err, warnings)
    if isinstance(data, dict) and "segments" in data:
        return whisper.transcript_from_whisper(data, path)
    if isinstance(data, dict) and isinstance(data.get("transcription"), list):
        doc = whisper.transcript_from_whisper(_from_whisper_cpp(data), path)
        if warnings:
            doc.metadata = dataclasses.replace(doc.metadata,
                                               warnings=(*doc.metadata.warnings, *warnings))
        return doc
    if (isinstance(data, list) and data and all(isinstance(s, dict) for s in data)
            and all("start" in s and "end" in s and "text" in s for s in data)):
        # faster-whisper's segments dumped as a list (no "segments" key around them)
        return whisper.transcript_from_whisper({"segments": data}, path)
    if isinstance(data, dict) and isinstance(data.get("chunks"), list) and "segments" not in data:
        # transformers' pipeline (insanely-fast-whisper): "chunks", and with pyannote's
        # speakers "speakers", each {"text", "timestamp": [start, end]} (+ "speaker")
        speakers = data.get("speakers")
        turns: list[Any] = speakers if isinstance(speakers, list) and speakers else data["chunks"]
        return whisper.transcript_from_whisper({"segments": _pipeline_segments(turns),
                                                "language": data.get("language")}, path)
    if isinstance(data, dict) and "format_version" in data and "tokens" in data:
        return stet.transcript_from_stet(data, path)
    from editor.core.formats.subtitles import youtube

    if youtube.is_json3(data):  # YouTube's json3 saved as .json (the timedtext API's &fmt=json3)
        return youtube.transcript_from_json3(data, path)
    if isinstance(data, dict) and "result" not in data:
        # OpenAI's API verbose_json with word times, or WhisperX's word_segments alone
        words = next((data[k] for k in ("words", "word_segments") if isinstance(data.get(k), list)
                      and data[k]), None)
        if words is not None:
            return whisper.transcript_from_timed_words(data, words, path)
    return vosk.transcript_from_vosk(data, path)


def _pipeline_segments(chunks: list[Any]) -> list[Any]:
    """transformers' ASR pipeline chunks ({"text", "timestamp": [start, end], "speaker"}) as
    Whisper segments; anything else is passed on for the Whisper reader to refuse."""
    out: list[Any] = []
    for chunk in chunks:
        if not isinstance(chunk, dict):
            out.append(chunk)
            continue
        stamp = chunk.get("timestamp")
        start, end = (stamp[0], stamp[1]) if isinstance(stamp, list | tuple) and len(stamp) == 2 \
            else (None, None)
        segment = {"start": start, "end": end, "text": chunk.get("text")}
        if isinstance(chunk.get("speaker"), str):
            segment["speaker"] = chunk["speaker"]
        out.append(segment)
    return out


def _whisper_cpp_not_utf8(path: PathLike, err: FormatError, warnings: list[str]) -> Any:
    """whisper.cpp's JSON as it may come (whisper.cpp issues 1798 and 3760): a character parted
    between two tokens, or a segment's text holding a lone byte of one, is not UTF-8. Such a file
    is read with those bytes left out (each segment's words come from its text, whole), and
    said; any other file that is not UTF-8 is refused with ``err``."""
    from editor.core.formats._common import MAX_JSON_BYTES, parse_json, read_bytes

    if "UTF-8" not in err.message:
        raise err
    raw = read_bytes(path, MAX_JSON_BYTES)
    if b'"transcription"' not in raw[:4096]:
        raise err
    text = raw.decode("utf-8-sig", errors="replace")
    data = parse_json(text, path)
    if not isinstance(data, dict) or not isinstance(data.get("transcription"), list):
        raise err
    warnings.append(f"{text.count(chr(0xFFFD))} bytes that are not UTF-8 (whisper.cpp parts "
                    "characters between tokens) were left out")
    return data


#: whisper.cpp's special tokens as its JSON names them: [_BEG_], [_TT_550], [_EOT_]...
_SPECIAL_TOKEN = re.compile(r"\[_[^\]]*\]|<\|[^|]*\|>")


def _from_whisper_cpp(data: dict[str, Any]) -> dict[str, Any]:
    """whisper.cpp's ``-oj`` JSON ({"transcription": [{"offsets": {"from": ms, "to": ms},
    "text": ...}]}) in openai-whisper's shape; ``-ojf`` adds each segment's tokens with their
    times and probability ``p``, which become its words when they spell its text."""
    segments = []
    for item in data["transcription"]:
        if not isinstance(item, dict):
            segments.append(item)  # said by the reader ("segment N is not an object")
            continue
        text = item.get("text")
        if isinstance(text, str):
            text = text.replace("\ufffd", "")  # a byte that was not UTF-8 (see above)
        segment: dict[str, Any] = {"text": text}
        times = _offsets(item)
        if times is not None:
            segment.update(start=times[0], end=times[1])
        words = _token_words(item.get("tokens"), text, times)
        if words:
            segment["words"] = words
        speaker = item.get("speaker")  # --diarize: "0" or "1" (stereo channel), "?" unknown
        if isinstance(speaker, str) and speaker.strip() not in ("", "?"):
            name = speaker.strip()
            segment["speaker"] = f"Speaker {name}" if name.isdigit() else name
        segments.append(segment)
    result = data.get("result")
    language = result.get("language") if isinstance(result, dict) else None
    return {"segments": segments, **({"language": language} if isinstance(language, str) else {})}


def _offsets(item: dict[str, Any]) -> tuple[float, float] | None:
    """Seconds from whisper.cpp's ``offsets`` (milliseconds), None where they are not numbers."""
    offsets = item.get("offsets")
    if isinstance(offsets, dict) and all(isinstance(offsets.get(k), int | float)
                                         and not isinstance(offsets.get(k), bool)
                                         for k in ("from", "to")):
        return offsets["from"] / 1000, offsets["to"] / 1000
    return None


def _token_words(tokens: Any, text: Any, times: tuple[float, float] | None) -> list[dict[str, Any]]:
    """``-ojf`` tokens as Whisper's word pieces (" Americ", "ans"; special tokens left out),
    each timed within its segment; none unless they spell the segment's text exactly."""
    if not isinstance(tokens, list) or not isinstance(text, str):
        return []
    pieces = [t for t in tokens if isinstance(t, dict) and isinstance(t.get("text"), str)
              and not _SPECIAL_TOKEN.fullmatch(t["text"].strip())]
    if not pieces or "".join(t["text"] for t in pieces).split() != text.split():
        return []
    words = []
    for token in pieces:
        word: dict[str, Any] = {"word": token["text"]}
        span = _offsets(token)
        if span is not None and times is not None:
            start = min(max(span[0], times[0]), times[1])
            word.update(start=start, end=min(max(span[1], start), times[1]))
        p = token.get("p")
        if isinstance(p, int | float) and not isinstance(p, bool) and 0 <= p <= 1:
            word["probability"] = p
        words.append(word)
    return words


__all__ = ["READERS", "TEXT_READERS", "WRITERS", "atomic_write", "can_read", "can_write", "read_any", "read_json",
           "write_any"]
