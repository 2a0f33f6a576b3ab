"""Restoration passes in a spawned worker process: the model is loaded and `run_pass` runs there,
and each region's suggestions come back over a pipe as plain values.

Why a process: in the window's process, ``import torch`` (1.4 s) holds the interpreter in pieces
of 200-500 ms (the dynamic loader reading libtorch, which no thread can give way inside), and a
pass's Python (the suggestions built for each region) competes with the window's thread for it.
In a worker process neither does; the window's process never imports torch. What crosses the pipe
is columns of plain values (the words' fields; each suggestion's fields), which pickle at C speed:
pickling the frozen records themselves runs Python for each (0.6 s for 100,000 tokens).

A save's learning asks the worker for what it takes from the model (``model_lessons``: the
marginals of the reviewed words, the model's common and plain words) rather than loading the model a second
time in the window's process.

One pass at a time; a pass asked for while another runs waits for it (a cancelled one stops at
its next region). The process starts at first use, keeps the models it loaded, and stops with
``close`` or with the process that started it (it is a daemon). Spawned, never forked (torch holds
threads); a frozen build re-enters ``editor.__main__``, which calls ``freeze_support``.

The worker runs at a lower scheduling priority than the window (``WORKER_NICE``): when the
window's thread and the pass want the same core, the window gets it, and the pass takes what the
window leaves (see docs/architecture.md, "Threads and processes").
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import pickle
import queue
import signal
import threading
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Any

from editor.core.document.transcript import Kind, State, Suggestion, Token, WordsSnapshot
from editor.core.errors import UserError
from editor.restore.passes.pipeline import (NothingToRestore, NotTheLanguage, PassOutcome, PassSettings, PassSource,
                                     RestoredRegion)
from editor.restore.passes.prediction import Cancelled

if TYPE_CHECKING:
    import numpy as np

    from editor.restore.learning.learned_store import MarginalRead

log = logging.getLogger(__name__)

_POLL = 0.05  # seconds the parent waits on the pipe before it looks at the cancel flag again
#: Words sent to the worker per message: the parent's thread holds the interpreter while it takes
#: and pickles them (100,000 words at once held it 120 ms; 5,000 words 1-2 ms, in which the UI
#: thread, wanting it back after every Qt call, waited for it as a file opened), and gives way
#: between.
_SEND_WORDS = 2_000
_TOKEN_FIELDS = ("word", "surface", "punct", "start", "end", "confidence", "speaker", "id")
_SUGGESTION_FIELDS = ("token_id", "kind", "value", "probs", "state", "original", "source", "needs_start")
#: How much lower the worker's scheduling priority is than the process that starts it (``os.nice``;
#: Linux and macOS, where a niceness of 10 weighs about a tenth of the window's thread when both
#: want one core). Without it, the UI thread waited for a core 24-40 ms in its longest gap while
#: a window restored (docs/performance.md).
WORKER_NICE = 10
_FAILURES: dict[str, type[Exception]] = {
    "cancelled": Cancelled, "language": NotTheLanguage, "nothing": NothingToRestore, "user": UserError}


class WorkerStopped(RuntimeError):
    """The worker process stopped during a pass (or was closed)."""


class WorkerUnavailable(WorkerStopped):
    """The worker process could not start."""


@dataclass(frozen=True, slots=True)
class Loaded:
    """The worker has the model loaded (what a window shows while it is not: "loading")."""

    name: str


# -- the values that cross the pipe ------------------------------------------------------------
def _token_columns(tokens: tuple[Token, ...]) -> tuple[tuple[Any, ...], ...]:
    from operator import attrgetter

    return tuple(tuple(map(attrgetter(name), tokens)) for name in _TOKEN_FIELDS)


def _tokens(columns: tuple[tuple[Any, ...], ...]) -> tuple[Token, ...]:
    return tuple(_record(Token, _TOKEN_FIELDS, row) for row in zip(*columns))


def _record(cls: Any, names: tuple[str, ...], values: tuple[Any, ...]) -> Any:
    """A frozen record of ``cls`` with these field values, as they were (checked where it was made)."""
    new = object.__new__(cls)
    for name, value in zip(names, values):
        object.__setattr__(new, name, value)
    return new


def _pack_region(region: RestoredRegion) -> tuple[Any, ...]:
    rows = tuple((s.token_id, s.kind.value, s.value, dict(s.probs), s.state.value, s.original, s.source,
                  s.needs_start) for s in region.suggestions)
    return (region.revision, region.start, region.ids, rows, region.proposed)


def _unpack_region(packed: tuple[Any, ...]) -> RestoredRegion:
    revision, start, ids, rows, proposed = packed
    made = tuple(_record(Suggestion, _SUGGESTION_FIELDS, (t, Kind(k), v, p, State(st), o, src, ns))
                 for t, k, v, p, st, o, src, ns in rows)
    return RestoredRegion(revision, start, ids, made, proposed)


# -- the worker's side -------------------------------------------------------------------------
def _serve(conn: Connection, threads: int | None) -> None:
    """The worker process: load models and run passes as asked, until told to stop (None) or the
    parent is gone. A reader thread takes the requests, so that a cancel reaches a running pass."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C in a terminal: the parent decides
    _lower_priority()
    from editor.core.threads import configure_threads

    configure_threads(threads=threads)
    from editor.restore.passes.pipeline import restorer_for

    inbox: queue.SimpleQueue[tuple[Any, ...] | None] = queue.SimpleQueue()
    cancelled: set[int] = set()
    running: list[tuple[int, threading.Event]] = []
    lock = threading.Lock()

    def read() -> None:
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                message = None
            if message is None:
                inbox.put(None)
                return
            if message[0] == "cancel":
                with lock:
                    cancelled.add(message[1])
                    for pass_id, event in running:
                        if pass_id == message[1]:
                            event.set()
            elif message[0] == "pass":  # its words follow, a message for each part
                parts = []
                for _ in range(message[4]):
                    try:
                        part = conn.recv()
                    except (EOFError, OSError):
                        inbox.put(None)
                        return
                    parts.append(part[2])
                columns = tuple(tuple(v for part in parts for v in part[k]) for k in range(len(_TOKEN_FIELDS)))
                inbox.put((*message[:4], columns, *message[5:]))
            else:
                inbox.put(message)

    threading.Thread(target=read, name="stet-restore-requests", daemon=True).start()
    while (message := inbox.get()) is not None:
        what, pass_id, model, device = message[:4]
        cancel = threading.Event()
        with lock:
            running[:] = [(pass_id, cancel)]
            if pass_id in cancelled:
                cancel.set()
        try:
            found = restorer_for(model, device)  # (loaded once: the process's models are kept)
            _send(conn, ("loaded", pass_id, found.name))
            if what == "pass":
                outcome = _run(found, pass_id, message[4:], cancel, conn)
                _send(conn, ("done", pass_id, outcome.model_name, outcome.words, outcome.notes))
            elif what == "lessons":
                from editor.restore.learning.learned_store import model_lessons

                _send(conn, ("answer", pass_id, model_lessons(found, message[4])))
        except Exception as err:  # noqa: BLE001 - every failure is the parent's to report
            kind = next((k for k, cls in _FAILURES.items() if isinstance(err, cls)), "error")
            text = str(err) if kind != "error" else f"{type(err).__name__}: {err}"
            _send(conn, ("failed", pass_id, kind, text))
        finally:
            with lock:
                running.clear()
                cancelled.discard(pass_id)
    conn.close()


