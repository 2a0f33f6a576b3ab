"""Model predictions -> the document's suggestions (pure Python; no torch needed to call it)."""

from __future__ import annotations

from collections.abc import Sequence

from editor.core.document import Kind, Suggestion, Token
from editor.core.text import CLOSING_BRACKETS, CLOSING_QUOTES, split_opening
from editor.restore.labels import PUNCT_MARKS, apply_case, mark_of


#: Case classes whose written form needs no lexicon, so the prediction's text is one of the surfaces.
_PLAIN_CASES = frozenset({"lower", "capitalized", "upper"})
#: Marks exactly as the model writes them.
_PLAIN_MARKS = frozenset(PUNCT_MARKS)


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


#: Characters after a word that close something (quotes, brackets): a suggested mark keeps them.
#: After a mark a single quote or an apostrophe closes a quote too (,' and ,’ keep it).
_QUOTES = CLOSING_QUOTES | {"'", "’"}
_CLOSERS = _QUOTES | CLOSING_BRACKETS


def current_mark(punct: str) -> str:
    """The mark a token's written punctuation amounts to, in the model's terms: the strongest of
    ? ! . ; : , ("?!" -> "?", "..." -> "."), a dash counting as a comma; quotes and brackets aside."""
    return mark_of(punct.replace("…", "."))


def with_mark(punct: str, mark: str) -> str:
    """`punct` (what follows a word now) with its marks replaced by `mark`, keeping closing quotes
    and brackets: ',"' -> '?"', ')' -> ').'. A mark goes inside closing quotes, after brackets."""
    closers = "".join(ch for ch in punct if ch in _CLOSERS)
    if not closers:
        return mark
    q = next((i for i, ch in enumerate(closers) if ch in _QUOTES), len(closers))
    return closers[:q] + mark + closers[q:]


def make_suggestions(tokens: Sequence[Token], predictions: Sequence, lexicon: dict[str, str] | None = None) -> list[Suggestion]:
    """One punct and one case suggestion per token where the model's best guess differs from the
    token's current state (raw ASR text: every predicted mark and capital; already written text:
    only where the model disagrees). Written text keeps what the model does not predict: opening
    quotes and brackets before a word, closing ones after it, an ellipsis or a dash where the
    model agrees that a sentence ends or a clause breaks there."""
    if len(tokens) != len(predictions):
        raise ValueError(f"{len(tokens)} tokens but {len(predictions)} predictions")
    out: list[Suggestion] = []
    for tok, pred in zip(tokens, predictions):
        punct = tok.punct
        if not punct or punct in _PLAIN_MARKS:
            if pred.punct != punct:
                out.append(Suggestion(tok.id, Kind.PUNCT, pred.punct, pred.punct_probs))
        elif pred.punct != current_mark(punct):
            probs: dict[str, float] = {}
            for m, p in pred.punct_probs.items():
                key = with_mark(punct, m)
                probs[key] = probs.get(key, 0.0) + p
            out.append(Suggestion(tok.id, Kind.PUNCT, with_mark(punct, pred.punct), probs))
        lead, surface = split_opening(tok.surface)
        if not surface:
            lead, surface = "", tok.surface
        if not lead and pred.text == surface and pred.case in _PLAIN_CASES:
            continue  # the model writes the word as it stands: no case suggestion to make
        surfaces = surface_probs(tok.word.lower(), pred.case_probs, lexicon)
        best = pred.text if pred.text in surfaces else max(surfaces, key=surfaces.get)
        if best != surface:
            if lead:
                best, surfaces = lead + best, {lead + k: v for k, v in surfaces.items()}
            out.append(Suggestion(tok.id, Kind.CASE, best, surfaces))
    return out
