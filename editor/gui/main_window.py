"""The editor window: opens a transcript, restores it in the background, and offers review, editing,
find/replace, export, save, autosave and recovery.

Scripting surface (tests, ``stet gui --screenshot``, benchmarks): ``MainWindow()``,
``open_path(path)``, ``restoration_finished``, ``accept_all(min_confidence)``, ``export(path)``,
``undo()``/``redo()``, ``save(path)``. Accept-all, undo and redo of more than ``BULK_AT_ONCE``
changes run a slice per turn of the event loop and emit ``bulk_finished`` when done. Other parts of the window (a player bar) go in with
``add_bottom_widget(widget)`` and follow ``transcript_opened(transcript)``.
"""

from __future__ import annotations

import itertools
import os
import time
from pathlib import Path

from PySide6.QtCore import QEvent, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QIcon
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from editor.core.document import State, Transcript
from editor.core.errors import UserError
from editor.core.history import leaves
from editor.core.formats import READERS, can_read, read_any, write_any
from editor.core import process
from editor.core.paths import resource_path
from editor.core.render import NONE, RenderPolicy
from editor.core.settings import Settings
from editor.gui import hotkeys, opening, overwrite, recovery
from editor.core.learning import user_forms
from editor.gui.learning import LearnedDialog, LearningController, project_lexicon_update
from editor.gui.dialogs import AcceptAllDialog, EXPORT_FORMATS, ExportDialog, FindBar, SettingsDialog
from editor.gui.encoding import reopen_with_encoding
from editor.gui.panel import QtSuggestionList
from editor.gui.playback import PlaybackController
from editor.gui.recovery import Autosaver
from editor.gui.restoration import RestorationController
from editor.gui.session import Session
from editor.gui.transcription import TranscriptionController
from editor.gui.unsure_words import UnsureWords
from editor.gui.view import QtTranscriptView
from editor.media.kinds import MEDIA_SUFFIXES, is_media

#: Up to this many suggestions (or changes undone at once) are done in one go; a bigger bulk step
#: (accept all on a long transcript) runs a slice at a time so that the window never freezes.
BULK_AT_ONCE = 3000
_BULK_SLICE = 200  # words per slice of accept-all
_BULK_SECONDS = 0.008  # UI time per turn of the event loop for a bulk step, before redrawing
RECENT_LIMIT = 10


def interactive_default() -> bool:
    """Dialogs only where a person can answer them (not offscreen, as in tests)."""
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    return platform not in ("offscreen", "minimal")


