"""Commas as a style the person sets: how sure Stet must be of a comma to propose it at all.

Commas are the least agreed mark (style guides and annotators differ; on the dev talks a comma
shown below 90 % is right 62 % of the time, 55 % between 50 and 70 %), so how many a text gets is
the person's choice, not the model's. A style is a line on the comma's probability: a comma the
model would propose below it is neither asked nor inserted (the decision rule leaves no mark
there: `editor.restore.passes.decision.decide_jointly`'s ``comma_line``). Pure Python: the settings, the
window, the commands and batches share the names."""

from __future__ import annotations

from typing import Any

from editor.core.document.records import CHOICE, Kind, State
from editor.core.errors import UserError

#: The styles, from fewest commas to most: name -> (line, what it means in a sentence).
COMMA_STYLES: dict[str, tuple[float, str]] = {
    "sure": (0.9, "only commas Stet is sure of (90 % or more)"),
    "careful": (0.7, "commas as a careful writer puts them (70 % or more)"),
    "every-pause": (0.0, "every comma Stet proposes, down to a short pause"),
}
#: The style when none is set, chosen on the dev talks (docs/user-guide.md, "Commas"): fewer commas
#: saved about one decision for each reference mark they left to type, and lost sentence ends.
DEFAULT_COMMAS = "every-pause"
#: A comma under the style's line is still proposed where a sentence end (. ? !) is at least this
#: likely: a full stop hides behind such commas often enough (picked there with a digit) that
#: leaving them out cost the sentence ends' F1 after review (docs/performance.md, "Review cost").
COMMA_KEPT_FOR_END = 0.1


def comma_line(style: str) -> float:
    """The probability under which a comma is not proposed in ``style``; a UserError naming the
    styles for a name that is none of them."""
    try:
        return COMMA_STYLES[style][0]
    except KeyError:
        raise UserError(f"no comma style {style!r}: choose one of {', '.join(COMMA_STYLES)}") from None


def left_out(suggestions: Any, style: str) -> list[Any]:
    """The pending comma proposals of ``suggestions`` (a transcript's, or any iterable of them) that
    ``style`` leaves out: Stet's own, less likely than the style's line, where no sentence end is
    `COMMA_KEPT_FOR_END` likely. A proposal repeating the person's own choice stays."""
    line = comma_line(style)
    return [s for s in suggestions
            if s.kind == Kind.PUNCT and s.state == State.PENDING and s.source != CHOICE and s.value == ","
            and s.probs[","] < line and sum(s.probs.get(m, 0.0) for m in ".?!") < COMMA_KEPT_FOR_END]


def leave_out_commas(doc: Any, style: str) -> int:
    """Take out of ``doc`` (a Transcript) the pending comma proposals ``style`` leaves out
    (`left_out`), as one undo step: what `stet convert --commas STYLE` does to a project restored
    with more commas. Returns how many."""
    changes = [(s.key, None) for s in left_out(doc.iter_suggestions(state=State.PENDING), style)]
    return int(doc.push_changes(changes, f"Commas: {style}")) if changes else 0
