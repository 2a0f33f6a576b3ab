"""Before a dialog writes over a file: ask, name the risk when it is the open document's own
source, and refuse a read-only file with a message (the write itself is atomic_write's)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from PySide6.QtWidgets import QMessageBox, QWidget


def read_only(path: Path) -> bool:
    """The file exists and is not to be written: no write permission bit (root included, who
    could write anyway), or no access for this user."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(path, os.W_OK)


def same_file(a: Path | None, b: Path | None) -> bool:
    if a is None or b is None:
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a.resolve() == b.resolve()


def may_replace(parent: QWidget, target: Path, *, action: str, source: Path | None = None,
                confirmed: bool = False) -> bool:
    """True when ``target`` may be written by ``action`` ("save", "export"). A new file: yes. A
    read-only one: no, with a message. The transcript's own source file: only when the person
    agrees to lose the original. Any other existing file: asked, unless a file dialog already
    asked about this very path (``confirmed``)."""
    if not target.exists() and not target.is_symlink():
        return True
    if target.is_dir():
        QMessageBox.warning(parent, f"Cannot {action}", f"{target} is a folder; give a file name.")
        return False
    if read_only(target):
        QMessageBox.warning(parent, f"Cannot {action}",
                            f"{target.name} is read-only, so Stet leaves it as it is. Choose "
                            "another name, or make the file writable first.")
        return False
    if same_file(target, source):
        answer = QMessageBox.warning(
            parent, "Replace the original?",
            f"{target.name} is the file this transcript was opened from. Writing over it replaces "
            "the original for good: its words, punctuation and timings as they came in cannot be "
            "brought back (Undo does not reach files).\n\nReplace the original?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Yes
    if confirmed:
        return True
    answer = QMessageBox.question(
        parent, "Replace the file?",
        f"{target.name} already exists in {target.parent}. Replace it?",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Cancel)
    return answer == QMessageBox.StandardButton.Yes
