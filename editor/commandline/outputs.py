"""The rule every command that writes a file follows before it writes (and before long work).

``check_output(out, inputs, force=...)``:

- never writes over one of its inputs: the same file by device and inode, so a symlink to the
  input, a hard link to it, ``./talk.txt`` for ``talk.txt`` or a symlinked folder are all caught,
  whatever ``--force`` says;
- never replaces another existing file (a dangling symlink counts: writing would create its target)
  unless ``force`` is true;
- refuses a folder as the output.

Each refusal is one ``UserError`` line naming the file; the subclasses let a caller (a batch run, a
dialog) tell them apart. The GUI asks the person instead of passing ``force``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from editor.core.errors import UserError

PathLike = str | os.PathLike[str]


class OutputIsInput(UserError):
    """The output names one of the command's inputs (possibly through a link)."""


class OutputExists(UserError):
    """The output exists and replacing it was not asked for."""


def same_file(a: PathLike, b: PathLike) -> bool:
    """True when ``a`` and ``b`` (following symlinks) are one file on disk: a hard link, a symlink
    or another spelling of the same path. A path that does not exist is nobody's file."""
    try:
        sa, sb = os.stat(a), os.stat(b)
    except (OSError, ValueError):
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def check_output(output: PathLike, inputs: Iterable[PathLike] = (), *, force: bool = False,
                 force_hint: str = "--force") -> None:
    """Raise a one-line ``UserError`` when writing ``output`` would destroy something.

    ``inputs``: every file the command reads (transcript, audio...); writing over one of them is
    refused even with ``force``. ``force_hint`` is how the person asks to replace (the option's name).
    """
    out = os.fspath(output)
    for given in inputs:
        if same_file(out, given):
            shown = os.fspath(given)
            also = "" if os.path.abspath(shown) == os.path.abspath(out) else f" ({shown})"
            raise OutputIsInput(f"{out}: this is the input file{also}; Stet never writes over its "
                                "input, so choose another name for the output")
    if os.path.isdir(out):
        raise UserError(f"{out}: this is a folder; give a file name to write")
    if os.path.lexists(out) and not force:
        raise OutputExists(f"{out}: the file already exists; add {force_hint} to replace it")


__all__ = ["OutputExists", "OutputIsInput", "check_output", "same_file"]
