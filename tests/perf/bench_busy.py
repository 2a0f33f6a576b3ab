"""`stet restore` of 25,000 words on an idle machine and with one core taken by a spinning program.

Run on purpose (not part of the test suite):
    .venv/bin/python tests/perf/bench_busy.py [--words 25000] [--runs 3] [--model DIR] [--nice -19]

Each setting is the whole command as a person runs it (start-up and model load included), timed
with no other program of ours running and then with `python -c 'while 1: pass'` holding a core;
settings and conditions are interleaved run by run so that a change in the machine's load hits them
alike. Settings: `stet` as shipped (editor.core.threads: passive waiting, threads = free cores),
`old` (torch's default of one thread per core with spinning waits, OMP_WAIT_POLICY=ACTIVE, as before
this setting existed), `passive-all-cores` (one thread per core, waiting passively) and `one-thread`. Prints medians and the busy/idle ratio of each, beside
the rate of a float32 matrix product on one thread before and after (the machine's speed varies
from hour to hour). The input is real dev text (../shared/data/dev) when present, else synthetic.

Each run's CPU seconds (the command's own, all its threads) are printed beside its wall time: on a
machine that other programs load, wall time also counts the time they held the cores, CPU time
does not, so a setting that wastes the cores (spinning) shows in CPU time whatever the load.
`--nice -19` (root) runs the commands, the spinner and the matrix products ahead of every other
program on the machine, the nearest a shared machine comes to a quiet one (other programs' share
of the cores goes down to a few percent while it runs; keep it short). On Linux with autogroups
(/proc/sys/kernel/sched_autogroup_enabled) the cores are shared between sessions before processes,
so it sets this session's autogroup too; without it, a spinner started here takes half of this
session's share on a loaded machine, whatever the command's threads do.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = {
    "stet": {},  # as shipped: passive waits, threads = free cores
    "old": {"OMP_WAIT_POLICY": "ACTIVE", "OMP_NUM_THREADS": str(os.cpu_count() or 1)},  # torch's defaults
    "passive-all-cores": {"OMP_WAIT_POLICY": "PASSIVE", "OMP_NUM_THREADS": str(os.cpu_count() or 1)},
    "one-thread": {"OMP_NUM_THREADS": "1"},
}


def words_for(n: int, dev: Path) -> list[str]:
    if dev.is_file():
        words = [line.split("\t")[0] for line in dev.read_text(encoding="utf-8").splitlines() if line.strip()]
    else:
        rnd = random.Random(0)
        words = [rnd.choice("the a and of to i you we it is that this in for so what how okay yes".split())
                 for _ in range(n)]
    return (words * (n // max(len(words), 1) + 1))[:n]


def gemm_gflops() -> float:
    code = ("import time, torch\ntorch.set_num_threads(1)\na, b = torch.randn(1024, 1024), torch.randn(1024, 1024)\n"
            "a @ b\nt = time.perf_counter()\nfor _ in range(10): a @ b\n"
            "print(10 * 2 * 1024**3 / (time.perf_counter() - t) / 1e9)")
    return float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--words", type=int, default=25000)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--model", default=None)
    p.add_argument("--dev", default=str(ROOT.parent / "shared" / "data" / "dev" / "dev2012.tsv"))
    p.add_argument("--settings", default=",".join(SETTINGS), help="comma-separated names from the list above")
    p.add_argument("--nice", type=int, default=None, help="run at this niceness (negative: ahead of others; root)")
    a = p.parse_args()
    if a.nice is not None:
        os.setpriority(os.PRIO_PROCESS, 0, a.nice)  # inherited by every command and the spinner
        try:  # Linux shares the cores between sessions first (autogroups): this session's turn
            Path("/proc/self/autogroup").write_text(str(a.nice))
        except OSError:
            pass
    chosen = [s for s in a.settings.split(",") if s]
    base = {k: v for k, v in os.environ.items()
            if k not in ("OMP_NUM_THREADS", "OMP_WAIT_POLICY", "MKL_NUM_THREADS", "KMP_BLOCKTIME", "_STET_THREADS_SET")}
    base["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")]))
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "talk.txt"
        src.write_text(" ".join(words_for(a.words, Path(a.dev))) + "\n", encoding="utf-8")
        cmd = [sys.executable, "-m", "editor", "restore", str(src), "-o", str(Path(tmp) / "out.txt"), "-q", "--force",
               "--device", "cpu"] + (["--model", a.model] if a.model else [])

        def run(setting: str) -> tuple[float, float]:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            r = subprocess.run(cmd, env={**base, **SETTINGS[setting]}, capture_output=True, text=True)
            if r.returncode:
                sys.exit(r.stderr)
            wall = time.perf_counter() - t
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)

        gemm_before = gemm_gflops()
        times: dict[str, dict[str, list[float]]] = {s: {"idle": [], "busy": []} for s in chosen}
        cpu: dict[str, dict[str, list[float]]] = {s: {"idle": [], "busy": []} for s in chosen}
        started = time.strftime("%H:%M UTC", time.gmtime())
        for i in range(a.runs):
            for condition in ("idle", "busy"):
                spinner = subprocess.Popen([sys.executable, "-c", "while 1: pass"]) if condition == "busy" else None
                try:
                    time.sleep(0.3 if spinner else 0)
                    for setting in chosen:
                        wall, seconds = run(setting)
                        times[setting][condition].append(wall)
                        cpu[setting][condition].append(seconds)
                        print(f"run {i + 1} {condition} {setting}: {wall:.2f} s ({seconds:.2f} CPU s)",
                              file=sys.stderr, flush=True)
                finally:
                    if spinner:
                        spinner.kill()
                        spinner.wait()
        result = {"words": a.words, "runs": a.runs, "cores": os.cpu_count(), "started": started,
                  "ended": time.strftime("%H:%M UTC", time.gmtime()),
                  "gemm_gflops_1_thread_before": round(gemm_before, 1), "gemm_gflops_1_thread_after": round(gemm_gflops(), 1),
                  "load_average_after": [round(x, 2) for x in os.getloadavg()], "nice": a.nice, "settings": {}}
        for setting in chosen:
            idle, busy = statistics.median(times[setting]["idle"]), statistics.median(times[setting]["busy"])
            result["settings"][setting] = {"idle_median_s": round(idle, 2), "busy_median_s": round(busy, 2),
                                           "busy_over_idle": round(busy / idle, 2),
                                           "idle_cpu_median_s": round(statistics.median(cpu[setting]["idle"]), 2),
                                           "busy_cpu_median_s": round(statistics.median(cpu[setting]["busy"]), 2),
                                           "idle_s": [round(t, 2) for t in times[setting]["idle"]],
                                           "busy_s": [round(t, 2) for t in times[setting]["busy"]]}
        print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
