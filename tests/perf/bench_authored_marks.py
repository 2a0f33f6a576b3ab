"""What accepting suggestions does to punctuation and capitals an author wrote, per class, on the dev
talks as published (../shared/data/dev/ted_dev2012_talks.txt, their own marks and capitals).

Run on purpose (not part of the test suite):
    .venv/bin/python tests/perf/bench_authored_marks.py [--talks N] [--cache FILE] [--json OUT]

Two measurements, both with the model's author prior:
- On the talks as published (the reference): the author's marks and capitals changed per 1,000
  words by Review > Accept all >= 90 % and by `stet restore` (every suggestion). Each is damage.
- Per class of what the author wrote (no mark, `,` `.` `?` `!` `:` `;`, an ellipsis, a dash, a mark
  next to a quote; a capital at a sentence start, mid-sentence on a common word, mid-sentence on
  a rare word or name): on a copy with simulated author errors (5 % of the marks replaced by
  another drawn by how often each is written, so that every class is wrong about as often; 2 % of
  the words' case flipped), how many of the author's values accept-all >= 90 % changes and how many
  of those changes give the reference back. A class whose changes are mostly wrong is one the model
  cannot correct: its marks should stay as written.

The model's predictions depend on the words only (not on the marks or capitals written), so they are
computed once and kept in --cache; running this file with PYTHONPATH at an older tree measures that
tree's suggestions on the same predictions ("before").
"""

from __future__ import annotations

import argparse
import inspect
import json
import pickle
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from editor.core.document.transcript import Kind, Token, Transcript
from editor.core.document.text import ends_sentence, split_opening
from editor.restore.passes.suggest import current_mark, make_suggestions, with_mark

DEV = Path("../shared/data/dev/ted_dev2012_talks.txt")  # from the project root
QUOTES = set('"“”‘’\'«»')
#: A vocabulary rank past this is a rare word (the vocabulary is ordered by frequency).
RARE_RANK = 10000


