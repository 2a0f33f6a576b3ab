"""A guard against a PySide6 6.12 bug on Python 3.11: every call of a Qt method that returns
nothing (``label.setText``, ``app.processEvents``) drops one reference to ``None`` that it never
took, so a long session ends in "Fatal Python error: none_dealloc". Python 3.12 made ``None``,
``True`` and ``False`` immortal; here they are given so many references that they effectively are.
"""

from __future__ import annotations

import ctypes
import sys

_BALLAST = 1 << 40  # a thousand billion calls before the count could come down to zero
_done = False


def make_singletons_immortal() -> None:
    global _done
    if _done or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return
    for obj in (None, True, False):
        ctypes.c_ssize_t.from_address(id(obj)).value += _BALLAST  # ob_refcnt is the first field
    _done = True
