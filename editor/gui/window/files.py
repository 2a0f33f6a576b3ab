"""The main window's files: open (a menu, a drop, the recent list, the command line), save as a
.stet project, export, and the question asked before unsaved work is replaced.

``FileCommands`` is a part of ``MainWindow`` (editor.gui.window.main_window), held as ``window.files``:
it is given the window as a ``FilesHost``, which says all it may touch, and as the widget its
dialogs belong to.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QEventLoop, Qt, SignalInstance
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QFileDialog, QMenu, QMessageBox, QStatusBar, QWidget

import editor
from editor.core import process
from editor.core.document.speakers import writer_options
from editor.core.document.transcript import Transcript
from editor.core.errors import UserError
from editor.core.formats import READERS, can_read, read_any, why_not_writable, write_any
from editor.core.review.lexicon import with_project_forms
from editor.core.paths import resource_path
from editor.core.render import ALL, RenderPolicy
from editor.gui.base import hotkeys
from editor.gui.base.background import BackgroundOp
from editor.gui.work import opening
from editor.gui.dialogs import overwrite
from editor.gui.dialogs.export import EXPORT_FORMATS, ExportDialog, suggested_export
from editor.gui.work.saving import SaveJob
from editor.gui.base.modal import run_modal
from editor.media.kinds import MEDIA_SUFFIXES, is_media

if TYPE_CHECKING:
    from editor.core.settings import Settings
    from editor.gui.window.help import HelpCommands
    from editor.gui.work.learning import LearningController
    from editor.gui.work.opening import Opener
    from editor.gui.work.recovery import Autosaver
    from editor.gui.work.restoration import RestorationController
    from editor.gui.work.saving import ProjectSaver
    from editor.gui.base.session import Session
    from editor.gui.work.transcription import TranscriptionController
    from editor.gui.window.restoring import RestorationCommands

log = logging.getLogger(__name__)

RECENT_LIMIT = 10
#: A close (or an open) waiting for a save asks a person this often whether to keep waiting.
STILL_SAVING_ASK_S = 10.0


class FilesHost(Protocol):
    """What ``FileCommands`` uses of its window (``MainWindow``)."""

    session: Session
    settings: Settings
    opening: Opener
    transcription: TranscriptionController
    saver: ProjectSaver  # its ``written``/``failed`` come to ``project_written``/``project_not_written``
    autosaver: Autosaver
    learning: LearningController
    restoration: RestorationController
    restoring: RestorationCommands  # (the model learning reads is the one restoring uses)
    help: HelpCommands  # the export dialog's Help opens the formats page there
    recent_menu: QMenu
    project_saved: SignalInstance
    project_save_failed: SignalInstance
    export_done: SignalInstance  # the path written, or None when it could not be

    @property
    def interactive(self) -> bool: ...
    @property
    def transcript(self) -> Transcript: ...
    def statusBar(self) -> QStatusBar: ...
    def set_transcript(self, doc: Transcript, *, source: Path | None = None,
                       project: Path | None = None, restore: bool = True) -> None: ...
    def update_title(self) -> None: ...
    def report_error(self, title: str, err: BaseException) -> None: ...
    def save_settings(self) -> None: ...


def project_path(path: Path) -> Path:
    """``path`` as a .stet project: the extension of a file Stet reads or writes, or of a
    recording, swapped for .stet ("talk.srt" -> "talk.stet"); any other end kept and .stet
    added ("Interview with Dr. Smith" did lose ". Smith")."""
    suffix = path.suffix.lower()
    if suffix == ".stet":
        return path
    if suffix in READERS or suffix in EXPORT_FORMATS or suffix in MEDIA_SUFFIXES:
        return path.with_suffix(".stet")
    return path.with_name(path.name + ".stet")


def check_recording(path: Path) -> None:
    """Raise ``MediaError`` (a ``UserError``, one line) unless ``path`` opens and its first
    sound decodes (``editor.media.decode.check_sound``): an empty .mp3 or a text file named
    .wav is refused before the open work is let go. The first half second only: 4-23 ms for an
    hour-long file (tests/perf/bench_open_check.py), so it runs here, on the UI thread."""
    from editor.media.decode import check_sound  # (numpy and PyAV: loaded when a recording is opened)

    check_sound(path)


def _is_resource(path: Path) -> bool:
    """``path`` is among Stet's own files (resources/: the sample; the package; a frozen build's
    folder), not somewhere to save to."""
    own = [resource_path(), Path(editor.__file__).parent]
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen is not None:
        own.append(Path(frozen))
    where = path.resolve()
    return any(where.is_relative_to(folder.resolve()) for folder in own)


class FileCommands:
    """Opening, saving and exporting, for the main window."""

    def __init__(self, host: FilesHost, widget: QWidget) -> None:
        self._host = host
        self._widget = widget  # the parent of the dialogs
        self._exports: list[threading.Event] = []  # exports being written (export_later)

    # -- opening -----------------------------------------------------------------------------------
    def open_path(self, path: str | os.PathLike[str], encoding: str | None = None) -> Transcript:
        """Open a transcript file (a text one in ``encoding`` when given) and start restoring it;
        a recording is checked (``check_recording``) and transcribed. Raises ``UserError`` if it
        cannot be read, before anything changes."""
        path = Path(path)
        if is_media(path):
            check_recording(path)
            return self._transcribe(path)
        doc = read_any(path, encoding)
        self.show_opened(path, doc)
        return doc

    def _transcribe(self, path: Path) -> Transcript:
        """Transcribed in the background; the words arrive as they are heard."""
        doc = self._host.transcription.open(path)
        if doc is None:  # the person cancelled the question of its language
            return self._host.transcript
        self.remember_recent(path)
        return doc

    def transcribe_again(self) -> Transcript | None:
        """File > Transcribe again: the open transcript's recording transcribed afresh, with the
        model that made it (its language is not asked again), after asking about unsaved work.
        Restarting a cancelled run took Open Recent, the save question and the language dialog."""
        doc = self._host.transcript
        audio = doc.metadata.audio_file
        if not audio or not Path(audio).is_file():
            self._host.statusBar().showMessage(
                "Nothing to transcribe again: the open transcript has no recording"
                + (f" ({Path(audio).name} is not there)" if audio else "")
                + "; File ▸ Open opens one", 8000)
            return None
        try:  # checked before the question, as File > Open checks (see ``open_chosen``)
            check_recording(Path(audio))
        except UserError as err:
            self._host.report_error("Cannot transcribe", err)
            return None
        if not self.may_discard():
            return None
        model = self._host.transcription.model_named(doc.metadata.model)
        try:
            new = self._host.transcription.open(audio, model)
        except UserError as err:
            self._host.report_error("Cannot transcribe", err)
            return None
        if new is not None:
            self.remember_recent(Path(audio))
        return new

    def open_dialog(self) -> None:
        """File > Open: the file first, then (once one is chosen) whether to save the open work."""
        patterns = " ".join(f"*{ext}" for ext in READERS)
        media = " ".join(f"*{ext}" for ext in MEDIA_SUFFIXES)
        path, _ = QFileDialog.getOpenFileName(
            self._widget, "Open a transcript, or a recording to transcribe", self.last_folder(),
            f"Transcripts and recordings ({patterns} {media});;Transcripts ({patterns});;"
            f"Audio and video ({media});;All files (*)")
        if path:
            self.open_chosen(path)

    def open_chosen(self, path: str | os.PathLike[str]) -> None:
        """Open a file a person chose (File > Open, the recent list, a drop), asking whether to
        save unsaved work only once the file is known to open: a transcript is read, a recording
        opened and its first sound decoded, before the question (and before the language of a
        recording is asked). One that cannot be read is said in one line, and the open work, its
        title and its undo steps stay as they were. A file read in the background is asked about
        when the read ends (``Opener``)."""
        path = Path(path)
        if opening.needs_background(path):
            self._host.opening.start(path)
            return
        doc: Transcript | None = None
        try:
            if is_media(path):
                check_recording(path)
            else:
                doc = read_any(path)
        except UserError as err:
            self._host.report_error("Cannot open", err)
            return
        if not self.may_discard():
            return
        if doc is not None:
            self.show_opened(path, doc)
            return
        try:
            self._transcribe(path)
        except UserError as err:  # no speech model, and none chosen: nothing changed
            self._host.report_error("Cannot open", err)

    def open_reporting(self, path: str | os.PathLike[str]) -> None:
        """Open from a menu, a drop or the command line: errors are reported, not raised. A large
        file, or anything but a plain file (a FIFO, a device), is read off the UI thread."""
        if opening.needs_background(Path(path)):
            self._host.opening.start(Path(path))
            return
        try:
            self.open_path(path)
        except UserError as err:
            self._host.report_error("Cannot open", err)

    def show_opened(self, path: Path, doc: Transcript) -> None:
        """A transcript just read from ``path`` (here or in the background) becomes the window's."""
        project = path if path.suffix.lower() == ".stet" else None
        self._host.set_transcript(doc, source=path, project=project)
        self.remember_recent(path)
        for warning in doc.metadata.warnings:
            self._host.statusBar().showMessage(f"{path.name}: {warning}", 8000)

    def may_discard(self) -> bool:
        """True when the current work may be replaced (saved, nothing done, or the person agrees)."""
        if not self.finish_saving():  # a save under way ends first (it may leave nothing unsaved)
            return False
        if not self._host.session.dirty or not self._host.interactive or self.nothing_open():
            return True
        answer = QMessageBox.question(
            self._widget, "Unsaved changes", "Save the changes to this transcript first?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel)
        if answer == QMessageBox.StandardButton.Cancel:
            return False
        if answer == QMessageBox.StandardButton.Save:
            self.save_dialog(wait=True)  # written before the work is replaced or the window goes
            return not self._host.session.dirty
        return True

    # -- saving and exporting ----------------------------------------------------------------------
    def nothing_open(self) -> bool:
        """No transcript: no words, and no file they came from (a recording being transcribed
        counts) or were saved to. Saving would write an empty "untitled.stet"."""
        session = self._host.session
        return len(self._host.transcript) == 0 and session.source is None and session.project is None

    def _said_nothing_to(self, what: str) -> bool:
        """With nothing open, say so in the status bar (True): File > Save, Save As and Export."""
        if not self.nothing_open():
            return False
        open_keys = QKeySequence(hotkeys.OPEN).toString(QKeySequence.SequenceFormat.NativeText)
        self._host.statusBar().showMessage(
            f"Nothing to {what} yet: open a transcript or a recording first ({open_keys})",
            6000)
        return True

    def save(self, path: str | os.PathLike[str] | None = None, *, wait: bool = False) -> Path:
        """Save the session as a .stet project (every suggestion and its state kept): the document
        is taken as it stands now and written on a thread of its own (``editor.gui.work.saving``);
        ``project_saved`` or ``project_save_failed`` tells when it is done, and the session is
        clean then if nothing changed meanwhile. ``wait``: return once it is written, raising
        ``UserError`` or ``OSError`` when it could not be (for scripts)."""
        target = Path(path) if path is not None else self._host.saver.last_target or self._host.session.project
        if target is None:
            raise UserError("no project file to save to yet; give a path")
        target = project_path(target)
        self._host.statusBar().showMessage(f"Saving {target.name}…")
        self._host.saver.save(target)
        if wait:
            self._host.saver.wait()
            job = self._host.saver.last_job  # this one: nothing else is asked for while waiting
            if job is not None and job.error is not None:
                raise job.error
        return target

    def finish_saving(self) -> bool:
        """Wait for a save under way (before closing, or replacing the document): at once when
        it is quick, else with a message, and where a person can answer, asking every
        ``STILL_SAVING_ASK_S`` whether to keep waiting. False when they chose not to (the save
        goes on, and says when it is done)."""
        saver = self._host.saver
        if saver.wait(0.3):
            return True
        name = (saver.last_target or Path("the project")).name
        self._host.statusBar().showMessage(f"Finishing saving {name}…")
        self._host.statusBar().repaint()  # painted now: the event loop does not turn while waiting
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            while not saver.wait(STILL_SAVING_ASK_S):
                if not self._host.interactive:
                    continue
                QApplication.restoreOverrideCursor()
                answer = QMessageBox.question(
                    self._widget, "Still saving", f"Stet is still writing {name} (the disk is slow or not "
                    "answering). Keep waiting? If not, the window stays open and the save goes on.",
                    QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                    QMessageBox.StandardButton.Yes)
                if answer != QMessageBox.StandardButton.Yes:
                    return False
                QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        finally:
            if QApplication.overrideCursor() is not None:
                QApplication.restoreOverrideCursor()
        return True

    def project_written(self, job: SaveJob) -> None:
        """A save is written (on the UI thread): the session is clean if the document is still
        what was written, and stays modified for what changed since."""
        written = job.result
        assert written is not None
        doc, target = job.doc, job.target
        if doc is self._host.transcript:
            current = doc.revision == job.revision
            # the project's own lexicon, as written (beside the person's work: no undo step)
            extra = with_project_forms(doc.metadata.extra, written.forms)
            if extra is not None:
                doc.set_metadata(extra=extra, undoable=False)
            if current:
                self._host.session.mark_saved(target)
            else:
                self._host.session.mark_saved_at(target, job.point)
            if not self._host.session.dirty:
                self._host.autosaver.discard()  # else the autosave keeps what came after
            learned_at = doc.revision if current else job.revision
            self._host.update_title()
        else:  # (another document was opened meanwhile)
            learned_at = job.revision
        # the model the settings name, even before any pass ran: what learning reads (its reader,
        # RestorationController.lessons, runs where the passes run)
        self._host.restoring.configure_restoration()
        # what Stet has learned from it: from what was written, off this thread
        self._host.learning.remember(doc, written.forms, str(target.resolve()), tokens=written.tokens,
                               suggestions=written.suggestions, revision=learned_at)
        self.remember_recent(target)
        later = "; later changes are not saved yet" if self._host.session.dirty and doc is self._host.transcript else ""
        self._host.statusBar().showMessage(f"Saved {target.name}{later}", 4000)
        self._host.project_saved.emit(str(target))

    def project_not_written(self, job: SaveJob) -> None:
        """A save failed: the document stays modified (its file is as it was), and says why."""
        err = job.error
        why = str(err).splitlines()[0] if str(err) else type(err).__name__
        self._host.update_title()
        self._host.report_error("Cannot save", err if isinstance(err, UserError | OSError) else UserError(why))
        self._host.statusBar().showMessage(f"Not saved: {why}", 15000)
        self._host.project_save_failed.emit(why)

    def export(self, path: str | os.PathLike[str], policy: RenderPolicy = ALL) -> Path:
        """Write the transcript by extension, now, on this thread; pending suggestions are left out
        unless ``policy`` applies them. No dialog (scripts and tests; the Export dialog writes in
        the background: ``export_later``)."""
        path = Path(path)
        self._host.autosaver.save_now()  # before a long job
        warnings = write_any(self._host.transcript, path, policy, layout=self._host.settings.export.subtitle_layout(),
                             **self._export_options(path))
        self._exported(path, warnings)
        return path

    def export_later(self, path: Path, policy: RenderPolicy = ALL) -> None:
        """Write the transcript as it stands now on a thread of its own (rendering 12,300 words
        held the window 40 ms for plain text and 130-250 ms for Word): the person goes on
        meanwhile, and the status bar says when it is written (``export_done``) or why not. What is
        changed after this call is not in the file."""
        self._host.autosaver.save_now()
        options = self._export_options(path)
        layout = self._host.settings.export.subtitle_layout()
        take = self._host.transcript.copy_later()
        done = threading.Event()
        self._exports.append(done)

        def write(_report: Callable[[object], None]) -> list[str]:
            # no automatic collections while it is made: its records and a Word document's
            # elements set off full passes over them, 15-21 ms each with the interpreter held
            # from the window at 100,000 words (as learning does, editor.core.process)
            try:
                with process.collections_held("export"):
                    return write_any(take(), path, policy, layout=layout, **options)
            finally:
                done.set()

        def finished() -> None:
            if done in self._exports:
                self._exports.remove(done)

        def written(warnings: list[str]) -> None:
            finished()
            self._exported(path, warnings)

        def failed(err: BaseException) -> None:
            finished()
            if not isinstance(err, (UserError, OSError)):
                log.error("export failed:\n%s", getattr(err, "__stet_traceback__", err))
            self._host.report_error("Cannot export", err)
            self._host.export_done.emit(None)

        self._host.statusBar().showMessage(f"Exporting {path.name}…")
        BackgroundOp(self._widget, write).success(written).failure(failed).run(own_thread=True)

    def finish_exporting(self, timeout: float | None = None) -> bool:
        """Wait for the exports under way (before the window closes: a file half written is never
        left, but one the person asked for must not be dropped either). False on ``timeout``."""
        waiting = list(self._exports)
        if all(done.wait(0.3) for done in waiting):
            return True
        self._host.statusBar().showMessage("Finishing the export…")
        self._host.statusBar().repaint()  # painted now: the event loop does not turn while waiting
        return all(done.wait(timeout) for done in waiting)

    def _export_options(self, path: Path) -> dict[str, object]:
        export = self._host.settings.export
        options: dict[str, object] = dict(writer_options(path, export.turn_times))
        if path.suffix.lower() == ".docx" and self._host.settings.export.author.strip():
            options["author"] = self._host.settings.export.author.strip()  # else the system's name
        return options

    def _exported(self, path: Path, warnings: list[str]) -> None:
        # what the format could not carry (a subtitle's colours in WebVTT) is said, not hidden
        self._host.statusBar().showMessage(f"Exported {path.name}" + "".join(f" — {w}" for w in warnings),
                                           12000 if warnings else 4000)
        self._host.export_done.emit(str(path))

    def save_dialog(self, ask: bool = False, *, wait: bool = False) -> None:
        """File > Save (As): ``wait``: until it is written (errors are reported either way)."""
        if self._said_nothing_to("save"):
            return
        session = self._host.session
        target = self._host.saver.last_target or session.project
        if target is None or ask:
            suggested = session.project or self._new_project_name()
            # the dialog asks before replacing a file (Qt's default, kept on)
            chosen, _ = QFileDialog.getSaveFileName(self._widget, "Save session", str(suggested),
                                                    "Stet project (*.stet)")
            if not chosen:
                return
            target = project_path(Path(chosen))
            if not overwrite.may_replace(self._widget, target, action="save", source=session.source,
                                         confirmed=target == Path(chosen)):
                return
        elif overwrite.read_only(target):
            overwrite.may_replace(self._widget, target, action="save")  # says why, changes nothing
            return
        try:
            self.save(target)
        except (UserError, OSError) as err:
            self._host.report_error("Cannot save", err)
            return
        if wait:
            self.finish_saving()

    def _new_project_name(self) -> Path:
        """Where Save first offers to put a new project: beside its source file, unless that is
        among Stet's own files (Help > Open sample), which are not the person's to fill."""
        source = self._host.session.source
        folder = Path(self.last_folder())
        if source is None:
            return folder / "untitled.stet"
        if _is_resource(source):
            return folder / project_path(source).name
        return project_path(source)

    def export_dialog(self, *, wait: bool = False) -> None:
        """File > Export: ask where, in what format and with which suggestions, then write in the
        background (``export_later``). ``wait``: return once it is written and said (scripts)."""
        if self._said_nothing_to("export"):
            return
        session, settings = self._host.session, self._host.settings
        doc = self._host.transcript
        unavailable = {ext: why for ext in EXPORT_FORMATS if (why := why_not_writable(doc, ext))}
        suggested = suggested_export(session.source, session.project, self.export_folder(),
                                     last_format=settings.export.last_format, unavailable=unavailable)
        def count(threshold: float) -> Iterator[int]:  # a slice per turn (dialogs.SlicedCount)
            for start in range(0, len(doc), 500):  # in decisions, as the list counts its rows
                yield doc.decision_count(doc.pending_to_apply(threshold, start=start, end=start + 500), threshold)

        def may_write(path: Path, confirmed: bool) -> bool:  # asked on OK; No: back to the dialog
            return overwrite.may_replace(self._widget, path, action="export", source=session.source,
                                         confirmed=confirmed)

        dialog = ExportDialog(settings, suggested, doc.pending_decisions, self._widget, count=count,
                              source=session.source, unavailable=unavailable, may_write=may_write,
                              open_help=self._host.help.show_help)
        if not run_modal(dialog) or dialog.export_path is None:
            return
        path, policy = dialog.export_path, dialog.chosen_policy
        self.export_later(path, policy)
        if wait:
            self.finish_exporting()
            # its word from the thread (the status bar, export_done) comes after the file is
            # written: sending what was posted when the write ended missed it now and then
            deadline = time.monotonic() + 30
            while self._exports and time.monotonic() < deadline:
                QApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)
                time.sleep(0.001)
        # the next Export proposes this format, and this folder where the source's is not one's own
        settings.set("export.last_format", path.suffix.lower())
        settings.set("export.last_folder", str(path.parent))
        self._host.save_settings()

    def export_folder(self) -> Path:
        """Where Export proposes to write: beside the source (or the project), unless that is among
        Stet's own files (Help > Open sample, the package, the bundle); then where the last export
        went, else where the file dialogs start."""
        session = self._host.session
        for near in (session.source, session.project):
            if near is not None and near.parent.is_dir() and not _is_resource(near):
                return near.parent
        last = self._host.settings.export.last_folder
        if last and Path(last).is_dir() and not _is_resource(Path(last)):
            return Path(last)
        return Path(self.last_folder())

    # -- recent files ------------------------------------------------------------------------------
    def remember_recent(self, path: Path) -> None:
        text = str(path.resolve())
        recent = [p for p in self._host.settings.recent_files if p != text]
        self._host.settings.set("recent_files", [text, *recent][:RECENT_LIMIT])
        self._host.save_settings()

    def fill_recent(self) -> None:
        """File > Open Recent, as the menu opens: the files that still exist can be chosen."""
        self._host.recent_menu.clear()
        for text in self._host.settings.recent_files:
            action = self._host.recent_menu.addAction(text)
            action.setEnabled(Path(text).exists())
            action.triggered.connect(lambda _=False, p=text: self._open_recent(p))
        if not self._host.settings.recent_files:
            self._host.recent_menu.addAction("(none)").setEnabled(False)

    def _open_recent(self, path: str) -> None:
        self.open_chosen(path)

    def last_folder(self) -> str:
        """Where the file dialogs start: the folder of the latest file that still has one, and is
        not among Stet's own files (the sample)."""
        for text in self._host.settings.recent_files:
            if Path(text).parent.exists() and not _is_resource(Path(text)):
                return str(Path(text).parent)
        return str(Path.home())

    # -- drag and drop -----------------------------------------------------------------------------
    def drag_enter(self, event: QDragEnterEvent) -> None:
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile() and (can_read(urls[0].toLocalFile())
                                               or is_media(urls[0].toLocalFile())):
            event.acceptProposedAction()

    def drop(self, event: QDropEvent) -> None:
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile():
            event.acceptProposedAction()
            self.open_chosen(urls[0].toLocalFile())
