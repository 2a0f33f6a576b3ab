"""Running a modal dialog so that it is deleted once, by Qt.

PySide6's ``QDialog.exec()`` hands the dialog's ownership to Python although its parent (the
window) still owns it in C++; a dialog kept alive by its own signal connections (a cycle) until
the interpreter's exit was then deleted twice, once with the window and once by PySide's
clean-up: "QObject: shared QObject was deleted directly" and a segmentation fault after closing
the window (tests/gui/window/test_close.py). ``run_modal`` deletes the dialog through Qt instead.
"""

from __future__ import annotations

from PySide6.QtWidgets import QDialog


def run_modal(dialog: QDialog) -> int:
    """``dialog.exec()``, then the dialog is deleted by Qt (``deleteLater``). Its values may be
    read until the event loop that called this turns again: a deletion asked for here is not
    carried out in a nested loop (a message box asked afterwards)."""
    try:
        return dialog.exec()
    finally:
        dialog.deleteLater()
