"""How often a proposal from the person's choice is right on the dev talks (issue 48): the rate
behind `editor.core.review.repeat_choices.UNPROPOSED_PRIOR` and `common_word`.

Run on purpose (not part of the test suite), from the repository root, after
tests/perf/bench_review_cost.py has kept the network's output in runs/review-cost-joint.npz:
    OMP_NUM_THREADS=1 PYTHONPATH=. .venv/bin/python tests/perf/bench_choice_rate.py [--agree N] [--talks N]
        [--rescorer FILE|none] [--factor none]

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

Where the model proposed something it also fits, per kind, the factor on the odds of the
choice's confidence (`repeat_choices.CHOICE_ODDS_FACTOR`, under `CHOICE_MOST`) that makes the figures shown most
likely (maximum likelihood over the proposals reached, on each half and on all the talks), and
prints the reliability of each kind's proposals with the factor it ran with and with the fitted
one. ``--factor none``: run without the shipped factor (as before it); ``--rescorer``: as
tests/perf/bench_review_cost.py.
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
    ap.add_argument("--rescorer", default=None, metavar="FILE",
                    help="the mark rescorer's weights from this JSON, or none (the default: without one)")
    ap.add_argument("--factor", choices=("shipped", "none"), default="shipped",
                    help="none: the choice's odds not scaled nor limited (CHOICE_ODDS_FACTOR and CHOICE_MOST all "
                         "1), as before them")
    ap.add_argument("--rows", type=Path, default=None, help="write each proposal reached here (JSON lines)")
    args = ap.parse_args()
    configure_threads()
    from editor.core.document.records import CHOICE, Kind
    from editor.core.review import repeat_choices as rc
    from editor.restore.lab import review_cost
    from editor.restore.passes.inference import Restorer

    rc.UNPROPOSED_AGREE = args.agree
    if args.factor == "none":
        rc.CHOICE_ODDS_FACTOR = {k: 1.0 for k in rc.CHOICE_ODDS_FACTOR}
        rc.CHOICE_MOST = {k: 1.0 for k in rc.CHOICE_MOST}
    from editor.core.review import accept_rules
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
            model = accept_rules.model_probs(old) if old is not None else {}
            made[(id(doc), token_id, Kind(kind), value)] = {
                "model": old is not None, "evidence": tuple(evidence), "word": doc[j].word.lower(),
                "prior": model.get(value), "modelp": model, "value": value,
                "proposed": old.original if old is not None and old.source == CHOICE else
                (old.value if old is not None else None),
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
    if args.rescorer is not None:
        import json

        from editor.restore.lab.rescore import MarkRescorer, attach

        attach(restorer, None if args.rescorer == "none" else
               MarkRescorer.from_config(json.loads(Path(args.rescorer).read_text(encoding="utf-8"))))
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
    fit_factors(rows, rc)
    if args.rows is not None:
        import json

        args.rows.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def fit_factors(rows: list[dict[str, Any]], rc: Any) -> None:
    """The factor on the choice's odds that makes the figures shown likeliest, per kind, where the
    model proposed something (a grid of factors; the halves apart and together), and the
    reliability of the figures with it."""
    import numpy as np

    grid = np.exp(np.linspace(np.log(0.05), np.log(20.0), 200))
    for kind in sorted({r["kind"] for r in rows if r["model"]}):
        mine = [r for r in rows if r["model"] and r["kind"] == kind and r["prior"] is not None]
        if len(mine) < 20:
            continue
        now, most = rc.CHOICE_ODDS_FACTOR[rc.Kind(kind)], rc.CHOICE_MOST[rc.Kind(kind)]

        def shown(r: dict[str, Any], f: float, most: float = most) -> float:
            return float(rc.choice_confidence(r["modelp"], r["value"], *r["evidence"], factor=f, most=most))

        def loss(part: list[dict[str, Any]], f: float) -> float:
            p = np.clip([shown(r, f) for r in part], 1e-6, 1 - 1e-6)
            y = np.array([r["right"] for r in part], bool)
            return float(-np.mean(np.where(y, np.log(p), np.log1p(-p))))

        best = {}
        for name, part in (("all", mine), ("even", [r for r in mine if r["talk"] % 2 == 0]),
                           ("odd", [r for r in mine if r["talk"] % 2 == 1])):
            if part:
                best[name] = float(grid[int(np.argmin([loss(part, f) for f in grid]))])
        print(f"{kind}: {len(mine)} proposals; factor on the odds with the likeliest figures (at most "
              f"{most:g}): " + ", ".join(f"{k} {v:.3f}" for k, v in best.items()) + f" (ran with {now:g})")
        for f, title in ((now, "as run"), (best["all"], f"at {best['all']:.3f}")):
            bands: dict[int, list[int]] = {}
            for r in mine:
                b = bands.setdefault(min(int(shown(r, f) * 10), 9), [0, 0, 0, 0])
                b[2 * (r["talk"] % 2)] += r["right"]
                b[2 * (r["talk"] % 2) + 1] += 1
            print(f"  {title}: " + "; ".join(f"{10 * k}-{10 * k + 10} %: {e + o} of {en + on} "
                                              f"(even {e} of {en}, odd {o} of {on})"
                                              for k, (e, en, o, on) in sorted(bands.items(), reverse=True)))


if __name__ == "__main__":
    sys.exit(main())
