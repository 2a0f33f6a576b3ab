"""Restoration passes for the window: the pass (editor.restore.passes.pipeline.run_pass, the one `stet
restore` runs) goes on a pool thread, its regions of suggestions come back frozen, and the UI thread
puts them into the document a slice at a time so it never stalls.

A pass over a document is one undo step (``merge_id``). Regions restored from words that have since
been edited are dropped (``words_revision`` check) and the pass is run again when it ends.

A pass ``only_pending`` (Review > Re-suggest with what Stet learned) reads the whole document for
context but changes only the suggestions still pending (the policy is editor.restore.PassApplier's,
which also places the proposed paragraph breaks again, as `stet restore` and a batch do); a word the
person decided on or typed is never touched, nor a proposal that repeats their own choice elsewhere
("from your choice"). Nor does any other pass take such a proposal away: it stays, and the pass's
proposal is what turning it down gives back (``editor.core.review.repeat_choices.keep_choices``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from editor.core.commas import COMMA_STYLES, DEFAULT_COMMAS
from editor.core.document.transcript import Transcript
from editor.gui.base.background import BackgroundOp
from editor.gui.base.turns import WindowTurns
from editor.restore import WORDS_AROUND, PassApplier, PassOutcome, PassSettings, PassSource, RestoredRegion, run_pass

if TYPE_CHECKING:
    import numpy as np

    from editor.restore import Restorer
    from editor.restore import MarginalRead
    from editor.restore import PassProcess

log = logging.getLogger(__name__)

_SLICE_SECONDS = 0.006  # UI time to spend on results per slice (suggestions, undo record, redraw)
# Between slices the event loop paints and takes input. A slice waits the short gap while the
# loop has nothing else to do (its timer comes on time), and the long one once other work made it
# late (typing, scrolling, painting): it is then given most of the thread. With a 15 ms gap
# always, 100,000 words of results waited 10-19 s between 6 ms slices with the window idle, 2-3
# times what the slices themselves took (tests/perf/bench_restore_time.py).
_SLICE_GAP_MS = 15  # when the window is busy
_IDLE_GAP_MS = 1  # when it is idle
_LATE_SECONDS = 0.003  # a timer this late means the loop had other work in the gap


class Restorers:
    """Where a window's passes run, and the restorers they use: each model directory (None: the
    shipped one) on each device loaded once in the process (editor.restore.restorer_for),
    shared by its restorations and its learning.

    ``in_worker``: passes run in a worker process (editor.restore.passes.pass_process), where the model
    is loaded too, so that neither loading it (importing torch) nor a pass's Python holds the
    interpreter the window's thread needs. Where the worker cannot start, passes run on the
    calling thread (a pool thread) as they do without it; a worker that stops during a pass fails
    that pass, and the next one starts another. A save's learning asks the worker too
    (``model_lessons``), and loads the model here only where passes would."""

    def __init__(self, *, in_worker: bool = False) -> None:
        self._worker: PassProcess | None = None
        self._closed = False
        if in_worker:
            from editor.core.process import configured_threads
            from editor.restore import PassProcess

            self._worker = PassProcess(threads=configured_threads())

    @property
    def in_worker(self) -> bool:
        return self._worker is not None

    def get(self, model: str | None, device: str) -> Restorer:
        """The restorer, loaded in this process if it is not yet. Runs on a worker thread: this is
        where torch gets imported (its thread count was decided once when the window started,
        editor.core.process, not again for each model)."""
        from editor.restore import restorer_for

        return restorer_for(model, device)

    def preload(self, model: str | None, device: str) -> object:
        """Load the model where passes run (a background thread's warm-up); returns what
        ``run_pass`` reports as loaded."""
        worker = self._worker
        if worker is not None:
            try:
                return worker.load(model, device)
            except _unavailable() as err:
                self._give_up_worker(err)
        return self.get(model, device)

    def run_pass(self, model: str | None, device: str, source: PassSource, settings: PassSettings, *,
                 on_loaded: Callable[[object], None], **kwargs: Any) -> PassOutcome:
        """`editor.restore.passes.pipeline.run_pass` with ``model``, in the worker process or on this
        thread; ``on_loaded`` gets the restorer (or the worker's word that it has it) first, and
        ``kwargs`` go to run_pass (``pause``: the window's turn, between regions)."""
        worker = self._worker
        if worker is not None:
            try:
                return worker.run_pass(model, device, source, settings, on_loaded=on_loaded, **kwargs)
            except _unavailable() as err:
                self._give_up_worker(err)
        restorer = self.get(model, device)
        on_loaded(restorer)
        return run_pass(restorer, source, settings, **kwargs)

    def model_lessons(self, model: str | None, device: str,
                      reads: Sequence[MarginalRead]) -> tuple[list[np.ndarray], frozenset[str], frozenset[str]]:
        """What a save's learning takes from ``model`` (editor.restore.learning.learned_store.model_lessons),
        from the worker process, or on this thread (a pool thread) where passes run here: where
        the worker cannot start, and once the window closed (its learning still ends as it would
        have). Raises what loading the model raises, and `WorkerStopped` when the worker dies."""
        worker = self._worker
        if worker is not None:
            from editor.restore import WorkerStopped

            try:
                return worker.model_lessons(model, device, reads)
            except _unavailable() as err:
                self._give_up_worker(err)
            except WorkerStopped:
                if not self._closed:
                    raise
        from editor.restore import model_lessons

        return model_lessons(self.get(model, device), reads)

    def _give_up_worker(self, err: BaseException) -> None:
        log.warning("restoring in the window's process: %s", err)
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.close()

    def close(self) -> None:
        """Stop the worker process, if any (the window closes)."""
        self._closed = True
        if self._worker is not None:
            self._worker.close()


def _unavailable() -> type[BaseException]:
    from editor.restore import WorkerUnavailable

    return WorkerUnavailable


@dataclass(frozen=True, slots=True)
class Region:
    """A region of a pass (editor.restore.passes.pipeline.RestoredRegion), sent from the worker."""

    pass_id: int
    region: RestoredRegion


@dataclass(frozen=True, slots=True)
class Note:
    """Something the person should read once about a pass (what it uses instead of a lost profile)."""

    pass_id: int
    text: str


@dataclass(frozen=True, slots=True)
class PassResult:
    pass_id: int
    model_name: str
    words: int
    seconds: float


class RestorationController(QObject):
    """Runs one restoration pass at a time over a transcript.

    ``progress(done, total)`` counts words whose suggestions are in; ``finished(status)`` fires once
    per pass with "done", "cancelled", "failed: <why>" or "skipped: <why>" (a text that does not look
    like the model's language is not restored unless ``any_language`` is set or the same transcript
    is restored again).
    """

    started = Signal(int)  # words
    note = Signal(str)  # said once per transcript (see Note)
    progress = Signal(int, int)
    finished = Signal(str)

    def __init__(self, parent: QObject | None = None, *, turns: WindowTurns | None = None,
                 restorers: Restorers | None = None) -> None:
        super().__init__(parent)
        # the window's steps, which the pass gives way to and a slice of results is one of
        self.turns = turns if turns is not None else WindowTurns()
        self.restorers = restorers if restorers is not None else Restorers()
        self.model: str | None = None
        self.device = "auto"
        self.use_learned = True  # apply what reviews of this language and speakers taught
        self.commas = DEFAULT_COMMAS  # the person's comma style (editor.core.commas)
        self.only_pending = False  # the running pass changes pending suggestions only (re-suggest)
        self._applier: PassApplier | None = None  # what the running pass's regions do to the document
        self.only: frozenset[int] | None = None  # the running pass restores these words only (a paste)
        self._asked: set[int] = set()  # words pasted while such a pass ran: restored after it
        self.transcript: Transcript | None = None
        self.restorer: object | None = None  # the restorer loaded (or the worker's word that it is)
        self.error: str | None = None
        self.any_language = False
        self.keep_author: bool | None = None  # propose no removal or replacement (None: so for authored text)
        self._skipped: Transcript | None = None  # the transcript whose language stopped the last pass
        self._pass_id = 0
        self._cancel: threading.Event | None = None
        self._queue: deque[RestoredRegion] = deque()
        self._worker_done: str | None = None
        self._running = False
        self._done_words = 0
        self._total = 0
        self._stale = False
        self.applying = False  # True while results go into the document (not the person's edits)
        self.paused = False  # the window runs a bulk step: results wait (they would split it)
        self._slice_words = 50  # adapted so that one slice takes about _SLICE_SECONDS
        self._pump = QTimer(self)
        self._pump.setSingleShot(True)
        self._pump.setTimerType(Qt.TimerType.PreciseTimer)  # a coarse one may wait 5 % more
        self._pump.setInterval(_IDLE_GAP_MS)
        self._pump.timeout.connect(self._drain)
        self._armed = 0.0  # when the pump was started (perf_counter)
        self._learned: bool | None = None
        self._told: set[str] = set()  # the notes said for this transcript
        self.after_slice: Callable[[], object] | None = None  # callable run at the end of a slice (the view redraws there)

    def lessons(self, reads: Sequence[MarginalRead]) -> tuple[list[np.ndarray], frozenset[str], frozenset[str]]:
        """What a save's learning takes from the model this window restores with, where its passes
        run (``Restorers.model_lessons``; the learning controller is given this once, as its reader)."""
        return self.restorers.model_lessons(self.model, self.device, reads)

    @property
    def running(self) -> bool:
        return self._running

    def load_in_background(self) -> None:
        """Warm the model up (imports torch) without waiting for a document."""
        model, device, restorers = self.model, self.device, self.restorers
        BackgroundOp(self, lambda report: restorers.preload(model, device)) \
            .success(self._loaded).failure(lambda err: None).run()

    def _loaded(self, restorer: Any) -> None:
        self.restorer = restorer

    def restore_words(self, transcript: Transcript, ids: list[int], merge_id: object | None = None) -> None:
        """Restore the words ``ids`` (raw words pasted into a restored text) in the background as
        the rest was, reading the words around them for context and proposing nothing elsewhere.
        A pass over the whole text under way takes them in (words edited under it are restored
        again when it ends); words pasted during a pass over other pasted words wait for it.
        ``merge_id``: the paste's undo step, which the suggestions join while nothing came
        between."""
        if self._running and transcript is self.transcript:
            if self.only is not None:
                self._asked.update(ids)
            return
        self.start(transcript, only=ids, merge_id=merge_id)

    def start(self, transcript: Transcript, priority: tuple[int, int] | None = None, *,
              only_pending: bool = False, learned: bool | None = None,
              only: list[int] | set[int] | frozenset[int] | None = None, merge_id: object | None = None) -> None:
        """Restore ``transcript`` (``priority``: the words shown first). ``only_pending``: change
        only its pending suggestions (see the module's note); ``learned``: apply what reviews taught
        (None: ``use_learned``); ``only``: restore these words (by id) and no others, reading
        WORDS_AROUND words either side of them (see ``restore_words``)."""
        self.cancel(quiet=True)
        if transcript is not self.transcript:
            self._told = set()
        self.transcript = transcript
        self._asked = set()
        found: list[int] | None = None
        self.only = None
        marks: dict[int, str] = {}
        if only is not None:
            found = sorted(transcript.indices_of(only))
            if not found:
                return
            words = transcript.tokens
            self.only = frozenset(words[i].id for i in found)
            marks = self._marks_before(transcript, found)
        self.only_pending = only_pending
        self._pass_id += 1
        pass_id = self._pass_id
        self._applier = PassApplier(merge_id or ("restore", id(self), pass_id), only_pending=only_pending)
        self._queue.clear()
        self._worker_done = None
        self._running = True
        self._stale = False
        self.error = None
        # (words pasted into a text already restored: its language was checked then)
        any_language = self.any_language or self._skipped is transcript
        self._skipped = None
        self._done_words = 0
        self._total = len(transcript) if found is None else (
            min(len(transcript), found[-1] + 1 + WORDS_AROUND) - max(0, found[0] - WORDS_AROUND))
        cancel = self._cancel = threading.Event()
        model, device, restorers, give_way = self.model, self.device, self.restorers, self.turns.give_way
        self._learned = learned
        settings = PassSettings(learned=self.use_learned if learned is None else learned, any_language=any_language,
                                keep_author=self.keep_author,
                                commas=self.commas if self.commas in COMMA_STYLES else DEFAULT_COMMAS)
        # what the pass reads, without copying the words here (20-40 ms of the UI thread at
        # 100,000 words): the whole pass, suggestions included, is the worker's
        source = PassSource.of(transcript, marks)
        self.started.emit(self._total)

        def work(report: Callable[[object], None]) -> PassResult:
            began = time.perf_counter()
            # the worker's Python gives the window's turns the interpreter (WindowTurns.give_way):
            # beside it, a turn of 6-8 ms of the window's own work took 40-60 ms
            outcome = restorers.run_pass(model, device, source, settings, on_loaded=report, cancel=cancel,
                                         pause=give_way, priority=priority, only=found,
                                         on_region=lambda region: report(Region(pass_id, region)),
                                         on_note=lambda text: report(Note(pass_id, text)))
            return PassResult(pass_id, outcome.model_name, outcome.words, time.perf_counter() - began)

        def failed(err: BaseException) -> None:
            self._worker_failed(pass_id, err)

        BackgroundOp(self, work).progress(self._received).success(self._worker_succeeded).failure(failed).run()

    @staticmethod
    def _marks_before(doc: Transcript, found: list[int]) -> dict[int, str]:
        """The mark after the word before each run of words ``found`` as the text will stand (a
        pending suggestion's), where it differs from the written one (see PassSource.marks)."""
        from editor.core.document.transcript import Kind, State

        marks, inside = {}, set(found)
        for i in found:
            if i and (i - 1) not in inside:
                s = doc.suggestion(doc[i - 1].id, Kind.PUNCT)
                if s is not None and s.state == State.PENDING:
                    marks[i - 1] = s.value
        return marks

    def cancel(self, quiet: bool = False) -> None:
        """Stop the running pass; what is already in the document stays (and can be undone)."""
        if self._cancel is not None:
            self._cancel.set()
        if self._running:
            self._queue.clear()
            self._running = False
            self._pass_id += 1  # late chunks of the stopped pass are ignored
            if not quiet:
                self.finished.emit("cancelled")

    # -- results, on the UI thread ----------------------------------------------------------------
    def _received(self, payload: object) -> None:
        if isinstance(payload, Region):
            if payload.pass_id == self._pass_id:
                self._queue.append(payload.region)
                if not self._pump.isActive():
                    self._wait()
        elif isinstance(payload, Note):
            if payload.pass_id == self._pass_id and payload.text not in self._told:
                self._told.add(payload.text)
                self.note.emit(payload.text)
        elif payload is not None:
            self.restorer = payload

    def _wait(self) -> None:
        """Start the pump: the next slice after the gap (see ``_SLICE_GAP_MS``)."""
        self._armed = time.perf_counter()
        self._pump.start()

    def _pace(self, now: float) -> None:
        """The gap before the next slice, from how late this one's timer came: late, the event
        loop had other work (the person's, painting) and gets the long gap; on time, the short."""
        late = now - self._armed - self._pump.interval() / 1000
        self._pump.setInterval(_SLICE_GAP_MS if late > _LATE_SECONDS else _IDLE_GAP_MS)

    def _drain(self) -> None:
        with self.turns.busy():  # the worker's Python waits meanwhile (WindowTurns.give_way)
            self._drain_slice()

    def _drain_slice(self) -> None:
        doc = self.transcript
        if doc is None:
            return
        self._pace(time.perf_counter())
        if self.paused or doc.history.busy:  # a bulk step runs its own slices: look again later
            self._pump.setInterval(_SLICE_GAP_MS)
            self._wait()
            return
        began = time.perf_counter()
        regions: list[RestoredRegion] = []
        taken = 0
        while self._queue and taken < self._slice_words:
            region = self._queue.popleft()
            room = self._slice_words - taken
            if len(region.ids) > room:  # a long region: the rest waits for the next slice
                region, rest = _split(region, room)
                self._queue.appendleft(rest)
            taken += len(region.ids)
            self._done_words += len(region.ids)
            if region.revision != doc.words_revision:
                self._stale = True
                continue
            regions.append(region)
        if regions and self._applier is not None:
            self.applying = True
            try:
                self._applier.put(doc, regions)
            finally:
                self.applying = False
        if self.after_slice is not None:
            self.after_slice()
        if taken:  # next slice: as many words as fit the time budget at this slice's pace
            per_word = (time.perf_counter() - began) / taken
            self._slice_words = int(min(max(_SLICE_SECONDS / max(per_word, 1e-6), 20), 800))
        self.progress.emit(min(self._done_words, self._total), self._total)
        if self._queue:
            self._wait()
        elif self._worker_done is not None:
            self._end(self._worker_done)

    @property
    def resuggested(self) -> tuple[int, int]:
        """The last pass's (suggestions changed, suggestions dropped) where it re-suggested."""
        applier = self._applier
        return (applier.changed, applier.dropped) if applier is not None else (0, 0)

    def _worker_succeeded(self, result: PassResult) -> None:
        if result.pass_id != self._pass_id:
            return
        self._worker_done = "done"
        if not self._queue and not self._pump.isActive():
            self._end("done")

    def _worker_failed(self, pass_id: int, err: BaseException) -> None:
        from editor.restore import Cancelled, NothingToRestore, NotTheLanguage

        if pass_id != self._pass_id:
            return
        if isinstance(err, Cancelled):
            self._end("cancelled")
            return
        if isinstance(err, NotTheLanguage):
            self._skipped = self.transcript
            self._end(f"skipped: {err}; Restore again runs it anyway")
            return
        if isinstance(err, NothingToRestore):
            self._end(f"skipped: {err}")
            return
        self.error = str(err) or type(err).__name__
        self._queue.clear()
        self._end(f"failed: {self.error}")

    def _end(self, status: str) -> None:
        self._running = False
        self._worker_done = None
        stale = self._stale and status == "done"
        asked, self._asked = self._asked, set()
        if self.only is not None and stale:
            asked |= self.only  # the pasted words changed under the pass: they again
        self.finished.emit(status)
        if self.only is not None:
            if asked and status == "done" and self.transcript is not None:
                QTimer.singleShot(0, self, lambda doc=self.transcript: self._rerun(doc, asked))
        elif stale and self.transcript is not None:  # words changed under the pass: once more
            QTimer.singleShot(500, self, lambda doc=self.transcript: self._rerun(doc))

    def _rerun(self, doc: Transcript, only: set[int] | None = None) -> None:
        if doc is not self.transcript or self._running:
            return
        if only is not None:
            self.start(doc, only=only)
        else:
            self.start(doc, only_pending=self.only_pending, learned=self._learned)


def _split(region: RestoredRegion, n: int) -> tuple[RestoredRegion, RestoredRegion]:
    """A region's first ``n`` words and the rest, each with its suggestions and the words proposed for."""
    cut = region.start + n
    head_ids = frozenset(region.ids[:n])
    k = next((k for k, s in enumerate(region.suggestions) if s.token_id not in head_ids), len(region.suggestions))
    head = tuple((a, min(b, cut)) for a, b in region.proposed if a < cut)
    tail = tuple((max(a, cut), b) for a, b in region.proposed if b > cut)
    return (RestoredRegion(region.revision, region.start, region.ids[:n], region.suggestions[:k], head),
            RestoredRegion(region.revision, cut, region.ids[n:], region.suggestions[k:], tail))
