"""Proposed paragraph breaks on the dev talks (IWSLT dev 2012, ``../shared/data``), each talk run
together as one raw paragraph (lowercase words, no marks) as a recogniser gives it: how many
breaks are proposed before restoration and after it (restored with the shipped model, or
``--model``), how many at 0.5 or less (there must be none: the text running on is likelier
there), their median confidence, how far apart they lie, and how many lines the view would show
that run on (no break, marked ⋯; ``editor.core.document.paragraphs.kept_lines``). Asserts nothing.

    OMP_NUM_THREADS=1 .venv/bin/python tests/perf/bench_breaks.py [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(Path(__file__).resolve().parents[2].parent / "shared" / "data"),
                        help="the data folder (dev/ted_dev2012_talks.txt in it)")
    parser.add_argument("--model", help="model directory (default: the shipped one)")
    parser.add_argument("--device", default="cpu")
    args = parser.parse_args()

    from editor.core.document.transcript import Kind, Token, Transcript
    from editor.core.document.paragraphs import kept_lines
    from editor.restore import Restorer, make_suggestions
    from editor.restore.lab.data import read_cased_talks

    talks = read_cased_talks(Path(args.data) / "dev" / "ted_dev2012_talks.txt")
    restorer = Restorer.load(args.model, device=args.device)
    raw_breaks = raw_lines = lines_after = words = 0
    confidences: list[float] = []
    gaps: list[int] = []
    restoring = placing = 0.0
    for talk in talks:
        doc = Transcript([Token(w.word) for w in talk])
        words += len(doc)
        doc.suggest_paragraphs(undoable=False)  # as the editor does when it opens one
        raw_breaks += len(doc.pending(kind=Kind.BREAK))
        shown = kept_lines(doc)
        raw_lines += len(shown)
        began = time.perf_counter()
        predictions = restorer.restore(doc.words())
        restoring += time.perf_counter() - began
        doc.set_suggestions(make_suggestions(doc.tokens, predictions, restorer.lexicon,
                                             author_prior=restorer.author_prior))
        began = time.perf_counter()
        doc.suggest_paragraphs()
        placing += time.perf_counter() - began
        proposed = doc.pending(kind=Kind.BREAK)
        confidences += [s.confidence for s in proposed]
        at = sorted(doc.index_of(s.token_id) for s in proposed)
        gaps += [b - a for a, b in zip([0, *at], [*at, len(doc)])]
        lines_after += len(kept_lines(doc, previous=shown))
    print(f"{len(talks)} talks, {words:,} words, each one raw paragraph; model {restorer.name}")
    print(f"before restoration: {raw_breaks:,} breaks proposed, {raw_lines:,} lines that run on")
    low = sum(c <= 0.5 for c in confidences)
    print(f"restored ({restoring:.0f} s): {len(confidences):,} breaks proposed, {low} at 0.5 or less, "
          f"confidence median {statistics.median(confidences):.1%} (lowest {min(confidences):.1%}); "
          f"{lines_after} lines that run on")
    gaps.sort()
    print(f"words between breaks (and the talks' ends): median {statistics.median(gaps):.0f}, "
          f"90th percentile {gaps[len(gaps) * 9 // 10]}, longest {gaps[-1]}, shortest {gaps[0]}; "
          f"placing them took {placing * 1000:.0f} ms in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
