"""Autosave and crash recovery in the window (the files and their ownership: editor.core.recovery.slots).

``Autosaver`` keeps this session's recovery file: every change goes at once, as one small line,
to its edit journal (``editor.core.recovery.edits``), so a kill loses no typing; the whole
document (a state, which the journal's lines follow) is written ``AUTOSAVE_PAUSE_MS`` after the
last change, at the latest ``AUTOSAVE_MAX_MS`` after the first change not yet written, and at once
when the journal has a gap (the first change after a save, a change too big for a line); the
window also calls ``save_now()`` when it loses focus and before long jobs. The document is captured on the UI thread
(immutable records: the first time all of them, ~15 ms at 100,000 words; then only the suggestions
that changed, followed by a ``DocumentTracker``) and encoded and written on a pool thread, where
an autosave appends to the recovery file only the runs of words that changed.

``offer(folder, recover, parent)`` runs at every start: it lists the recovery files of sessions that are gone (file,
time of the last autosave, words) and lets the person restore one, discard one, or keep them for
a later start.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMessageBox,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor.core.document.transcript import Transcript
from editor.core.errors import UserError
from editor.core.paths import recovery_dir
from editor.core.recovery.slots import (DocumentTracker, Orphan, RecoverySlot, RecoveryState,
                                  find_orphans)
from editor.core.recovery.edits import EditJournal
from editor.gui.base.background import BackgroundOp
from editor.gui.base.modal import run_modal

AUTOSAVE_PAUSE_MS = 1500  # after the last change
AUTOSAVE_MAX_MS = 3000  # after the first change not yet written, however the typing goes on
#: From this length on, a transcript's recovery file is written ahead when it is opened (its runs
#: of words, nothing offered), so that the first autosave appends only what the edit changed: at
#: 1,000,000 words writing it all takes 9-17 s, past the 5 s an edit may wait.
PRIME_WORDS = 50_000
#: ... and that long after it opened: not in the same turn of the event loop as showing it (a
#: project's 100,000 suggestions take ~20 ms to capture), nor while its first words are laid out;
#: nor while a restoration pass or a bulk step streams into the document (then once it is done).
PRIME_AFTER_MS = 1500


class AutosaveHost(Protocol):
    """What ``Autosaver`` uses of its window (``MainWindow``): the work and whether it is saved."""

    @property
    def transcript(self) -> Transcript: ...
    @property
    def dirty(self) -> bool: ...
    @property
    def path(self) -> Path | None: ...  # the .stet project, once saved
    @property
    def source(self) -> Path | None: ...  # the file the words came from


class Autosaver(QObject):
    """This window's recovery file, kept fresh while there is unsaved work."""

    saved = Signal(str)  # path of the recovery file
    failed = Signal(str)  # why an autosave could not be written

    def __init__(self, window: AutosaveHost, parent: QObject, folder: Path | None = None, *,
                 give_way: Callable[[], float] | None = None) -> None:
        super().__init__(parent)
        self._window = window
        self.slot = RecoverySlot.claim(folder or recovery_dir())
        self.slot.give_way = give_way  # the window's turns: the encoding rests while one runs
        self._pause = self._timer(AUTOSAVE_PAUSE_MS)
        self._deadline = self._timer(AUTOSAVE_MAX_MS)
        # at once (next turn): the edit journal's lines need a state on disk to follow
        self._soon = self._timer(0)
        self._based = False  # a state of the unsaved work is on disk
        self.edits = EditJournal(self.slot.edits_path, on_gap=self._soon.start,
                                 recording=lambda: bool(window.dirty) and self.slot.owned)
        self._writing = False
        self._again = False
        # follows the document's changes: a capture copies only what changed since the last one
        self._tracker: DocumentTracker | None = None
        self._priming = QTimer(self)
        self._priming.setSingleShot(True)
        self._priming.setInterval(PRIME_AFTER_MS)
        self._priming.timeout.connect(self.prime)
        opened = getattr(window, "transcript_opened", None)
        if opened is not None:
            opened.connect(self._opened)
        self.last_write_s = 0.0  # seconds the last write took on its thread
        self.last_capture_s = 0.0  # seconds the last capture held the UI thread

    def _timer(self, ms: int) -> QTimer:
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setInterval(ms)
        timer.timeout.connect(self.save_now)
        return timer

    @property
    def path(self) -> Path:
        return self.slot.data

    @property
    def pending(self) -> bool:
        """A change waits to be written."""
        return (self._pause.isActive() or self._deadline.isActive() or self._soon.isActive()
                or self._again)

    def changed(self) -> None:
        """The document changed: write soon, and never later than the deadline; at once when
        no state of the unsaved work is on disk yet (the journal's lines wait for one)."""
        self.edits.follow(self._window.transcript)
        if not self._based:
            self._soon.start()
        self._pause.start()
        if not self._deadline.isActive():
            self._deadline.start()

    def save_now(self) -> None:
        """Write the unsaved work now (in the background); nothing to do when all is saved."""
        self._pause.stop()
        self._deadline.stop()
        self._soon.stop()
        window = self._window
        if not window.dirty or not self.slot.owned:
            return
        if getattr(window, "bulk_running", False):
            # An accept-all (or undoing one) runs a slice per turn: its half-done state is not
            # worth recovering, and a capture would stall a turn of it. Once it is done.
            self._pause.start()
            return
        if self._writing:  # one write at a time; the newest state follows this one
            self._again = True
            return
        self._run(self.slot.write)

    def _opened(self, doc: Transcript | None = None) -> None:
        doc = doc if doc is not None else self._window.transcript
        if self._tracker is not None and self._tracker.doc is not doc:
            self._tracker.close()  # the document replaced is not held on to
            self._tracker = None
        self.edits.follow(doc)
        self._priming.start()  # prime, soon

    def prime(self, doc: Transcript | None = None) -> None:
        """A long transcript was opened: write its runs of words ahead (in the background), so
        the first autosave after an edit is as quick as the others. Waits while a restoration
        pass or a bulk step runs: what it writes would be out of date at once, and its encoding
        (0.3-0.6 s of Python at 100,000 timed words) was a third thread wanting the interpreter
        beside the restoration's worker and the window, which then waited for it 90-200 ms at
        a time (tests/perf/bench_open_stalls.py, SubRip)."""
        window = self._window
        if (window.transcript is None or len(window.transcript) < PRIME_WORDS or window.dirty
                or self._writing or not self.slot.owned):
            return
        if self.streaming():
            self._priming.start()  # again a while later
            return
        self._run(self.slot.prime)

    def streaming(self) -> bool:
        """Whether the window is changing the document a slice at a time: a restoration pass,
        or a bulk step (accept-all, undoing one)."""
        window = self._window
        restoration = getattr(window, "restoration", None)
        return bool(getattr(restoration, "running", False) or getattr(window, "bulk_running", False))

    def _run(self, write_with: Callable[[RecoveryState, int], bool]) -> None:
        """Capture the document (only what changed since the last capture) and hand it to
        ``write_with`` (the slot's write or prime) on a pool thread."""
        window = self._window
        began = time.perf_counter()
        doc = window.transcript
        if self._tracker is None or self._tracker.doc is not doc:  # another document now
            if self._tracker is not None:
                self._tracker.close()
            self._tracker = DocumentTracker(doc)
        self.edits.follow(doc)
        edits = self.edits.seq  # the changes this state holds: the journal's lines follow it
        state = dataclasses.replace(self._tracker.capture(source=window.source, project=window.path),
                                    edits=edits)
        self.last_capture_s = time.perf_counter() - began
        generation = self.slot.generation
        announce = write_with != self.slot.prime  # written ahead is not autosaved: no offer
        self._writing = True

        def write(_report: Callable[[Any], None]) -> tuple[bool, float, int]:
            began = time.perf_counter()
            done = write_with(state, generation)
            return done and announce, time.perf_counter() - began, edits

        BackgroundOp(self, write).success(self._written).failure(self._failed).run()

    def _written(self, result: tuple[bool, float, int]) -> None:
        done, self.last_write_s, edits = result
        self._writing = False
        if done:
            self._based = True
            self.edits.landed(edits)
            self.saved.emit(str(self.slot.data))
        self._follow_up()

    def _failed(self, err: BaseException) -> None:
        self._writing = False
        self.failed.emit(str(err))
        self._follow_up()

    def _follow_up(self) -> None:
        if self._again:
            self._again = False
            self.save_now()

    def discard(self) -> None:
        """The work is saved or given up: nothing left to recover."""
        self._pause.stop()
        self._deadline.stop()
        self._soon.stop()
        self._again = False
        self.slot.discard()
        self._based = False
        self.edits.reset()

    def close(self, *, keep: bool) -> None:
        """The window closes: keep the recovery file for the next start, or remove it."""
        self._priming.stop()
        if keep:
            self._pause.stop()
            self._deadline.stop()
            self._soon.stop()
            window = self._window
            if window.dirty and self.slot.owned:  # the last changes too, before the lock goes
                # (a whole capture, numbered after any write in flight, which is then dropped)
                try:
                    self.slot.write(dataclasses.replace(RecoveryState.capture(
                        window.transcript, source=window.source, project=window.path),
                        edits=self.edits.seq))
                except (UserError, OSError, ValueError) as err:
                    self.failed.emit(str(err))
        else:
            self.discard()
        if self._tracker is not None:
            self._tracker.close()
            self._tracker = None
        self.edits.close(remove=not keep)
        self.slot.close()  # waits for a write in flight; later ones are dropped


