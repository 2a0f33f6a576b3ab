"""Whisper JSON (openai-whisper, faster-whisper, WhisperX, stable-ts, whisper-timestamped):
segments, with word times when present. Each timed segment is kept as a cue (a `SourceCue` of
format "whisper"), so that subtitles and JSON written from the transcript keep its segments."""

from __future__ import annotations

import difflib
from dataclasses import replace
from typing import Any

from editor.core.document.transcript import Metadata, SourceCue, Spread, Token, Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import (MAX_JSON_BYTES, PathLike, add_words, decode_utf8,
                                         gap_paragraph_starts, ordered, parse_json, probability,
                                         read_bytes, seconds, spread_of)
from editor.core.document.text import join_mark, normalize_word, split_chunk

#: The format of the cues kept from Whisper's segments (text without markup or line breaks).
CUE_FORMAT = "whisper"


def read_whisper(path: PathLike) -> Transcript:
    data = parse_json(decode_utf8(read_bytes(path, MAX_JSON_BYTES), path), path)
    return transcript_from_whisper(data, path)


def transcript_from_whisper(data: Any, path: PathLike) -> Transcript:
    if not isinstance(data, dict) or not isinstance(data.get("segments"), list):
        raise FormatError(path, "this is not Whisper output: no list of \"segments\"")
    tokens: list[Token] = []
    segment_starts = []
    generator = data.get("generator")
    # Stet's own .json export: a segment is a paragraph, and each word entry is one word as shown
    # (in any script: Chinese, Japanese or Thai words are not joined as Whisper's pieces are)
    own = isinstance(generator, str) and generator.split(" ")[0] == "stet"
    spaced = _marks_spaces(data["segments"])
    #: (first token, segment start, end, text, speaker) of each segment
    segments: list[tuple[int, float | None, float | None, str, str | None]] = []
    paragraph_flags: list[bool] = []
    for n, seg in enumerate(data["segments"], 1):
        segment_starts.append(len(tokens))
        where = f"segment {n}"
        if not isinstance(seg, dict):
            raise FormatError(path, f"{where} is not an object")
        speaker = seg.get("speaker") if isinstance(seg.get("speaker"), str) else None
        seg_start, seg_end = ordered(seconds(seg.get("start"), path, where),
                                     seconds(seg.get("end"), path, where))
        segments.append((len(tokens), seg_start, seg_end,
                         seg["text"] if isinstance(seg.get("text"), str) else "", speaker))
        paragraph_flags.append(seg.get("new_paragraph") is not False)
        words = seg.get("words")
        if isinstance(words, list) and words:
            for k, word in enumerate(words, 1):
                text = word.get("word", word.get("text")) if isinstance(word, dict) else None
                if not isinstance(text, str):
                    raise FormatError(path, f"{where}, word {k} has no text")
                start, end = ordered(seconds(word.get("start"), path, f"{where}, word {k}"),
                                     seconds(word.get("end"), path, f"{where}, word {k}"))
                conf = probability(word.get("probability", word.get("score", word.get("confidence"))),
                                   path, f"{where}, word {k}")
                if not own and _continues(tokens, text, segment_starts[-1], spaced):
                    _join(tokens, text, end, conf)
                    continue
                first = len(tokens)
                add_words(tokens, text, start, end, speaker=speaker or _str(word.get("speaker")),
                          confidence=conf, path=path)
                if own and "spread" in word and len(tokens) > first:  # times Stet had spread
                    spread = spread_of(word["spread"], path, f"{where}, word {k}")
                    tokens[first] = replace(tokens[first], spread=tokens[first].spread | spread & Spread.START)
                    tokens[-1] = replace(tokens[-1], spread=tokens[-1].spread | spread & Spread.END)
        elif isinstance(seg.get("text"), str):
            add_words(tokens, seg["text"], seg_start, seg_end, speaker=speaker, path=path)
        else:
            raise FormatError(path, f"{where} has neither words nor text")
    language = data.get("language")
    # a long pause starts a paragraph only where a segment starts (not mid-sentence)
    segment_set = set(segment_starts)
    if own:  # a segment that goes on with the paragraph before says "new_paragraph": false
        starts = sorted({i for i, new in zip(segment_starts, paragraph_flags) if new} | {0})
    else:
        starts = [i for i in gap_paragraph_starts(tokens) if i in segment_set]
    doc = Transcript(tokens, paragraph_starts=starts,
                     metadata=Metadata(source_file=str(path),
                                       language=language if isinstance(language, str) else None))
    cues = _segment_cues(tokens, segments, [t.id for t in doc.tokens])
    if cues:
        doc.metadata = replace(doc.metadata, cues=cues)
    return doc


