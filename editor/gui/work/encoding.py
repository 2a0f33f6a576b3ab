"""File > Reopen with Encoding: read the open text or subtitle file again in an encoding the
user names, when the guessed one garbled its letters."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from PySide6.QtWidgets import QInputDialog, QStatusBar, QWidget

from editor.core.document.transcript import Transcript
from editor.core.errors import UserError
from editor.core.formats import TEXT_READERS, read_any


class ShowsOpened(Protocol):
    """What shows a transcript just read (the window's ``files``, ``FileCommands``)."""

    def show_opened(self, path: Path, doc: Transcript) -> None: ...


class EncodingHost(Protocol):
    """What Reopen with Encoding uses of its window (``MainWindow``), the parent of its question."""

    @property
    def files(self) -> ShowsOpened: ...
    @property
    def source(self) -> Path | None: ...
    @property
    def path(self) -> Path | None: ...
    def may_discard(self) -> bool: ...
    def report_error(self, title: str, err: BaseException) -> None: ...
    def statusBar(self) -> QStatusBar: ...

#: Offered first; any other name Python knows can be typed.
ENCODINGS = ["utf-8", "cp1252 (Western European)", "cp1250 (Central European)",
             "cp1251 (Cyrillic)", "gb18030 (Chinese, simplified)", "big5 (Chinese, traditional)",
             "shift_jis (Japanese)", "euc-kr (Korean)", "cp1253 (Greek)", "cp1254 (Turkish)",
             "cp1255 (Hebrew)", "cp1256 (Arabic)", "koi8-r (Russian)", "iso-8859-2",
             "iso-8859-15", "utf-16", "utf-32"]


def reopenable(window: EncodingHost) -> Path | None:
    """The file the window's transcript was read from, if it is text whose encoding can be named."""
    source = window.source
    if source is None or window.path is not None or source.suffix.lower() not in TEXT_READERS:
        return None
    return source


def reopen_with_encoding(window: EncodingHost, parent: QWidget, encoding: str | None = None) -> bool:
    """Ask for an encoding (unless given; ``parent``: the question's) and read the source file
    again with it."""
    source = reopenable(window)
    if source is None:
        window.statusBar().showMessage("Reopen with Encoding: the open file is not a text or "
                                       "subtitle file read in this session", 6000)
        return False
    if encoding is None:
        choice, ok = QInputDialog.getItem(parent, "Reopen with Encoding",
                                          f"Read {source.name} again as:", ENCODINGS, 0, True)
        if not ok or not choice.strip():
            return False
        encoding = choice.split()[0]
    try:  # read before the question: a failure leaves the open work as it was
        doc = read_any(source, encoding)
    except UserError as err:
        window.report_error("Cannot reopen", err)
        return False
    if not window.may_discard():
        return False
    window.files.show_opened(source, doc)
    window.statusBar().showMessage(f"Reopened {source.name} as {encoding}", 6000)
    return True
