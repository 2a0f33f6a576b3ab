"""Saving the project (.stet) without freezing the window.

A save takes the document as it stands on the UI thread in milliseconds (a ``DocumentTracker``
capture, as an autosave does: after the first save only the suggestions that changed) and hands
it to a thread of its own, where ``editor.core.project_writer`` builds the JSON, finds the forms
the person wrote and writes the file atomically. The person goes on editing meanwhile: what they
change after the capture is not in that save, and the document stays modified for it.

One save runs at a time. A save asked for while one runs waits for it (the same file asked twice
in a row is one save, taken when it starts, so it holds every change up to then), and one asked
for during an accept-all or an undo of one (a slice per turn) starts when that step has ended, so
that it never writes half of it. ``wait()`` finishes what runs and waits, on the calling thread,
for closing the window, opening another file and scripts.

``ProjectSaver`` knows only the window's ``transcript``, ``source``, ``learning``, ``bulk_running``,
``finish_bulk()``, ``bulk_finished`` and ``transcript_opened`` (a document replaced is let go);
what a save means for the session (clean or still
modified, the status bar, learning) is the window's, told by ``written`` and ``failed``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QObject, Signal, SignalInstance

from editor.core import process
from editor.core.document.transcript import Transcript
from editor.core.project_writer import ExtraFor, ProjectWriter, WrittenProject
from editor.core.recovery.slots import DocumentTracker, RecoveryState
from editor.gui.base.background import BackgroundOp


@dataclass(eq=False)
class SaveJob:
    """One save: what was captured, and (once ``done``) what was written or why not."""

    target: Path
    doc: Transcript
    revision: int  # the document's revision when captured
    point: Any  # its history's checkpoint then (``History.mark_clean_at``)
    done: threading.Event = field(default_factory=threading.Event)
    result: WrittenProject | None = None
    error: BaseException | None = None
    reported: bool = False


class SaverHost(Protocol):
    """What ``ProjectSaver`` uses of its window (``MainWindow``)."""

    bulk_finished: SignalInstance  # an accept-all, undo or redo carried out completely
    transcript_opened: SignalInstance

    @property
    def bulk_running(self) -> bool: ...
    def finish_bulk(self) -> None: ...
    @property
    def transcript(self) -> Transcript: ...
    @property
    def source(self) -> Path | None: ...
    @property
    def learning(self) -> LearningRecorder: ...


class LearningRecorder(Protocol):
    """What a save asks of learning: the project's learning record, as it is written."""

    def recorder(self, transcript: Transcript) -> ExtraFor: ...


class ProjectSaver(QObject):
    """The window's saves, one at a time, written off the UI thread."""

    started = Signal(object)  # SaveJob: captured, being written
    written = Signal(object)  # SaveJob with its result
    failed = Signal(object)  # SaveJob with its error

    def __init__(self, window: SaverHost, parent: QObject, *, give_way: Callable[[], float] | None = None) -> None:
        super().__init__(parent)
        self._window = window
        self._give_way = give_way  # the window's turns: the encoding rests while one runs
        self._job: SaveJob | None = None
        self._queue: list[Path] = []
        self._tracker: DocumentTracker | None = None
        self._writer: ProjectWriter | None = None
        self.last_capture_s = 0.0  # how long the last capture held the UI thread
        self.last_job: SaveJob | None = None  # the last save done (written or not)
        window.bulk_finished.connect(self._next)
        window.transcript_opened.connect(self._opened)

    @property
    def running(self) -> bool:
        """A save is being written or waits to be."""
        return self._job is not None or bool(self._queue)

    @property
    def last_target(self) -> Path | None:
        """The file the latest save asked for goes to (None when none runs or waits)."""
        if self._queue:
            return self._queue[-1]
        return self._job.target if self._job is not None else None

    def save(self, target: Path) -> None:
        """Save the document to ``target`` now, or after the save under way."""
        if not (self._queue and self._queue[-1] == target):  # twice in a row: once, taken later
            self._queue.append(target)
        self._next()

    def wait(self, timeout: float | None = None) -> bool:
        """Finish the save under way and those waiting, on this thread (an accept-all under way
        is finished first). False when ``timeout`` seconds passed before."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.running:
            job = self._job
            if job is None:
                if self._window.bulk_running:
                    self._window.finish_bulk()
                self._next()
                continue
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not job.done.wait(left):
                return False
            self._finish(job)
        return True

    def close(self) -> None:
        """The window goes: stop following its document (call after ``wait``)."""
        if self._tracker is not None:
            self._tracker.close()
            self._tracker = None

    def _opened(self, doc: Transcript) -> None:
        if self._tracker is not None and self._tracker.doc is not doc:
            self._reset()  # the document replaced is not held on to

    # -- one save ----------------------------------------------------------------------------------
    def _next(self) -> None:
        if self._job is not None or not self._queue or self._window.bulk_running:
            return  # (after a bulk step, ``bulk_finished`` comes back here)
        self._start(self._queue.pop(0))

    def _start(self, target: Path) -> None:
        window = self._window
        began = time.perf_counter()
        doc: Transcript = window.transcript
        if self._tracker is None or self._tracker.doc is not doc:  # another document: all of it
            self._reset()
            self._tracker = DocumentTracker(doc)
        writer = self._writer = self._writer or ProjectWriter(self._give_way)
        state: RecoveryState = self._tracker.capture(source=window.source, project=target)
        extra: ExtraFor | None = window.learning.recorder(doc)
        job = self._job = SaveJob(target, doc, doc.revision, doc.history.checkpoint())
        self.last_capture_s = time.perf_counter() - began

        def write(_report: Callable[[Any], None]) -> None:
            try:
                job.result = writer.write(state, target, extra=extra)
            except BaseException as err:  # noqa: BLE001 — said on the UI thread, never lost
                job.error = err
            finally:
                job.done.set()

        self.started.emit(job)
        # a thread of its own: the shared pool may be busy restoring, and a save must not wait
        BackgroundOp(self, write).success(partial(self._finished, job)).run(own_thread=True)

    def _finished(self, job: SaveJob, _result: object = None) -> None:
        self._finish(job)

    def _finish(self, job: SaveJob) -> None:
        if job.reported:  # (``wait`` reported it before the thread's word came)
            return
        job.reported = True
        self.last_job = job
        if self._job is job:
            self._job = None
        try:
            if job.error is not None:
                self._reset()  # the next save captures and encodes everything again
                self.failed.emit(job)
            else:
                # what the save kept (its encoded runs, a long transcript's new suggestions)
                # stays out of the full collections that the learning after it would set off
                process.freeze_survivors()
                self.written.emit(job)
                # the records written, let go while the document still holds them: kept in
                # ``last_job`` until the next save, a replaced document's were freed then, at
                # once on the UI thread (~30 ms at 100,000 words)
                if job.result is not None:
                    job.result = replace(job.result, tokens=(), suggestions=())
        finally:
            self._next()

    def _reset(self) -> None:
        if self._tracker is not None:
            self._tracker.close()
        self._tracker, self._writer = None, None


__all__ = ["ProjectSaver", "SaveJob"]
