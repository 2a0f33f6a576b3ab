"""Punctuation and case restoration: a BiLSTM-CRF over overlapping chunks.

`Restorer`, `WordPrediction` and `Cancelled` are imported lazily, so `import editor.restore`
does not load torch; the model is loaded by `Restorer.load()`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__all__ = ["Cancelled", "Restorer", "WordPrediction", "make_suggestions"]

if TYPE_CHECKING:
    from editor.restore.inference import Restorer
    from editor.restore.prediction import Cancelled, WordPrediction
    from editor.restore.suggest import make_suggestions


def __getattr__(name: str):
    if name == "Restorer":
        from editor.restore.inference import Restorer

        return Restorer
    if name in ("Cancelled", "WordPrediction"):
        from editor.restore import prediction

        return getattr(prediction, name)
    if name == "make_suggestions":
        from editor.restore.suggest import make_suggestions

        return make_suggestions
    raise AttributeError(f"module 'editor.restore' has no attribute {name!r}")
