"""Punctuation and case restoration: a BiLSTM-CRF over overlapping chunks.

In folders by part, each with its own face (its ``__init__``):

    model/     what a model is and how one is stored: the networks, labels, vocabularies, a model directory
    passes/    running a model over a text: the one restoration pass (`run_pass`), its worker process,
               the `Restorer`, the decision rules and the suggestions made from a prediction
    learning/  what reviews teach: an adaptation, the user lexicon and profiles, `stet learned`
    cli.py     `stet restore` (and `pass_settings`, its arguments as a pass's settings, for a batch)
    lab/       training, tuning, evaluation and the model card; nothing outside the lab imports it

The rest of Stet (the window, batches) uses restoration through the names exported here
(pyproject's import contracts hold it to that, and the folders to their layers). Every
name is imported lazily, so `import editor.restore` (and the window's imports from it) loads no
torch; a model is loaded by `Restorer.load()`, once a process by `restorer_for()`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from editor.core.lazy import lazy_exports

# name -> the folder whose face exports it (the command's module for pass_settings)
_EXPORTS = {
    "default_model_dir": "model",
    "Restorer": "passes",
    "PassProcess": "passes", "WorkerStopped": "passes", "WorkerUnavailable": "passes",
    "NotTheLanguage": "passes", "NothingToRestore": "passes", "PassApplier": "passes",
    "PassOutcome": "passes", "PassSettings": "passes", "PassSource": "passes",
    "RestoredRegion": "passes", "WORDS_AROUND": "passes", "keeps_author": "passes",
    "restore_transcript": "passes", "restorer_for": "passes", "run_pass": "passes",
    "Cancelled": "passes", "WordPrediction": "passes",
    "authored": "passes", "make_suggestions": "passes", "removes_authors": "passes",
    "Adaptation": "learning",
    "CHOSEN": "learning", "LEARNING": "learning", "LEXICON_MIN_DECISIONS": "learning",
    "MarginalRead": "learning", "Taught": "learning", "authored_forms": "learning",
    "forget_taught": "learning", "keep_review": "learning", "learn_review": "learning",
    "list_profiles": "learning", "marginal_reads": "learning", "model_lessons": "learning",
    "placed_marginals": "learning", "profile_key": "learning", "profile_label": "learning",
    "remember_review": "learning", "reset_learned": "learning", "review_digest": "learning",
    "reviewed_decisions_in": "learning", "suggestions_snapshot": "learning",
    "pass_settings": "cli",
}

__all__ = sorted(_EXPORTS)

__getattr__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from editor.restore.cli import pass_settings
    from editor.restore.learning import (CHOSEN, LEARNING, LEXICON_MIN_DECISIONS, Adaptation, MarginalRead, Taught,
                                         authored_forms, forget_taught, keep_review, learn_review, list_profiles,
                                         marginal_reads, model_lessons, placed_marginals, profile_key, profile_label,
                                         remember_review, reset_learned, review_digest, reviewed_decisions_in,
                                         suggestions_snapshot)
    from editor.restore.model import default_model_dir
    from editor.restore.passes import (WORDS_AROUND, Cancelled, NotTheLanguage, NothingToRestore, PassApplier,
                                       PassOutcome, PassProcess, PassSettings, PassSource, RestoredRegion, Restorer,
                                       WordPrediction, WorkerStopped, WorkerUnavailable, authored, keeps_author,
                                       make_suggestions, removes_authors, restore_transcript, restorer_for, run_pass)
