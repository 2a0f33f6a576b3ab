"""Counting speakers on real voices (issue 50): ``auto`` found 4 people in a clean two-person
interview and 9 in an 89 s clip. The recording here is pyannote-audio's MIT-licensed two-person
sample in ``../shared/data/speakers`` (its README says where from); the test skips where that
folder is not (it is never copied into the repository). tests/perf/bench_speakers_real.py
measures the whole set."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from editor.asr import speakers as sp
from editor.asr.transcribe import SpeakersFound

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "speakers"
SHARED = next((d for d in (DATA, Path("/work/shared/data/speakers")) if (d / "sample.wav").is_file()), None)


def reference_pieces(rttm: Path, name: str, piece: float = 0.3) -> list[tuple[float, float]]:
    """The reference's speech cut into 0.3 s stand-ins for words (as bench_speakers_real.py)."""
    spans = sorted((float(p[3]), float(p[3]) + float(p[4])) for p in (line.split() for line in rttm.read_text().splitlines())
                   if len(p) >= 8 and p[0] == "SPEAKER" and p[1] == name)
    merged: list[list[float]] = []
    for a, b in spans:
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    words = []
    for a, b in merged:
        n = max(1, round((b - a) / piece))
        words += [(a + i * (b - a) / n, a + (i + 1) * (b - a) / n) for i in range(n)]
    return words


def test_two_people_in_a_real_recording_are_counted_as_two():
    if any(importlib.util.find_spec(n) is None for n in ("librosa", "scipy", "resemblyzer")):
        pytest.skip("the `speakers` extra is not installed")
    if SHARED is None:
        pytest.skip("the real-voices set (../shared/data/speakers) is not on this machine")
    words = reference_pieces(SHARED / "sample.rttm", "sample")
    counted: list[sp.SpeakerCount] = []
    turns = sp.find_speaker_turns(SHARED / "sample.wav", words, "auto")  # 5 speakers before
    stage = sp.iter_speaker_turns(SHARED / "sample.wav", words, "auto", on_count=counted.append)
    for _ in stage:
        pass
    assert len({t.speaker for t in turns}) == 2
    assert counted and counted[0].count == 2


def test_an_unsure_count_says_so_and_proposes_the_likely_counts():
    sure = sp.SpeakerCount(2, (2,))
    assert not sure.unsure and sure.describe() == "2 speakers"
    assert SpeakersFound((), sure).note == ""
    unsure = sp.SpeakerCount(3, (3, 2, 4))
    assert unsure.unsure and unsure.describe() == "3 speakers (unsure: 2, 3 or 4 are likely)"
    note = SpeakersFound((), unsure).note
    assert note.startswith("the number of speakers is unsure: 3 found, 2, 3 or 4 are likely")


def test_windows_in_context_are_counted_steadier_than_alone():
    """Two voices whose single windows vary as much as the voices differ (as real ones do in a
    meeting room): alone, the old cut found many speakers; in context, two."""
    import numpy as np

    rng = np.random.default_rng(7)
    centres = [sp._unit(rng.standard_normal(64).astype(np.float32)) for _ in range(2)]
    # 10 turns of 8 windows each, 0.75 s apart, the voices taking turns
    windows, times, t = [], [], 0.0
    for turn in range(10):
        for _ in range(8):
            windows.append(centres[turn % 2] + 0.07 * rng.standard_normal(64))
            times.append((t, t + 1.5))
            t += 0.75
        t += 1.0
    x = sp._unit(np.asarray(windows, np.float32))
    alone = sp.count_speakers(x)
    found = sp.count_speakers(x, np.asarray(times, np.float32))
    assert found.count == 2 and not found.unsure and alone.count > 2
