"""The find/replace bar under the text."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QKeyEvent, QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QToolButton,
    QWidget,
)


if TYPE_CHECKING:
    from editor.gui.text_view.view import QtTranscriptView


class FindBar(QWidget):
    """Find and replace in the text as shown. Replacing goes through the view, so it is undoable
    and keeps the timings of words it does not change; it decides no suggestion: a pending mark or
    form shown in the replaced words stays pending (issue 47)."""

    closed = Signal()

    def __init__(self, view: QtTranscriptView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = view
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 2)
        find_label = QLabel("Find:")
        layout.addWidget(find_label)
        self.find_edit = QLineEdit()
        find_label.setBuddy(self.find_edit)  # its accessible name
        self.find_edit.setPlaceholderText("text to find")
        self.find_edit.returnPressed.connect(self.find_next)
        layout.addWidget(self.find_edit, 2)
        replace_label = QLabel("Replace with:")
        layout.addWidget(replace_label)
        self.replace_edit = QLineEdit()
        replace_label.setBuddy(self.replace_edit)
        self.replace_edit.returnPressed.connect(self.replace)
        layout.addWidget(self.replace_edit, 2)
        self.case = QCheckBox("Match case")
        layout.addWidget(self.case)
        for text, slot in (("Previous", lambda: self.find_next(backwards=True)),
                           ("Next", self.find_next), ("Replace", self.replace),
                           ("Replace all", self.replace_all)):
            button = QPushButton(text)
            button.clicked.connect(slot)
            layout.addWidget(button)
        close = QToolButton()
        close.setText("✕")
        close.setToolTip("Close (Esc)")
        close.setAccessibleName("Close find and replace")
        close.clicked.connect(self.close_bar)
        layout.addWidget(close)
        self.status = QLabel()
        layout.addWidget(self.status)

    def event(self, event: QEvent) -> bool:
        # Esc here closes the bar, although the player bar makes Esc a window shortcut (play/pause)
        if event.type() == QEvent.Type.ShortcutOverride and cast(QKeyEvent, event).key() == Qt.Key.Key_Escape:
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.close_bar()
        else:
            super().keyPressEvent(event)

    def close_bar(self) -> None:
        self.hide()
        self.closed.emit()

    def _flags(self, backwards: bool = False) -> QTextDocument.FindFlag:
        flags = QTextDocument.FindFlag(0)
        if self.case.isChecked():
            flags |= QTextDocument.FindFlag.FindCaseSensitively
        if backwards:
            flags |= QTextDocument.FindFlag.FindBackward
        return flags

    def find_next(self, backwards: bool = False) -> bool:
        needle = self.find_edit.text()
        if not needle:
            return False
        self.view.flush()
        doc = self.view.document()
        found = doc.find(needle, self.view.textCursor(), self._flags(backwards))
        if found.isNull():  # wrap around
            start = QTextCursor(doc)
            if backwards:
                start.movePosition(QTextCursor.MoveOperation.End)
            found = doc.find(needle, start, self._flags(backwards))
        if found.isNull():
            self.status.setText("Not found")
            return False
        self.status.setText("")
        self.view.setTextCursor(found)
        self.view.ensureCursorVisible()
        return True

    def _selection_matches(self) -> bool:
        selected = self.view.textCursor().selectedText()
        needle = self.find_edit.text()
        if self.case.isChecked():
            return selected == needle
        return selected.lower() == needle.lower()

    def replace(self) -> None:
        if self.find_edit.text() and self._selection_matches():
            cursor = self.view.textCursor()
            self.view.edit_characters(cursor.selectionStart(), cursor.selectionEnd(),
                                      self.replace_edit.text(), keep_pending=True)
        self.find_next()

    def replace_all(self) -> int:
        """Replace every match; one undo step. Returns how many were replaced."""
        needle = self.find_edit.text()
        if not needle:
            return 0
        self.view.flush()
        doc = self.view.document()
        matches = []
        cursor = doc.find(needle, 0, self._flags())
        while not cursor.isNull():
            matches.append((cursor.selectionStart(), cursor.selectionEnd()))
            cursor = doc.find(needle, cursor, self._flags())
        if not matches:
            self.status.setText("Not found")
            return 0
        with self.view.transcript.history.group(f"Replace all “{needle}”"):
            for start, end in reversed(matches):
                self.view.edit_characters(start, end, self.replace_edit.text(), keep_pending=True)
        self.status.setText(f"Replaced {len(matches)}")
        return len(matches)
