"""The ``.stet`` project file: JSON holding everything needed to reopen a session exactly —
tokens with ids and times, paragraphs, metadata and every suggestion with its state.

Undo history is not kept. Saving is atomic, so a crash mid-save leaves the previous file intact.
A recording in the project's folder (or below it) is written relative to it, so the two can move
together; in memory, ``metadata.audio_file`` is always the path as found from here.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path, PurePosixPath
from typing import Any

from editor import __version__
from editor.core.document import Kind, Metadata, SourceCue, State, Suggestion, Token, Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import (MAX_JSON_BYTES, PathLike, atomic_write,
                                         check_word_count, decode_utf8, number, parse_json, probability,
                                         read_bytes, seconds)
from editor.core.render import NONE, RenderPolicy

FORMAT_VERSION = 1
#: Who may have proposed a suggestion (Suggestion.source).
SUGGESTION_SOURCES = ("model", "choice")
_META_TEXT_FIELDS = ("source_file", "audio_file", "language", "model", "restore_model")


def read_stet(path: PathLike) -> Transcript:
    """A project (``read_any`` reads a recovery journal too: formats.journal.read_project)."""
    data = parse_json(decode_utf8(read_bytes(path, MAX_JSON_BYTES), path), path)
    return transcript_from_stet(data, path)


def write_stet(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE) -> None:
    """``policy`` is ignored: a project keeps pending suggestions pending."""
    text = json.dumps(stet_document(transcript, path), ensure_ascii=False, separators=(",", ":"))
    atomic_write(path, text.encode("utf-8"))


def stet_document(transcript: Transcript, path: PathLike | None = None) -> dict[str, Any]:
    """The JSON-able form of a transcript (also what an autosave writes). With the ``path`` it is
    written to, a recording in that file's folder is named relative to it."""
    tokens = [token_record(t) for t in transcript.tokens]
    suggestions = [suggestion_record(s) for s in transcript.suggestions()]
    m = transcript.metadata
    metadata: dict[str, Any] = {key: getattr(m, key) for key in _META_TEXT_FIELDS}
    metadata.update(duration=m.duration, warnings=list(m.warnings), extra=dict(m.extra))
    if m.cues:
        metadata["cues"] = [_cue_item(c) for c in m.cues]
    if path is not None and m.audio_file:
        metadata.update(_audio_paths(m.audio_file, path))
    return {
        "format_version": FORMAT_VERSION,
        "generator": f"stet {__version__}",
        "metadata": metadata,
        "paragraph_starts": [transcript[i].id for i in transcript.paragraph_starts[1:]],
        "tokens": tokens,
        "suggestions": suggestions,
    }


def token_record(t: Token) -> dict[str, Any]:
    """One token as a project stores it (an autosave writes them slice by slice)."""
    item: dict[str, Any] = {"id": t.id, "word": t.word}
    if t.surface != t.word:
        item["surface"] = t.surface
    for key, value in (("punct", t.punct), ("start", t.start), ("end", t.end),
                       ("conf", t.confidence), ("speaker", t.speaker)):
        if value not in (None, ""):
            item[key] = value
    return item


def suggestion_record(s: Suggestion) -> dict[str, Any]:
    """One suggestion as a project stores it."""
    item: dict[str, Any] = {"token": s.token_id, "kind": s.kind.value, "value": s.value,
                            "probs": s.probs, "state": s.state.value}
    if s.original is not None:
        item["original"] = s.original
    if s.source != "model":
        item["source"] = s.source
    return item


def transcript_from_stet(data: Any, path: PathLike) -> Transcript:
    if not isinstance(data, dict) or "format_version" not in data:
        raise FormatError(path, "this is not a Stet project: no format_version")
    version = data["format_version"]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise FormatError(path, f"format_version {version!r} is not a version number")
    if version > FORMAT_VERSION:
        raise FormatError(path, f"this project was saved by a newer Stet (format {version}); "
                          "update Stet to open it")
    items = _list(data, "tokens", path)
    check_word_count(len(items), path)
    tokens = [_token(item, path, n) for n, item in enumerate(items)]
    ids = {t.id: i for i, t in enumerate(tokens)}
    if len(ids) != len(tokens):
        raise FormatError(path, "two tokens have the same id")
    paragraph_ids = _list(data, "paragraph_starts", path)
    if not all(isinstance(i, int) and i in ids for i in paragraph_ids):
        raise FormatError(path, "a paragraph starts at a token that does not exist")
    suggestions = [_suggestion(item, path, n, ids)
                   for n, item in enumerate(_list(data, "suggestions", path))]
    return Transcript(tokens, paragraph_starts=[ids[i] for i in paragraph_ids],
                      metadata=_metadata(data.get("metadata", {}), path),
                      suggestions=suggestions)


def _list(data: dict[str, Any], key: str, path: PathLike) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise FormatError(path, f"\"{key}\" is not a list")
    return value


def _text(item: dict[str, Any], key: str, path: PathLike, where: str,
          default: str | None = None) -> Any:
    value = item.get(key, default)
    if value is not None and not isinstance(value, str):
        raise FormatError(path, f"{where}: \"{key}\" is not text")
    return value


