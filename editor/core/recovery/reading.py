"""Reading a recovery journal: the file an autosave keeps (written by editor/core/recovery/slots.py).

Its first line is ``JOURNAL_HEAD``. Each later line is one JSON object: a run of tokens and their
suggestions (``{"run": N, "tokens": [...], "suggestions": [...]}``, N new for each new content),
or a state: the project's head with the runs that make the document, in order
(``{"state": {...}, "runs": [N, ...], "edits": E}``). The last state whose runs are all there is
the document; a torn last line (a kill mid-append) is ignored. ``.stet`` files are read through
``read_project``, so a recovery file opens as a project does.

Beside it, the edit journal (``EDITS_HEAD``, written by ``editor.core.recovery.edits``) holds the
changes made after a state, one a line: ``{"edit": N, "splice": [start, removed, [tokens]]}``,
``{"edit": N, "suggestions": [[token id, [suggestions]], ...]}`` (each token's suggestions as
they became) or ``{"edit": N, "paragraphs": [token ids]}``. ``replay_edits`` applies those after
the state's ``E``, in order, up to the first number missing.
"""

from __future__ import annotations

import json
import mmap
import os
import re
from typing import Any

from editor.core.document.transcript import Suggestion, Token, Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import (PathLike, check_word_count, decode_utf8, open_regular,
                                         parse_json, read_head)
from editor.core.formats.stet import (metadata_from_record, read_stet, suggestion_from_record,
                                      token_from_record)

JOURNAL_HEAD = b'{"stet_recovery":1}\n'
EDITS_HEAD = b'{"stet_edits":1}\n'
#: An edit journal holds the changes since the last autosave (a few seconds): more is not one.
MAX_EDITS_BYTES = 64 * 2**20
_RUN_LINE = re.compile(rb'\{"run":(\d{1,18}),')
#: The most bytes a recovery file may hold: a journal of MAX_WORDS words with their suggestions
#: (~140 bytes a word), twice over. It is read through a memory map, a run at a time, so its size
#: costs no memory; the words are limited by MAX_WORDS as in any file.
MAX_JOURNAL_BYTES = 2 * 2**30




def is_journal(path: PathLike) -> bool:
    """Whether a file is a recovery journal (not a plain .stet project)."""
    return read_head(path, len(JOURNAL_HEAD)) == JOURNAL_HEAD


def read_journal(path: PathLike) -> Transcript:
    """The document of a recovery file: the last complete state whose runs are all there (a state
    before it when a run it needs is damaged). Read through a memory map a run at a time; anything
    malformed is a FormatError, as in a project."""
    return read_recovery(path)[0]


def read_recovery(path: PathLike) -> tuple[Transcript, int | None]:
    """``read_journal``, and the number of the last edit its state holds (None: it does not say,
    and no edit journal applies to it)."""
    fd = open_regular(path, MAX_JOURNAL_BYTES)
    try:
        size = os.fstat(fd).st_size
        if size <= len(JOURNAL_HEAD):
            raise FormatError(path, "this recovery file holds no autosave")
        with mmap.mmap(fd, size, access=mmap.ACCESS_READ) as data:
            runs: dict[int, tuple[int, int]] = {}
            states: list[tuple[int, int]] = []
            pos = len(JOURNAL_HEAD)
            while pos < size:
                end = data.find(b"\n", pos)
                if end < 0:
                    break  # a torn last line: an append cut short
                match = _RUN_LINE.match(data, pos, min(end, pos + 40))
                if match:
                    runs[int(match.group(1))] = (pos, end)
                elif data[pos:pos + 9] == b'{"state":':
                    states.append((pos, end))
                pos = end + 1
            first: FormatError | None = None
            for span in states[::-1][:3]:  # the last autosaves, newest first
                try:
                    return _journal_document(path, data, span, runs)
                except FormatError as err:
                    first = first or err
            raise first or FormatError(path, "this recovery file holds no complete autosave")
    finally:
        os.close(fd)


