"""What SubRip and WebVTT share: cues into a transcript, and a transcript re-cut into cues."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from editor.core.document import Metadata, Token, Transcript
from editor.core.errors import UserError
from editor.core.formats._common import PARAGRAPH_GAP, PathLike, gap_paragraph_starts, spread
from editor.core.render import RenderedWord, RenderPolicy, render_words
from editor.core.text import ends_sentence, split_words

MAX_LINE_CHARS = 42
MAX_LINES = 2
MAX_CUE_SECONDS = 7.0
#: Assumed length of a word whose time is unknown and cannot be interpolated.
WORD_SECONDS = 0.4


@dataclass(frozen=True, slots=True)
class Cue:
    start: float
    end: float
    lines: tuple[str, ...]
    speaker: str | None = None


# -- reading --------------------------------------------------------------------------------------
def transcript_from_cues(cues: Sequence[Cue], path: PathLike,
                         warnings: Sequence[str] = ()) -> Transcript:
    """Words spread over their cue's time; a long silence or a new speaker starts a paragraph."""
    tokens: list[Token] = []
    for cue in sorted(cues, key=lambda c: c.start):
        pieces = split_words(" ".join(cue.lines))
        tokens.extend(spread(pieces, cue.start, cue.end, speaker=cue.speaker))
    duration = max((c.end for c in cues), default=None)
    return Transcript(tokens, paragraph_starts=gap_paragraph_starts(tokens, PARAGRAPH_GAP),
                      metadata=Metadata(source_file=str(path), duration=duration,
                                        warnings=tuple(warnings)))


# -- writing --------------------------------------------------------------------------------------
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


def cut_cues(transcript: Transcript, policy: RenderPolicy, path: PathLike) -> list[Cue]:
    """Cues that end at sentence ends where they can, each at most two lines of 42 characters
    and 7 seconds; when a sentence is too long the cut falls after a comma if there is one."""
    groups: list[list[RenderedWord]] = []
    current: list[RenderedWord] = []
    for word in timed_words(transcript, policy, path):
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
    cues = []
    for n, group in enumerate(groups):
        start, end = group[0].start, group[-1].end
        nxt = groups[n + 1][0].start if n + 1 < len(groups) else None
        end = max(end, start + 0.5)  # type: ignore[operator]  # readable, not just a flash
        if nxt is not None and nxt > start:  # type: ignore[operator]
            end = min(end, nxt)
        cues.append(Cue(start, end, tuple(wrap_lines([w.text for w in group])),  # type: ignore
                        group[0].speaker))
    return cues


def _cut_point(words: Sequence[RenderedWord]) -> int:
    """Where to cut words that overflow a cue: after the last comma in the second half of the
    words that fit, else just before the word that overflowed."""
    fitting = len(words) - 1
    for i in range(fitting - 1, fitting // 2 - 1, -1):
        if words[i].punct and i + 1 < len(words):
            return i + 1
    return max(fitting, 1)
