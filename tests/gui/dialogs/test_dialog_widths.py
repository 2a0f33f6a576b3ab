"""Dialogs fit a 1,024-px-wide screen with all their text in sight (issue 49's pictures: Settings
was 1,131 px wide, made so by a shipped model's line in its model list; Export was 1,099 px, made so
by its one-line note on pending suggestions)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QComboBox, QDialog, QLabel

from editor.core.settings import Settings
from editor.gui.dialogs.export import ExportDialog
from editor.gui.dialogs.settings import SettingsDialog

SCREEN = 1024  # the narrowest screen a laptop of today has


def _shown(qtbot, dialog: QDialog) -> QDialog:
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def _all_text_in_sight(dialog: QDialog) -> None:
    for label in dialog.findChildren(QLabel):
        if not label.isVisible() or not label.text():
            continue
        if label.wordWrap():  # wrapped: tall enough for its lines at the width it was given
            assert label.height() >= label.heightForWidth(label.width()), label.text()
        else:
            assert label.width() >= label.sizeHint().width(), label.text()


def test_settings_fits_a_1024_px_screen_with_every_model_readable(qtbot):
    dialog = _shown(qtbot, SettingsDialog(Settings()))
    assert dialog.sizeHint().width() <= SCREEN - 40
    assert dialog.width() <= SCREEN - 40
    _all_text_in_sight(dialog)
    choice = dialog.restore_choice
    assert choice.count() >= 3  # the default, the shipped models, a folder of one's own
    view = choice.view()
    metrics = view.fontMetrics()
    for i in range(choice.count()):
        text = choice.itemText(i)
        # the closed box may show the start of a long line: its whole text is the tooltip, and
        # the list that opens is wide enough for it
        assert choice.itemData(i, 3) == text  # Qt.ItemDataRole.ToolTipRole
        assert view.minimumWidth() >= metrics.horizontalAdvance(text)
    # the chosen item's own text fits the closed box (the default's name is short)
    default = choice.itemText(0)
    assert choice.width() > choice.fontMetrics().horizontalAdvance(default)
    for box in dialog.findChildren(QComboBox):
        if box is not choice:  # every other choice shows its whole current text
            assert box.width() >= box.sizeHint().width(), box.currentText()


def test_export_with_pending_suggestions_fits_a_1024_px_screen(qtbot):
    dialog = _shown(qtbot, ExportDialog(Settings(), Path("repair-cafe.srt"), 1234))
    assert dialog.width() <= SCREEN - 40
    _all_text_in_sight(dialog)
    note = dialog.findChild(QLabel, "export-pending-note")
    assert note is not None and "1,234 suggestions are still pending" in note.text()
    assert note.wordWrap()
