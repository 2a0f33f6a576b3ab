"""What every subtitle format shares in reading: cue text to words, cues into a transcript (each
cue kept as a `SourceCue`), rolling captions collapsed. Writing them back is cue_writing's."""

from __future__ import annotations

import hashlib
import html
import re
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from editor.core.document.transcript import Metadata, SourceCue, Token, Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import (MAX_SECONDS, PARAGRAPH_GAP, PathLike, format_clock,
                                         gap_paragraph_starts, spread)
from editor.core.formats.subtitles.prefixes import (EVERY_CUE, is_credit, names_every_cue, reads_as_name,
                                          speaker_prefix, takes_prefixes, written_prefix)
from editor.core.formats.whisper import CUE_FORMAT as WHISPER_CUES
from editor.core.document.text import CHARACTER_REFERENCE, Piece, join_mark, split_words, unescape

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
#: angle brackets ("x <y and y> z", "a < b and c > d", "a<b c>d") is text and stays.
_TAG = re.compile(r"</\s*(?:c|i|b|u|s|v|lang|ruby|rt|font|span)\s*>"
                  r"|<(?:c|i|b|u|s|ruby|rt)(?:\.[^\s<>]*)?\s*>|<br\s*/?\s*>"
                  r"|<(?:v|lang|font|span)(?:\.[^\s<>]*)?(?:[ \t][^<>\n]*)?>"
                  r"|<(?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3}>|\{\\[^}\n]*\}", re.IGNORECASE)
_ENTITY = CHARACTER_REFERENCE
_RUBY_TEXT = re.compile(r"<rt\b[^<>]*>.*?</rt\s*>", re.IGNORECASE | re.DOTALL)
_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
_VOICE = re.compile(r"<v(?:\.[^\s>]*)?[ \t]+([^>\n]+)>", re.IGNORECASE)
_ITALIC_LINE = re.compile(r"^\s*(?:\{\\i1\}|<i>)(.*)(?:\{\\i0\}|</i>)\s*$", re.IGNORECASE | re.DOTALL)
#: A WebVTT cue's region, in its settings (``region:fred``)
_REGION = re.compile(r"(?:^|\s)region:(\S+)")
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
        found = _VOICE.search(raw)
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
            timing = cue.timing or ""
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


def transcript_from_cues(cues: Sequence[Cue], path: PathLike, warnings: Sequence[str] = (),
                         fmt: str = "", extra: dict[str, Any] | None = None,
                         source: dict[str, Any] | None = None) -> Transcript:
    """Words spread over their cue's time; a long silence or a new speaker starts a paragraph.
    Each cue is kept as a `SourceCue`; rolling captions (each cue repeating the line before, or
    words timed by inline tags) are read once each instead, and not kept. Cues stay in the
    file's order, and a cue without text (a timed blank) is kept, so that they go back out as
    they came. ``source``: the file as it came (`txt.read_source`), kept with where each cue
    stands in it, so that the file is written back as it came (see `writeback`)."""
    warnings = list(warnings)
    early = next((n for n in range(1, len(cues)) if cues[n].start < cues[n - 1].start), None)
    if early is not None:
        warnings.append(f"cue {cues[early].ident or early + 1} starts before the cue above it; the "
                        "cues were kept in the file's order")
    ranges: list[tuple[int, int]] = []
    highlighted = word_highlights(cues, ranges)
    if highlighted is not None:
        each = [_tagged_words(" ".join((cue.text or "").split("\n")), cue, cue.speaker) for cue in highlighted]
        tokens = [t for words in each for t in words]
        if source is not None:
            shown = _highlight_places(cues, ranges, [len(words) for words in each])
            if shown is not None:
                source = {**source, "rolling": {**shown, "words": [t.text for t in tokens]}}
        cues = highlighted
        warnings.append("words highlighted one at a time (each cue repeating the one before with "
                        "the next word marked, as Whisper's --highlight_words writes them): every "
                        "word was read once; written back to this file's format, marks and capitals "
                        "go into every cue as it came, and other edits cut the cues afresh")
        kept: tuple[SourceCue, ...] = ()
    elif is_rolling(sorted(cues, key=lambda c: c.start)):
        cues = sorted(cues, key=lambda c: c.start)
        places: list[list[tuple[int, int, int]]] = []
        tokens = collapse_rolling(cues, places)
        if source is not None:
            source = {**source, "rolling": {"cues": [list(c.span) if c.span else None for c in cues],
                                            "places": [[list(p) for p in at] for at in places],
                                            "words": [t.text for t in tokens]}}
        warnings.append("captions timed word by word or rolling (each cue repeating the line "
                        "before it, as YouTube's automatic captions): every line was read once; "
                        "written back to this file's format, marks and capitals go into every cue "
                        "as it came, and other edits cut the cues afresh")
        kept = ()
    else:
        seen = [cue_lines(c.text) for c in cues if c.text]
        prefixed: bool | str = takes_prefixes([line for lines in seen for line, _ in lines])
        if names_every_cue([lines[0][0] for lines in seen if lines]):
            prefixed = EVERY_CUE
            firsts = [lines[0][0] for lines in seen if lines]
            odd = list(dict.fromkeys(loose for loose, strict in (
                (speaker_prefix(line, any_name=True)[0], speaker_prefix(line)[0]) for line in firsts)
                if loose and loose != strict))
            if odd:
                warnings.append("every cue begins with a name and a colon, so these were read as "
                                f"speakers too: {', '.join(odd[:3])}{', ...' if len(odd) > 3 else ''}")
        if prefixed:
            extra = {**(extra or {}), PREFIXES: prefixed}
        tokens, kept = _cue_tokens(cues, fmt, prefixed, carry=not (prefixed and _named_each_cue(seen)))
    if source is not None:
        spans = [list(c.span) if c.span else None for c in cues if c.text is not None] if kept else None
        extra = {**(extra or {}), SOURCE: {"format": fmt, **source, "cues": spans,
                                           "digest": words_digest((t.text, t.speaker) for t in tokens)}}
    duration = max((c.end for c in cues), default=None)
    doc = Transcript(tokens, paragraph_starts=gap_paragraph_starts(tokens, PARAGRAPH_GAP),
                     metadata=Metadata(source_file=str(path), duration=duration,
                                       warnings=tuple(warnings), extra=extra or {}))
    if kept:  # token ids are given by the transcript, in order from 0
        ids = [t.id for t in doc.tokens]
        doc.metadata = replace(doc.metadata, cues=tuple(
            replace(c, token_ids=tuple(ids[i] for i in c.token_ids),
                    line_starts=tuple(ids[i] for i in c.line_starts)) for c in kept))
    return doc


