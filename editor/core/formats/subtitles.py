"""What every subtitle format shares: cue text to words, cues into a transcript (each cue kept as a
`SourceCue`), rolling captions collapsed, and the cues to write back — unchanged cues exactly as
they came, changed ones re-timed from their words, a transcript without cues cut afresh."""

from __future__ import annotations

import bisect
import html
import itertools
import re
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from editor.core.document import Metadata, SourceCue, Token, Transcript
from editor.core.errors import FormatError, UserError
from editor.core.formats._common import (MAX_SECONDS, PARAGRAPH_GAP, PathLike,
                                         gap_paragraph_starts, spread)
from editor.core.render import RenderedWord, RenderPolicy, render_words
from editor.core.text import Piece, ends_sentence, join_mark, split_words

MAX_LINE_CHARS = 42
MAX_LINES = 2
MAX_CUE_SECONDS = 7.0
#: A cue Stet makes or re-times stays up at least this long (unless the cue it came from was
#: shorter): about the time needed to read two words.
MIN_CUE_SECONDS = 1.0
#: Assumed length of a word whose time is unknown and cannot be interpolated.
WORD_SECONDS = 0.4


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


# -- cue text ---------------------------------------------------------------------------------------
#: Tags that SubRip and WebVTT cue text use: style, class, voice, language, ruby, font, and inline
#: timestamps. Anything else in angle brackets ("x <y and y> z") is text and stays.
_TAG_NAMES = r"(?:c|i|b|u|s|v|lang|ruby|rt|font|span|br)"
_TAG = re.compile(rf"<\s*/?\s*{_TAG_NAMES}(?=[\s.>/])[^<>\n]*>|<(?:\d+:)?\d{{1,2}}:\d{{2}}[.,]\d{{1,3}}>"
                  r"|\{\\[^}\n]*\}", re.IGNORECASE)
_RUBY_TEXT = re.compile(r"<rt\b[^<>]*>.*?</rt\s*>", re.IGNORECASE | re.DOTALL)
_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
_VOICE = re.compile(r"<v(?:\.[^\s>]*)?[ \t]+([^>\n]+)>", re.IGNORECASE)
_ITALIC_LINE = re.compile(r"^\s*(?:\{\\i1\}|<i>)(.*)(?:\{\\i0\}|</i>)\s*$", re.IGNORECASE | re.DOTALL)
#: An inline timestamp in a cue ("karaoke" and YouTube auto-caption word times).
INLINE_TIME = re.compile(r"<((?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3})>")


def visible(line: str) -> str:
    """A line of cue text as seen: tags removed, entities (&amp; &lt; &nbsp; &#39;) decoded."""
    return html.unescape(_TAG.sub("", _RUBY_TEXT.sub("", line)))


def cue_lines(text: str) -> list[tuple[str, str | None]]:
    """(visible line, voice) for each non-empty line of a cue's text; a line without a voice tag
    has the voice of the line before it."""
    out: list[tuple[str, str | None]] = []
    voice = None
    for raw in _BREAK.sub("\n", text).split("\n"):
        found = _VOICE.search(raw)
        if found:
            voice = " ".join(html.unescape(found.group(1)).split()) or None
        line = visible(raw)
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
                         fmt: str = "", extra: dict[str, Any] | None = None) -> Transcript:
    """Words spread over their cue's time; a long silence or a new speaker starts a paragraph.
    Each cue is kept as a `SourceCue`; rolling captions (each cue repeating the line before, or
    words timed by inline tags) are read once each instead, and not kept."""
    warnings = list(warnings)
    cues = sorted(cues, key=lambda c: c.start)
    if is_rolling(cues):
        tokens = collapse_rolling(cues)
        warnings.append("captions timed word by word or rolling (each cue repeating the line "
                        "before it, as YouTube's automatic captions): every line was read once; "
                        "written back as subtitles, the cues are cut afresh")
        kept: tuple[SourceCue, ...] = ()
    else:
        tokens, kept = _cue_tokens(cues, fmt)
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