def _segment_cues(tokens: list[Token], segments: list[tuple[int, float | None, float | None, str,
                                                             str | None]],
                  ids: list[int]) -> tuple[SourceCue, ...]:
    """Each segment as a cue: its time as Whisper gave it (else its words' times), its text and
    its words as read. No cues when a segment has no time at all or segments go back in time (a
    file put together by hand): then subtitles are cut afresh from the words."""
    cues: list[SourceCue] = []
    for k, (first, start, end, text, speaker) in enumerate(segments):
        last = segments[k + 1][0] if k + 1 < len(segments) else len(tokens)
        own = tokens[first:last]
        if start is None or end is None:
            timed = [t for t in own if t.start is not None and t.end is not None]
            if not timed:
                if own:
                    return ()
                continue
            start, end = min(t.start for t in timed if t.start is not None), \
                max(t.end for t in timed if t.end is not None)
        if not own:  # marks alone ("...") went to the word before: no cue of its own
            continue
        if cues and start < cues[-1].start:
            return ()
        if speaker is None and len({t.speaker for t in own}) > 1:
            cues.extend(_cues_by_speaker(own, ids[first:last], start, end))
            continue
        words = tuple(join_mark(t.surface or t.word, t.punct) for t in own)
        cues.append(SourceCue(tuple(ids[first:last]), start, end,
                              " ".join(text.split()) or " ".join(words), words,
                              speaker=speaker or (own[0].speaker if own else None),
                              format=CUE_FORMAT))
    return tuple(cues)


def _cues_by_speaker(own: list[Token], ids: list[int], start: float,
                     end: float) -> list[SourceCue]:
    """A segment without a speaker of its own whose words have several (WhisperX gives each word
    the speaker diarization found for it) as a cue per speaker's run of words: a cue has one
    speaker. Each runs from its first timed word (the first from the segment's start) to the
    next run's start (the last to the segment's end)."""
    runs: list[list[int]] = []
    for k, token in enumerate(own):
        if not runs or token.speaker != own[runs[-1][0]].speaker:
            runs.append([])
        runs[-1].append(k)
    starts = [start]
    for run in runs[1:]:
        found = next((t for k in run if (t := own[k].start) is not None), None)
        starts.append(found if found is not None else starts[-1])
    out = []
    for n, run in enumerate(runs):
        run_end = max(starts[n + 1], starts[n]) if n + 1 < len(runs) else end
        words = tuple(join_mark(own[k].surface or own[k].word, own[k].punct) for k in run)
        out.append(SourceCue(tuple(ids[k] for k in run), starts[n], run_end, " ".join(words),
                             words, speaker=own[run[0]].speaker, format=CUE_FORMAT))
    return out


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _spaceless(ch: str) -> bool:
    """A character of a script written without spaces between words (Chinese, Japanese, Thai...)."""
    o = ord(ch)
    return (0x3040 <= o <= 0x30FF or 0x3400 <= o <= 0x4DBF or 0x4E00 <= o <= 0x9FFF
            or 0xF900 <= o <= 0xFAFF or 0x20000 <= o <= 0x2FFFF or 0x0E00 <= o <= 0x0EFF
            or 0x1000 <= o <= 0x109F or 0x1780 <= o <= 0x17FF or 0x3000 <= o <= 0x303F
            or 0xFF00 <= o <= 0xFFEF)


