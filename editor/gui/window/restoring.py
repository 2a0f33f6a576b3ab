"""The main window's restoration: starting and cancelling passes, and the status bar that follows
them (progress, Cancel, the word and suggestion count, how the last pass ended).

``RestorationCommands`` is a part of ``MainWindow`` (editor.gui.window.main_window), held as
``window.restoring``: it is given the window as a ``RestoringHost``, which says all it may touch,
and puts its progress bar and buttons in the window's status bar.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, QTimer, SignalInstance
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QProgressBar, QPushButton, QStatusBar, QWidget

from editor.core import process
from editor.core.document.transcript import Kind, Transcript
from editor.core.restore_models import in_use_note
from editor.gui.base import hotkeys
from editor.gui.base.status_bar import StatusBar, StatusLabel
from editor.gui.text_view.build import BUILD_AT_ONCE
from editor.gui.window.review import BULK_AT_ONCE
from editor.restore import keeps_author, removes_authors

if TYPE_CHECKING:
    from editor.core.settings import Settings
    from editor.gui.work.learning import LearningController
    from editor.gui.panel.panel import QtSuggestionList
    from editor.gui.work.recovery import Autosaver
    from editor.gui.work.restoration import RestorationController
    from editor.gui.work.transcription import TranscriptionController
    from editor.gui.text_view.view import QtTranscriptView

#: Said after the word count while only missing marks and capitals are proposed.
KEEPING = " — keeping the author's punctuation (Review menu)"
#: A paste of at least this many raw words (lowercase, no marks) into a restored text is restored.
PASTED_RAW_WORDS = 2
#: A transcript of up to this many words (one the view shows at once) is looked at and its
#: restoration started in the turn it is shown; a longer one's in the turns after
#: (``RestorationCommands.restoration_follows``).
FOLLOW_AT_ONCE = BUILD_AT_ONCE


class RestoringHost(Protocol):
    """What ``RestorationCommands`` uses of its window (``MainWindow``)."""

    settings: Settings
    view: QtTranscriptView
    panel: QtSuggestionList
    restoration: RestorationController
    transcription: TranscriptionController
    learning: LearningController
    autosaver: Autosaver
    restore_model_override: str | None  # `stet gui --model DIR`
    status_label: StatusLabel  # the status line: words, suggestions, how the last pass ended
    keep_author_action: QAction  # (made with the menus, after this part)
    restoration_finished: SignalInstance

    @property
    def transcript(self) -> Transcript: ...
    @property
    def bulk_running(self) -> bool: ...
    def statusBar(self) -> QStatusBar: ...


class RestorationCommands(QObject):
    """Review > Restore again / Re-suggest with what Stet learned / Cancel restoration, and the
    status line."""

    def __init__(self, host: RestoringHost, widget: QWidget) -> None:
        super().__init__(widget)
        self._host = host
        self.restoration_status = ""  # "", "running", "done", "cancelled", "skipped…", "failed…"
        self._status_note: str | None = ""  # after the count in the status bar; None: keep it
        self._began: float | None = None  # when the running pass started
        self._keep_author: bool | None = None  # the person's choice for this transcript (None: by its text)
        self._authored = False  # by its text, the transcript keeps the author's punctuation (keeps_author)
        self._progress_shown = 0.0
        # what follows a long transcript's first view, a step a turn (restoration_follows): a
        # timer's turn, not a posted call's, so that other timers (a frame) get theirs between
        self._following: tuple[Transcript, list[Callable[[], None]]] | None = None
        self._start_cancelled = False  # Cancel came before the pass's start (cancel_restoration)
        self._start_wanted = False  # the steps to come start a pass (not a project's skip)
        self._follow_timer = QTimer(self)
        self._follow_timer.setSingleShot(True)
        self._follow_timer.setInterval(0)
        self._follow_timer.timeout.connect(self._follow_step)
        self._model_said: str | None = None  # the model the status bar last named (see _restoration_started)
        self._model_note = ""  # what it said of it, while the pass runs
        bar = self._host.statusBar()
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(220)
        self.progress.setFormat("Restoring %p%")
        self.progress.hide()
        bar.addPermanentWidget(self.progress)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop restoring (Ctrl+.)")
        self.cancel_button.clicked.connect(self.cancel_restoration)
        self.cancel_button.hide()
        bar.addPermanentWidget(self.cancel_button)
        # offered after a save taught Stet something while suggestions still wait
        self.resuggest_button = QPushButton("Re-suggest with what Stet learned")
        self.resuggest_button.setToolTip("Propose again the suggestions still pending, with what Stet "
                                         "learned (Review menu); your decisions and typing stay")
        self.resuggest_button.clicked.connect(self.resuggest_learned)
        self.resuggest_button.hide()
        bar.addPermanentWidget(self.resuggest_button)
        self._resuggest_after_learning = False
        self._host.learning.learned.connect(self._offer_resuggest)
        restoration = self._host.restoration
        restoration.started.connect(self._restoration_started)
        restoration.note.connect(self._restoration_note)
        restoration.progress.connect(self._restoration_progress)
        restoration.finished.connect(self._restoration_ended)
        self._host.view.pasted.connect(self._restore_pasted)

    def _restore_pasted(self, ids: list[int], merge_id: object) -> None:
        """Raw words pasted (lowercase, no marks: another recogniser's output) into a text that was
        restored get suggestions as the rest did, in the background and in the paste's undo step
        (one Ctrl+Z takes both back); a paste with its own marks and capitals is the person's
        text and is left as it is."""
        doc = self._host.transcript
        status = self.restoration_status
        if not (status in ("done", "running") or status == "skipped" and doc.has_suggestions()):
            return  # not restored (no model, another language, cancelled): neither is the paste
        words = doc.tokens
        tokens = [words[i] for i in doc.indices_of(ids)]
        raw = sum(1 for t in tokens if not t.punct and (t.surface or t.word) == (t.surface or t.word).lower())
        if raw < PASTED_RAW_WORDS or raw < 0.8 * len(tokens):
            return
        self.configure_restoration()
        self._host.restoration.restore_words(doc, [t.id for t in tokens], merge_id=merge_id)

    def start_restoration(self) -> None:
        self._host.autosaver.save_now()  # before a long job
        self.configure_restoration()
        self._host.restoration.use_learned = self._host.settings.review.use_learned
        self._host.restoration.start(self._host.transcript, priority=self._host.view.visible_tokens())

    def resuggest_learned(self) -> None:
        """Review > Re-suggest with what Stet learned: the suggestions still pending are proposed
        again with the user lexicon and what reviews taught (in the background, one undo step);
        what the person accepted, rejected or typed stays. Waits for a save's learning to end."""
        self.resuggest_button.hide()
        if not len(self._host.transcript) or not self._host.transcript.next_pending():
            self._host.statusBar().showMessage("No suggestions are pending: nothing to re-suggest", 4000)
            return
        if self._host.learning.running:
            self._resuggest_after_learning = True
            self._host.statusBar().showMessage("Re-suggesting when Stet has learned from this save…", 4000)
            return
        self._host.autosaver.save_now()  # before a long job
        self.configure_restoration()
        self._host.restoration.start(self._host.transcript, priority=self._host.view.visible_tokens(), only_pending=True,
                               learned=True)

    def _offer_resuggest(self, words: int) -> None:
        """A save's learning ended: re-suggest if asked meanwhile, else offer it while suggestions wait."""
        if self._resuggest_after_learning:
            self._resuggest_after_learning = False
            self.resuggest_learned()
            return
        if not (words or self._host.learning.last_added) or self._host.restoration.running or not self._host.transcript.next_pending():
            return
        self.resuggest_button.show()
        self._host.statusBar().showMessage(
            f"Stet learned from {words:,} reviewed words — Re-suggest (Review menu) proposes the "
            "suggestions still pending again with it", 10000)

    def preload_restorer(self) -> None:
        """Load the restoration model in the background before any document needs it."""
        self.configure_restoration()
        self._host.restoration.load_in_background()

    def configure_restoration(self) -> None:
        """The model and device the settings (or ``stet gui --model``) name, for the next pass."""
        self._host.restoration.model = self._host.restore_model_override or self._host.settings.engine.restore_model or None
        self._host.restoration.device = self._host.settings.engine.device
        self._host.restoration.commas = self._host.settings.review.commas

    def cancel_restoration(self) -> None:
        self._host.transcription.cancel()
        if self._following is not None and self._start_wanted and not self._start_cancelled:
            # a long transcript's pass not started yet (restoration_follows): it never starts,
            # and it ends as a pass cancelled at once would
            self._start_cancelled = True
            self._restoration_ended("cancelled")
        self._host.restoration.cancel()

    def stop_restoration(self) -> None:
        """Another transcript is about to be shown: the pass stops, quietly (or never starts)."""
        self._following = None
        self._follow_timer.stop()
        self._host.restoration.cancel(quiet=True)
        self.resuggest_button.hide()
        self._resuggest_after_learning = False
        self._restoration_idle()

    def restoration_follows(self, doc: Transcript, restore: bool) -> None:
        """``doc`` was just shown: restore it if it has no suggestions yet (and ``restore``).

        A long transcript (over ``FOLLOW_AT_ONCE`` words) takes the next turns of the event loop
        for it, one step each: whether its text keeps the author's punctuation (a look at every
        word), then the pass's start. Its first view had the turn it came in: all of it in one
        held the window 30-36 ms at 100,000 words. Meanwhile the status bar says only the word
        count, and what the person types goes into the document the pass then reads."""
        words = len(doc)
        self._host.status_label.setText(f"{words:,} words")
        self._host.status_label.setToolTip("")
        self._host.panel.show_notice(None)
        self._status_note = ""
        self._start_cancelled = False
        self._keep_author = self._host.restoration.keep_author = None
        self._authored = False  # (until its words are looked at: keeps_author)
        self._show_keeping()
        # proposed paragraph breaks (made as it opens) are not restoration's suggestions
        wanted = self._start_wanted = bool(
            restore and words and all(s.kind == Kind.BREAK for s in doc.iter_suggestions()))
        steps: list[Callable[[], None]] = [lambda: self._look_at_author(doc),
                                           lambda: self._restore_or_skip(doc, wanted)]
        if words <= FOLLOW_AT_ONCE:
            for step in steps:
                step()
            return
        self._following = (doc, steps)
        self._follow_timer.start()

    def _follow_step(self) -> None:
        """The next step of what follows a long transcript's first view (``restoration_follows``),
        unless another transcript was shown since."""
        if self._following is None:
            return
        doc, steps = self._following
        if doc is not self._host.transcript:
            self._following = None
            return
        steps.pop(0)()
        if steps:
            self._follow_timer.start()
        else:
            self._following = None

    @property
    def following(self) -> bool:
        """The steps after a long transcript's first view are still to come (``restoration_follows``)."""
        return self._following is not None

    def _look_at_author(self, doc: Transcript) -> None:
        self._authored = keeps_author(doc.tokens)
        self._show_keeping()

    def _show_keeping(self) -> None:
        """The Review menu's tick says ``keeping_author``."""
        action = getattr(self._host, "keep_author_action", None)  # (made with the menus)
        if action is not None:
            action.setChecked(self.keeping_author)

    def _restore_or_skip(self, doc: Transcript, wanted: bool) -> None:
        if self._start_cancelled:  # Cancel came before the start (cancel_restoration)
            return
        if wanted and len(doc):
            self.start_restoration()
        else:
            if doc.has_suggestions():
                self.show_pending(self._host.panel.pending_count)
            self.restoration_status = "skipped"
            QTimer.singleShot(0, self, self._host.restoration_finished.emit)

    def show_pending(self, pending: int) -> None:
        """The status bar's count follows the list's (accepting, rejecting, undoing, editing)."""
        if self._host.restoration.running or self._host.transcription.running or self._status_note is None:
            return
        words = len(self._host.transcript)
        # once review has begun, what it has not been to yet (a pass that never skips)
        unseen = self._host.view.review.not_visited() if pending else 0
        self._host.status_label.setText((f"{words:,} words — {pending:,} suggestion{'s' if pending != 1 else ''} to review"
                                   + (f", {unseen:,} not yet visited" if unseen < pending else "")
                                   if pending else f"{words:,} words — no suggestions pending")
                                  + self._status_note + (KEEPING if self.keeping_author else ""))

    def _restoration_started(self, words: int) -> None:
        self.restoration_status = "running"
        self._host.panel.show_notice(None)
        self.resuggest_button.hide()
        self.progress.setRange(0, max(words, 1))
        self.progress.setValue(0)
        self.progress.show()
        self.cancel_button.show()
        self._host.panel.busy = True
        process.hold_collections()  # none while suggestions stream in; see set_transcript
        words = len(self._host.transcript)  # (a pass over pasted words reads only those and some around)
        self._host.status_label.setText(f"{words:,} words — loading the restoration model…"
                                  if self._host.restoration.restorer is None
                                  else f"{words:,} words — {self._doing()}…")
        model = self._host.restoration.model or ""
        bar = self._host.statusBar()
        # the first pass with a model says which it is and why; never over another message (a
        # cancelled transcription's, say): then a later pass says it
        if model != self._model_said and not bar.currentMessage():
            self._model_said = model
            self._model_note = in_use_note(model or None)
            bar.showMessage(self._model_note, 15000)
        self._began = time.perf_counter()

    def _restoration_note(self, text: str) -> None:
        self._host.statusBar().showMessage(text, 12000)

    def _restoration_progress(self, done: int, total: int) -> None:
        # A progress bar repaints at once on every new value: a few times a second is plenty.
        now = time.perf_counter()
        if done < total and now - self._progress_shown < 0.25:
            return
        self._progress_shown = now
        self.progress.setMaximum(max(total, 1))
        self.progress.setValue(done)
        if done and "loading" in self._host.status_label.text():
            self._host.status_label.setText(f"{len(self._host.transcript):,} words — {self._doing()}…")

    def _doing(self) -> str:
        if self._host.restoration.only is not None:
            n = len(self._host.restoration.only)
            return f"restoring the {n:,} pasted word{'s' if n != 1 else ''}"
        return ("re-suggesting with what Stet learned" if self._host.restoration.only_pending
                else "restoring punctuation and capitals" + (KEEPING if self.keeping_author else ""))

    # -- keeping the author's punctuation -----------------------------------------------------------
    @property
    def keeping_author(self) -> bool:
        """Whether only missing marks and capitals are proposed for this transcript: the person's
        choice (Review > Keep the author's punctuation), else so where its text has marks or
        capitals written (a subtitle, an edited transcript; not a recogniser's raw words: the
        default a pass takes, editor.restore.keeps_author)."""
        return self._authored if self._keep_author is None else self._keep_author

    def toggle_keep_author(self, on: bool | None = None) -> None:
        """Review > Keep the author's punctuation (``on``; None: as the menu's check says). On: the
        pending removals and replacements of written marks and capitals are withdrawn (one undo
        step) and no more are proposed; off: the text is restored again to propose them too
        (never of marks the model cannot predict well: see suggest.authors_own)."""
        if on is None:
            on = self._host.keep_author_action.isChecked()
        self._keep_author = self._host.restoration.keep_author = on
        self._host.keep_author_action.setChecked(on)
        doc = self._host.transcript
        if on:
            from editor.core.document.transcript import State

            keys = [s.key for s in doc.iter_suggestions()
                    if s.state == State.PENDING and s.source == "model"
                    and removes_authors(doc.token(s.token_id), s.kind, s.value)]
            n = doc.drop_suggestions(keys, text="Keep the author's punctuation") if keys else 0
            self.show_pending(self._host.panel.pending_count)
            self._host.statusBar().showMessage(
                "Keeping the author's punctuation and capitals: only missing ones are proposed"
                + (f" ({n:,} removal{'s' if n != 1 else ''} or replacement{'s' if n != 1 else ''} withdrawn)"
                   if n else ""), 8000)
        else:
            self.show_pending(self._host.panel.pending_count)
            self._host.statusBar().showMessage("Proposing removals and replacements of the author's marks and "
                                         "capitals too: restoring again", 8000)
            if len(doc):
                self.start_restoration()

    def _end_model_note(self, status: str) -> None:
        """The first pass's "Restoring with <model> …" still shown when the pass ends (a short
        text: before the person did anything) said the pass was under way while the count beside
        it was done: a pass that restored says "Restored with …", any other lets the count show."""
        bar, note = self._host.statusBar(), self._model_note
        self._model_note = ""
        if not note or bar.currentMessage() != note:
            return
        if status == "done" and isinstance(bar, StatusBar):
            bar.restate(in_use_note(self._model_said or None, done=True))
        else:
            bar.clearMessage()

    def _restoration_idle(self) -> None:
        self.progress.hide()
        self.cancel_button.hide()
        self._host.panel.busy = self._host.bulk_running
        if not self._host.bulk_running:  # else at its end: a pass that ends during an accept-all
            process.release_collections()  # (or undoing one) let a full collection into a slice

    def _restoration_ended(self, status: str) -> None:
        self.restoration_status = status
        self._restoration_idle()
        self._end_model_note(status)
        # counts the pending ones without sorting them all; a long transcript's a slice at a time
        # (the status bar follows the count when it is in)
        if len(self._host.transcript) <= BULK_AT_ONCE * 4:
            self._host.panel.refresh()
        else:
            self._host.panel.refresh_soon()
        pending = self._host.panel.pending_count
        words = len(self._host.transcript)
        if status == "done" and self._host.restoration.only_pending:
            changed, dropped = self._host.restoration.resuggested
            self._status_note = (f" (re-suggested with what Stet learned: {changed:,} changed, "
                                 f"{dropped:,} no longer proposed)")
            self.show_pending(pending)
        elif status == "done" and self._host.restoration.only is not None:
            n = len(self._host.restoration.only)
            self._status_note = f" ({n:,} pasted word{'s' if n != 1 else ''} restored)"
            self.show_pending(pending)
        elif status == "done":
            now = time.perf_counter()
            self._status_note = f" (restored in {now - (self._began or now):.1f} s)"
            self.show_pending(pending)
        elif status == "cancelled":
            self._status_note = " (restoration cancelled)"
            self.show_pending(pending)
        elif status.startswith("skipped: "):
            self._status_note = None
            why = status.removeprefix("skipped: ")
            self._host.status_label.setText(f"{words:,} words — not restored: {why}")
            self._host.status_label.setToolTip(status)
            reason = why.split("; Restore again")[0]
            self._host.panel.show_notice("Not restored: no suggestions were made",
                                   f"{reason[:1].upper()}{reason[1:]}. Review > Restore again "
                                   f"({hotkeys.RESTORE_AGAIN}) restores it anyway.")
        else:
            self._status_note = None
            self._host.status_label.setText(f"{words:,} words — restoration unavailable")
            self._host.status_label.setToolTip(status)
            self._host.statusBar().showMessage(f"Restoration {status}", 10000)
            why = status.removeprefix("failed: ")
            self._host.panel.show_notice("Not restored: restoration is unavailable",
                                   f"{why[:1].upper()}{why[1:]}. The text can be edited as it is; "
                                   "Settings chooses another restoration model.")
        self._host.restoration_finished.emit()
