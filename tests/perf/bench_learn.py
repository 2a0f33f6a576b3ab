"""How long learning from one review takes: the editor's adaptation after a save.

Run on purpose (not part of the test suite):
    .venv/bin/python tests/perf/bench_learn.py [--words 10000] [--share 0.2] [--threads 2] [--runs 5]
A document of WORDS words (real dev text from ../shared/data/dev when present, else synthetic
words of the model's vocabulary) whose first SHARE was reviewed (every suggestion decided) is
learned from as the editor does it on its worker thread (editor.restore.learned: the reviewed
stretch, the model's marginals there, the fitted bias, forms and pair marks). Prints the median
seconds of each step over the runs (the model is loaded once, before, as the editor has it).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--words", type=int, default=10000)
    p.add_argument("--share", type=float, default=0.2)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--runs", type=int, default=5)
    args = p.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    from editor.core.document import Transcript
    from editor.restore import make_suggestions
    from editor.restore.inference import Restorer
    from editor.restore.learned import learn_review, reviewed_decisions

    restorer = Restorer.load(device="cpu")
    dev = Path(__file__).resolve().parents[3] / "shared" / "data" / "dev" / "ted_dev2012_talks.txt"
    if dev.is_file():
        words = [w.strip(".,?!:;\"()").lower() for w in dev.read_text(encoding="utf-8").split() if not w.startswith("#")]
        words = [w for w in words if w][: args.words]
    else:
        rng = random.Random(0)
        words = [rng.choice(restorer.vocab.words[2:5000]) for _ in range(args.words)]
    doc = Transcript.from_words(words)
    preds = restorer.restore(words)
    doc.set_suggestions(make_suggestions(doc.tokens, preds, restorer.lexicon))
    cut = int(len(words) * args.share)
    rng = random.Random(1)
    for s in doc.pending():
        if doc.index_of(s.token_id) < cut:
            (doc.accept if rng.random() < 0.8 else doc.reject)(s.token_id, s.kind)
    steps: dict[str, list[tuple[float, float]]] = {"reviewed stretch (UI thread)": [], "learn (worker)": []}
    for _ in range(args.runs):
        t0, c0 = time.perf_counter(), time.process_time()
        _start, decisions, reviewed = reviewed_decisions(doc)
        t1, c1 = time.perf_counter(), time.process_time()
        learn_review(restorer, decisions, reviewed)
        t2, c2 = time.perf_counter(), time.process_time()
        steps["reviewed stretch (UI thread)"].append((t1 - t0, c1 - c0))
        steps["learn (worker)"].append((t2 - t1, c2 - c1))
    # on shared cores the wall time includes waiting for them; the CPU time is the work done
    print(f"{len(words):,} words, {len(decisions):,} reviewed, {args.threads} threads, median of {args.runs}:")
    for name, times in steps.items():
        print(f"  {name}: {statistics.median(t for t, _c in times):.3f} s wall, "
              f"{statistics.median(c for _t, c in times):.3f} s CPU")


if __name__ == "__main__":
    main()
