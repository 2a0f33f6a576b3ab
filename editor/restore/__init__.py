"""Punctuation and case restoration: a BiLSTM-CRF over overlapping chunks.

`Restorer`, `WordPrediction` and `Cancelled` are imported lazily, so `import editor.restore`
does not load torch; the model is loaded by `Restorer.load()`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from editor.core.lazy import lazy_exports

_EXPORTS = {"Restorer": "inference", "Cancelled": "prediction", "WordPrediction": "prediction",
            "make_suggestions": "suggest"}

__all__ = sorted(_EXPORTS)

__getattr__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from editor.restore.inference import Restorer
    from editor.restore.prediction import Cancelled, WordPrediction
    from editor.restore.suggest import make_suggestions
