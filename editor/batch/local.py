"""A batch on this machine: worker processes, each loading the model once, taking files in turn.

Workers are spawned (never forked: torch and Vosk hold threads), one per free core unless told
otherwise, each with its share of the cores as compute threads. The parent gives each worker one
file at a time over that worker's own pipe, largest files first so that no long file is left for
the end, and hears back over the same pipe. A worker that dies (a crash in native code) costs only
the file it held: that file is reported, and a new worker takes its place.
"""

from __future__ import annotations

import multiprocessing
import signal
import time
from collections import deque
from collections.abc import Callable, Sequence
from functools import partial
from multiprocessing import connection
from multiprocessing.context import SpawnContext
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Literal, TypeAlias

from editor.batch.jobs import Job, Outcome, Report
from editor.batch.plan import Item
from editor.batch.progress import BatchProgress
from editor.core.errors import UserError

_REPORT_EVERY = 0.2  # seconds between a worker's progress reports on one file
_POLL = 1.0  # seconds the parent waits at most on its workers' pipes and ends at once

_Task: TypeAlias = "tuple[int, str, str] | None"
"""What the parent sends a worker: (index, source, output) of a file to run, or None: stop."""
_Message: TypeAlias = (
    "tuple[Literal['ready', 'load_failed'], str]"  # what it holds (the model's name) / why not
    " | tuple[Literal['progress'], int, float]"  # the file's index, the fraction done
    " | tuple[Literal['done'], int, Outcome]"
    " | tuple[Literal['failed'], int, str]"  # the file's index, one line on why
)
"""What a worker tells the parent."""
_WorkerEnd: TypeAlias = "connection.Connection[_Message, _Task]"
_ParentEnd: TypeAlias = "connection.Connection[_Task, _Message]"


def process(job: Job, source: Path, output: Path, report: Report) -> Outcome:
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


def _worker_main(job: Job, threads: int, conn: _WorkerEnd) -> None:
    """A worker: the model loaded once, then files one at a time as the parent sends them.

    Everything goes over this worker's own pipe, which no other process writes: a worker killed in
    the middle of a message damages only its own pipe, never the others' (a shared queue's lock,
    held by a killed writer, would block every other worker for good)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the parent's to handle
    try:
        job.load(threads)
    except BaseException as err:  # noqa: BLE001 — told to the parent, which stops the batch
        conn.send(("load_failed", str(err) if isinstance(err, UserError)
                   else f"the worker could not start ({type(err).__name__}: {err})"))
        return
    conn.send(("ready", job.describe()))
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if task is None:
            return
        index, source, output = task
        last = 0.0

        def report(fraction: float, index: int = index) -> None:
            nonlocal last
            now = time.monotonic()
            if now - last >= _REPORT_EVERY:
                last = now
                conn.send(("progress", index, fraction))

        try:
            outcome = process(job, Path(source), Path(output), report)
        except Exception as err:  # noqa: BLE001 — one file's failure never stops the others
            conn.send(("failed", index, describe_failure(Path(source), err)))
        else:
            conn.send(("done", index, outcome))


def run_in_process(job: Job, items: Sequence[Item], tracker: BatchProgress) -> None:
    """The batch on this thread (for jobs without a model, on one core)."""
    job.load(None)
    tracker.ready()
    for index, item in enumerate(items):
        tracker.started(index)
        try:
            outcome = process(job, item.source, item.output, partial(tracker.progress, index))
        except Exception as err:  # noqa: BLE001 — one file's failure is reported, the batch goes on
            tracker.failed(index, describe_failure(item.source, err))
        else:
            tracker.finished_ok(index, outcome)


class _Worker:
    """The parent's view of one worker process: its pipe, and the file it was given."""

    def __init__(self, ctx: SpawnContext, job: Job, threads: int, number: int) -> None:
        conn, child = ctx.Pipe()
        self.conn: _ParentEnd = conn
        self.proc = ctx.Process(target=_worker_main, args=(job, threads, child),
                                name=f"stet-{job.kind}-{number}", daemon=True)
        self.proc.start()
        child.close()  # the parent's copy: the pipe then ends when the worker ends
        self.holding: int | None = None  # the file it was given and has not answered for
        self.retiring = False  # no more files for it
        self.stopped = False  # told to stop: its end is expected

    def exit_text(self) -> str:
        self.proc.join(timeout=5)
        return _exit(self.proc)


def run_local(job: Job, items: Sequence[Item], tracker: BatchProgress, *, workers: int,
              threads: int = 1) -> str:
    """Run every item on ``workers`` processes of ``threads`` compute threads each.

    The parent hands out files one at a time, largest first (no long file left for the end), over a
    pipe per worker, and waits on the pipes and on the processes' end at once: a worker that dies
    (a crash in native code) is seen at once, its file is reported failed, and a new worker takes
    its place. Returns what the workers hold (the model's name). Raises UserError when the workers
    cannot load the model (nothing is run then)."""
    pool = _Pool(job, items, tracker, workers=max(1, min(workers, len(items))), threads=threads)
    try:
        pool.run()
    finally:
        pool.close()
    return pool.loaded


