"""The main window's review commands: accept or reject all, undo and redo, the review order, and
the playback time typed at the caret. A bulk step (accept all on a long transcript, or undoing
one) runs a slice per turn of the event loop, so that the window never freezes.

``ReviewCommands`` is a part of ``MainWindow`` (editor.gui.window.main_window), held as
``window.review``: it is given the window as a ``ReviewHost``, which says all it may touch, and
lends the text view its ``repeater`` and ``slicer``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, QTimer, SignalInstance
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QStatusBar, QWidget

from editor.core import process
from editor.core.document.transcript import Kind, State
from editor.core.document.records import CHOICE, MODEL
from editor.core.review.repeat_choices import choice_evidence, repeat_on, turn_down_choices
from editor.gui.dialogs.accept_all import AcceptAllDialog
from editor.gui.text_view.gutter import format_time
from editor.gui.base.modal import run_modal

if TYPE_CHECKING:
    from editor.core.document.transcript import Transcript
    from editor.core.settings import Settings
    from editor.gui.panel.panel import QtSuggestionList
    from editor.gui.playback.playback import PlaybackController
    from editor.gui.work.restoration import RestorationController
    from editor.gui.text_view.view import QtTranscriptView

#: Up to this many suggestions (or changes undone at once) are done in one go; a bigger bulk step
#: (accept all on a long transcript) runs a slice at a time so that the window never freezes.
BULK_AT_ONCE = 3000
_BULK_SLICE = 100  # words per slice of accept-all (one slice and its redraw: a few ms)
#: An undo or redo of more changes than this runs a slice at a time (3,000 at once took 45 ms).
UNDO_AT_ONCE = 1000
_REPEAT_SLICE = 100  # words a choice repeats on per slice
_COUNT_SLICE = 500  # words per slice of a threshold dialog's count (~3 ms)
_BULK_SECONDS = 0.005  # UI time per turn of the event loop for a bulk step, its redraw included


#: ``ReviewCommands.accept_all``'s ``source`` that takes every proposal, whoever made it.
EVERY_SOURCE = "every source"


def _count(n: int, noun: str) -> str:
    """"1 suggestion", "2,000 suggestions"."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _why_none(threshold: float, held: int, surest: float) -> str:
    """What an accept-all that accepted nothing of what is pending says: why, and what would
    make it act."""
    at = f"{round(threshold * 100)} %"
    lower = "accept all at a lower threshold (Review > Accept all at or above…)"
    if held:
        return (f"Accepted none: {_count(held, 'case suggestion')} at or above {at} "
                + ("waits for the sentence end before it, which is less sure: accept that mark first "
                   if held == 1 else "wait for the sentence ends before them, which are less sure: "
                   "accept those marks first ")
                + f"(Tab goes to {'it' if held == 1 else 'them'}), or {lower}")
    return (f"No suggestion is {at} sure or more (the surest is {math.floor(surest * 100 + 1e-9)} %): "
            f"{lower}, set High lower in Settings, or review them one by one with Tab")


class ReviewHost(Protocol):
    """What ``ReviewCommands`` uses of its window (``MainWindow``)."""

    settings: Settings
    view: QtTranscriptView
    panel: QtSuggestionList
    playback: PlaybackController
    restoration: RestorationController
    order_action: QAction
    bulk_finished: SignalInstance  # a bulk step is carried out completely

    @property
    def interactive(self) -> bool: ...
    @property
    def transcript(self) -> Transcript: ...
    def statusBar(self) -> QStatusBar: ...
    def save_settings(self) -> None: ...


