"""Peak memory and time of reading transcripts, per word and per byte of file, for every reader.

Run on purpose (not part of the test suite):
    .venv/bin/python tests/perf/bench_reader_memory.py [--words 200000] [--shapes txt,vosk_text,...]

Each shape is a synthetic file of N words in the densest form a reader accepts (one-letter words, so
the most words per byte) or a rich one (times, confidences, suggestions). Every file is read by
``read_any`` in a fresh Python process; the figure is that process's peak resident memory (VmHWM)
minus its peak right before reading. This is what sets ``MAX_FILE_BYTES`` and ``MAX_WORDS`` in
editor/core/formats/_common.py: the largest accepted file must stay under 2 GB of RAM.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r"""
import json, sys, time
def hwm():  # this process's peak resident KiB (ru_maxrss would carry the parent's peak over exec)
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
from editor.core.formats import read_any
import editor.core.formats.vosk, editor.core.formats.whisper, editor.core.formats.stet
import editor.core.formats.txt, editor.core.formats.subtitles.srt, editor.core.formats.subtitles.vtt
base = hwm()
t = time.perf_counter()
try:
    doc = read_any(sys.argv[1])
    words, error = len(doc), None
except Exception as err:
    words, error = 0, f"{type(err).__name__}: {err}"
seconds = time.perf_counter() - t
peak = hwm()
print(json.dumps({"words": words, "seconds": seconds, "kib": peak - base, "error": error}))
"""


def _stet(n: int) -> dict:
    tokens = [{"id": i, "word": "a", "start": i * 0.3, "end": i * 0.3 + 0.2, "conf": 0.9}
              for i in range(n)]
    suggestions = [{"token": i, "kind": "punct", "value": ",", "probs": {"": 0.3, ",": 0.6, ".": 0.1},
                    "state": "pending"} for i in range(0, n, 5)]
    return {"format_version": 1, "metadata": {}, "paragraph_starts": [], "tokens": tokens,
            "suggestions": suggestions}


def _prose(n: int) -> str:
    """Realistic words: distinct strings, capitals, punctuation, paragraphs."""
    words = [f"{'Wort' if i % 7 == 0 else 'word'}{i % 5000}{',' if i % 9 == 0 else ''}"
             f"{'.' if i % 17 == 0 else ''}" for i in range(n)]
    return "\n\n".join(" ".join(words[i:i + 200]) for i in range(0, n, 200))


def _stet_rich(n: int) -> dict:
    """Every word with a punctuation and a case suggestion, each with its distribution."""
    tokens = [{"id": i, "word": f"word{i % 5000}", "start": i * 0.3, "end": i * 0.3 + 0.2,
               "conf": 0.9} for i in range(n)]
    suggestions = []
    for i in range(n):
        suggestions.append({"token": i, "kind": "punct", "value": ",",
                            "probs": {"": 0.3, ",": 0.5, ".": 0.1, "?": 0.1}, "state": "pending"})
        suggestions.append({"token": i, "kind": "case", "value": f"Word{i % 5000}",
                            "probs": {f"word{i % 5000}": 0.4, f"Word{i % 5000}": 0.6},
                            "state": "pending"})
    return {"format_version": 1, "metadata": {}, "paragraph_starts": [], "tokens": tokens,
            "suggestions": suggestions}


SHAPES = {
    # the densest forms: one-letter words, two bytes each
    "txt": (".txt", lambda n: ("a " * n).encode()),
    "vosk_text": (".json", lambda n: json.dumps({"text": "a " * n}).encode()),
    "whisper_text": (".json", lambda n: json.dumps({"segments": [{"text": "a " * n}]}).encode()),
    # word objects: the heaviest JSON to parse per byte
    "vosk_words_min": (".json", lambda n: json.dumps({"result": [{"word": "a"}] * n},
                                                     separators=(",", ":")).encode()),
    "vosk_words": (".json", lambda n: json.dumps({"result": [
        {"word": "a", "start": i * 0.3, "end": i * 0.3 + 0.2, "conf": 0.93} for i in range(n)]},
        separators=(",", ":")).encode()),
    "whisper_words": (".json", lambda n: json.dumps({"segments": [{"words": [
        {"word": " a", "start": i * 0.3, "end": i * 0.3 + 0.2, "probability": 0.93}
        for i in range(n)]}]}, separators=(",", ":")).encode()),
    "stet": (".stet", lambda n: json.dumps(_stet(n), separators=(",", ":")).encode()),
    # the most tokens per byte a project can hold: an id and a one-letter word
    "stet_min": (".stet", lambda n: json.dumps({"format_version": 1, "tokens": [
        {"id": i, "word": "a"} for i in range(n)]}, separators=(",", ":")).encode()),
    "stet_rich": (".stet", lambda n: json.dumps(_stet_rich(n), separators=(",", ":")).encode()),
    "txt_prose": (".txt", lambda n: _prose(n).encode()),
    "vosk_prose": (".json", lambda n: json.dumps({"text": _prose(n)}).encode()),
    # what JSON costs to parse at worst per byte, whatever the reader then says
    "json_empty_objects": (".json", lambda n: ("[" + ",".join(["{}"] * n) + "]").encode()),
    "json_empty_lists": (".json", lambda n: ("[" + ",".join(["[]"] * n) + "]").encode()),
    "srt": (".srt", lambda n: "".join(
        f"{i + 1}\n00:00:{i % 60:02d},000 --> 00:00:{i % 60:02d},500\na\n\n"
        for i in range(n)).encode()),
}


def measure(path: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    out = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True,
                         env=env, check=True)
    return json.loads(out.stdout)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--words", type=int, default=200_000)
    p.add_argument("--shapes", default=",".join(SHAPES))
    args = p.parse_args()
    print(f"{'shape':<16}{'file MB':>9}{'words':>10}{'peak MB':>9}{'B/word':>8}{'RAM/byte':>9}"
          f"{'s':>7}  error")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.shapes.split(","):
            ext, make = SHAPES[name]
            path = Path(tmp) / f"{name}{ext}"
            data = make(args.words)
            path.write_bytes(data)
            del data
            r = measure(path)
            size = path.stat().st_size
            per_word = r["kib"] * 1024 / max(r["words"], 1)
            print(f"{name:<16}{size / 2**20:>9.1f}{r['words']:>10}{r['kib'] / 1024:>9.0f}"
                  f"{per_word:>8.0f}{r['kib'] * 1024 / size:>9.1f}{r['seconds']:>7.1f}  "
                  f"{r['error'] or ''}")
            path.unlink()


if __name__ == "__main__":
    main()
