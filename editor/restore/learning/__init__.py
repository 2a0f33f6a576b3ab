"""Learning: what the person's reviews teach, what is kept of it, and `stet learned`.

`review_lessons` says what one review teaches the restorer (an `Adaptation`: a bias on the mark and
case classes, the case forms the person chose); `learned_store` keeps it per language and speaker
set (a profile) with the user lexicon and gives a pass what to apply; `learned_cli` is the
`stet learned` command that shows, edits or forgets it.

Names load on first use, so importing this package loads no torch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from editor.core.lazy import lazy_exports

_EXPORTS = {
    "Adaptation": "review_lessons",
    "CHOSEN": "learned_store", "LEARNING": "learned_store", "LEXICON_MIN_DECISIONS": "learned_store",
    "MarginalRead": "learned_store", "Taught": "learned_store", "authored_forms": "learned_store",
    "forget_taught": "learned_store", "keep_review": "learned_store", "learn_review": "learned_store",
    "list_profiles": "learned_store", "marginal_reads": "learned_store", "model_lessons": "learned_store",
    "placed_marginals": "learned_store", "profile_key": "learned_store", "profile_label": "learned_store",
    "remember_review": "learned_store", "reset_learned": "learned_store", "review_digest": "learned_store",
    "reviewed_decisions_in": "learned_store", "suggestions_snapshot": "learned_store",
}

__all__ = sorted(_EXPORTS)

__getattr__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from editor.restore.learning.learned_store import (CHOSEN, LEARNING, LEXICON_MIN_DECISIONS, MarginalRead, Taught,
                                                       authored_forms, forget_taught, keep_review, learn_review,
                                                       list_profiles, marginal_reads, model_lessons,
                                                       placed_marginals, profile_key, profile_label,
                                                       remember_review, reset_learned, review_digest,
                                                       reviewed_decisions_in, suggestions_snapshot)
    from editor.restore.learning.review_lessons import Adaptation
