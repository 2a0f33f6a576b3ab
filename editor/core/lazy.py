"""Names a package exports but imports only when first used, so that importing the package (as
`stet --help` and the window do) loads none of its heavy modules.

    _EXPORTS = {"Player": "player", "word_at": "follow"}     # name -> submodule
    __all__ = sorted(_EXPORTS)
    __getattr__ = lazy_exports(__name__, _EXPORTS)
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """A module-level ``__getattr__`` for `package`: a name in `exports` is imported from the
    submodule it maps to on first use and kept in the package's namespace, so later uses cost
    nothing; any other name is an AttributeError, as for any module."""
    namespace = vars(sys.modules[package])

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        namespace[name] = value
        return value

    return __getattr__
