"""Whisper JSON (openai-whisper, faster-whisper, WhisperX): segments, with word times when present."""

from __future__ import annotations

from typing import Any

from editor.core.document import Metadata, Token, Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import (MAX_JSON_BYTES, PathLike, add_words, decode_utf8,
                                         gap_paragraph_starts, ordered, parse_json, probability,
                                         read_bytes, seconds)
from editor.core.text import normalize_word, split_chunk


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
    for n, seg in enumerate(data["segments"], 1):
        segment_starts.append(len(tokens))
        where = f"segment {n}"
        if not isinstance(seg, dict):
            raise FormatError(path, f"{where} is not an object")
        speaker = seg.get("speaker") if isinstance(seg.get("speaker"), str) else None
        words = seg.get("words")
        if isinstance(words, list) and words:
            for k, word in enumerate(words, 1):
                text = word.get("word", word.get("text")) if isinstance(word, dict) else None
                if not isinstance(text, str):
                    raise FormatError(path, f"{where}, word {k} has no text")
                start, end = ordered(seconds(word.get("start"), path, f"{where}, word {k}"),
                                     seconds(word.get("end"), path, f"{where}, word {k}"))
                conf = probability(word.get("probability", word.get("score")), path,
                                   f"{where}, word {k}")
                if not own and _continues(tokens, text, segment_starts[-1], spaced):
                    _join(tokens, text, end, conf)
                    continue
                add_words(tokens, text, start, end, speaker=speaker or _str(word.get("speaker")),
                          confidence=conf, path=path)
        elif isinstance(seg.get("text"), str):
            start, end = ordered(seconds(seg.get("start"), path, where),
                                 seconds(seg.get("end"), path, where))
            add_words(tokens, seg["text"], start, end, speaker=speaker, path=path)
        else:
            raise FormatError(path, f"{where} has neither words nor text")
    language = data.get("language")
    # a long pause starts a paragraph only where a segment starts (not mid-sentence)
    segment_set = set(segment_starts)
    starts = sorted(segment_set) if own else [i for i in gap_paragraph_starts(tokens)
                                              if i in segment_set]
    return Transcript(tokens, paragraph_starts=starts,
                      metadata=Metadata(source_file=str(path),
                                        language=language if isinstance(language, str) else None))


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
                       min(confs) if confs else None, last.speaker)
