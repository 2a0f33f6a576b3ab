"""Punctuation and case restoration: a BiLSTM-CRF over overlapping chunks.

Every name here is imported lazily, so `import editor.restore` (and the window's imports from it)
loads no torch; a model is loaded by `Restorer.load()`, once a process by `restorer_for()`. The
restoration pass that the window, `stet restore` and a batch share is editor.restore.pipeline's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from editor.core.lazy import lazy_exports

_EXPORTS = {"Restorer": "inference", "Cancelled": "prediction", "WordPrediction": "prediction",
            "make_suggestions": "suggest", "authored": "suggest", "removes_authors": "suggest",
            **{name: "pipeline" for name in (
                "WORDS_AROUND", "NotTheLanguage", "NothingToRestore", "PassApplier", "PassOutcome", "PassSettings",
                "PassSource", "RestoredRegion", "keeps_author", "restore_transcript", "restorer_for", "run_pass")}}

__all__ = sorted(_EXPORTS)

__getattr__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from editor.restore.inference import Restorer
    from editor.restore.prediction import Cancelled, WordPrediction
    from editor.restore.pipeline import (WORDS_AROUND, NothingToRestore, NotTheLanguage, PassApplier, PassOutcome,
                                         PassSettings, PassSource, RestoredRegion, keeps_author, restore_transcript,
                                         restorer_for, run_pass)
    from editor.restore.suggest import authored, make_suggestions, removes_authors
