"""Writing a recovery journal: the file an autosave keeps (read by ``editor.core.recovery.reading``).

An autosave appends the runs that changed and a state, so its cost follows the edit, not the
document (at 1,000,000 words a whole file is ~140 MB); the file is written whole again when it
holds more old runs than live ones. A kill mid-append leaves a torn last line, which is ignored."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from editor.core.atomic import atomic_write
from editor.core.recovery.reading import JOURNAL_HEAD
from editor.core.recovery.state import Encoded, dumps, head_json


def run_line(entry: Encoded) -> bytes:
    return f'{{"run":{entry[4]},"tokens":[{entry[2]}],"suggestions":[{entry[3]}]}}\n'.encode()


class Journal:
    """What this session has written to its recovery file (only ever written by its owner)."""

    def __init__(self) -> None:
        self.size: int | None = None  # bytes on disk; None: write the file whole next time
        self.on_disk: set[int] = set()  # run numbers the file holds

    def write(self, path: Path, head: dict[str, Any], entries: list[Encoded], *,
              state: bool = True, edits: int | None = None) -> None:
        """Append the runs the file lacks and (``state``) the state that uses them, or write the
        file whole: the first time, when it is not as we left it, or when old runs outweigh the
        live ones."""
        tail = f',"edits":{edits}' if edits is not None else ""  # (the edit journal's: read_recovery)
        line = f'{{"state":{head_json(head)},"runs":{dumps([e[4] for e in entries])}{tail}}}\n'.encode() \
            if state else b""
        new = [run_line(e) for e in entries if e[4] not in self.on_disk]
        added = sum(map(len, new)) + len(line)
        live = sum(len(e[2]) + len(e[3]) + 40 for e in entries) + len(line)
        if self.size is None or self.size + added > 2 * live + 2**20 or not self._append(
                path, new, line):
            self.size = None
            # (a file written whole the first time: its new runs are all of them, made once)
            lines = new if len(new) == len(entries) else [run_line(e) for e in entries]
            data = b"".join([JOURNAL_HEAD, *lines, line])
            atomic_write(path, data)
            self.size, self.on_disk = len(data), {e[4] for e in entries}
            return
        self.on_disk.update(e[4] for e in entries)

    def _append(self, path: Path, lines: list[bytes], state: bytes) -> bool:
        """Append the new runs and the state and flush them to disk; False when the file is not
        as we left it (then it is written whole)."""
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)
                         | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return False
        try:
            if os.fstat(fd).st_size != self.size:
                return False
            data = b"".join([*lines, state])
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        except OSError:
            return False  # a partial append is cut off by the whole write that follows
        finally:
            os.close(fd)
        assert self.size is not None
        self.size += len(data)
        return True

