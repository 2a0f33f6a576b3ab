"""The cues a subtitle format writes: unchanged cues exactly as they came, changed ones re-timed
from their words and re-wrapped, a transcript without cues cut afresh, each within the
`SubtitleLayout` given (by default at most two lines of 42 characters and 7 seconds, and up long
enough to be read)."""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from editor.core.document.transcript import SourceCue, Transcript
from editor.core.errors import UserError
from editor.core.formats._common import PathLike
from editor.core.formats._common import spread
from editor.core.formats.subtitles.prefixes import EVERY_CUE
from editor.core.formats.subtitles.layout import DEFAULT_LAYOUT, SubtitleLayout
from editor.core.formats.subtitles.cues import cue_lines, is_italic, protect, protect_ass, words_of_line
from editor.core.formats.subtitles.reading import PREFIXES
from editor.core.formats.subtitles.styles import (ClassStyle, CueStyle, STYLE_ORDER, VTT_CLASS_LOST, class_sets, cue_style, piece_styles, vtt_palette)
from editor.core.render import RenderedWord, RenderPolicy, render_words
from editor.core.document.text import SENTENCE_END, Piece, ends_sentence, join_mark

#: Assumed length of a word whose time is unknown and cannot be interpolated.
WORD_SECONDS = 0.4


@dataclass(frozen=True, slots=True)
class StyledWord:
    """A word as written (its mark after it) with its styles ("i", "b", "u", "s",
    "color:#rrggbb", "class:name"; see `subtitles.STYLE_ORDER`); the last ``tail`` characters, its mark, have
    ``tail_styles`` instead ("<u>ever</u>.")."""

    text: str
    styles: frozenset[str] = frozenset()
    tail: int = 0
    tail_styles: frozenset[str] = frozenset()

    def pieces(self) -> list[tuple[str, frozenset[str]]]:
        if not self.tail or self.tail >= len(self.text) or self.tail_styles == self.styles:
            return [(self.text, self.styles)]
        cut = len(self.text) - self.tail
        return [(self.text[:cut], self.styles), (self.text[cut:], self.tail_styles)]


#: A line of styled words.
StyledLine = tuple[StyledWord, ...]


@dataclass(frozen=True, slots=True)
class OutCue:
    """A cue to write: ``source`` is the cue it is, unchanged, when it is one. ``styled`` holds
    its lines word by word with their styles when the cue it came from was styled, ``align`` its
    position ({\\anN}: 8 is top centre) and ``lost`` the styling no format carries."""

    start: float
    end: float
    lines: tuple[str, ...]
    speaker: str | None = None
    italic: bool = False
    source: SourceCue | None = None
    styled: tuple[StyledLine, ...] = ()
    align: int | None = None
    lost: frozenset[str] = frozenset()
    #: each line's speaker where the cue holds more than one ("- Hi." "- Hello."); else ()
    voices: tuple[str | None, ...] = ()
    #: the index in the transcript of the cue's first word; None for a cue without words ("♪ ♪")
    #: (what the window's check of cues goes to; no writer reads it)
    first_word: int | None = None

    def line_voices(self) -> tuple[str | None, ...]:
        """The speaker of each line."""
        count = len(self.styled or self.lines)
        return self.voices if len(self.voices) == count else (self.speaker,) * count


@dataclass(frozen=True, slots=True)
class TimedWord:
    """A word as it will be written (a `RenderedWord`) with its time, as read or interpolated."""

    index: int
    surface: str
    punct: str
    start: float
    end: float
    speaker: str | None
    paragraph_start: bool

    @property
    def text(self) -> str:
        return join_mark(self.surface, self.punct)


def timed_words(transcript: Transcript, policy: RenderPolicy,
                path: PathLike) -> list[TimedWord]:
    """Rendered words, each with a time: missing times are interpolated from the neighbours."""
    words = render_words(transcript, policy)
    times = {i: (w.start, w.end) for i, w in enumerate(words) if w.start is not None and w.end is not None}
    timed = list(times)
    if words and not timed:
        raise UserError(f"{path}: the transcript has no word times, so subtitles cannot be "
                        "timed; write .txt, .md or .docx instead, or transcribe the audio")
    out = []
    for i, w in enumerate(words):
        if i in times:
            start, end = times[i]
            out.append(TimedWord(w.index, w.surface, w.punct, start, end, w.speaker, w.paragraph_start))
            continue
        prev = max((j for j in timed if j < i), default=None)
        nxt = min((j for j in timed if j > i), default=None)
        if prev is not None and nxt is not None:
            lo, hi = times[prev][1], times[nxt][0]
            share = (hi - lo) / (nxt - prev)
            t0 = lo + share * (i - prev - 1)
            out.append(_timed(w, t0, t0 + share))
        elif prev is not None:
            t0 = times[prev][1] + WORD_SECONDS * (i - prev - 1)
            out.append(_timed(w, t0, t0 + WORD_SECONDS))
        else:
            assert nxt is not None  # some word is timed
            t1 = max(0.0, times[nxt][0] - WORD_SECONDS * (nxt - i - 1))
            out.append(_timed(w, max(0.0, t1 - WORD_SECONDS), t1))
    return out


