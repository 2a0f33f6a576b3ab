"""Transcribing from the window: an audio or video file opens as an empty transcript that fills
with words as Vosk recognises them (in its own process, driven from a pool thread), with progress,
time left and cancel in the status bar; restoration follows when it ends."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QProgressBar, QPushButton, QWidget

from editor.core.document.transcript import Metadata, Transcript
from editor.core.errors import FormatError, UserError
from editor.core.document.paragraphs import EVERY, LONG
from editor.commandline.progress import format_eta
from editor.core.settings import Settings
from editor.gui.base.background import BackgroundOp
from editor.gui.text_view.gutter import format_time
from editor.gui.dialogs.language import LanguageDialog, describe_model
from editor.gui.dialogs.model import ModelDialog
from editor.gui.base.session import Session
from editor.gui.base.modal import run_modal

if TYPE_CHECKING:
    from editor.asr import ModelInfo, PassEvent, Speakers, SpeakersFound, TokenAssembler

_PROGRESS_STEPS = 1000
_PROGRESS_MIN_WIDTH = 160
_PROGRESS_MAX_WIDTH = 420


class TranscriptionController(QObject):
    """Owns the window's one running transcription.

    ``open(path)`` starts one and returns the (still empty) transcript it fills;
    ``finished(status)`` fires once per run with "done", "cancelled", "no speech" or
    "failed: <why>". The transcript is the session's throughout: words the person edits
    while the rest arrives stay edited, and opening another file cancels the run.

    It knows the session and the settings, not the window: what it has to show or ask for goes
    out as signals the window wires up, and its progress bar and Cancel button are ``widgets``
    for the window's status bar. Dialogs open over ``parent``.
    """

    finished = Signal(str)
    words_added = Signal(int)  # words in the transcript so far
    words_arriving = Signal()  # words are about to be added (the view notes where it is)
    opened = Signal(object, object)  # (Transcript, Path): show it, it fills as words arrive
    restore_requested = Signal()  # the words are in: restore punctuation and case
    said = Signal(str)  # what the status line says of the transcription now
    said_why = Signal(str)  # the details of a failure (a tooltip); "" when none
    message = Signal(str, int)  # a passing status-bar message, and for how many ms
    error = Signal(str, object)  # (title, exception): a failure the person must see
    settings_changed = Signal()  # a model was chosen: the settings want saving

    def __init__(self, session: Session, settings: Settings, *, interactive: bool = False,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.settings = settings
        self.interactive = interactive  # questions (language, model) are asked
        self._parent_widget = parent
        self.doc: Transcript | None = None
        self.audio_path: Path | None = None
        self.status = ""
        self.language = ""  # of the running or last transcription, as shown
        self._run_speakers: tuple[Speakers | None] | None = None  # as answered for the next run, if asked
        self._job = 0
        self._cancel: threading.Event | None = None
        self._running = False
        self._assembler: TokenAssembler | None = None
        self._began = 0.0
        self._shown = 0.0
        self._heard = 0.0  # seconds of the recording recognised so far
        self._header: float | None = None  # its length as its file states it
        self.notes: list[str] = []  # what the last transcription found of the audio itself
        self.progress = QProgressBar()
        self.progress.setObjectName("transcription-progress")
        self.progress.setRange(0, _PROGRESS_STEPS)
        self.progress.setTextVisible(True)
        self._show_format("Transcribing %p%")
        self.progress.hide()
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setObjectName("transcription-cancel")
        self.cancel_button.setToolTip("Stop transcribing; the words so far stay")
        self.cancel_button.clicked.connect(lambda _=False: self.cancel())
        self.cancel_button.hide()
        self.widgets: tuple[QWidget, ...] = (self.progress, self.cancel_button)  # status bar's

    @property
    def running(self) -> bool:
        return self._running

    @property
    def speakers(self) -> Speakers | None:
        """Who speaks when is found for: None (not), "auto" or a number; asked with the language
        and kept in the settings (``engine.speakers``), so the next dialog and the next start offer
        the same choice."""
        from editor.asr import parse_speakers

        value = self.settings.engine.speakers
        if not value:
            return None
        try:
            return parse_speakers(value)
        except ValueError:  # a settings file edited by hand: no speakers rather than a failure
            return None

    @speakers.setter
    def speakers(self, value: Speakers | None) -> None:
        text = "" if value is None else str(value)
        if text != self.settings.engine.speakers:
            self.settings.set("engine.speakers", text)
            self.settings_changed.emit()

    # -- models ------------------------------------------------------------------------------------
    def find_model(self) -> ModelInfo:
        """The Vosk model to use: the one chosen in the model dialog (kept in settings), else the
        first installed. Raises ``ModelError`` when there is none."""
        from editor.asr import ModelError, installed_models, resolve_model

        chosen = self.settings.engine.vosk_model_dir
        if chosen:
            try:
                return resolve_model(chosen)  # a model folder
            except ModelError:
                inside = [m for m in installed_models([chosen])
                          if Path(m.path).parent == Path(chosen).expanduser().resolve()]
                if inside:  # a folder of models
                    return inside[0]
        return resolve_model(None)

    def model_named(self, name: str | None) -> ModelInfo | None:
        """The installed model called ``name`` (a transcript's ``metadata.model``), or None."""
        from editor.asr import installed_models

        if not name:
            return None
        chosen = self.model_in_use()
        if chosen is not None and chosen.name == name:
            return chosen
        return next((m for m in installed_models() if m.name == name), None)

    def model_in_use(self) -> ModelInfo | None:
        """The model the next transcription is offered with, or None when none is installed."""
        from editor.asr import ModelError

        try:
            return self.find_model()
        except ModelError:
            return None

    def ask_for_model(self) -> ModelInfo | None:
        """The model dialog (catalogue, download, pick a folder); the model chosen, or None."""
        dialog = ModelDialog(self._parent_widget, in_use=self.model_in_use())
        if not run_modal(dialog) or dialog.model is None:
            return None
        self.remember_model(dialog.model)
        return dialog.model

    def ask_language(self, path: Path, current: ModelInfo) -> ModelInfo | None:
        """Which language ``path`` is spoken in (:class:`LanguageDialog`, offered with
        ``current``): the model for it, remembered for next time; None if the person cancels."""
        from editor.asr import AsrError, check_speakers_installed, installed_models

        models = installed_models()
        if current.path not in [m.path for m in models]:  # a folder chosen in the model dialog
            models.insert(0, current)
        try:
            check_speakers_installed()
            missing = ""
        except AsrError as err:
            missing = f"Speakers cannot be found here: {err}."
        # a model is offered first only when the person chose it (here or in the model dialog):
        # the one model that happens to be installed is no answer to the question (issue 50)
        chosen = current if self.settings.engine.vosk_model_dir else None
        dialog = LanguageDialog(path, models, chosen, get_model=self._get_model_for_dialog,
                                parent=self._parent_widget, speakers=self.speakers, speakers_missing=missing)
        if not run_modal(dialog) or dialog.model is None:
            return None
        if not missing:  # a choice the dialog could not offer is not the person's
            self.speakers = dialog.speakers
        self._run_speakers = (dialog.speakers,)
        if dialog.model.path != current.path or chosen is None:
            self.remember_model(dialog.model)
        return dialog.model

    def _get_model_for_dialog(self) -> ModelInfo | None:
        dialog = ModelDialog(self._parent_widget, in_use=self.model_in_use())
        return dialog.model if run_modal(dialog) else None

    def choose_model(self) -> None:
        """File > Speech model: the dialog, for the next transcription."""
        info = self.ask_for_model()
        if info is not None:
            self.message.emit(f"Recordings will be offered in {describe_model(info)}", 6000)

    def remember_model(self, info: ModelInfo) -> None:
        self.settings.set("engine.vosk_model_dir", info.path)
        self.settings_changed.emit()

    # -- running -----------------------------------------------------------------------------------
    def open(self, path: str | os.PathLike[str], model: ModelInfo | None = None) -> Transcript | None:
        """Start transcribing ``path`` into a new transcript, shown (``opened``) at once.

        Interactively, the language spoken in it is asked first (None when the person cancels,
        and nothing changes). Raises ``UserError`` (before anything changes) when the file is
        missing or no model is installed and none is chosen in the model dialog."""
        from editor.asr import ModelError

        path = Path(path)
        if not path.is_file():
            raise FormatError(path, "no such file")
        if model is None:
            try:
                model = self.find_model()
            except ModelError:
                if not self.interactive:
                    raise
                model = self.ask_for_model()  # the person picks the model, and its language
                if model is None:
                    raise UserError("no speech model: transcription needs one (download one, "
                                    "or pick a model folder)") from None
            else:
                if self.interactive:  # the language is asked, never assumed
                    model = self.ask_language(path, model)
                    if model is None:
                        return None
        self.cancel(quiet=True)
        self._job += 1
        job = self._job
        audio = path.resolve()
        doc = Transcript(metadata=Metadata(audio_file=os.fspath(audio), language=model.language,
                                           model=model.name))
        self.doc, self.audio_path = doc, audio
        self.opened.emit(doc, path)  # the window shows it; the player bar opens the recording
        self._start(job, doc, audio, model)
        return doc

    def _start(self, job: int, doc: Transcript, audio: Path, model: ModelInfo) -> None:
        from editor.asr import TokenAssembler

        self._assembler = TokenAssembler()
        self._running = True
        self.status = "running"
        self._began = time.perf_counter()
        self._shown = 0.0
        self._heard, self._header, self.notes = 0.0, None, []
        cancel = self._cancel = threading.Event()
        self.progress.setValue(0)
        self.progress.show()
        self.cancel_button.show()
        self.said_why.emit("")  # a failure's details from an earlier run
        self.language = describe_model(model).split(" — ")[0]
        self._show_format(f"Transcribing ({self.language}) %p%")
        self._say(f"{audio.name} — {self.language} — loading the speech model {model.name}…")

        speakers = self._run_speakers[0] if self._run_speakers is not None else self.speakers
        self._run_speakers = None

        def work(report: Callable[[PassEvent], None]) -> SpeakersFound | None:  # a pool thread; the recogniser itself runs in a child process
            from editor.asr import SpeakersFound, transcription_pass

            # the one pass `stet transcribe` and batches run: its events are shown as they come,
            # and the turns it finds go to the words when it ends (by the words' times, so words
            # edited meanwhile take their speakers all the same)
            for event in transcription_pass(audio, model, speakers=speakers, cancel=cancel):
                if isinstance(event, SpeakersFound):
                    return event
                report(event)
            return None

        BackgroundOp(self, work).progress(lambda event: self._event(job, event)) \
            .success(lambda found: self._ended(job, None, found)) \
            .failure(lambda err: self._ended(job, err)).run()

    def cancel(self, quiet: bool = False) -> None:
        """Stop the running transcription (the child process ends within a second); the words so
        far stay. ``quiet``: no status, no restoration (another file is being opened)."""
        if self._cancel is not None:
            self._cancel.set()
        if not self._running:
            return
        if not quiet:  # the worker notices within a second; then _ended reports
            self.cancel_button.setEnabled(False)
            self._say(f"{self.audio_path.name if self.audio_path else ''} — stopping…")
        if quiet:
            self._job += 1  # what the stopped run still sends is dropped
            self._running = False
            self._hide()
            self.status = "cancelled"
            self.finished.emit("cancelled")

    # -- events, on the UI thread -------------------------------------------------------------------
    def _current(self, job: int) -> bool:
        return job == self._job and self.doc is not None and self.doc is self.session.transcript

    def _event(self, job: int, event: PassEvent) -> None:
        from editor.asr import Finished, Progress, WordBatch

        if not self._current(job):
            return
        doc = self.doc
        assert doc is not None and self._assembler is not None  # (a current job's)
        if isinstance(event, WordBatch):
            # Reading along at the end: stay there as words arrive; reading further up: stay put.
            self.words_arriving.emit()
            first = len(doc)
            for tokens, new_paragraph in self._assembler.add(event.words):
                doc.append_tokens(tokens, new_paragraph=new_paragraph, merge_id=("asr", id(self), job))
            # a long stretch without a pause gets proposed paragraph breaks as it comes (the
            # view lays it out at them), in the same undo step as the words; from far enough back
            # to cover a paragraph that has just grown long
            doc.suggest_paragraphs(max(0, first - LONG - EVERY), len(doc), text="Add words",
                                   merge_id=("asr", id(self), job))
            self.words_added.emit(len(doc))
        elif isinstance(event, Progress):
            if event.stage == "loading":
                self._header = event.duration
            elif event.stage == "recognising":
                self._heard = max(self._heard, event.position)
            now = time.perf_counter()
            if now - self._shown < 0.2 and event.fraction != 1.0:  # a few repaints a second
                return
            self._shown = now
            name = self.audio_path.name if self.audio_path else ""
            if event.stage == "loading":
                self._say(f"{name} — {self.language} — loading the speech model…")
                return
            if event.stage == "speakers":
                self._show_format("Finding speakers %p%")
                self._show_fraction(event.fraction)
                eta = format_eta(event.eta)
                self._say(f"{name} — finding who speaks when: {len(doc):,} words" + (f", {eta}" if eta else ""))
                return
            self._show_fraction(event.fraction)
            eta = format_eta(event.eta)
            self._say(f"{name} — transcribing ({self.language}): {len(doc):,} words"
                      + (f", {eta}" if eta else ""))
        elif isinstance(event, Finished) and doc.metadata.duration is None:
            from editor.asr import audio_notes

            self._heard = event.duration
            self.notes = audio_notes(self._header, event.duration)
            with doc.history.group("Add words", merge_id=("asr", id(self), job)):  # one step
                doc.set_metadata(duration=event.duration,
                                 warnings=(*doc.metadata.warnings, *self.notes))

    def _ended(self, job: int, err: BaseException | None, found: SpeakersFound | None = None) -> None:
        from editor.asr import RecognitionCancelled
        from editor.core.document.speakers import apply_turns, speakers_in_order

        if not self._current(job):
            return
        assert self.doc is not None  # (a current job's)
        turns = found.turns if found is not None else ()
        if turns:  # part of what was transcribed, as the words are: not an undo step of its own
            apply_turns(self.doc, turns)
        if found is not None and found.note:  # said with the audio's notes, and kept with them
            self.notes.append(found.note)
            with self.doc.history.group("Add words", merge_id=("asr", id(self), job)):
                self.doc.set_metadata(warnings=(*self.doc.metadata.warnings, found.note))
        self._running = False
        self._hide()
        doc = self.doc
        words = len(doc)
        took = time.perf_counter() - self._began
        name = self.audio_path.name if self.audio_path else ""
        # The words are the starting point, as if a transcript had been opened: undoing
        # "Add words" would wipe the transcription.
        self.session.forget_history()
        if err is None:
            status = "done" if words else "no speech"
        elif isinstance(err, RecognitionCancelled):
            status = "cancelled"
        else:
            status = f"failed: {err}"
        self.status = status
        if status == "done":  # the label goes on to tell of restoration; this stays a while
            people = len(speakers_in_order(doc)) if turns else 0
            said = (f"{name} — {words:,} words transcribed in {took:.1f} s ({self.language})"
                    + (f", {people} speaker{'s' if people != 1 else ''}" if people else "")
                    + "".join(f"; {note}" for note in self.notes))
            self._say(said)
            self.message.emit(said, 15000 if self.notes else 8000)
        elif status == "no speech":
            self._say(f"{name} — no speech was recognised (silent, or not in the model's "
                      f"language: {self.language})")
        elif status == "cancelled":
            # Said in the status bar as well: the label goes on at once to tell of restoration,
            # and "cancelled" was never seen.
            heard = format_time(self._heard)
            of = f" of {format_time(self._header)}" if self._header else ""
            said = (f"{name} — transcription cancelled at {heard}{of}; "
                    + (f"the {words:,} word{'s' if words != 1 else ''} heard up to there are kept "
                       "(File ▸ Transcribe again starts over)" if words else
                       "no words had been recognised yet (File ▸ Transcribe again starts over)"))
            self._say(said)
            self.message.emit(said, 15000)
        else:
            self._say(f"{name} — transcription failed")
            self.said_why.emit(str(err))
            self.error.emit("Cannot transcribe" if isinstance(err, UserError) else "Transcription failed", err)
        if words and status in ("done", "cancelled"):  # restoration follows, on every word
            self.restore_requested.emit()
        self.finished.emit(status)

    def transcript_opened(self, doc: Transcript) -> None:
        """Another transcript is shown: the running transcription stops."""
        if doc is not self.doc and self._running:
            self.cancel(quiet=True)

    def _show_fraction(self, fraction: float | None) -> None:
        """The bar at ``fraction``, or busy when the length is not known. The range is set again
        each time: a recording of unknown length left the bar busy (a range of 0..0), and the
        speakers that followed showed "0 %" for the whole stage (issue 50)."""
        if fraction is None:
            self.progress.setRange(0, 0)
            return
        self.progress.setRange(0, _PROGRESS_STEPS)
        self.progress.setValue(round(fraction * _PROGRESS_STEPS))

    def _show_format(self, text: str) -> None:
        """The bar's text, on one line and whole: it is as wide as its text at 100 %
        (up to :data:`_PROGRESS_MAX_WIDTH`, the whole text in its tooltip), where a fixed
        220 px cut "Transcribing (Korean (ko))" into two clipped lines (issue 50)."""
        self.progress.setFormat(text)
        self.progress.setToolTip(text.replace("%p%", "").strip())
        metrics = self.progress.fontMetrics()
        # the text as drawn at its widest, with room for the frame and the chunk's margins
        wide = metrics.horizontalAdvance(text.replace("%p", "100")) + 4 * metrics.averageCharWidth()
        self.progress.setFixedWidth(min(max(wide, _PROGRESS_MIN_WIDTH), _PROGRESS_MAX_WIDTH))

    def _hide(self) -> None:
        self.progress.hide()
        self.progress.setRange(0, _PROGRESS_STEPS)
        self.cancel_button.hide()
        self.cancel_button.setEnabled(True)

    def _say(self, text: str) -> None:
        self.said.emit(text)
