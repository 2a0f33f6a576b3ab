"""The window's longest stall while a fresh window's first save learns from a review: the window's
thread ticks every 5 ms (gui_bench.Heartbeat) from Save until the learning after it has ended, and
the longest gaps between ticks are what the person would feel; also the window's process's peak
resident memory (Linux).

Each run is a fresh process set up as the app sets itself up (``configure_process(gui=True)``:
restoration in the worker process), offscreen, with a document of WORDS words whose first SHARE
was reviewed. The model is loaded in the worker first, as the window's first restoration leaves it;
then the project is saved and learned from. Before learning asked the worker for the model's part,
this save imported torch and loaded the model in the window's process. Asserts nothing.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/perf/bench_learn_stall.py [--runs 5] [--words 2000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def one(words: int, share: float, model: str) -> dict[str, object]:
    """In this (fresh) process: a window saves a reviewed document while its thread ticks."""
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="bench-learn-stall-")  # never the person's own
    from gui_bench import Heartbeat, bench_window

    from editor.core.document.transcript import Kind, Suggestion, Transcript

    app, window, _tmp, _name = bench_window(model or None, "cpu", prefix="bench-learn-stall-")  # its own data folder
    phrase = "so we met okafor at the station and okafor said that the library moved okay".split()
    doc = Transcript.from_words((phrase * (words // len(phrase) + 1))[:words])
    doc.set_suggestions([Suggestion(doc[i].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})
                         for i in range(int(words * share)) if doc[i].word in ("station", "okay")])
    for s in list(doc.pending()):
        (doc.accept if doc[doc.index_of(s.token_id)].word == "station" else doc.reject)(s.token_id, s.kind)
    window.set_transcript(doc, restore=False)
    restorers = window.restoration.restorers
    restorers.preload(model or None, "cpu")  # as the first restoration leaves it
    for _ in range(50):
        app.processEvents()
        time.sleep(0.01)
    learned: list[int] = []
    window.learning.learned.connect(learned.append)
    beat = Heartbeat()
    target = Path(tempfile.mkdtemp(prefix="bench-learn-stall-")) / "talk.stet"
    began = time.perf_counter()
    beat.start()
    window.save(target)
    while not learned and time.perf_counter() - began < 120:
        app.processEvents()
    ended = time.perf_counter()
    while time.perf_counter() - ended < 0.3:  # what comes on the UI thread after it
        app.processEvents()
    beat.stop()
    gaps = sorted(beat.gaps, reverse=True)
    import resource

    result = {"peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
              "gaps": [round(g * 1000, 1) for g in gaps[:5]], "learned": learned, "seconds": round(ended - began, 2),
              "torch": "torch" in sys.modules, "worker": restorers.in_worker}
    window.close()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--words", type=int, default=2000)
    parser.add_argument("--share", type=float, default=0.5)
    parser.add_argument("--model", default="", help="model directory (default: the shipped one)")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print("RESULT " + json.dumps(one(args.words, args.share, args.model)), flush=True)
        return 0
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    print(time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), f"load average {os.getloadavg()[0]:.1f}")
    longest = []
    for _ in range(args.runs):  # each a fresh process: torch is imported once per process, if at all
        cmd = [sys.executable, str(Path(__file__).resolve()), "--one", "--words", str(args.words),
               "--share", str(args.share), "--model", args.model]
        out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stdout
        found = json.loads(next(line for line in out.splitlines() if line.startswith("RESULT "))[7:])
        longest.append(found["gaps"][0])
        print(f"  longest gaps {found['gaps']} ms, learned {found['learned']} in {found['seconds']} s, "
              f"torch in the window's process: {found['torch']}, its peak memory {found['peak_rss_mb']} MB",
              flush=True)
    print(f"longest gap median {statistics.median(longest):.0f} ms ({max(longest):.0f}), median of {args.runs}; "
          f"load average {os.getloadavg()[0]:.1f} at the end", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
