"""Autosave at ~100,000 words: how long the UI thread is held (capture), how long the write takes
on its thread, how many bytes it wrote (the first autosave writes the whole recovery file, later
ones append what the edit changed), and the longest the UI thread waits for the interpreter while
the write runs.

    PYTHONPATH=. python tests/perf/bench_autosave.py [WORDS] [--ahead]

``--ahead`` first writes the runs ahead, as the window does when a long transcript opens.
"""

from __future__ import annotations

import random
import sys
import tempfile
import threading
import time
from pathlib import Path

from editor.core.document.transcript import Kind, Suggestion, Transcript
from editor.core.recovery.slots import DocumentTracker, RecoverySlot


def document(n: int) -> Transcript:
    rng = random.Random(0)
    vocab = ["the", "a", "station", "library", "okay", "we", "table", "seed", "garden", "said"]
    doc = Transcript.from_words(rng.choice(vocab) for _ in range(n))
    suggestions = []
    for t in doc.tokens:  # a restored transcript: a punctuation suggestion everywhere, some case
        suggestions.append(Suggestion(t.id, Kind.PUNCT, ",", {",": 0.6, "": 0.3, ".": 0.1}))
        if rng.random() < 0.2:
            suggestions.append(Suggestion(t.id, Kind.CASE, t.word.title(),
                                          {t.word.title(): 0.7, t.word: 0.3}))
    doc.set_suggestions(suggestions)
    return doc


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 100_000
    doc = document(n)
    with tempfile.TemporaryDirectory() as folder:
        slot = RecoverySlot.claim(Path(folder))
        tracker = DocumentTracker(doc)  # as the window's Autosaver captures
        size = 0
        if "--ahead" in sys.argv:  # as the window does when a long transcript opens
            began = time.perf_counter()
            state = tracker.capture(source="/talks/talk.txt")
            capture = time.perf_counter() - began
            slot.prime(state)
            size = slot.clean_path.stat().st_size
            print(f"written ahead when opened: capture {capture * 1000:.0f} ms, write "
                  f"{time.perf_counter() - began - capture:.2f} s ({size / 1e6:.1f} MB)")
        for run in range(4):
            doc.replace_span(5 + 7919 * run, 6 + 7919 * run, f"edit{run}")  # a word typed
            doc.accept(*doc.pending()[1000 * run].key)  # and a suggestion accepted
            began = time.perf_counter()
            state = tracker.capture(source="/talks/talk.txt")
            capture = time.perf_counter() - began
            done = threading.Event()
            took = []

            def write(state=state, took=took, done=done) -> None:
                t = time.perf_counter()
                slot.write(state)
                took.append(time.perf_counter() - t)
                done.set()

            threading.Thread(target=write).start()
            worst = 0.0
            while not done.is_set():  # the UI thread's view: how late does a 1 ms tick come?
                t = time.perf_counter()
                time.sleep(0.001)
                worst = max(worst, time.perf_counter() - t)
            grown, size = slot.data.stat().st_size - size, slot.data.stat().st_size
            print(f"{n:,} words, {sum(1 for _ in doc.iter_suggestions()):,} suggestions: capture on the UI "
                  f"thread {capture * 1000:.0f} ms; write {took[0]:.2f} s ({grown / 1e6:.2f} MB "
                  f"written, file {size / 1e6:.1f} MB); longest UI wait meanwhile {worst * 1000:.0f} ms")
        slot.discard()
        slot.close()


if __name__ == "__main__":
    main()