def _lower_priority() -> None:
    """This process yields a core to the window (``WORKER_NICE``). Where the system has no
    niceness (Windows) or refuses it, the worker runs at the window's priority, as before."""
    nice = getattr(os, "nice", None)
    if nice is None:
        return
    try:
        nice(WORKER_NICE)
    except OSError as err:
        log.info("the restoration worker keeps the window's priority: %s", err)


def _run(restorer: Any, pass_id: int, request: tuple[Any, ...], cancel: threading.Event,
         conn: Connection) -> PassOutcome:
    from editor.restore.passes.pipeline import run_pass

    columns, revision, paragraph_starts, extra, language, marks, settings, priority, only = request
    tokens = _tokens(columns)
    snapshot = WordsSnapshot(revision, 0, columns[_TOKEN_FIELDS.index("id")],
                             columns[_TOKEN_FIELDS.index("word")], paragraph_starts)
    source = PassSource(tokens, lambda: snapshot, extra, language, marks)
    return run_pass(restorer, source, settings, cancel=cancel, priority=priority, only=only,
                    on_region=lambda region: _send(conn, ("region", pass_id, _pack_region(region))),
                    on_note=lambda text: _send(conn, ("note", pass_id, text)))


def _send(conn: Connection, message: tuple[Any, ...]) -> None:
    try:
        conn.send(message)
    except (OSError, EOFError):
        pass  # the parent is gone: the reader sees it and the loop ends


