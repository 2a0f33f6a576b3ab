"""What a review costs a person: `stet eval FILE --review-cost`.

Raw words go in (lowercased, marks stripped, as a recogniser gives them), one talk a document, and
get the suggestions the window gives them (`restore_transcript`: the same pass, paragraph breaks
proposed as the window proposes them). Then, as a person with the reference in mind would:

1. one accept-all at the high threshold (Review > Accept all confident, Ctrl+Shift+A: the
   settings' `review.high`, 0.9 by default; which suggestions it applies is `pending_to_apply`);
2. every decision point in reading order, as Tab visits them, decided as the reference says:
   accept (Enter), the digit of the reference's value where the panel lists it (its first six
   alternatives), else reject (Delete); through `repeat_choices.decide`, so a choice repeats
   elsewhere as it does in the window (the default setting) and the proposals it makes are
   decision points in their turn;
3. one fix for each reference mark or capital that the text still lacks (no suggestion offered it).

A decision point is one Tab stop (`editor.core.review.decision_points`, as the window walks them):
a mark and the capital after it are one decision (the capital follows the mark chosen); a capital
is decided alone only where no mark before it is pending. ``final`` scores the text after the decisions, without the fixes: sentence ends
(. ? ! as one: a sentence ends after the word or not), commas (","), capitals (`case_scores`) and
the overall F1 of the 3-class view (`punct_scores`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from editor.core.document.records import Kind, Suggestion, Token
from editor.core.document.text import ends_sentence, split_opening
from editor.core.document.transcript import Transcript
from editor.core.review.repeat_choices import decide
from editor.restore.model.labels import MARK_TO_3CLASS, LabelledWord, mark_of
from editor.restore.lab.evaluate import case_scores, punct_scores

#: The alternatives the panel lists for a suggestion (`editor.gui.panel.panel`, 1-6).
LISTED = 6
#: Accept-all's threshold by default (`ReviewSettings.high`, Review > Accept all confident).
HIGH = 0.9


@dataclass
class ReviewTally:
    """What a review of one or more documents took and left."""

    words: int = 0
    decisions: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)  # decisions by what was under review
    fixes: int = 0  # reference marks and capitals still missing after the decisions
    accepted_at_once: int = 0  # suggestions the accept-all applied
    gold_marks: list[str] = field(default_factory=list)
    final_marks: list[str] = field(default_factory=list)
    gold_surfaces: list[str] = field(default_factory=list)
    final_surfaces: list[str] = field(default_factory=list)

    def add(self, other: ReviewTally) -> None:
        self.words += other.words
        self.decisions += other.decisions
        for k, n in other.by_kind.items():
            self.by_kind[k] = self.by_kind.get(k, 0) + n
        self.fixes += other.fixes
        self.accepted_at_once += other.accepted_at_once
        self.gold_marks += other.gold_marks
        self.final_marks += other.final_marks
        self.gold_surfaces += other.gold_surfaces
        self.final_surfaces += other.final_surfaces

    def report(self, commas: str) -> dict[str, Any]:
        per = 1000.0 / self.words if self.words else 0.0
        g_end = ["E" if ends_sentence(m) else "O" for m in self.gold_marks]
        f_end = ["E" if ends_sentence(m) else "O" for m in self.final_marks]
        g_comma = ["C" if m == "," else "O" for m in self.gold_marks]
        f_comma = ["C" if m == "," else "O" for m in self.final_marks]
        overall = punct_scores([MARK_TO_3CLASS[m] for m in self.gold_marks],
                               [MARK_TO_3CLASS[m] for m in self.final_marks])["overall"]["f1"]
        return {"review_cost": {
            "commas": commas,
            "decisions_per_1000_words": round(self.decisions * per, 1),
            "fixes_per_1000_words": round(self.fixes * per, 1),
            "final": {"sentence_end_f1": round(punct_scores(g_end, f_end, classes=("E",))["E"]["f1"], 2),
                      "comma_f1": round(punct_scores(g_comma, f_comma, classes=("C",))["C"]["f1"], 2),
                      "case_f1": round(case_scores(self.gold_surfaces, self.final_surfaces)["f1"], 2),
                      "overall_f1": round(overall, 2)},
            "words": self.words,
            "accepted_at_once_per_1000_words": round(self.accepted_at_once * per, 1),
            "decisions_by_kind_per_1000_words": {k: round(n * per, 1) for k, n in sorted(self.by_kind.items())},
        }}


def _form(surface: str) -> str:
    """A word's form as the reference writes it: no opening quotes, no abbreviation period."""
    return split_opening(surface)[1].removesuffix(".")


def _listed(s: Suggestion) -> list[str]:
    return [v for v, p in s.alternatives()[:LISTED]]