def talks(path: Path, limit: int | None) -> list[Transcript]:
    out: list[list[str]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            out.append([])
        elif line.strip() and out:
            out[-1].append(line)
    return [Transcript.from_text("\n".join(lines)) for lines in out[:limit]]


def mark_class(punct: str, surface: str) -> str:
    if "..." in punct or "…" in punct:
        return "ellipsis"
    if "--" in punct or "—" in punct or "–" in punct or punct.strip() == "-":
        return "dash"
    if any(ch in QUOTES for ch in punct) or split_opening(surface)[0]:
        return "quote"
    return current_mark(punct) or "none"


def case_class(surface: str, prev_punct: str | None, word: str, rare) -> str:
    rest = split_opening(surface)[1]
    if not rest or rest == rest.lower():
        return "lowercase"
    if prev_punct is None or ends_sentence(prev_punct):
        return "capital at a sentence start"
    return "capital mid-sentence, rare word" if rare(word) else "capital mid-sentence, common word"


#: Marks an author confuses with one another: sentence ends, and the marks inside a sentence.
GROUPS = ({".", "?", "!", "..."}, {",", ";", ":", " --"})


def perturbed(doc: Transcript, rng: np.random.Generator, marks: list[str], weights: np.ndarray,
              confusable: bool) -> Transcript:
    """A copy with author errors: 5 % of the marks replaced (by any other mark, or with
    `confusable` a written mark by another of its group: "!" for ".", ";" for ","), drawn by how often each is
    written; 2 % of the words' case flipped."""
    tokens = []
    for t in doc.tokens:
        punct, surface = t.punct, t.surface
        if rng.random() < 0.05 and (punct.strip() or not confusable):
            c = mark_class(punct, surface)
            now = {"none": "", "ellipsis": "...", "dash": " --", "quote": current_mark(punct)}.get(c, c)
            group = next((g for g in GROUPS if now in g), set(marks)) if confusable else set(marks)
            choices = [k for k, m in enumerate(marks) if m != now and m in group]
            w = weights[choices] / weights[choices].sum()
            punct = with_mark(punct, marks[int(rng.choice(choices, p=w))])
        if rng.random() < 0.02:
            lead, rest = split_opening(surface)
            if rest:
                rest = rest.lower() if rest != rest.lower() else rest[:1].upper() + rest[1:]
                surface = lead + rest
        tokens.append(Token(t.word, surface, punct))
    return Transcript(tokens, paragraph_starts=doc.paragraph_starts)


def suggest(doc: Transcript, preds, restorer, keep_author: bool | None) -> None:
    """The suggestions as `stet restore` and the window make them (an older tree: as it made them)."""
    kw = {}
    if "keep_author" in inspect.signature(make_suggestions).parameters:
        from editor.restore.passes.suggest import rare_word

        kw.update(keep_author=keep_author, rare=rare_word(restorer))
    doc.set_suggestions(make_suggestions(doc.tokens, preds, restorer.lexicon, author_prior=restorer.author_prior,
                                         comma_capital=restorer.may_capitalize_after_comma, **kw))


def tally(doc: Transcript, ref: Transcript, threshold: float, rare, out: dict) -> None:
    toks, refs = doc.tokens, ref.tokens
    for s in doc.pending_to_apply(threshold):
        i = doc.index_of(s.token_id)
        t, r = toks[i], refs[i]
        if s.kind == Kind.PUNCT:
            row = out["mark: " + mark_class(t.punct, t.surface)]
            row["changed"] += 1
            row["right"] += s.value == r.punct
        elif s.kind == Kind.CASE:
            row = out["case: " + case_class(t.surface, toks[i - 1].punct if i else None, t.word, rare)]
            row["changed"] += 1
            row["right"] += s.value == r.surface


def model_f1(docs: list[Transcript], preds: list) -> dict[str, float]:
    """The model's own F1 per mark on the talks (its best guess against the mark written)."""
    tp: Counter = Counter()
    fp: Counter = Counter()
    fn: Counter = Counter()
    for d, pr in zip(docs, preds):
        for t, p in zip(d.tokens, pr):
            ref, got = current_mark(t.punct), p.punct
            if ref == got:
                tp[ref] += 1
            else:
                fp[got] += 1
                fn[ref] += 1
    return {m or "none": round(200 * tp[m] / max(2 * tp[m] + fp[m] + fn[m], 1), 1)
            for m in ("", ",", ".", "?", "!", ":", ";")}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dev", type=Path, default=DEV)
    p.add_argument("--talks", type=int, default=None, help="only the first N talks")
    p.add_argument("--cache", type=Path, default=Path("/tmp/stet_dev_talk_predictions.pkl"))
    p.add_argument("--device", default="cpu")
    p.add_argument("--json", type=Path, default=None)
    args = p.parse_args()
    from editor.restore.passes.inference import Restorer

    restorer = Restorer.load(None, args.device)
    docs = talks(args.dev, args.talks)
    from editor.restore.passes.prediction import WordPrediction

    if args.cache.is_file():
        kept = pickle.loads(args.cache.read_bytes())[:len(docs)]
    else:
        began = time.perf_counter()
        kept = [[(p.punct, dict(p.punct_probs), p.case, dict(p.case_probs), p.text)
                 for p in restorer.restore(d.words(), paragraph_starts=d.paragraph_starts)] for d in docs]
        print(f"predicted {sum(map(len, docs)):,} words in {time.perf_counter() - began:.0f} s", flush=True)
        args.cache.write_bytes(pickle.dumps(kept))
    preds = [[WordPrediction(*row) for row in talk] for talk in kept]

    def rare(word: str) -> bool:
        return restorer.may_capitalize_after_comma(word) or restorer.vocab.word_id(word) > RARE_RANK

    written = Counter(mark_class(t.punct, t.surface) for d in docs for t in d.tokens)
    marks = ["", ",", ".", "?", "!", ":", ";", "...", " --"]
    freq = Counter({m: 0 for m in marks})
    for d in docs:
        for t in d.tokens:
            c = mark_class(t.punct, t.surface)
            freq[{"none": "", "ellipsis": "...", "dash": " --"}.get(c, current_mark(t.punct))] += 1
    weights = np.array([freq[m] for m in marks], float)
    words = sum(map(len, docs))
    report: dict = {"talks": len(docs), "words": words, "written_marks": dict(written),
                    "model_f1_by_mark": model_f1(docs, preds)}
    has_keep = "keep_author" in inspect.signature(make_suggestions).parameters
    for mode in ([None, False] if has_keep else [None]):
        name = "default" if mode is None else "keep_author_off"
        per_k = {}
        for threshold, label in ((0.9, "accept_all_90"), (0.0, "restore_all")):
            counts = Counter()
            for d, pr in zip(docs, preds):
                doc = Transcript(d.tokens, paragraph_starts=d.paragraph_starts)
                suggest(doc, pr, restorer, mode)
                for s in doc.pending_to_apply(threshold):
                    counts[s.kind.value] += 1
            per_k[label] = {"marks_per_1000_words": round(1000 * counts["punct"] / words, 2),
                            "capitals_per_1000_words": round(1000 * counts["case"] / words, 2),
                            "marks_changed": counts["punct"], "words_recased": counts["case"]}
        for errors in ("none", "random", "confusable"):
            rng = np.random.default_rng(0)
            classes: dict = defaultdict(lambda: {"changed": 0, "right": 0})
            for d, pr in zip(docs, preds):
                doc = (Transcript(d.tokens, paragraph_starts=d.paragraph_starts) if errors == "none"
                       else perturbed(d, rng, marks, weights, errors == "confusable"))
                suggest(doc, pr, restorer, mode)
                tally(doc, d, 0.9, rare, classes)
            per_k[f"accept_all_90_by_class_{errors}_errors"] = {
                k: {**v, "precision": round(100 * v["right"] / max(v["changed"], 1), 1)}
                for k, v in sorted(classes.items())}
        report[name] = per_k
    text = json.dumps(report, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text)


if __name__ == "__main__":
    main()
