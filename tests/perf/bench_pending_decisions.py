"""What the pending count in decisions costs (``Transcript.pending_decisions``, the panel's and the
status bar's count): the first count (a pass over every word: on the reading thread for a file
opened in the background), and the upkeep as a pass's results come in, 600 words a slice with the
count asked after each as the panel asks, against ``set_suggestions`` itself; and an undo and redo
of accepting them all, against the same where the count was never asked. A restored talk's shape: a sentence end every 15 words with the capital
after it, a comma every 8.

    PYTHONPATH=. .venv/bin/python tests/perf/bench_pending_decisions.py [--words 100000] [--runs 3]

Asserts nothing: timings vary by machine and load.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--words", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from editor.core import Kind, Suggestion, Transcript

    rng = random.Random(1)
    base = Transcript.from_words(rng.choice(["so", "we", "met", "it", "was", "then", "cold", "and"])
                                 for _ in range(args.words))
    made = []
    for i, token in enumerate(base.tokens):
        if i % 15 == 14:
            made.append(Suggestion(token.id, Kind.PUNCT, ".", {".": 0.8, "": 0.2}))
        elif i % 8 == 3:
            made.append(Suggestion(token.id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}))
        if i % 15 == 0 and i:
            made.append(Suggestion(token.id, Kind.CASE, token.word.capitalize(),
                                   {token.word.capitalize(): 0.7, token.word: 0.3}))
    first, kept, setting, undo, redo, bare_undo, bare_redo = [], [], [], [], [], [], []
    for _ in range(args.runs):
        doc = Transcript(base.tokens, suggestions=made)
        t = time.perf_counter()
        decisions = doc.pending_decisions
        first.append(time.perf_counter() - t)
        doc = Transcript(base.tokens)
        doc.pending_decisions  # noqa: B018  (kept from the start, as in a window)
        slices: dict[int, list[Suggestion]] = {}
        for s in made:
            slices.setdefault(doc.index_of(s.token_id) // 600, []).append(s)
        in_set = in_count = 0.0
        for part in slices.values():
            t0 = time.perf_counter()
            doc.set_suggestions(part, merge_id="pass")
            t1 = time.perf_counter()
            doc.pending_decisions  # noqa: B018
            in_set += t1 - t0
            in_count += time.perf_counter() - t1
        setting.append(in_set)
        kept.append(in_count)
        doc.accept_all(0.0)
        t = time.perf_counter()
        doc.history.undo()
        doc.pending_decisions  # noqa: B018
        undo.append(time.perf_counter() - t)
        t = time.perf_counter()
        doc.history.redo()
        doc.pending_decisions  # noqa: B018
        redo.append(time.perf_counter() - t)
        bare = Transcript(base.tokens, suggestions=made)  # the count never asked: nothing kept
        bare.accept_all(0.0)
        t = time.perf_counter()
        bare.history.undo()
        bare_undo.append(time.perf_counter() - t)
        t = time.perf_counter()
        bare.history.redo()
        bare_redo.append(time.perf_counter() - t)

    def ms(values: list[float]) -> str:
        return f"median {statistics.median(values) * 1000:.0f} ms (best {min(values) * 1000:.0f})"

    print(f"{args.words:,} words, {len(made):,} suggestions, {decisions:,} decisions; {args.runs} runs")
    print(f"first count: {ms(first)}")
    print(f"results in {len(slices)} slices: set_suggestions {ms(setting)}, the count kept {ms(kept)}")
    print(f"undo of accepting all, counted: {ms(undo)}; redo: {ms(redo)}")
    print(f"the same, the count never asked: undo {ms(bare_undo)}; redo {ms(bare_redo)}")


if __name__ == "__main__":
    main()
