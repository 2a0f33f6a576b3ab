"""Words a second the window restores, against the API on the same words, with the shipped model.

The window opens a raw transcript (by default 100,000 words in one paragraph) as File > Open does
and restores it in its worker process (editor.restore.passes.pass_process), as a person's window does;
the time is from the pass's start (``restoration.started``) to its end (``restoration_finished``),
the UI thread taking every result in. The API is timed on the same words in a fresh process each
time, with the thread count the window's worker gets (editor.core.threads): ``Restorer.restore``
alone (the model and its decisions), and ``run_pass`` (the suggestions built too, what the
window's worker runs). The API runs just before and just after the window, so that the ratio
compares like with like on a shared machine; the load average is printed with every figure.
CPU seconds are printed too (the worker's, the window's process's, the API's): on a shared
machine they say where the work goes when wall times mostly say how busy the machine was. Asserts
nothing: timings vary by machine and load.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/perf/bench_window_restore.py
    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/perf/bench_window_restore.py --words 20000 --runs 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gui_bench import bench_window, raw_transcript  # noqa: E402

#: What the API run does in its own process: the words' timings, printed as JSON.
_API = """
import json, sys, time
from editor.core.threads import configure_threads
configure_threads(threads={threads})
from editor.core.formats import read_any
from editor.restore.passes.inference import Restorer
from editor.restore.passes.pipeline import PassSettings, PassSource, run_pass
doc = read_any({path!r})
r = Restorer.load(None, device="cpu")
words = [t.word for t in doc.tokens]
r.restore(words[:300])
t0, c0 = time.perf_counter(), time.process_time()
r.restore(words, paragraph_starts=doc.paragraph_starts)
alone, alone_cpu = time.perf_counter() - t0, time.process_time() - c0
t0, c0 = time.perf_counter(), time.process_time()
run_pass(r, PassSource.of(doc), PassSettings(learned=False))
whole, whole_cpu = time.perf_counter() - t0, time.process_time() - c0
print(json.dumps({{"words": len(words), "restore": alone, "run_pass": whole, "restore_cpu": alone_cpu,
                  "run_pass_cpu": whole_cpu}}))
"""


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) a process has used, from /proc (Linux); None elsewhere."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def thread_cpu(pid: int | str = "self") -> dict[str, float]:
    """CPU seconds of each thread of a process by "name:tid", from /proc (Linux; empty elsewhere)."""
    found = {}
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            fields = (task / "stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
            name = (task / "comm").read_text(encoding="utf-8").strip()
        except OSError:
            continue
        found[f"{name}:{task.name}"] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return found


def api(path: Path, threads: int | None) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", _API.format(path=str(path), threads=threads)],
                         capture_output=True, text=True, check=True, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    found: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=100_000)
    parser.add_argument("--paragraph", type=int, default=0, help="words per paragraph (0: one)")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--no-api", action="store_true", help="time the window alone")
    args = parser.parse_args()

    from PySide6.QtCore import QEventLoop, QTimer

    from editor.core.process import configured_threads

    app, window, tmp, _model = bench_window(None, "cpu", prefix="stet-wrestore-")
    assert window.restoration.restorers.in_worker, "the window restores in its worker process"
    window.settings.set("review.use_learned", False)
    compute = configured_threads()
    marks: dict[str, float] = {}

    cpu: dict[str, float] = {}
    threads: dict[str, float] = {}
    busy: dict[str, float] = {}  # the window's process's threads that used 0.2 CPU-seconds or more

    def open_and_restore(path: Path) -> float:
        worker = window.restoration.restorers._worker  # (the bench reads it: its process's CPU time)
        pid = worker._process.pid if worker is not None and worker._process is not None else None
        done = QEventLoop()
        window.restoration_finished.connect(done.quit)

        def started(_words: int) -> None:
            marks["started"] = time.perf_counter()
            cpu["window"] = time.process_time()
            threads.clear()
            threads.update(thread_cpu())
            cpu["worker"] = (cpu_seconds(pid) if pid is not None else None) or 0.0

        window.restoration.started.connect(started)
        QTimer.singleShot(20, lambda: window.open_reporting(path))
        done.exec()
        ended = time.perf_counter()
        cpu["window"] = time.process_time() - cpu["window"]
        now = thread_cpu()
        busy.clear()
        busy.update({k: v - threads.get(k, 0.0) for k, v in now.items() if v - threads.get(k, 0.0) >= 0.2})
        cpu["worker"] = (cpu_seconds(pid) or 0.0) - cpu["worker"] if pid is not None else float("nan")
        window.restoration_finished.disconnect(done.quit)
        window.restoration.started.disconnect(started)
        assert window.restoration_status == "done", window.restoration_status
        return ended - marks["started"]

    open_and_restore(raw_transcript(tmp / "warm.txt", 300, 0))  # the worker started, the model loaded
    source = raw_transcript(tmp / "long.txt", args.words, args.paragraph)
    print(f"{args.words:,} words, {'one paragraph' if not args.paragraph else f'{args.paragraph} a paragraph'}; "
          f"worker threads {compute}; {os.cpu_count()} CPUs")
    rows = []
    for run in range(args.runs):
        before = None if args.no_api else api(source, compute)
        load0 = os.getloadavg()[0]
        seconds = open_and_restore(source)
        load1 = os.getloadavg()[0]
        after = None if args.no_api else api(source, compute)
        row = {"window": args.words / seconds, "load": (load0 + load1) / 2}
        line = (f"run {run + 1}: window {row['window']:,.0f} words/s ({seconds:.1f} s; CPU: worker "
                f"{cpu['worker']:.1f} s, {args.words / cpu['worker']:,.0f} words a CPU-second; window's process "
                f"{cpu['window']:.1f} s)")
        if before is not None and after is not None:
            row["restore"] = statistics.mean(args.words / x["restore"] for x in (before, after))
            row["run_pass"] = statistics.mean(args.words / x["run_pass"] for x in (before, after))
            cpu_pass = statistics.mean(x["run_pass_cpu"] for x in (before, after))
            line += (f"; API Restorer.restore {row['restore']:,.0f}, run_pass {row['run_pass']:,.0f} words/s"
                     f" (mean of before and after; run_pass {args.words / cpu_pass:,.0f} words a CPU-second); "
                     f"window/restore {row['window'] / row['restore']:.2f}, "
                     f"window/run_pass {row['window'] / row['run_pass']:.2f}")
        print(line + f"; load average {load0:.1f} -> {load1:.1f}", flush=True)
        print("  the window's process, CPU seconds by thread: "
              + ", ".join(f"{k} {v:.1f}" for k, v in sorted(busy.items(), key=lambda kv: -kv[1])), flush=True)
        rows.append(row)
    if len(rows) > 1:
        print("median: " + ", ".join(f"{k} {statistics.median(r[k] for r in rows):,.2f}" for k in rows[0]))
    window.restoration.restorers.close()
    window.close()
    app.processEvents()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
