"""Cues into a transcript: what every subtitle reader ends with (each cue kept as a `SourceCue`,
rolling captions read once, speaker prefixes read as speakers)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any

from editor.core.document.text import Piece, join_mark
from editor.core.document.transcript import Metadata, SourceCue, Token, Transcript
from editor.core.formats._common import PARAGRAPH_GAP, PathLike, gap_paragraph_starts, spread
from editor.core.formats.subtitles.cues import (BREAK_TAG, Cue, INLINE_TIME, VOICE_TAG, cue_lines, tagged_words, words_of_line)
from editor.core.formats.subtitles.prefixes import (EVERY_CUE, is_credit, names_every_cue, reads_as_name,
                                                    speaker_prefix, takes_prefixes, written_prefix)
from editor.core.formats.subtitles.rolling import collapse_rolling, highlight_places, is_rolling, word_highlights


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
        each = [tagged_words(" ".join((cue.text or "").split("\n")), cue, cue.speaker) for cue in highlighted]
        tokens = [t for words in each for t in words]
        if source is not None:
            shown = highlight_places(cues, ranges, [len(words) for words in each])
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
    if any(VOICE_TAG.search(cue.text) for cue in transcript.metadata.cues):
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
            words = words_of_line(line)
            if n and words:
                line_starts.append(len(pieces))
            pieces.extend(words)
            speakers.extend([voice or cue.speaker or carried] * len(words))
        if prefixed and speakers and carry:
            carried = speakers[-1]
        first = len(tokens)
        timed = spread(pieces, cue.start, cue.end)
        if cue.text is not None and INLINE_TIME.search(cue.text):  # words timed by their tags
            tagged = tagged_words(" ".join(BREAK_TAG.sub("\n", cue.text).split("\n")), cue, None)
            if [t.text for t in tagged] == [t.text for t in timed]:
                timed = [replace(t, start=g.start, end=g.end, spread=g.spread) for t, g in zip(timed, tagged)]
        tokens.extend(replace(t, speaker=s) for t, s in zip(timed, speakers))
        if cue.text is not None:  # a cue without words ("♪ ♪", a timed blank) goes back too
            kept.append(SourceCue(
                tuple(range(first, len(tokens))), cue.start, cue.end, cue.text,
                tuple(join_mark(p.surface, p.punct) for p in pieces),
                tuple(first + i for i in line_starts), speakers[0] if speakers else cue.speaker,
                cue.ident, cue.timing, fmt))
    return tokens, tuple(kept)