class ReviewCommands(QObject):
    """Review > Accept all…, Edit > Undo/Redo and the bulk steps behind them."""

    def __init__(self, host: ReviewHost, widget: QWidget) -> None:
        super().__init__(widget)
        self._host = host
        self._widget = widget  # the parent of the dialogs
        self._bulk: tuple[Iterator[object], Callable[[], None]] | None = None  # a bulk step under way
        self.last_accepted = 0  # how many the last accept-all accepted (when it has finished)
        self._host.view.review.repeater = self.repeat_in_slices
        self._host.view.editing.slicer = self._run_bulk  # a long paste
        # The next slice of a bulk step: a timer, not a posted call (QTimer.singleShot(0, ...)).
        # Qt runs every posted call before it looks at its timers, so a chain of posted slices
        # ran two slices and a repaint between two ticks of any other timer (18-25 ms of UI time
        # at 100,000 words); a timer's turn comes after the timers already due.
        self._next_slice = QTimer(self)
        self._next_slice.setSingleShot(True)
        self._next_slice.setInterval(0)
        self._next_slice.timeout.connect(lambda: self._bulk_slice())
        self._paints_seen = 0  # the view's repaints when the last slice ran (see _bulk_slice)

    def repeat_in_slices(self, token_id: int, kind: Kind, targets: list[int], merge_id: object,
                         announce: Callable[[int], None]) -> None:
        """Repeat a decision on many words (``QtTranscriptView.decide``: "the" 6,000 times in a
        long transcript) a slice per turn of the event loop, in the decision's undo step."""
        doc = self._host.transcript
        if self._bulk is not None:  # (a menu during a bulk step) at once, then
            announce(repeat_on(doc, token_id, kind, targets, merge_id=merge_id))
            return
        count = [0]
        evidence = choice_evidence(doc, token_id, kind, targets)  # (once, over all the words)

        def slices() -> Iterator[None]:
            for k in range(0, len(targets), _REPEAT_SLICE):
                count[0] += repeat_on(doc, token_id, kind, targets[k:k + _REPEAT_SLICE], merge_id=merge_id,
                                      evidence=evidence)
                yield
        self._run_bulk(slices(), lambda: announce(count[0]))

    def accept_all(self, min_confidence: float = 0.0, *, source: str | None = None) -> int:
        """Accept every pending suggestion with confidence >= ``min_confidence`` (a word's case
        follows the sentence end before it: see ``Transcript.pending_to_apply``): Stet's own
        proposals, or only those proposed by ``source`` when given (``CHOICE``: Review > Accept
        all from your choice; ``EVERY_SOURCE``: all of them, Review > Accept all pending). A
        proposal from the person's choice or from the lexicon is never applied by an accept-all
        of Stet's proposals (Ctrl+Shift+A): its confidence is the choice's or the lexicon's, not
        the model's, and the person decides it (issue 47). One undo step. Returns how many; on a transcript of more than BULK_AT_ONCE words it runs a
        slice per turn of the event loop and returns -1: ``bulk_finished`` then, and
        ``last_accepted``."""
        if self.busy_with_bulk():
            return 0
        doc = self._host.transcript
        mine = source == CHOICE
        sources = None if source == EVERY_SOURCE else frozenset({source if source is not None else MODEL})
        text = "Accept all from your choice" if mine else f"Accept all ≥ {min_confidence:.0%}"
        # decisions accepted, held back, pending of that source, left (another source above),
        # suggestions accepted
        counts = [0, 0, 0, 0, 0]
        surest = [0.0]  # the most confident pending suggestion under the threshold
        pending = doc.pending_count
        # the capital after the last word of a slice whose sentence end that slice accepted: it
        # is counted with that end (decision_points), not again in the next slice
        carried: set[tuple[int, Kind]] = set()

        def note() -> None:
            count, held, of_source, left, suggestions = counts
            self.last_accepted = count
            rest = (f"; {_count(left, 'proposal')} from your choice or your lexicon "
                    f"{'is' if left == 1 else 'are'} yours to decide (Review > Accept all from your choice, "
                    "or one by one)" if left and not mine else "")
            # counted as the list's rows: "Accepted 3 suggestions (1 of them a sentence end with
            # its capital)" where a sentence end came with its capital
            pairs = suggestions - count
            what = _count(count, 'suggestion') + (
                "" if not pairs else " (a sentence end with its capital)" if count == 1
                else f" ({pairs:,} of them a sentence end with its capital)")
            if mine and not of_source:
                self._host.statusBar().showMessage("No suggestions from your choice are pending: "
                                                   "nothing to accept", 6000)
            elif count or not pending:
                self._host.statusBar().showMessage(f"Accepted {what}"
                    + (" from your choice" if mine else "") + (
                    f"; {_count(held, 'case suggestion')} "
                    + ("waits for the sentence end before it" if held == 1
                       else "wait for the sentence end before them") if held else "") + rest
                    if pending else "No suggestions are pending: nothing to accept", 6000)
            elif left and not held:
                self._host.statusBar().showMessage(
                    f"Accepted none: {_count(left, 'proposal')} at or above {round(min_confidence * 100)} % "
                    f"{'comes' if left == 1 else 'come'} from your choice or your lexicon, yours to decide "
                    "(Review > Accept all from your choice, or one by one with Tab)", 15000)
            else:  # nothing done: say what would make it act, lest it read as a failure
                self._host.statusBar().showMessage(_why_none(min_confidence, held, surest[0]), 15000)

        def accept(start: int, end: int | None, merge_id: object = None) -> None:
            # by index: doc.tokens copies every token after each slice's change
            above = 0
            for i in range(start, len(doc) if end is None else min(end, len(doc))):
                for s in doc.suggestion_view(doc[i].id).values():
                    if s.state != State.PENDING:
                        continue
                    if sources is not None and s.source not in sources:
                        counts[3] += s.confidence >= min_confidence
                        continue
                    counts[2] += 1
                    if s.confidence >= min_confidence:
                        above += 1
                    elif s.confidence > surest[0]:
                        surest[0] = s.confidence
            chosen = doc.pending_to_apply(min_confidence, start=start, end=end, sources=sources)
            # a sentence end and the capital after it are one decision: counted, said, as one
            decisions = doc.decision_count(chosen, min_confidence) - sum(1 for s in chosen if s.key in carried)
            carried.clear()
            stop = len(doc) if end is None else min(end, len(doc))
            last = doc.decision_point(doc[stop - 1].id, Kind.PUNCT) if 0 < stop < len(doc) else None
            if last is not None and last.capital is not None and any(s.key == last.lead.key for s in chosen[-3:]):
                carried.add(last.capital.key)
            accepted = doc.accept_suggestions(chosen, text=text, merge_id=merge_id)
            counts[0] += min(decisions, accepted)
            counts[4] += accepted
            counts[1] += above - len(chosen)

        if len(doc.tokens) <= BULK_AT_ONCE:
            accept(0, None)
            note()
            QTimer.singleShot(0, self, self._host.bulk_finished.emit)
            return counts[0]
        # A long transcript: a slice of words per turn of the event loop, all one undo step.
        merge_id = ("accept all", id(self), time.perf_counter())

        def slices() -> Iterator[None]:
            for start in range(0, len(doc), _BULK_SLICE):
                accept(start, start + _BULK_SLICE, merge_id)
                yield
        self._host.statusBar().showMessage("Accepting suggestions…")
        self._run_bulk(slices(), note)
        return -1

    def accept_pending(self) -> int:
        """Review > Accept all pending: every pending suggestion, whoever proposed it (the person
        asks for all of them: Stet's, those from their choice and from a lexicon); one undo step."""
        return self.accept_all(0.0, source=EVERY_SOURCE)

    def accept_choices(self) -> int:
        """Review > Accept all from your choice: every pending proposal that repeats a choice of
        the person's elsewhere (``accept_all`` restricted to them); one undo step."""
        return self.accept_all(0.0, source=CHOICE)

    def reject_choices(self) -> int:
        """Review > Reject all from your choice: turn down every pending proposal that repeats a
        choice of the person's (Stet's own proposal comes back where the choice stood in for one:
        ``editor.core.review.accept_rules.turned_down``); one undo step, a slice of words per turn of the
        event loop on a long transcript (then -1, and ``bulk_finished``)."""
        if self.busy_with_bulk():
            return 0
        doc = self._host.transcript
        count = [0]

        def note() -> None:
            self.last_accepted = 0
            self._host.statusBar().showMessage(
                f"Turned down {_count(count[0], 'suggestion')} from your choice; Stet's own "
                "proposals are back where it had one" if count[0]
                else "No suggestions from your choice are pending: nothing to reject", 6000)

        if len(doc) <= BULK_AT_ONCE:
            count[0] = turn_down_choices(doc)
            note()
            QTimer.singleShot(0, self, self._host.bulk_finished.emit)
            return count[0]
        merge_id = ("reject choices", id(self), time.perf_counter())

        def slices() -> Iterator[None]:
            for start in range(0, len(doc), _BULK_SLICE):
                count[0] += turn_down_choices(doc, start, start + _BULK_SLICE, merge_id=merge_id)
                yield
        self._host.statusBar().showMessage("Turning down suggestions from your choice…")
        self._run_bulk(slices(), note)
        return -1

    def accept_all_dialog(self) -> AcceptAllDialog:
        """Ask for a threshold in percent, showing how many it accepts; accept on OK."""
        doc = self._host.transcript
        low = self._host.settings.review.low

        def count(threshold: float) -> Iterator[tuple[int, int, int]]:
            for start in range(0, len(doc), _COUNT_SLICE):  # a slice per turn (SlicedCount)
                chosen = doc.pending_to_apply(threshold, start=start, end=start + _COUNT_SLICE,
                                              sources=(MODEL,))
                # decisions (a sentence end and its capital are one), suggestions, those of low confidence
                yield (doc.decision_count(chosen, threshold), len(chosen),
                       sum(1 for s in chosen if s.confidence < low))

        dialog = AcceptAllDialog(self._host.settings, count, doc.pending_decisions, self._widget)
        dialog.accepted.connect(lambda: self.accept_all(dialog.threshold))
        if self._host.interactive:
            run_modal(dialog)
        else:
            dialog.open()  # tests and scripts drive it
        return dialog

    def reject_all(self) -> int:
        doc = self._host.transcript
        before = doc.pending_decisions  # said as the list counts: a sentence end and its capital are one
        count = doc.reject_all()
        self._host.statusBar().showMessage(f"Rejected {_count(before - doc.pending_decisions, 'suggestion')}", 4000)
        return count

    def toggle_order(self) -> None:
        order = "position" if self._host.view.order == "confidence" else "confidence"
        self._host.view.order = order
        self._host.settings.set("review.order", order)
        self._host.order_action.setChecked(order == "confidence")
        self._host.save_settings()

    def insert_playback_time(self) -> str | None:
        """Ctrl+J (as in oTranscribe): the playback position as "[m:ss]" at the caret."""
        player = self._host.playback.player
        if player is None or self._host.playback.audio_path is None:
            self._host.statusBar().showMessage("No recording is open: Ctrl+J types the playback time "
                                         "when a transcript with audio plays", 5000)
            return None
        stamp = f"[{format_time(player.position)}]"
        cursor = self._host.view.textCursor()
        before = self._host.view.document().characterAt(cursor.selectionStart() - 1) \
            if cursor.selectionStart() > 0 else " "
        lead = "" if before.isspace() or before == "\u2029" else " "
        self._host.view.insert_text(f"{lead}{stamp} ")  # one edit, one undo step
        return stamp

    # -- undo and redo -----------------------------------------------------------------------------
    def undo(self) -> bool:
        """Undo one step (and bring what it changed into view). A big step (accept all on a long
        transcript) is undone a slice at a time; ``bulk_finished`` says when it is done."""
        return self._step(undo=True)

    def redo(self) -> bool:
        return self._step(undo=False)

    def _step(self, undo: bool) -> bool:
        if self.busy_with_bulk():
            return False
        history = self._host.transcript.history
        text = history.undo_text if undo else history.redo_text
        if history.size_of_step(undo) <= UNDO_AT_ONCE:
            stepped: list[bool] = []
            step = history.checkpoint()[0] if undo else None
            self._host.view.reveal_change(lambda: stepped.append(history.undo() if undo else history.redo()))
            if stepped[0]:  # said as a long one is: "Accepted 22 suggestions" is no longer so
                if undo:
                    self._host.view.review.review_again(step)  # a decision undone: its suggestion is current again
                self._host.statusBar().showMessage(f"{'Undid' if undo else 'Redid'} {text}", 4000)
                QTimer.singleShot(0, self, self._host.bulk_finished.emit)
            return stepped[0]
        steps = history.stepwise(undo)
        if steps is None:
            return False
        self._host.view.flush()
        self._host.statusBar().showMessage(f"{'Undoing' if undo else 'Redoing'} {text}…")
        # A step that changes words on screen (accept all) keeps the person where they are: a
        # jump to its first word, far up a long transcript, loses their place (and lays out the
        # text on the way, 50-70 ms at 100,000 words). One that does not is brought into view.
        doc = self._host.transcript
        first, last = self._host.view.visible_tokens()
        shown = frozenset(doc[i].id for i in range(first, min(last, len(doc))))
        on_screen = [False]

        def tokens_changed(start: int, removed: int, inserted: int) -> None:
            if start < last and start + max(removed, inserted, 1) > first:
                on_screen[0] = True

        def suggestions_changed(token_ids: tuple[int, ...]) -> None:
            if not on_screen[0] and not shown.isdisjoint(token_ids):
                on_screen[0] = True
        doc.tokens_changed.connect(tokens_changed)
        doc.suggestions_changed.connect(suggestions_changed)

        def done() -> None:
            doc.tokens_changed.disconnect(tokens_changed)
            doc.suggestions_changed.disconnect(suggestions_changed)
            self._host.statusBar().showMessage(f"{'Undid' if undo else 'Redid'} {text}", 4000)
            if not on_screen[0]:
                self._host.view.reveal_last_change()
            else:
                self._host.view.flush()
        self._run_bulk(steps, done)
        return True

    # -- bulk steps, a slice per turn of the event loop --------------------------------------------
    @property
    def bulk_running(self) -> bool:
        """A bulk step (accept all, undoing or redoing one) is under way, a slice per turn."""
        return self._bulk is not None

    def finish_bulk(self) -> None:
        """Carry out what is left of a bulk step now (a save waited for must not write half)."""
        while self._bulk is not None:
            self._paints_seen = self._host.view.paints
            self._bulk_slice()

    def busy_with_bulk(self) -> bool:
        if self._bulk is not None:
            self._host.statusBar().showMessage("Still working on the last step…", 2000)
            return True
        return False

    def _run_bulk(self, slices: Iterator[object], done: Callable[[], None]) -> None:
        self._bulk = (slices, done)
        self._host.restoration.paused = True  # its results would split the step in two
        self._host.view.frozen = True
        self._host.panel.busy = True  # refreshed seldom meanwhile, and once at the end
        process.hold_collections()  # none over the new records meanwhile (see set_transcript)
        self._host.view.last_changed = None
        self._paints_seen = self._host.view.paints
        self._next_slice.start()

    def _bulk_slice(self) -> None:
        if self._bulk is None:
            return
        if self._host.view.paints != self._paints_seen:
            # The text was repainted since the last slice, in this turn of the event loop (its
            # paint is a posted event, run before the timers): the slice waits for the next
            # turn. A slice and the repaint of what it changed in one turn were 10-20 ms of UI
            # time at 100,000 words; apart, each is at most about half that, and the text is
            # still redrawn after every slice that changed what is shown.
            self._paints_seen = self._host.view.paints
            self._next_slice.start()
            return
        slices, done = self._bulk
        end = time.perf_counter() + _BULK_SECONDS
        finished = False
        while True:
            began = time.perf_counter()
            if next(slices, StopIteration) is StopIteration:
                finished = True
                break
            self._host.view.flush()  # the redraw counts in the slice's time
            now = time.perf_counter()
            # a slice that would not end within the turn's time waits for the next turn: two
            # slices and the repaint between them were 20-25 ms of UI time at 100,000 words
            if now + (now - began) > end:
                break
        self._host.view.flush()
        if not finished:
            self._next_slice.start()
            return
        self._bulk = None
        self._host.restoration.paused = False
        self._host.view.frozen = False
        self._host.panel.busy = self._host.restoration.running
        if not self._host.restoration.running:
            process.release_collections()
        self._host.panel.refresh_soon()
        done()
        self._host.bulk_finished.emit()
