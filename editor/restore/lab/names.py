"""The names lexicon of a model: the words of its vocabulary that the training text writes with a
capital where no sentence starts (names, "I", "OK"), counted from the text as written.

A capital right after a suggested , or ; is given only to such a word (or to one the vocabulary
does not hold, which the model judges by its letters, or to a mixed-case form of the lexicons):
the model's case head also carries its belief that a sentence starts, so where it half-believed
one ended ("this week, Well") it would otherwise capitalise a common word after a comma.

Counted by hand rather than from the training cache: the cache keeps no opening quotes, and
dialogue (`he said, "Well, ...`) would make "well" look like a name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path

from editor.restore.model.labels import split_dashes, split_token

#: A word is a name when at least this share of its mid-sentence occurrences is capitalised.
NAME_SHARE = 0.5
_OPENING = frozenset("\"'“‘«([{")


def mid_sentence_case(lines: Iterable[str]) -> tuple[Counter, Counter]:
    """(occurrences, capitalised occurrences) of each lowercase word where no sentence starts:
    not a paragraph's first word, not after . ? ! or :, not opening a quote or a bracket. Lines
    starting with `# ` (document titles) are skipped."""
    seen: Counter = Counter()
    capital: Counter = Counter()
    for line in lines:
        if line.startswith("# "):
            continue
        trail: str | None = None  # what followed the last word (None: the paragraph's start)
        for raw in line.split():
            lead, core, after = split_token(raw)
            if not core:
                trail = (trail or "") + raw
                continue
            start = trail is None or any(ch in trail for ch in ".?!:") or any(ch in _OPENING for ch in lead)
            for k, part in enumerate(split_dashes(core)):  # as the model's words are cut
                if not part:
                    continue
                if (k > 0 or not start) and part[:1].isalpha():
                    word = part.lower()
                    seen[word] += 1
                    capital[word] += part[:1].isupper()
            trail = after
    return seen, capital


def names_lexicon(vocab_words: Iterable[str], seen: Counter, capital: Counter, share: float = NAME_SHARE) -> list[str]:
    """The words of `vocab_words` written capitalised in at least `share` of their mid-sentence
    occurrences (sorted). A vocabulary word never seen mid-sentence is not a name."""
    return sorted(w for w in set(vocab_words) if seen.get(w, 0) and capital.get(w, 0) >= share * seen[w])


def text_lines(data_dir: Path, sources: Iterable[str]):
    """The lines of the gzipped training sources (DATA/train/NAME.txt.gz)."""
    import gzip

    for name in sources:
        with gzip.open(data_dir / "train" / f"{name}.txt.gz", "rt", encoding="utf-8", errors="replace") as f:
            yield from f


def counted_names(vocab_words: Iterable[str], data_dir: Path, sources: Iterable[str] | Mapping[str, float],
                  share: float = NAME_SHARE, log=print) -> tuple[list[str], dict]:
    """(the names lexicon, how it was counted) from the training text of `sources` in `data_dir`:
    what `package.export_model` writes to names.json."""
    import time

    t0 = time.time()
    if isinstance(sources, Mapping):  # a training config's source -> weight
        sources = [s for s, w in sources.items() if w > 0]
    sources = sorted(sources)
    missing = [s for s in sources if not (data_dir / "train" / f"{s}.txt.gz").is_file()]
    if missing:
        from editor.core.errors import UserError

        raise UserError(f"{data_dir / 'train'}: no {', '.join(f'{s}.txt.gz' for s in missing)} to count names in")
    seen, capital = mid_sentence_case(text_lines(data_dir, sources))
    names = names_lexicon(vocab_words, seen, capital, share)
    log(f"names lexicon: {len(names):,} of the vocabulary's words are capitalised in at least {100 * share:g} % of "
        f"their {sum(seen.values()):,} mid-sentence occurrences in the training text ({time.time() - t0:.0f} s)")
    about = {"rule": f"vocabulary words written capitalised in at least {100 * share:g} % of their occurrences where no "
                     "sentence starts (not a paragraph's first word, not after . ? ! :, not opening a quote)",
             "share": share, "sources": sources}
    return names, about
