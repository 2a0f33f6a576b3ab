"""Writing a .stet project of N words with a suggestion on most of them, on the main thread: the
writer every path uses (``ProjectWriter``: the JSON a run of 512 words at a time, then the bytes
joined), against the whole document as one tree of dicts handed to ``json.dumps`` (how
``write_stet`` wrote before issue 51). Median and best of ``--runs``, CPU seconds of the process,
and the peak of memory allocated in one write (tracemalloc); then a save after one edit with the
writer kept, as the window's saves are.

    PYTHONPATH=. .venv/bin/python tests/perf/bench_project_write.py [--words 12000] [--runs 7]

Asserts nothing: timings vary by machine and load.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from editor.core.atomic import atomic_write
from editor.core.document.transcript import Kind, Metadata, Suggestion, Token, Transcript
from editor.core.formats.stet import cue_record, suggestion_record, token_record
from editor.core.formats.stet import project_head
from editor.core.project_writer import ProjectWriter
from editor.core.recovery.state import RecoveryState


def document(words: int) -> Transcript:
    rng = random.Random(7)
    vocab = ["so", "we", "met", "okafor", "in", "paris", "and", "then", "it", "rained"]
    tokens = [Token(rng.choice(vocab), start=i * 0.5, end=i * 0.5 + 0.4, confidence=0.9)
              for i in range(words)]
    doc = Transcript(tokens, paragraph_starts=range(0, words, 150), metadata=Metadata(language="en"))
    doc.set_suggestions([Suggestion(doc[i].id, Kind.PUNCT, ",", {",": 0.7, "": 0.3}) for i in range(0, words, 2)]
                        + [Suggestion(doc[i].id, Kind.CASE, doc[i].word.title(),
                                      {doc[i].word.title(): 0.6, doc[i].word: 0.4}) for i in range(1, words, 3)])
    return doc


def as_one_tree(doc: Transcript, path: Path) -> None:
    """The whole project as one tree of dicts, encoded at once (``write_stet`` before issue 51)."""
    head = project_head(doc.metadata, path)
    head["paragraph_starts"] = [doc[i].id for i in doc.paragraph_starts[1:]]
    if doc.metadata.cues:
        head["metadata"]["cues"] = [cue_record(c) for c in doc.metadata.cues]
    head["tokens"] = [token_record(t) for t in doc.tokens]
    head["suggestions"] = [suggestion_record(s) for s in doc.suggestions()]
    atomic_write(path, json.dumps(head, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--words", type=int, default=12_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    doc = document(args.words)
    folder = Path(tempfile.mkdtemp(prefix="stet-bench-"))
    ways = {
        "ProjectWriter (one fresh writer a write, as write_stet now)":
            lambda p: ProjectWriter().write(RecoveryState.capture(doc), p, learn=False),
        "one tree of dicts, json.dumps (write_stet before)": lambda p: as_one_tree(doc, p),
    }
    for name, write in ways.items():
        times = []
        for n in range(args.runs):
            began = time.process_time()
            write(folder / f"p{n}.stet")
            times.append(time.process_time() - began)
        size = (folder / "p0.stet").stat().st_size
        tracemalloc.start()
        write(folder / "peak.stet")
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"{name}: median {statistics.median(times) * 1000:.0f} ms, best {min(times) * 1000:.0f} ms, "
              f"peak {peak / 2**20:.0f} MiB ({args.words:,} words, {size:,} bytes)")
    from editor.core.recovery.state import DocumentTracker

    writer, tracker = ProjectWriter(), DocumentTracker(doc)
    writer.write(tracker.capture(), folder / "saved.stet")
    times = []
    for n in range(args.runs):
        doc.edit_token(n * 7 % len(doc), surface="Edited")
        began = time.process_time()
        writer.write(tracker.capture(), folder / "saved.stet")
        times.append(time.process_time() - began)
    print(f"a save after one edit, the writer kept: median {statistics.median(times) * 1000:.0f} ms, "
          f"best {min(times) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
