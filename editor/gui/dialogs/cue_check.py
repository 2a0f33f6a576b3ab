"""Review > Check line length and reading speed: the cues an export would write that are over the
line length or the reading speed, as Subtitle Edit and Aegisub flag them, each a click (or Enter)
from its first word in the text."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QLabel, QTreeWidget, QTreeWidgetItem,
                               QVBoxLayout, QWidget)

from editor.core.formats.cue_writing import CueProblem
from editor.core.formats.subtitle_layout import SubtitleLayout
from editor.gui.base.screen_fit import resize_within_screen

#: Where a row keeps the id of its cue's first word
TOKEN_ROLE = Qt.ItemDataRole.UserRole


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


class CueCheckDialog(QDialog):
    """The list of cues that break the layout; ``chosen`` gives the id of a row's first word when
    it is clicked or Enter is pressed on it. Stays open beside the text (not modal)."""

    chosen = Signal(int)

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setWindowTitle("Line length and reading speed")
        self.summary = QLabel("Checking the cues…")
        self.summary.setWordWrap(True)
        self.rows = QTreeWidget()
        self.rows.setHeaderLabels(["Time", "Problem", "Cue"])
        self.rows.setRootIsDecorated(False)
        self.rows.setUniformRowHeights(True)  # thousands of rows stay quick to lay out
        self.rows.setAccessibleName("Cues over the line length or reading speed")
        self.rows.itemClicked.connect(self._go)
        self.rows.itemActivated.connect(self._go)  # Enter, or a double click
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.rows, 1)
        layout.addWidget(buttons)
        resize_within_screen(self, 760, 420)

    def show_problems(self, problems: Sequence[CueProblem], check: SubtitleLayout, speed_set: bool) -> None:
        """List ``problems`` (found with ``check``; ``speed_set``: the reading speed is the person's)."""
        self.rows.clear()
        what = limits(check, speed_set)
        if not problems:
            self.summary.setText(f"Every cue is within {what}.")
            return
        count = len(problems)
        self.summary.setText(f"{count} cue{'s' if count != 1 else ''} over {what}. "
                             "Click one (or press Enter) to go to its words.")
        items = []
        for problem in problems:
            item = QTreeWidgetItem([clock(problem.start), "; ".join(problem.problems),
                                    " / ".join(problem.lines)])
            item.setData(0, TOKEN_ROLE, problem.token_id)
            item.setToolTip(2, "\n".join(problem.lines))
            items.append(item)
        self.rows.addTopLevelItems(items)
        for column in (0, 1):
            self.rows.resizeColumnToContents(column)
        self.rows.setCurrentItem(items[0])

    def show_failure(self, message: str) -> None:
        self.rows.clear()
        self.summary.setText(message)

    def _go(self, item: QTreeWidgetItem) -> None:
        token = item.data(0, TOKEN_ROLE)
        if isinstance(token, int):
            self.chosen.emit(token)
