"""SubRip subtitles (.srt), and the cue blocks SubViewer (``sbv``) and WebVTT (``vtt``) share.

Read by hand, leniently: the ``srt`` library refuses what real files hold (negative times, X1/Y2
coordinates after the times, a missing cue number) and pysubs2 reads those but drops a cue whose
time has no milliseconds, strips "x <y and y> z" to "x z" and keeps no cue as written, which an
exact round trip needs. A cue is a time line and the text up to the next cue's number and time
line; everything else about the file is tolerated.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from editor.core.document.transcript import Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import PathLike, atomic_write, format_clock
from editor.core.formats.subtitles.writing import OutCue, cues_to_write, html_lines, styling_warnings
from editor.core.formats.subtitles.prefixes import reads_as_name, written_prefix
from editor.core.formats.subtitles.cues import Cue, checked_times, parse_clock, protect
from editor.core.formats.subtitles.reading import transcript_from_cues
from editor.core.formats.txt import read_source
from editor.core.formats.subtitles.layout import DEFAULT_LAYOUT, SubtitleLayout
from editor.core.formats.subtitles.writeback import encode, source_of, write_back
from editor.core.render import NONE, RenderPolicy

_CLOCK = r"-?(?:\d+:)?\d{1,2}:\d{1,2}(?:[,.:]\d{1,9})?"
SRT_TIMING = re.compile(rf"^\s*({_CLOCK})\s*-+>\s*({_CLOCK})(.*)$")
SBV_TIMING = re.compile(rf"^\s*({_CLOCK})\s*,\s*({_CLOCK})\s*$")
# A line that begins like a time and has an arrow, but is not a time line this reader takes:
# "1:2" and the arrow in its first run of non-space, or alone after it (`\S*\s*-+>`, matched in
# linear time: written so, a line of "1:1" and a million dashes took the regex hours).
_TIME_LIKE = re.compile(r"^\s*+-?\d++:\d++(?:\S*?->|\S*+\s*+-++>)")
# SubViewer's: two times parted by a comma, in one run of non-space or two (`\S*,\s*\d+:\d+\S*\s*$`,
# in linear time likewise).
_SBV_LIKE = re.compile(r"^\s*+\d++:\d++(?:(?=\S*+\s*+$)\S*?,\d+:\d|\S*+(?<=,)\s++\d+:\d+\S*+\s*+$)")
_NUMBER = re.compile(r"^\s*\d+\s*$")
_CUE_NUMBER = re.compile(r"[ \t]*(\d+)[ \t]*")


def read_srt(path: PathLike, encoding: str | None = None) -> Transcript:
    text, warnings, source = read_source(path, encoding, line_breaks=False)
    return transcript_from_cues(parse_blocks(text, path, warnings, SRT_TIMING), path, warnings, "srt",
                                source=source)


def parse_blocks(text: str, path: PathLike, warnings: list[str], timing: re.Pattern[str],
                 name: str = "SubRip", example: str = "00:00:01,000 --> 00:00:02,000") -> list[Cue]:
    """Cues of SubRip-like text: a time line, the text after it up to the next cue's number (or
    time line). Lines before the first cue (a WEBVTT header, a title) are skipped."""
    lines = text.split("\n")
    marks = [i for i, line in enumerate(lines) if timing.match(line)]
    time_like = _TIME_LIKE if timing is SRT_TIMING else _SBV_LIKE
    broken = next((i for i, line in enumerate(lines)
                   if time_like.match(line) and not timing.match(line)), None)
    if broken is not None:
        raise FormatError(path, f"the time line cannot be read: {lines[broken].strip()[:60]!r} "
                          f"(expected one such as {example})", line=broken + 1)
    if not marks:
        if text.strip():
            arrow = next((i for i, line in enumerate(lines) if "-->" in line), None)
            if arrow is not None:
                raise FormatError(path, f"the time line cannot be read: {lines[arrow].strip()[:60]!r} "
                                  f"(expected one such as {example})", line=arrow + 1)
            raise FormatError(path, f"this is not {name}: no time line such as {example}")
        return []
    cues = []
    for k, i in enumerate(marks):
        nxt = marks[k + 1] if k + 1 < len(marks) else len(lines)
        top, bottom = i + 1, nxt  # the cue's text: lines[top:bottom]
        if k + 1 < len(marks) and bottom > top and _NUMBER.match(lines[bottom - 1]):
            bottom -= 1  # the next cue's number
        while bottom > top and not lines[bottom - 1].strip():
            bottom -= 1
        while bottom > top and not lines[top].strip():
            top += 1
        body = lines[top:bottom]
        ident = lines[i - 1].strip() if i > 0 and _NUMBER.match(lines[i - 1]) else None
        orphans, body = _without_orphans(body)
        content = "\n".join(body)
        if orphans:
            # keep the words (they are the user's text), drop the cue numbers, and say so
            warnings.append(f"cue{'s' if len(orphans) > 1 else ''} {', '.join(orphans)} "
                            f"{'have' if len(orphans) > 1 else 'has'} no time line; "
                            f"the words were joined to cue {ident or k + 1}")
        match = timing.match(lines[i])
        assert match is not None  # marks are the lines that match
        start, end = parse_clock(match.group(1)), parse_clock(match.group(2))
        if start is None or end is None:
            raise FormatError(path, f"the time line cannot be read: {lines[i].strip()[:60]!r}",
                              line=i + 1)
        cues.append(Cue(start, end, text=content, ident=ident, timing=lines[i],
                        span=(i - 1 if ident is not None else i, top, bottom)))
    before = [line for line in lines[:marks[0]] if line.strip()]
    if cues[0].ident is not None:
        before = before[:-1]
    if before and before[0].startswith("WEBVTT"):
        before = []
    if before:  # text before the first time line: the user's words, kept with the first cue
        warnings.append(f"{len(before)} line{'s' if len(before) > 1 else ''} of text before the "
                        "first cue joined to it")
        first = cues[0]
        top = next(i for i, line in enumerate(lines) if line.strip())
        span = (top, top, first.span[2]) if first.span else None  # the cue's lines from the text on
        cues[0] = Cue(first.start, first.end, text="\n".join([*before, first.text or ""]).strip("\n"),
                      ident=first.ident, timing=first.timing, span=span)
    return checked_times(cues, path, warnings)


def _without_orphans(body: list[str]) -> tuple[list[str], list[str]]:
    r"""The numbers of the cues inside a cue's text whose time line is missing (a number alone on
    a line after blank lines, a line following it: they read as more text of the cue before), and
    the text without them and the blank lines before them.

    Line by line, as the regular expression ``\n[ \t]*\n(?:[ \t]*\n)*[ \t]*(\d+)[ \t]*\n`` found
    and removed them before: that took time quadratic in a run of blank lines (50,000 of them in
    one cue, 100 s)."""
    numbers: list[str] = []
    dropped: set[int] = set()
    floor = 0  # the first line a match may start after: the one after the last number found
    blank_from: int | None = None  # the first of the blank lines just before this one
    for j, line in enumerate(body):
        number = _CUE_NUMBER.fullmatch(line)
        if number and blank_from is not None and j + 1 < len(body):
            first = max(floor, blank_from - 1)  # the line before the blank lines, or the floor
            if first <= j - 2:
                numbers.append(number.group(1))
                dropped.update(range(first + 1, j + 1))
                floor = j + 1
        if line.strip(" \t"):
            blank_from = None
        elif blank_from is None:
            blank_from = j
    if not numbers:
        return [], body
    return numbers, [line for n, line in enumerate(body) if n not in dropped]


# -- writing --------------------------------------------------------------------------------------
def srt_text(cue: OutCue, previous: str | None, speaker_style: str = "name") -> str:
    """A cue's SubRip text: its styles as tags (<i>, <b>, <font color>; {\\an8} raises it), and
    who speaks (``speaker_style``, `SubtitleLayout.speaker_style`: "name" writes "Ann: " where the
    speaker changes, "dash" writes "- " before each speaker's line in a cue that holds two, the
    subtitler's convention with no names; ``previous``: the speaker before the cue)."""
    if cue.styled:
        lines = html_lines(cue.styled, colors=True, escape=False)
    else:
        lines = [f"<i>{protect(line)}</i>" if cue.italic else protect(line) for line in cue.lines]
    voices = cue.line_voices()
    if speaker_style == "dash":
        if len(set(voices)) > 1:
            lines = [f"- {line}" if k == 0 or voices[k] != voices[k - 1] else line
                     for k, line in enumerate(lines)]
    else:
        for k, voice in enumerate(voices):  # a line that begins as a name would gets theirs
            if voice and (voice != previous or reads_as_name(cue.lines[k] if k < len(cue.lines)
                                                             else lines[k])):
                lines[k] = f"{protect(written_prefix(voice))}{lines[k]}"
            previous = voice
    if cue.align and lines:
        lines[0] = f"{{\\an{cue.align}}}{lines[0]}"
    return "\n".join(lines)


def last_voice(cue: OutCue) -> str | None:
    voices = cue.line_voices()
    return voices[-1] if voices else cue.speaker


def numbered(cues: Sequence[OutCue]) -> list[str]:
    """Each cue's number: the numbers the cues came with (SubRip's, or WebVTT's identifiers) while
    they still count up, else 1, 2... (a SubStation Alpha event's place counts its comments too:
    those would leave gaps)."""
    idents = [c.source.ident if c.source and c.source.format in ("srt", "vtt") else None for c in cues]
    numbers = [int(i) for i in idents if i and i.isdigit()]
    if len(numbers) == len(cues) and all(a < b for a, b in zip(numbers, numbers[1:])):
        return [str(n) for n in numbers]
    return [str(n) for n in range(1, len(cues) + 1)]


def write_srt(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE, *,
              layout: SubtitleLayout = DEFAULT_LAYOUT) -> list[str]:
    """Write SubRip laid out by ``layout``; the warnings say what styling could not be written
    (see `styling_warnings`)."""
    speaker_style = layout.speaker_style
    source = source_of(transcript, "srt", path)
    if source is not None:
        patched = write_back(transcript, policy, path, source, protect,
                             lambda cue, before: srt_text(cue, before, speaker_style), layout)
        if patched is not None:
            atomic_write(path, patched[0])
            return patched[1]
    cues = cues_to_write(transcript, policy, path, layout)
    blocks, previous = [], None
    for number, cue in zip(numbered(cues), cues):
        src = cue.source
        if src is not None and src.format == "srt":  # a cue without text stays one
            blocks.append(f"{number}\n{src.timing}" + (f"\n{src.text}" if src.text else ""))
        else:
            timing = f"{format_clock(cue.start, separator=',')} --> {format_clock(cue.end, separator=',')}"
            blocks.append(f"{number}\n{timing}\n{srt_text(cue, previous, speaker_style)}")
        previous = last_voice(cue)
    data, warnings = encode("\n\n".join(blocks) + "\n", source)
    atomic_write(path, data)
    return warnings + styling_warnings(cues, "srt", "SubRip")
