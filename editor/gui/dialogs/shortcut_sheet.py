"""Help > Keyboard shortcuts: every command of the table of actions (editor/gui/base/actions.py), with
its keys and where they work, in a table a person can filter, so the sheet is always the commands
and keys the editor really has."""

from __future__ import annotations

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHeaderView, QLineEdit, QTableView, QVBoxLayout, QWidget

from editor.gui.base import hotkeys
from editor.gui.base.actions import ACTIONS, PRECEDENCE, WHEN, Action
from editor.gui.base.screen_fit import resize_within_screen

COLUMNS = ("Action", "Keys", "When", "What it does")


class ShortcutSheet(QDialog):
    """A filter box over a table of action / keys / when / what it does; the filter matches any
    column, any case ("tab", "ctrl+s", "review", "accept")."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts — Stet")
        self.model = QStandardItemModel(0, len(COLUMNS), self)
        self.model.setHorizontalHeaderLabels(list(COLUMNS))
        for texts in sheet_rows():
            row = [QStandardItem(text) for text in texts]
            for item in row:
                item.setEditable(False)
            self.model.appendRow(row)
        self.rows = QSortFilterProxyModel(self)
        self.rows.setSourceModel(self.model)
        self.rows.setFilterKeyColumn(-1)  # every column
        self.rows.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.filter = QLineEdit()
        self.filter.setObjectName("shortcut-filter")
        self.filter.setAccessibleName("Filter the shortcuts")
        self.filter.setPlaceholderText("Filter: an action, a key (Tab, Ctrl+S) or a word")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.rows.setFilterFixedString)
        self.table = QTableView()
        self.table.setObjectName("shortcut-table")
        self.table.setAccessibleName("Keyboard shortcuts")
        self.table.setModel(self.rows)
        self.table.verticalHeader().hide()
        self.table.setAlternatingRowColors(True)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        # The sheet fits its width: the long columns wrap and rows grow, instead of a table
        # that scrolled sideways (a reader lost the "What it does" column off the right edge).
        self.table.setWordWrap(True)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setHorizontalScrollMode(QTableView.ScrollMode.ScrollPerPixel)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        resize_within_screen(self, 860, 560)
        self.filter.setFocus()

    def shown_rows(self) -> list[tuple[str, str, str]]:
        """The rows the table shows now (after the filter), as text."""
        return [tuple(self.rows.index(r, c).data() for c in range(len(COLUMNS)))
                for r in range(self.rows.rowCount())]


def sheet_rows() -> list[tuple[str, str, str, str]]:
    """A row a command, the nine "Speaker n" entries as one ("Speaker 1 … 9", "Alt+1 … Alt+9")."""
    rows = []
    for action in ACTIONS:
        if action.id.startswith("speakers.number."):
            if action.id.endswith(".1"):
                rows.append(("Speakers ▸ Speaker 1 … 9", hotkeys.shortcut_text(hotkeys.SPEAKERS), "",
                             "Give the selection (or the caret's paragraph) that speaker, in the order they first speak"))
            continue
        rows.append(sheet_row(action))
    return rows


def sheet_row(action: Action) -> tuple[str, str, str, str]:
    """(action, keys, when, what it does) of one command; "when" also says which command a shared
    key reaches first (Esc leaves the selected suggestion before it plays or pauses)."""
    area = action.menu or {"playback": "Playback"}.get(action.context, "Review")
    keys = hotkeys.shortcut_text(action.keys) if action.keys is not None else ""
    when = WHEN[action.context]
    for key, (first, then) in PRECEDENCE.items():
        if keys == key and action.context == then:
            when += f" (after {WHEN[first]}: {key} does that first)"
        elif keys == key and action.context == first:
            when += f" (before {WHEN[then]})"
    return f"{area} ▸ {action.name}", keys, when, action.does
