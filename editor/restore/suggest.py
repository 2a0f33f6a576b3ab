"""Model predictions -> the document's suggestions (pure Python; no torch needed to call it)."""

from __future__ import annotations

from collections.abc import Sequence

from editor.core.document import Kind, Suggestion, Token
from editor.restore.labels import apply_case


#: Case classes whose written form needs no lexicon, so the prediction's text is one of the surfaces.
_PLAIN_CASES = frozenset({"lower", "capitalized", "upper"})


def surface_probs(word: str, case_probs: dict[str, float], lexicon: dict[str, str] | None = None) -> dict[str, float]:
    """Case-class probabilities as written alternatives: {"the": .7, "The": .3, "THE": 0}.

    Classes that write the same text ("i" capitalized and upper are both "I") share their mass.
    """
    out: dict[str, float] = {}
    for case, p in case_probs.items():
        if case == "mixed" and not (lexicon and word in lexicon):
            continue
        text = apply_case(word, case, lexicon)
        out[text] = out.get(text, 0.0) + p
    total = sum(out.values()) or 1.0
    return {k: v / total for k, v in out.items()}


def make_suggestions(tokens: Sequence[Token], predictions: Sequence, lexicon: dict[str, str] | None = None) -> list[Suggestion]:
    """One punct and one case suggestion per token where the model's best guess differs from the
    token's current state (raw ASR text: every predicted mark and capital; already written text:
    only where the model disagrees)."""
    if len(tokens) != len(predictions):
        raise ValueError(f"{len(tokens)} tokens but {len(predictions)} predictions")
    out: list[Suggestion] = []
    for tok, pred in zip(tokens, predictions):
        if pred.punct != tok.punct:
            out.append(Suggestion(tok.id, Kind.PUNCT, pred.punct, pred.punct_probs))
        if pred.text == tok.surface and pred.case in _PLAIN_CASES:
            continue  # the model writes the word as it stands: no case suggestion to make
        surfaces = surface_probs(tok.word.lower(), pred.case_probs, lexicon)
        best = pred.text if pred.text in surfaces else max(surfaces, key=surfaces.get)
        if best != tok.surface:
            out.append(Suggestion(tok.id, Kind.CASE, best, surfaces))
    return out
