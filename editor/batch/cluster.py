"""A batch on a Ray cluster: one model actor per worker CPU (or GPU), outputs written back here.

Inputs are read where the actors run, by their paths, so those must be on a file system every node
sees (the usual NFS or cluster file system of an archive). Each actor loads the model once, runs
files one at a time and returns the output's bytes, which this process writes atomically into the
output folder, so the workers need no write access to it. How far each actor is in its file is
asked every :data:`PROGRESS_EVERY` seconds, for the bar. A file whose actor is lost (a crashed
process, a node gone) is tried again on another actor, up to :data:`ATTEMPTS` times, and said so;
an error in the file itself (unreadable, no words) is reported at once, as on one machine.
"""

from __future__ import annotations

import logging
import os
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Literal, Protocol, TypeAlias, TypeVar

from editor.batch.jobs import Job, Outcome
from editor.batch.local import describe_failure
from editor.batch.plan import Item
from editor.batch.progress import BatchProgress
from editor.core.errors import UserError

ATTEMPTS = 3
"""Tries per file when the worker holding it is lost."""
IN_FLIGHT = 2
"""Files queued per actor, so that an actor never waits for the next one to arrive."""
PROGRESS_EVERY = 1.0
"""Seconds between asking the busy actors how far their files are (for the bar)."""

if TYPE_CHECKING:
    from ray import ObjectRef

_Result: TypeAlias = "tuple[Literal['done'], Outcome, bytes] | tuple[Literal['failed'], str]"
"""What :meth:`ModelWorker.run` returns: the outcome and the output's bytes, or one line on why not."""

_T = TypeVar("_T")


class _ActorMethod(Protocol[_T]):
    """A method of an actor, called through Ray: ``.remote(...)`` returns a reference to its result."""

    def remote(self, *args: object) -> ObjectRef[_T]: ...

    def options(self, **options: object) -> _ActorMethod[_T]: ...


class _Actor(Protocol):
    """A handle to a :class:`ModelWorker` actor (Ray types a handle's methods as unknown)."""

    @property
    def run(self) -> _ActorMethod[_Result]: ...

    @property
    def describe(self) -> _ActorMethod[str]: ...

    @property
    def progress(self) -> _ActorMethod[tuple[str, float]]: ...


class ModelWorker:
    """A Ray actor holding one loaded model (made remote in :func:`run_ray`)."""

    def __init__(self, job: Job, threads: int, gpu: bool) -> None:
        if gpu and job.device == "auto":
            job.device = "cuda"
        job.load(threads)
        self.job = job
        self.now: tuple[str, float] = ("", 0.0)  # the file being run, and how far it is

    def describe(self) -> str:
        return self.job.describe()

    def progress(self) -> tuple[str, float]:
        """The file being run and the fraction done; called on its own thread while run() works
        (the actor's "progress" concurrency group)."""
        return self.now

    def run(self, source: str, name: str) -> _Result:
        """("done", Outcome, output bytes) or ("failed", one line)."""
        def report(fraction: float) -> None:
            self.now = (source, fraction)

        report(0.0)
        with tempfile.TemporaryDirectory(prefix="stet-") as tmp:
            out = Path(tmp) / name
            try:
                outcome = self.job.run(Path(source), out, report)
                return ("done", outcome, out.read_bytes())
            except Exception as err:  # noqa: BLE001 — the file's failure, not the worker's
                return ("failed", describe_failure(Path(source), err))


def _import_ray() -> ModuleType:
    try:
        import ray
    except ImportError:
        raise UserError("--ray needs Ray: pip install 'stet-editor[cluster]' (or pip install ray) "
                        "on this machine and on every node") from None
    module: ModuleType = ray  # used through its names, which Ray types loosely or not at all
    return module