#: ``Metadata.extra`` key: the subtitle file as it came (see `transcript_from_cues`)
SOURCE = "source_file"


def words_digest(words: Iterable[tuple[str, str | None]]) -> str:
    """A fingerprint of a transcript's words as written with their speakers, to tell that none
    has changed."""
    digest = hashlib.sha256()
    for word, speaker in words:
        digest.update(f"{word}\x1e{speaker or ''}\x1f".encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _named_each_cue(seen: Sequence[list[tuple[str, str | None]]]) -> bool:
    """Whether the file names the speaker on each cue, not only where one starts, as WhisperX
    does: most cues (four in five) begin with a prefix and the same name begins cue after cue
    (twice or more). Then a cue without one has no speaker ("Mm-hmm." that diarization gave to
    no one), rather than the one before."""
    names = [speaker_prefix(lines[0][0])[0] if lines else None for lines in seen]
    repeats = sum(1 for a, b in zip(names, names[1:]) if a and a == b)
    return repeats >= 2 and sum(1 for n in names if n) * 5 >= 4 * len(names)


#: ``Metadata.extra`` key: the cues' text begins with speaker prefixes ("Ann: "), read as speakers
PREFIXES = "speaker_prefixes"


def shown_by_prefixes(transcript: Transcript) -> bool | str:
    """How the subtitles ``transcript`` was read from showed who speaks, for a writer of WebVTT
    to show it alike: True where "Ann: " began a speaker's lines, ``EVERY_CUE`` where a name
    began every cue (Zoom); False where voice tags did, or nothing did (then any speaker the
    transcript has came from a recogniser or the person, and is shown with voice tags)."""
    mode = transcript.metadata.extra.get(PREFIXES)
    if mode is not True and mode != EVERY_CUE:
        return False
    if any(_VOICE.search(cue.text) for cue in transcript.metadata.cues):
        return False
    return mode


def with_prefix(line: str, shown: str, voice: str, previous: str | None, mode: bool | str,
                first: bool, escape: Callable[[str], str]) -> str:
    """A cue's line ``shown`` (its visible text ``line`` as the writer will put it) with the
    speaker's prefix (``escape``d as the format needs) where the file had shown one
    (`shown_by_prefixes`' ``mode``): where another speaker than ``previous`` begins, at each
    cue's ``first`` line in Zoom's way, and where the words would read as a name."""
    if mode == EVERY_CUE and first:
        zoom = speaker_prefix(f"{voice}: x", any_name=True) == (voice, "x")
        return escape(f"{voice}: " if zoom else written_prefix(voice)) + shown
    if voice != previous or reads_as_name(line):
        return escape(written_prefix(voice)) + shown
    return shown


def _cue_tokens(cues: Sequence[Cue], fmt: str,
                prefixed: bool | str = False,
                carry: bool = True) -> tuple[list[Token], tuple[SourceCue, ...]]:
    """Tokens and kept cues; ``carry``: a cue without a prefix goes on with the speaker before
    (as Stet names a speaker where one starts), else it has none."""
    tokens: list[Token] = []
    kept = []
    carried: str | None = None  # prefixes name a speaker where one starts: a cue without goes on
    for cue in cues:
        lines = cue_lines(cue.text, prefixed) if cue.text is not None else [(line, cue.speaker)
                                                                   for line in cue.lines]
        if prefixed and lines and lines[0][1] is None and is_credit(lines[0][0]):
            carried = None  # "Translated by: ...": no one says it, nor what follows unnamed
        pieces: list[Piece] = []
        speakers: list[str | None] = []
        line_starts: list[int] = []
        for n, (line, voice) in enumerate(lines):
            words = _words(line)
            if n and words:
                line_starts.append(len(pieces))
            pieces.extend(words)
            speakers.extend([voice or cue.speaker or carried] * len(words))
        if prefixed and speakers and carry:
            carried = speakers[-1]
        first = len(tokens)
        timed = spread(pieces, cue.start, cue.end)
        if cue.text is not None and INLINE_TIME.search(cue.text):  # words timed by their tags
            tagged = _tagged_words(" ".join(_BREAK.sub("\n", cue.text).split("\n")), cue, None)
            if [t.text for t in tagged] == [t.text for t in timed]:
                timed = [replace(t, start=g.start, end=g.end) for t, g in zip(timed, tagged)]
        tokens.extend(replace(t, speaker=s) for t, s in zip(timed, speakers))
        if cue.text is not None:  # a cue without words ("♪ ♪", a timed blank) goes back too
            kept.append(SourceCue(
                tuple(range(first, len(tokens))), cue.start, cue.end, cue.text,
                tuple(join_mark(p.surface, p.punct) for p in pieces),
                tuple(first + i for i in line_starts), speakers[0] if speakers else cue.speaker,
                cue.ident, cue.timing, fmt))
    return tokens, tuple(kept)


def words_of_line(text: str) -> list[Piece]:
    """The words a line of cue text gives (as reading made its tokens: see `_words`)."""
    return _words(text)


def _words(text: str) -> list[Piece]:
    """The words of a line of cue text: marks alone ("---", "♪ ♪") are not words, so a cue of
    them gives no token."""
    return [p for p in split_words(text) if any(ch.isalnum() for ch in p.surface)]


def is_rolling(cues: Sequence[Cue]) -> bool:
    """Captions whose words are timed by inline tags, or where cue after cue repeats a line of
    the cue before and adds to it (YouTube's automatic captions as downloaders save them, growing
    karaoke). Cues shown at the same time, or in different WebVTT regions, are not one roll; a
    cue that only repeats the one before (a line held across a cut) adds nothing, so does not
    count."""
    if len(cues) < 2:
        return False
    # words timed by inline tags: a roll where a line comes back (YouTube's automatic captions
    # show each line twice); cues that never repeat one (lyrics, karaoke) are kept as cues
    inline = any(c.text and INLINE_TIME.search(c.text) for c in cues)
    repeats = 0
    # by region: the last cue's start, its lines in order
    before: dict[str | None, tuple[float, list[str]]] = {}
    for cue in cues:
        shown = [_norm(line) for line, _ in cue_lines(cue.text)] if cue.text else list(cue.lines)
        lines = [line for line in dict.fromkeys(shown) if line]
        region = _REGION.search(cue.timing or "")
        key = region.group(1) if region else None
        start, previous = before.get(key, (float("-inf"), []))
        if cue.start <= start:  # shown with the cue before: one caption, not a roll
            before[key] = (start, [*previous, *(line for line in lines if line not in previous)])
            continue
        new = [line for line in lines if line not in previous]
        # a roll moves the cue before's last line up, new words below it (a line that stays at
        # the top while the ones below change is a refrain or a speaker's turn, not a roll)
        rolled = bool(previous) and previous[-1] in lines[:-1] and lines[-1] in new
        grown = any(line.startswith(p + " ") for line in new for p in previous)
        if rolled or grown:
            repeats += 1
        before[key] = (cue.start, lines)
    return repeats >= (1 if inline else max(2, 0.3 * len(cues)))


def _norm(line: str) -> str:
    return " ".join(line.split())


def collapse_rolling(cues: Sequence[Cue],
                     places: list[list[tuple[int, int, int]]] | None = None) -> list[Token]:
    """Each spoken word once: a line already shown is skipped, a line that grows one already
    shown adds only its new words, and words after an inline timestamp take its time.
    ``places`` learns, for each token, every place it is shown: (cue, line of the cue's text,
    word of the line), the line shown again included, so that a word changed can be written
    back everywhere it stands."""
    tokens: list[Token] = []
    recent: deque[str] = deque(maxlen=4)
    shown: dict[str, list[int]] = {}  # a recent line -> its tokens
    where: list[list[tuple[int, int, int]]] = [] if places is None else places
    for n, cue in enumerate(cues):
        for k, raw in enumerate(_BREAK.sub("\n", cue.text or "\n".join(cue.lines)).split("\n")):
            if not visible(raw).strip():
                continue
            line = _norm(visible(raw))
            speaker = cue.speaker
            if line in recent:
                ids = shown.get(line, [])
            elif INLINE_TIME.search(raw):
                ids = list(range(len(tokens), len(tokens) + len(added := _tagged_words(raw, cue, speaker))))
                tokens.extend(added)
            else:
                grown = next((p for p in reversed(recent) if line.startswith(p + " ")), None)
                text = line[len(grown):] if grown else line
                added = spread(_words(text), cue.start, cue.end, speaker=speaker)
                ids = [*(shown.get(grown, []) if grown else []),
                       *range(len(tokens), len(tokens) + len(added))]
                tokens.extend(added)
            where.extend([] for _ in range(len(tokens) - len(where)))
            for m, i in enumerate(ids):
                where[i].append((n, k, m))
            if line not in recent:
                if len(recent) == recent.maxlen:
                    shown.pop(recent[0], None)
                recent.append(line)
                shown[line] = ids
    return tokens


def _highlight_places(cues: Sequence[Cue], ranges: Sequence[tuple[int, int]],
                      counts: Sequence[int]) -> dict[str, Any] | None:
    """Where each word read from highlighted cues (see `word_highlights`: the cues ``ranges``
    made one, each giving ``counts`` words) is shown: in every cue of its run, at the same line
    and word (as `collapse_rolling` gives them, for `writeback`); None where a run's cues do
    not show the same words on the same lines."""
    lines_of = [[line for line, _ in cue_lines(c.text)] if c.text is not None else list(c.lines) for c in cues]
    prefixed = takes_prefixes([line for lines in lines_of for line in lines])

    def layout(cue: Cue) -> list[tuple[int, list[str]]]:
        out = []
        for at, raw in enumerate(_BREAK.sub("\n", cue.text or "").split("\n")):
            line = visible(raw)
            if prefixed:
                line = speaker_prefix(line)[1]
            words = [p.surface for p in _words(line)]
            if words:
                out.append((at, words))
        return out

    places: list[list[list[int]]] = []
    for (first, last), count in zip(ranges, counts):
        shown = layout(cues[first])
        if sum(len(words) for _, words in shown) != count or any(
                layout(cues[n]) != shown for n in range(first + 1, last + 1)):
            return None
        places.extend([[n, at, k] for n in range(first, last + 1)] for at, words in shown
                      for k in range(len(words)))
    return {"cues": [list(c.span) if c.span else None for c in cues], "places": places,
            "prefixed": bool(prefixed)}


def word_highlights(cues: Sequence[Cue], ranges: list[tuple[int, int]] | None = None) -> list[Cue] | None:
    """The cues with each run of highlighted words made one cue, or None where the file has no
    such run. A run is what openai-whisper and WhisperX (``--highlight_words``) and stable-ts
    (word level) write: cue after cue with the same text, one word after the next marked
    (underlined, coloured), each cue as long as its word is spoken. The cue made of a run has
    the text once, each highlighted word after an inline timestamp at the time it was marked
    (read as karaoke is); every cue has its text as seen (speaker prefixes taken as speakers).
    ``ranges`` learns the first and last cue each cue made was made of."""
    runs = _highlight_runs(cues)
    if not runs:
        return None
    lines_of = [[line for line, _ in cue_lines(c.text)] if c.text is not None else list(c.lines)
                for c in cues]
    prefixed = takes_prefixes([line for lines in lines_of for line in lines])
    out: list[Cue] = []
    k = 0
    while k < len(cues):
        run = runs.get(k)
        last = run[-1][0] if run else k
        first = cues[k]
        voices = [v for _, v in cue_lines(first.text)] if first.text is not None else []
        speaker = first.speaker or (voices[0] if voices else None)
        times = {i: cues[n].start for n, i in run} if run else {}
        text_lines, at = [], 0
        for line in lines_of[k]:
            if prefixed:
                name, rest = speaker_prefix(line)
                if name is not None:  # its words were counted as the line's in the run
                    speaker, at = name, at + len(_words(line)) - len(_words(rest))
                    line = rest
            cursor, seen, text = 0, 0, ""  # written up to, searched up to
            for p in _words(line):
                found = max(line.find(p.surface, seen), seen)
                if at in times and times[at] > first.start:
                    text += protect(line[cursor:found]) + f"<{format_clock(times[at])}>"
                    cursor = found
                seen = found + len(p.surface)
                at += 1
            text_lines.append(text + protect(line[cursor:]))
        out.append(Cue(first.start, max(cues[n].end for n in range(k, last + 1)), speaker=speaker,
                       text="\n".join(text_lines), ident=first.ident, timing=first.timing))
        if ranges is not None:
            ranges.append((k, last))
        k = last + 1
    return out


def _highlight_runs(cues: Sequence[Cue]) -> dict[int, list[tuple[int, int]]]:
    """Runs of highlighted words (see `word_highlights`), by the index of the run's first cue:
    each its cues as (index, the first word each highlights) in order; a cue that highlights no
    word (the text between two words) belongs to the run it is in but is not listed."""
    runs: dict[int, list[tuple[int, int]]] = {}
    k = 0
    while k < len(cues):
        key = _shown(cues[k])
        j = k + 1
        while (j < len(cues) and key and _shown(cues[j]) == key
               and cues[j].start >= cues[j - 1].end - 0.001):
            j += 1
        if j - k >= 2:
            runs.update(_highlights_in(cues, k, j))
        k = j
    return runs


def _shown(cue: Cue) -> tuple[str, ...]:
    lines = [line for line, _ in cue_lines(cue.text)] if cue.text is not None else list(cue.lines)
    return tuple(_norm(line) for line in lines if line.strip())


def _highlights_in(cues: Sequence[Cue], k: int, j: int) -> dict[int, list[tuple[int, int]]]:
    """The runs among cues k..j-1, which show the same text: the words each marks beyond what
    all of them mark, in one group, and moving on; a group that starts again from an earlier word
    (the same sentence said again) begins a new run. Two marked cues or more make a run."""
    styles: list[tuple[frozenset[str], ...]] = []
    for cue in cues[k:j]:
        words = [p.surface for line in _shown(cue) for p in _words(line)]
        style = cue_style(cue.text, words) if cue.text else None
        if style is None or not words:
            return {}
        styles.append(style.words)
    base = [frozenset.intersection(*column) for column in zip(*styles)]
    runs: dict[int, list[tuple[int, int]]] = {}
    start, previous = k, -1
    marked: list[tuple[int, int]] = []
    for n, marks in enumerate(styles, k):
        lit = [i for i, (word, common) in enumerate(zip(marks, base)) if word - common]
        if not lit:
            continue
        if lit[-1] - lit[0] + 1 != len(lit):
            return {}  # marks two places at once: not one word highlighted at a time
        if lit[0] <= previous:
            if len(marked) >= 2:
                runs[start] = marked
            start, marked = n, []
        marked.append((n, lit[0]))
        previous = lit[-1]
    if len(marked) >= 2:
        runs[start] = marked
    return runs


def _tagged_words(raw: str, cue: Cue, speaker: str | None) -> list[Token]:
    """Words of a line with inline timestamps: each run of text takes the time from the tag
    before it (the first run from the cue's start) to the next tag (the last to the cue's end)."""
    parts = INLINE_TIME.split(raw)
    times = [cue.start] + [parse_clock(t) or cue.start for t in parts[1::2]] + [cue.end]
    out: list[Token] = []
    carried = ""  # marks timed alone (YouTube's "&gt;&gt;" where a speaker begins): the next word's
    for k, text in enumerate(parts[0::2]):
        start = min(max(times[k], cue.start), cue.end)
        end = min(max(times[k + 1], start), cue.end)
        pieces = _words(carried + visible(text))
        if not pieces:
            carried += visible(text)
            continue
        carried = ""
        out.extend(spread(pieces, start, end, speaker=speaker))
    marks = " ".join(carried.split())
    if marks and out:  # marks after the last word are its own, as `split_words` gives them
        out[-1] = replace(out[-1], punct=f"{out[-1].punct} {marks}")
    return out


# -- styling --------------------------------------------------------------------------------------
#: Styles a word can carry from one subtitle format to another, in the order tags are opened:
#: WebVTT classes ("class:name", written back to WebVTT only), a colour ("color:#rrggbb"), bold,
#: italic, underline, strike-through.
STYLE_ORDER = ("class", "color", "b", "i", "u", "s")
_ON_OFF = frozenset({"i", "b", "u", "s"})
_HTML_STYLE = re.compile(r"<\s*(/?)\s*([ibus])(?:\.[^\s>]*)?\s*>", re.IGNORECASE)
_FONT = re.compile(r"<\s*(/?)\s*font\b([^<>]*)>", re.IGNORECASE)
_FONT_COLOR = re.compile(r"""color\s*=\s*["']?\s*#?([0-9a-fA-F]{6})\b""", re.IGNORECASE)
_OVERRIDE = re.compile(r"\\(\d?[a-z]+)([^\\}]*)", re.IGNORECASE)
_VTT_LINE = re.compile(r"(?:^|\s)line:(-?\d+(?:\.\d+)?)(%?)")
_VTT_ALIGN = re.compile(r"(?:^|\s)align:(start|left|end|right)\b")
_VTT_CLASS = re.compile(r"<\s*c((?:\.[^\s.<>]+)*)[^<>]*>", re.IGNORECASE)
#: CSS colour names subtitle files use (the WebVTT default classes and CSS's basic colours)
CSS_COLORS = {"white": "ffffff", "lime": "00ff00", "cyan": "00ffff", "aqua": "00ffff",
              "red": "ff0000", "yellow": "ffff00", "magenta": "ff00ff", "fuchsia": "ff00ff",
              "blue": "0000ff", "black": "000000", "green": "008000", "gray": "808080",
              "grey": "808080", "silver": "c0c0c0", "maroon": "800000", "olive": "808000",
              "navy": "000080", "purple": "800080", "teal": "008080", "orange": "ffa500"}
#: WebVTT's default text colour classes (<c.yellow>), coloured with no style sheet
VTT_DEFAULT_CLASSES = {name: CSS_COLORS[name] for name in
                       ("white", "lime", "cyan", "red", "yellow", "magenta", "blue", "black")}


def css_color(value: str) -> str | None:
    """A CSS or TTML colour ("#ff0", "#ffff00", "#ffff00ff", "rgb(255,255,0)", "rgba(...)",
    "yellow") as "rrggbb"; None when it is not one."""
    value = value.strip().lower()
    found = re.fullmatch(r"#([0-9a-f]{3,8})", value)
    if found:
        digits = found.group(1)
        if len(digits) in (3, 4):
            return "".join(ch * 2 for ch in digits[:3])
        return digits[:6] if len(digits) in (6, 8) else None
    found = re.fullmatch(r"rgba?\(\s*(\d{1,3})\s*[, ]\s*(\d{1,3})\s*[, ]\s*(\d{1,3})\s*(?:[,/][^)]*)?\)",
                         value)
    if found:
        return "".join(f"{min(int(n), 255):02x}" for n in found.groups())
    return CSS_COLORS.get(value)


#: What a WebVTT class sets, as a style sheet gives it: "color" ("rrggbb"), and "b", "i", "u",
#: "s" on (True) or off (False)
ClassStyle = dict[str, "str | bool"]
#: Said when a class that sets nothing Stet carries is written outside WebVTT
VTT_CLASS_LOST = "WebVTT classes (<c.…>)"


def vtt_palette(header: object) -> dict[str, ClassStyle]:
    """What each WebVTT class sets: the default colour classes (<c.yellow>), then what a STYLE
    block gives it (``::cue(.loud) { color: #f80; font-weight: bold }``: colour, bold, italics,
    underline, strike-through; a later rule over an earlier), in the order a rule wins (the
    class with the last rule written last)."""
    palette: dict[str, ClassStyle] = {name: {"color": color} for name, color in VTT_DEFAULT_CLASSES.items()}
    if not isinstance(header, str):
        return palette
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", re.sub(r"/\*.*?\*/", "", header,
                                                                     flags=re.DOTALL)):
        sets = _declarations(body)
        if not sets:
            continue
        selectors = selectors[selectors.find("::cue"):]  # after "STYLE" and blank lines
        for selector in selectors.split(","):
            found = re.fullmatch(r"\s*::cue\(\s*c?\.([\w-]+)\s*\)\s*", selector)
            if found:
                merged = palette.pop(found.group(1), {})
                merged.update(sets)
                palette[found.group(1)] = merged
    return palette


