"""A spin box of whole percentages, shared by the dialogs that ask for a threshold."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QSpinBox,
)


if TYPE_CHECKING:
    pass


def percent_box(value: float, minimum: int = 0) -> QSpinBox:
    """A threshold typed in percent, as the list and the legend show it ("80" means 80 %)."""
    box = QSpinBox()
    box.setRange(minimum, 100)
    box.setSuffix(" %")
    box.setValue(round(value * 100))
    return box
