"""Plain-text transcripts with times, as meeting and transcription services export them: Otter.ai
and Microsoft Teams' Word transcripts put the speaker and the time on a line of their own ("Jane
Doe  0:15"), Rev the same in parentheses ("Jane Doe (00:01:02):"), Descript the time first
("[00:00:05] John: ..."), noScribe the speaker first ("S00: [00:00:05] ..."), Google Meet's
transcript and YouTube's transcript panel a time alone on a line ("00:01:12", "0:02") or, copied
otherwise, at the start of every line ("0:02 the channel").

Where such lines are the file's pattern (two or more, never going back in time, each with words
after it before the next), a time is when the words after it begin, not words, and a name on its
line is the speaker of the paragraph it heads; this is said in one warning. The words after a
time are spread at a speaking pace (15 characters a second), up to the next time at most.
Elsewhere a time is text like any other ("We met at\n10:30\n..." once, "Intro 0:00" in a list
of chapters)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import islice
from dataclasses import dataclass, field, replace

from editor.core.document.transcript import Metadata, Spread, Token, Transcript
from editor.core.formats._common import check_word_count, gap_paragraph_starts, spread
from editor.core.formats.subtitles.cues import parse_clock
from editor.core.formats.subtitles.prefixes import is_name, speaker_prefix, takes_prefixes
from editor.core.document.text import Piece, words_of_blocks

#: m:ss, mm:ss, h:mm:ss or hh:mm:ss, with milliseconds or not
_CLOCK = r"(?:\d{1,2}:)?\d{1,2}:[0-5]\d(?:[.,]\d{1,3})?"
#: a time alone on a line, bare or in brackets ("0:02", "00:01:12", "[00:01:12]")
_STAMP = re.compile(rf"[ \t]*(?:\[({_CLOCK})\]|\(({_CLOCK})\)|({_CLOCK}))[ \t]*")
_NAME = r"[^\W\d_][\w'’.&-]*(?:[ \t][\w'’.&-]+){0,5}"
#: Otter and Microsoft Teams' Word transcript: the name, spaces, the time
_OTTER = re.compile(rf"[ \t]*({_NAME})[ \t]+({_CLOCK})[ \t]*")
#: Rev: the name, the time in parentheses or brackets, a colon; the words on the next line or after it
_REV = re.compile(rf"[ \t]*({_NAME})[ \t]*[(\[]({_CLOCK})[)\]](?::[ \t]*(.*?)|[ \t]*)[ \t]*")
#: Descript and others: the time in brackets at the start of a line, the words after it
_LEADING = re.compile(rf"[ \t]*\[({_CLOCK})\][ \t]+(\S.*)")
#: noScribe's text (its HTML saved as text, with timestamps on): the speaker, a colon, the time in
#: brackets, the words ("S00: [00:00:05] so the seed library")
_NAMED_LEADING = re.compile(rf"[ \t]*({_NAME}):[ \t]*\[({_CLOCK})\][ \t]*(.*?)[ \t]*")
#: Descript's without brackets ("0:03 hello everyone"), taken only where every line begins so
_BARE_LEADING = re.compile(rf"[ \t]*({_CLOCK})[ \t]+(\S.*)")
#: what every _CLOCK holds, looked for in the whole text before its lines are
_ANY_CLOCK = re.compile(r"\d:[0-5]\d")


#: How fast words are taken to be spoken after their time (about 180 words a minute), where the
#: next time is further off: a pause, not slow words
_CHARACTERS_PER_SECOND = 15.0


@dataclass(slots=True)
class _Line:
    time: float | None = None
    name: str | None = None  # a speaker named on the time's line
    text: str = ""  # the words on the line (a time's line: those after it)
    timed: bool = False


@dataclass(slots=True)
class _Entry:
    name: str | None
    segment: int  # how many times came before it (its words are timed by the last)
    new_paragraph: bool
    lines: list[str] = field(default_factory=list)


def _seconds(clock: str) -> float | None:
    """The seconds of a _CLOCK, read as a subtitle's time is; None where h:mm:ss has minutes past 59."""
    parts = clock.split(":")
    if len(parts) == 3 and int(parts[1]) > 59:
        return None
    return parse_clock(clock)