def _declarations(body: str) -> ClassStyle:
    """The properties of a CSS rule's body that Stet carries (see `vtt_palette`)."""
    out: ClassStyle = {}
    for name, value in re.findall(r"(?:^|;)\s*([a-z-]+)\s*:\s*([^;!]+)", body.strip(), re.IGNORECASE):
        name, value = name.lower(), value.strip().lower()
        if name == "color" and css_color(value) is not None:
            out["color"] = css_color(value) or ""
        elif name == "font-weight":
            out["b"] = value in ("bold", "bolder") or (value.isdigit() and int(value) >= 600)
        elif name == "font-style":
            out["i"] = value in ("italic", "oblique")
        elif name in ("text-decoration", "text-decoration-line"):
            words = value.split()
            out["u"], out["s"] = "underline" in words, "line-through" in words
    return out


@dataclass(frozen=True, slots=True)
class CueStyle:
    """The styling of a cue as read: each word's styles (aligned with ``SourceCue.words``), the
    cue's position as a numpad alignment ({\\an8}: 8 is top centre; None for the default, bottom
    centre), and what it held that no format Stet writes carries (said when written)."""

    words: tuple[frozenset[str], ...]
    align: int | None = None
    lost: frozenset[str] = frozenset()
    #: the styles of the mark after each word ("night?" in italics, "ever" underlined but not
    #: its "."); None where the word had no mark
    marks: tuple[frozenset[str] | None, ...] = ()


