"""Whisper JSON (openai-whisper, faster-whisper, WhisperX): segments, with word times when present."""

from __future__ import annotations

from typing import Any

from editor.core.document import Metadata, Token, Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import (MAX_JSON_BYTES, PathLike, add_words, decode_utf8,
                                         gap_paragraph_starts, ordered, parse_json, probability,
                                         read_bytes, seconds)


def read_whisper(path: PathLike) -> Transcript:
    data = parse_json(decode_utf8(read_bytes(path, MAX_JSON_BYTES), path), path)
    return transcript_from_whisper(data, path)


def transcript_from_whisper(data: Any, path: PathLike) -> Transcript:
    if not isinstance(data, dict) or not isinstance(data.get("segments"), list):
        raise FormatError(path, "this is not Whisper output: no list of \"segments\"")
    tokens: list[Token] = []
    for n, seg in enumerate(data["segments"], 1):
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
                add_words(tokens, text, start, end, speaker=speaker or _str(word.get("speaker")),
                          confidence=conf, path=path)
        elif isinstance(seg.get("text"), str):
            start, end = ordered(seconds(seg.get("start"), path, where),
                                 seconds(seg.get("end"), path, where))
            add_words(tokens, seg["text"], start, end, speaker=speaker, path=path)
        else:
            raise FormatError(path, f"{where} has neither words nor text")
    language = data.get("language")
    return Transcript(tokens, paragraph_starts=gap_paragraph_starts(tokens),
                      metadata=Metadata(source_file=str(path),
                                        language=language if isinstance(language, str) else None))


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None
