"""Vosk recogniser output: result objects with word lists, as one object, a list or JSON lines,
and the JSON that ``vosk-transcriber`` writes."""

from __future__ import annotations

import io
import itertools
import json
from typing import Any

from editor.core.document.transcript import Metadata, Token, Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import (MAX_JSON_BYTES, PathLike, add_words, atomic_write,
                                         decode_utf8, gap_paragraph_starts, ordered, parse_json,
                                         probability, read_bytes, seconds)
from editor.core.render import NONE, RenderPolicy, join_rendered, render_paragraphs


def read_vosk(path: PathLike) -> Transcript:
    return transcript_from_vosk(load_json_documents(path), path)


def load_json_documents(path: PathLike) -> Any:
    """One JSON document, or JSON lines (one object per line) as a list."""
    text = decode_utf8(read_bytes(path, MAX_JSON_BYTES), path)
    if not text.strip():
        raise FormatError(path, "the file is empty")
    try:
        return parse_json(text, path)
    except FormatError as whole_error:
        # JSON lines, read one at a time (a list of every line would cost more than the file)
        lines = ((n, line) for n, line in enumerate(io.StringIO(text), 1) if line.strip())
        first, second = next(lines, None), next(lines, None)
        if first is None or second is None or not _is_json(first[1]):
            # results printed one after another, each over several lines (Vosk's examples)
            return _concatenated(text) or _raise(whole_error)
        items = []
        for n, line in itertools.chain([first, second], lines):
            try:
                items.append(parse_json(line, path))
            except FormatError as err:
                raise FormatError(path, err.message, line=n) from None
        return items


def _concatenated(text: str) -> list[Any] | None:
    """JSON objects written one after another ("{...}\n{...}"), or None if the text is not that."""
    decoder = json.JSONDecoder()
    items, at = [], 0
    try:
        while True:
            while at < len(text) and text[at].isspace():
                at += 1
            if at == len(text):
                break
            if text[at] != "{":
                return None
            item, at = decoder.raw_decode(text, at)
            items.append(item)
    except (ValueError, RecursionError):
        return None
    return items if len(items) > 1 else None


def _raise(error: Exception) -> Any:
    raise error from None


def _is_json(line: str) -> bool:
    try:
        json.loads(line)
    except (ValueError, RecursionError):
        return False
    return True


def transcript_from_vosk(data: Any, path: PathLike) -> Transcript:
    if isinstance(data, dict) and "monologues" in data:
        return _from_transcriber(data, path)
    results = data if isinstance(data, list) else [data]
    tokens: list[Token] = []
    for n, result in enumerate(results, 1):
        where = f"result {n}"
        if not isinstance(result, dict):
            raise FormatError(path, f"{where} is not a Vosk result object")
        alternatives = result.get("alternatives")
        if isinstance(alternatives, list) and alternatives and isinstance(alternatives[0], dict):
            result = alternatives[0]
        words = result.get("result")
        if isinstance(words, list):
            for k, word in enumerate(words, 1):
                _add_word(tokens, word, path, f"{where}, word {k}")
        elif isinstance(result.get("text"), str):
            add_words(tokens, result["text"], None, None, path=path)
        elif "partial" not in result:
            raise FormatError(path, f"{where} has neither a \"result\" word list nor a \"text\"; "
                              "this is not Vosk output")
    return Transcript(tokens, paragraph_starts=gap_paragraph_starts(tokens),
                      metadata=Metadata(source_file=str(path)))


def _add_word(tokens: list[Token], word: Any, path: PathLike, where: str,
              speaker: str | None = None, text_key: str = "word", conf_key: str = "conf") -> None:
    if not isinstance(word, dict) or not isinstance(word.get(text_key), str):
        raise FormatError(path, f"{where} is not a word object with a \"{text_key}\"")
    start, end = ordered(seconds(word.get("start"), path, where),
                         seconds(word.get("end"), path, where))
    add_words(tokens, word[text_key], start, end, speaker=speaker,
              confidence=probability(word.get(conf_key), path, where), path=path)


def _from_transcriber(data: dict[str, Any], path: PathLike) -> Transcript:
    monologues = data["monologues"]
    if not isinstance(monologues, list):
        raise FormatError(path, "\"monologues\" is not a list")
    tokens: list[Token] = []
    starts = []
    for n, monologue in enumerate(monologues, 1):
        if not isinstance(monologue, dict) or not isinstance(monologue.get("terms"), list):
            raise FormatError(path, f"monologue {n} has no list of terms")
        speaker_info = monologue.get("speaker")
        name = speaker_info.get("name") if isinstance(speaker_info, dict) else None
        starts.append(len(tokens))
        for k, term in enumerate(monologue["terms"], 1):
            _add_word(tokens, term, path, f"monologue {n}, term {k}",
                      speaker=name if isinstance(name, str) else None,
                      text_key="text", conf_key="confidence")
    return Transcript(tokens, paragraph_starts=starts, metadata=Metadata(source_file=str(path)))


def write_vosk(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE) -> None:
    """Vosk-style results, one per paragraph: raw words with times, and the rendered text."""
    results = []
    for _speaker, words in render_paragraphs(transcript, policy):
        items = []
        for w in words:
            token = transcript[w.index]
            item: dict[str, Any] = {"word": token.word}
            if token.start is not None:
                item.update(start=round(token.start, 3), end=round(token.end or token.start, 3))
            if token.confidence is not None:
                item["conf"] = token.confidence
            items.append(item)
        results.append({"result": items, "text": join_rendered(words)})
    atomic_write(path, (json.dumps(results, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))