def cue_style(text: str, words: Sequence[str], timing: str | None = None,
              fmt: str = "", palette: Mapping[str, ClassStyle] | None = None) -> CueStyle | None:
    """The styling of a cue's text (SubRip or WebVTT tags, SubStation override blocks), word by
    word; None when its words cannot be matched to ``words`` (the cue's words as read). A
    WebVTT class (<c.name>) is kept, and gives what it sets in ``palette`` (see `vtt_palette`)."""
    lines, align, lost = _styled_lines(text, palette)
    styled: list[frozenset[str]] = []
    marks: list[frozenset[str] | None] = []
    for line, chars in lines:
        cursor = 0
        for p in _words(line):
            found = line.find(p.surface, cursor)
            if found < 0:
                return None
            end = found + len(p.surface)
            spans = chars[found:end]
            styled.append(frozenset.intersection(*spans) if spans else frozenset())
            mark = chars[end:end + len(p.punct)] if p.punct and line.startswith(p.punct, end) else []
            marks.append(frozenset.intersection(*mark) if mark else None)
            cursor = end + len(mark)
    if len(styled) != len(words):
        return None
    if fmt == "vtt" and timing and align is None:
        align = _vtt_align(timing)
    return CueStyle(tuple(styled), align, lost, tuple(marks))