def _marks_spaces(segments: list[Any]) -> bool:
    """Whether words carry the space before them (openai-whisper, faster-whisper, whisper.cpp:
    " that", "'s"), as opposed to bare words (WhisperX)."""
    words = [w.get("word") for seg in segments if isinstance(seg, dict)
             and isinstance(seg.get("words"), list) for w in seg["words"] if isinstance(w, dict)]
    texts = [w for w in words if isinstance(w, str) and w]
    return bool(texts) and sum(w[0].isspace() for w in texts) >= 0.5 * len(texts)


def _continues(tokens: list[Token], text: str, segment_start: int, spaced: bool) -> bool:
    """Whisper marks a space before a word with a leading " ": where words carry it, a word
    without it continues the word before ("that" + "'s"); in Chinese, Japanese or Thai a word
    continues the one before unless a space parts them."""
    if not text or text[0].isspace() or len(tokens) <= segment_start or not text.strip():
        return False
    if spaced and any(ch.isalnum() for ch in text):
        return True
    before = f"{tokens[-1].surface or tokens[-1].word}{tokens[-1].punct}"
    return _spaceless(text[0]) or _spaceless(before[-1])


def _join(tokens: list[Token], text: str, end: float | None, conf: float | None) -> None:
    """Append a word to the token before (see `_continues`): one token, one written chunk."""
    last = tokens[-1]
    surface, punct = split_chunk(f"{last.surface}{last.punct}{text.strip()}")
    confs = [c for c in (last.confidence, conf) if c is not None]
    tokens[-1] = Token(normalize_word(surface), surface, punct, last.start,
                       end if end is not None and last.start is not None else last.end,
                       min(confs) if confs else None, last.speaker,
                       spread=last.spread & Spread.START)


def transcript_from_timed_words(data: dict[str, Any], words: list[Any], path: PathLike) -> Transcript:
    """A word list without segments: OpenAI's API ``verbose_json`` with word timestamps
    ({"text": "Hello, there.", "words": [{"word": "Hello", "start": 0.0, "end": 0.4}...]}) or
    WhisperX's ``word_segments`` alone. The text as written (the API's words have no
    punctuation), each of its words timed by the list where they match; no cues (there are no
    segments to keep)."""
    timed: list[tuple[str, float | None, float | None, float | None]] = []
    for k, word in enumerate(words, 1):
        where = f"word {k}"
        if not isinstance(word, dict) or not isinstance(word.get("word"), str):
            raise FormatError(path, f"{where} is not a word object with a \"word\"")
        start, end = ordered(seconds(word.get("start"), path, where), seconds(word.get("end"), path, where))
        timed.append((word["word"], start, end,
                      probability(word.get("probability", word.get("score")), path, where)))
    text = data.get("text")
    if not isinstance(text, str) or not text.strip():
        text = " ".join(w.strip() for w, *_ in timed)
    tokens: list[Token] = []
    add_words(tokens, text, None, None, path=path)

    def key(s: str) -> str:
        return "".join(ch for ch in s.lower() if ch.isalnum())

    matcher = difflib.SequenceMatcher(None, [key(t.surface or t.word) for t in tokens],
                                      [key(w) for w, *_ in timed], autojunk=False)
    matched = 0
    for tag, i1, i2, j1, _ in matcher.get_opcodes():
        if tag != "equal":
            continue
        for i, (_, start, end, conf) in zip(range(i1, i2), timed[j1:]):
            tokens[i] = replace(tokens[i], start=start, end=end, confidence=conf)
            matched += start is not None
    warnings: tuple[str, ...] = ()
    if matched < len(tokens) and any(s is not None for _, s, _, _ in timed):
        warnings = (f"{len(tokens) - matched} of {len(tokens)} words of the text have no time in "
                    "the word list; their times are guessed from their neighbours' where needed",)
    language = data.get("language")
    return Transcript(tokens, paragraph_starts=gap_paragraph_starts(tokens),
                      metadata=Metadata(source_file=str(path), warnings=warnings,
                                        language=language if isinstance(language, str) else None))
