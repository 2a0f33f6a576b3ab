"""Training and dev data: cased text -> ASR-like words + joint labels, cached as numpy arrays.

The training text is read from the data folder (train_config.DEFAULT_DATA_DIR or --data; never
copied into the repository). Each source is
turned once into a compact cache (form ids, joint labels, document starts) outside the
repository; training then samples windows from those arrays.
"""

from __future__ import annotations

import gzip
import json
import random
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from editor.restore.model.labels import (
    CASE_INDEX,
    PUNCT_INDEX,
    LabelledWord,
    joint_index,
    labelled_words,
    normalize_word,
)
from editor.restore.lab.train_config import DEFAULT_SOURCES

# 4: a period after digits ("1.5.") ends the sentence; only letters joined by periods are abbreviations
CACHE_VERSION = 4

_NUMBER = re.compile(r"^\d{1,3}(,\d{3})+$|^\d+$|^\d+\.\d+$")
_ORDINAL = re.compile(r"^(\d+)(st|nd|rd|th)$")


def spoken_number(word: str) -> list[str] | None:
    """How a recogniser would write a number it heard ("1989" -> nineteen eighty nine)."""
    try:
        from num2words import num2words
    except ImportError:  # training extra not installed: keep digits
        return None
    try:
        m = _ORDINAL.match(word)
        if m:
            text = num2words(int(m.group(1)), to="ordinal")
        elif _NUMBER.match(word):
            plain = word.replace(",", "")
            if "." in plain:
                text = num2words(float(plain))
            elif len(plain) == 4 and 1100 <= int(plain) <= 2099 and "," not in word:
                text = num2words(int(plain), to="year")
            elif len(plain) > 12:
                return None
            else:
                text = num2words(int(plain))
        else:
            return None
    except (ValueError, OverflowError, NotImplementedError):
        return None
    return [w for w in re.split(r"[\s,\-]+", text.lower()) if w]


def asr_like(words: list[LabelledWord], rng: random.Random, p_spoken: float = 0.5) -> list[LabelledWord]:
    """Spell out some numbers as words, as an ASR engine would; labels move to the last word."""
    out: list[LabelledWord] = []
    for w in words:
        if any(ch.isdigit() for ch in w.word) and rng.random() < p_spoken:
            spoken = spoken_number(w.word)
            if spoken:
                for k, s in enumerate(spoken):
                    last = k == len(spoken) - 1
                    out.append(LabelledWord(s, w.punct if last else "", w.case if k == 0 and w.case != "upper" else "lower", s))
                continue
        out.append(w)
    return out