def _tagged(cue: SourceCue) -> bool:
    """A cue whose text has tags (a Whisper segment's is text); read leniently, as the view
    reads cues (a test's stand-in may lack fields)."""
    text = getattr(cue, "text", "")
    return getattr(cue, "format", "") != WHISPER_CUES and isinstance(text, str) and ("<" in text or "{" in text)


class WordStyles:
    """The styles each word read from a styled cue still has, by token id (``get``): (the
    word's, the mark's after it; None where no mark was read), each a set of italics "i", bold
    "b", underline "u", strike-through "s", a colour "color:#rrggbb", WebVTT classes. Words
    typed since, words of cues without tags and a Whisper transcript's segments (text, not
    tags) have none. A cue's tags are read when one of its words is first asked for: all of
    5,000 cues at once took 140 ms, and the editor asks as it puts the text on screen."""

    def __init__(self, transcript: Transcript) -> None:
        self._cues = [c for c in transcript.metadata.cues if _tagged(c)]
        # token id -> (cue, the word's place in it)
        self._at = {token_id: (n, k) for n, c in enumerate(self._cues) for k, token_id in enumerate(c.token_ids)}
        self._read: dict[int, CueStyle | None] = {}
        self._header = transcript.metadata.extra.get("vtt_header")
        self._palette: dict[str, ClassStyle] | None = None

    def __bool__(self) -> bool:
        return bool(self._at)

    def get(self, token_id: int) -> tuple[frozenset[str], frozenset[str] | None] | None:
        """(the word's styles, its mark's) of token ``token_id``, None when it has none."""
        at = self._at.get(token_id)
        if at is None:
            return None
        n, k = at
        if n in self._read:
            style = self._read[n]
        else:
            if self._palette is None:
                self._palette = vtt_palette(self._header)
            cue = self._cues[n]
            style = self._read[n] = cue_style(cue.text, cue.words, cue.timing, cue.format, self._palette)
        if style is None or k >= len(style.words):
            return None
        mark = style.marks[k] if k < len(style.marks) else None
        return (style.words[k], mark) if style.words[k] or mark else None


