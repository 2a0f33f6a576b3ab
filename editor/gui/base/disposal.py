"""Taking a replaced transcript apart a slice per turn of the event loop.

Freeing 100,000 words with 200,000 suggestions and their undo steps at once held the window about
1 s; and the undo steps refer back to the document, so without this only a full garbage collection
(120-140 ms at 100,000 words, felt as a freeze) frees it. The document's own containers are
emptied by ``Transcript.take_apart``, a slice per turn.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from PySide6.QtCore import QObject, QTimer

from editor.core.document.transcript import Transcript


_DONE = object()


class Disposer(QObject):
    """Empties replaced documents in the background of the event loop, oldest first."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._queue: list[Iterator[None]] = []
        # a timer, not a posted call: other timers get their turn between two slices (posted
        # calls all run before Qt looks at its timers)
        self._next_slice = QTimer(self)
        self._next_slice.setSingleShot(True)
        self._next_slice.setInterval(0)
        self._next_slice.timeout.connect(self._slice)

    @property
    def busy(self) -> bool:
        return bool(self._queue)

    def dispose(self, old: Transcript) -> None:
        self._queue.append(old.take_apart())
        if len(self._queue) == 1:
            self._next_slice.start()

    def _slice(self) -> None:
        end = time.perf_counter() + 0.005
        while self._queue and time.perf_counter() < end:
            if next(self._queue[0], _DONE) is _DONE:  # (a slice yields None)
                self._queue.pop(0)
        if self._queue:
            self._next_slice.start()