def _timed(word: RenderedWord, start: float, end: float) -> TimedWord:
    """An untimed word given the time [start, end] (never ending before it starts)."""
    return TimedWord(word.index, word.surface, word.punct, start, max(start, end),
                     word.speaker, word.paragraph_start)


#: What may close a word after its mark: quotes, brackets, and a tag or override block ("</i>")
_CLOSING = re.compile(r"(?:<[^<>]*>|\{[^{}]*\}|[\"'”’»)\]])+$")


def _break_rank(word: str) -> int:
    """How good a line break after ``word`` is, as subtitlers break lines (Subtitle Edit's and
    Aegisub's users, the BBC's and Netflix's guidelines): 0 after a sentence end, 1 after a
    comma or other mark inside a sentence, 2 elsewhere."""
    bare = _CLOSING.sub("", word)
    if bare and bare[-1] in SENTENCE_END:
        return 0
    return 1 if bare and bare[-1] in ",;:—–" else 2


def wrap_lines(words: Sequence[str], width: int) -> list[str]:
    """Lines of at most ``width`` characters, two when two suffice: broken after a sentence end
    where one lets both lines fit, else after a comma, else where the lines are most even."""
    text = " ".join(words)
    if len(text) <= width or len(words) < 2:
        return [text]
    best: tuple[int, int, list[str]] | None = None
    for cut in range(1, len(words)):
        first, second = " ".join(words[:cut]), " ".join(words[cut:])
        if len(first) <= width and len(second) <= width:
            rank = (_break_rank(words[cut - 1]), max(len(first), len(second)))
            if best is None or rank < best[:2]:
                best = (*rank, [first, second])
    if best is not None:
        return best[2]
    lines, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line]


def _fits(words: Sequence[TimedWord], layout: SubtitleLayout) -> bool:
    if words[-1].end - words[0].start > layout.max_cue_seconds:
        return len(words) == 1
    return len(wrap_lines([w.text for w in words], layout.line_length)) <= layout.max_lines or len(words) == 1


def _group(words: Sequence[TimedWord], layout: SubtitleLayout) -> list[list[TimedWord]]:
    """Words in cues that end at sentence ends where they can, each within the layout's lines and
    time; when a sentence is too long the cut falls after a comma if there is one."""
    groups: list[list[TimedWord]] = []
    current: list[TimedWord] = []
    for word in words:
        if current and (word.paragraph_start or word.speaker != current[-1].speaker):
            groups.append(current)
            current = []
        current.append(word)
        while not _fits(current, layout):
            cut = _cut_point(current)
            groups.append(current[:cut])
            current = current[cut:]
        if ends_sentence(word.punct):
            groups.append(current)
            current = []
    if current:
        groups.append(current)
    return groups


def cut_cues(transcript: Transcript, policy: RenderPolicy, path: PathLike,
             layout: SubtitleLayout = DEFAULT_LAYOUT) -> list[OutCue]:
    """Cues cut afresh from the words' times (see `_group`), each up long enough to be read
    (`SubtitleLayout.shortest`) where the cues around leave room."""
    groups = _merge_short(_group(timed_words(transcript, policy, path), layout), layout)
    cues = [OutCue(g[0].start, g[-1].end, tuple(wrap_lines([w.text for w in g], layout.line_length)),
                   g[0].speaker, first_word=g[0].index) for g in groups]
    return _readable(cues, [layout.shortest(cue.lines) for cue in cues], transcript.metadata.duration,
                     layout.gap_seconds)


