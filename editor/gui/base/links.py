"""Connecting the window's lasting objects to one document's signals, and letting go of them.

A document's events are psygnal signals. Connected to a bound method, psygnal keeps a weak
reference to its object with a callback that refers back to the connection: a reference cycle,
which outlives ``disconnect`` (the weak reference stays on the lasting object until the cycle is
collected). The window keeps what exists out of the collector's full passes (``gc.freeze``), so
such a cycle, frozen while its document was open, was never collected: every document opened left
its signals and their connections behind (about 100 objects, the replaced document's signal
objects among them), and the view's and panel's lists of weak references grew by one per
connection. A ``DocumentLinks`` connects plain functions instead (psygnal holds a function
strongly and makes no weak reference), and forgets them all at once when the document goes;
reference counting then frees what is left.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from psygnal import SignalInstance


class DocumentLinks:
    """The connections one receiver made to the current document's signals."""

    def __init__(self) -> None:
        self._made: list[tuple[SignalInstance, Callable[..., Any]]] = []

    def connect(self, signal: SignalInstance, slot: Callable[..., Any]) -> None:
        """Call ``slot`` with the signal's arguments on each emission, until :meth:`clear`. The
        document holds ``slot`` (and its object) strongly meanwhile."""
        def relay(*args: Any) -> None:
            slot(*args)

        signal.connect(relay)
        self._made.append((signal, relay))

    def clear(self) -> None:
        """Undo every connection made (the document is replaced)."""
        made, self._made = self._made, []
        for signal, relay in made:
            signal.disconnect(relay)

    def __len__(self) -> int:
        return len(self._made)
