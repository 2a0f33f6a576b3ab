"""What a review costs a person on the dev talks, for each comma style (issue 48): `stet eval
--review-cost` (editor/restore/lab/review_cost.py) over ../shared/data/dev/ted_dev2012_talks.txt.

Run on purpose (not part of the test suite), from the repository root:
    OMP_NUM_THREADS=1 PYTHONPATH=. .venv/bin/python tests/perf/bench_review_cost.py [--talks N] [--styles sure careful]
        [--file FILE] [--apart] [--halves] [--cache FILE] [--json OUT] [--rescorer FILE|none]
        [--threshold P]

For each style: decisions and fixes per 1,000 words after one accept-all at 90 %, the F1s of the
text after the decisions, and against every-pause the decisions saved and the fixes added (the
reference marks the style leaves for the person to type); with
`--apart`, also the decisions when a sentence end and the capital after it are each their own Tab
stop (as before issue 48). The restoration runs on one thread (about 3,300 words/s on one core of
this machine: the 125 dev talks, 281k words, take a few minutes a style). The network's output for
each talk is kept in ``--cache`` (`review_cost.ReplayRestorer`, default
runs/review-cost-joint.npz, git-ignored; tied to the model's weights), so a rerun, or a variant of
the rules after the network, costs the Python pipeline alone (about a minute a style on a shared
core); ``--cache none`` runs the network every time. ``--halves``: the table also has each half of
the talks (even- and odd-numbered, as `editor.restore.lab.splits`), so a rule is not fitted to one.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from editor.core.commas import COMMA_STYLES
from editor.core.threads import configure_threads

DEV = Path("../shared/data/dev/ted_dev2012_talks.txt")


def progress(style: str):
    began = time.perf_counter()

    def on_talk(done: int, total: int) -> None:
        if done % 10 == 0 or done == total:
            print(f"{style}: {done} of {total} talks, {time.perf_counter() - began:.0f} s", file=sys.stderr, flush=True)
    return on_talk


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--file", type=Path, default=DEV)
    ap.add_argument("--talks", type=int, default=None, help="only the first N talks (default: all)")
    ap.add_argument("--styles", nargs="+", default=list(COMMA_STYLES), choices=list(COMMA_STYLES))
    ap.add_argument("--apart", action="store_true",
                    help="also count each sentence end and its capital as two decisions (before issue 48)")
    ap.add_argument("--model", default=None)
    ap.add_argument("--cache", default="runs/review-cost-joint.npz",
                    help="the network's output kept here (none: not kept)")
    ap.add_argument("--halves", action="store_true", help="also the even- and the odd-numbered talks apart, in the table")
    ap.add_argument("--json", type=Path, default=None, help="write the results here too")
    ap.add_argument("--threshold", type=float, default=0.9,
                    help="accept-all's threshold (default 0.9, the window's)")
    ap.add_argument("--rescorer", default=None, metavar="FILE",
                    help="the mark rescorer's weights from this JSON (`python -m editor.restore.lab.rescore_fit`), or none: without one (the default)")
    args = ap.parse_args()
    configure_threads()
    from editor.restore.passes.inference import Restorer
    from editor.restore.lab import review_cost

    restorer = Restorer.load(args.model, "cpu")
    if args.rescorer is not None:
        from editor.restore.lab.rescore import MarkRescorer, attach

        attach(restorer, None if args.rescorer == "none" else
               MarkRescorer.from_config(json.loads(Path(args.rescorer).read_text(encoding="utf-8"))))
    if args.cache != "none":
        restorer = review_cost.ReplayRestorer(restorer, args.cache)
    results = {}
    for style in args.styles:
        began = time.perf_counter()
        res = review_cost.review_cost_file(restorer, args.file, style, limit=args.talks, threshold=args.threshold,
                                           on_talk=progress(style))["review_cost"]
        res["seconds"] = round(time.perf_counter() - began, 1)
        results[style] = res
        print(json.dumps({style: res}), flush=True)
        if isinstance(restorer, review_cost.ReplayRestorer):
            restorer.save()
        if args.halves:
            for half, part in res["halves"].items():
                results[f"{style}, {half}"] = part
    if args.apart:
        for style in args.styles:
            res = review_cost.review_cost_file(restorer, args.file, style, limit=args.talks, apart=True,
                                               on_talk=progress(f"{style}, apart"))["review_cost"]
            results[f"{style}, apart"] = res
            print(json.dumps({f"{style}, apart": res}), flush=True)
    if "every-pause" in results:
        base = results["every-pause"]
        for res in results.values():
            res["decisions_saved_per_1000_words"] = round(base["decisions_per_1000_words"]
                                                          - res["decisions_per_1000_words"], 1)
            res["fixes_added_per_1000_words"] = round(res["fixes_per_1000_words"] - base["fixes_per_1000_words"], 1)
    print()
    print("| style | decisions / 1,000 words | fixes / 1,000 words | sentence end F1 | comma F1 | case F1 | overall F1 |")
    print("|---|---|---|---|---|---|---|")
    for style, res in results.items():
        f = res["final"]
        print(f"| {style} | {res['decisions_per_1000_words']} | {res['fixes_per_1000_words']} | "
              f"{f['sentence_end_f1']:.1f} | {f['comma_f1']:.1f} | {f['case_f1']:.1f} | {f['overall_f1']:.1f} |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