def _journal_document(path: PathLike, data: mmap.mmap, span: tuple[int, int],
                      runs: dict[int, tuple[int, int]]) -> tuple[Transcript, int | None]:
    def line(span: tuple[int, int]) -> Any:
        return parse_json(decode_utf8(data[span[0]:span[1]], path), path)

    state = line(span)
    numbers = state.get("runs") if isinstance(state, dict) else None
    head = state.get("state") if isinstance(state, dict) else None
    if not isinstance(numbers, list) or not isinstance(head, dict) or not all(
            isinstance(n, int) and n in runs for n in numbers):
        raise FormatError(path, "this recovery file holds no complete autosave")
    tokens: list[Token] = []
    suggestions: list[Suggestion] = []
    ids: dict[int, int] = {}
    for number in numbers:
        record = line(runs[number])
        items = record.get("tokens") if isinstance(record, dict) else None
        marks = record.get("suggestions") if isinstance(record, dict) else None
        if not isinstance(items, list) or not isinstance(marks, list):
            raise FormatError(path, f"run {number} is not a run of tokens")
        check_word_count(len(tokens) + len(items), path)
        for item in items:
            token = token_from_record(item, path, len(tokens))
            if token.id in ids:
                raise FormatError(path, "two tokens have the same id")
            ids[token.id] = len(tokens)
            tokens.append(token)
        suggestions.extend(suggestion_from_record(item, path, len(suggestions) + n, ids)
                           for n, item in enumerate(marks))
    paragraph_ids = head.get("paragraph_starts", [])
    if not isinstance(paragraph_ids, list) or not all(isinstance(i, int) and i in ids
                                                      for i in paragraph_ids):
        raise FormatError(path, "a paragraph starts at a token that does not exist")
    edits = state.get("edits")
    doc = Transcript(tokens, paragraph_starts=[ids[i] for i in paragraph_ids],
                     metadata=metadata_from_record(head.get("metadata", {}), path), suggestions=suggestions)
    return doc, edits if isinstance(edits, int) and not isinstance(edits, bool) else None


def replay_edits(doc: Transcript, path: PathLike, after: int) -> int:
    """Apply to ``doc`` (a recovery file's document, whose state holds the edits up to ``after``)
    the edits of the journal at ``path`` that follow, in order; stop at the first one missing,
    torn or malformed, or that does not fit the document (what came before it stays applied).
    Returns how many were applied; a missing or unreadable journal applies none."""
    try:
        fd = open_regular(path, MAX_EDITS_BYTES)
    except (FormatError, OSError):
        return 0
    try:
        with os.fdopen(fd, "rb") as f:
            data = f.read()
    except OSError:
        return 0
    if not data.startswith(EDITS_HEAD):
        return 0
    applied = 0
    expected = after + 1
    for raw in data[len(EDITS_HEAD):].split(b"\n")[:-1]:  # (the last piece: empty, or torn)
        try:
            record = json.loads(raw)
            number = record["edit"]
        except (ValueError, TypeError, KeyError, RecursionError):
            break
        if not isinstance(number, int) or number < expected:
            continue  # held by the state already
        if number != expected:
            break  # a change that was not written: nothing after it fits
        try:
            _replay(doc, record, path)
        except (FormatError, ValueError, TypeError, KeyError, IndexError):
            break
        applied += 1
        expected += 1
    return applied


def _replay(doc: Transcript, record: dict[str, Any], path: PathLike) -> None:
    if "splice" in record:
        start, removed, items = record["splice"]
        doc.apply_recorded(splice=(start, removed, [token_from_record(t, path, start + n)
                                                    for n, t in enumerate(items)]))
    elif "suggestions" in record:
        ids = {t.id: n for n, t in enumerate(doc.tokens)}
        marks: dict[int, list[Suggestion]] = {}
        for token_id, items in record["suggestions"]:
            known = {**ids, token_id: -1}  # a token just deleted may lose its suggestions
            marks[token_id] = [suggestion_from_record(item, path, n, known) for n, item in enumerate(items)]
        doc.apply_recorded(suggestions=marks)
    elif "paragraphs" in record:
        doc.apply_recorded(paragraph_ids=record["paragraphs"])
    else:
        raise FormatError(path, "an edit of an unknown kind")


def journal_info(path: PathLike) -> Any:
    """The ``recovery`` part (file, time, words) of a recovery file's last state, or None."""
    try:
        with open(path, "rb") as f:
            f.seek(max(0, os.fstat(f.fileno()).st_size - 2**22))
            tail = f.read()
    except OSError:
        return None
    for raw in reversed(tail.split(b"\n")):
        if raw.startswith(b'{"state":'):
            try:
                return json.loads(raw)["state"].get("recovery")
            except (ValueError, KeyError, AttributeError, RecursionError):
                return None
    return None


def read_project(path: PathLike) -> Transcript:
    """A ``.stet`` file: a project, or a recovery journal (an autosave opened as a project)."""
    if is_journal(path):
        return read_journal(path)
    return read_stet(path)