def _classify(line: str, bare: bool = False) -> _Line:
    found = _STAMP.fullmatch(line)
    if found:
        return _Line(_seconds(next(g for g in found.groups() if g)), timed=True)
    found = _OTTER.fullmatch(line) or _REV.fullmatch(line)
    if found and is_name(found.group(1)):
        rest = found.group(3) if found.re is _REV else None
        return _Line(_seconds(found.group(2)), " ".join(found.group(1).split()), rest or "", True)
    found = _NAMED_LEADING.fullmatch(line)
    if found and is_name(found.group(1)):
        return _Line(_seconds(found.group(2)), " ".join(found.group(1).split()), found.group(3), True)
    found = _LEADING.fullmatch(line) or (_BARE_LEADING.fullmatch(line) if bare else None)
    if found:
        return _Line(_seconds(found.group(1)), None, found.group(2), True)
    return _Line(text=line)


def stamped_transcript(text: str, metadata: Metadata) -> Transcript | None:
    """The transcript of text whose lines carry times (see the module's docstring), or None when
    times are not the text's pattern."""
    if next(islice(_ANY_CLOCK.finditer(text), 1, None), None) is None:
        return None  # fewer than two times in all: no line need be looked at (a long text's are many)
    raw = text.split("\n")
    bare = all(_BARE_LEADING.fullmatch(line) for line in raw if line.strip())
    lines = [_classify(line, bare) for line in raw]
    times = [line.time for line in lines if line.timed]
    if len(times) < 2 or any(t is None for t in times) or any(
            b < a for a, b in zip(times, times[1:]) if a is not None and b is not None):
        return None
    named = any(line.name for line in lines)
    # without names on the time lines (Google Meet, Descript), "Ann: " at a line's start may be
    # the speaker, where that is the pattern of the lines' words
    prefixed = not named and takes_prefixes([line.text for line in lines if line.text.strip()])
    entries: list[_Entry] = []
    segment = 0
    blank = True  # a blank line came before (a time alone on its line leaves this as it was)
    for line in lines:
        name, words = None, line.text
        if prefixed and words.strip():
            name, words = speaker_prefix(words)
        if line.timed:
            segment += 1
        if not entries or line.timed or line.name or name or (blank and words.strip()):
            entries.append(_Entry(line.name or name, segment,
                                  bool(line.name or name or blank or (line.timed and words
                                                                       and not bare))))
        if words.strip():
            entries[-1].lines.append(words)
        if line.text.strip() or line.name:
            blank = False
        elif not line.timed:
            blank = True
    spoken = {e.segment for e in entries if any(ch.isalnum() for line in e.lines for ch in line)}
    if not spoken.issuperset(range(1, segment + 1)):
        return None  # a time with no words after it: a list of times ("Intro  0:00"), not these
    return _transcript(entries, [t for t in times if t is not None], metadata)


def _transcript(entries: Sequence[_Entry], times: Sequence[float], metadata: Metadata) -> Transcript:
    pieces_of = [words_of_blocks(["\n".join(e.lines)])[0] for e in entries]
    check_word_count(sum(len(p) for p in pieces_of), metadata.source_file)
    tokens: list[Token] = []
    starts: set[int] = set()
    speaker: str | None = None
    groups: list[list[tuple[_Entry, list[Piece]]]] = [[] for _ in range(len(times) + 1)]
    for entry, pieces in zip(entries, pieces_of):
        groups[entry.segment].append((entry, pieces))
    for k, group in enumerate(groups):  # the words before the first time, then after each
        words = [p for _, ps in group for p in ps]
        start = times[k - 1] if k else None
        end = None
        if start is not None:  # at a speaking pace, up to the next time at most
            end = start + sum(len(p.surface) + 1 for p in words) / _CHARACTERS_PER_SECOND
            if k < len(times):
                end = max(start, min(end, times[k]))
        # the end is a guess (a speaking pace, or the next time): only the start is the speaker's
        timed = spread(words, start, end, guessed=Spread.END) if start is not None else None
        at = 0
        for entry, pieces in group:
            speaker = entry.name or speaker
            if not pieces:
                continue
            if entry.new_paragraph or not tokens:
                starts.add(len(tokens))
            for n, piece in enumerate(pieces):
                token = timed[at + n] if timed else Token(piece.word, piece.surface, piece.punct)
                tokens.append(Token(token.word, token.surface, token.punct, token.start,
                                    token.end, speaker=speaker, id=len(tokens), spread=token.spread))
            at += len(pieces)
    starts.update(gap_paragraph_starts(tokens))
    shown = ", ".join(_clock(t) for t in times[:3]) + (", ..." if len(times) > 3 else "")
    warning = (f"{len(times)} times on lines of their own or before a speaker's words ({shown}) "
               "were read as the times the words after them begin, not as words")
    return Transcript(tokens, paragraph_starts=sorted(starts),
                      metadata=replace(metadata, warnings=(*metadata.warnings, warning)))


def _clock(seconds: float) -> str:
    minutes, s = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{s:02d}" if hours else f"{minutes}:{s:02d}"
