"""A cue as every subtitle reader sees it: its time and text, the tags in the text, the words a
line gives, times checked. Cues become a transcript in `reading`; writing them is `writing`'s."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from editor.core.document.transcript import Spread, Token
from editor.core.errors import FormatError
from editor.core.formats._common import MAX_SECONDS, PathLike, spread
from editor.core.formats.subtitles.prefixes import EVERY_CUE, speaker_prefix
from editor.core.document.text import CHARACTER_REFERENCE, Piece, split_words, unescape


@dataclass(frozen=True, slots=True)
class Cue:
    """A cue as read: its time, its text as written and, when known, its identifier and time
    line as written. ``lines`` are visible text lines (made by Stet when ``text`` is None)."""

    start: float
    end: float
    lines: tuple[str, ...] = ()
    speaker: str | None = None
    text: str | None = None
    ident: str | None = None
    timing: str | None = None
    #: where it stands in the file, as line numbers from 0: (its first line, the identifier's or
    #: the time line's; its first line of text; the line after its text). None when not read
    #: from a file's lines.
    span: tuple[int, int, int] | None = None


# -- cue text ---------------------------------------------------------------------------------------
#: Tags that SubRip and WebVTT cue text use: style, class, voice, language, ruby, font, and inline
#: timestamps. A tag begins right after its "<"; style and class tags take classes (<i.loud>) but
#: no words, while voice, language, font and span tags take words or attributes. Anything else in
#: angle brackets ("x <y and y> z", "a < b and c > d", "a<b c>d") is text and stays. An override
#: block ends at the first "}" and no "{\\" is inside it, so a line of unclosed "{\\an8" is read
#: in linear time (one that read on to the line's end from every "{\\" took minutes).
_TAG = re.compile(r"</\s*(?:c|i|b|u|s|v|lang|ruby|rt|font|span)\s*>"
                  r"|<(?:c|i|b|u|s|ruby|rt)(?:\.[^\s<>]*)?\s*>|<br\s*/?\s*>"
                  r"|<(?:v|lang|font|span)(?:\.[^\s<>]*)?(?:[ \t][^<>\n]*)?>"
                  r"|<(?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3}>|\{\\(?:[^{}\n]|\{(?!\\))*\}", re.IGNORECASE)
_ENTITY = CHARACTER_REFERENCE
_RUBY_TEXT = re.compile(r"<rt\b[^<>]*>.*?</rt\s*>", re.IGNORECASE | re.DOTALL)
_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
VOICE_TAG = re.compile(r"<v(?:\.[^\s>]*)?[ \t]+([^>\n]+)>", re.IGNORECASE)
_ITALIC_LINE = re.compile(r"^\s*(?:\{\\i1\}|<i>)(.*)(?:\{\\i0\}|</i>)\s*$", re.IGNORECASE | re.DOTALL)
#: The same, for the writer that patches a cue's text where it stands (`writeback`)
CUE_TAG, RUBY_TEXT, BREAK_TAG = _TAG, _RUBY_TEXT, _BREAK
#: An inline timestamp in a cue ("karaoke" and YouTube auto-caption word times).
INLINE_TIME = re.compile(r"<((?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3})>")


def visible(line: str) -> str:
    """A line of cue text as seen: tags removed, entities (&amp; &lt; &nbsp; &#39;) decoded."""
    return unescape(_TAG.sub("", _RUBY_TEXT.sub("", line)))


def protect(text: str) -> str:
    """Text as SubRip is to hold it: SubRip has no escapes, but its readers take tags and
    entities, so a "<" that would begin a tag and a "&" that would begin an entity are written
    as "&lt;" and "&amp;" (read back as the text); any other "<" or "&" ("a<b c", "fish & chips")
    stays as it is."""
    if "<" not in text and "&" not in text:
        return text
    return "".join(("&lt;" if ch == "<" else "&amp;") if _read_as_markup(text, i) else ch
                   for i, ch in enumerate(text))


def _read_as_markup(text: str, i: int) -> bool:
    """Whether the "<" or "&" at ``text[i]`` would be read as the start of a tag or an entity."""
    if text[i] == "<":
        return _TAG.match(text, i) is not None
    entity = _ENTITY.match(text, i) if text[i] == "&" else None
    return entity is not None and html.unescape(entity.group(0)) != entity.group(0)


#: What SubStation Alpha text writes after a "<" or "&" of the text that Stet's reader (which takes
#: SubRip's tags and entities in .ass files too, as converters write them) would read as a tag or an
#: entity: an empty override block, which players show as nothing (SubStation Alpha has no escapes).
ASS_LITERAL = "{}"


#: A backslash that SubStation Alpha would read with the letter after it as a line break or a hard
#: space (\\N, \\n, \\h): "C:\\New" is written "C:\\{}New", shown as it is
ASS_ESCAPE = re.compile(r"\\(?=[Nnh])")
#: A literal backslash so written, as the reader holds it while it reads the escapes
ASS_BACKSLASH = "\\" + ASS_LITERAL


def protect_ass(text: str) -> str:
    """Text as SubStation Alpha is to hold it: like `protect`, but a "<" that would begin a tag and
    a "&" that would begin an entity are followed by an empty override block ("<{}i>"), so players
    show the text as it is and `unprotect_ass` reads it back; so is a backslash before N, n or h
    ("C:\\{}New"), which would be a line break or a hard space."""
    if "\\" in text:
        text = ASS_ESCAPE.sub(lambda _: ASS_BACKSLASH, text)
    if "<" not in text and "&" not in text:
        return text
    return "".join(ch + ASS_LITERAL if _read_as_markup(text, i) else ch for i, ch in enumerate(text))


def unprotect_ass(text: str) -> str:
    """SubStation Alpha text with the literal "<" and "&" that `protect_ass` marked written as the
    entities the tag reader reads back as those characters."""
    return text.replace("<" + ASS_LITERAL, "&lt;").replace("&" + ASS_LITERAL, "&amp;")


def cue_lines(text: str, prefixed: bool | str = False) -> list[tuple[str, str | None]]:
    """(visible line, voice) for each non-empty line of a cue's text; a line without a voice tag
    has the voice of the line before it. ``prefixed``: a speaker prefix a diarizing recogniser
    wrote at a line's start ("SPEAKER_00: ", "Ann: ", see `speaker_prefix`) is the line's voice
    and not part of it (the file's reader decides, `takes_prefixes`); ``EVERY_CUE``: the first
    line's prefix may be any name (`names_every_cue`)."""
    out: list[tuple[str, str | None]] = []
    voice = None
    for raw in _BREAK.sub("\n", text).split("\n"):
        found = VOICE_TAG.search(raw)
        if found:
            voice = " ".join(unescape(found.group(1)).split()) or None
        line = visible(raw)
        if prefixed:
            name, rest = speaker_prefix(line, any_name=prefixed == EVERY_CUE and not out)
            if name is not None:
                voice, line = name, rest
        if line.strip():
            out.append((line, voice))
    return out


def is_italic(text: str) -> bool:
    lines = [line for line in text.split("\n") if line.strip()]
    whole = _ITALIC_LINE.match(text.strip())
    return bool(lines) and (all(_ITALIC_LINE.match(line) for line in lines) or (
        whole is not None and "<i>" not in whole.group(1).lower()))


def parse_clock(text: str) -> float | None:
    """Seconds from h:mm:ss.fff, mm:ss.fff, h:mm:ss (no fraction) or with a comma; the fraction
    is a decimal one (".04" is 40 ms). None if it is not a time."""
    m = re.fullmatch(r"\s*(-?)(?:(\d+):)?(\d{1,2}):(\d{1,2})(?:[.,:](\d{1,9}))?\s*", text)
    if m is None:
        return None
    sign, h, mm, ss, frac = m.groups()
    if h is not None and len(h.lstrip("0")) > 9:  # beyond any recording, and beyond a float
        return float("-inf") if sign else float("inf")
    value = int(h or 0) * 3600 + int(mm) * 60 + int(ss) + (int(frac) / 10 ** len(frac) if frac else 0)
    return -value if sign else value


# -- reading --------------------------------------------------------------------------------------
def checked_times(cues: Sequence[Cue], path: PathLike, warnings: list[str]) -> list[Cue]:
    """Cues with plausible times: negative ones become 0, reversed ones are swapped (both said in
    ``warnings``); a time beyond any recording is a FormatError."""
    out, negative = [], []
    for n, cue in enumerate(cues, 1):
        start, end = cue.start, cue.end
        if max(start, end) > MAX_SECONDS:
            timing = cue.timing or f"{max(start, end):.0f} s"  # read without a time line (SAMI)
            timing = timing if len(timing) <= 60 else timing[:57] + "..."
            raise FormatError(path, f"cue {str(cue.ident or n)[:20]} has an implausible time ({timing})")
        if min(start, end) < 0:
            negative.append(cue.ident or str(n))
            start, end = max(start, 0.0), max(end, 0.0)
        if end < start:
            warnings.append(f"cue {cue.ident or n} ends before it starts ({cue.timing}); its times "
                            "were swapped")
            start, end = end, start
        out.append(replace(cue, start=start, end=end))
    if negative:
        warnings.append(f"{_count(negative, 'cue')} {'starts' if len(negative) == 1 else 'start'} "
                        f"before 0:00 ({', '.join(negative[:5])}{'...' if len(negative) > 5 else ''}); "
                        "read as starting at 0:00")
    return out


def _count(items: Sequence[object], noun: str) -> str:
    return f"{len(items)} {noun}{'' if len(items) == 1 else 's'}"


def words_of_line(text: str) -> list[Piece]:
    """The words of a line of cue text, as reading makes its tokens: marks alone ("---", "♪ ♪")
    are not words, so a cue of them gives no token."""
    return [p for p in split_words(text) if any(ch.isalnum() for ch in p.surface)]


def tagged_words(raw: str, cue: Cue, speaker: str | None, *, end_measured: bool = True) -> list[Token]:
    """Words of a line with inline timestamps: each run of text takes the time from the tag
    before it (the first run from the cue's start) to the next tag (the last to the cue's end).
    ``end_measured`` False: the cue's end is when the display changed, not when its last word
    ended (rolling captions), so that end is marked guessed too (`Spread.END`)."""
    parts = INLINE_TIME.split(raw)
    times = [cue.start] + [parse_clock(t) or cue.start for t in parts[1::2]] + [cue.end]
    out: list[Token] = []
    last = len(parts) // 2
    carried = ""  # marks timed alone (YouTube's "&gt;&gt;" where a speaker begins): the next word's
    for k, text in enumerate(parts[0::2]):
        start = min(max(times[k], cue.start), cue.end)
        end = min(max(times[k + 1], start), cue.end)
        pieces = words_of_line(carried + visible(text))
        if not pieces:
            carried += visible(text)
            continue
        carried = ""
        # a tag says when its word began; its end is the next tag's, not the word's own
        out.extend(spread(pieces, start, end, speaker=speaker,
                          guessed=Spread.END if k < last or not end_measured else Spread.NONE))
    marks = " ".join(carried.split())
    if marks and out:  # marks after the last word are its own, as `split_words` gives them
        out[-1] = replace(out[-1], punct=f"{out[-1].punct} {marks}")
    return out
