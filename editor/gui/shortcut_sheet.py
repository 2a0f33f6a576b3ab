"""Help > Keyboard shortcuts: every shortcut of editor/gui/hotkeys.py in a table a person can filter,
so the sheet is always the keys the editor really has."""

from __future__ import annotations

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHeaderView, QLineEdit, QTableView, QVBoxLayout, QWidget

from editor.gui import hotkeys

COLUMNS = ("Action", "Keys", "What it does")


class ShortcutSheet(QDialog):
    """A filter box over a table of action / keys / what it does; the filter matches any column,
    any case ("tab", "ctrl+s", "review")."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts — Stet")
        self.model = QStandardItemModel(0, len(COLUMNS), self)
        self.model.setHorizontalHeaderLabels(list(COLUMNS))
        for keys, about in hotkeys.described():
            action = f"{about.area} ▸ {about.action}" if about.area else about.action
            row = [QStandardItem(action), QStandardItem(keys), QStandardItem(about.does)]
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
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        self.resize(860, 560)
        self.filter.setFocus()

    def shown_rows(self) -> list[tuple[str, str, str]]:
        """The rows the table shows now (after the filter), as text."""
        return [tuple(self.rows.index(r, c).data() for c in range(len(COLUMNS)))
                for r in range(self.rows.rowCount())]
