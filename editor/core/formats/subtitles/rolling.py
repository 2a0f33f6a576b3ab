"""Rolling captions: cues that repeat the line before and add to it (YouTube's automatic
captions, growing karaoke) or mark one word at a time (Whisper's --highlight_words), read once."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Sequence
from typing import Any

from editor.core.document.transcript import Token
from editor.core.formats._common import format_clock, spread
from editor.core.formats.subtitles.cues import (BREAK_TAG, Cue, INLINE_TIME, cue_lines, protect, tagged_words, visible, words_of_line)
from editor.core.formats.subtitles.prefixes import speaker_prefix, takes_prefixes
from editor.core.formats.subtitles.styles import cue_style

#: A WebVTT cue's region, in its settings (``region:fred``)
_REGION = re.compile(r"(?:^|\s)region:(\S+)")
#: The most pairs of a cue's new lines and the lines before it tried for a line that grows
_MOST_PAIRS = 10_000


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
    # by region: the last cue's start, its lines in order (a dict: cues shown at once add theirs
    # in place, not to a copy searched line by line, which was quadratic in such cues)
    before: dict[str | None, tuple[float, dict[str, None]]] = {}
    for cue in cues:
        shown = [_norm(line) for line, _ in cue_lines(cue.text)] if cue.text else list(cue.lines)
        lines = [line for line in dict.fromkeys(shown) if line]
        region = _REGION.search(cue.timing or "")
        key = region.group(1) if region else None
        start, previous = before.get(key, (float("-inf"), {}))
        if cue.start <= start:  # shown with the cue before: one caption, not a roll
            previous.update(dict.fromkeys(lines))
            before[key] = (start, previous)
            continue
        new = [line for line in lines if line not in previous]
        # a roll moves the cue before's last line up, new words below it (a line that stays at
        # the top while the ones below change is a refrain or a speaker's turn, not a roll)
        rolled = bool(previous) and next(reversed(previous)) in lines[:-1] and lines[-1] in new
        # (a cue of hundreds of lines after another is no caption growing: the pairs are not
        # tried, which took time quadratic in the lines, 8,000 lines a cue: 8 s)
        grown = len(new) * len(previous) <= _MOST_PAIRS and any(
            line.startswith(p + " ") for line in new for p in previous)
        if rolled or grown:
            repeats += 1
        before[key] = (cue.start, dict.fromkeys(lines))
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
        for k, raw in enumerate(BREAK_TAG.sub("\n", cue.text or "\n".join(cue.lines)).split("\n")):
            if not visible(raw).strip():
                continue
            line = _norm(visible(raw))
            speaker = cue.speaker
            if line in recent:
                ids = shown.get(line, [])
            elif INLINE_TIME.search(raw):
                # a rolling cue ends when the next one is shown (YouTube's: 10 ms before it, or at
                # its start), not when its last word ended: no pause is measured there
                added = tagged_words(raw, cue, speaker, end_measured=False)
                ids = list(range(len(tokens), len(tokens) + len(added)))
                tokens.extend(added)
            else:
                grown = next((p for p in reversed(recent) if line.startswith(p + " ")), None)
                text = line[len(grown):] if grown else line
                added = spread(words_of_line(text), cue.start, cue.end, speaker=speaker)
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


def highlight_places(cues: Sequence[Cue], ranges: Sequence[tuple[int, int]],
                      counts: Sequence[int]) -> dict[str, Any] | None:
    """Where each word read from highlighted cues (see `word_highlights`: the cues ``ranges``
    made one, each giving ``counts`` words) is shown: in every cue of its run, at the same line
    and word (as `collapse_rolling` gives them, for `writeback`); None where a run's cues do
    not show the same words on the same lines."""
    lines_of = [[line for line, _ in cue_lines(c.text)] if c.text is not None else list(c.lines) for c in cues]
    prefixed = takes_prefixes([line for lines in lines_of for line in lines])

    def layout(cue: Cue) -> list[tuple[int, list[str]]]:
        out = []
        for at, raw in enumerate(BREAK_TAG.sub("\n", cue.text or "").split("\n")):
            line = visible(raw)
            if prefixed:
                line = speaker_prefix(line)[1]
            words = [p.surface for p in words_of_line(line)]
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
                    speaker, at = name, at + len(words_of_line(line)) - len(words_of_line(rest))
                    line = rest
            cursor, seen, text = 0, 0, ""  # written up to, searched up to
            for p in words_of_line(line):
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
        words = [p.surface for line in _shown(cue) for p in words_of_line(line)]
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
