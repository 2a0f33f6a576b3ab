"""How long learning from one review takes: the editor's save and the adaptation after it.

Run on purpose (not part of the test suite):
    .venv/bin/python tests/perf/bench_learn.py [--words 10000] [--share 0.2] [--spread] [--threads 2] [--runs 5]
A document of WORDS words (real dev text from ../shared/data/dev when present, repeated as needed,
else synthetic words of the model's vocabulary) whose first SHARE was reviewed (every suggestion
decided; with --spread also one decision every 500 words of the rest, so the reviewed stretch runs
to the end) is saved and learned from as the editor does it: on the UI thread the .stet is written, the forms
written are gathered (for the project's lexicon) and the suggestions copied; on the worker thread
the reviewed stretch and its fingerprint are read from those copies and the adaptation is learned
(editor.restore.learning.learned_store: the model's marginals where the mark bias needs them, the fitted bias,
forms and pair marks) and kept. Prints the median
seconds of each step over the runs (the model is loaded once, before, as the editor has it).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--words", type=int, default=10000)
    p.add_argument("--share", type=float, default=0.2)
    p.add_argument("--spread", action="store_true", help="also a decision every 500 words of the rest")
    p.add_argument("--uncapped", action="store_true",
                   help="fit the mark bias on every reviewed word's marginals (as before BIAS_WORDS)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--runs", type=int, default=5)
    args = p.parse_args()
    os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="bench-learn-")  # never the person's own
    import torch

    torch.set_num_threads(args.threads)
    from editor.core.document.transcript import Transcript
    from editor.core.formats import write_any
    from editor.core.review.repeat_choices import user_forms
    from editor.restore import make_suggestions
    from editor.restore.passes.inference import Restorer
    from editor.restore.learning.learned_store import (learn_review, profile_key, remember_review, review_digest,
                                        reviewed_decisions_in, suggestions_snapshot)

    if args.uncapped:
        import editor.restore.learning.learned_store

        editor.restore.learning.learned_store.BIAS_WORDS = 10**9
    restorer = Restorer.load(device="cpu")
    dev = Path(__file__).resolve().parents[3] / "shared" / "data" / "dev" / "ted_dev2012_talks.txt"
    if dev.is_file():
        text = [w.strip(".,?!:;\"()").lower() for w in dev.read_text(encoding="utf-8").split() if not w.startswith("#")]
        text = [w for w in text if w]
        words = (text * (args.words // len(text) + 1))[: args.words]
    else:
        rng = random.Random(0)
        words = [rng.choice(restorer.vocab.words[2:5000]) for _ in range(args.words)]
    doc = Transcript.from_words(words)
    preds = restorer.restore(words)
    doc.set_suggestions(make_suggestions(doc.tokens, preds, restorer.lexicon))
    cut = int(len(words) * args.share)
    rng = random.Random(1)
    last = -500
    for s in doc.pending():
        i = doc.index_of(s.token_id)
        if i < cut or (args.spread and i - last >= 500):
            (doc.accept if rng.random() < 0.8 else doc.reject)(s.token_id, s.kind)
            last = i if i >= cut else last
    target = Path(tempfile.mkdtemp(prefix="bench-learn-")) / "talk.stet"
    steps: dict[str, list[tuple[float, float]]] = {
        "save: write the .stet (UI thread)": [], "save: forms and copies for the worker (UI thread)": [],
        "learn and keep (worker)": []}
    for _ in range(args.runs):
        t0, c0 = time.perf_counter(), time.process_time()
        write_any(doc, target)
        t1, c1 = time.perf_counter(), time.process_time()
        forms = user_forms(doc)
        tokens, suggestions = doc.tokens, suggestions_snapshot(doc)
        t2, c2 = time.perf_counter(), time.process_time()
        _start, decisions, reviewed = reviewed_decisions_in(tokens, suggestions)
        key = profile_key(doc.metadata.language, ())
        review_digest(decisions, reviewed, forms, key)
        learned = learn_review(restorer, decisions, reviewed)
        remember_review(learned, forms, key, "bench", str(target))
        t3, c3 = time.perf_counter(), time.process_time()
        steps["save: write the .stet (UI thread)"].append((t1 - t0, c1 - c0))
        steps["save: forms and copies for the worker (UI thread)"].append((t2 - t1, c2 - c1))
        steps["learn and keep (worker)"].append((t3 - t2, c3 - c2))
    # on shared cores the wall time includes waiting for them; the CPU time is the work done
    print(f"{len(words):,} words, reviewed stretch {len(decisions):,} words ({sum(reviewed):,} reviewed), "
          f"{args.threads} threads, median of {args.runs}, load {os.getloadavg()[0]:.1f}:")
    for name, times in steps.items():
        print(f"  {name}: {statistics.median(t for t, _c in times):.3f} s wall, "
              f"{statistics.median(c for _t, c in times):.3f} s CPU")


if __name__ == "__main__":
    main()
