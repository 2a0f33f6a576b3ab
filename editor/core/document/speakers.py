"""Who said what: the speakers of a transcript, counted, and renames as people type them.

A speaker is the name on each word (``Token.speaker``); changing them is the transcript's
(``Transcript.set_speaker``, ``rename_speakers``), one undo step each."""

from __future__ import annotations

import bisect
from os import PathLike
from pathlib import PurePath
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from editor.core.document.transcript import Transcript
from editor.core.document.records import evolve
from editor.core.errors import UsageError, UserError

#: Longest speaker name kept; a longer "name" is text, not a name.
MAX_NAME = 60


@dataclass(frozen=True, slots=True)
class SpeakerCount:
    name: str
    words: int
    seconds: float  # time of their words (0 where words have no times)
    turns: int  # how many times they start speaking


@dataclass(frozen=True, slots=True)
class SpeakerTurn:
    """A stretch of a recording (seconds) where one speaker talks, as speaker turns are found."""

    start: float
    end: float
    speaker: str


def speaker_at(turns: Sequence[SpeakerTurn], start: float, end: float) -> str | None:
    """The speaker of a word timed ``start..end``: the turn that holds its middle, else the
    nearest turn; None when there are no turns. ``turns`` are in time order."""
    if not turns:
        return None
    middle = (start + end) / 2
    k = bisect.bisect_right([t.start for t in turns], middle) - 1
    if k >= 0 and middle <= turns[k].end:
        return turns[k].speaker
    near = [turns[i] for i in (k, k + 1) if 0 <= i < len(turns)]
    return min(near, key=lambda t: min(abs(t.start - middle), abs(t.end - middle))).speaker


def apply_turns(doc: Transcript, turns: Sequence[SpeakerTurn]) -> int:
    """Give each timed word the speaker of its turn (a word without a time, typed by the person,
    takes its timed neighbour's) and start a paragraph at each change of speaker. Paragraphs
    already there stay. One undo step ("Speaker turns"); returns how many words changed."""
    tokens = doc.tokens
    names: list[str | None] = [None if t.start is None or t.end is None else speaker_at(turns, t.start, t.end)
                               for t in tokens]
    for i in range(1, len(names)):  # untimed words: the speaker before them...
        if names[i] is None:
            names[i] = names[i - 1]
    for i in range(len(names) - 2, -1, -1):  # ...or, at the start, after them
        if names[i] is None:
            names[i] = names[i + 1]
    updates = [(i, evolve(t, speaker=name)) for i, (t, name) in enumerate(zip(tokens, names))
               if name is not None and t.speaker != name]
    breaks = {tokens[i].id: True for i in range(1, len(tokens))
              if names[i] is not None and names[i] != names[i - 1]}
    if updates or breaks:
        with doc.history.group("Speaker turns"):
            if updates:
                doc.push_tokens(updates, "")
            doc.push_paragraphs(breaks, "")
    return len(updates)


def speakers_in_order(doc: Transcript) -> list[str]:
    """The speakers' names in the order they first speak."""
    return list(dict.fromkeys(t.speaker for t in doc.tokens if t.speaker))


def count_speakers(doc: Transcript) -> list[SpeakerCount]:
    """Each speaker's words, time and turns, in the order they first speak."""
    words: dict[str, int] = {}
    seconds: dict[str, float] = {}
    turns: dict[str, int] = {}
    previous = None
    for t in doc.tokens:
        name = t.speaker
        if name:
            words[name] = words.get(name, 0) + 1
            if t.start is not None and t.end is not None and t.end > t.start:
                seconds[name] = seconds.get(name, 0.0) + (t.end - t.start)
            if name != previous:
                turns[name] = turns.get(name, 0) + 1
        previous = name
    return [SpeakerCount(n, words[n], seconds.get(n, 0.0), turns.get(n, 0)) for n in words]


def clean_name(text: str) -> str | None:
    """A speaker name as typed: spaces collapsed; None when empty. Raises ValueError when it is
    too long or holds a line break or a colon (written as "Name: ", a colon would part it)."""
    name = " ".join(text.split())
    if not name:
        return None
    if len(name) > MAX_NAME:
        raise ValueError(f"a speaker name is at most {MAX_NAME} characters")
    if ":" in name or any(ch in name for ch in "<>[]"):
        raise ValueError("a speaker name cannot hold : < > [ or ]")
    return name


def parse_renames(items: Iterable[str]) -> dict[str, str]:
    """``--speaker "Speaker 1=Ann"`` options as {old: new}; two old names may map to one new name
    (a merge). A malformed one is a UsageError."""
    out: dict[str, str] = {}
    for item in items:
        old, sep, new = item.partition("=")
        try:
            old_name, new_name = clean_name(old), clean_name(new)
        except ValueError as err:
            raise UsageError(f"--speaker {item!r}: {err}") from None
        if not sep or old_name is None or new_name is None:
            raise UsageError(f"--speaker takes OLD=NEW (\"Speaker 1=Ann\"), not {item!r}")
        if old_name in out and out[old_name] != new_name:
            raise UsageError(f"--speaker names {old_name!r} twice")
        out[old_name] = new_name
    return out


def check_renames(doc: Transcript, renames: Mapping[str, str]) -> None:
    """A UserError naming the speakers a rename asks for that the transcript does not have."""
    have = set(speakers_in_order(doc))
    missing = [name for name in renames if name not in have]
    if missing:
        known = ", ".join(repr(n) for n in speakers_in_order(doc)) or "none"
        raise UserError(f"no speaker {', '.join(repr(n) for n in missing)} in "
                         f"{doc.metadata.source_file or 'the transcript'} (its speakers: {known})")


def speaker_table(counts: Iterable[SpeakerCount], total_words: int) -> str:
    """The speakers as `stet speakers` prints them, one a line under a heading."""
    rows = list(counts)
    spoken = sum(c.seconds for c in rows)
    width = max(len("speaker"), *(len(c.name) for c in rows))
    lines = [f"{'speaker':<{width}}  {'words':>7}  {'share':>6}  {'time':>6}  {'turns':>5}"]
    for c in rows:
        share = f"{100 * c.words / total_words:.1f}%" if total_words else "-"
        time = f"{100 * c.seconds / spoken:.1f}%" if spoken else "-"
        lines.append(f"{c.name:<{width}}  {c.words:>7}  {share:>6}  {time:>6}  {c.turns:>5}")
    unnamed = total_words - sum(c.words for c in rows)
    if unnamed:
        lines.append(f"({unnamed} words have no speaker)")
    return "\n".join(lines) + "\n"


#: The formats that can carry a time at each speaker turn ("[00:12:34] Ann: ...", as noScribe writes)
TURN_TIME_FORMATS = (".txt", ".md", ".docx")


def writer_options(path: str | PathLike[str], turn_times: bool = False) -> dict[str, bool]:
    """The text writer's options: a time at each speaker turn (``turn_times``, in
    :data:`TURN_TIME_FORMATS`). How subtitles are laid out is the writers' ``layout``
    (`editor.core.formats.subtitles.layout`)."""
    if turn_times and PurePath(path).suffix.lower() in TURN_TIME_FORMATS:
        return {"turn_times": True}
    return {}


def turn_times_note(path: str | PathLike[str]) -> str | None:
    """Why a time at each speaker turn is not written to ``path`` (None where it is)."""
    if PurePath(path).suffix.lower() in TURN_TIME_FORMATS:
        return None
    return (f"times at speaker turns are written in {', '.join(TURN_TIME_FORMATS)} only; "
            f"{PurePath(path).suffix or 'this format'} keeps its own times")
