"""Punctuation and case restoration: a BiLSTM-CRF over overlapping chunks.

Every name here is imported lazily, so `import editor.restore` (and the window's imports from it)
loads no torch; a model is loaded by `Restorer.load()`, once a process by `restorer_for()`. The
restoration pass that the window, `stet restore` and a batch share is editor.restore.pipeline's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from editor.core.lazy import lazy_exports

_EXPORTS = {
    "Restorer": "inference",
    "CHOSEN": "learned_store", "LEARNING": "learned_store", "MarginalRead": "learned_store",
    "learn_review": "learned_store", "list_profiles": "learned_store",
    "marginal_reads": "learned_store", "model_lessons": "learned_store",
    "placed_marginals": "learned_store", "profile_key": "learned_store",
    "profile_label": "learned_store", "remember_review": "learned_store",
    "LEXICON_MIN_DECISIONS": "learned_store", "Taught": "learned_store", "authored_forms": "learned_store",
    "forget_taught": "learned_store", "keep_review": "learned_store",
    "reset_learned": "learned_store", "review_digest": "learned_store",
    "reviewed_decisions_in": "learned_store", "suggestions_snapshot": "learned_store",
    "default_model_dir": "package",
    "PassProcess": "pass_process", "WorkerStopped": "pass_process",
    "WorkerUnavailable": "pass_process",
    "NotTheLanguage": "pipeline", "NothingToRestore": "pipeline", "PassApplier": "pipeline",
    "PassOutcome": "pipeline", "PassSettings": "pipeline", "PassSource": "pipeline",
    "RestoredRegion": "pipeline", "WORDS_AROUND": "pipeline", "keeps_author": "pipeline",
    "restore_transcript": "pipeline", "restorer_for": "pipeline", "run_pass": "pipeline",
    "Cancelled": "prediction", "WordPrediction": "prediction",
    "Adaptation": "review_lessons",
    "authored": "suggest", "make_suggestions": "suggest", "removes_authors": "suggest",
}

__all__ = sorted(_EXPORTS)

__getattr__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from editor.restore.inference import Restorer
    from editor.restore.learned_store import (CHOSEN, LEARNING, LEXICON_MIN_DECISIONS, MarginalRead, Taught,
                                              authored_forms, forget_taught, keep_review, learn_review,
                                              list_profiles, marginal_reads, model_lessons,
                                              placed_marginals, profile_key, profile_label,
                                              remember_review, reset_learned, review_digest,
                                              reviewed_decisions_in, suggestions_snapshot)
    from editor.restore.package import default_model_dir
    from editor.restore.pass_process import PassProcess, WorkerStopped, WorkerUnavailable
    from editor.restore.pipeline import (NotTheLanguage, NothingToRestore, PassApplier, PassOutcome,
                                         PassSettings, PassSource, RestoredRegion, WORDS_AROUND,
                                         keeps_author, restore_transcript, restorer_for, run_pass)
    from editor.restore.prediction import Cancelled, WordPrediction
    from editor.restore.review_lessons import Adaptation
    from editor.restore.suggest import authored, make_suggestions, removes_authors
