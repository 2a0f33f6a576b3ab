"""Review > Check line length and reading speed: the cues an export would write that are over the
line length or the reading speed, as Subtitle Edit and Aegisub flag them, each a click (or Enter)
from its first word in the text."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QDialog, QDialogButtonBox, QHeaderView, QLabel,
                               QTableView, QVBoxLayout, QWidget)

from editor.core.formats.subtitles import CueProblem, SubtitleLayout
from editor.gui.base.screen_fit import resize_within_screen

#: Where a row keeps the id of its cue's first word
TOKEN_ROLE = Qt.ItemDataRole.UserRole
HEADERS = ("Time", "Problem", "Cue")
AnyIndex = QModelIndex | QPersistentModelIndex
_TOP = QModelIndex()  # the table's own (invalid) parent: rows hang from nothing


def clock(seconds: float) -> str:
    """A cue's start as a person reads it: "1:05.2", "75:03.0"."""
    minutes, rest = divmod(max(seconds, 0.0), 60)
    return f"{int(minutes)}:{rest:04.1f}"


def limits(check: SubtitleLayout, speed_set: bool) -> str:
    """What the cues were checked against, in words."""
    width = (f"{check.line_length} characters a line" +
             ("" if check.max_line_length is not None else " (Stet's width for new cues)"))
    assert check.max_cps is not None  # a check always has a speed (SubtitleLayout.for_checking)
    speed = f"{check.max_cps:g} characters a second" + ("" if speed_set else " (none is set in Export: "
                                                          "a comfortable speed)")
    return f"{width}, {check.max_lines} lines a cue, {speed}"


class ProblemTable(QAbstractTableModel):
    """The problems as rows of a model: a table view asks only for the rows it shows, so 8,000
    cues over the limits (100,000 words) are listed at once, where a tree of items took 200 ms
    of the UI thread and a tree view over this model 12-20 ms."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: Sequence[CueProblem] = ()

    def set_problems(self, problems: Sequence[CueProblem]) -> None:
        self.beginResetModel()
        self.problems = problems
        self.endResetModel()

    def rowCount(self, parent: AnyIndex = _TOP) -> int:
        return 0 if parent.isValid() else len(self.problems)

    def columnCount(self, parent: AnyIndex = _TOP) -> int:
        return 0 if parent.isValid() else len(HEADERS)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        problem = self.problems[index.row()]
        if role == TOKEN_ROLE:
            return problem.token_id
        if role == Qt.ItemDataRole.ToolTipRole and index.column() == 2:
            return "\n".join(problem.lines)
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        return (clock(problem.start), "; ".join(problem.problems), " / ".join(problem.lines))[index.column()]

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        return None


class CueCheckDialog(QDialog):
    """The list of cues that break the layout; ``chosen`` gives the id of a row's first word when
    it is clicked or Enter is pressed on it. Stays open beside the text (not modal)."""

    chosen = Signal(int)

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setWindowTitle("Line length and reading speed")
        self.summary = QLabel("Checking the cues…")
        self.summary.setWordWrap(True)
        self.table = ProblemTable()
        self.rows = QTableView()  # a table lays out no row it does not show (a tree lays out all)
        self.rows.setModel(self.table)
        self.rows.verticalHeader().hide()
        self.rows.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.rows.horizontalHeader().setStretchLastSection(True)
        self.rows.setShowGrid(False)
        self.rows.setWordWrap(False)
        self.rows.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.rows.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.rows.setAccessibleName("Cues over the line length or reading speed")
        self.rows.clicked.connect(self._go)
        self.rows.activated.connect(self._go)  # Enter, or a double click
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.rows, 1)
        layout.addWidget(buttons)
        resize_within_screen(self, 760, 420)
        width = self.fontMetrics().horizontalAdvance
        self.rows.setColumnWidth(0, width("000:00.0") + 16)
        self.rows.setColumnWidth(1, width("line 1 is 47 characters; 23.4 characters a second") + 16)

    def show_problems(self, problems: Sequence[CueProblem], check: SubtitleLayout, speed_set: bool,
                      kept: str | None = None) -> None:
        """List ``problems`` (found with ``check``; ``speed_set``: the reading speed is the person's)
        in the cues Stet lays out; ``kept``: the extension (".vtt") rolling captions are written
        back to as they came, with lines no layout applies to, which the summary says first."""
        self.table.set_problems(problems)
        what = limits(check, speed_set)
        before = "" if kept is None else (
            f"Exported as {kept}, these rolling captions are written back as they came (each line "
            "shown twice, timed word by word), with their own lines and times: they are not checked. "
            "Cut into cues afresh (exported in another format): ")
        if not problems:
            every = "every" if before else "Every"
            self.summary.setText(f"{before}{every} cue is within {what}.")
            return
        count = len(problems)
        self.summary.setText(f"{before}{count:,} cue{'s' if count != 1 else ''} over {what}. "
                             "Click one (or press Enter) to go to its words.")
        self.rows.setCurrentIndex(self.table.index(0, 0))

    def show_failure(self, message: str) -> None:
        self.table.set_problems(())
        self.summary.setText(message)

    def _go(self, index: QModelIndex) -> None:
        token = self.table.data(index, TOKEN_ROLE)
        if isinstance(token, int):
            self.chosen.emit(token)
