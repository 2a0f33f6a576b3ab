"""Does learning from a review cut work on talks it was not tuned on? (lab)

The dev talks are split in two halves (even- and odd-numbered); each part of learning (the mark
bias, the marks between word pairs, the remembered case forms, the user lexicon) is measured alone
and with the evidence it needs (how many agreeing decisions), the settings are chosen on one half
and measured on the other, both ways, and on the short and the long talks apart. Per talk, as
`stet eval --simulate-review` does, a reviewer fixes the first share of the words and the rest is
scored without and with what Stet learned.

    python -m editor.restore.lab.splits ../shared/data/dev/ted_dev2012_talks.txt [--talks 40]

The model's marginals of each talk are read once (kept in ``--cache``, default
``runs/splits-joint.npz``), so a rerun only redoes the learning.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

#: Settings measured: name -> what learning keeps (see `simulate_review`'s options).
OFF = {"bias": False, "case_memory": False, "pair_memory": False, "lexicon": False}


def settings() -> dict[str, dict]:
    """Each part alone, at the evidence it needs, and the whole (as before issue 47, and as shipped)."""
    out: dict[str, dict] = {"nothing": dict(OFF)}
    out["bias"] = {**OFF, "bias": True, "limits": {"check_bias": False}}
    out["bias, checked"] = {**OFF, "bias": True, "limits": {"check_bias": True}}
    out["bias, checked, errors too"] = {**OFF, "bias": True, "limits": {"check_bias": "errors"}}
    out["all, errors too"] = {"bias": True, "case_memory": True, "pair_memory": True, "lexicon": True,
                              "limits": {"check_bias": "errors"}}
    out["bias, checked, pull x4"] = {**OFF, "bias": True, "limits": {"check_bias": True, "penalty": 0.08}}
    for k in (1, 2, 3):
        out[f"pairs>={k}"] = {**OFF, "pair_memory": True, "limits": {"min_pair": k}}
    for k in (1, 2):
        out[f"forms>={k}"] = {**OFF, "case_memory": True, "limits": {"min_form": k, "min_known_form": k}}
    out["forms, names>=1, known>=2"] = {**OFF, "case_memory": True, "limits": {"min_form": 1, "min_known_form": 2}}
    for k in (1, 2, 3):
        out[f"lexicon>={k}"] = {**OFF, "lexicon": True, "limits": {"min_lexicon": k}}
    out["all, as before"] = {"bias": True, "case_memory": True, "pair_memory": True, "lexicon": True,
                             "limits": {"min_form": 1, "min_known_form": 1, "min_pair": 1, "min_lexicon": 1,
                                        "check_bias": False}}
    out["all, as chosen"] = {"bias": True, "case_memory": True, "pair_memory": True, "lexicon": True,
                             "limits": {"min_form": 2, "min_known_form": 2, "min_pair": 1, "min_lexicon": 2,
                                        "check_bias": True, "penalty": 0.08}}
    out["all, shipped"] = {"bias": None, "case_memory": True, "pair_memory": True, "lexicon": True, "limits": {}}
    return out


#: The parts of learning, each with the settings `main` chooses among on one half.
PARTS = {"bias": ("bias", "bias, checked", "bias, checked, pull x4"),
         "pairs": ("pairs>=1", "pairs>=2", "pairs>=3"),
         "forms": ("forms>=1", "forms>=2", "forms, names>=1, known>=2"),
         "lexicon": ("lexicon>=1", "lexicon>=2", "lexicon>=3")}


def joints(restorer, docs: Sequence[Sequence], cache: Path | None) -> list[np.ndarray]:
    """The model's (N, 28) joint marginals of each talk, from ``cache`` when it holds these talks."""
    from editor.restore.passes.windows import joint_marginals_chunked

    sizes = np.asarray([len(d) for d in docs])
    if cache is not None and cache.is_file():
        kept = np.load(cache)
        if np.array_equal(kept["sizes"], sizes):
            flat, ends = kept["joint"], np.cumsum(sizes)
            return [flat[e - n:e] for n, e in zip(sizes, ends)]
    out = []
    for k, doc in enumerate(docs):
        out.append(np.asarray(joint_marginals_chunked(
            restorer.model, restorer.vocab, [w.word for w in doc], restorer.size, restorer.overlap, restorer.cut,
            restorer.merge, device=restorer.device), np.float32))
        print(f"marginals: talk {k + 1}/{len(docs)}", file=sys.stderr, end="\r")
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        np.savez(cache, sizes=sizes, joint=np.concatenate(out))
    return out


def measure(restorer, docs, paragraphs, joint, share: float, setting: dict) -> dict:
    """`simulate_review` of every talk under one setting ("bias": None keeps the shipped rule),
    with each talk's rest scored without and with learning in "per_talk"."""
    from editor.restore.lab.simulate import simulate_review

    options = {k: v for k, v in setting.items() if k != "limits"}
    if options.get("bias") is None:
        options.pop("bias", None)
    return simulate_review(restorer, docs, paragraphs, share, joints=joint, limits=setting.get("limits"),
                           per_talk=True, **options)


def part_result(per_talk: dict[int, tuple[dict, dict]], talks: Sequence[int]) -> dict:
    """The summary of some talks without ("before") and with ("after") learning."""
    from editor.restore.lab.simulate import summary_of

    kept = [per_talk[k] for k in talks if k in per_talk]
    change = [(a["mark_actions"] + a["case_actions"]) - (b["mark_actions"] + b["case_actions"]) for b, a in kept]
    return {"before": summary_of([b for b, _a in kept]), "after": summary_of([a for _b, a in kept]),
            "talks_worse": sum(1 for c in change if c > 0), "added_there": sum(c for c in change if c > 0)}