def piece_styles(text: str, palette: Mapping[str, ClassStyle] | None = None
                 ) -> tuple[list[list[tuple[str, frozenset[str]]]], int | None, frozenset[str]]:
    """The styling of a cue without words ("---" in a colour, "♪ ♪" in italics): its lines as
    pieces split at spaces, each with the styles all its characters share, the cue's position
    and what no format carries; read by the same tags as `cue_style`."""
    lines, align, lost = _styled_lines(text, palette)
    return [[(m.group(), frozenset.intersection(*chars[m.start():m.end()]))
             for m in re.finditer(r"\S+", line)] for line, chars in lines], align, lost


def _styled_lines(text: str, palette: Mapping[str, ClassStyle] | None
                  ) -> tuple[list[tuple[str, list[frozenset[str]]]], int | None, frozenset[str]]:
    """A cue's text read by its tags (SubRip/WebVTT tags, SubStation override blocks, WebVTT
    classes): its lines that are not blank, each with the styles of every character, the cue's
    position and what no format carries. Shared by `cue_style` and `piece_styles`."""
    stack: dict[str, int] = {}
    colors: list[str] = []
    classes: list[tuple[str, bool, tuple[str, ...]]] = []  # open <c>s: classes, coloured, styles
    palette = vtt_palette(None) if palette is None else palette
    align: int | None = None
    lost: set[str] = set()
    lines: list[tuple[str, list[frozenset[str]]]] = []
    for raw in _BREAK.sub("\n", _RUBY_TEXT.sub("", text)).split("\n"):
        chars: list[frozenset[str]] = []
        line = ""
        at = 0
        for tag in _TAG.finditer(raw):
            piece = unescape(raw[at:tag.start()])
            line += piece
            chars.extend([_current(stack, colors, classes)] * len(piece))
            at = tag.end()
            if _VTT_CLASS.fullmatch(tag.group(0)) or re.fullmatch(r"<\s*/\s*c\s*>", tag.group(0)):
                _apply_class(tag.group(0), stack, colors, classes, palette, lost)
            else:
                align = _apply_tag(tag.group(0), stack, colors, lost, align)
        piece = unescape(raw[at:])
        line += piece
        chars.extend([_current(stack, colors, classes)] * len(piece))
        if line.strip():
            lines.append((line, chars))
    return lines, align, frozenset(lost)


