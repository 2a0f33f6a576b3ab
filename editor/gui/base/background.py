"""Run work off the UI thread and get its result, failure and progress back on the UI thread.

``BackgroundOp(parent, fn).success(cb).failure(cb).progress(cb).run()`` — ``fn(report)`` runs on a
pool thread and never touches a widget; it may call ``report(payload)`` (a frozen dataclass) any
number of times. Callbacks run on the UI thread, after ``parent`` is checked to be still alive.

The relay that carries results to the UI thread is not a child of ``parent``: a child dies with
its parent at any moment (a window closed while the work runs), and a pool thread emitting on it
then can jump into freed memory (a segfault in "Thread (pooled)", seen once in the test suite).
The relay lives until the operation has reported, and is deleted on the UI thread after that.

A QThreadPool runnable rather than a ``moveToThread`` worker: every operation here is one function
call, and the pool owns the thread's lifetime, so there is no start/quit/deleteLater wiring to get
wrong.
"""

from __future__ import annotations

import logging
import threading
import traceback
from collections.abc import Callable
from typing import Any, ClassVar

import shiboken6
from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

log = logging.getLogger(__name__)


class _Relay(QObject):
    """Lives on the UI thread; signals emitted from the pool thread arrive there queued.

    Payloads travel wrapped in a 1-tuple: a bare ``None`` through a queued ``object`` signal
    upsets PySide6's reference counting (a crash at exit).
    """

    succeeded = Signal(object)
    failed = Signal(object)
    progressed = Signal(object)


class _Runnable(QRunnable):
    def __init__(self, fn: Callable[[Callable[[Any], None]], Any], relay: _Relay) -> None:
        super().__init__()
        self.setAutoDelete(True)
        self._fn, self._relay = fn, relay

    def run(self) -> None:
        try:
            result = self._fn(self._emit_progress)
        except BaseException as err:  # noqa: BLE001 — reported on the UI thread
            err.__stet_traceback__ = traceback.format_exc()  # type: ignore[attr-defined]
            self._emit("failed", err)
        else:
            self._emit("succeeded", result)

    def _emit_progress(self, payload: Any) -> None:
        self._emit("progressed", payload)

    def _emit(self, name: str, payload: Any) -> None:
        # the relay dies with its parent (a window closed while the work ran): then nobody is
        # left to tell, and the result is dropped
        try:
            getattr(self._relay, name).emit((payload,))
        except RuntimeError:
            log.debug("background result dropped: its receiver is gone")


class BackgroundOp:
    """One function run on the shared thread pool, with callbacks on the UI thread."""

    _running: ClassVar[set[BackgroundOp]] = set()  # keeps each op alive until it has reported

    def __init__(self, parent: QObject, fn: Callable[[Callable[[Any], None]], Any]) -> None:
        self._parent = parent
        self._fn = fn
        self._on_success: Callable[[Any], None] | None = None
        self._on_failure: Callable[[BaseException], None] | None = None
        self._on_progress: Callable[[Any], None] | None = None
        self._relay: _Relay | None = None
        self.done = False

    def success(self, cb: Callable[[Any], None]) -> BackgroundOp:
        self._on_success = cb
        return self

    def failure(self, cb: Callable[[BaseException], None]) -> BackgroundOp:
        self._on_failure = cb
        return self

    def progress(self, cb: Callable[[Any], None]) -> BackgroundOp:
        self._on_progress = cb
        return self

    def run(self, *, own_thread: bool = False) -> BackgroundOp:
        """Start it. ``own_thread``: on a daemon thread of its own rather than the shared pool,
        for work that may block without end (reading a FIFO or a stalled network file) and must
        not take a pool thread from the rest."""
        relay = self._relay = _Relay()  # no parent: see the module's docstring
        relay.succeeded.connect(self._succeeded)
        relay.failed.connect(self._failed)
        relay.progressed.connect(self._progressed)
        BackgroundOp._running.add(self)
        runnable = _Runnable(self._fn, relay)
        if own_thread:
            runnable.setAutoDelete(False)
            threading.Thread(target=runnable.run, name="stet-background", daemon=True).start()
        else:
            QThreadPool.globalInstance().start(runnable)
        return self

    def _finish(self) -> None:
        self.done = True
        BackgroundOp._running.discard(self)
        if self._relay is not None:
            self._relay.deleteLater()
            self._relay = None

    def _parent_alive(self) -> bool:
        if shiboken6.isValid(self._parent):
            return True
        log.debug("background result dropped: its receiver is gone")
        return False

    def _succeeded(self, wrapped: tuple[Any]) -> None:
        (result,) = wrapped
        self._finish()
        if self._on_success is not None and self._parent_alive():
            self._on_success(result)

    def _failed(self, wrapped: tuple[BaseException]) -> None:
        (err,) = wrapped
        self._finish()
        if not self._parent_alive():
            return
        if self._on_failure is not None:
            self._on_failure(err)
        else:
            log.error("background operation failed:\n%s", getattr(err, "__stet_traceback__", err))

    def _progressed(self, wrapped: tuple[Any]) -> None:
        (payload,) = wrapped
        if self._on_progress is not None and not self.done and self._parent_alive():
            self._on_progress(payload)
