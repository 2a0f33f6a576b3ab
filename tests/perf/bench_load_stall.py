"""How long loading the restoration model holds up a thread that wants the interpreter: the main
thread of a fresh process ticks every millisecond (as the window's thread needs the interpreter
between its Qt calls) while the model is loaded in one of three ways, and the longest gaps between
ticks are what a window would feel.

  thread         a thread imports torch and loads the model (Stet before the worker process)
  thread-sliced  the same, giving way before each module it imports (an import hook that sleeps
                 1 ms, holding no interpreter, as editor.gui.base.turns' give_way lets a step run)
  process        the worker process loads it (editor.restore.passes.pass_process): this process only
                 starts it and waits on a pipe

Each run is a fresh process (torch is imported once per process). Asserts nothing.

    nice -n -10 .venv/bin/python tests/perf/bench_load_stall.py [--runs 5] [--model DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

MODES = ("thread", "thread-sliced", "process")


def one(mode: str, model: str | None) -> dict[str, object]:
    """In this (fresh) process: load the model the ``mode`` way while the main thread ticks."""
    from editor.core.process import GUI_SWITCH_INTERVAL
    from editor.core.threads import configure_threads

    sys.setswitchinterval(GUI_SWITCH_INTERVAL)  # as the window's process has it
    threads = configure_threads()
    done = threading.Event()
    marks: dict[str, float] = {}

    class GiveWay:  # an import hook: before each module is found, let the other thread run
        @staticmethod
        def find_spec(name, path=None, target=None):
            time.sleep(0.001)
            return None

    def load() -> None:
        began = time.perf_counter()
        if mode == "process":
            from editor.restore.passes.pass_process import PassProcess

            worker = PassProcess(threads=threads)
            worker.load(model, "cpu")
            marks["load"] = time.perf_counter() - began
            worker.close()
        else:
            if mode == "thread-sliced":
                sys.meta_path.insert(0, GiveWay)
            import torch  # noqa: F401

            marks["import torch"] = time.perf_counter() - began
            from editor.restore.passes.inference import Restorer

            Restorer.load(model, device="cpu")
            marks["load"] = time.perf_counter() - began
            if mode == "thread-sliced":
                sys.meta_path.remove(GiveWay)
        done.set()

    worker = threading.Thread(target=load, name="loader")
    gaps: list[float] = []
    last = time.perf_counter()
    worker.start()
    while not done.is_set():
        time.sleep(0.001)
        now = time.perf_counter()
        gaps.append(now - last)
        last = now
    worker.join()
    gaps.sort(reverse=True)
    return {"marks": marks, "gaps": [round(g * 1000, 1) for g in gaps[:5]]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--model", help="model directory (default: the shipped one)")
    parser.add_argument("--mode", choices=MODES, action="append", help="again for more (default: all)")
    parser.add_argument("--one", choices=MODES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print("RESULT " + json.dumps(one(args.one, args.model)), flush=True)
        return 0
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}
    print(time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), f"load average {os.getloadavg()[0]:.1f}")
    for mode in args.mode or MODES:
        longest, loads = [], []
        for _ in range(args.runs):  # each a fresh process: torch is imported once per process
            cmd = [sys.executable, str(Path(__file__).resolve()), "--one", mode]
            if args.model:
                cmd += ["--model", args.model]
            out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stdout
            found = json.loads(next(line for line in out.splitlines() if line.startswith("RESULT "))[7:])
            longest.append(found["gaps"][0])
            loads.append(found["marks"]["load"])
            print(f"  {mode}: longest gaps {found['gaps']} ms, loaded after {found['marks']['load']:.2f} s",
                  flush=True)
        print(f"{mode:<14} longest gap median {statistics.median(longest):.0f} ms ({max(longest):.0f}), "
              f"loaded after {statistics.median(loads):.2f} s (median of {args.runs})", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