def _cue_tokens(cues: Sequence[Cue], fmt: str) -> tuple[list[Token], tuple[SourceCue, ...]]:
    tokens: list[Token] = []
    kept = []
    for cue in cues:
        lines = cue_lines(cue.text) if cue.text is not None else [(line, cue.speaker)
                                                                   for line in cue.lines]
        pieces: list[Piece] = []
        speakers: list[str | None] = []
        line_starts: list[int] = []
        for n, (line, voice) in enumerate(lines):
            words = _words(line)
            if n and words:
                line_starts.append(len(pieces))
            pieces.extend(words)
            speakers.extend([voice or cue.speaker] * len(words))
        first = len(tokens)
        timed = spread(pieces, cue.start, cue.end)
        tokens.extend(replace(t, speaker=s) for t, s in zip(timed, speakers))
        if cue.text is not None and (pieces or cue.text.strip()):
            kept.append(SourceCue(
                tuple(range(first, len(tokens))), cue.start, cue.end, cue.text,
                tuple(join_mark(p.surface, p.punct) for p in pieces),
                tuple(first + i for i in line_starts), speakers[0] if speakers else cue.speaker,
                cue.ident, cue.timing, fmt))
    return tokens, tuple(kept)


def _words(text: str) -> list[Piece]:
    """The words of a line of cue text: marks alone ("---", "♪ ♪") are not words, so a cue of
    them gives no token."""
    return [p for p in split_words(text) if any(ch.isalnum() for ch in p.surface)]


def is_rolling(cues: Sequence[Cue]) -> bool:
    """Captions whose words are timed by inline tags, or where cue after cue repeats a line of
    the cue before (YouTube's automatic captions as downloaders save them, growing karaoke)."""
    if len(cues) < 2:
        return False
    if any(c.text and INLINE_TIME.search(c.text) for c in cues):
        return True
    repeats, previous = 0, set[str]()
    for cue in cues:
        lines = [_norm(line) for line, _ in cue_lines(cue.text)] if cue.text else list(cue.lines)
        if any(line in previous or any(line.startswith(p + " ") for p in previous)
               for line in lines if line):
            repeats += 1
        previous = {line for line in lines if line}
    return repeats >= max(2, 0.3 * len(cues))


def _norm(line: str) -> str:
    return " ".join(line.split())


def collapse_rolling(cues: Sequence[Cue]) -> list[Token]:
    """Each spoken word once: a line already shown is skipped, a line that grows one already
    shown adds only its new words, and words after an inline timestamp take its time."""
    tokens: list[Token] = []
    recent: deque[str] = deque(maxlen=4)
    for cue in cues:
        raw_lines = [r for r in _BREAK.sub("\n", cue.text or "\n".join(cue.lines)).split("\n")
                     if visible(r).strip()]
        for raw in raw_lines:
            line = _norm(visible(raw))
            speaker = cue.speaker
            if INLINE_TIME.search(raw):
                if line in recent:
                    continue
                tokens.extend(_tagged_words(raw, cue, speaker))
                recent.append(line)
                continue
            if line in recent:
                continue
            grown = next((p for p in reversed(recent) if line.startswith(p + " ")), None)
            text = line[len(grown):] if grown else line
            tokens.extend(spread(_words(text), cue.start, cue.end, speaker=speaker))
            recent.append(line)
    return tokens


def _tagged_words(raw: str, cue: Cue, speaker: str | None) -> list[Token]:
    """Words of a line with inline timestamps: each run of text takes the time from the tag
    before it (the first run from the cue's start) to the next tag (the last to the cue's end)."""
    parts = INLINE_TIME.split(raw)
    times = [cue.start] + [parse_clock(t) or cue.start for t in parts[1::2]] + [cue.end]
    out: list[Token] = []
    for k, text in enumerate(parts[0::2]):
        start = min(max(times[k], cue.start), cue.end)
        end = min(max(times[k + 1], start), cue.end)
        out.extend(spread(_words(visible(text)), start, end, speaker=speaker))
    return out


# -- writing --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class OutCue:
    """A cue to write: ``source`` is the cue it is, unchanged, when it is one."""

    start: float
    end: float
    lines: tuple[str, ...]
    speaker: str | None = None
    italic: bool = False
    source: SourceCue | None = None