def _current(stack: dict[str, int], colors: list[str],
             classes: Sequence[tuple[str, bool, tuple[str, ...]]] = ()) -> frozenset[str]:
    on = {name for name, depth in stack.items() if depth > 0}
    if colors and colors[-1]:
        on.add(f"color:#{colors[-1]}")
    on.update(f"class:{names}" for names, _, _ in classes if names)
    return frozenset(on)


def class_sets(names: Sequence[str], palette: Mapping[str, ClassStyle]) -> ClassStyle:
    """What classes set together: each property from the class whose rule wins (the later in
    ``palette``)."""
    rank = {name: k for k, name in enumerate(palette)}
    out: ClassStyle = {}
    for name in sorted((n for n in names if n in palette), key=rank.__getitem__):
        out.update(palette[name])
    return out


def _apply_class(tag: str, stack: dict[str, int], colors: list[str],
                 classes: list[tuple[str, bool, tuple[str, ...]]], palette: Mapping[str, ClassStyle],
                 lost: set[str]) -> None:
    """Open (<c.loud.yellow>) or close (</c>) a WebVTT class span: its classes are kept, and
    what they set (``palette``: colour, bold...) is the words'. A class that sets nothing
    Stet carries is said lost outside WebVTT."""
    opened = _VTT_CLASS.fullmatch(tag)
    if opened is None:
        if classes:
            _, colored, pushed = classes.pop()
            if colored and colors:
                colors.pop()
            for name in pushed:
                stack[name] = max(0, stack.get(name, 0) - 1)
        return
    names = [n for n in opened.group(1).split(".") if n]
    sets = class_sets(names, palette)
    color = sets.get("color")
    if isinstance(color, str) and color:
        colors.append(color)
    pushed = tuple(k for k in ("b", "i", "u", "s") if sets.get(k) is True)
    for name in pushed:
        stack[name] = stack.get(name, 0) + 1
    if names and not sets:
        lost.add(VTT_CLASS_LOST)
    classes.append((".".join(names), isinstance(color, str) and bool(color), pushed))


