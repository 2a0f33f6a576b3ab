"""The ``.stet`` project file: JSON holding everything needed to reopen a session exactly —
tokens with ids and times, paragraphs, metadata and every suggestion with its state.

Undo history is not kept. Saving is atomic, so a crash mid-save leaves the previous file intact.
A recording in the project's folder (or below it) is written relative to it, so the two can move
together; in memory, ``metadata.audio_file`` is always the path as found from here.

This module is the format: reading a project, and the records it is made of (``project_head``,
``token_record``, ``suggestion_record``, ``cue_record``). One writer writes it, whoever saves:
``editor.core.project_writer`` (``write_stet`` for `write_any`, ``ProjectWriter`` for the window's
saves, and the recovery file's runs are the same records).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path, PurePosixPath
from typing import Any

from editor import __version__
from editor.core.document.transcript import Kind, Metadata, SourceCue, State, Suggestion, Token, Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import (SPREAD_NAMES, SURROGATE_ESCAPE, MAX_WORDS, PathLike,
                                         refuse_lone_surrogates, reject_constant,
                                         check_word_count, decode_utf8, number, parse_json,
                                         probability, read_bytes, seconds, spread_of)

FORMAT_VERSION = 1
#: Who may have proposed a suggestion (Suggestion.source).
SUGGESTION_SOURCES = ("model", "choice", "lexicon")
_META_TEXT_FIELDS = ("source_file", "audio_file", "language", "model", "restore_model")


#: A project is parsed a record at a time (see ``_parse_project``), so it costs the memory of
#: its words, not that of a whole JSON tree (up to 49 bytes per byte of file). Measured with
#: tests/perf/bench_reader_memory.py (docs/performance.md): 7.5 bytes per byte with every suggestion
#: (2,170 per word), 19 for the densest tokens ({"id", "word"}, 475 per word, held to MAX_WORDS).
#: 128 MB is ~490,000 words with every suggestion (~50 hours of speech); was 32 MB.
MAX_STET_BYTES = 128 * 2**20
#: A hostile project could hold one record that is a dense tree of values (all alive at once):
#: the values and containers a file may hold are counted first (C-speed ``str.count``) and
#: bounded so that even then the tree stays near 1 GB (a value ~58 bytes, a container ~64).
#: A real project of MAX_STET_BYTES holds ~11 M commas and ~2.5 M containers.
MAX_STET_VALUES = 16_000_000
MAX_STET_CONTAINERS = 4_000_000


def read_stet(path: PathLike) -> Transcript:
    """A project (``read_any`` reads a recovery journal too: recovery.reading.read_project)."""
    data = read_bytes(path, MAX_STET_BYTES)
    text = decode_utf8(data, path)
    del data
    if (text.count(",") > MAX_STET_VALUES
            or text.count("{") + text.count("[") > MAX_STET_CONTAINERS):
        raise FormatError(path, "the project holds more values than a transcript of "
                          f"{MAX_WORDS:,} words can")
    return _parse_project(text, path)


_SPACE = re.compile(r"[ \t\n\r]*")
_DECODE = json.JSONDecoder(parse_constant=reject_constant).raw_decode


def _parse_project(text: str, path: PathLike) -> Transcript:
    """A project's JSON read a token and a suggestion at a time: each record becomes a Token or a
    Suggestion as soon as it is read, so a long project never exists as a tree of dicts (a
    million tokens with suggestions would take gigabytes). The rest of the object is parsed as
    usual. Errors are those of ``parse_json`` (a line number, one line)."""
    head: dict[str, Any] = {}
    tokens: list[Token] = []
    ids: dict[int, int] = {}
    suggestions: list[Suggestion] = []
    streamed: set[str] = set()  # the keys read a record at a time
    surrogates = SURROGATE_ESCAPE.search(text) is not None

    def value(pos: int) -> tuple[Any, int]:
        item, end = _DECODE(text, pos)
        if surrogates:
            refuse_lone_surrogates(item)
        return item, end

    def space(pos: int) -> int:
        return _SPACE.match(text, pos).end()  # type: ignore[union-attr]

    def fail(pos: int, what: str) -> FormatError:
        return FormatError(path, f"not valid JSON ({what})", line=text.count("\n", 0, pos) + 1)

    def records(pos: int, each: Any) -> int:
        """The elements of the list at ``pos``, each handed to ``each`` as it is read."""
        pos = space(pos + 1)
        if text.startswith("]", pos):
            return pos + 1
        while True:
            item, pos = value(space(pos))
            each(item)
            pos = space(pos)
            if text.startswith("]", pos):
                return pos + 1
            if not text.startswith(",", pos):
                raise fail(pos, "expecting ',' delimiter")
            pos += 1

    def token(item: Any) -> None:
        check_word_count(len(tokens) + 1, path)
        t = token_from_record(item, path, len(tokens))
        if t.id in ids:
            raise FormatError(path, "two tokens have the same id")
        ids[t.id] = len(tokens)
        tokens.append(t)

    def suggestion(item: Any) -> None:
        suggestions.append(suggestion_from_record(item, path, len(suggestions), ids))

    try:
        pos = space(0)
        if not text.startswith("{", pos):  # not an object: said as a whole parse says it
            return transcript_from_stet(parse_json(text, path), path)
        pos = space(pos + 1)
        while not text.startswith("}", pos):
            key, pos = value(pos)
            if not isinstance(key, str):
                raise fail(pos, "expecting property name")
            pos = space(pos)
            if not text.startswith(":", pos):
                raise fail(pos, "expecting ':' delimiter")
            pos = space(pos + 1)
            if key in ("tokens", "suggestions") and key in streamed:
                # a key twice (the last one counts): rare enough to parse the JSON whole
                return transcript_from_stet(parse_json(text, path), path)
            if key == "tokens" and text.startswith("[", pos) and "tokens" not in head:
                pos = records(pos, token)
                streamed.add(key)
            elif (key == "suggestions" and text.startswith("[", pos) and "tokens" in streamed
                    and "suggestions" not in head):
                pos = records(pos, suggestion)
                streamed.add(key)
            else:
                head[key], pos = value(pos)
            pos = space(pos)
            if text.startswith(",", pos):
                pos = space(pos + 1)
                if text.startswith("}", pos):
                    raise fail(pos, "expecting property name")
            elif not text.startswith("}", pos):
                raise fail(pos, "expecting ',' delimiter")
        if space(pos + 1) != len(text):
            raise fail(space(pos + 1), "extra data")
    except json.JSONDecodeError as err:
        raise FormatError(path, f"not valid JSON ({err.msg})", line=err.lineno) from None
    except RecursionError:
        raise FormatError(path, "the JSON is nested too deeply to be a transcript") from None
    except FormatError:
        raise
    except ValueError as err:
        if "digits" in str(err):
            raise FormatError(path, "the JSON holds a number with thousands of digits") from None
        raise FormatError(path, str(err).split("\n")[0]) from None
    return transcript_from_stet(head, path, tokens=tokens if "tokens" in streamed else None,
                                suggestions=suggestions if "suggestions" in streamed else None)


def project_head(metadata: Metadata, path: PathLike | None = None, *,
                 cues: Any = None) -> dict[str, Any]:
    """A project's JSON-able head: everything but its paragraphs, tokens and suggestions, which
    the writer adds (``editor.core.project_writer``). With the ``path`` it is written to, a
    recording in that file's folder is named relative to it. ``cues``: what to put for the
    subtitle cues, when there are any, instead of their records (their JSON already made, as
    the writer keeps it: ``editor.core.recovery.state.EncodeCache.cues_json``)."""
    m = metadata
    fields: dict[str, Any] = {key: getattr(m, key) for key in _META_TEXT_FIELDS}
    # m.warnings say how the source was read (e.g. a guessed encoding): they belong to that reading,
    # not to the project, which is always UTF-8 JSON; so they are not saved.
    fields.update(duration=m.duration, extra=dict(m.extra))
    if m.cues:
        fields["cues"] = cues if cues is not None else [cue_record(c) for c in m.cues]
    if path is not None and m.audio_file:
        fields.update(_audio_paths(m.audio_file, path))
    return {"format_version": FORMAT_VERSION, "generator": f"stet {__version__}", "metadata": fields}


def token_record(t: Token) -> dict[str, Any]:
    """One token as a project stores it (an autosave writes them slice by slice)."""
    item: dict[str, Any] = {"id": t.id, "word": t.word}
    # field by field, not a loop over pairs: an autosave builds 100,000 of these at a time
    if t.surface != t.word:
        item["surface"] = t.surface
    if t.punct:
        item["punct"] = t.punct
    if t.start is not None:
        item["start"] = t.start
    if t.end is not None:
        item["end"] = t.end
    if t.confidence is not None:
        item["conf"] = t.confidence
    if t.speaker:
        item["speaker"] = t.speaker
    if t.spread:  # absent where both times are measured: a file older Stets read as ever
        item["spread"] = SPREAD_NAMES[t.spread]
    return item


def suggestion_record(s: Suggestion) -> dict[str, Any]:
    """One suggestion as a project stores it."""
    item: dict[str, Any] = {"token": s.token_id, "kind": s.kind.value, "value": s.value,
                            "probs": s.probs, "state": s.state.value}
    if s.original is not None:
        item["original"] = s.original
    if s.source != "model":
        item["source"] = s.source
    if s.needs_start:
        item["needs_start"] = True
    return item


def transcript_from_stet(data: Any, path: PathLike, *, tokens: list[Token] | None = None,
                         suggestions: list[Suggestion] | None = None) -> Transcript:
    """A project from its parsed JSON; ``tokens`` and ``suggestions``, when given, are those
    already read from it (``_parse_project``)."""
    if not isinstance(data, dict) or "format_version" not in data:
        raise FormatError(path, "this is not a Stet project: no format_version")
    version = data["format_version"]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise FormatError(path, f"format_version {version!r} is not a version number")
    if version > FORMAT_VERSION:
        raise FormatError(path, f"this project was saved by a newer Stet (format {version}); "
                          "update Stet to open it")
    if tokens is None:
        items = _list(data, "tokens", path)
        check_word_count(len(items), path)
        tokens = [token_from_record(item, path, n) for n, item in enumerate(items)]
    ids = {t.id: i for i, t in enumerate(tokens)}
    if len(ids) != len(tokens):
        raise FormatError(path, "two tokens have the same id")
    paragraph_ids = _list(data, "paragraph_starts", path)
    if not all(isinstance(i, int) and i in ids for i in paragraph_ids):
        raise FormatError(path, "a paragraph starts at a token that does not exist")
    if suggestions is None:
        suggestions = [suggestion_from_record(item, path, n, ids)
                       for n, item in enumerate(_list(data, "suggestions", path))]
    return Transcript(tokens, paragraph_starts=[ids[i] for i in paragraph_ids],
                      metadata=metadata_from_record(data.get("metadata", {}), path),
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


def token_from_record(item: Any, path: PathLike, n: int) -> Token:
    """Token ``n`` of a project (or of a recovery file's run) from its record; anything odd is a
    FormatError."""
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
                 token_id, spread_of(item.get("spread"), path, where))


def suggestion_from_record(item: Any, path: PathLike, n: int, ids: dict[int, int]) -> Suggestion:
    """Suggestion ``n`` from its record, on a token of ``ids`` (token id -> index); anything odd
    is a FormatError."""
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
                          _source(item, path, where), _flag(item, "needs_start", path, where))
    except (ValueError, TypeError) as err:
        raise FormatError(path, f"{where}: {err}") from None


def _flag(item: dict[str, Any], key: str, path: PathLike, where: str) -> bool:
    value = item.get(key, False)
    if not isinstance(value, bool):
        raise FormatError(path, f"{where}: \"{key}\" is {str(value)[:40]!r}, not true or false")
    return value


def _source(item: dict[str, Any], path: PathLike, where: str) -> str:
    source = item.get("source", "model")
    if source not in SUGGESTION_SOURCES:
        raise FormatError(path, f"{where}: \"source\" is {str(source)[:40]!r}, not one of "
                                f"{', '.join(SUGGESTION_SOURCES)}")
    return str(source)


def metadata_from_record(item: Any, path: PathLike) -> Metadata:
    """A project's metadata from its record; anything odd is a FormatError."""
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
                    extra=extra,  # "warnings" of older projects were the source's: not this read's
                    cues=tuple(_source_cue(c, path, n) for n, c in enumerate(cues, 1)))


def cue_record(cue: SourceCue) -> dict[str, Any]:
    """One subtitle cue as a project stores it: the fields that are set, in their order (tuples
    are JSON arrays). Field by field rather than ``dataclasses.asdict``, which deep-copies every
    value: at 100,000 subtitle words (8,334 cues) that took 0.25 s of a write ahead's 0.5 s."""
    item: dict[str, Any] = {}
    if cue.token_ids:
        item["token_ids"] = list(cue.token_ids)
    if cue.start is not None:
        item["start"] = cue.start
    if cue.end is not None:
        item["end"] = cue.end
    if cue.text:
        item["text"] = cue.text
    if cue.words:
        item["words"] = list(cue.words)
    if cue.line_starts:
        item["line_starts"] = list(cue.line_starts)
    for key, value in (("speaker", cue.speaker), ("ident", cue.ident), ("timing", cue.timing),
                       ("format", cue.format)):
        if value:
            item[key] = value
    return item


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