# -- the parent's side -------------------------------------------------------------------------
class PassProcess:
    """The worker process a window restores in (see the module's note). Its methods run on a
    background thread of the parent, one at a time."""

    def __init__(self, threads: int | None = None) -> None:
        self._threads = threads  # the worker's compute threads (None: configure_threads decides)
        self._lock = threading.Lock()
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None
        self._pass_id = 0
        self._closed = False

    def _started(self) -> Connection:
        if self._closed:
            raise WorkerStopped("the restoration worker was closed")
        if self._process is not None and self._process.is_alive() and self._conn is not None:
            return self._conn
        self._stop()
        ctx = multiprocessing.get_context("spawn")
        parent, child = ctx.Pipe(duplex=True)
        process = ctx.Process(target=_serve, args=(child, self._threads), name="stet-restore", daemon=True)
        try:
            process.start()
        except (OSError, RuntimeError) as err:
            parent.close()
            child.close()
            raise WorkerUnavailable(f"the restoration worker could not start: {err}") from err
        child.close()  # so that the parent's reads see EOF once the worker is gone
        self._process, self._conn = process, parent
        return parent

    def load(self, model: str | None, device: str) -> Loaded:
        """Start the worker and load ``model`` there (a window's warm-up); returns when loaded."""
        found: list[Loaded] = []
        self._exchange(("load", model, device), None, on_loaded=found.append)
        return found[-1]

    def model_lessons(self, model: str | None, device: str,
                      reads: Sequence[MarginalRead]) -> tuple[list[np.ndarray], frozenset[str], frozenset[str]]:
        """`editor.restore.learning.learned_store.model_lessons` with ``model`` on ``device``, in the worker
        (what a save's learning takes from the model); waits for a pass under way. Raises what
        loading the model raises (`UserError`; another failure as a RuntimeError), and
        `WorkerStopped` when the worker dies."""
        found: tuple[list[np.ndarray], frozenset[str], frozenset[str]] = self._exchange(("lessons", model, device, list(reads)), None)
        return found

    def run_pass(self, model: str | None, device: str, source: PassSource,
                 settings: PassSettings, *,
                 on_region: Callable[[RestoredRegion], None] | None = None,
                 on_note: Callable[[str], None] | None = None,
                 on_loaded: Callable[[Loaded], None] | None = None,
                 cancel: threading.Event | None = None, pause: Callable[[], object] | None = None,
                 priority: tuple[int, int] | None = None, only: Collection[int] | None = None) -> PassOutcome:
        """`editor.restore.passes.pipeline.run_pass` with ``model`` on ``device``, in the worker. ``pause``
        is called before each message from the worker is unpickled (the window's turn first);
        ``on_loaded`` once the worker has the model. Raises what `run_pass` raises (`Cancelled`,
        `NotTheLanguage`, `NothingToRestore`, `UserError`), and `WorkerStopped` when the worker
        dies."""
        tokens = source.tokens
        parts = [tokens[i:i + _SEND_WORDS] for i in range(0, len(tokens), _SEND_WORDS)]
        snapshot = source.snapshot()
        request = ("pass", model, device, len(parts), snapshot.revision, snapshot.paragraph_starts,
                   dict(source.extra), source.language, dict(source.marks), settings, priority,
                   None if only is None else sorted(only))

        def words(pass_id: int) -> Iterator[tuple[Any, ...]]:
            for part in parts:
                if pause is not None:
                    pause()
                yield ("words", pass_id, _token_columns(part))

        outcome: PassOutcome = self._exchange(request, words, on_region=on_region, on_note=on_note,
                                              on_loaded=on_loaded, cancel=cancel, pause=pause)
        return outcome

    def _exchange(self, request: tuple[Any, ...], then: Callable[[int], Iterator[tuple[Any, ...]]] | None, *,
                  on_region: Callable[[RestoredRegion], None] | None = None,
                  on_note: Callable[[str], None] | None = None,
                  on_loaded: Callable[[Loaded], None] | None = None,
                  cancel: threading.Event | None = None, pause: Callable[[], object] | None = None) -> Any:
        with self._lock:
            conn = self._started()
            self._pass_id += 1
            pass_id = self._pass_id
            try:
                conn.send((request[0], pass_id, *request[1:]))
                for message in then(pass_id) if then is not None else ():
                    conn.send(message)
            except (OSError, EOFError) as err:
                raise self._died() from err
            told = False
            while True:
                if cancel is not None and cancel.is_set() and not told:
                    told = True
                    try:
                        conn.send(("cancel", pass_id))
                    except (OSError, EOFError) as err:
                        raise self._died() from err
                try:
                    if not conn.poll(_POLL):
                        continue
                    data = conn.recv_bytes()
                except (OSError, EOFError) as err:
                    raise self._died() from err
                if pause is not None:  # unpickling is Python: the window may want its turn
                    pause()
                message = pickle.loads(data)
                what, got = message[0], message[1]
                if got != pass_id:
                    continue  # (an earlier exchange's last words: it was given up)
                if what == "region":
                    if on_region is not None:
                        on_region(_unpack_region(message[2]))
                elif what == "note":
                    if on_note is not None:
                        on_note(message[2])
                elif what == "loaded":
                    if on_loaded is not None:
                        on_loaded(Loaded(message[2]))
                    if request[0] == "load":
                        return None
                elif what == "answer":
                    return message[2]
                elif what == "done":
                    return PassOutcome(message[2], message[3], tuple(message[4]))
                elif what == "failed":
                    raise _FAILURES.get(message[2], RuntimeError)(message[3])

    def _died(self) -> WorkerStopped:
        process = self._process
        code = None
        if process is not None:
            process.join(1)
            code = process.exitcode
        self._stop()
        return WorkerStopped(f"the restoration worker stopped (exit status {code})")

    def _stop(self) -> None:
        conn, process = self._conn, self._process
        self._conn = self._process = None
        if conn is not None:
            try:
                conn.send(None)
            except (OSError, EOFError):
                pass
            conn.close()
        if process is not None:
            process.join(0.5)
            if process.is_alive():
                process.terminate()  # a model still loading cannot be stopped any other way
                process.join(1)

    def close(self) -> None:
        """Stop the worker (a pass under way ends as failed). Later passes are refused."""
        self._closed = True
        self._stop()

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.is_alive()

