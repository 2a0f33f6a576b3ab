"""The edit journal: every change of the open document, appended to a file as it is made, so that
a kill loses no typing (read back by ``editor.core.recovery.reading.replay_edits``).

An autosave writes the whole document (a state) at most every few seconds; between two, each
change is one small line, written with a plain ``os.write`` on the thread that made it (the page
cache keeps it whatever happens to the process; no fsync: a power cut falls back to the last
autosave, which is flushed). Every change takes the next number, and the state says the number
of the last change it holds: recovery takes the last state and applies the lines after it, in
order, stopping at the first number missing. A change that is not written (the document had
nothing unsaved yet, or the change is too big to write at once: an accept-all, a new
transcript's details) leaves such a gap, and ``on_gap`` asks for an autosave soon, which closes
it. The lines of changes older than the last state on disk are dropped when the file grows.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from editor.core.document.transcript import Transcript
from editor.core.recovery.reading import EDITS_HEAD
from editor.core.recovery.state import dumps

NEW = ".new"  # the journal being written again, before it is renamed over the old one

#: A change of more tokens or suggestions than this is not journaled (its encoding would hold
#: the window: an accept-all, undoing one, a rename of a speaker everywhere); the autosave after
#: it takes it.
MAX_ITEMS = 2_000
#: Past this size the file is written again with only the lines the disk's state lacks.
ROTATE_BYTES = 256 << 10


class EditJournal:
    """One window's edit journal at ``path``; it follows one document at a time (``follow``).

    ``recording``: a callable saying whether changes are worth writing now (the window has
    unsaved work); ``on_gap``: called when a change was not written. Use on the document's
    thread only."""

    def __init__(self, path: Path, *, recording: Callable[[], bool] = lambda: True,
                 on_gap: Callable[[], None] = lambda: None) -> None:
        self.path = path
        self.seq = 0  # the number of the latest change
        self.recording = recording
        self.on_gap = on_gap
        self._fd: int | None = None
        self._size = 0
        self._lines: list[tuple[int, bytes]] = []  # written since the last state on disk
        self._doc: Transcript | None = None
        self.spent_s = 0.0  # time spent journaling, in all (for benchmarks)
        self._links: list[tuple[Any, Callable[..., None]]] = []  # (signal, relay) to the followed document
        self.failed: str | None = None  # why the file cannot be written, once it could not

    # -- following a document ----------------------------------------------------------------------
    def follow(self, doc: Transcript | None) -> None:
        """Journal ``doc``'s changes from now on (None: none); lines of another document go."""
        if doc is self._doc:
            return
        self._unfollow()
        self._doc = doc
        self.reset()
        if doc is not None:
            # plain functions, not bound methods: psygnal keeps a bound method's object by a weak
            # reference in a cycle that outlives disconnect, and the window's objects are kept out of
            # the collector's full passes, so every document followed would stay (editor/gui/base/links.py)
            for signal, slot in ((doc.tokens_changed, self._tokens_changed),
                                 (doc.suggestions_changed, self._suggestions_changed),
                                 (doc.paragraphs_changed, self._paragraphs_changed),
                                 (doc.metadata_changed, self._metadata_changed)):
                relay = _relay(slot)
                signal.connect(relay)
                self._links.append((signal, relay))

    def _unfollow(self) -> None:
        doc, self._doc = self._doc, None
        if doc is None:
            return
        links, self._links = self._links, []
        for signal, relay in links:
            with contextlib.suppress(ValueError, RuntimeError):
                signal.disconnect(relay)

    # -- the changes -----------------------------------------------------------------------------
    def _tokens_changed(self, start: int, _removed: int, inserted: int) -> None:
        from editor.core.formats.stet import token_record

        doc = self._doc
        if self._take(inserted) and doc is not None:
            # by index: ``doc.tokens`` would build a tuple of them all (10 ms at 1,000,000 words)
            tokens = [doc[i] for i in range(start, start + inserted)]
            self._write(f',"splice":[{start},{_removed},{dumps([token_record(t) for t in tokens])}]}}')

    def _suggestions_changed(self, token_ids: tuple[int, ...]) -> None:
        from editor.core.formats.stet import suggestion_record

        doc = self._doc
        if self._take(len(token_ids)) and doc is not None:
            marks = [[i, [suggestion_record(s) for s in doc.suggestion_view(i).values()]]
                     for i in token_ids]
            self._write(f',"suggestions":{dumps(marks)}}}')

    def _paragraphs_changed(self) -> None:
        doc = self._doc
        if doc is not None and self._take(len(doc.paragraph_ids)):
            self._write(f',"paragraphs":{dumps(sorted(doc.paragraph_ids))}}}')

    def _metadata_changed(self) -> None:
        # a transcript's details change rarely (a recording's length, the project's lexicon),
        # and its subtitle cues would be encoded again: the autosave it asks for takes them
        self._take(MAX_ITEMS + 1)

    def _take(self, items: int) -> bool:
        """Number the change; False (a gap, and an autosave asked for) when it is not written."""
        self.seq += 1
        if self.failed is not None:  # the file cannot be written: the autosaves' timers go on
            return False             # (not one asked for at every key), until a save resets it
        if items <= MAX_ITEMS and self.recording():
            return True
        self.on_gap()
        return False

    def _write(self, tail: str) -> None:
        began = time.perf_counter()
        line = f'{{"edit":{self.seq}{tail}\n'.encode()
        try:
            if self._fd is None:
                self._open([])
            assert self._fd is not None
            view = memoryview(line)
            while view:
                view = view[os.write(self._fd, view):]
        except OSError as err:  # a full disk: the autosaves go on, and say so if they fail too
            self.failed = str(err)
            self.on_gap()
            return
        finally:
            self.spent_s += time.perf_counter() - began
        self._size += len(line)
        self._lines.append((self.seq, line))

    # -- the file ----------------------------------------------------------------------------------
    def landed(self, seq: int) -> None:
        """A state holding the changes up to ``seq`` is on disk: their lines are not needed; once
        the file is large, it is written again with the others alone."""
        self._lines = [(n, line) for n, line in self._lines if n > seq]
        if self._size > ROTATE_BYTES:
            try:
                self._open([line for _n, line in self._lines])
            except OSError as err:
                self.failed = str(err)

    def reset(self) -> None:
        """Nothing is left to recover (the work was saved, given up or replaced): the file is
        emptied, and a later autosave is the base of the lines that follow."""
        self._lines = []
        self.failed = None
        if self._fd is not None or self.path.exists():
            try:
                self._open([])
            except OSError as err:
                self.failed = str(err)

    def _open(self, lines: list[bytes]) -> None:
        """Start the file afresh with ``lines`` (written whole, then put in place by a rename, so
        a kill meanwhile leaves the old one) and append to it from now on."""
        data = b"".join([EDITS_HEAD, *lines])
        temporary = self.path.with_name(self.path.name + NEW)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND
                     | getattr(os, "O_CLOEXEC", 0), 0o600)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.replace(temporary, self.path)
        except OSError:
            os.close(fd)
            raise
        if self._fd is not None:
            os.close(self._fd)
        self._fd, self._size = fd, len(data)

    def close(self, *, remove: bool) -> None:
        """Stop journaling; ``remove``: the file goes too (nothing is left to recover)."""
        self._unfollow()
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        if remove:
            self.path.unlink(missing_ok=True)


def _relay(slot: Callable[..., None]) -> Callable[..., None]:
    """A plain function calling ``slot`` (see ``EditJournal.follow``)."""
    def relay(*args: Any) -> None:
        slot(*args)

    return relay
