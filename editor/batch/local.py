"""A batch on this machine: worker processes, each loading the model once, taking files in turn.

Workers are spawned (never forked: torch and Vosk hold threads), one per free core unless told
otherwise, each with its share of the cores as compute threads. They take files from one queue,
largest first so that no long file is left for the end, and report over another queue. A worker
that dies (a crash in native code) costs only the file it held: that file is reported, and a new
worker takes its place.
"""

from __future__ import annotations

import multiprocessing
import queue
import signal
import time
from collections.abc import Sequence
from pathlib import Path

from editor.batch.jobs import Job, Outcome
from editor.batch.plan import Item
from editor.batch.progress import BatchProgress
from editor.core.errors import UserError

_REPORT_EVERY = 0.2  # seconds between a worker's progress reports on one file
_POLL = 0.25  # seconds the parent waits for news before checking that its workers live


def process(job: Job, source: Path, output: Path, report) -> Outcome:
    """One file through ``job``; the output's folder is made first. Raises what the job raises."""
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise UserError(f"{output.parent}: cannot make this folder ({err.strerror or err})") from None
    return job.run(source, output, report)


def describe_failure(source: Path, err: BaseException) -> str:
    """One line for a file that failed: the person's problem as said, anything else with its type."""
    if isinstance(err, UserError):
        text = str(err)
    elif isinstance(err, OSError):
        text = f"{err.filename + ': ' if err.filename else ''}{err.strerror or err}"
    else:
        text = f"failed ({type(err).__name__}: {err})"
    text = " ".join(text.split())
    return text if str(source) in text else f"{source}: {text}"


def _worker_main(job: Job, wid: int, threads: int, tasks, events, holding) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the parent's to handle
    try:
        job.load(threads)
    except BaseException as err:  # noqa: BLE001 — told to the parent, which stops the batch
        events.put(("load_failed", wid, str(err) if isinstance(err, UserError)
                    else f"the worker could not start ({type(err).__name__}: {err})"))
        return
    events.put(("ready", wid, job.describe()))
    while True:
        task = tasks.get()
        if task is None:
            events.put(("bye", wid))
            break
        index, source, output = task
        holding[wid] = index  # shared memory, seen at once: a crash cannot lose it as a queued message can
        events.put(("start", wid, index))
        last = 0.0

        def report(fraction: float, index=index) -> None:
            nonlocal last
            now = time.monotonic()
            if now - last >= _REPORT_EVERY:
                last = now
                events.put(("progress", wid, index, fraction))

        try:
            outcome = process(job, Path(source), Path(output), report)
        except Exception as err:  # noqa: BLE001 — one file's failure never stops the others
            events.put(("failed", wid, index, describe_failure(Path(source), err)))
        else:
            events.put(("done", wid, index, outcome))
        holding[wid] = -1


def run_in_process(job: Job, items: Sequence[Item], tracker: BatchProgress) -> None:
    """The batch on this thread (for jobs without a model, on one core)."""
    job.load(None)
    tracker.ready()
    for index, item in enumerate(items):
        tracker.started(index)
        try:
            outcome = process(job, item.source, item.output, lambda f, i=index: tracker.progress(i, f))
        except Exception as err:  # noqa: BLE001 — one file's failure is reported, the batch goes on
            tracker.failed(index, describe_failure(item.source, err))
        else:
            tracker.finished_ok(index, outcome)


def run_local(job: Job, items: Sequence[Item], tracker: BatchProgress, *, workers: int,
              threads: int = 1) -> str:
    """Run every item on ``workers`` processes of ``threads`` compute threads each.

    Returns what the workers hold (the model's name). Raises UserError when the workers cannot
    load the model (nothing is run then)."""
    ctx = multiprocessing.get_context("spawn")
    tasks, events = ctx.Queue(), ctx.Queue()
    order = sorted(range(len(items)), key=lambda i: -items[i].size)
    for index in order:
        tasks.put((index, str(items[index].source), str(items[index].output)))
    workers = max(1, min(workers, len(items)))
    for _ in range(workers):
        tasks.put(None)

    procs: dict[int, multiprocessing.process.BaseProcess] = {}
    holding: dict[int, int | None] = {}
    current = ctx.Array("i", [-1] * (3 * workers), lock=False)  # the file each worker has taken
    next_id = 0

    def start_worker() -> None:
        nonlocal next_id
        proc = ctx.Process(target=_worker_main, args=(job, next_id, threads, tasks, events, current),
                           name=f"stet-{job.kind}-{next_id}", daemon=True)
        proc.start()
        procs[next_id], holding[next_id] = proc, None
        next_id += 1

    for _ in range(workers):
        start_worker()
    remaining = set(range(len(items)))
    state = {"loaded": "", "ready": False, "bye": set()}
    last_check = time.monotonic()
    try:
        while remaining:
            try:
                _take(events.get(timeout=_POLL), remaining, holding, tracker, state)
            except queue.Empty:
                pass
            if time.monotonic() - last_check < _POLL:
                continue
            last_check = time.monotonic()
            for wid, proc in list(procs.items()):
                if proc.is_alive():
                    continue
                _drain(events, remaining, holding, tracker, state)  # news it sent before it ended
                del procs[wid]
                index = holding.pop(wid, None)
                if current[wid] >= 0:
                    index = current[wid]
                if index is not None and index in remaining:
                    remaining.discard(index)
                    tracker.failed(index, f"the worker processing it stopped ({_exit(proc)}); "
                                          "the other files go on")
                if not state["ready"] and not procs:
                    raise UserError(f"the {job.kind} workers could not start ({_exit(proc)})")
                if wid not in state["bye"] and remaining and next_id < 3 * workers:
                    start_worker()  # it takes the place (and the end-of-work mark) of the dead one
            if not procs:  # every worker gone, too many times: what is left cannot run here
                for index in sorted(remaining):
                    tracker.failed(index, "not run: the workers kept stopping")
                remaining.clear()
    finally:
        for proc in procs.values():
            if remaining:
                proc.terminate()
        for proc in procs.values():
            proc.join(timeout=5)
            if proc.is_alive():
                proc.kill()
        tasks.cancel_join_thread()
        events.cancel_join_thread()
    return state["loaded"]


def _take(event, remaining: set[int], holding: dict[int, int | None], tracker: BatchProgress,
          state: dict) -> None:
    kind, wid = event[0], event[1]
    if kind == "bye":
        state["bye"].add(wid)
    elif kind == "load_failed":
        if not state["ready"]:  # no worker could load the model: nothing will run
            raise UserError(event[2])
    elif kind == "ready":
        state["ready"] = True
        state["loaded"] = state["loaded"] or event[2]
        tracker.ready()
    elif kind == "start":
        holding[wid] = event[2]
        tracker.started(event[2])
    elif kind == "progress":
        tracker.progress(event[2], event[3])
    elif kind in ("done", "failed") and event[2] in remaining:
        holding[wid] = None
        remaining.discard(event[2])
        if kind == "done":
            tracker.finished_ok(event[2], event[3])
        else:
            tracker.failed(event[2], event[3])


def _drain(events, remaining, holding, tracker, state) -> None:
    while True:
        try:
            event = events.get_nowait()
        except queue.Empty:
            return
        _take(event, remaining, holding, tracker, state)


def _exit(proc) -> str:
    code = proc.exitcode
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"