def _apply_tag(tag: str, stack: dict[str, int], colors: list[str], lost: set[str],
               align: int | None) -> int | None:
    """Apply one tag to the open styles; the cue's alignment after it."""
    html_style = _HTML_STYLE.fullmatch(tag)
    if html_style:
        name = html_style.group(2).lower()
        stack[name] = max(0, stack.get(name, 0) + (-1 if html_style.group(1) else 1))
        return align
    font = _FONT.fullmatch(tag)
    if font:
        if font.group(1):
            if colors:
                colors.pop()
            return align
        attributes = font.group(2)
        found = _FONT_COLOR.search(attributes)
        color = found.group(1).lower() if found else None
        if re.search(r"\b(?:face|size)\s*=", attributes, re.IGNORECASE):
            lost.add("font faces and sizes")
        named = re.search(r"""\bcolou?r\s*=\s*["']?\s*([a-z]*)""", attributes, re.IGNORECASE)
        if color is None and named:  # <font color="yellow">: a CSS name, else said lost
            color = css_color(named.group(1))
            if color is None:
                lost.add("colours by name")
        colors.append(color if color else (colors[-1] if colors else ""))
        return align
    if tag.startswith("{"):
        for name, value in _OVERRIDE.findall(tag):
            name, value = name.lower(), value.strip()
            if name == "an" and value.isdigit() and 1 <= int(value) <= 9:
                align = None if int(value) == 2 else int(value)
            elif name in _ON_OFF and (value == "" or value.isdigit()):
                # \i1 on, \i0 or \i (the style's default) off; \b700 is bold, \b400 is not
                stack[name] = int(value.isdigit() and (int(value) == 1 or int(value) >= 600))
            elif name in ("c", "1c"):
                found = re.match(r"&?H?([0-9a-fA-F]{1,8})", value)
                colors.clear()
                if found:
                    bgr = found.group(1).rjust(6, "0")[-6:]
                    colors.append(f"{bgr[4:6]}{bgr[2:4]}{bgr[0:2]}".lower())
            elif name == "r":
                stack.clear()
                colors.clear()
            else:
                lost.add("SubStation override tags such as \\" + (name if len(name) <= 5 else name[:2]))
        return align
    return align


def _vtt_align(timing: str) -> int | None:
    """A WebVTT cue's settings as a numpad alignment: a line at the top (line:0, or within the
    top fifth) is 8, 7 or 9 by its align; None otherwise (kept as written in WebVTT only)."""
    line = _VTT_LINE.search(timing)
    if line is None:
        return None
    value = float(line.group(1))
    if not ((line.group(2) == "%" and value <= 20) or (not line.group(2) and 0 <= value <= 1)):
        return None
    side = _VTT_ALIGN.search(timing)
    return {"start": 7, "left": 7, "end": 9, "right": 9}.get(side.group(1), 8) if side else 8
