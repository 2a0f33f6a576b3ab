"""Passes: running a model over a document's words and turning what it says into suggestions.

`pipeline.run_pass` is the one restoration pass that the window, `stet restore` and a batch all
run; in the window it runs in a worker process (`pass_process`). The `Restorer` (`inference`) runs
the network over overlapping windows (`chunks`, `windows`) in the order `schedule` gives and says
what it predicts as plain values (`prediction`); the decision rules (`decision`) and the
suggestions made from a prediction (`suggest`) need no torch.

Names load on first use, so importing this package loads no torch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from editor.core.lazy import lazy_exports

_EXPORTS = {
    "Restorer": "inference",
    "PassProcess": "pass_process", "WorkerStopped": "pass_process", "WorkerUnavailable": "pass_process",
    "NotTheLanguage": "pipeline", "NothingToRestore": "pipeline", "PassApplier": "pipeline",
    "PassOutcome": "pipeline", "PassSettings": "pipeline", "PassSource": "pipeline",
    "RestoredRegion": "pipeline", "WORDS_AROUND": "pipeline", "keeps_author": "pipeline",
    "restore_transcript": "pipeline", "restorer_for": "pipeline", "run_pass": "pipeline",
    "Cancelled": "prediction", "WordPrediction": "prediction",
    "authored": "suggest", "make_suggestions": "suggest", "removes_authors": "suggest",
}

__all__ = sorted(_EXPORTS)

__getattr__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from editor.restore.passes.inference import Restorer
    from editor.restore.passes.pass_process import PassProcess, WorkerStopped, WorkerUnavailable
    from editor.restore.passes.pipeline import (NotTheLanguage, NothingToRestore, PassApplier, PassOutcome,
                                                PassSettings, PassSource, RestoredRegion, WORDS_AROUND,
                                                keeps_author, restore_transcript, restorer_for, run_pass)
    from editor.restore.passes.prediction import Cancelled, WordPrediction
    from editor.restore.passes.suggest import authored, make_suggestions, removes_authors
