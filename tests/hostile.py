"""A generator of hostile inputs for every format Stet reads: the test suite's own version of the
held-out set the project is judged on (tests/core/formats/test_hostile_inputs.py, tests/test_hostile_cli.py
and tests/restore/test_hostile_restore.py run it).

``cases()`` yields ``Case``s: bytes to write under a name, or a special file (FIFO, a link to
/dev/zero, a symlink loop, a folder, an unreadable file, a dangling link, a socket). ``words`` is
what an import that succeeds must give exactly (None when the file says nothing certain), so "exit
0 but words lost or changed" is caught, not only tracebacks and hangs.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import signal
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# A sentence per script, with the words every reader must give back (raw words: lower case, no
# punctuation after them).
TEXTS = {
    "latin": ("Café naïve résumé, the Zürich talk. Was it über-good?",
              ["café", "naïve", "résumé", "the", "zürich", "talk", "was", "it", "über-good"]),
    "english": ("Hello there, how are you today? I am fine.",
                ["hello", "there", "how", "are", "you", "today", "i", "am", "fine"]),
    "cyrillic": ("Привет, как дела? Всё хорошо.", ["привет", "как", "дела", "всё", "хорошо"]),
    "japanese": ("今日は 良い 天気 です", ["今日は", "良い", "天気", "です"]),
    "greek": ("Καλημέρα σας, φίλοι.", ["καλημέρα", "σας", "φίλοι"]),
    # scripts without spaces between words (as a recogniser or tokenizer parts them), right to
    # left, with a joiner inside a word, with combining marks, and emoji between words
    "chinese": ("我们 今天 去 北京。", ["我们", "今天", "去", "北京"]),
    "thai": ("สวัสดี ครับ วันนี้ อากาศ ดี", ["สวัสดี", "ครับ", "วันนี้", "อากาศ", "ดี"]),
    "arabic": ("مرحبا بكم، كيف حالكم؟ أنا بخير.", ["مرحبا", "بكم", "كيف", "حالكم", "أنا", "بخير"]),
    "persian": ("من می\u200cخواهم بروم.", ["من", "می\u200cخواهم", "بروم"]),
    "combining": ("Cafe\u0301 nai\u0308ve, नमस्ते दुनिया!",
                  ["cafe\u0301", "nai\u0308ve", "नमस्ते", "दुनिया"]),
    "emoji": ("I love it 👍 so much, the family 👨\u200d👩\u200d👧 came 🏳\ufe0f\u200d🌈 home - yes & no.",
              ["i", "love", "it", "so", "much", "the", "family", "came", "home", "yes", "no"]),
}
# Encodings that can hold each text (a file cannot be in an encoding its letters do not exist in).
ENCODINGS = {
    "latin": ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "cp1252",
              "latin-1"],
    "english": ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-32", "ascii", "cp1252"],
    "cyrillic": ["utf-8", "utf-8-sig", "utf-16", "utf-16-be", "cp1251", "koi8-r"],
    "japanese": ["utf-8", "utf-8-sig", "utf-16", "shift_jis", "euc-jp"],
    "greek": ["utf-8", "utf-16", "iso-8859-7", "cp1253"],
    "chinese": ["utf-8", "utf-16-le", "gb18030"],
    "thai": ["utf-8", "utf-16", "cp874"],
    "arabic": ["utf-8", "utf-16-be", "cp1256"],
    "persian": ["utf-8", "utf-16"],
    "combining": ["utf-8", "utf-16"],
    "emoji": ["utf-8", "utf-16", "utf-32"],
}
# Encodings a reader either reads right or refuses; the others (legacy 8-bit and multibyte code
# pages that no byte pattern identifies) may come back with a warning and different letters.
CERTAIN = {"utf-8", "utf-8-sig", "utf-16", "utf-32", "ascii"}

HUGE = 10 ** 400
NUMBER_ATTACKS: list[tuple[str, Any]] = [
    ("huge_int", HUGE), ("huge_negative", -HUGE), ("int_1e20", 10 ** 20), ("negative", -1),
    ("text", "1.5"), ("object", {"value": {"deeper": 1}}), ("list", [0.5, 1]), ("bool", True),
    ("float_max", 1.7976931348623157e308),
]
TYPE_ATTACKS: list[tuple[str, Any]] = [
    ("null", None), ("int", 7), ("text", "x"), ("list", [[]]), ("object", {"x": {}}),
    ("bool", False),
]


@dataclass(frozen=True)
class Case:
    name: str
    filename: str
    data: bytes | None = None
    special: str | None = None
    words: tuple[str, ...] | None = None

    def build(self, folder: Path) -> Path:
        """Write the case under ``folder`` and return its path (for a socket, keep it bound:
        the caller closes ``self.opened`` sockets; see ``build_all``)."""
        path = folder / self.filename
        if self.special is None:
            path.write_bytes(self.data or b"")
        elif self.special == "fifo":
            os.mkfifo(path)
        elif self.special == "dev_zero":
            path.symlink_to("/dev/zero")
        elif self.special == "dev_urandom":
            path.symlink_to("/dev/urandom")
        elif self.special == "loop":
            path.symlink_to(path)
        elif self.special == "loop2":
            other = folder / f"other-{self.filename}"
            path.symlink_to(other)
            other.symlink_to(path)
        elif self.special == "folder":
            path.mkdir()
            (path / "inside.txt").write_text("hello")
        elif self.special == "unreadable":
            path.write_text("secret words")
            path.chmod(0)
        elif self.special == "dangling":
            path.symlink_to(folder / "nowhere" / self.filename)
        elif self.special == "sparse_huge":
            with open(path, "wb") as f:
                f.truncate(300 * 2**20)
        elif self.special == "socket":
            sock = socket.socket(socket.AF_UNIX)
            sock.bind(str(path))
            _SOCKETS.append(sock)
        else:
            raise ValueError(self.special)
        return path


_SOCKETS: list[socket.socket] = []


def close_sockets() -> None:
    while _SOCKETS:
        _SOCKETS.pop().close()


# -- valid documents of each format, from a text ------------------------------------------------
def _timed(words: list[str]) -> list[tuple[str, float, float]]:
    return [(w, round(0.5 * i, 3), round(0.5 * i + 0.4, 3)) for i, w in enumerate(words)]


def _surfaces(text: str) -> list[str]:
    return text.split()


def vosk_doc(text: str) -> dict:
    return {"result": [{"word": w, "start": s, "end": e, "conf": 0.9}
                       for w, s, e in _timed(_surfaces(text))], "text": text}


def whisper_doc(text: str) -> dict:
    timed = _timed(_surfaces(text))
    return {"language": "xx", "segments": [{"start": 0.0, "end": timed[-1][2], "text": text,
                                            "words": [{"word": " " + w, "start": s, "end": e,
                                                       "probability": 0.8} for w, s, e in timed]}]}


def transcriber_doc(text: str) -> dict:
    return {"monologues": [{"speaker": {"name": "A"}, "terms": [
        {"text": w, "start": s, "end": e, "confidence": 0.7} for w, s, e in _timed(_surfaces(text))]}]}


def stet_doc(words: list[str]) -> dict:
    return {"format_version": 1, "generator": "stet test", "metadata": {
        "source_file": "x.txt", "audio_file": None, "language": "en", "model": None,
        "restore_model": None, "duration": 10.0, "warnings": [], "extra": {}},
        "paragraph_starts": [2] if len(words) > 2 else [],
        "tokens": [{"id": i, "word": w, "start": s, "end": e, "conf": 0.5}
                   for i, (w, s, e) in enumerate(_timed(words))],
        "suggestions": [{"token": 0, "kind": "punct", "value": ",", "probs": {"": 0.4, ",": 0.6},
                         "state": "pending"},
                        {"token": 1, "kind": "case", "value": words[1].title(),
                         "probs": {words[1]: 0.3, words[1].title(): 0.7}, "state": "accepted",
                         "original": words[1]}]}


def srt_text(text: str) -> str:
    words = _surfaces(text)
    half = len(words) // 2
    return (f"1\n00:00:00,000 --> 00:00:02,000\n{' '.join(words[:half])}\n\n"
            f"2\n00:00:02,500 --> 00:00:05,000\n{' '.join(words[half:])}\n")


def vtt_text(text: str) -> str:
    words = _surfaces(text)
    half = len(words) // 2
    return (f"WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n{' '.join(words[:half])}\n\n"
            f"00:00:02.500 --> 00:00:05.000\n{' '.join(words[half:])}\n")


# -- mutations of JSON documents ----------------------------------------------------------------
def _paths(value: Any, prefix: tuple = ()) -> Iterator[tuple]:
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value[:2]):  # the first two items stand for the rest
            yield from _paths(v, prefix + (i,))


def _replace(doc: Any, path: tuple, new: Any) -> Any:
    doc = copy.deepcopy(doc)
    if not path:
        return new
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = new
    return doc


NUMERIC_KEYS = {"start", "end", "conf", "confidence", "probability", "score", "duration"}


def _is_number_field(path: tuple) -> bool:
    return bool(path) and (path[-1] in NUMERIC_KEYS or (len(path) > 1 and path[-2] == "probs"))


def _dump(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8")


def cases() -> Iterator[Case]:
    """Every hostile case, named uniquely (a few hundred; the costly ones are few)."""
    # 1. every format in every encoding its text fits
    for script, (text, words) in TEXTS.items():
        docs = {"txt": text + "\n", "srt": srt_text(text), "vtt": vtt_text(text),
                "vosk.json": json.dumps(vosk_doc(text), ensure_ascii=False),
                "whisper.json": json.dumps(whisper_doc(text), ensure_ascii=False),
                "monologues.json": json.dumps(transcriber_doc(text), ensure_ascii=False),
                "jsonl": "\n".join(json.dumps({"result": [w]}, ensure_ascii=False)
                                   for w in vosk_doc(text)["result"]) + "\n",
                "stet": json.dumps(stet_doc(words), ensure_ascii=False)}
        for encoding in ENCODINGS[script]:
            for kind, content in docs.items():
                data = content.encode(encoding)
                certain = encoding in CERTAIN or kind.endswith(("json", "jsonl", "stet"))
                yield Case(f"enc-{script}-{encoding}-{kind}", f"{script}-{encoding}.{kind}", data,
                           words=tuple(words) if certain else None)
        # with Windows line ends, and with a BOM inside JSON
        yield Case(f"crlf-{script}-srt", f"crlf-{script}.srt",
                   srt_text(text).replace("\n", "\r\n").encode(), words=tuple(words))
        yield Case(f"bom-{script}-json", f"bom-{script}.json",
                   b"\xef\xbb\xbf" + json.dumps(vosk_doc(text)).encode(), words=tuple(words))

    # 2. special files, under every extension
    for special in ("fifo", "dev_zero", "dev_urandom", "loop", "loop2", "folder", "unreadable",
                    "dangling", "sparse_huge", "socket"):
        for ext in ("txt", "srt", "vtt", "json", "jsonl", "stet"):
            yield Case(f"special-{special}-{ext}", f"{special}.{ext}", special=special)

    # 3. every number field of every JSON format under every number attack, and every node
    # replaced by a wrong type (a tampered project, a broken export)
    text, words = TEXTS["english"]
    docs = {"vosk.json": vosk_doc(text), "whisper.json": whisper_doc(text),
            "monologues.json": transcriber_doc(text), "stet": stet_doc(words)}
    for kind, doc in docs.items():
        for path in _paths(doc):
            where = "-".join(map(str, path)) or "root"
            if _is_number_field(path):
                for attack, value in NUMBER_ATTACKS:
                    yield Case(f"num-{kind}-{where}-{attack}", f"n.{kind}", _dump(
                        _replace(doc, path, value)), words=tuple(words))
                yield Case(f"num-{kind}-{where}-1e400", f"n.{kind}", _dump(
                    _replace(doc, path, 1.5)).replace(b"1.5", b"1e400"), words=tuple(words))
            for attack, value in TYPE_ATTACKS:
                yield Case(f"type-{kind}-{where}-{attack}", f"t.{kind}",
                           _dump(_replace(doc, path, value)))

    # 4. tampered projects beyond types
    base = stet_doc(words)
    tampered = {
        "dup_ids": lambda d: d["tokens"][1].update(id=0),
        "para_unknown": lambda d: d.update(paragraph_starts=[99]),
        "para_huge": lambda d: d.update(paragraph_starts=[HUGE]),
        "id_huge": lambda d: d["tokens"][0].update(id=HUGE),
        "version_huge": lambda d: d.update(format_version=HUGE),
        "version_next": lambda d: d.update(format_version=2),
        "sugg_kind": lambda d: d["suggestions"][0].update(kind="colour"),
        "sugg_state": lambda d: d["suggestions"][0].update(state="maybe"),
        "sugg_token": lambda d: d["suggestions"][0].update(token=99),
        "sugg_probs_key": lambda d: d["suggestions"][0]["probs"].update({"x" * 10000: 0.5}),
        "sugg_case_empty": lambda d: d["suggestions"][1].update(value=""),
        "reversed_times": lambda d: d["tokens"][0].update(start=5.0, end=1.0),
        "half_times": lambda d: d["tokens"][0].pop("end"),
        "empty_word": lambda d: d["tokens"][0].update(word=""),
        "audio_escape": lambda d: d["metadata"].update(audio_file="../../../../etc/passwd"),
        "audio_nul": lambda d: d["metadata"].update(audio_file="a\u0000b.wav"),
        "lone_surrogate": lambda d: d["tokens"][0].update(word="\ud800"),
        "warnings_objects": lambda d: d["metadata"].update(warnings=[{"a": 1}]),
        "extra_huge": lambda d: d["metadata"].update(extra={"n": HUGE}),
        "many_suggestions": lambda d: d.update(suggestions=d["suggestions"] * 500),
    }
    for name, change in tampered.items():
        doc = copy.deepcopy(base)
        change(doc)
        yield Case(f"stet-{name}", f"{name}.stet", json.dumps(doc).encode())

    # 5. structure: truncation, nesting, bytes that are not text, sizes at the limits
    raw = {
        "empty": b"", "spaces": b"   \n\t\n", "nul": b"\0" * 4096, "random": os.urandom(4096),
        "truncated": _dump(vosk_doc(text))[:57], "deep_list": b"[" * 200_000 + b"]" * 200_000,
        "deep_object": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
        "nan": b'{"result": [{"word": "x", "start": NaN, "end": 1}]}',
        "infinity": b'{"result": [{"word": "x", "start": 0, "end": Infinity}]}',
        "digits": b'{"result": [{"word": "x", "start": ' + b"9" * 5000 + b"}]}",
        "dup_keys": b'{"result": [{"word": "x", "word": 5, "start": 0, "end": 1}]}',
        "lone_surrogate_json": b'{"result": [{"word": "\\ud800x", "start": 0, "end": 1}]}',
        "controls": "hello\u202e\u200b world\x07 bell\x1b[31m red".encode(),
        "long_word": b"a" * 2_000_000,
        "many_lines": b"\n" * 1_000_000 + b"word\n",
        "bidi": "\u05e9\u05dc\u05d5\u05dd world \u0627\u0644\u0633\u0644\u0627\u0645".encode(),
        "srt_overflow": b"1\n99999999999999999999:00:00,000 --> 1:00:00,000\nx\n",
        "srt_negative": b"1\n-00:00:01,000 --> 00:00:02,000\nx\n",
        "srt_no_text": b"1\n00:00:01,000 --> 00:00:02,000\n\n2\n00:00:03,000 --> 00:00:04,000\n",
        "vtt_bad_header": b"WEBVTTX\n\n00:01.000 --> 00:02.000\nx\n",
        "vtt_huge_hours": b"WEBVTT\n\n" + b"9" * 400 + b":00:01.000 --> 00:00:02.000\nx\n",
        "jsonl_mixed": b'{"result": [{"word": "a"}]}\n[1, 2]\n"x"\n',
    }
    for name, data in raw.items():
        for ext in ("txt", "srt", "vtt", "json", "jsonl", "stet"):
            yield Case(f"raw-{name}-{ext}", f"{name}.{ext}", data)


def sample(all_cases: list[Case], every: int) -> list[Case]:
    """One case in ``every`` (deterministic), plus every special file and every certain-words
    case of a different kind, so a small sample still touches each category."""
    chosen, kinds = [], set()
    for i, case in enumerate(all_cases):
        kind = case.name.split("-")[0] + (case.special or "")
        if i % every == 0 or kind not in kinds:
            chosen.append(case)
            kinds.add(kind)
    return chosen


class Hang(Exception):
    """A read that gave no answer within its ``deadline``."""


@contextlib.contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """A hang turned into a failure (``Hang`` after ``seconds``; SIGALRM, the main thread only):
    not a timing assert, the work takes milliseconds."""
    def fire(*_args: object) -> None:
        raise Hang(f"no answer in {seconds} s")
    old = signal.signal(signal.SIGALRM, fire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
