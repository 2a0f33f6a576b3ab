"""Undo and redo: every change to a document is a command that knows how to do and undo itself."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from psygnal import Signal


class Command(Protocol):
    """One reversible change. ``do`` may run again after ``undo`` (redo)."""

    def do(self) -> None: ...

    def undo(self) -> None: ...


class Swap:
    """A change that sets a new value and can set the old one back."""

    def __init__(self, apply: Callable[[Any], None], old: Any, new: Any) -> None:
        self.apply, self.old, self.new = apply, old, new

    def do(self) -> None:
        self.apply(self.new)

    def undo(self) -> None:
        self.apply(self.old)


class CommandGroup:
    """Several commands that undo and redo as one step."""

    def __init__(self, text: str, commands: list[Command] | None = None) -> None:
        self.text = text
        self.commands: list[Command] = commands or []

    def do(self) -> None:
        for command in self.commands:
            command.do()

    def undo(self) -> None:
        for command in reversed(self.commands):
            command.undo()


_NEVER = CommandGroup("")  # a "saved state" no stack can return to


class History:
    """The undo and redo stacks of one document.

    ``push`` runs a command and records it. Inside ``with history.group("Accept all"):`` every pushed
    command joins one step. Consecutive pushes with the same ``merge_id`` also join one step, which is
    how a restoration pass that arrives chunk by chunk becomes a single undo step without holding a
    group open across event-loop turns.
    """

    changed = Signal()

    def __init__(self, limit: int | None = None) -> None:
        self._undo: list[CommandGroup] = []
        self._redo: list[CommandGroup] = []
        self._open: list[CommandGroup] = []
        self._last_merge_id: object | None = None
        self._clean: CommandGroup | None = None  # top of the undo stack when last saved
        self._also_clean: list[CommandGroup | None] = []  # states that need no saving either
        self.limit = limit
        self.busy = False  # a step is being undone or redone piecewise (see ``stepwise``)

    # -- recording -------------------------------------------------------------------------------
    def push(self, command: Command, text: str = "", *, merge_id: object | None = None) -> None:
        command.do()
        if self._open:
            self._open[-1].commands.append(command)
            return
        self._record(CommandGroup(text, [command]), merge_id)

    @contextmanager
    def group(self, text: str, *, merge_id: object | None = None) -> Iterator[CommandGroup]:
        """Everything pushed inside is one undo step; on an exception it is all undone.

        A group with the same ``merge_id`` as the step before joins that step."""
        group = CommandGroup(text)
        self._open.append(group)
        try:
            yield group
        except BaseException:
            self._open.pop()
            group.undo()
            raise
        self._open.pop()
        if not group.commands:
            return
        if self._open:
            self._open[-1].commands.append(group)
            return
        self._record(group, merge_id)

    def _record(self, group: CommandGroup, merge_id: object | None) -> None:
        if merge_id is not None and merge_id == self._last_merge_id and self._undo:
            if self._undo[-1] is self._clean:
                self._clean = _NEVER
            self._also_clean = [g for g in self._also_clean if g is not self._undo[-1]]
            self._undo[-1].commands.append(group)
        else:
            self._undo.append(group)
            if self.limit is not None and len(self._undo) > self.limit:
                if self._clean is None:
                    self._clean = _NEVER
                del self._undo[0]
        self._last_merge_id = merge_id
        self._redo.clear()
        self.changed.emit()

    # -- stepping --------------------------------------------------------------------------------
    @property
    def can_undo(self) -> bool:
        return bool(self._undo) and not self._open and not self.busy

    @property
    def can_redo(self) -> bool:
        return bool(self._redo) and not self._open and not self.busy

    @property
    def undo_text(self) -> str:
        return self._undo[-1].text if self._undo else ""

    @property
    def redo_text(self) -> str:
        return self._redo[-1].text if self._redo else ""

    def undo(self) -> bool:
        """Undo one step; False when there was nothing to undo."""
        if not self.can_undo:
            return False
        group = self._undo.pop()
        group.undo()
        self._redo.append(group)
        self._last_merge_id = None
        self.changed.emit()
        return True

    def redo(self) -> bool:
        if not self.can_redo:
            return False
        group = self._redo.pop()
        group.do()
        self._undo.append(group)
        self._last_merge_id = None
        self.changed.emit()
        return True

    def size_of_step(self, undo: bool = True) -> int:
        """How many changes (tokens, suggestions...) the next undo (or redo) makes, roughly: each
        command counts at least once (each tells the views what changed)."""
        stack = self._undo if undo else self._redo
        if not stack:
            return 0
        return sum(max(1, len(getattr(c, "new", None) or ())) if isinstance(getattr(c, "new", None), (list, tuple))
                   else 1 for c in _leaves(stack[-1]))

    def stepwise(self, undo: bool = True) -> Iterator[int] | None:
        """Undo (or redo) the last step one command at a time, for a caller that spreads a big
        step (accept all on 100,000 words) over several turns of an event loop: each ``next()``
        runs one command and yields how many are left. None when there is nothing to do. Until
        it is exhausted ``busy`` is True and nothing can be undone or redone; run it to the end."""
        if not (self.can_undo if undo else self.can_redo):
            return None
        source, target = (self._undo, self._redo) if undo else (self._redo, self._undo)
        group = source.pop()
        leaves = list(_leaves(group))
        if undo:
            leaves.reverse()
        self.busy = True

        def run() -> Iterator[int]:
            try:
                for left, command in enumerate(leaves, 1):
                    command.undo() if undo else command.do()
                    yield len(leaves) - left
            finally:
                target.append(group)
                self.busy = False
                self._last_merge_id = None
                self.changed.emit()

        return run()

    def take_apart(self) -> Iterator[None]:
        """Empty the history a slice at a time, yielding between slices.

        For a caller that frees a replaced document without holding its thread: 100,000 words of
        undo steps freed at once hold it about a second. The history is empty when this ends.
        """
        for stack in (self._undo, self._redo):
            while stack:
                group = stack.pop()
                for command in leaves(group):
                    for name in ("new", "old"):
                        changes = getattr(command, name, None)
                        while isinstance(changes, list) and changes:
                            del changes[-1_000:]
                            yield
                del group
                yield
        self.clear()

    def clear(self) -> None:
        """Forget all steps; the document counts as saved (as after opening a file)."""
        self._undo.clear()
        self._redo.clear()
        self._last_merge_id = None
        self._clean = None
        self._also_clean = []
        self.changed.emit()

    # -- saved state -----------------------------------------------------------------------------
    def mark_clean(self) -> None:
        """The document was just saved: ``is_clean`` holds until a change, and again after undo
        or redo leads back to this state."""
        self._clean = self._undo[-1] if self._undo else None
        self._also_clean = []
        self._last_merge_id = None  # a later chunk must not merge into the saved step
        self.changed.emit()

    def checkpoint(self) -> tuple[CommandGroup | None, int]:
        """The current state, to be marked clean later (``mark_clean_at``) by a save that writes
        it while the person goes on changing the document."""
        top = self._undo[-1] if self._undo else None
        return top, len(top.commands) if top is not None else 0

    def mark_clean_at(self, point: tuple[CommandGroup | None, int]) -> None:
        """The state of ``point`` (a ``checkpoint``) was just saved: ``is_clean`` holds whenever
        undo or redo leads back to it. A step that grew since (a later change merged into it) is
        no longer that state: then no state is clean until the next save."""
        group, size = point
        self._clean = _NEVER if group is not None and len(group.commands) != size else group
        self._also_clean = []
        self.changed.emit()

    def mark_also_clean(self) -> None:
        """The current state needs no saving either, beside the saved one: a change that is not
        the person's work (a restoration pass on a saved document). Undo or redo back to either
        state is clean. A later chunk may still merge into this step (it is then marked again by
        the caller); no ``changed`` is emitted, as the caller is answering one."""
        top = self._undo[-1] if self._undo else None
        if not any(g is top for g in self._also_clean):
            self._also_clean.append(top)

    @property
    def is_clean(self) -> bool:
        top = self._undo[-1] if self._undo else None
        return top is self._clean or any(g is top for g in self._also_clean)

    def __len__(self) -> int:
        return len(self._undo)


def leaves(command: Command) -> Iterator[Command]:
    """The commands of a (nested) group in the order they were done."""
    if isinstance(command, CommandGroup):
        for inner in command.commands:
            yield from leaves(inner)
    else:
        yield command


_leaves = leaves