def timed_words(transcript: Transcript, policy: RenderPolicy,
                path: PathLike) -> list[RenderedWord]:
    """Rendered words, each with a time: missing times are interpolated from the neighbours."""
    words = render_words(transcript, policy)
    timed = [i for i, w in enumerate(words) if w.start is not None and w.end is not None]
    if words and not timed:
        raise UserError(f"{path}: the transcript has no word times, so subtitles cannot be "
                        "timed; write .txt, .md or .docx instead, or transcribe the audio")
    out = list(words)
    for i, w in enumerate(words):
        if w.start is not None and w.end is not None:
            continue
        prev = max((j for j in timed if j < i), default=None)
        nxt = min((j for j in timed if j > i), default=None)
        if prev is not None and nxt is not None:
            lo, hi = words[prev].end, words[nxt].start
            share = (hi - lo) / (nxt - prev)  # type: ignore[operator]
            t0 = lo + share * (i - prev - 1)  # type: ignore[operator]
            out[i] = _retime(w, t0, t0 + share)
        elif prev is not None:
            t0 = words[prev].end + WORD_SECONDS * (i - prev - 1)  # type: ignore[operator]
            out[i] = _retime(w, t0, t0 + WORD_SECONDS)
        else:
            t1 = max(0.0, words[nxt].start - WORD_SECONDS * (nxt - i - 1))  # type: ignore
            out[i] = _retime(w, max(0.0, t1 - WORD_SECONDS), t1)
    return out


def _retime(word: RenderedWord, start: float, end: float) -> RenderedWord:
    return RenderedWord(word.index, word.surface, word.punct, start, max(start, end),
                        word.speaker, word.paragraph_start)


def wrap_lines(words: Sequence[str], width: int = MAX_LINE_CHARS) -> list[str]:
    """Lines of at most ``width`` characters, two balanced ones when two suffice."""
    text = " ".join(words)
    if len(text) <= width or len(words) < 2:
        return [text]
    best: tuple[int, list[str]] | None = None
    for cut in range(1, len(words)):
        first, second = " ".join(words[:cut]), " ".join(words[cut:])
        if len(first) <= width and len(second) <= width:
            longest = max(len(first), len(second))
            if best is None or longest < best[0]:
                best = (longest, [first, second])
    if best is not None:
        return best[1]
    lines, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line]


def _fits(words: Sequence[RenderedWord]) -> bool:
    if words[-1].end - words[0].start > MAX_CUE_SECONDS:  # type: ignore[operator]
        return len(words) == 1
    return len(wrap_lines([w.text for w in words])) <= MAX_LINES or len(words) == 1


def _group(words: Sequence[RenderedWord]) -> list[list[RenderedWord]]:
    """Words in cues that end at sentence ends where they can, each at most two lines of 42
    characters and 7 seconds; when a sentence is too long the cut falls after a comma if there is
    one."""
    groups: list[list[RenderedWord]] = []
    current: list[RenderedWord] = []
    for word in words:
        if current and (word.paragraph_start or word.speaker != current[-1].speaker):
            groups.append(current)
            current = []
        current.append(word)
        while not _fits(current):
            cut = _cut_point(current)
            groups.append(current[:cut])
            current = current[cut:]
        if ends_sentence(word.punct):
            groups.append(current)
            current = []
    if current:
        groups.append(current)
    return groups


def cut_cues(transcript: Transcript, policy: RenderPolicy, path: PathLike) -> list[OutCue]:
    """Cues cut afresh from the words' times (see `_group`)."""
    groups = _merge_short(_group(timed_words(transcript, policy, path)))
    cues = [OutCue(g[0].start, g[-1].end, tuple(wrap_lines([w.text for w in g])),  # type: ignore
                   g[0].speaker) for g in groups]
    return _readable(cues, [MIN_CUE_SECONDS] * len(cues))


