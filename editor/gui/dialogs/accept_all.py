"""The Accept all dialog, and its count of what a threshold would accept, in slices."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLayout,
    QWidget,
)

from editor.core.settings import Settings

if TYPE_CHECKING:
    pass
from editor.gui.dialogs.percent import percent_box
from editor.gui.text_view.accessibility import say


#: A count a threshold dialog shows is summed over the text for this long per turn of the event
#: loop: at 100,000 words the whole count took ~600 ms, held at every change of the threshold.
_COUNT_SECONDS = 0.005


def _added(total: object, part: object) -> object:
    """A count's ``total`` so far with ``part`` added: numbers, or tuples of them summed by place."""
    if total is None:
        return part
    if isinstance(total, tuple) and isinstance(part, tuple):
        return tuple(a + b for a, b in zip(total, part))
    if isinstance(total, int | float) and isinstance(part, int | float):
        return total + part
    raise TypeError(f"cannot add a count of {type(part).__name__} to one of {type(total).__name__}")


class SlicedCount(QObject):
    """A count for a threshold that ``count(threshold)`` gives at once (a number, or a tuple of
    numbers) or in parts, as an iterator of them summed a slice per turn of the event loop;
    ``show(total)`` when it is known, ``show(None)`` while it is being counted. Counting again
    drops the count under way."""

    def __init__(self, parent: QObject, count: Callable[[float], object],
                 show: Callable[[object], None]) -> None:
        super().__init__(parent)
        self._count, self._show = count, show
        self._parts: Iterator[object] | None = None
        self._total: object = None
        self._generation = 0
        self._threshold: float | None = None  # what the count under way or shown is for

    @property
    def counting(self) -> bool:
        return self._parts is not None

    def start(self, threshold: float) -> None:
        if threshold == self._threshold:
            # The same threshold again (Enter in a spin box says its value once more): the count
            # under way goes on, a count done is shown again. Counting afresh would take back
            # the button Enter was about to press, and Enter on a long text would do nothing.
            if self._parts is None:
                self._show(self._total)
            return
        self._threshold = threshold
        self._generation += 1
        found = self._count(threshold)
        if not isinstance(found, Iterator):
            self._parts = None
            self._total = found
            self._show(found)
            return
        self._parts, self._total = found, None
        self._step(self._generation)  # a short text is counted at once
        if self._parts is not None:
            self._show(None)

    def _step(self, generation: int) -> None:
        if generation != self._generation or self._parts is None:
            return  # counted again since, or done
        end = time.perf_counter() + _COUNT_SECONDS
        while True:  # a part at least per turn
            part = next(self._parts, None)
            if part is None:
                self._parts = None
                self._show(self._total)
                return
            self._total = _added(self._total, part)
            if time.perf_counter() >= end:
                break
        QTimer.singleShot(0, self, lambda: self._step(generation))


class AcceptAllDialog(QDialog):
    """Accept all at or above a threshold typed in percent; shows before Enter how many that is,
    and how many of them are of low confidence, so a typo cannot accept everything unseen."""

    def __init__(self, settings: Settings, count: Callable[[float], object], pending: int,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Accept all at or above")
        self.settings = settings
        # threshold (0..1) -> (decisions accepted, their suggestions, of those below the low
        # band), at once or in parts
        self._counter = SlicedCount(self, count, self._show_count)
        #: the pending decisions (a sentence end and its capital are one), as the list counts them
        self.pending = pending
        form = QFormLayout(self)
        # the dialog grows with its summary: the longer count and the low-confidence warning,
        # which come as the threshold is typed, were cut to the height of the first
        form.setSizeConstraint(QLayout.SizeConstraint.SetMinimumSize)
        self.box = percent_box(settings.review.high, minimum=1)
        self.box.setToolTip("Confidence in percent, as the suggestion list shows it")
        form.addRow("Accept suggestions with confidence at or above:", self.box)
        self.summary = QLabel()
        self.summary.setObjectName("accept-all-summary")
        self.summary.setWordWrap(True)
        form.addRow(self.summary)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self.box.valueChanged.connect(self._update)
        self._update()

    @property
    def threshold(self) -> float:
        return self.box.value() / 100

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        # The box takes the focus as the dialog opens, its text not selected (Qt selects it only
        # for Tab): typing "80" then read "090 %". Selected, what is typed replaces it.
        self.box.setFocus()
        self.box.selectAll()
        self._fit_summary()

    def _fit_summary(self) -> None:
        """The summary as tall as its wrapped lines need at its width: a form layout keeps a
        wrapped label at the height of its first text, and the longer count and the warning
        about low confidence that come as the threshold is typed were cut off."""
        width = self.summary.width()
        if self.isVisible() and width > 0:
            self.summary.setMinimumHeight(self.summary.heightForWidth(width))

    def _update(self) -> None:
        self._counter.start(self.threshold)

    def _show_count(self, counted: object) -> None:
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        if counted is None:  # still counting: nothing to accept yet, Enter included
            ok.setText("Counting…")
            ok.setEnabled(False)
            ok.setDefault(False)
            ok.setAutoDefault(False)
            self.summary.setText(f"Counting how many of the {self.pending:,} pending suggestions "
                                 "are at or above it…")
            return
        accepted, suggestions, low = cast(tuple[int, int, int], counted)
        ok.setText(f"Accept {accepted:,}")
        ok.setEnabled(accepted > 0)
        # decisions against decisions, as the list's rows count them ("10 of 17 pending
        # suggestions" accepted 14 of 17 marks and capitals where the list showed 12 rows)
        pairs = suggestions - accepted
        text = (f"{accepted:,} of {self.pending:,} pending suggestions will be accepted ("
                + ("" if not pairs else "a sentence end with the capital after it; " if accepted == 1
                   else f"{pairs:,} of them a sentence end with the capital after it; ")
                + "one undo step).")
        spoken = text
        if low:
            spoken += (f" {low:,} of them are of low confidence (under {self.settings.review.low:.0%}); "
                       "look at those one by one instead?")
            text += (f" <b>{low:,} of them are of low confidence</b> (under "
                     f"{self.settings.review.low:.0%}); look at those one by one instead?")
        self.summary.setText(text)
        self._fit_summary()
        # the count as the threshold is typed, said (the field's description: Orca speaks its change)
        say(self.box, spoken)
        # Enter in the box accepts only when no low-confidence suggestion is among them; with
        # some, the button has to be clicked (a slip of the finger must not accept them all).
        ok.setDefault(not low)
        ok.setAutoDefault(not low)