class _Pool:
    """The parent's side of a local batch: which files wait, which workers live, what each said."""

    def __init__(self, job: Job, items: Sequence[Item], tracker: BatchProgress, *, workers: int,
                 threads: int) -> None:
        self.ctx = multiprocessing.get_context("spawn")
        self.job, self.items, self.tracker = job, items, tracker
        self.workers, self.threads = workers, threads
        self.pending = deque(sorted(range(len(items)), key=lambda i: -items[i].size))
        self.remaining = set(self.pending)
        self.live: list[_Worker] = []
        self.started = 0
        self.idle_deaths = 0  # workers that died holding no file: at start-up, or between files
        self.ever_ready = False  # a worker has loaded the model
        self.loaded = self.last_load_error = ""

    def run(self) -> None:
        """Start the workers and answer them until every file has an outcome."""
        for _ in range(self.workers):
            self.start_worker()
        while self.remaining:
            if not self.live:  # every worker gone, too many times: what is left cannot run here
                for index in sorted(self.remaining):
                    self.tracker.failed(index, "not run: the workers kept stopping")
                self.remaining.clear()
                return
            for worker in self.wait_for_ended():
                _receive(worker, self.take)  # what it said before it ended counts
                self.bury(worker)

    def wait_for_ended(self) -> list[_Worker]:
        """Wait for messages or ends (at most ``_POLL`` seconds), take the messages, and return the
        workers that ended."""
        by_key: dict[int, _Worker] = {}
        for worker in self.live:
            by_key[id(worker.conn)] = worker
            by_key[worker.proc.sentinel] = worker
        ready = connection.wait([w.conn for w in self.live] + [w.proc.sentinel for w in self.live],
                                timeout=_POLL)
        ended: list[_Worker] = []
        for key in ready:
            worker = by_key[key if isinstance(key, int) else id(key)]
            if worker in ended:
                continue
            if not _receive(worker, self.take) or key == worker.proc.sentinel:
                ended.append(worker)
        return ended

    def start_worker(self) -> None:
        self.live.append(_Worker(self.ctx, self.job, self.threads, self.started))
        self.started += 1

    def give_work(self, worker: _Worker) -> None:
        """The next file to a worker that is free, or the stop once none is left."""
        if worker.retiring:
            return
        if not self.pending:
            worker.retiring = True
            worker.stopped = _send(worker, None)
            return
        index = self.pending.popleft()
        item = self.items[index]
        if _send(worker, (index, str(item.source), str(item.output))):
            worker.holding = index
            self.tracker.started(index)
        else:  # it is dying (its end is seen next): the file waits for another worker
            self.pending.appendleft(index)
            worker.retiring = True

    def take(self, worker: _Worker, message: _Message) -> None:
        """One message from a worker."""
        if message[0] == "ready":
            self.ever_ready = True
            self.loaded = self.loaded or message[1]
            self.tracker.ready()
            self.give_work(worker)
        elif message[0] == "load_failed":  # the worker ends; its end decides what follows
            worker.retiring = True
            self.last_load_error = message[1]
            if not self.ever_ready:  # the model cannot be loaded here: nothing will run
                raise UserError(message[1])
        elif message[0] == "progress":
            self.tracker.progress(message[1], message[2])
        elif message[0] == "done" or message[0] == "failed":
            index = message[1]
            worker.holding = None
            if index in self.remaining:
                self.remaining.discard(index)
                if message[0] == "done":
                    self.tracker.finished_ok(index, message[2])
                else:
                    self.tracker.failed(index, message[2])
            self.give_work(worker)

    def bury(self, worker: _Worker) -> None:
        """A worker ended: its file (if it held one) failed; another takes its place while files
        wait, unless workers keep dying."""
        self.live.remove(worker)
        why = worker.exit_text()
        worker.conn.close()
        if worker.holding is not None and worker.holding in self.remaining:  # the crash is that file's
            self.remaining.discard(worker.holding)
            self.tracker.failed(worker.holding, f"the worker processing it stopped ({why}); "
                                                "the other files go on")
        elif not worker.stopped:
            self.idle_deaths += 1  # it died loading the model, or between files
        if not self.ever_ready and self.idle_deaths >= self.workers:  # each worker had its chance to start
            if not self.live:
                raise UserError(self.last_load_error or f"the {self.job.kind} workers could not start ({why})")
            return
        if self.pending and self.idle_deaths <= 2 * self.workers:
            self.start_worker()  # it takes the place of the dead one

    def close(self) -> None:
        """Stop what still runs: workers told to stop end by themselves; the others are ended."""
        for worker in self.live:
            if self.remaining or not worker.stopped:  # stopped early, or still loading a needless model
                worker.proc.terminate()
        for worker in self.live:
            worker.proc.join(timeout=5)
            if worker.proc.is_alive():
                worker.proc.kill()
                worker.proc.join(timeout=5)
            worker.conn.close()


def _send(worker: _Worker, message: _Task) -> bool:
    try:
        worker.conn.send(message)
    except (OSError, EOFError):  # the worker has ended; its sentinel says so next
        return False
    return True


def _receive(worker: _Worker, take: Callable[[_Worker, _Message], None]) -> bool:
    """Every message waiting on the worker's pipe, in order; False once the pipe has ended."""
    try:
        while worker.conn.poll():
            take(worker, worker.conn.recv())
    except (EOFError, OSError):  # ended, perhaps in the middle of a message: that one is lost
        return False
    return True


def _exit(proc: BaseProcess) -> str:
    code = proc.exitcode
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"
