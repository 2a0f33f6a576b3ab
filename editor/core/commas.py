"""Commas as a style the person sets: how sure Stet must be of a comma to propose it at all.

Commas are the least agreed mark (style guides and annotators differ; on the dev talks a comma
shown below 90 % is right 62 % of the time, 55 % between 50 and 70 %), so how many a text gets is
the person's choice, not the model's. A style is a line on the comma's probability: a comma the
model would propose below it is neither asked nor inserted (the decision rule leaves no mark
there: `editor.restore.decision.decide_jointly`'s ``comma_line``). Pure Python: the settings, the
window, the commands and batches share the names."""

from __future__ import annotations

from editor.core.errors import UserError

#: The styles, from fewest commas to most: name -> (line, what it means in a sentence).
COMMA_STYLES: dict[str, tuple[float, str]] = {
    "sure": (0.9, "only commas Stet is sure of (90 % or more)"),
    "careful": (0.7, "commas as a careful writer puts them (70 % or more)"),
    "every-pause": (0.0, "every comma Stet proposes, down to a short pause"),
}
#: The style when none is set (chosen on the dev talks: docs/user-guide.md, "Commas").
DEFAULT_COMMAS = "careful"


def comma_line(style: str) -> float:
    """The probability under which a comma is not proposed in ``style``; a UserError naming the
    styles for a name that is none of them."""
    try:
        return COMMA_STYLES[style][0]
    except KeyError:
        raise UserError(f"no comma style {style!r}: choose one of {', '.join(COMMA_STYLES)}") from None