def _when(seconds: float) -> str:
    moment = time.localtime(seconds)
    today = time.localtime()
    if moment[:3] == today[:3]:
        return time.strftime("today %H:%M:%S", moment)
    return time.strftime("%Y-%m-%d %H:%M", moment)


def _folder(shown: str | None) -> str:
    """The Folder column: where the work came from or was saved. A path kept relative to where
    Stet was started (`stet talk.txt`) showed "."; that folder is named, and work never saved
    says so."""
    if not shown:
        return "(not saved yet)"
    path = Path(shown)
    if not path.is_absolute():
        return f"{path.parent} (where Stet was started)" if str(path.parent) != "." else \
            "where Stet was started"
    return str(path.parent)


class RecoveryDialog(QDialog):
    """The sessions that were not saved before Stet stopped: restore, discard, or keep them."""

    def __init__(self, orphans: list[Orphan], opening: str | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Recover unsaved work")
        self.setObjectName("recovery-dialog")
        self.orphans = list(orphans)
        self.chosen: Orphan | None = None
        layout = QVBoxLayout(self)
        many = len(orphans) > 1
        text = ("Stet stopped before this work was saved. It was autosaved:" if not many else
                f"Stet stopped before the work of {len(orphans)} sessions was saved. "
                "Each was autosaved:")
        if opening:
            text += (f"<br>Restore one instead of opening <b>{Path(opening).name}</b>, or keep "
                     "them for later and open it.")
        label = QLabel(text)
        label.setWordWrap(True)
        layout.addWidget(label)
        self.table = QTreeWidget()
        self.table.setObjectName("recovery-list")
        self.table.setAccessibleName("Unsaved work")
        self.table.setRootIsDecorated(False)
        self.table.setHeaderLabels(["File", "Last autosave", "Words", "Folder"])
        for orphan in self.orphans:
            info = orphan.info
            shown = info.project or info.source
            folder = _folder(shown)
            item = QTreeWidgetItem([info.name, _when(info.saved),
                                    f"{info.words:,}" if info.words >= 0 else "?", folder])
            for column in (0, 3):  # cut in the middle where they do not fit (_fit_columns)
                item.setToolTip(column, str(shown) if shown else "never saved to a file")
            item.setTextAlignment(2, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.addTopLevelItem(item)
        # A long name or a deep folder is cut in the middle, whole in its tooltip: at 620 px an
        # 80-character name pushed the Folder column past the edge, read only by scrolling.
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self._wanted: list[int] = []  # each column's width with its whole contents
        for column in range(4):
            self.table.resizeColumnToContents(column)
            self._wanted.append(self.table.header().sectionSize(column))
        self.table.viewport().installEventFilter(self)
        first = self.table.topLevelItem(0)
        if first is not None:
            self.table.setCurrentItem(first)
        self.table.itemDoubleClicked.connect(lambda *_: self.restore())
        layout.addWidget(self.table)
        buttons = QDialogButtonBox()
        self.restore_button = QPushButton("&Restore")
        self.restore_button.setDefault(True)
        self.discard_button = QPushButton("&Discard…")
        self.keep_button = QPushButton("&Keep for later")
        buttons.addButton(self.restore_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.discard_button, QDialogButtonBox.ButtonRole.DestructiveRole)
        buttons.addButton(self.keep_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.restore_button.clicked.connect(self.restore)
        self.discard_button.clicked.connect(self.discard)
        self.keep_button.clicked.connect(self.reject)
        layout.addWidget(buttons)
        # as wide as the columns ask, where the screen has the room
        screen = (parent.screen() if parent is not None else QGuiApplication.primaryScreen()).availableGeometry()
        margins = layout.contentsMargins()
        chrome = 2 * self.table.frameWidth() + margins.left() + margins.right() + 24  # and a scroll bar
        self.resize(max(620, min(sum(self._wanted) + chrome, screen.width() * 9 // 10)),
                    160 + 24 * min(len(orphans), 8))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and watched is self.table.viewport():
            self._fit_columns()
        return super().eventFilter(watched, event)

    def _fit_columns(self) -> None:
        """Every column in sight: the time and the count whole, File and Folder sharing the rest
        (the shorter whole where the longer can give it room; the last column takes what is left)."""
        header = self.table.header()
        room = self.table.viewport().width() - self._wanted[1] - self._wanted[2]
        name, folder = self._wanted[0], self._wanted[3]
        if name + folder <= room:
            width = name
        else:
            width = max(min(name, room - min(folder, room // 2)), room // 3)
        header.resizeSection(1, self._wanted[1])
        header.resizeSection(2, self._wanted[2])
        header.resizeSection(0, max(width, 60))
        header.resizeSection(3, max(room - header.sectionSize(0), 60))  # stretched where there is more

    def _selected(self) -> int:
        item = self.table.currentItem()
        return self.table.indexOfTopLevelItem(item) if item is not None else -1

    def restore(self) -> None:
        row = self._selected()
        if row >= 0:
            self.chosen = self.orphans[row]
            self.accept()

    def discard(self, *, confirm: bool = True) -> None:
        """Remove the selected recovery file for good (after asking)."""
        row = self._selected()
        if row < 0:
            return
        orphan = self.orphans[row]
        if confirm:
            answer = QMessageBox.question(
                self, "Discard autosaved work?",
                f"Discard the autosaved work on {orphan.info.name} ({orphan.info.words:,} words, "
                f"{_when(orphan.info.saved)})? It cannot be brought back.",
                QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Cancel)
            if answer != QMessageBox.StandardButton.Discard:
                return
        orphan.discard()
        del self.orphans[row]
        self.table.takeTopLevelItem(row)
        if not self.orphans:
            self.reject()


def offer(folder: Path, recover: Callable[[Orphan], bool], parent: QWidget, *, interactive: bool,
          opening: str | None = None) -> bool:
    """At start: offer the recovery files in ``folder`` of sessions that are gone; the one chosen
    goes to ``recover``. True when one was restored.

    Only where a person can answer (``interactive``); otherwise the files stay for later.
    Files not restored or discarded stay on disk and are offered again at the next start.
    """
    orphans = find_orphans(folder)
    if not orphans:
        return False
    restored = False
    try:
        if not interactive:
            return False
        dialog = RecoveryDialog(orphans, opening, parent)
        run_modal(dialog)
        if dialog.chosen is not None:
            restored = recover(dialog.chosen)
    finally:
        for orphan in orphans:
            orphan.release()  # those not taken over or discarded: kept for a later start
    return restored


__all__ = ["AUTOSAVE_MAX_MS", "AUTOSAVE_PAUSE_MS", "Autosaver", "RecoveryDialog", "offer"]
