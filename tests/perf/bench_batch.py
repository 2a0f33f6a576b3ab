"""A folder of transcripts restored as one batch, against the single-file benchmark on the same cores.

Run on purpose (not part of the test suite):
    .venv/bin/python tests/perf/bench_batch.py [--files 200] [--words-per-file 10000] [--runs 2] [--jobs N]
                                               [--nice -19]

Makes FILES plain-text transcripts (lower case, no punctuation) from the dev text in
../shared/data/dev (synthetic words without it) in a temporary folder, never in the repository;
then, back to back:
  1. tests/perf/bench_restore.py with 1 thread and with as many threads as cores (in-process words/s
     of one long input, the model already loaded, and its matrix-product rate);
  2. `stet restore FOLDER -o OUT -j N -q --force` RUNS times: wall time, and the words/s the batch
     reports once its workers have loaded the model;
  3. one process restoring 50,000 words on one thread: words per CPU second and per wall second,
     and words per CPU second of the single-file command's whole pipeline (read, restore, suggestions,
     write) on ten of the files, the model loaded
     (on a shared machine CPU time does not count the time other programs held the cores; the
     batch's CPU time, its workers' start-up, model loads, reading and writing included, gives
     the batch's words per CPU second to compare with);
  4. three of the files restored one by one with `stet restore FILE -o ...`, compared byte for byte
     with the batch's outputs.
Prints medians as JSON. The machine's speed varies from hour to hour: compare rates only together
with the matrix-product rates printed beside them. `--nice -19` (root) runs everything ahead of
the machine's other programs, its session's autogroup included (see bench_busy.py): the nearest a
shared machine comes to a quiet one.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def dev_words(dev: Path) -> list[str]:
    if dev.is_file():
        return [line.split("\t")[0] for line in dev.read_text(encoding="utf-8").splitlines() if line.strip()]
    rnd = random.Random(0)
    vocab = "the a and of to i you we it is that this in for so what how okay yes think people".split()
    return [rnd.choice(vocab) for _ in range(300_000)]


def make_folder(folder: Path, files: int, per_file: int, words: list[str]) -> int:
    rnd = random.Random(7)
    total = 0
    for i in range(files):
        n = int(per_file * rnd.uniform(0.5, 1.5))  # archives are uneven
        start = rnd.randrange(len(words))
        chunk = (words[start:] + words)[: n] if n <= len(words) else (words * (n // len(words) + 1))[:n]
        # a paragraph break every few hundred words, as transcripts have
        lines = [" ".join(chunk[j:j + 300]) for j in range(0, len(chunk), 300)]
        (folder / f"talk{i:04d}.txt").write_text("\n\n".join(lines) + "\n", encoding="utf-8")
        total += len(chunk)
    return total


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--files", type=int, default=200)
    p.add_argument("--words-per-file", type=int, default=10_000)
    p.add_argument("--runs", type=int, default=2)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--model", default=None)
    p.add_argument("--dev", default=str(ROOT.parent / "shared" / "data" / "dev" / "dev2012.tsv"))
    p.add_argument("--skip-single", action="store_true", help="do not run bench_restore.py")
    p.add_argument("--nice", type=int, default=None, help="run at this niceness (negative: ahead of others; root)")
    a = p.parse_args()
    if a.nice is not None:
        os.setpriority(os.PRIO_PROCESS, 0, a.nice)
        try:  # Linux shares the cores between sessions first (autogroups)
            Path("/proc/self/autogroup").write_text(str(a.nice))
        except OSError:
            pass
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "_STET_THREADS_SET")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")]))
    model = ["--model", a.model] if a.model else []
    result: dict = {"started": time.strftime("%H:%M UTC", time.gmtime()), "cores": os.cpu_count(), "jobs": a.jobs,
                    "nice": a.nice}
    with tempfile.TemporaryDirectory() as tmp:
        folder, out = Path(tmp) / "in", Path(tmp) / "out"
        folder.mkdir()
        result["files"] = a.files
        result["words"] = make_folder(folder, a.files, a.words_per_file, dev_words(Path(a.dev)))
        if not a.skip_single:
            for threads in sorted({1, a.jobs}):
                r = subprocess.run([sys.executable, str(ROOT / "tests" / "perf" / "bench_restore.py"), "--threads",
                                    str(threads), "--words", "50000", "--runs", "3", *model],
                                   env={**env, "OMP_NUM_THREADS": str(threads)}, capture_output=True, text=True, check=True)
                single = json.loads(r.stdout)
                result[f"single_file_{threads}_thread"] = {k: single[k] for k in (
                    "median_words_per_s", "min_words_per_s", "max_words_per_s", "gemm_gflops_before", "gemm_gflops_after")}
                print(f"single file, {threads} thread(s): {single['median_words_per_s']} words/s", file=sys.stderr, flush=True)
        # words per CPU second of one process restoring one long input on one thread (the model only,
        # as bench_restore.py): on a shared machine CPU time, unlike wall time, does not count the
        # time other programs held the cores
        code = ("import sys, time, json\nfrom editor.core.threads import configure_threads\nconfigure_threads(threads=1)\n"
                "from editor.restore.passes.inference import Restorer\nr = Restorer.load(sys.argv[1] or None, 'cpu')\n"
                "words = open(sys.argv[2], encoding='utf-8').read().split()[:50000]\nr.restore(words[:2000])\nout = []\n"
                "for _ in range(3):\n    c, t = time.process_time(), time.perf_counter()\n    r.restore(words)\n"
                "    out.append((len(words) / (time.process_time() - c), len(words) / (time.perf_counter() - t)))\n"
                "from pathlib import Path\nfrom editor.core.formats import read_any, write_any\nfrom editor.core.render import RenderPolicy\n"
                "from editor.restore.passes.pipeline import restore_transcript\nfull = []\n"
                "for path in sorted(Path(sys.argv[3]).iterdir())[:10]:\n    c = time.process_time()\n"
                "    doc = read_any(path)\n    restore_transcript(r, doc)\n    write_any(doc, sys.argv[4], RenderPolicy(0.0))\n"
                "    full.append(len(doc) / (time.process_time() - c))\n"
                "print(json.dumps([out, full]))")
        joined = Path(tmp) / "long.txt"
        joined.write_text(" ".join(p.read_text(encoding="utf-8") for p in sorted(folder.iterdir())[:10]), encoding="utf-8")
        r = subprocess.run([sys.executable, "-c", code, a.model or "", str(joined), str(folder),
                            str(Path(tmp) / "one.txt")], env=env, capture_output=True, text=True, check=True)
        pairs, full = json.loads(r.stdout)
        result["single_file_pipeline_per_cpu_second"] = round(statistics.median(full))
        result["single_file_1_thread_per_cpu_second"] = round(statistics.median(c for c, _ in pairs))
        result["single_file_1_thread_wall"] = round(statistics.median(w for _, w in pairs))
        walls, rates, cpu_rates = [], [], []
        for i in range(a.runs):
            cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            r = subprocess.run([sys.executable, "-m", "editor", "restore", str(folder), "-o", str(out), "-j",
                                str(a.jobs), "-q", "--force", "--device", "cpu", *model],
                               env=env, capture_output=True, text=True)
            walls.append(time.perf_counter() - t)
            cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime)
            cpu_rates.append(result["words"] / cpu)  # start-up, model loads, reading and writing included
            if r.returncode:
                sys.exit(r.stderr)
            found = re.search(r"([\d,]+) words/s after loading", r.stderr)
            rates.append(int(found.group(1).replace(",", "")) if found else 0)
            print(f"batch run {i + 1}: {walls[-1]:.1f} s, {rates[-1]} words/s after loading; {r.stderr.strip()}",
                  file=sys.stderr, flush=True)
        result["batch"] = {"wall_s": [round(w, 1) for w in walls], "median_wall_s": round(statistics.median(walls), 1),
                           "words_per_s_after_loading": rates,
                           "median_words_per_s_after_loading": round(statistics.median(rates)),
                           "median_words_per_s_overall": round(result["words"] / statistics.median(walls)),
                           "median_words_per_cpu_second_all_included": round(statistics.median(cpu_rates))}
        same = []
        for name in sorted(p.name for p in folder.iterdir())[:3]:
            single_out = Path(tmp) / f"single-{name}"
            subprocess.run([sys.executable, "-m", "editor", "restore", str(folder / name), "-o", str(single_out),
                            "--device", "cpu", *model], env=env, capture_output=True, text=True, check=True)
            same.append(single_out.read_bytes() == (out / name).read_bytes())
        result["outputs_identical_to_single_runs"] = f"{sum(same)} of {len(same)}"
        result["ended"] = time.strftime("%H:%M UTC", time.gmtime())
        result["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
