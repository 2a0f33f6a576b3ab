"""Opening a transcript off the UI thread, with a progress dialog that can cancel it.

A large file takes a while to parse, and a file on a stalled network share (or a FIFO, which the
readers refuse only once they have looked at it) may not answer at all: either would freeze the
window if read on the UI thread. Such files are read on a thread of their own (not the shared pool:
a read that never returns must not take a pool thread from autosave or restoration); after
``PROGRESS_AFTER_MS`` a dialog shows, and Cancel drops whatever the read brings back later.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QProgressDialog, QWidget

from editor.core import process
from editor.core.document.transcript import Transcript
from editor.core.errors import UserError
from editor.core.formats import read_any
from editor.gui.base.background import BackgroundOp
from editor.media.kinds import is_media

#: Plain files larger than this are read in the background: parsing takes about 1 s per MB on a
#: slow machine, and more than 30 ms on the UI thread is felt (100,000 words are 0.5 MB).
BACKGROUND_BYTES = 32 << 10
PROGRESS_AFTER_MS = 400


def needs_background(path: Path) -> bool:
    """Large, or not a plain file: read it off the UI thread. ``stat`` never blocks on a FIFO."""
    if is_media(path):
        return False  # transcription has its own background work
    try:
        st = os.stat(path)
    except OSError:
        return False  # the reader says what is wrong, at once
    return not stat.S_ISREG(st.st_mode) or st.st_size > BACKGROUND_BYTES


def _read(path: Path) -> Transcript:
    """The document, with its proposed paragraph breaks (see ``Transcript.suggest_paragraphs``):
    placing them over 100,000 words running on is 10-30 ms better spent here than on the UI thread;
    so is counting its speakers (``Transcript.speaker_names``, which the view's margin asks for
    as it shows the text: 4-5 ms at 100,000 words) and a project's pending decisions
    (``Transcript.pending_decisions``, the panel's count: a pass over every word the first time)."""
    doc = read_any(path)
    doc.suggest_paragraphs(undoable=False)
    doc.speaker_names()
    doc.pending_decisions  # noqa: B018  (counted here, kept from then on)
    return doc


class Opener(QObject):
    """Reads one file at a time in the background for the window; a newer open replaces it.

    What was read goes out as ``opened(path, transcript)`` if ``may_discard()`` (asked when the
    read ends: the open work may have been typed into meanwhile) lets it replace the open work;
    the progress dialog shows over ``parent``."""

    finished = Signal(str)  # "opened", "failed" or "cancelled"
    opened = Signal(object, object)  # (Path, Transcript): show it
    message = Signal(str, int)  # a status-bar message and for how many ms ("": clear it)
    error = Signal(str, object)  # (title, exception)

    def __init__(self, parent: QWidget | None = None, *,
                 may_discard: Callable[[], bool] = lambda: True) -> None:
        super().__init__(parent)
        self._parent_widget = parent
        self._may_discard = may_discard
        self._job = 0
        self._dialog: QProgressDialog | None = None
        self.path: Path | None = None

    @property
    def running(self) -> bool:
        return self._dialog is not None

    def start(self, path: Path) -> None:
        self.cancel(quiet=True)
        self._job += 1
        job, self.path = self._job, path
        dialog = self._dialog = QProgressDialog(f"Opening {path.name}…", "Cancel", 0, 0,
                                                self._parent_widget)
        dialog.setObjectName("opening-progress")
        dialog.setWindowTitle("Opening")
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(PROGRESS_AFTER_MS)
        dialog.setAutoReset(False)
        dialog.setAutoClose(False)
        dialog.canceled.connect(self.cancel)
        dialog.setValue(0)  # starts the timer that shows it if the read takes long
        self.message.emit(f"Opening {path.name}…", 0)
        # No garbage collection while the reader builds the words: with what exists frozen, full
        # passes over the new objects came ever more often, each holding the GIL, and stalled the
        # window for 5-10 s at 100,000 words (tests/perf/bench_gui_stalls.py).
        process.hold_collections()
        BackgroundOp(self, lambda _report: _read(path)) \
            .success(lambda doc: self._opened(job, path, doc)) \
            .failure(lambda err: self._failed(job, path, err)).run(own_thread=True)

    def cancel(self, quiet: bool = False) -> None:
        """Stop waiting for the file (the read, if stuck, is left to end on its own)."""
        if not self.running:
            return
        self._job += 1
        self._close()
        if not quiet:
            self.message.emit(f"Stopped opening {self.path.name if self.path else 'the file'}", 6000)
            self.finished.emit("cancelled")

    def _close(self) -> None:
        if self._dialog is not None:
            process.release_collections()
            dialog, self._dialog = self._dialog, None
            dialog.canceled.disconnect(self.cancel)
            dialog.close()
            dialog.deleteLater()

    def _opened(self, job: int, path: Path, doc: Transcript) -> None:
        if job != self._job:
            return  # cancelled, or another file asked for since
        self._close()
        self.message.emit("", 0)
        if not self._may_discard():  # typed into while reading, and the person keeps that
            self.finished.emit("cancelled")
            return
        self.opened.emit(path, doc)
        self.finished.emit("opened")

    def _failed(self, job: int, path: Path, err: BaseException) -> None:
        if job != self._job:
            return
        self._close()
        self.message.emit("", 0)
        if not isinstance(err, UserError):
            err = UserError(f"{path}: cannot be read ({err})")
        self.error.emit("Cannot open", err)
        self.finished.emit("failed")
