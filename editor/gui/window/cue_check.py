"""Review > Check line length and reading speed: the window's part that finds, off the UI thread,
the cues an export would write that break the subtitle layout (`writing.cue_problems`, with
the Export settings' layout, `ExportSettings.subtitle_layout`; rolling captions Export writes
back as they came are said to be unchecked, `writeback.rolling_written_back`), lists them
(`dialogs.cue_check.CueCheckDialog`) and puts the caret at a cue's first word when one is chosen."""

from __future__ import annotations

import logging
from typing import Protocol

from PySide6.QtWidgets import QStatusBar, QWidget

from editor.core.document.transcript import Transcript
from editor.core.errors import UserError
from editor.core.formats.subtitles import CueProblem, cue_problems
from editor.core.formats.subtitles.writeback import rolling_written_back
from editor.core.process import collections_held
from editor.core.render import NONE
from editor.core.settings import Settings
from editor.gui.base.background import BackgroundOp
from editor.gui.dialogs.cue_check import CueCheckDialog
from editor.gui.text_view.view import QtTranscriptView

log = logging.getLogger(__name__)


class CueCheckHost(Protocol):
    """What ``CueCheck`` uses of its window (``MainWindow``)."""

    settings: Settings
    view: QtTranscriptView

    @property
    def transcript(self) -> Transcript: ...
    def statusBar(self) -> QStatusBar: ...


class CueCheck:
    """Runs the check and keeps its dialog (one, shown again by a new check); ``widget``: the
    dialog's parent and the owner of the background work."""

    def __init__(self, host: CueCheckHost, widget: QWidget) -> None:
        self._host = host
        self._widget = widget
        self.dialog: CueCheckDialog | None = None
        self.checked: Transcript | None = None  # the document the rows are of
        self.running: BackgroundOp | None = None

    def run(self) -> CueCheckDialog:
        """Check the open transcript's cues as Export would write them now (pending suggestions
        left out), on a pool thread: a long transcript never holds the window."""
        doc = self._host.transcript
        layout = self._host.settings.export.subtitle_layout()
        check = layout.for_checking()
        take = doc.copy_later()  # immutable records, taken now: the copy is built on the thread
        dialog = self.dialog
        if dialog is None:
            dialog = self.dialog = CueCheckDialog(self._widget)
            dialog.chosen.connect(self.go_to)
        dialog.show_failure("Checking the cues…")
        dialog.show()
        dialog.raise_()

        def found(result: tuple[list[CueProblem], str | None]) -> None:
            if self._host.transcript is not doc:  # another file opened meanwhile
                return
            self.checked = doc
            problems, kept = result
            dialog.show_problems(problems, check, layout.max_cps is not None, kept)

        def failed(err: BaseException) -> None:
            if isinstance(err, UserError):
                dialog.show_failure(str(err))
                return
            log.error("the check of cues failed:\n%s", getattr(err, "__stet_traceback__", err))
            dialog.show_failure(f"The cues could not be checked: {err}")

        def work(_report: object) -> tuple[list[CueProblem], str | None]:
            # allocation-heavy (a copy of the document, a timed word each): without automatic
            # collections, whose full passes over an open transcript hold the UI thread waiting
            with collections_held("cue check"):
                copy = take()
                # rolling captions Export writes back as they came are not laid out: said so
                return cue_problems(copy, layout, check, NONE), rolling_written_back(copy, NONE)

        self.running = BackgroundOp(self._widget, work).success(found).failure(failed).run()
        return dialog

    def go_to(self, token_id: int) -> None:
        """Put the caret at the word ``token_id`` (a cue's first) and show it."""
        view, doc = self._host.view, self._host.transcript
        try:
            if doc is not self.checked:
                raise KeyError(token_id)
            index = doc.index_of(token_id)
        except KeyError:
            self._host.statusBar().showMessage(
                "That cue's words are no longer in the text: check again", 6000)
            return
        cursor = view.textCursor()
        cursor.setPosition(view.token_range(index)[0])
        view.setTextCursor(cursor)
        view.scroll_to_token(index)
        self._widget.activateWindow()
        view.setFocus()