def _merge_short(groups: list[list[RenderedWord]]) -> list[list[RenderedWord]]:
    """Groups too short to read (under MIN_CUE_SECONDS with no room to last longer before the
    next one) joined to the group before or after them when the words still fit one cue."""
    out: list[list[RenderedWord]] = []
    for n, group in enumerate(groups):
        nxt = groups[n + 1][0].start if n + 1 < len(groups) else None
        room = (nxt if nxt is not None else group[0].start + MIN_CUE_SECONDS) - group[0].start  # type: ignore[operator]
        if room < MIN_CUE_SECONDS and out and out[-1][-1].speaker == group[0].speaker \
                and _fits([*out[-1], *group]):
            out[-1] = [*out[-1], *group]
        else:
            out.append(group)
    merged: list[list[RenderedWord]] = []
    for group in out:
        short = bool(merged) and merged[-1][-1].end - merged[-1][0].start < MIN_CUE_SECONDS  # type: ignore[operator]
        if short and merged[-1][-1].speaker == group[0].speaker and _fits([*merged[-1], *group]):
            merged[-1] = [*merged[-1], *group]
        else:
            merged.append(group)
    return merged


def _cut_point(words: Sequence[RenderedWord]) -> int:
    """Where to cut words that overflow a cue: after the last comma in the second half of the
    words that fit, else just before the word that overflowed."""
    fitting = len(words) - 1
    for i in range(fitting - 1, fitting // 2 - 1, -1):
        if words[i].punct and i + 1 < len(words):
            return i + 1
    return max(fitting, 1)


def _readable(cues: list[OutCue], minimum: list[float]) -> list[OutCue]:
    """Cues made or changed by Stet last at least their minimum where the cues around leave room:
    the end moves later up to the next cue, then the start earlier down to the one before."""
    out = list(cues)
    for n, cue in enumerate(out):
        if cue.source is not None or cue.end - cue.start >= minimum[n]:
            continue
        nxt = out[n + 1].start if n + 1 < len(out) else None
        end = cue.start + minimum[n]
        if nxt is not None and nxt > cue.start:
            end = min(end, nxt)
        start = cue.start
        if end - start < minimum[n]:
            prev = out[n - 1].end if n else 0.0
            start = max(min(prev, start), end - minimum[n], 0.0)
        out[n] = replace(cue, start=start, end=max(end, cue.end))
    return out


def cues_to_write(transcript: Transcript, policy: RenderPolicy, path: PathLike) -> list[OutCue]:
    """The cues to write. A transcript read from subtitles keeps its cues: one whose words are as
    read is written back exactly as it came; one whose words changed keeps its line breaks
    where they still fit and is re-timed from its words (split when it no longer fits two
    lines); words added between cues join the cue before them. Without source cues, or when
    every source cue's words are gone, the cues are cut afresh."""
    source = transcript.metadata.cues
    if not source:
        return cut_cues(transcript, policy, path)
    words = timed_words(transcript, policy, path)
    ids = [transcript[w.index].id for w in words]
    owner = {tid: n for n, cue in enumerate(source) for tid in cue.token_ids}
    owned = [owner.get(tid) for tid in ids]
    if all(n is None for n in owned):
        return cut_cues(transcript, policy, path)
    assigned = _assign_new_words(source, owned, words)
    runs: list[tuple[int, list[RenderedWord]]] = [(n, [w for _, w in group]) for n, group in
            itertools.groupby(zip(assigned, words), key=lambda pair: pair[0])]
    # cues without words ("♪ ♪", "---") go back where they were, as they were
    decor = [n for n, cue in enumerate(source) if not cue.token_ids]
    runs = sorted(runs + [(n, []) for n in decor], key=lambda run: run[0])
    run_count: dict[int, int] = {}
    for n, _ in runs:
        run_count[n] = run_count.get(n, 0) + 1
    cues: list[OutCue] = []
    minimum: list[float] = []
    for n, run in runs:
        cue = source[n]
        run_ids = tuple(transcript[w.index].id for w in run)
        if not run:
            cues.append(OutCue(cue.start, cue.end, tuple(line for line, _ in cue_lines(cue.text)),
                               cue.speaker, is_italic(cue.text), cue))
            minimum.append(0.0)
            continue
        if (run_count[n] == 1 and run_ids == cue.token_ids
                and tuple(w.text for w in run) == cue.words):
            cues.append(OutCue(cue.start, cue.end, tuple(line for line, _ in cue_lines(cue.text)),
                               cue.speaker, is_italic(cue.text), cue))
            minimum.append(0.0)
            continue
        floor = min(MIN_CUE_SECONDS, cue.end - cue.start)
        italic = is_italic(cue.text)
        lines = _kept_lines(run, run_ids, cue)
        if lines is not None:
            cues.append(OutCue(run[0].start, run[-1].end, lines, run[0].speaker, italic))  # type: ignore
            minimum.append(floor)
            continue
        for group in _group(run):
            cues.append(OutCue(group[0].start, group[-1].end,  # type: ignore[arg-type]
                               tuple(wrap_lines([w.text for w in group])), group[0].speaker, italic))
            minimum.append(floor)
    return _readable(cues, minimum)


def _assign_new_words(source: Sequence[SourceCue], owned: list[int | None],
                      words: Sequence[RenderedWord]) -> list[int]:
    """The cue of each word: its own, or for a word added by an edit, that of the word before or
    after it: the one whose time it falls in, else the one it is nearer in time to (a word typed
    over a cue's first word goes with that cue, one added after a cue's last word with that one).
    A cue never comes before the cue of the word before it."""
    out: list[int] = []
    following: list[int | None] = [None] * len(owned)  # index of the next word a cue owns
    ahead = None
    for i in range(len(owned) - 1, -1, -1):
        following[i] = ahead
        if owned[i] is not None:
            ahead = i
    starts = [cue.start for cue in source]
    for i, n in enumerate(owned):
        last = out[-1] if out else None
        if n is None:
            j = following[i]
            nxt = owned[j] if j is not None else None
            upper = nxt if nxt is not None else len(source)
            mid = (words[i].start + words[i].end) / 2  # type: ignore[operator]
            lo = 0 if last is None else last + 1
            # a cue between the two whose words are all gone, during which the word is said:
            # it was typed over that cue's words (the cues are in order of their start)
            k = min(bisect.bisect_right(starts, mid, lo, max(lo, upper)), upper)
            emptied = [c for c in range(k - 1, max(lo, k - 4) - 1, -1)
                       if source[c].token_ids and source[c].end >= mid]
            if emptied:
                n = emptied[0]
            elif last is None:
                n = nxt
            elif nxt is None or nxt == last:
                n = last
            else:
                inside = [c for c in (last, nxt) if source[c].start <= mid <= source[c].end]
                if len(inside) == 1:
                    n = inside[0]
                else:
                    before = abs(words[i].start - words[i - 1].end)  # type: ignore[operator]
                    after = abs(words[j].start - words[i].end)  # type: ignore[index,operator]
                    n = nxt if after < before else last
        if last is not None and n < last:  # type: ignore[operator]
            n = last
        out.append(n)  # type: ignore[arg-type]
    return out


def _kept_lines(run: Sequence[RenderedWord], run_ids: Sequence[int],
                cue: SourceCue) -> tuple[str, ...] | None:
    """The changed words of a cue on its own lines (broken where its lines began), or wrapped
    afresh; None when they no longer fit in one cue."""
    starts = set(cue.line_starts)
    original = [line for line, _ in cue_lines(cue.text)]
    width = max([MAX_LINE_CHARS, *(len(line) for line in original)])
    count = max(MAX_LINES, len(original))
    lines: list[list[str]] = []
    for w, tid in zip(run, run_ids):
        if not lines or tid in starts:
            lines.append([])
        lines[-1].append(w.text)
    joined = [" ".join(line) for line in lines]
    if len(joined) <= count and all(len(line) <= width for line in joined):
        return tuple(joined)
    if run[-1].end - run[0].start > max(MAX_CUE_SECONDS, cue.end - cue.start):  # type: ignore
        return None
    wrapped = wrap_lines([w.text for w in run])
    return tuple(wrapped) if len(wrapped) <= MAX_LINES else None
