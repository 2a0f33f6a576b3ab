"""How often a proposal from the person's choice is right on the dev talks (issue 48): the rate
behind `editor.core.review.repeat_choices.UNPROPOSED_PRIOR` and `common_word`.

Run on purpose (not part of the test suite), from the repository root, after
tests/perf/bench_review_cost.py has kept the network's output in runs/review-cost-joint.npz:
    OMP_NUM_THREADS=1 PYTHONPATH=. .venv/bin/python tests/perf/bench_choice_rate.py [--agree N] [--talks N]

It replays the `every-pause` review of `editor.restore.lab.review_cost` (the simulated reviewer
decides every decision point as the reference says) and records, for each proposal from a choice
that the reviewer reached, what the person's record was when it was made (agree, disagree:
`choice_evidence`), whether the model had proposed something there, the word, whether the word
before it was the same as before the decision it repeats, and whether the reference took it
(accepted as proposed). It prints the rate per band, on all the talks and on the even- and the
odd-numbered ones apart, and the smallest prior of places against (``a / (a + d + b)``) that
shows no band of 10 or more proposals above its rate. ``--agree``: `UNPROPOSED_AGREE` for the
run (1: also the choices made once, which the shipped rule of 2 never proposes); ``--no-common``:
a capital on a common word repeats at its every use, as before `common_word`.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path
from typing import Any

from editor.core.threads import configure_threads

DEV = Path("../shared/data/dev/ted_dev2012_talks.txt")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--file", type=Path, default=DEV)
    ap.add_argument("--talks", type=int, default=None)
    ap.add_argument("--agree", type=int, default=2, help="UNPROPOSED_AGREE for the run (2 shipped)")
    ap.add_argument("--cache", default="runs/review-cost-joint.npz")
    ap.add_argument("--no-common", action="store_true",
                    help="repeat a capital on a common word everywhere, as before issue 48's rule")
    args = ap.parse_args()
    configure_threads()
    from editor.core.document.records import CHOICE, Kind
    from editor.core.review import repeat_choices as rc
    from editor.restore.lab import review_cost
    from editor.restore.passes.inference import Restorer

    rc.UNPROPOSED_AGREE = args.agree
    common_word = rc.common_word
    if args.no_common:
        rc.common_word = lambda doc, word: False  # type: ignore[assignment]
    made: dict[tuple[int, int, Kind, str], dict[str, Any]] = {}
    rows: list[dict[str, Any]] = []
    at: dict[str, Any] = {"talk": -1}
    repeat_on, proposal, decide, review = rc.repeat_on, rc._proposal, review_cost.decide, review_cost.review

    def on_repeat(doc: Any, token_id: int, kind: Any, targets: Any, **kw: Any) -> int:
        kw["evidence"] = kw.get("evidence") or rc.choice_evidence(doc, token_id, kind, targets)
        at.update(doc=doc, source=doc.index_of(token_id), evidence=kw["evidence"])
        return repeat_on(doc, token_id, kind, targets, **kw)

    def on_proposal(old: Any, token_id: int, kind: Any, value: str, current: str, evidence: Any) -> Any:
        out = proposal(old, token_id, kind, value, current, evidence)
        if out is not None:
            doc, i = at["doc"], at["source"]
            j = doc.index_of(token_id)
            made[(id(doc), token_id, Kind(kind), value)] = {
                "model": old is not None, "evidence": tuple(evidence), "word": doc[j].word.lower(),
                "same_before": i > 0 and j > 0 and doc[j - 1].word.lower() == doc[i - 1].word.lower(),
                "shown": out.confidence}
        return out

    def on_decide(doc: Any, token_id: int, kind: Any, *, accept: bool = True, value: str | None = None,
                  repeat: bool = True) -> Any:
        s = doc.suggestion(token_id, Kind(kind))
        if s is not None and s.source == CHOICE and (rec := made.get((id(doc), token_id, Kind(kind), s.value))):
            rows.append({**rec, "kind": str(Kind(kind)), "talk": at["talk"],
                         "right": accept and (value is None or value == s.value)})
        return decide(doc, token_id, kind, accept=accept, value=value, repeat=repeat)

    def on_review(*a: Any, **k: Any) -> Any:
        at["talk"] += 1
        return review(*a, **k)

    rc.repeat_on, rc._proposal = on_repeat, on_proposal  # type: ignore[assignment]
    review_cost.decide, review_cost.review = on_decide, on_review  # type: ignore[assignment]
    restorer: Any = Restorer.load(None, "cpu")
    if args.cache != "none":
        restorer = review_cost.ReplayRestorer(restorer, args.cache)
    res = review_cost.review_cost_file(restorer, args.file, "every-pause", limit=args.talks)["review_cost"]
    print(f"decisions per 1,000 words {res['decisions_per_1000_words']}, final {res['final']}")

    def table(title: str, keep: Any, key: Any) -> dict[Any, list[int]]:
        count: dict[Any, list[int]] = collections.defaultdict(lambda: [0, 0, 0, 0])
        for r in rows:
            if keep(r):
                half = r["talk"] % 2
                count[key(r)][2 * half] += r["right"]
                count[key(r)][2 * half + 1] += 1
        print(title)
        for k in sorted(count, key=str):
            e_r, e_n, o_r, o_n = count[k]
            print(f"  {k}: {e_r + o_r} of {e_n + o_n} right ({(e_r + o_r) / (e_n + o_n):.1%}); "
                  f"even {e_r} of {e_n}, odd {o_r} of {o_n}")
        return count

    unproposed = table("where the model proposed nothing, by (agree, disagree):",
                       lambda r: not r["model"], lambda r: r["evidence"])
    need = 0.0
    for (a, d), (e_r, e_n, o_r, o_n) in unproposed.items():
        for right, n in ((e_r + o_r, e_n + o_n), (e_r, e_n), (o_r, o_n)):
            if n >= 10:
                need = max(need, a / (right / n) - a - d if right else float("inf"))
    print(f"smallest prior of places against showing no band of 10 or more above its rate: {need:.2f}")
    table("capitals where the model proposed nothing, by (common word, same word before):",
          lambda r: not r["model"] and r["kind"] == "case",
          lambda r: (common_word(rc.Transcript.from_words([r["word"]]), r["word"]), r["same_before"]))
    table("where the model proposed something, by (kind, shown confidence to 0.1 below):",
          lambda r: r["model"], lambda r: (r["kind"], int(min(r["shown"], 0.999) * 10) / 10))


if __name__ == "__main__":
    sys.exit(main())