def _connect(ray: ModuleType, address: str, cpus: int | None) -> None:
    options = dict(logging_level=logging.ERROR, log_to_driver=False, include_dashboard=False)
    try:
        if address == "local":
            # a throwaway cluster on this machine, gone when the batch ends
            ray.init(num_cpus=cpus, _node_ip_address="127.0.0.1",
                     runtime_env={"env_vars": _worker_env()}, **options)
        else:
            ray.init(address=address, **{k: v for k, v in options.items() if k != "include_dashboard"})
    except (ConnectionError, ValueError, RuntimeError) as err:
        raise UserError(f"--ray {address}: cannot connect to the Ray cluster ({' '.join(str(err).split())})") from None


def _worker_env() -> dict[str, str]:
    """What a local cluster's workers need to import this very copy of Stet, threads settled."""
    import editor

    root = str(Path(editor.__file__).resolve().parent.parent)
    path = os.environ.get("PYTHONPATH", "")
    return {"PYTHONPATH": os.pathsep.join(filter(None, [root, path])), "OMP_WAIT_POLICY": "PASSIVE"}


def run_ray(job: Job, items: Sequence[Item], tracker: BatchProgress, *, address: str,
            workers: int | None = None) -> str:
    """Run every item on the cluster at ``address`` ("local": a throwaway one here). Returns what
    the actors hold (the model's name); raises UserError when they cannot load it."""
    ray = _import_ray()
    _connect(ray, address, workers)
    try:
        actors = _start_actors(ray, job, len(items), workers)
        try:
            names: list[str] = ray.get([a.describe.remote() for a in actors])
        except ray.exceptions.RayActorError as err:
            raise UserError(_actor_failure(err)) from None
        tracker.ready(len(actors))
        _RayRun(ray, items, tracker, actors).run()
        return names[0] if names else ""
    finally:
        ray.shutdown()


def _start_actors(ray: ModuleType, job: Job, files: int, workers: int | None) -> list[_Actor]:
    """One actor a GPU (when the job may use one) or a CPU, or ``workers``, never more than files."""
    resources = ray.cluster_resources()
    gpus = int(resources.get("GPU", 0))
    cpus = max(1, int(resources.get("CPU", 1)))
    use_gpu = gpus > 0 and job.device in ("auto", "cuda")
    count = min(workers or (gpus if use_gpu else cpus), files)
    actor_class = ray.remote(concurrency_groups={"progress": 1})(ModelWorker).options(
        num_cpus=0 if use_gpu else 1, num_gpus=1 if use_gpu else 0, max_restarts=ATTEMPTS)
    return [actor_class.remote(job, 1, use_gpu) for _ in range(count)]