def row(name: str, res: dict) -> str:
    b, a = res["before"], res["after"]
    return (f"{name:16}{b['words']:>8,}{b['actions']:>8,}{a['actions']:>8,}{a['actions'] - b['actions']:>+6,}"
            f"{b['overall_f1']:>8.2f}{a['overall_f1']:>7.2f}{b['case_f1']:>8.2f}{a['case_f1']:>7.2f}"
            f"{res['talks_worse']:>7}{res['added_there']:>+7,}")


HEADER = (f"{'':16}{'words':>8}{'actions':>8}{'learned':>8}{'':>6}{'F1':>8}{'':>7}{'case F1':>8}{'':>7}"
          f"{'talks':>7}{'added':>7}\n"
          f"{'':16}{'':>8}{'without':>8}{'with':>8}{'diff':>6}{'without':>8}{'with':>7}{'without':>8}{'with':>7}"
          f"{'worse':>7}{'there':>7}")


def gains(res: dict) -> tuple[int, float, float]:
    """(actions saved, F1 change, case F1 change) of one measurement."""
    b, a = res["before"], res["after"]
    return b["actions"] - a["actions"], a["overall_f1"] - b["overall_f1"], a["case_f1"] - b["case_f1"]


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m editor.restore.lab.splits", description=__doc__.split("\n\n")[0])
    p.add_argument("file", help="cased talks with `# ` headers (ted_dev2012_talks.txt)")
    p.add_argument("--model", default=None, help="a model directory (default: the shipped default)")
    p.add_argument("--share", type=float, default=0.2, help="the reviewed share of each talk (default 0.2)")
    p.add_argument("--talks", type=int, default=None, help="only the first N talks (a quicker look)")
    p.add_argument("--cache", type=Path, default=Path("runs/splits-joint.npz"),
                   help="where the model's marginals are kept between runs")
    p.add_argument("--only", nargs="+", default=None, metavar="SETTING", help="only these settings")
    p.add_argument("--json", type=Path, default=None, metavar="OUT",
                   help="also write each setting's figures over all talks (names, marks and case apart) to OUT")
    args = p.parse_args(argv)
    from editor.core.threads import configure_threads

    configure_threads()
    import torch

    torch.set_num_threads(1)
    from editor.restore.passes.inference import Restorer
    from editor.restore.lab.data import read_cased_paragraphs

    read = [d for d in read_cased_paragraphs(Path(args.file)) if d[0]][: args.talks]
    docs, paragraphs = [w for w, _s in read], [s for _w, s in read]
    restorer = Restorer.load(args.model, "cpu")
    cache = args.cache.with_name(f"{args.cache.stem}-{len(docs)}{args.cache.suffix}") if args.cache else None
    joint = joints(restorer, docs, cache)
    sizes = [len(d) for d in docs]
    median = float(np.median(sizes))
    parts = {"even talks": [k for k in range(len(docs)) if k % 2 == 0],
             "odd talks": [k for k in range(len(docs)) if k % 2 == 1],
             f"short (<{median:.0f})": [k for k in range(len(docs)) if sizes[k] < median],
             f"long (>={median:.0f})": [k for k in range(len(docs)) if sizes[k] >= median],
             "all talks": list(range(len(docs)))}
    chosen = settings() if args.only is None else {k: v for k, v in settings().items() if k in args.only}
    measured = {}
    for name, setting in chosen.items():
        print(f"learning: {name}", file=sys.stderr)
        measured[name] = measure(restorer, docs, paragraphs, joint, args.share, setting)
    if args.json is not None:  # every talk's figures under each setting, names and marks/case apart
        import json

        args.json.write_text(json.dumps({name: {k: v for k, v in res.items() if k != "per_talk"}
                                         for name, res in measured.items()}, indent=1))
    results: dict[tuple[str, str], dict] = {}
    for part, talks in parts.items():
        print(f"\n{part}: {len(talks)} talks, the first {100 * args.share:.0f} % of each reviewed\n{HEADER}")
        for name in chosen:
            res = results[(part, name)] = part_result(measured[name]["per_talk"], talks)
            print(row(name, res))
    # each part's setting chosen on one half: of those that cut actions there without losing F1 or
    # case F1, the one that adds the fewest actions in the talks it makes worse (then: cuts the
    # most); measured on the other half
    print("\nchosen on one half (cuts actions, no F1 or case F1 lost, fewest added in the talks it makes worse), "
          "measured on the other: actions saved, added in talks made worse, F1 and case F1 change")
    for fit, check in (("even talks", "odd talks"), ("odd talks", "even talks")):
        for part, names in PARTS.items():
            names = tuple(n for n in names if n in chosen)
            ok = [n for n in names if gains(results[(fit, n)])[0] > 0 and gains(results[(fit, n)])[1] >= 0
                  and gains(results[(fit, n)])[2] >= 0]
            if not names:
                continue
            if not ok:
                print(f"  {part:8} fit on {fit}: nothing cuts actions there: not applied")
                continue
            best = min(ok, key=lambda n: (results[(fit, n)]["added_there"], -gains(results[(fit, n)])[0]))
            s_, f, c = gains(results[(check, best)])
            print(f"  {part:8} fit on {fit}: {best}; on {check}: {s_:+,} saved, "
                  f"{results[(check, best)]['added_there']:+,} added in {results[(check, best)]['talks_worse']} talks, "
                  f"F1 {f:+.2f}, case F1 {c:+.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