class MainWindow(QMainWindow):
    """The Stet editor window."""

    restoration_finished = Signal()
    bulk_finished = Signal()  # an accept-all, undo or redo has been carried out completely
    transcript_opened = Signal(object)  # Transcript
    autosaved = Signal(str)  # path of the recovery file

    def __init__(self, settings: Settings | None = None, *, interactive: bool | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.interactive = interactive_default() if interactive is None else interactive
        self._persist_settings = settings is None
        if settings is None:
            settings, problems = Settings.load()
            for problem in problems:
                print(f"stet: warning: {problem}")
        self.settings = settings
        self.session = Session()  # the transcript, its files, and whether it is saved
        self.restoration_status = ""
        self._status_note: str | None = ""  # after the count in the status bar; None: keep it
        self._bulk = None  # a bulk step under way: (iterator of slices, what to do at the end)
        self.last_accepted = 0  # how many the last accept-all accepted (when it has finished)
        self._disposing: list = []  # documents replaced, taken apart a slice at a time
        self.restore_model_override: str | None = None  # `stet gui --model DIR`, not saved
        # this session's recovery file (editor.gui.recovery), owned by a lock, not by the PID
        self.autosaver = Autosaver(self)
        self.autosaver.saved.connect(self.autosaved)
        self.autosaver.failed.connect(self._autosave_failed)
        self.opening = opening.Opener(self)  # large files are read off the UI thread
        self.setWindowTitle("Stet")
        self.setAcceptDrops(True)
        self.resize(1200, 780)

        self.view = QtTranscriptView(self.transcript, settings)
        self.view.setObjectName("transcript-view")
        self.panel = QtSuggestionList(self.transcript, settings)
        self.panel.setObjectName("suggestion-panel")
        self.view.current_changed.connect(self.panel.show_current)
        self.view.review_mode_changed.connect(self._review_mode_changed)
        self.view.message.connect(lambda text: self.statusBar().showMessage(text, 3000))
        self.panel.activated.connect(self._go_to)
        self.panel.counted.connect(self._pending_counted)
        self.find_bar = FindBar(self.view)
        self.find_bar.hide()
        self.find_bar.closed.connect(self.view.setFocus)

        self.splitter = QSplitter()
        self.splitter.addWidget(self.view)
        self.splitter.addWidget(self.panel)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([820, 340])
        central = QWidget()
        self._layout = QVBoxLayout(central)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(0)
        self._layout.addWidget(self.find_bar)
        self._layout.addWidget(self.splitter, 1)
        self.setCentralWidget(central)

        self.restoration = RestorationController(self)
        self.learning = LearningController(self.settings, self)
        self.learning.message.connect(self._show_status)
        self.learning.error.connect(self._show_status)
        self.restoration.after_slice = self.view.flush
        self.restoration.started.connect(self._restoration_started)
        self.restoration.progress.connect(self._restoration_progress)
        self.restoration.finished.connect(self._restoration_ended)
        self._build_status_bar()
        self._build_actions()
        self.playback = PlaybackController(self)  # a player bar for transcripts with audio
        self.transcription = TranscriptionController(self)  # audio and video files open here
        self.unsure_words = UnsureWords(self, self.view_menu)  # low ASR confidence, underlined
        self._watch(self.transcript)
        self.view.setFocus()

    # -- building ----------------------------------------------------------------------------------
    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.status_label = QLabel("Ready")
        bar.addWidget(self.status_label, 1)
        self.mode_label = QLabel()
        self.mode_label.setObjectName("review-mode")
        bar.addPermanentWidget(self.mode_label)
        self._review_mode_changed(False)
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

    def _action(self, menu, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcuts(hotkeys.sequences(shortcut))
        if tip:
            action.setStatusTip(tip)
        action.triggered.connect(lambda _=False: slot())
        menu.addAction(action)
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        bar = self.menuBar()
        m = bar.addMenu("&File")
        self._action(m, "&Open…", self.open_dialog, hotkeys.OPEN)
        self.recent_menu = m.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self._action(m, "Reopen with &Encoding…", lambda: reopen_with_encoding(self),
                     tip="Read the open text or subtitle file again in another text encoding")
        m.addSeparator()
        self._action(m, "&Save", self.save_dialog, hotkeys.SAVE, "Save the session as a .stet project")
        self._action(m, "Save &As…", lambda: self.save_dialog(ask=True), hotkeys.SAVE_AS)
        self._action(m, "&Export…", self.export_dialog, hotkeys.EXPORT,
                     "Write txt, md, docx, srt, vtt, ass, ttml, sbv or json")
        m.addSeparator()
        self._action(m, "Speech &model…", lambda: self.transcription.choose_model(),
                     tip="Download a Vosk model or choose a model folder for transcribing")
        m.addSeparator()
        self._action(m, "&Quit", self.close, hotkeys.QUIT)

        m = bar.addMenu("&Edit")
        self.undo_action = self._action(m, "&Undo", self.undo, hotkeys.UNDO)
        self.redo_action = self._action(m, "&Redo", self.redo, hotkeys.REDO)
        m.addSeparator()
        self._action(m, "Insert playback &time", self.insert_playback_time, hotkeys.INSERT_TIME,
                     "Type the recording's current time, as [m:ss], at the caret")
        m.addSeparator()
        self._action(m, "&Find…", self.show_find, hotkeys.FIND)
        self._action(m, "Find &Next", lambda: self.find_bar.find_next(), hotkeys.FIND_NEXT)
        self._action(m, "&Replace…", lambda: self.show_find(replace=True), hotkeys.REPLACE)
        m.addSeparator()
        self._action(m, "&Settings…", self.settings_dialog, hotkeys.PREFERENCES)

        m = bar.addMenu("&Review")
        # Tab, Return, Delete and digits are keys of the text view (so they still edit when no
        # suggestion is under review); the menu shows them after a tab without taking them over.
        self._action(m, "&Next suggestion\tTab", lambda: self.view.next_suggestion())
        self._action(m, "&Previous suggestion\tShift+Tab",
                     lambda: self.view.next_suggestion(reverse=True))
        self._action(m, "&Lowest confidence", self.view.lowest_confidence, hotkeys.NEXT_LOWEST)
        self.order_action = self._action(m, "Tab goes lowest confidence &first",
                                         self.toggle_order, hotkeys.TOGGLE_ORDER)
        self.order_action.setCheckable(True)
        self.order_action.setChecked(self.view.order == "confidence")
        m.addSeparator()
        self._action(m, "&Accept\tReturn", self.view.accept_current)
        self._action(m, "Re&ject\tDelete", self.view.reject_current)
        self._action(m, "Show &alternatives", self.view.show_alternatives, hotkeys.SHOW_ALTERNATIVES)
        m.addSeparator()
        self._action(m, "Accept all &confident", lambda: self.accept_all(self.settings.review.high),
                     hotkeys.ACCEPT_ALL, "Accept every pending suggestion at or above the high threshold")
        self._action(m, "Accept all at or a&bove…", self.accept_all_dialog)
        self._action(m, "Accept all pending", lambda: self.accept_all(0.0))
        self._action(m, "Reject all pending", self.reject_all, hotkeys.REJECT_ALL)
        m.addSeparator()
        self._action(m, "What Stet &learned…", self.learned_dialog,
                     tip="The forms Stet remembers from your reviews, and whether choices repeat")
        self._action(m, "Restore &again", self.start_restoration, hotkeys.RESTORE_AGAIN)
        self._action(m, "&Cancel restoration", self.cancel_restoration, hotkeys.CANCEL)

        m = bar.addMenu("&View")
        self._action(m, "&Text", self.view.setFocus, hotkeys.FOCUS_TEXT)
        self._action(m, "&Suggestion list", self.panel.list.setFocus, hotkeys.FOCUS_LIST)
        self._action(m, "Zoom &in", lambda: self._zoom(+1), hotkeys.ZOOM_IN)
        self._action(m, "Zoom &out", lambda: self._zoom(-1), hotkeys.ZOOM_OUT)
        self.view_menu = m
        self._update_undo_actions()

    def add_bottom_widget(self, widget: QWidget) -> None:
        """Put a widget (e.g. a player bar) under the text, across the whole window."""
        self._layout.addWidget(widget)

    # -- the document ------------------------------------------------------------------------------
    @property
    def transcript(self) -> Transcript:
        return self.session.transcript

    @property
    def source(self) -> Path | None:
        """The file the transcript came from."""
        return self.session.source

    @property
    def path(self) -> Path | None:
        """The .stet project, once saved (or opened)."""
        return self.session.project

    @property
    def dirty(self) -> bool:
        """There is work not saved (see ``Session``)."""
        return self.session.dirty

    def _watch(self, doc: Transcript) -> None:
        doc.history.changed.connect(self._history_changed)

    def _unwatch(self, doc: Transcript) -> None:
        try:
            doc.history.changed.disconnect(self._history_changed)
        except (RuntimeError, ValueError, TypeError):
            pass

    def set_transcript(self, doc: Transcript, *, source: Path | None = None,
                       project: Path | None = None, restore: bool = True) -> None:
        """Show ``doc`` (replacing the current one) and, if it has no suggestions, restore it."""
        self.restoration.cancel(quiet=True)
        self._restoration_idle()
        self._unwatch(self.transcript)
        self.autosaver.discard()  # the work shown until now was saved or given up
        old = self.session.replace(doc, source=source, project=project)
        # The garbage collector's full passes scan every token and suggestion: 100-300 ms on a
        # long transcript, felt as a freeze; so what exists is kept out of them (frozen by
        # _restoration_idle above). The document replaced goes by reference counting once its undo
        # steps, which refer back to it, are dropped: no full pass needed (one took 120-140 ms at
        # 100,000 words).
        if old is not doc:
            self._dispose(old)
        self.view.set_transcript(doc)
        self.panel.set_transcript(doc)
        self._watch(doc)
        self._update_title()
        self._update_undo_actions()
        self.transcript_opened.emit(doc)
        words = len(doc)
        self.status_label.setText(f"{words:,} words")
        self._status_note = ""
        if restore and words and not doc.suggestions():
            self.start_restoration()
        else:
            if doc.suggestions():
                self._pending_counted(self.panel.pending_count)
            self.restoration_status = "skipped"
            QTimer.singleShot(0, self.restoration_finished.emit)

    def _dispose(self, old: Transcript) -> None:
        """Take the replaced document apart a slice per turn of the event loop: freeing 100,000
        words with 200,000 suggestions and their undo steps at once held the window ~1 s (and its
        undo steps refer back to it, so without this only a full garbage collection frees it)."""
        history = old.history

        def slices():
            for stack in (history._undo, history._redo):  # noqa: SLF001 — its own parts
                while stack:
                    group = stack.pop()
                    for command in leaves(group):
                        for name in ("new", "old"):
                            changes = getattr(command, name, None)
                            while isinstance(changes, list) and changes:
                                del changes[-5_000:]
                                yield
                    del group
                    yield
            suggestions = old._sugg  # noqa: SLF001
            while suggestions:
                for key in list(itertools.islice(suggestions, 10_000)):
                    del suggestions[key]
                yield
            tokens = old._tokens  # noqa: SLF001
            while tokens:
                del tokens[-20_000:]
                yield
            old._tuple = None  # noqa: SLF001
            old._index.clear()  # noqa: SLF001
            history.clear()

        self._disposing.append(slices())
        if len(self._disposing) == 1:
            QTimer.singleShot(0, self._dispose_slice)

    def _dispose_slice(self) -> None:
        end = time.perf_counter() + 0.005
        while self._disposing and time.perf_counter() < end:
            if next(self._disposing[0], None) is None:
                self._disposing.pop(0)
        if self._disposing:
            QTimer.singleShot(0, self._dispose_slice)

    def open_path(self, path: str | os.PathLike[str], encoding: str | None = None) -> Transcript:
        """Open a transcript file (a text one in ``encoding`` when given) and start restoring it.
        Raises ``UserError`` if it cannot be read."""
        path = Path(path)
        if is_media(path):  # transcribed in the background; the words arrive as they are heard
            doc = self.transcription.open(path)
            if doc is None:  # the person cancelled the question of its language
                return self.transcript
            self._remember_recent(path)
            return doc
        doc = read_any(path, encoding)
        self._show_opened(path, doc)
        return doc

    def _history_changed(self) -> None:
        by_person = not self.restoration.applying  # restoration results leave it as saved as it was
        self.session.note_change(by_person=by_person)
        if by_person:
            self.autosaver.changed()
        self._update_title()
        self._update_undo_actions()

    def _update_title(self) -> None:
        self.setWindowTitle(f"{self.session.name}[*] — Stet")
        self.setWindowModified(self.dirty)

    def _update_undo_actions(self) -> None:
        h = self.transcript.history
        self.undo_action.setEnabled(h.can_undo)
        self.redo_action.setEnabled(h.can_redo)
        self.undo_action.setText(f"&Undo {h.undo_text}" if h.can_undo else "&Undo")
        self.redo_action.setText(f"&Redo {h.redo_text}" if h.can_redo else "&Redo")

    # -- scripting surface -------------------------------------------------------------------------
    def accept_all(self, min_confidence: float = 0.0) -> int:
        """Accept every pending suggestion with confidence >= ``min_confidence`` (a word's case
        follows the sentence end before it: see ``Transcript.pending_to_apply``); one undo step.
        Returns how many; on a transcript of more than BULK_AT_ONCE words it runs a slice per turn
        of the event loop and returns -1: ``bulk_finished`` then, and ``last_accepted``."""
        if self.busy_with_bulk():
            return 0
        doc = self.transcript
        text = f"Accept all ≥ {min_confidence:.0%}"
        counts = [0, 0]  # accepted, held back

        def note() -> None:
            count, held = counts
            self.last_accepted = count
            self.statusBar().showMessage(f"Accepted {count:,} suggestions" + (
                f"; {held:,} case suggestions wait for the sentence end before them"
                if held else ""), 6000)

        def accept(start: int, end: int | None, merge_id=None) -> None:
            above = sum(1 for t in doc.tokens[start:end]
                        for s in doc.suggestions_of(t.id).values()
                        if s.state == State.PENDING and s.confidence >= min_confidence) \
                if doc.tokens else 0
            chosen = doc.pending_to_apply(min_confidence, start=start, end=end)
            counts[0] += doc.accept_suggestions(chosen, text=text, merge_id=merge_id)
            counts[1] += above - len(chosen)

        if len(doc.tokens) <= BULK_AT_ONCE:
            accept(0, None)
            note()
            QTimer.singleShot(0, self.bulk_finished.emit)
            return counts[0]
        # A long transcript: a slice of words per turn of the event loop, all one undo step.
        merge_id = ("accept all", id(self), time.perf_counter())

        def slices():
            for start in range(0, len(doc), _BULK_SLICE):
                accept(start, start + _BULK_SLICE, merge_id)
                yield
        self.statusBar().showMessage("Accepting suggestions…")
        self._run_bulk(slices(), note)
        return -1

    # -- bulk steps, a slice per turn of the event loop --------------------------------------------
    def busy_with_bulk(self) -> bool:
        if self._bulk is not None:
            self.statusBar().showMessage("Still working on the last step…", 2000)
            return True
        return False

    def _run_bulk(self, slices, done) -> None:
        self._bulk = (slices, done)
        self.restoration.paused = True  # its results would split the step in two
        self.view.frozen = True
        self.panel.busy = True  # refreshed seldom meanwhile, and once at the end
        process.hold_collections()  # none over the new records meanwhile (see set_transcript)
        self.view.last_changed = None
        QTimer.singleShot(0, self._bulk_slice)

    def _bulk_slice(self) -> None:
        if self._bulk is None:
            return
        slices, done = self._bulk
        end = time.perf_counter() + _BULK_SECONDS
        finished = False
        while time.perf_counter() < end:
            if next(slices, StopIteration) is StopIteration:
                finished = True
                break
        self.view.flush()
        if not finished:
            QTimer.singleShot(0, self._bulk_slice)
            return
        self._bulk = None
        self.restoration.paused = False
        self.view.frozen = False
        self.panel.busy = self.restoration.running
        if not self.restoration.running:
            process.release_collections()
        self.panel.refresh_soon()
        done()
        self.bulk_finished.emit()

    def accept_all_dialog(self) -> AcceptAllDialog:
        """Ask for a threshold in percent, showing how many it accepts; accept on OK."""
        doc = self.transcript
        low = self.settings.review.low

        def count(threshold: float) -> tuple[int, int]:
            chosen = doc.pending_to_apply(threshold)
            return len(chosen), sum(1 for s in chosen if s.confidence < low)

        dialog = AcceptAllDialog(self.settings, count, len(doc.pending()), self)
        dialog.accepted.connect(lambda: self.accept_all(dialog.threshold))
        if self.interactive:
            dialog.exec()
        else:
            dialog.open()  # tests and scripts drive it
        return dialog

    def insert_playback_time(self) -> str | None:
        """Ctrl+J (as in oTranscribe): the playback position as "[m:ss]" at the caret."""
        from editor.gui.gutter import format_time

        player = self.playback.player
        if player is None or self.playback.audio_path is None:
            self.statusBar().showMessage("No recording is open: Ctrl+J types the playback time "
                                         "when a transcript with audio plays", 5000)
            return None
        stamp = f"[{format_time(player.position)}]"
        cursor = self.view.textCursor()
        before = self.view.document().characterAt(cursor.selectionStart() - 1) \
            if cursor.selectionStart() > 0 else " "
        lead = "" if before.isspace() or before == "\u2029" else " "
        self.view.insert_text(f"{lead}{stamp} ")  # one edit, one undo step
        return stamp

    def reject_all(self) -> int:
        count = self.transcript.reject_all()
        self.statusBar().showMessage(f"Rejected {count} suggestions", 4000)
        return count

    def undo(self) -> bool:
        """Undo one step (and bring what it changed into view). A big step (accept all on a long
        transcript) is undone a slice at a time; ``bulk_finished`` says when it is done."""
        return self._step(undo=True)

    def redo(self) -> bool:
        return self._step(undo=False)

    def _step(self, undo: bool) -> bool:
        if self.busy_with_bulk():
            return False
        history = self.transcript.history
        if history.size_of_step(undo) <= BULK_AT_ONCE:
            done: list[bool] = []
            self.view.reveal_change(lambda: done.append(history.undo() if undo else history.redo()))
            if done[0]:
                QTimer.singleShot(0, self.bulk_finished.emit)
            return done[0]
        text = history.undo_text if undo else history.redo_text
        steps = history.stepwise(undo)
        if steps is None:
            return False
        self.view.flush()
        self.statusBar().showMessage(f"{'Undoing' if undo else 'Redoing'} {text}…")

        def done() -> None:
            self.statusBar().showMessage(f"{'Undid' if undo else 'Redid'} {text}", 4000)
            self.view.reveal_last_change()
        self._run_bulk(steps, done)
        return True

    def export(self, path: str | os.PathLike[str], policy: RenderPolicy = NONE) -> Path:
        """Write the transcript by extension; pending suggestions are left out unless ``policy``
        applies them. No dialog."""
        path = Path(path)
        self.autosaver.save_now()  # before a long job
        write_any(self.transcript, path, policy)
        self.statusBar().showMessage(f"Exported {path.name}", 4000)
        return path

    def save(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Save the session as a .stet project (every suggestion and its state kept)."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise UserError("no project file to save to yet; give a path")
        if target.suffix.lower() != ".stet":
            target = target.with_suffix(".stet")
        forms = user_forms(self.transcript)  # one pass over the words, for the project and the user
        extra = project_lexicon_update(self.transcript, forms)  # the project's own lexicon travels in it
        if extra is not None:
            self.transcript.set_metadata(extra=extra)
        write_any(self.transcript, target)
        self.learning.remember(self.transcript, forms)
        self.session.mark_saved(target)
        self._remember_recent(target)
        self.discard_recovery()
        self._update_title()
        self.statusBar().showMessage(f"Saved {target.name}", 4000)
        return target

    # -- restoration -------------------------------------------------------------------------------
    def start_restoration(self) -> None:
        self.autosaver.save_now()  # before a long job
        self.restoration.model = (self.restore_model_override
                                  or self.settings.engine.restore_model or None)
        self.restoration.device = self.settings.engine.device
        self.restoration.use_learned = self.settings.review.use_learned
        self.restoration.start(self.transcript, priority=self.view.visible_tokens())

    def preload_restorer(self) -> None:
        """Load the restoration model in the background before any document needs it."""
        self.restoration.model = (self.restore_model_override
                                  or self.settings.engine.restore_model or None)
        self.restoration.device = self.settings.engine.device
        self.restoration.load_in_background()

    def cancel_restoration(self) -> None:
        self.transcription.cancel()
        self.restoration.cancel()

    def _restoration_started(self, words: int) -> None:
        self.restoration_status = "running"
        self.progress.setRange(0, max(words, 1))
        self.progress.setValue(0)
        self.progress.show()
        self.cancel_button.show()
        self.panel.busy = True
        process.hold_collections()  # none while suggestions stream in; see set_transcript
        self.status_label.setText(f"{words:,} words — loading the restoration model…"
                                  if self.restoration.restorer is None
                                  else f"{words:,} words — restoring punctuation and capitals…")
        self._restoration_began = time.perf_counter()

    def _restoration_progress(self, done: int, total: int) -> None:
        # A progress bar repaints at once on every new value: a few times a second is plenty.
        now = time.perf_counter()
        if done < total and now - getattr(self, "_progress_shown", 0.0) < 0.25:
            return
        self._progress_shown = now
        self.progress.setMaximum(max(total, 1))
        self.progress.setValue(done)
        if done and "loading" in self.status_label.text():
            self.status_label.setText(f"{total:,} words — restoring punctuation and capitals…")

    def _restoration_idle(self) -> None:
        self.progress.hide()
        self.cancel_button.hide()
        self.panel.busy = False
        process.release_collections()

    def _restoration_ended(self, status: str) -> None:
        self.restoration_status = status
        self._restoration_idle()
        # counts the pending ones without sorting them all; a long transcript's a slice at a time
        # (the status bar follows the count when it is in)
        if len(self.transcript) <= BULK_AT_ONCE * 4:
            self.panel.refresh()
        else:
            self.panel.refresh_soon()
        pending = self.panel.pending_count
        if status == "done":
            took = time.perf_counter() - getattr(self, "_restoration_began", time.perf_counter())
            self._status_note = f" (restored in {took:.1f} s)"
            self._pending_counted(pending)
        elif status == "cancelled":
            self._status_note = " (restoration cancelled)"
            self._pending_counted(pending)
        elif status.startswith("skipped: "):
            self._status_note = None
            self.status_label.setText(f"{len(self.transcript):,} words — not restored: "
                                      f"{status.removeprefix('skipped: ')}")
            self.status_label.setToolTip(status)
        else:
            self._status_note = None
            self.status_label.setText(f"{len(self.transcript):,} words — restoration unavailable")
            self.status_label.setToolTip(status)
            self.statusBar().showMessage(f"Restoration {status}", 10000)
        self.restoration_finished.emit()

    # -- review ------------------------------------------------------------------------------------
    def _review_mode_changed(self, reviewing: bool) -> None:
        """The status bar always says what Enter and Delete do now."""
        if reviewing:
            self.mode_label.setText("Reviewing: Enter accepts, Delete rejects")
            self.mode_label.setToolTip("Move the caret (arrow keys, a click) or press Esc to edit")
        else:
            self.mode_label.setText("Editing")
            self.mode_label.setToolTip("Enter, Delete and digits edit the text; Tab goes to the "
                                       "next suggestion")
        self.panel.set_reviewing(reviewing)

    def _pending_counted(self, pending: int) -> None:
        """The status bar's count follows the list's (accepting, rejecting, undoing, editing)."""
        if self.restoration.running or self.transcription_running() or self._status_note is None:
            return
        words = len(self.transcript)
        self.status_label.setText((f"{words:,} words — {pending:,} suggestions to review"
                                   if pending else f"{words:,} words — no suggestions pending")
                                  + self._status_note)

    def transcription_running(self) -> bool:
        return bool(getattr(self.transcription, "running", False))

    def _go_to(self, suggestion) -> None:
        self.view.set_current(suggestion)
        self.view.setFocus()

    def toggle_order(self) -> None:
        order = "position" if self.view.order == "confidence" else "confidence"
        self.view.order = order
        self.settings.set("review.order", order)
        self.order_action.setChecked(order == "confidence")
        self._save_settings()

    # -- dialogs -----------------------------------------------------------------------------------
    def _error(self, title: str, err: BaseException) -> None:
        if self.interactive:
            QMessageBox.warning(self, title, str(err))
        else:
            self.statusBar().showMessage(f"{title}: {err}", 10000)

    def open_dialog(self) -> None:
        if not self._may_discard():
            return
        patterns = " ".join(f"*{ext}" for ext in READERS)
        media = " ".join(f"*{ext}" for ext in MEDIA_SUFFIXES)
        path, _ = QFileDialog.getOpenFileName(
            self, "Open a transcript, or a recording to transcribe", self._last_folder(),
            f"Transcripts and recordings ({patterns} {media});;Transcripts ({patterns});;"
            f"Audio and video ({media});;All files (*)")
        if path:
            self._open_reporting(path)

    def _open_reporting(self, path: str | os.PathLike[str]) -> None:
        """Open from a menu, a drop or the command line: errors are reported, not raised. A large
        file, or anything but a plain file (a FIFO, a device), is read off the UI thread."""
        if opening.needs_background(Path(path)):
            self.opening.start(Path(path))
            return
        try:
            self.open_path(path)
        except UserError as err:
            self._error("Cannot open", err)

    def _show_opened(self, path: Path, doc: Transcript) -> None:
        """A transcript just read from ``path`` (here or in the background) becomes the window's."""
        project = path if path.suffix.lower() == ".stet" else None
        self.set_transcript(doc, source=path, project=project)
        self._remember_recent(path)
        for warning in doc.metadata.warnings:
            self.statusBar().showMessage(f"{path.name}: {warning}", 8000)

    def save_dialog(self, ask: bool = False) -> None:
        target = self.path
        if target is None or ask:
            suggested = self.path or (self.source.with_suffix(".stet") if self.source
                                      else Path(self._last_folder()) / "untitled.stet")
            # the dialog asks before replacing a file (Qt's default, kept on)
            chosen, _ = QFileDialog.getSaveFileName(self, "Save session", str(suggested),
                                                    "Stet project (*.stet)")
            if not chosen:
                return
            target = Path(chosen)
            if target.suffix.lower() != ".stet":
                target = target.with_suffix(".stet")
            if not overwrite.may_replace(self, target, action="save", source=self.source,
                                         confirmed=target == Path(chosen)):
                return
        elif overwrite.read_only(target):
            overwrite.may_replace(self, target, action="save")  # says why, changes nothing
            return
        try:
            self.save(target)
        except (UserError, OSError) as err:
            self._error("Cannot save", err)

    def export_dialog(self) -> None:
        base = self.source or self.path or Path(self._last_folder()) / "transcript"
        suggested = base.with_suffix(".docx" if base.suffix.lower() == ".txt" else ".txt")
        doc = self.transcript
        dialog = ExportDialog(self.settings, suggested, len(doc.pending()), self,
                              count=lambda t: len(doc.pending_to_apply(t)))
        if not dialog.exec():
            return
        path = dialog.chosen_path
        if path.suffix.lower() not in EXPORT_FORMATS:
            path = path.with_suffix(dialog.format.currentData())
        if not overwrite.may_replace(self, path, action="export", source=self.source,
                                     confirmed=path == dialog.confirmed_path):
            return
        try:
            self.export(path, dialog.chosen_policy)
        except (UserError, OSError) as err:
            self._error("Cannot export", err)

    def learned_dialog(self) -> LearnedDialog:
        dialog = LearnedDialog(self.settings, self)
        dialog.accepted.connect(self.apply_settings)
        dialog.open()
        return dialog

    def _show_status(self, text: str) -> None:
        self.statusBar().showMessage(text, 6000)

    def settings_dialog(self) -> None:
        dialog = SettingsDialog(self.settings, self)
        if dialog.exec():
            dialog.apply()
            self.apply_settings()

    def apply_settings(self) -> None:
        self.view.order = self.settings.review.order
        self.order_action.setChecked(self.view.order == "confidence")
        self.view.apply_settings()
        self.panel.apply_settings()
        self.unsure_words.apply()
        self._save_settings()

    def _save_settings(self) -> None:
        if self._persist_settings:
            try:
                self.settings.save()
            except OSError as err:
                self.statusBar().showMessage(f"Settings not saved: {err}", 8000)

    def _zoom(self, step: int) -> None:
        size = min(48, max(6, self.settings.appearance.font_size + step))
        self.settings.set("appearance.font_size", size)
        self.view.apply_settings()
        self._save_settings()

    def show_find(self, replace: bool = False) -> None:
        self.find_bar.show()
        selected = self.view.textCursor().selectedText()
        if selected and "\u2029" not in selected:
            self.find_bar.find_edit.setText(selected)
        (self.find_bar.replace_edit if replace else self.find_bar.find_edit).setFocus()
        self.find_bar.find_edit.selectAll()

    # -- recent files ------------------------------------------------------------------------------
    def _remember_recent(self, path: Path) -> None:
        text = str(path.resolve())
        recent = [p for p in self.settings.recent_files if p != text]
        self.settings.set("recent_files", [text, *recent][:RECENT_LIMIT])
        self._save_settings()

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for text in self.settings.recent_files:
            action = self.recent_menu.addAction(text)
            action.setEnabled(Path(text).exists())
            action.triggered.connect(lambda _=False, p=text: self._may_discard() and self._open_reporting(p))
        if not self.settings.recent_files:
            self.recent_menu.addAction("(none)").setEnabled(False)

    def _last_folder(self) -> str:
        for text in self.settings.recent_files:
            if Path(text).parent.exists():
                return str(Path(text).parent)
        return str(Path.home())

    # -- drag and drop -----------------------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile() and (can_read(urls[0].toLocalFile())
                                               or is_media(urls[0].toLocalFile())):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile() and self._may_discard():
            event.acceptProposedAction()
            self._open_reporting(urls[0].toLocalFile())

    # -- autosave and recovery (editor.gui.recovery) ------------------------------------------------
    @property
    def recovery_path(self) -> Path:
        """This session's recovery file (it exists while there is unsaved work)."""
        return self.autosaver.path

    def autosave(self) -> None:
        """Write the unsaved work to the recovery file now, in the background."""
        self.autosaver.save_now()

    def _autosave_failed(self, why: str) -> None:
        self.statusBar().showMessage(f"Autosave failed: {why}", 8000)

    def discard_recovery(self) -> None:
        self.autosaver.discard()

    def offer_recovery(self, opening: str | None = None) -> bool:
        """At start: offer the work of sessions that stopped unsaved (see ``recovery.offer``).
        True when one was restored."""
        return recovery.offer(self, opening)

    def recover(self, orphan) -> bool:
        """Open a recovery file (a ``recovery.Orphan``) as this session's unsaved work."""
        try:
            doc = read_any(orphan.data)
        except UserError as err:
            self._error("Cannot recover", err)
            return False
        info = orphan.info
        self.set_transcript(doc, source=Path(info.source) if info.source else None,
                            project=Path(info.project) if info.project else None, restore=False)
        self.autosaver.slot.take_over(orphan)  # it is this session's recovery file now
        self.session.mark_unsaved()  # in no file but the recovery file
        self._update_title()
        self.statusBar().showMessage(f"Restored the autosaved work on {info.name}", 8000)
        return True

    def changeEvent(self, event: QEvent) -> None:
        if (event.type() == QEvent.Type.ActivationChange and not self.isActiveWindow()
                and hasattr(self, "autosaver")):
            self.autosaver.save_now()  # focus went elsewhere: nothing waits to be written
        super().changeEvent(event)

    # -- closing -----------------------------------------------------------------------------------
    def _may_discard(self) -> bool:
        """True when the current work may be replaced (saved, nothing done, or the person agrees)."""
        if not self.dirty or not self.interactive:
            return True
        answer = QMessageBox.question(
            self, "Unsaved changes", "Save the changes to this transcript first?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel)
        if answer == QMessageBox.StandardButton.Cancel:
            return False
        if answer == QMessageBox.StandardButton.Save:
            self.save_dialog()
            return not self.dirty
        return True

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._may_discard():
            event.ignore()
            return
        self.restoration.cancel(quiet=True)
        self.transcription.cancel(quiet=True)
        process.release_collections()  # a cancelled pass does not end the hold itself
        self.playback.close()
        # closed by a script with work unsaved: keep it for the next start
        self.autosaver.close(keep=self.dirty and not self.interactive)
        event.accept()


def application(argv: list[str] | None = None) -> QApplication:
    """The QApplication (created once)."""
    app = QApplication.instance()
    if app is None:
        app = QApplication(argv or ["stet"])
        app.setApplicationName("Stet")
        app.setOrganizationName("Stet")
        app.setDesktopFileName("stet")
        app.setWindowIcon(QIcon(str(resource_path("icons", "stet.svg"))))
    return app  # type: ignore[return-value]


__all__ = ["MainWindow", "application"]