class _RayRun:
    """Files handed to actors a few at a time, largest first; a lost actor's file tried again
    elsewhere (up to ``ATTEMPTS`` times), the actor probed until it is back or gone for good."""

    def __init__(self, ray: ModuleType, items: Sequence[Item], tracker: BatchProgress, actors: list[_Actor]) -> None:
        self.ray, self.items, self.tracker = ray, items, tracker
        self.actors = actors
        self.queue = sorted(range(len(items)), key=lambda i: -items[i].size)[::-1]
        self.pending: dict[ObjectRef[_Result], tuple[_Actor, int]] = {}  # a file's task -> (actor, file)
        # a lost actor's describe() call -> the actor: it takes files again once back
        self.probes: dict[ObjectRef[str], _Actor] = {}
        self.polls: dict[ObjectRef[tuple[str, float]], _Actor] = {}  # a busy actor's progress() call -> the actor
        self.by_source = {str(item.source): index for index, item in enumerate(items)}
        self.last_poll = time.monotonic()
        self.live = list(actors)  # actors that have not used up their restarts
        self.attempts = {i: 0 for i in range(len(items))}
        self.lost = (ray.exceptions.RayActorError, ray.exceptions.WorkerCrashedError,
                     ray.exceptions.NodeDiedError, ray.exceptions.ObjectLostError)

    def run(self) -> None:
        for actor in self.actors:
            self.fill(actor)
        while self.pending or (self.probes and self.queue):
            self.ask_progress()
            done, _ = self.ray.wait(list(self.pending) + list(self.probes) + list(self.polls), num_returns=1,
                                    timeout=0.5)
            for ref in done:
                if ref in self.polls:
                    self.progress_came(ref)
                elif ref in self.probes:
                    self.probe_came(ref)
                else:
                    self.file_came(ref)
            if self.queue and not self.pending and not self.probes:  # nothing in flight: the live actors take the rest
                for actor in self.live:
                    self.fill(actor)
            if not self.live and self.queue:  # every actor gone for good: what is left cannot run
                for index in self.queue:
                    self.tracker.failed(index, "not run: every worker on the cluster was lost")
                self.queue.clear()

    def load_of(self, actor: _Actor) -> int:
        return sum(1 for a, _ in self.pending.values() if a is actor)

    def submit(self, actor: _Actor) -> None:
        if self.queue:
            index = self.queue.pop()
            self.attempts[index] += 1
            ref = actor.run.remote(str(self.items[index].source), self.items[index].output.name)
            self.pending[ref] = (actor, index)
            self.tracker.started(index)

    def fill(self, actor: _Actor) -> None:
        while self.queue and self.load_of(actor) < IN_FLIGHT:
            self.submit(actor)

    def retry(self, index: int, why: str, avoid: _Actor) -> None:
        if self.attempts[index] < ATTEMPTS and self.live:
            self.tracker.retrying(index, why, self.attempts[index] + 1, ATTEMPTS)
            self.queue.append(index)
            working = [a for a in self.live if a is not avoid and a not in self.probes.values()]
            if working:  # on an actor that works; a restarting one gets files when it is back
                self.submit(min(working, key=self.load_of))
        else:
            self.tracker.failed(index, f"{why}; gave up after {self.attempts[index]} tries")

    def ask_progress(self) -> None:
        """Every ``PROGRESS_EVERY`` seconds, ask each busy actor how far its file is."""
        if self.polls or time.monotonic() - self.last_poll < PROGRESS_EVERY:
            return
        self.last_poll = time.monotonic()
        for actor in {a for a, _ in self.pending.values() if a not in self.probes.values()}:
            self.polls[actor.progress.options(concurrency_group="progress").remote()] = actor

    def progress_came(self, ref: ObjectRef[tuple[str, float]]) -> None:
        del self.polls[ref]
        try:
            source: str
            fraction: float
            source, fraction = self.ray.get(ref)
        except self.lost:  # its loss is seen through its file
            return
        if source in self.by_source:
            self.tracker.progress(self.by_source[source], fraction)

    def probe_came(self, ref: ObjectRef[str]) -> None:
        actor = self.probes.pop(ref)
        try:
            self.ray.get(ref)
        except self.ray.exceptions.ActorDiedError:  # its restarts are used up
            self.live.remove(actor)
        except self.lost:  # still restarting: asked again
            self.probes[actor.describe.remote()] = actor
        else:
            self.fill(actor)

    def file_came(self, ref: ObjectRef[_Result]) -> None:
        """A file's task ended: its output written here, or its failure told, or tried again."""
        from editor.core.formats import atomic_write

        actor, index = self.pending.pop(ref)
        item = self.items[index]
        try:
            result: _Result = self.ray.get(ref)
        except self.lost as err:
            if actor in self.live and actor not in self.probes.values():
                self.probes[actor.describe.remote()] = actor  # restarted, and the model loaded?
            self.retry(index, f"its worker was lost ({type(err).__name__})", actor)
            return
        if result[0] == "failed":
            self.tracker.failed(index, result[1])
        else:
            try:
                item.output.parent.mkdir(parents=True, exist_ok=True)
                atomic_write(item.output, result[2])
            except (OSError, UserError) as err:
                self.tracker.failed(index, describe_failure(item.source, err))
            else:
                self.tracker.finished_ok(index, result[1])
        self.fill(actor)


def _actor_failure(err: BaseException) -> str:
    cause = getattr(err, "cause", None) or err
    text = str(getattr(cause, "args", [None])[0] or cause) if isinstance(cause, UserError) else str(cause)
    lines = [line for line in text.splitlines() if line.strip()]
    last = lines[-1] if lines else "unknown error"
    return f"the model workers on the cluster could not start: {last.strip()}"