def _token(item: Any, path: PathLike, n: int) -> Token:
    where = f"token {n}"
    if not isinstance(item, dict):
        raise FormatError(path, f"{where} is not an object")
    token_id = item.get("id")
    if not isinstance(token_id, int) or isinstance(token_id, bool) or token_id < 0:
        raise FormatError(path, f"{where} has no valid id")
    word = _text(item, "word", path, where)
    if not word:
        raise FormatError(path, f"{where} has no word")
    start = seconds(item.get("start"), path, where)
    end = seconds(item.get("end"), path, where)
    if (start is None) != (end is None) or (start is not None and end is not None and end < start):
        raise FormatError(path, f"{where}: start and end times do not make a time span")
    return Token(word, _text(item, "surface", path, where, word), _text(item, "punct", path, where,
                 ""), start, end, probability(item.get("conf"), path, where),
                 _text(item, "speaker", path, where),
                 token_id)


def _suggestion(item: Any, path: PathLike, n: int, ids: dict[int, int]) -> Suggestion:
    where = f"suggestion {n}"
    token = item.get("token") if isinstance(item, dict) else None
    if not isinstance(token, int) or isinstance(token, bool) or token not in ids:
        raise FormatError(path, f"{where} is not on a token of this project")
    probs = item.get("probs", {})
    if not isinstance(probs, dict):
        raise FormatError(path, f"{where}: \"probs\" is not an object")
    probs = {key: number(p, path, where, f"the probability of {key!r}", low=-1e-6, high=1 + 1e-6)
             for key, p in probs.items()}
    try:
        return Suggestion(item["token"], Kind(item.get("kind")),
                          _text(item, "value", path, where, ""), probs,
                          State(item.get("state", "pending")),
                          _text(item, "original", path, where),
                          _source(item, path, where))
    except (ValueError, TypeError) as err:
        raise FormatError(path, f"{where}: {err}") from None


def _source(item: dict[str, Any], path: PathLike, where: str) -> str:
    source = item.get("source", "model")
    if source not in SUGGESTION_SOURCES:
        raise FormatError(path, f"{where}: \"source\" is {str(source)[:40]!r}, not one of "
                                f"{', '.join(SUGGESTION_SOURCES)}")
    return str(source)


def _metadata(item: Any, path: PathLike) -> Metadata:
    if not isinstance(item, dict):
        raise FormatError(path, "\"metadata\" is not an object")
    texts = {key: _text(item, key, path, "metadata") for key in _META_TEXT_FIELDS}
    warnings = item.get("warnings", [])
    extra = item.get("extra", {})
    if not isinstance(warnings, list) or not all(isinstance(w, str) for w in warnings):
        raise FormatError(path, "metadata: \"warnings\" is not a list of text")
    if not isinstance(extra, dict):
        raise FormatError(path, "metadata: \"extra\" is not an object")
    if texts["audio_file"]:
        texts["audio_file"] = _audio_from(texts["audio_file"], item.get("audio_file_absolute"), path)
    cues = item.get("cues", [])
    if not isinstance(cues, list):
        raise FormatError(path, "metadata: \"cues\" is not a list")
    return Metadata(**texts, duration=seconds(item.get("duration"), path, "metadata"),
                    warnings=tuple(warnings), extra=extra,
                    cues=tuple(_source_cue(c, path, n) for n, c in enumerate(cues, 1)))


def _cue_item(cue: SourceCue) -> dict[str, Any]:
    item = dataclasses.asdict(cue)
    return {key: list(value) if isinstance(value, tuple) else value
            for key, value in item.items() if value not in (None, "", ())}


def _source_cue(item: Any, path: PathLike, n: int) -> SourceCue:
    """A subtitle cue kept in a project (see SourceCue); anything odd is a FormatError."""
    where = f"metadata: cue {n}"
    if not isinstance(item, dict):
        raise FormatError(path, f"{where} is not an object")

    def numbers(key: str) -> tuple[int, ...]:
        value = item.get(key, [])
        if not isinstance(value, list) or not all(isinstance(i, int) and not isinstance(i, bool)
                                                  for i in value):
            raise FormatError(path, f"{where}: \"{key}\" is not a list of token ids")
        return tuple(value)

    words = item.get("words", [])
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise FormatError(path, f"{where}: \"words\" is not a list of text")
    start = seconds(item.get("start"), path, where)
    end = seconds(item.get("end"), path, where)
    if start is None or end is None:
        raise FormatError(path, f"{where} has no start or end time")
    return SourceCue(numbers("token_ids"), start, end, _text(item, "text", path, where, ""),
                     tuple(words), numbers("line_starts"), _text(item, "speaker", path, where),
                     _text(item, "ident", path, where), _text(item, "timing", path, where),
                     _text(item, "format", path, where, ""))


def _audio_paths(audio: str, project: PathLike) -> dict[str, str]:
    """``audio_file`` relative to the project's folder when the recording is in it or below, with
    the absolute path beside it for a project that moves without its recording; else nothing to
    change (the path is kept as it is)."""
    where = Path(audio)
    if not where.is_absolute():
        return {}
    folder = Path(os.path.abspath(project)).parent
    try:
        relative = Path(os.path.normpath(where)).relative_to(folder)
    except ValueError:
        return {}
    return {"audio_file": PurePosixPath(*relative.parts).as_posix(), "audio_file_absolute": audio}


def _audio_from(audio: str, absolute: Any, project: PathLike) -> str:
    """The recording's path as seen from here: a relative one is joined to the project's folder,
    unless only the absolute one written beside it exists (the project moved, the audio did not)."""
    if Path(os.path.expanduser(audio)).is_absolute():
        return audio
    here = os.path.normpath(Path(os.path.abspath(project)).parent / audio)
    if (not os.path.exists(here) and isinstance(absolute, str) and Path(absolute).is_absolute()
            and os.path.exists(absolute)):
        return absolute
    return here
