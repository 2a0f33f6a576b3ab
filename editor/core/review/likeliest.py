"""Why a proposal is not the likeliest value listed beside it. The decision rule proposes the
likeliest mark (`editor.restore.passes.decision.decide_jointly`) but for one case: a sentence end whose
capital would be less likely than the next word's lowercase form ("later. then" never stands, and
"Then" would be a capital less likely than the word as it is). The panel says so beside the list."""

from __future__ import annotations

from editor.core.document.records import CHOICE, Kind, Suggestion
from editor.core.document.text import ends_sentence


def likelier_refused(s: Suggestion) -> str | None:
    """The likeliest value listed for ``s`` that is likelier than its proposal and ends a sentence
    (the one case the decision rule refuses the likeliest), or None. A proposal from the person's
    choice repeats that choice, whatever the model's probabilities: None."""
    if s.kind != Kind.PUNCT or s.source == CHOICE:
        return None
    for value, p in s.alternatives():
        if p <= s.confidence:
            return None
        if value and ends_sentence(value):
            return value
    return None