def _merge_short(groups: list[list[TimedWord]], layout: SubtitleLayout) -> list[list[TimedWord]]:
    """Groups too short to read (under the layout's shortest cue with no room to last longer
    before the next one) joined to the group before or after them when the words still fit one
    cue."""
    shortest = layout.min_cue_seconds
    out: list[list[TimedWord]] = []
    for n, group in enumerate(groups):
        nxt = groups[n + 1][0].start if n + 1 < len(groups) else None
        room = (nxt if nxt is not None else group[0].start + shortest) - group[0].start
        if room < shortest and out and out[-1][-1].speaker == group[0].speaker \
                and _fits([*out[-1], *group], layout):
            out[-1] = [*out[-1], *group]
        else:
            out.append(group)
    merged: list[list[TimedWord]] = []
    for group in out:
        short = bool(merged) and merged[-1][-1].end - merged[-1][0].start < shortest
        if short and merged[-1][-1].speaker == group[0].speaker and _fits([*merged[-1], *group], layout):
            merged[-1] = [*merged[-1], *group]
        else:
            merged.append(group)
    return merged


def _cut_point(words: Sequence[TimedWord]) -> int:
    """Where to cut words that overflow a cue: after the last comma in the second half of the
    words that fit, else just before the word that overflowed."""
    fitting = len(words) - 1
    for i in range(fitting - 1, fitting // 2 - 1, -1):
        if words[i].punct and i + 1 < len(words):
            return i + 1
    return max(fitting, 1)


def _readable(cues: list[OutCue], minimum: list[float], audio_end: float | None = None,
              gap: float = 0.0) -> list[OutCue]:
    """Cues made or changed by Stet last at least their minimum where the cues around leave room:
    the end moves later up to the next cue (never past ``audio_end``, the end of the recording:
    a word in 0.31 s of audio made a cue of 0-1 s), then the start earlier down to the one before.
    ``gap`` (seconds, `SubtitleLayout.min_gap`): such a cue ends that long before the next one
    starts, as Subtitle Edit's least gap between subtitles does, where the two do not overlap
    (two speakers at once stay together) and the cue is longer than the gap."""
    out = list(cues)
    for n, cue in enumerate(out):
        if cue.source is not None:
            continue
        nxt = out[n + 1].start if n + 1 < len(out) else None
        # how far the end may go: up to the next cue, less the gap where they do not overlap
        room = None if nxt is None or nxt <= cue.start else nxt - gap if nxt >= cue.end else nxt
        if cue.end - cue.start < minimum[n]:
            end = cue.start + minimum[n]
            if audio_end is not None and cue.end <= audio_end:
                end = min(end, audio_end)
            if room is not None:
                end = min(end, room)
            start = cue.start
            if end - start < minimum[n]:
                prev = out[n - 1].end + gap if n else 0.0
                start = max(min(prev, start), end - minimum[n], 0.0)
            cue = replace(cue, start=start, end=max(end, cue.end))
        if gap and nxt is not None and cue.end <= nxt < cue.end + gap and cue.start < nxt - gap:
            cue = replace(cue, end=nxt - gap)
        out[n] = cue
    return out


#: Formats whose cues are segments rather than subtitles (Whisper's JSON): text without markup
#: or line breaks of its own, wrapped when written; a segment stays one cue while it fits the
#: layout's lines, and is split into more cues (timed by its words) where it does not.
SEGMENT_FORMATS = frozenset({"whisper"})


def source_runs(transcript: Transcript, words: Sequence[TimedWord]
                ) -> list[tuple[int, list[TimedWord]]] | None:
    """The words grouped by the source cue (index into ``metadata.cues``) they belong to, in
    order: a word an edit added goes with a neighbour's cue (see `_assign_new_words`), and a cue
    without words ("♪ ♪") is there with none. None without source cues, or when every source
    cue's words are gone."""
    source = transcript.metadata.cues
    if not source:
        return None
    ids = [transcript[w.index].id for w in words]
    owner = {tid: n for n, cue in enumerate(source) for tid in cue.token_ids}
    owned = [owner.get(tid) for tid in ids]
    if all(n is None for n in owned):
        return None
    assigned = _assign_new_words(source, owned, words)
    runs: list[tuple[int, list[TimedWord]]] = [(n, [w for _, w in group]) for n, group in
            itertools.groupby(zip(assigned, words), key=lambda pair: pair[0])]
    # cues without words ("♪ ♪", "---") go back where they were, as they were
    decor = [n for n, cue in enumerate(source) if not cue.token_ids]
    return sorted(runs + [(n, []) for n in decor], key=lambda run: run[0])


def run_times(cue: SourceCue, run: Sequence[TimedWord], whole: bool) -> tuple[float, float]:
    """The time of a cue's words once edited: the cue's own time while they are all its words
    (``whole``: not parted by words of another cue), stretched over any word now outside it;
    else the words' time."""
    if not whole:
        return run[0].start, run[-1].end
    return min(cue.start, run[0].start), max(cue.end, run[-1].end)


def source_lines(cue: SourceCue, prefixed: bool | str = False,
                 layout: SubtitleLayout = DEFAULT_LAYOUT) -> list[str]:
    """A source cue's lines as seen: a subtitle's lines as written (without a speaker prefix
    when ``prefixed``: `cues.cue_lines`), a segment's words wrapped to the layout."""
    if cue.format in SEGMENT_FORMATS:
        return wrap_lines(list(cue.words), layout.line_length) if cue.words else [" ".join(cue.text.split())]
    return [line.strip() for line, _ in cue_lines(cue.text, prefixed)]


def _speakers_as_read(cue: SourceCue, prefixed: bool | str) -> list[str | None]:
    """The speaker each of a subtitle cue's words was read with (see `reading._cue_tokens`)."""
    if not prefixed and "<v" not in cue.text.lower():  # no voice in it: the cue's (a quick pass)
        return [cue.speaker] * len(cue.words)
    out: list[str | None] = []
    for line, voice in cue_lines(cue.text, prefixed):
        out.extend([voice or cue.speaker] * len(words_of_line(line)))
    return out


def line_voices(lines: Sequence[str], run: Sequence[TimedWord]) -> tuple[str | None, ...]:
    """Each line's speaker (that of its first word) when the words ``run`` on ``lines`` have
    more than one; () when they have one, or when the lines are not those words."""
    if len({w.speaker for w in run}) < 2:
        return ()
    voices: list[str | None] = []
    at = 0
    for line in lines:
        count = len(words_of_line(line))
        voices.append(run[at].speaker if count and at < len(run) else
                      voices[-1] if voices else run[0].speaker)
        at += count
    return tuple(voices) if at == len(run) else ()


def cues_to_write(transcript: Transcript, policy: RenderPolicy, path: PathLike,
                  layout: SubtitleLayout = DEFAULT_LAYOUT) -> list[OutCue]:
    """The cues to write. A transcript read from subtitles keeps its cues: one whose words are as
    read is written back exactly as it came; one whose words changed keeps its time (stretched
    over words typed past its end) and its line breaks where they still fit, and is split and
    re-timed from its words when it no longer fits the layout's lines; words added between cues
    join the cue before them. Whisper's segments are kept as cues too, each wrapped to the layout's
    line length, and split within its time (at its words' times) where it needs more lines than
    the layout allows. Without source cues, or when every
    source cue's words are gone, the cues are cut afresh."""
    source = transcript.metadata.cues
    if not source:
        return cut_cues(transcript, policy, path, layout)
    words = timed_words(transcript, policy, path)
    runs = source_runs(transcript, words)
    if runs is None:
        return cut_cues(transcript, policy, path, layout)
    run_count: dict[int, int] = {}
    for n, _ in runs:
        run_count[n] = run_count.get(n, 0) + 1
    cues: list[OutCue] = []
    minimum: list[float] = []
    palette = vtt_palette(transcript.metadata.extra.get("vtt_header"))
    mode = transcript.metadata.extra.get(PREFIXES)
    prefixed = mode if mode is True or mode == EVERY_CUE else False
    for n, run in runs:
        cue = source[n]
        first = len(cues)
        _add_cues(cues, minimum, transcript, cue, run, run_count[n] == 1, layout, prefixed)
        if not run and cue.format not in SEGMENT_FORMATS:  # "♪ ♪", "---": styled as read
            cues[first] = _decor_styled(cues[first], cue, palette)
            continue
        style = None if cue.format in SEGMENT_FORMATS else cue_style(
            cue.text, cue.words, cue.timing, cue.format, palette)
        if style is not None and (style.align or style.lost or any(style.words)):
            styles = _run_styles(cue, style, run, [transcript[w.index].id for w in run])
            at = 0
            for k in range(first, len(cues)):
                cues[k], at = _styled(cues[k], style, styles, at)
    return _readable(cues, minimum, gap=layout.gap_seconds)


def _decor_styled(out: OutCue, cue: SourceCue, palette: Mapping[str, ClassStyle]) -> OutCue:
    """A cue without words ("---" in magenta) with its lines' styles, piece by piece as its
    text is split at spaces, so that another format gets them (or says it cannot)."""
    lines, align, lost = piece_styles(cue.text, palette)
    if [" ".join(p for p, _ in line) for line in lines] != [" ".join(line.split()) for line in out.lines]:
        return out
    if not (align or lost or any(styles for line in lines for _, styles in line)):
        return out
    styled = tuple(tuple(StyledWord(p, styles) for p, styles in line) for line in lines)
    return replace(out, styled=styled, align=align, lost=lost)


def _add_cues(cues: list[OutCue], minimum: list[float], transcript: Transcript, cue: SourceCue,
              run: list[TimedWord], whole: bool, layout: SubtitleLayout,
              prefixed: bool | str = False) -> None:
    """Append the cues written for the words ``run`` of source cue ``cue`` (see `cues_to_write`),
    and the least time each is to last. A cue whose words now have other speakers than it was
    read with (a rename) is not the cue as read."""
    segment = cue.format in SEGMENT_FORMATS
    italic = not segment and is_italic(cue.text)
    run_ids = tuple(transcript[w.index].id for w in run)
    unchanged = whole and run_ids == cue.token_ids and tuple(w.text for w in run) == cue.words and (
        segment or [w.speaker for w in run] == _speakers_as_read(cue, prefixed))
    if not run or (unchanged and not segment):
        lines = tuple(source_lines(cue, prefixed, layout))
        cues.append(OutCue(cue.start, cue.end, lines, cue.speaker, italic, cue,
                           voices=line_voices(lines, run), first_word=run[0].index if run else None))
        minimum.append(0.0)
        return
    floor = min(layout.min_cue_seconds, cue.end - cue.start)  # never longer than the cue it was
    start, end = run_times(cue, run, whole)
    if segment:
        lines = tuple(wrap_lines([w.text for w in run], layout.line_length))
        if len(lines) <= layout.max_lines:
            cues.append(OutCue(start, end, lines, run[0].speaker, False, cue if unchanged else None,
                               voices=line_voices(lines, run), first_word=run[0].index))
            minimum.append(0.0 if unchanged else floor)
            return
    else:
        kept = _kept_lines(run, run_ids, cue, layout, prefixed)
        if kept is not None:
            cues.append(OutCue(start, end, kept, run[0].speaker, italic, voices=line_voices(kept, run),
                               first_word=run[0].index))
            minimum.append(floor)
            return
    groups = _group(run, layout)
    for k, group in enumerate(groups):
        cues.append(OutCue(start if k == 0 else group[0].start,
                           end if k == len(groups) - 1 else group[-1].end,
                           tuple(wrap_lines([w.text for w in group], layout.line_length)),
                           group[0].speaker, italic, first_word=group[0].index))
        minimum.append(floor)


def _run_styles(cue: SourceCue, style: CueStyle, run: Sequence[TimedWord],
                run_ids: Sequence[int]) -> list[StyledWord]:
    """Each word of ``run`` with its styles: a word read from the cue keeps its own; a word an
    edit put in takes those of the word it was typed over (the one read at its time), so that
    a word typed inside italics is italic. A mark keeps the styles of the mark read there, else
    it takes the word's (a word read there: when the word after has them too)."""
    if not run:
        return []
    index = {tid: k for k, tid in enumerate(cue.token_ids)}
    spans = [(t.start if t.start is not None else cue.start, t.end if t.end is not None else cue.end)
             for t in spread([Piece(w, w) for w in cue.words], cue.start, cue.end)]
    count = len(style.words)
    out = []
    for w, tid in zip(run, run_ids):
        k = index.get(tid)
        typed = k is None
        if k is None and spans:
            mid = (w.start + w.end) / 2
            k = min(range(len(spans)), key=lambda j: 0.0 if spans[j][0] <= mid <= spans[j][1]
                    else min(abs(spans[j][0] - mid), abs(spans[j][1] - mid)))
        if k is None or k >= count:
            out.append(StyledWord(w.text))
            continue
        styles = style.words[k]
        tail = len(w.text) - len(w.surface) if w.text.startswith(w.surface) else 0
        mark = style.marks[k] if k < len(style.marks) else None
        if mark is None:  # a mark the word did not have: in the styles around it (the cue's
            after = style.words[k + 1] if k + 1 < count else styles  # last word: in its own)
            mark = styles if typed else styles & after
        out.append(StyledWord(w.text, styles, tail, mark))
    return out


def _styled(cue: OutCue, style: CueStyle, words: Sequence[StyledWord],
            at: int) -> tuple[OutCue, int]:
    """``cue`` with its lines word by word with their styles (its words are ``words[at:]``
    onwards), and where the next cue's words begin; unchanged when its lines are not those
    words (then only whole-cue italics are carried)."""
    styled: list[StyledLine] = []
    for line in cue.lines:
        taken: list[StyledWord] = []
        text = ""
        want = " ".join(line.split())
        while at < len(words) and len(text) < len(want):
            taken.append(words[at])
            text = " ".join(w.text for w in taken)
            at += 1
        if " ".join(text.split()) != want:
            return replace(cue, align=style.align, lost=style.lost), at
        styled.append(tuple(taken))
    return replace(cue, styled=tuple(styled), align=style.align, lost=style.lost), at


def _assign_new_words(source: Sequence[SourceCue], owned: list[int | None],
                      words: Sequence[TimedWord]) -> list[int]:
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
            mid = (words[i].start + words[i].end) / 2
            lo = 0 if last is None else last + 1
            # a cue between the two whose words are all gone, during which the word is said:
            # it was typed over that cue's words (the cues are in order of their start)
            k = min(bisect.bisect_right(starts, mid, lo, max(lo, upper)), upper)
            emptied = [c for c in range(k - 1, max(lo, k - 4) - 1, -1)
                       if source[c].token_ids and source[c].end >= mid]
            if emptied:
                n = emptied[0]
            elif last is None:
                assert nxt is not None  # some word keeps its cue, else the cues are cut afresh
                n = nxt
            elif nxt is None or nxt == last:
                n = last
            else:
                inside = [c for c in (last, nxt) if source[c].start <= mid <= source[c].end]
                if len(inside) == 1:
                    n = inside[0]
                else:
                    assert j is not None  # nxt is its cue
                    before = abs(words[i].start - words[i - 1].end)
                    after = abs(words[j].start - words[i].end)
                    n = nxt if after < before else last
        if last is not None and n < last:
            n = last
        out.append(n)
    return out


def _kept_lines(run: Sequence[TimedWord], run_ids: Sequence[int], cue: SourceCue,
                layout: SubtitleLayout, prefixed: bool | str = False) -> tuple[str, ...] | None:
    """The changed words of a cue on its own lines (broken where its lines began) while they fit
    `SubtitleLayout.kept_width`, or wrapped afresh; None when they no longer fit in one cue."""
    starts = set(cue.line_starts)
    original = source_lines(cue, prefixed, layout)
    width = layout.kept_width(original)
    count = max(layout.max_lines, len(original))
    lines: list[list[str]] = []
    for w, tid in zip(run, run_ids):
        if not lines or tid in starts:
            lines.append([])
        lines[-1].append(w.text)
    joined = [" ".join(line) for line in lines]
    if len(joined) <= count and all(len(line) <= width for line in joined):
        return tuple(joined)
    if run[-1].end - run[0].start > max(layout.max_cue_seconds, cue.end - cue.start):
        return None
    wrapped = wrap_lines([w.text for w in run], layout.line_length)
    return tuple(wrapped) if len(wrapped) <= layout.max_lines else None


# -- checking -------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CueProblem:
    """A cue that breaks a layout: when it shows, what is wrong ("line 1 is 47 characters",
    "23.4 characters a second"), its lines, and the id of its first word (None: a cue without
    words, "♪ ♪"), which stays that word's however the document changes."""

    start: float
    end: float
    problems: tuple[str, ...]
    lines: tuple[str, ...]
    token_id: int | None


def cue_problems(transcript: Transcript, layout: SubtitleLayout, check: SubtitleLayout,
                 policy: RenderPolicy) -> list[CueProblem]:
    """The cues subtitles of ``transcript`` would be written as (laid out by ``layout``, the
    suggestions applied as ``policy`` says) that break ``check`` (`SubtitleLayout.problems`:
    line length, lines, reading speed), in order. A transcript without word times raises
    `UserError`, as writing subtitles of it does."""
    out = []
    for cue in cues_to_write(transcript, policy, transcript.metadata.source_file or "", layout):
        problems = check.problems(cue.lines, cue.start, cue.end)
        if problems:
            token = transcript[cue.first_word].id if cue.first_word is not None else None
            out.append(CueProblem(cue.start, cue.end, tuple(problems), cue.lines, token))
    return out


# -- styled text ----------------------------------------------------------------------------------
_HTML_OPEN = {"b": "<b>", "i": "<i>", "u": "<u>", "s": "<s>"}


def _ordered(styles: frozenset[str], colors: bool,
             classes: Mapping[str, ClassStyle] | None = None) -> list[str]:
    """Styles in the order tags open: WebVTT class, colour, bold, italic, underline,
    strike-through; colours only where ``colors``, classes only where ``classes`` (what each
    sets). What a written class sets (its colour, its bold...) is not written again."""
    rank = {name: k for k, name in enumerate(STYLE_ORDER)}
    implied: set[str] = set()
    if classes is not None:
        for style in styles:
            if style.startswith("class:"):
                sets = class_sets(style[6:].split("."), classes)
                implied |= {k for k in ("b", "i", "u", "s") if sets.get(k) is True}
                implied |= {"color"} if sets.get("color") else set()
    return sorted((s for s in styles if (colors and "color" not in implied or not s.startswith("color:"))
                   and (classes is not None or not s.startswith("class:")) and s not in implied),
                  key=lambda s: (rank[s.split(":")[0]], s))


def html_line(words: StyledLine, *, colors: bool, escape: bool,
              classes: Mapping[str, ClassStyle] | None = None) -> str:
    """A line of SubRip (``colors``: <font color>) or WebVTT (``escape``: &amp; &lt;;
    ``classes``: <c.name>, with what each sets, see `styles.vtt_palette`) text, each run of
    words in its tags, nested as they open; spaces stay outside the tags."""
    return html_lines([words], colors=colors, escape=escape, classes=classes)[0]


def html_lines(lines: Sequence[StyledLine], *, colors: bool, escape: bool,
               classes: Mapping[str, ClassStyle] | None = None) -> list[str]:
    """A cue's lines as `html_line` writes each, but a style that runs on from one line to the
    next stays open across the line break, as a cue is read and written by hand
    ("<i>Where were you" / "last night?</i>"): an edit in the cue does not split its span in two."""
    done: list[list[str]] = []
    stack: list[str] = []
    for line in lines:
        out: list[str] = []
        for k, word in enumerate(line):
            for n, (text, styles) in enumerate(word.pieces()):
                wanted = _ordered(styles, colors, classes)
                keep = 0
                while keep < min(len(stack), len(wanted)) and stack[keep] == wanted[keep]:
                    keep += 1
                closing = [_close(s) for s in reversed(stack[keep:])]
                # what ends at a line break closes at the end of the line before it
                (done[-1] if not k and not n and done else out).extend(closing)
                if k and not n:
                    out.append(" ")
                out.extend(_open(s) for s in wanted[keep:])
                stack = wanted
                out.append(text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                           if escape else protect(text))
        done.append(out)
    if done:
        done[-1].extend(_close(s) for s in reversed(stack))
    return ["".join(out) for out in done]


def _open(style: str) -> str:
    if style.startswith("class:"):
        return f"<c.{style[6:]}>"
    return f'<font color="{style[6:]}">' if style.startswith("color:") else _HTML_OPEN[style]


def _close(style: str) -> str:
    if style.startswith("class:"):
        return "</c>"
    return "</font>" if style.startswith("color:") else f"</{style}>"


#: Styles SubStation Alpha turns on and off with {\\x1} and {\\x0}, in STYLE_ORDER.
_ON_OFF = tuple(s for s in STYLE_ORDER if s in ("b", "i", "u", "s"))


def ass_text(lines: Sequence[StyledLine], protect: Callable[[str], str] = protect_ass) -> str:
    """SubStation Alpha text of styled lines: an override block where the styles change
    ({\\i1}, {\\b0}, {\\c&HBBGGRR&}), lines parted by \\N; ``protect`` writes the text between."""
    out: list[str] = []
    current: frozenset[str] = frozenset()
    for n, line in enumerate(lines):
        if n:
            out.append("\\N")
        for k, word in enumerate(line):
            for m, (text, styles) in enumerate(word.pieces()):
                # what ends closes before the space between words, what begins opens after it
                # ("{\\i1}word{\\i0} next"), so no style runs over a space it did not cover
                closing = [f"\\{s}0" for s in _ON_OFF if s in current and s not in styles]
                opening = [f"\\{s}1" for s in _ON_OFF if s in styles and s not in current]
                color = _color(styles)
                if color != _color(current):
                    if color:
                        opening.insert(0, f"\\c&H{color[4:6]}{color[2:4]}{color[0:2]}&".upper()
                                       .replace("\\C", "\\c"))
                    else:
                        closing.append("\\c")
                if k and not m:
                    out.append("{" + "".join(closing) + "} " if closing else " ")
                    closing = []
                if closing or opening:
                    out.append("{" + "".join(closing + opening) + "}")
                out.append(protect(text.replace("{", "(").replace("}", ")")))
                current = styles
    return "".join(out)


def _classed(styles: frozenset[str]) -> bool:
    return any(s.startswith("class:") for s in styles)


def _color(styles: frozenset[str]) -> str | None:
    """The colour among ``styles`` as "rrggbb", or None."""
    return next((s[7:] for s in styles if s.startswith("color:#")), None)


def styling_warnings(cues: Sequence[OutCue], fmt: str, name: str, verbatim: bool = True) -> list[str]:
    """One line saying which styling of the cues the format ``fmt`` (called ``name``) left out
    and in how many cues; none when nothing was lost. A cue written exactly as it came lost
    nothing (``verbatim``: the writer writes an unchanged cue of its own format as it came).
    SubRip and SubStation Alpha carry italics, bold, underline, colours and position; WebVTT
    all but colours (those a WebVTT class gave go back with the class) and keeps its classes;
    TTML (pysubs2) italics, bold and underline; SAMI all but position; SubViewer nothing. A
    WebVTT class is lost outside WebVTT unless it gave the words their colour."""
    kinds: set[str] = set()
    count = 0
    for cue in cues:
        if verbatim and cue.source is not None and cue.source.format == fmt:
            continue
        lost = set(cue.lost)
        words = [w for line in cue.styled for w in line]
        pieces = [styles for w in words for _, styles in w.pieces()]
        colored = any(_color(styles) and (fmt != "vtt" or not _classed(styles)) for styles in pieces)
        styled = cue.italic or any(w.styles or w.tail_styles for w in words)
        if fmt in ("vtt", "ttml") and colored:
            lost.add("colours (<font color>)")
        if fmt == "vtt":
            lost.discard(VTT_CLASS_LOST)  # kept as written
        if fmt in ("ttml", "sami") and cue.align:
            lost.add("position ({\\an8})")
        if fmt == "sbv" and (styled or cue.align):
            lost.add("italics, bold, underline, colours and position")
        if lost:
            count += 1
            kinds |= lost
    if not kinds:
        return []
    return [f"styling {name} cannot carry was left out of {count} cue{'s' if count > 1 else ''}: "
            f"{', '.join(sorted(kinds))}"]


# -- styles for documents (.docx, .md) ---------------------------------------------------------------
#: The styles a document carries: italics, bold, underline, strike-through and a colour.
DOCUMENT_STYLES = frozenset({"i", "b", "u", "s"})


def word_styles(transcript: Transcript, policy: RenderPolicy) -> dict[int, StyledWord]:
    """Each styled word (by its index in the transcript) with the styles subtitles would write it
    in (see `cues_to_write`): those read from its cue, or for a word typed in, those of the word
    it was typed over. Empty for a transcript without subtitle cues."""
    source = transcript.metadata.cues
    if not source:
        return {}
    try:
        words = timed_words(transcript, policy, transcript.metadata.source_file or "")
    except UserError:  # no word has a time: no cue to match them to
        return {}
    runs = source_runs(transcript, words)
    if runs is None:
        return {}
    palette = vtt_palette(transcript.metadata.extra.get("vtt_header"))
    out: dict[int, StyledWord] = {}
    for n, run in runs:
        cue = source[n]
        if not run or cue.format in SEGMENT_FORMATS:
            continue
        style = cue_style(cue.text, cue.words, cue.timing, cue.format, palette)
        if style is None or not any(style.words):
            continue
        styled = _run_styles(cue, style, run, [transcript[w.index].id for w in run])
        out.update((w.index, s) for w, s in zip(run, styled) if s.styles or s.tail_styles)
    return out


def styled_runs(words: Sequence[RenderedWord], styles: Mapping[int, StyledWord]
                ) -> list[tuple[str, frozenset[str]]]:
    """A paragraph's words as runs of text that share their styles (``word_styles``; only
    `DOCUMENT_STYLES` and a colour): a space between two words takes the styles both have."""
    pieces: list[tuple[str, frozenset[str]]] = []
    for k, w in enumerate(words):
        found = styles.get(w.index)
        parts = found.pieces() if found is not None and found.text == w.text else [(w.text, frozenset())]
        parts = [(text, frozenset(s for s in st if s in DOCUMENT_STYLES or s.startswith("color:#")))
                 for text, st in parts]
        if k:
            pieces.append((" ", pieces[-1][1] & parts[0][1]))
        pieces.extend(parts)
    runs: list[tuple[str, frozenset[str]]] = []
    for text, st in pieces:
        if runs and runs[-1][1] == st:
            runs[-1] = (runs[-1][0] + text, st)
        elif text:
            runs.append((text, st))
    return runs


def color_of(styles: frozenset[str]) -> str | None:
    """The colour among ``styles`` as "rrggbb", or None."""
    return _color(styles)


def colons_not_bold(runs: list[tuple[str, frozenset[str]]]) -> list[tuple[str, frozenset[str]]]:
    """The bold runs that begin a paragraph with their colons out of bold, so that a reader of
    .docx or .md does not take them for a speaker's name (a bold name and colon starting it)."""
    out: list[tuple[str, frozenset[str]]] = []
    for n, (text, style) in enumerate(runs):
        if "b" not in style:
            return out + runs[n:]
        for k, part in enumerate(text.split(":")):
            if k:
                out.append((":", style - {"b"}))
            if part:
                out.append((part, style))
    return out