def wanted_value(s: Suggestion, ref: LabelledWord, starts_paragraph: bool) -> str | None:
    """The value of ``s`` the reference asks for: its own (accept), an alternative the panel lists
    (a digit), or None (reject: the reference's value is not offered)."""
    if s.kind == Kind.BREAK:
        return s.value if bool(s.value) == starts_paragraph else None
    if s.kind == Kind.PUNCT:
        if not ref.punct:
            return None  # no mark: Delete, not the digit of "no mark"
        fits: Callable[[str], bool] = lambda v: mark_of(v) == ref.punct  # noqa: E731
    else:
        fits = lambda v: _form(v) == ref.surface  # noqa: E731
    if fits(s.value):
        return s.value
    return next((v for v in _listed(s) if fits(v)), None)


def _kind_name(s: Suggestion) -> str:
    if s.kind == Kind.BREAK:
        return "paragraph break"
    if s.kind == Kind.CASE:
        return "capital"
    mark = mark_of(s.value)
    return {",": "comma", "?": "question mark"}.get(mark, "sentence end" if ends_sentence(mark) else "other mark")


def review(doc: Transcript, reference: Sequence[LabelledWord], paragraph_starts: Sequence[int] = (0,), *,
           threshold: float = HIGH, repeat: bool = True, apart: bool = False) -> ReviewTally:
    """Review ``doc`` (its words those of ``reference``, its suggestions pending) as the module's
    note says, and tally it. The decision points are the window's
    (`editor.core.review.decision_points`: a mark and the capital after it are one, and deciding
    the mark decides the capital, `Transcript.pick` and `turn_down`). With ``apart``, a sentence
    end decided with the capital after it counts two decisions, as when each was its own Tab stop
    (before issue 48)."""
    if len(doc) != len(reference):
        raise ValueError(f"{len(doc)} words to review but {len(reference)} in the reference")
    tally = ReviewTally(words=len(doc))
    tally.accepted_at_once = doc.accept_suggestions(doc.pending_to_apply(threshold), text="Accept all confident")
    para = set(paragraph_starts)
    position: tuple[int, int] | None = None
    while (point := doc.next_decision_point(position)) is not None:
        position = point.position  # Tab goes on from here: nothing behind is visited again
        s, index = point.lead, point.index
        value = wanted_value(s, reference[index], index in para)
        tally.decisions += 1
        name = _kind_name(s)
        tally.by_kind[name] = tally.by_kind.get(name, 0) + 1
        decide(doc, s.token_id, s.kind, accept=value is not None, value=value, repeat=repeat)
        if apart and point.capital is not None and ends_sentence(doc[index].punct):
            tally.decisions += 1
    for tok, ref in zip(doc.tokens, reference):
        mark, form = mark_of(tok.punct), _form(tok.surface or tok.word)
        tally.fixes += (bool(ref.punct) and mark != ref.punct) + (ref.surface != ref.surface.lower() and form != ref.surface)
        tally.gold_marks.append(ref.punct)
        tally.final_marks.append(mark)
        tally.gold_surfaces.append(ref.surface)
        tally.final_surfaces.append(form)
    return tally


def raw_transcript(reference: Sequence[LabelledWord]) -> Transcript:
    """The words of ``reference`` as a recogniser gives them: lowercase, no marks, one paragraph."""
    return Transcript([Token(w.word) for w in reference])


def review_cost_file(restorer: Any, path: str | Path, commas: str, *, threshold: float = HIGH,
                     limit: int | None = None, encoding: str | None = None, apart: bool = False,
                     on_talk: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """`review` over every talk of a cased text FILE (`# ` lines separate talks), restored with
    ``restorer`` and the comma style ``commas`` (`editor.restore.commas`); the first ``limit``
    talks when given. ``on_talk(done, total)`` follows the talks; ``apart``: see `review`."""
    from editor.core.errors import UserError
    from editor.core.formats.txt import read_text
    from editor.restore.lab.data import read_cased_paragraphs
    from editor.restore.passes.pipeline import PassSettings, restore_transcript

    path = Path(path)
    if not path.is_file():
        raise UserError(f"{path}: no such file")
    text, _warnings = read_text(path, encoding)
    try:
        talks = [d for d in read_cased_paragraphs(path, text) if d[0]][:limit]
    except ValueError as err:
        raise UserError(str(err)) from None
    if not talks:
        raise UserError(f"{path}: no words to review (cased text with `# ` lines between talks is expected)")
    settings = PassSettings(lexicon=False, learned=False, any_language=True, commas=commas)
    total = ReviewTally()
    for n, (words, starts) in enumerate(talks):
        doc = restore_transcript(restorer, raw_transcript(words), settings, name=str(path))
        total.add(review(doc, words, starts, threshold=threshold, apart=apart))
        if on_talk is not None:
            on_talk(n + 1, len(talks))
    out = total.report(commas)
    out["review_cost"]["file"] = str(path)
    out["review_cost"]["talks"] = len(talks)
    out["review_cost"]["threshold"] = threshold
    return out
