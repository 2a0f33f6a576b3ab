"""The editor window: opens a transcript, restores it in the background, and offers review, editing,
find/replace, export, save, autosave and recovery.

Scripting surface (tests, ``stet gui --screenshot``, benchmarks): ``MainWindow()``,
``open_path(path)``, ``open_reporting(path)``, ``restoration_finished``,
``accept_all(min_confidence)``, ``export(path)``, ``undo()``/``redo()``, ``save(path)`` (written
in the background: ``project_saved``/``project_save_failed``; ``save(path, wait=True)`` returns
once written).
Accept-all, undo and redo of more than ``BULK_AT_ONCE`` changes run a slice per turn of the event
loop and emit ``bulk_finished`` when done. Other parts of the window (a player bar) go in with
``add_bottom_widget(widget)`` and follow ``transcript_opened(transcript)``.

The window is put together from parts, each in its own module and given the window as a typed
host Protocol that lists what it may touch: files (``files``, window/files.py), review commands
(``review``, window/review.py), restoration and the status line (``restoring``, window/restoring.py);
the menus are built by window/menus.py, autosave and recovery are in recovery. The window keeps
delegates only for the scripting surface above. What it has open is a ``Session``; the
controllers (transcription, playback, learning, opening) know the session and the settings and
talk back through signals wired here.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import cast

from PySide6.QtCore import QEvent, Signal
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QIcon
from PySide6.QtWidgets import (QApplication, QLabel, QMainWindow, QMenu, QMessageBox, QSplitter, QVBoxLayout,
                               QWidget)

from editor.core import process
from editor.core.document.transcript import Suggestion, Transcript
from editor.core.errors import UserError
from editor.core.recovery.slots import Orphan
from editor.core.render import ALL, RenderPolicy
from editor.core.paths import resource_path
from editor.core.settings import Settings
from editor.gui.work import opening
from editor.gui.work import recovery
from editor.gui.dialogs.find_bar import FindBar
from editor.gui.dialogs.settings import SettingsDialog
from editor.gui.work.encoding import reopen_with_encoding as reopen_encoding
from editor.gui.text_view.fonts import font_advice
from editor.gui.base.disposal import Disposer
from editor.gui.window.help import HelpCommands
from editor.gui.window.cue_check import CueCheck
from editor.gui.base.links import DocumentLinks
from editor.gui.text_view.looks import band_phrase
from editor.gui.dialogs.learned import LearnedDialog
from editor.gui.work.learning import LearningController, TaughtNote
from editor.gui.panel.panel import QtSuggestionList
from editor.gui.playback.playback import PlaybackController
from editor.gui.playback.review_listen import ReviewListener
from editor.gui.work.recovery import Autosaver
from editor.gui.work.restoration import RestorationController, Restorers
from editor.gui.work.saving import ProjectSaver
from editor.gui.base.session import Session
from editor.gui.work.transcription import TranscriptionController
from editor.gui.base.turns import WindowTurns
from editor.gui.text_view.review import EDITING_NOTE
from editor.gui.base.status_bar import StatusBar, StatusLabel
from editor.gui.text_view.accessibility import spoken_count
from editor.gui.text_view.unsure_words import UnsureWords
from editor.gui.text_view.view import QtTranscriptView
from editor.gui.window.files import RECENT_LIMIT, FileCommands
from editor.gui.window.speakers import SpeakerCommands
from editor.gui.window.menus import build_menus, confident_text
from editor.gui.window.restoring import RestorationCommands
from editor.gui.window.review import BULK_AT_ONCE, ReviewCommands
from editor.gui.base.modal import run_modal
from editor.gui.base.screen_fit import resize_within_screen
from editor.restore import CHOSEN, profile_key


#: Words whose characters are looked at for a script no font here has (see ``_check_fonts``).
FONT_SAMPLE = 5000


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
    project_saved = Signal(str)  # path of the project, once written (``save``)
    project_save_failed = Signal(str)  # why a save could not be written
    export_done = Signal(object)  # an Export dialog's file written (its path), or None: not written

    # made from the table of actions by window.menus.build_menus
    menu_actions: dict[str, QAction]
    recent_menu: QMenu
    undo_action: QAction
    redo_action: QAction
    order_action: QAction
    accept_confident_action: QAction
    keep_author_action: QAction
    # made by _build_controllers (annotated here: the parts built before them are given the window)
    transcription: TranscriptionController
    opening: opening.Opener
    learning: LearningController
    restoration: RestorationController

    def __init__(self, settings: Settings | None = None, *, interactive: bool | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._interactive = interactive_default() if interactive is None else interactive
        self._persist_settings = settings is None
        if settings is None:
            settings, problems = Settings.load()
            for problem in problems:
                print(f"stet: warning: {problem}")
        self.settings = settings
        self.session = Session()  # the transcript, its files, and whether it is saved
        self.restore_model_override: str | None = None  # `stet gui --model DIR`, not saved
        self.disposer = Disposer(self)  # documents replaced, taken apart a slice at a time
        self._history_link = DocumentLinks()  # to the document's undo history
        # this session's recovery file (editor.gui.work.recovery), owned by a lock, not by the PID
        # the window's long steps, which background work gives way to (editor.gui.base.turns)
        self.turns = WindowTurns()
        self.turns.follow()
        self.autosaver = Autosaver(self, self, give_way=self.turns.give_way)
        self.autosaver.saved.connect(self.autosaved)
        self.autosaver.failed.connect(self._autosave_failed)
        # the project is written off the UI thread (editor.gui.work.saving)
        self.saver = ProjectSaver(self, self, give_way=self.turns.give_way)
        self.files = FileCommands(self, self)  # open, save, export, recent files (window/files.py)
        self.saver.written.connect(self.files.project_written)
        self.saver.failed.connect(self.files.project_not_written)
        self.setWindowTitle("Stet")
        self.setAcceptDrops(True)
        resize_within_screen(self, 1200, 780)
        bar = StatusBar(self)  # a long message ends in "…", whole in its tooltip
        self.setStatusBar(bar)
        self._build_body()
        bar.said.connect(self.view.narrator.note)  # every message is said too (accessibility)
        self.restoration_finished.connect(self._say_restored)
        self._build_controllers()
        self.review = ReviewCommands(self, self)  # accept all, undo and redo, bulk steps (window/review.py)
        self.status_label = StatusLabel("Ready")  # a long line ends in "…": never widens the window
        bar.addWidget(self.status_label, 1)
        self.mode_label = QLabel()  # what Enter and Delete do now (reviewing or editing)
        self.mode_label.setObjectName("review-mode")
        bar.addPermanentWidget(self.mode_label)
        self.taught_note = TaughtNote(self.learning)  # what a save taught, and Forget (work/learning.py)
        bar.addPermanentWidget(self.taught_note)
        # starting and cancelling passes, and the status line that follows them (window/restoring.py)
        self.restoring = RestorationCommands(self, self)
        self.transcription.restore_requested.connect(self.restoring.start_restoration)
        for widget in self.transcription.widgets:
            self.statusBar().addPermanentWidget(widget)
        self.panel.counted.connect(self.restoring.show_pending)
        # a visit changes what is left to visit: the status bar's count follows review too
        self.view.point_arrived.connect(lambda _point: self.restoring.show_pending(self.transcript.pending_decisions))
        self._review_mode_changed(False)
        self.speakers = SpeakerCommands(self.view, self.say)  # the Speakers menu (editor.gui.window.speakers)
        self.help = HelpCommands(self)  # the Help menu (editor.gui.window.help)
        self.cue_check = CueCheck(self, self)  # Review > Check line length and reading speed
        menus = build_menus(self)  # from the table of actions (editor.gui.base.actions)
        self.menu_actions = menus.actions
        self.recent_menu = menus.recent
        self.undo_action, self.redo_action = menus.actions["edit.undo"], menus.actions["edit.redo"]
        self.order_action = menus.actions["review.order"]
        self.order_action.setChecked(self.view.order == "confidence")
        self.accept_confident_action = menus.actions["review.accept_confident"]
        self.accept_confident_action.setText(confident_text(self.settings.review.high))
        self.keep_author_action = menus.actions["review.keep_author"]
        self.keep_author_action.setChecked(self.restoring.keeping_author)
        menus.actions["view.short_speech"].setChecked(self.settings.review.short_speech)
        # a message stays until the person's next action (editor.gui.base.status_bar): a key or
        # a click in the text or the list, or a command
        bar.watch_actions(self.view, self.view.viewport(), self.panel.list, self.panel.list.viewport())
        for action in self.menu_actions.values():
            action.triggered.connect(bar.next_action)
        self.speakers.use_menu(menus.menus["Speakers"], [menus.actions[f"speakers.number.{n}"] for n in range(1, 10)])
        # low ASR confidence, underlined
        self.unsure_words = UnsureWords(self.settings, self.view, menus.actions["view.unsure"], parent=self.view,
                                        save_settings=self.save_settings, refresh_legend=self.panel.legend.refresh)
        self._watch(self.transcript)
        self.update_undo_actions()
        self.view.setFocus()

    # -- building ----------------------------------------------------------------------------------
    def _build_body(self) -> None:
        settings = self.settings
        self.view = QtTranscriptView(self.transcript, settings, turns=self.turns)
        self.view.setObjectName("transcript-view")
        self.panel = QtSuggestionList(self.transcript, settings, turns=self.turns)
        self.panel.setObjectName("suggestion-panel")
        self.view.current_changed.connect(self.panel.show_current)
        self.view.current_changed.connect(self._show_review_mode)
        self.view.review_mode_changed.connect(self._review_mode_changed)
        self.view.message.connect(lambda text: self.statusBar().showMessage(text, 3000))
        self.panel.activated.connect(self._go_to)
        self.view.review.list_next = self.panel.row_after
        self.panel.reject_requested.connect(self._reject_from_list)
        self.panel.band_changed.connect(self._band_changed)
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

    def _build_controllers(self) -> None:
        session, settings = self.session, self.settings
        # in the window's process, passes and the model run in a worker process (restoration.Restorers)
        self.restoration = RestorationController(
            self, turns=self.turns, restorers=Restorers(in_worker=process.configured_for_gui()))
        self.restoration.after_slice = self.view.flush
        self.learning = LearningController(settings, self)
        self.learning.reader = self.restoration.lessons  # the model the window restores with
        self.learning.message.connect(self.show_status)
        self.learning.error.connect(self.show_status)
        self.transcript_opened.connect(self.learning.watch)
        # large files are read off the UI thread
        self.opening = opening.Opener(self, may_discard=lambda: not self.dirty or self.may_discard())
        self.opening.opened.connect(self.files.show_opened)
        self.opening.message.connect(self._show_message)
        self.opening.error.connect(self.report_error)
        # a player bar for transcripts with audio
        self.playback = PlaybackController(session, self.view, interactive=self.interactive, parent=self)
        self.playback.bar_made.connect(self.add_bottom_widget)
        self.playback.message.connect(self._show_message)
        self.transcript_opened.connect(self.playback.transcript_opened)
        self.view.token_activated.connect(self.playback.play_from_token)
        # arriving at a suggestion plays it (reviewing by ear)
        self.listen = ReviewListener(settings, self.view, self.playback, self)
        self.listen.message.connect(self._show_message)
        # audio and video files open here
        t = TranscriptionController(session, settings, interactive=self.interactive, parent=self)
        self.transcription = t
        t.opened.connect(self._transcription_opened)
        t.finished.connect(self._transcription_finished)
        t.said.connect(self.status_label_text)
        t.said_why.connect(self._status_tip)
        t.message.connect(self._show_message)
        t.error.connect(self.report_error)
        t.settings_changed.connect(self.save_settings)
        t.words_arriving.connect(self._note_reading_at_end)
        t.words_added.connect(self._follow_arriving_words)
        self.transcript_opened.connect(t.transcript_opened)
        self._reading_at_end = False
        # a script no font here has (Korean words as empty boxes): which font to install
        self._fonts_said: Transcript | None = None
        self._fonts_checked = 0  # words of the transcript looked at
        self.transcript_opened.connect(self._check_fonts)
        t.words_added.connect(self._check_arriving_fonts)

    def say(self, text: str) -> None:
        """A short note in the status bar."""
        self.statusBar().showMessage(text, 5000)

    def has_document(self) -> bool:
        """Whether a transcript is open (what menus enable their commands by)."""
        return not self.files.nothing_open()

    def accept_confident(self) -> int:
        """Review > Accept all confident: every pending suggestion at or above the high threshold."""
        return self.accept_all(self.settings.review.high)

    def reopen_with_encoding(self) -> None:
        """File > Reopen with Encoding."""
        reopen_encoding(self, self)

    def add_bottom_widget(self, widget: QWidget) -> None:
        """Put a widget (e.g. a player bar) under the text, across the whole window."""
        self._layout.addWidget(widget)

    @property
    def interactive(self) -> bool:
        """Dialogs are shown (a person is there to answer them)."""
        return self._interactive

    @interactive.setter
    def interactive(self, value: bool) -> None:
        self._interactive = value
        self.playback.interactive = value
        self.transcription.interactive = value

    # -- files (window/files.py): the scripting surface -----------------------------------------------
    def open_path(self, path: str | os.PathLike[str], encoding: str | None = None) -> Transcript:
        """Open a transcript file and start restoring it (``FileCommands.open_path``)."""
        return self.files.open_path(path, encoding)

    def open_reporting(self, path: str | os.PathLike[str]) -> None:
        """Open from a menu, a drop or the command line (``FileCommands.open_reporting``)."""
        self.files.open_reporting(path)

    def open_chosen(self, path: str | os.PathLike[str]) -> None:
        """Open a file a person chose, asking about unsaved work (``FileCommands.open_chosen``)."""
        self.files.open_chosen(path)

    def may_discard(self) -> bool:
        """The current work may be replaced (``FileCommands.may_discard``)."""
        return self.files.may_discard()

    def finish_saving(self) -> bool:
        """Wait for a save under way (``FileCommands.finish_saving``)."""
        return self.files.finish_saving()

    def save(self, path: str | os.PathLike[str] | None = None, *, wait: bool = False) -> Path:
        """Save the session as a .stet project (``FileCommands.save``)."""
        return self.files.save(path, wait=wait)

    def export(self, path: str | os.PathLike[str], policy: RenderPolicy = ALL) -> Path:
        """Write the transcript by extension (``FileCommands.export``)."""
        return self.files.export(path, policy)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        self.files.drag_enter(event)

    def dropEvent(self, event: QDropEvent) -> None:
        self.files.drop(event)

    # -- review (window/review.py): the scripting surface -------------------------------------------------
    def accept_all(self, min_confidence: float = 0.0) -> int:
        """Accept every pending proposal of Stet's own at or above ``min_confidence``
        (``ReviewCommands.accept_all``: those from a choice or a lexicon stay pending)."""
        return self.review.accept_all(min_confidence)

    def accept_pending(self) -> int:
        """Review > Accept all pending: every pending suggestion, whoever proposed it."""
        return self.review.accept_pending()

    def undo(self) -> bool:
        return self.review.undo()

    def redo(self) -> bool:
        return self.review.redo()

    @property
    def bulk_running(self) -> bool:
        """A bulk step (accept all, undoing or redoing one) is under way, a slice per turn."""
        return self.review.bulk_running

    def finish_bulk(self) -> None:
        """Carry out what is left of a bulk step now (``ReviewCommands.finish_bulk``)."""
        self.review.finish_bulk()

    @property
    def idle(self) -> bool:
        """Nothing is under way that the person watches: no file being read, no transcription,
        no restoration pass (the first-run tour waits for this)."""
        return not (self.opening.running or self.transcription.running
                    or self.restoration_status == "running")

    # -- restoration (window/restoring.py): the scripting surface ------------------------------------------
    @property
    def restoration_status(self) -> str:
        """How the last pass ended: "", "running", "done", "cancelled", "skipped…", "failed…"."""
        return self.restoring.restoration_status

    def start_restoration(self) -> None:
        """Review > Restore again (``RestorationCommands.start_restoration``)."""
        self.restoring.start_restoration()

    def cancel_restoration(self) -> None:
        """Review > Cancel restoration (``RestorationCommands.cancel_restoration``)."""
        self.restoring.cancel_restoration()

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

    def set_transcript(self, doc: Transcript, *, source: Path | None = None,
                       project: Path | None = None, restore: bool = True) -> None:
        """Show ``doc`` (replacing the current one) and, if it has no suggestions, restore it."""
        self.finish_saving()  # the document shown until now is written before it goes
        self.restoring.stop_restoration()
        self._unwatch()
        self.autosaver.discard()  # the work shown until now was saved or given up
        # a message about the file shown until now ("Exported ww.json") would read as this one's
        self.statusBar().clearMessage()
        old = self.session.replace(doc, source=source, project=project)
        # The garbage collector's full passes scan every token and suggestion: 100-300 ms on a
        # long transcript, felt as a freeze; so what exists is kept out of them (frozen by
        # stop_restoration above). The document replaced goes by reference counting once its
        # undo steps, which refer back to it, are dropped: no full pass needed.
        if old is not doc:
            self.disposer.dispose(old)
        # A text running on for thousands of words gets proposed paragraph breaks (no undo step:
        # they come with the document as it opens, like a reader's); the view lays it out at them.
        doc.suggest_paragraphs(undoable=False)
        self.view.set_transcript(doc)
        self.panel.set_transcript(doc)
        self._watch(doc)
        self.update_title()
        self.update_undo_actions()
        self.transcript_opened.emit(doc)
        self.restoring.restoration_follows(doc, restore)

    def _transcription_opened(self, doc: Transcript, path: Path) -> None:
        self.set_transcript(doc, source=path, restore=False)  # the player bar opens the recording
        self.view.say_when_empty(f"Transcribing {path.name}: the words appear here as they are heard…")

    def _transcription_finished(self, status: str) -> None:
        """A recording without a word recognised says so where the words would be, not how to
        open a file as an empty window does (issue 50)."""
        t = self.transcription
        if len(self.transcript) or self.transcript is not t.doc:
            return
        name = t.audio_path.name if t.audio_path is not None else "the recording"
        if status == "no speech":
            self.view.say_when_empty(
                f"No speech was found in {name}: it is silent, or not spoken in {t.language} "
                "(the language it was transcribed in). Open another file, or File ▸ Transcribe "
                "again in another language.")
        elif status == "cancelled":
            self.view.say_when_empty(f"Transcription of {name} cancelled before a word was heard "
                                     "(File ▸ Transcribe again starts over).")
        else:
            self.view.say_when_empty(self.view.empty_hint)

    def _watch(self, doc: Transcript) -> None:
        self._history_link.connect(doc.history.changed, self._history_changed)

    def _unwatch(self) -> None:
        self._history_link.clear()  # (see editor.gui.base.links: nothing left behind on the old document)

    def _history_changed(self) -> None:
        by_person = not self.restoration.applying  # restoration results leave it as saved as it was
        self.session.note_change(by_person=by_person)
        if by_person:
            self.autosaver.changed()
        self.update_title()
        self.update_undo_actions()

    def update_title(self) -> None:
        self.setWindowTitle(f"{self.session.name}[*] — Stet")
        self.setWindowModified(self.session.dirty)

    def update_undo_actions(self) -> None:
        h = self.transcript.history
        self.undo_action.setEnabled(h.can_undo)
        self.redo_action.setEnabled(h.can_redo)
        self.undo_action.setText(f"&Undo {h.undo_text}" if h.can_undo else "&Undo")
        self.redo_action.setText(f"&Redo {h.redo_text}" if h.can_redo else "&Redo")

    def _note_reading_at_end(self) -> None:
        scroll = self.view.verticalScrollBar()
        self._reading_at_end = scroll.value() >= scroll.maximum() - 1

    def _follow_arriving_words(self, _words: int) -> None:
        """Reading along at the end: stay there as words arrive; reading further up: stay put."""
        if self._reading_at_end:
            scroll = self.view.verticalScrollBar()
            scroll.setValue(scroll.maximum())

    def _check_fonts(self, doc: Transcript) -> None:
        """A transcript shown: say above the list which font to install when no font here can
        draw the script of its words."""
        self._fonts_said = None
        self._fonts_checked = 0
        self.panel.show_notice(None, about="fonts")
        self._say_fonts(doc, 0)

    def _check_arriving_fonts(self, words: int) -> None:
        """Words heard as a recording is transcribed: their script too."""
        if self._fonts_said is not self.transcript and words > self._fonts_checked:
            self._say_fonts(self.transcript, max(self._fonts_checked, words - FONT_SAMPLE))

    def _say_fonts(self, doc: Transcript, start: int) -> None:
        """Which font to install for the words of ``doc`` from ``start`` (FONT_SAMPLE of them),
        said once per transcript."""
        end = self._fonts_checked = min(len(doc), start + FONT_SAMPLE)
        advice = font_advice(" ".join(doc[i].surface or doc[i].word for i in range(start, end)), self.view.font())
        if advice is not None:
            self._fonts_said = doc
            self.panel.show_notice("Some words cannot be shown", advice, about="fonts")

    # -- the status line and messages --------------------------------------------------------------
    def status_label_text(self, text: str) -> None:
        self.status_label.setText(text)

    def _status_tip(self, text: str) -> None:
        self.status_label.setToolTip(text)

    def show_status(self, text: str) -> None:
        self.statusBar().showMessage(text, 6000)

    def _show_message(self, text: str, ms: int) -> None:
        self.statusBar().showMessage(text, ms)

    def report_error(self, title: str, err: BaseException) -> None:
        """A failure the person must see: a dialog, or (offscreen, scripted) the status bar."""
        if self.interactive:
            QMessageBox.warning(self, title, str(err))
        else:
            self.statusBar().showMessage(f"{title}: {err}", 10000)

    # -- review ------------------------------------------------------------------------------------
    def _review_mode_changed(self, reviewing: bool) -> None:
        """The status bar always says what Enter and Delete do now."""
        if reviewing:
            self._show_review_mode(self.view.current)
            self.mode_label.setToolTip("Move the caret (arrow keys, a click) or press Esc to edit")
            if self.statusBar().currentMessage() == EDITING_NOTE:  # no longer true: not left beside it
                self.statusBar().clearMessage()
        else:
            self.mode_label.setText("Editing")
            self.mode_label.setToolTip("Enter, Delete and digits edit the text; Tab goes to the "
                                       "next suggestion")
        self.panel.set_reviewing(reviewing)

    def _show_review_mode(self, current: Suggestion | None) -> None:
        """In review mode, whether Enter and Delete act: only while a suggestion is selected."""
        if self.view.reviewing:
            self.mode_label.setText("Reviewing: Enter accepts, Delete rejects" if current is not None
                                    else "Reviewing: no suggestion selected (Tab)")

    def toggle_short_speech(self) -> None:
        """View > Short speech: a suggestion is said by its change and confidence alone."""
        self.settings.set("review.short_speech", not self.settings.review.short_speech)
        self.menu_actions["view.short_speech"].setChecked(self.settings.review.short_speech)
        self.save_settings()

    def _say_restored(self) -> None:
        """When restoration lands, a screen reader hears how many suggestions it made."""
        if self.restoration_status == "done":
            pending = self.transcript.pending_decisions
            self.view.narrator.note(f"Restored: {spoken_count(pending)} to review" if pending
                                    else "Restored: no suggestions")

    def _band_changed(self, band: str | None) -> None:
        """Tab and the list agree: filtered to a band, Tab goes only to its suggestions."""
        self.view.review.set_band(band)
        self.statusBar().showMessage(f"Tab and Shift+Tab now go only to {band_phrase(band)}, as "
                                     "the list shows" if band else "Tab and Shift+Tab go to every pending "
                                     "suggestion", 5000)

    def _reject_from_list(self, suggestion: Suggestion) -> None:
        """Delete on a row of the pending list: its suggestion rejected, said as a decision is."""
        if self.view.frozen or not self.transcript.has_token(suggestion.token_id):
            return
        self.view.review.decide_and_say(suggestion.token_id, suggestion.kind, accept=False)

    def _go_to(self, suggestion: Suggestion) -> None:
        self.view.review.set_current_from_list(suggestion)  # a decision then goes on down the list
        self.view.setFocus()

    def show_find(self, replace: bool = False) -> None:
        self.find_bar.show()
        selected = self.view.textCursor().selectedText()
        # (the selection of a suggestion under review is the proposal, not text the person chose:
        # Ctrl+H on a proposed comma filled Find with ",")
        if selected and "\u2029" not in selected and self.view.current is None:
            self.find_bar.find_edit.setText(selected)
        # Replace: the keyboard goes to "Replace with" once there is something to find (a word
        # selected); before that, what a person types first is what to look for
        bar = self.find_bar
        (bar.replace_edit if replace and bar.find_edit.text() else bar.find_edit).setFocus()
        bar.find_edit.selectAll()

    # -- settings ----------------------------------------------------------------------------------
    def learned_dialog(self) -> LearnedDialog:
        doc = self.transcript
        own = profile_key(doc.metadata.language, {t.speaker for t in doc.tokens}) if len(doc) else None
        chosen = doc.metadata.extra.get(CHOSEN)
        dialog = LearnedDialog(self.settings, self, profile=own, chosen=chosen if isinstance(chosen, str) else None)
        dialog.accepted.connect(self.apply_settings)
        dialog.accepted.connect(self._learned_dialog_closed)
        self._learned = dialog
        dialog.open()
        return dialog

    def _learned_dialog_closed(self) -> None:
        self.choose_profile(self._learned.chosen_profile)

    def choose_profile(self, key: str | None) -> None:
        """Use the learned profile ``key`` for the open document (None: its own language and
        speakers'), kept in the document so that its restorations use it."""
        extra = dict(self.transcript.metadata.extra)
        if extra.get(CHOSEN) == key:
            return
        if key is None:
            extra.pop(CHOSEN, None)
        else:
            extra[CHOSEN] = key
        self.transcript.set_metadata(extra=extra)
        self.statusBar().showMessage("Restore again to use what Stet learned from the chosen profile", 6000)

    def settings_dialog(self) -> None:
        dialog = SettingsDialog(self.settings, self)
        if run_modal(dialog):
            dialog.apply()
            self.apply_settings()

    def apply_settings(self) -> None:
        self.view.order = self.settings.review.order
        self.order_action.setChecked(self.view.order == "confidence")
        self.accept_confident_action.setText(confident_text(self.settings.review.high))
        self.view.apply_settings()
        self.panel.apply_settings()
        self.unsure_words.apply()
        self.save_settings()

    def save_settings(self) -> None:
        """Keep the settings for the next start (a window given its settings keeps nothing)."""
        if self._persist_settings:
            try:
                self.settings.save()
            except OSError as err:
                self.statusBar().showMessage(f"Settings not saved: {err}", 8000)

    def zoom(self, step: int) -> None:
        size = min(48, max(6, self.settings.appearance.font_size + step))
        self.settings.set("appearance.font_size", size)
        self.view.apply_settings()
        self.save_settings()

    # -- autosave and recovery (editor.gui.work.recovery) ------------------------------------------------
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
        return recovery.offer(self.autosaver.slot.folder, self.recover, self, interactive=self.interactive,
                              opening=opening)

    def recover(self, orphan: Orphan) -> bool:
        """Open a recovery file (a ``recovery.Orphan``) as this session's unsaved work."""
        try:
            doc = orphan.read()  # the last autosave and the edits after it (every word deleted, maybe)
        except UserError as err:
            self.report_error("Cannot recover", err)
            return False
        info = orphan.info
        self.set_transcript(doc, source=Path(info.source) if info.source else None,
                            project=Path(info.project) if info.project else None, restore=False)
        self.autosaver.slot.take_over(orphan)  # it is this session's recovery file now
        self.session.mark_unsaved()  # in no file but the recovery file
        self.autosaver.save_now()  # with the edits replayed, whose journal was the orphan's
        self.update_title()
        self.statusBar().showMessage(f"Restored the autosaved work on {info.name}", 8000)
        return True

    def changeEvent(self, event: QEvent) -> None:
        if (event.type() == QEvent.Type.ActivationChange and not self.isActiveWindow()
                and hasattr(self, "autosaver")):
            self.autosaver.save_now()  # focus went elsewhere: nothing waits to be written
        super().changeEvent(event)

    # -- closing -----------------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        # a save under way is written first, whatever may_discard says (never half a file)
        if not self.finish_saving() or not self.may_discard():
            event.ignore()
            return
        self.files.finish_exporting()  # an export asked for is written, not dropped at exit
        self.saver.close()
        self.restoring.stop_restoration()  # a pass under way, or one still to start (restoration_follows)
        self.restoration.restorers.close()
        self.transcription.cancel(quiet=True)
        process.release_collections()  # a cancelled pass does not end the hold itself
        self.turns.stop()  # a write waited for below goes on at full speed
        self.playback.close()
        # closed by a script with work unsaved: keep it for the next start
        self.autosaver.close(keep=self.dirty and not self.interactive)
        event.accept()


def application(argv: list[str] | None = None) -> QApplication:
    """The QApplication (created once)."""
    existing = QApplication.instance()
    if existing is not None:
        return cast(QApplication, existing)  # made by pytest-qt, or an earlier call
    app = QApplication(argv or ["stet"])
    app.setApplicationName("Stet")
    app.setOrganizationName("Stet")
    app.setDesktopFileName("stet")
    app.setWindowIcon(QIcon(str(resource_path("icons", "stet.svg"))))
    return app


__all__ = ["BULK_AT_ONCE", "RECENT_LIMIT", "MainWindow", "application", "interactive_default"]
