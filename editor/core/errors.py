"""Errors that are the user's to fix: the CLI prints them as one line, the GUI as a message box."""

from __future__ import annotations

import os


class UserError(Exception):
    """Something the person can fix (a bad file, a missing model); never a bug in Stet."""


class UsageError(UserError):
    """The command was given in a way that cannot work (options that do not fit together, such
    as ``-o FILE`` with many inputs): like argparse's errors, the CLI exits 2 for it, not 1."""


class FormatError(UserError):
    """A file could not be read as the format it claims to be.

    ``str(err)`` reads ``"notes.srt, line 12: the end time comes before the start time"``.
    """

    def __init__(self, path: str | os.PathLike[str] | None, message: str, *,
                 line: int | None = None, offset: int | None = None) -> None:
        self.path = os.fspath(path) if path is not None else None
        self.message = message
        self.line = line
        self.offset = offset
        super().__init__(self._describe())

    def _describe(self) -> str:
        where = [self.path] if self.path else []
        if self.line is not None:
            where.append(f"line {self.line}")
        elif self.offset is not None:
            where.append(f"byte {self.offset}")
        prefix = ", ".join(where)
        return f"{prefix}: {self.message}" if prefix else self.message