def iter_documents(path: Path):
    """Yield (title, text) per `# ` document of a gzipped source file."""
    title, lines = None, []
    with gzip.open(path, "rt", encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("# "):
                if lines:
                    yield title, "".join(lines)
                title, lines = line[2:].strip(), []
            else:
                lines.append(line)
    if lines:
        yield title, "".join(lines)


@dataclass
class SourceArrays:
    forms: np.ndarray  # int32 (N,) index into the shared form table
    labels: np.ndarray  # uint8 (N,) joint label
    doc_starts: np.ndarray  # int64 (D+1,) offsets of documents, last = N


def source_arrays(path: Path, rng: random.Random, forms: list[str], form_id: dict[str, int],
                  mixed: dict[str, Counter] | None = None) -> SourceArrays:
    """One source's documents made ASR-like, as form ids into `forms` (grown with the new forms),
    joint labels and document starts; `mixed` counts the written forms of mixed-case words."""
    ids: list[int] = []
    labs: list[int] = []
    starts = [0]
    for _title, text in iter_documents(path):
        for w in asr_like(labelled_words(text), rng):
            i = form_id.get(w.word)
            if i is None:
                i = form_id[w.word] = len(forms)
                forms.append(w.word)
            ids.append(i)
            labs.append(joint_index(PUNCT_INDEX[w.punct], CASE_INDEX[w.case]))
            if mixed is not None and w.case == "mixed":
                mixed.setdefault(w.word, Counter())[w.surface] += 1
        if len(ids) > starts[-1]:
            starts.append(len(ids))
    return SourceArrays(np.asarray(ids, np.int32), np.asarray(labs, np.uint8), np.asarray(starts, np.int64))


def prepare(data_dir: Path, cache_dir: Path, sources=None, log=print) -> tuple[list[str], dict[str, SourceArrays], Counter, dict]:
    """Build (or load) the cache: form table, per-source arrays, form counts, mixed-case counts."""
    sources = list(sources or DEFAULT_SOURCES)
    cache_dir.mkdir(parents=True, exist_ok=True)
    meta_path = cache_dir / "forms.json"
    if meta_path.exists():
        meta = json.loads(meta_path.read_text())
        if meta.get("version") == CACHE_VERSION and all((cache_dir / f"{s}.npz").exists() for s in sources):
            arrays = {}
            for s in sources:
                z = np.load(cache_dir / f"{s}.npz")
                arrays[s] = SourceArrays(z["forms"], z["labels"], z["doc_starts"])
            return meta["forms"], arrays, Counter(dict(zip(meta["forms"], meta["counts"]))), meta["mixed"]
    forms: list[str] = []
    form_id: dict[str, int] = {}
    counts: Counter = Counter()
    mixed: dict[str, Counter] = {}
    arrays = {}
    rng = random.Random(1234)
    for s in sources:
        t0 = time.time()
        a = source_arrays(data_dir / f"{s}.txt.gz", rng, forms, form_id, mixed)
        counts.update(Counter(dict(zip(*np.unique(a.forms, return_counts=True)))))
        np.savez(cache_dir / f"{s}.npz", forms=a.forms, labels=a.labels, doc_starts=a.doc_starts)
        arrays[s] = a
        log(f"prepared {s}: {len(a.forms):,} words, {len(a.doc_starts) - 1} documents in {time.time() - t0:.0f} s")
    form_counts = [int(counts.get(i, 0)) for i in range(len(forms))]
    mixed_counts = {w: dict(c.most_common(3)) for w, c in mixed.items()}
    meta_path.write_text(json.dumps({"version": CACHE_VERSION, "forms": forms, "counts": form_counts, "mixed": mixed_counts}))
    return forms, arrays, Counter(dict(zip(forms, form_counts))), mixed_counts


def build_mixed_lexicon(mixed_counts: dict, form_counts: Counter, min_count: int = 3, max_size: int = 30000) -> dict[str, str]:
    """lowercase word -> its usual mixed-case surface (iPhone, McDonald's), learned from the text."""
    lex = []
    for word, surfaces in mixed_counts.items():
        surface, n = max(surfaces.items(), key=lambda kv: kv[1])
        if n >= min_count and n >= 0.2 * form_counts.get(word, n):
            lex.append((n, word, surface))
    lex.sort(reverse=True)
    return {w: s for _n, w, s in lex[:max_size]}


class WindowSampler:
    """Random training windows of varying length that never cross a document boundary.

    Windows start anywhere (often mid-sentence), as Pahuja et al. train; each batch has one
    length so no padding is needed; sources are drawn by weight.
    """

    def __init__(self, arrays: dict[str, SourceArrays], weights: dict[str, float], seed: int, min_len=40, max_len=120):
        self.names = [n for n in weights if n in arrays and weights[n] > 0]
        w = np.asarray([weights[n] for n in self.names], np.float64)
        self.p = w / w.sum()
        self.arrays = arrays
        self.rng = np.random.default_rng(seed)
        self.min_len, self.max_len = min_len, max_len
        # documents long enough to hold a window are sampled by their length
        self.doc_tables = {}
        for n in self.names:
            ds = arrays[n].doc_starts
            lens = np.diff(ds)
            ok = np.nonzero(lens >= min_len)[0]
            self.doc_tables[n] = (ds[ok], lens[ok], lens[ok] / lens[ok].sum())

    def state(self) -> dict:
        return self.rng.bit_generator.state

    def set_state(self, state: dict) -> None:
        self.rng.bit_generator.state = state

    def batch(self, tokens_per_batch: int) -> tuple[np.ndarray, np.ndarray]:
        """(forms, labels), each int64 (B, T)."""
        T = int(self.rng.integers(self.min_len, self.max_len + 1))
        B = max(1, tokens_per_batch // T)
        src = self.rng.choice(len(self.names), size=B, p=self.p)
        forms = np.empty((B, T), np.int64)
        labels = np.empty((B, T), np.int64)
        for b, si in enumerate(src):
            name = self.names[si]
            starts, lens, p = self.doc_tables[name]
            d = self.rng.choice(len(starts), p=p)
            L = min(T, int(lens[d]))
            off = int(starts[d]) + int(self.rng.integers(0, lens[d] - L + 1))
            a = self.arrays[name]
            seg_f = a.forms[off : off + L]
            seg_l = a.labels[off : off + L]
            if L < T:  # a short document: wrap within it (rare; min_len guards most)
                seg_f = np.resize(seg_f, T)
                seg_l = np.resize(seg_l, T)
            forms[b] = seg_f
            labels[b] = seg_l
        return forms, labels


# ---------------------------------------------------------------- dev sets

_CONTRACTION = re.compile(r"^(n't|'[a-z]+)$")


def _lines(path: Path, text: str | None):
    """The file's lines, or those of `text` already read from it (checked, decoded)."""
    if text is not None:
        yield from text.splitlines(keepends=True)
        return
    with open(path, encoding="utf-8", errors="replace") as f:
        yield from f


def read_iwslt_tsv(path: Path, text: str | None = None) -> tuple[list[str], list[str]]:
    """IWSLT `word<TAB>LABEL` -> (words, 3-class labels), contractions joined as ASR writes them
    ("do n't" -> "don't"). Tokens that are only punctuation ('--') are dropped; their label goes to
    the previous word when that has none. `text`: the file's contents, when already read."""
    words: list[str] = []
    labels: list[str] = []
    for lineno, line in enumerate(_lines(path, text), 1):
        line = line.rstrip("\n")
        if not line.strip():
            continue
        try:
            tok, lab = line.split("\t")
        except ValueError:
            raise ValueError(f"{path}:{lineno}: expected 'word<TAB>LABEL', got {line[:60]!r}") from None
        lab = lab.strip()
        if lab not in ("O", "COMMA", "PERIOD", "QUESTION"):
            raise ValueError(f"{path}:{lineno}: unknown label {lab!r}")
        if words and _CONTRACTION.match(tok):
            words[-1] += tok
            labels[-1] = lab
            continue
        w = normalize_word(tok)
        if not w:
            if words and labels[-1] == "O":
                labels[-1] = lab
            continue
        words.append(w)
        labels.append(lab)
    return words, labels


def read_cased_talks(path: Path, text: str | None = None) -> list[list[LabelledWord]]:
    """ted_dev2012_talks.txt-style text -> one list of labelled words per `# ` document. `text`:
    the file's contents, when already read."""
    return [words for words, _starts in read_cased_paragraphs(path, text)]


def read_cased_paragraphs(path: Path, text: str | None = None) -> list[tuple[list[LabelledWord], list[int]]]:
    """Like `read_cased_talks`, with the index of the first word of each line (a paragraph) of
    each document, 0 included."""
    docs: list[tuple[list[LabelledWord], list[int]]] = []
    cur: list[LabelledWord] = []
    starts: list[int] = []
    for line in _lines(path, text):
        if line.startswith("# "):
            if cur:
                docs.append((cur, starts))
            cur, starts = [], []
        else:
            words = labelled_words(line)
            if words:
                starts.append(len(cur))
                cur.extend(words)
    if cur:
        docs.append((cur, starts))
    return docs


if __name__ == "__main__":  # python -m editor.restore.lab.data DATA_DIR CACHE_DIR
    prepare(Path(sys.argv[1]), Path(sys.argv[2]))
