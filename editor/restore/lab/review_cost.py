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

import hashlib
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from editor.core.document.records import CHOICE, Kind, Suggestion, Token
from editor.core.document.text import ends_sentence, split_opening
from editor.core.document.transcript import Transcript
from editor.core.review.decision_points import DecisionPoint
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
    by_kind: dict[str, int] = field(default_factory=dict)  # decisions by what was under review (`point_kind`)
    #: decisions by (kind, confidence band, what the reference decided: accept, reject, another choice)
    breakdown: dict[tuple[str, str, str], int] = field(default_factory=dict)
    fixes: int = 0  # reference marks and capitals still missing after the decisions
    accepted_at_once: int = 0  # suggestions the accept-all applied
    #: the sentence ends still wrong after the decisions, by cause (`end_error`)
    end_errors: dict[str, int] = field(default_factory=dict)
    gold_marks: list[str] = field(default_factory=list)
    final_marks: list[str] = field(default_factory=list)
    gold_surfaces: list[str] = field(default_factory=list)
    final_surfaces: list[str] = field(default_factory=list)

    def add(self, other: ReviewTally) -> None:
        self.words += other.words
        self.decisions += other.decisions
        for k, n in other.by_kind.items():
            self.by_kind[k] = self.by_kind.get(k, 0) + n
        for key, n in other.breakdown.items():
            self.breakdown[key] = self.breakdown.get(key, 0) + n
        self.fixes += other.fixes
        self.accepted_at_once += other.accepted_at_once
        for k, n in other.end_errors.items():
            self.end_errors[k] = self.end_errors.get(k, 0) + n
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
            "sentence_end_errors_per_1000_words": {k: round(n * per, 2) for k, n in sorted(self.end_errors.items())},
            "decisions_by_kind_per_1000_words": {k: round(n * per, 1) for k, n in sorted(self.by_kind.items())},
            "decisions_breakdown_per_1000_words": self.breakdown_table(per),
        }}

    def breakdown_table(self, per: float) -> dict[str, dict[str, dict[str, float]]]:
        """kind -> confidence band -> outcome -> decisions per 1,000 words (``per``: 1,000 / words)."""
        out: dict[str, dict[str, dict[str, float]]] = {}
        for (kind, band, outcome), n in sorted(self.breakdown.items()):
            out.setdefault(kind, {}).setdefault(band, {})[outcome] = round(n * per, 2)
        return out


def _form(surface: str) -> str:
    """A word's form as the reference writes it: no opening quotes, no abbreviation period."""
    return split_opening(surface)[1].removesuffix(".")


def _listed(s: Suggestion) -> list[str]:
    return [v for v, p in s.alternatives()[:LISTED]]


def wanted_value(s: Suggestion, ref: LabelledWord, starts_paragraph: bool, current: str | None = None) -> str | None:
    """The value of ``s`` the reference asks for: its own (accept), an alternative the panel lists
    (a digit), or None (reject: the reference's value is not offered, or it is ``current``, what
    the word reads already: Delete, not the digit of the text as it stands)."""
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
    if current is not None and fits(current):
        return None
    return next((v for v in _listed(s) if fits(v)), None)


#: The confidence bands of the breakdown: (name, lowest confidence in it), highest first.
BANDS = (("90-100 %", 0.9), ("70-90 %", 0.7), ("50-70 %", 0.5), ("under 50 %", 0.0))


def band_of(confidence: float) -> str:
    return next(name for name, low in BANDS if confidence >= low)


def point_kind(doc: Transcript, point: DecisionPoint, ref: LabelledWord) -> str:
    """What a decision point puts to the person, for the breakdown of the decisions: a sentence end
    with the capital after it, or alone; a comma, or one where the reference ends a sentence (a
    full stop hides behind it); a question mark; a paragraph break; another mark; a capital
    decided alone: "I", one after a sentence end already in the text (accepted), one inside a
    sentence (a name or a title's word, whether or not it hangs on a sentence start), or any
    other (the text's first word, a lower case proposed)."""
    s = point.lead
    if s.kind == Kind.BREAK:
        return "paragraph break"
    if s.kind == Kind.CASE:
        word = doc[point.index].word.lower()
        if word == "i" or word.startswith("i'"):
            return "capital: I"
        if point.index == 0 or not split_opening(s.value)[1][:1].isupper():
            return "capital: other"
        if ends_sentence(doc[point.index - 1].punct):
            return "capital: after an accepted end"
        return "capital: name"
    mark = mark_of(s.value)
    if mark == ",":
        return "comma hiding a sentence end" if ends_sentence(ref.punct) else "comma"
    if mark == "?":
        return "question mark"
    if ends_sentence(mark):
        return "sentence end + capital" if point.capital is not None else "sentence end"
    return "other mark"


def review(doc: Transcript, reference: Sequence[LabelledWord], paragraph_starts: Sequence[int] = (0,), *,
           threshold: float = HIGH, repeat: bool = True, apart: bool = False,
           accept: Sequence[Suggestion] | None = None) -> ReviewTally:
    """Review ``doc`` (its words those of ``reference``, its suggestions pending) as the module's
    note says, and tally it. The decision points are the window's
    (`editor.core.review.decision_points`: a mark and the capital after it are one, and deciding
    the mark decides the capital, `Transcript.pick` and `turn_down`). With ``apart``, a sentence
    end decided with the capital after it counts two decisions, as when each was its own Tab stop
    (before issue 48). ``accept``: what the accept-all applies instead of the window's rule (a
    variant measured in the lab)."""
    if len(doc) != len(reference):
        raise ValueError(f"{len(doc)} words to review but {len(reference)} in the reference")
    tally = ReviewTally(words=len(doc))
    chosen = doc.pending_to_apply(threshold) if accept is None else accept
    tally.accepted_at_once = doc.accept_suggestions(chosen, text="Accept all confident")
    at_once = [mark_of(tok.punct) for tok in doc.tokens]
    para = set(paragraph_starts)
    position: tuple[int, int] | None = None
    while (point := doc.next_decision_point(position)) is not None:
        position = point.position  # Tab goes on from here: nothing behind is visited again
        s, index = point.lead, point.index
        value = wanted_value(s, reference[index], index in para, doc[index].value(s.kind))
        tally.decisions += 1
        name = point_kind(doc, point, reference[index]) + (", from a choice" if s.source == CHOICE else "")
        tally.by_kind[name] = tally.by_kind.get(name, 0) + 1
        outcome = "reject" if value is None else "accept" if value == s.value else "another choice"
        key = (name, band_of(point.confidence), outcome)
        tally.breakdown[key] = tally.breakdown.get(key, 0) + 1
        decide(doc, s.token_id, s.kind, accept=value is not None, value=value, repeat=repeat)
        if apart and point.capital is not None and ends_sentence(doc[index].punct):
            tally.decisions += 1
    for tok, ref, first in zip(doc.tokens, reference, at_once):
        mark, form = mark_of(tok.punct), _form(tok.surface or tok.word)
        if ends_sentence(mark) != ends_sentence(ref.punct):
            why = end_error(ends_sentence(ref.punct), first, doc.suggestion(tok.id, Kind.PUNCT))
            tally.end_errors[why] = tally.end_errors.get(why, 0) + 1
        tally.fixes += (bool(ref.punct) and mark != ref.punct) + (ref.surface != ref.surface.lower() and form != ref.surface)
        tally.gold_marks.append(ref.punct)
        tally.final_marks.append(mark)
        tally.gold_surfaces.append(ref.surface)
        tally.final_surfaces.append(form)
    return tally


def end_error(gold_end: bool, at_once: str, offered: Suggestion | None) -> str:
    """Why a word's sentence end is still wrong after the review: ``gold_end``, the reference ends
    a sentence there (else the text does); ``at_once``, the mark the accept-all put there (marks
    of the text before: none); ``offered``, the mark suggestion made for the word, if any."""
    if not gold_end:
        return "extra end, applied at once" if ends_sentence(at_once) else "extra end, decided"
    if at_once:
        return "missed end, another mark applied at once"
    if offered is None:
        return "missed end, no mark offered"
    listed = _listed(offered) + [offered.value]
    return "missed end, offered but not listed" if not any(ends_sentence(mark_of(v)) for v in listed) \
        else "missed end, decided"


def raw_transcript(reference: Sequence[LabelledWord]) -> Transcript:
    """The words of ``reference`` as a recogniser gives them: lowercase, no marks, one paragraph."""
    return Transcript([Token(w.word) for w in reference])


class ReplayRestorer:
    """A `Restorer` whose network output is read from a file once computed: the joint marginals
    of each text it restored (as `joint_marginals_chunked` merges the windows, which is what
    `Restorer.restore` decides each region from), kept in ``path`` (an .npz, by the words'
    digest). Everything after the network (calibration, the decision rule with the comma style,
    the suggestions, the accept-all, the review) runs as it does for a person, so a variant of
    those rules costs the Python pipeline alone, not the model (minutes on one core for the dev
    talks). The file is tied to the model's weights and settings (``key``): another model
    computes afresh. A lab tool: the window and the commands use `Restorer` itself."""

    def __init__(self, restorer: Any, path: str | Path) -> None:
        self._inner = restorer
        self.path = Path(path)
        self.key = model_key(restorer)
        self.computed = 0  # texts whose marginals were computed here, not read
        self._joint: dict[str, np.ndarray] = {}
        if self.path.is_file():
            with np.load(self.path) as found:
                if str(found["model_key"]) == self.key:
                    self._joint = {k: found[k] for k in found.files if k != "model_key"}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def joint(self, words: Sequence[str]) -> np.ndarray:
        """The (N, 28) joint marginals of ``words`` (bare, lowercase), from the file or computed."""
        from editor.restore.passes.windows import joint_marginals_chunked

        digest = hashlib.sha1("\x1f".join(words).encode("utf-8")).hexdigest()
        found = self._joint.get(digest)
        if found is None:
            r = self._inner
            found = self._joint[digest] = joint_marginals_chunked(r.model, r.vocab, words, r.size, r.overlap, r.cut,
                                                                  r.merge, r.windows_per_batch, r.device)
            self.computed += 1
        return found

    def restore(self, words: Sequence[str], on_chunk: Callable[[int, int, list[Any]], None] | None = None,
                cancel: Any = None, priority: tuple[int, int] | None = None, paragraph_starts: Iterable[int] = (),
                pause: Callable[[], object] | None = None, comma_line: float = 0.0) -> list[Any]:
        """As `Restorer.restore`, the whole text one region (the decisions of a word read only its
        neighbours' rows, so they are those of the region by region pass)."""
        from editor.core.document.text import bare_word
        from editor.restore.passes.inference import paragraph_end_flags

        words = [bare_word(str(w)).lower() for w in words]
        n = len(words)
        if n == 0:
            return []
        para_end = paragraph_end_flags(n, paragraph_starts)
        preds: list[Any] = self._inner.predictions(words, self.joint(words), first_is_start=True, last_is_end=True,
                                                   paragraph_ends=para_end, comma_line=comma_line)
        if on_chunk is not None:
            on_chunk(0, n, preds)
        return preds

    def save(self) -> None:
        """Write the marginals to ``path`` (atomically), when any were computed here."""
        if not self.computed:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".part.npz")
        np.savez(tmp, model_key=np.array(self.key), **self._joint)
        os.replace(tmp, self.path)
        self.computed = 0


def model_key(restorer: Any) -> str:
    """A digest of what the network's output depends on: its weights and the windows' settings."""
    h = hashlib.sha1(repr((restorer.name, restorer.size, restorer.overlap, restorer.cut, restorer.merge)).encode())
    for name, tensor in sorted(restorer.model.state_dict().items()):
        h.update(name.encode())
        h.update(tensor.detach().cpu().contiguous().numpy().tobytes())
    return h.hexdigest()


def review_cost_file(restorer: Any, path: str | Path, commas: str, *, threshold: float = HIGH,
                     limit: int | None = None, encoding: str | None = None, apart: bool = False,
                     on_talk: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """`review` over every talk of a cased text FILE (`# ` lines separate talks), restored with
    ``restorer`` (a `Restorer`, or a `ReplayRestorer` in the lab) and the comma style ``commas``
    (`editor.restore.commas`); the first ``limit`` talks when given. ``on_talk(done, total)``
    follows the talks; ``apart``: see `review`. ``halves`` in the result: the same figures for
    the even- and the odd-numbered talks apart (as `editor.restore.lab.splits` splits them), so
    that a rule chosen on the whole is seen to hold on each half."""
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
    total, halves = ReviewTally(), (ReviewTally(), ReviewTally())
    for n, (words, starts) in enumerate(talks):
        doc = restore_transcript(restorer, raw_transcript(words), settings, name=str(path))
        tally = review(doc, words, starts, threshold=threshold, apart=apart)
        total.add(tally)
        halves[n % 2].add(tally)
        if on_talk is not None:
            on_talk(n + 1, len(talks))
    out = total.report(commas)
    out["review_cost"]["halves"] = {}
    for name, half in zip(("even talks", "odd talks"), halves):
        r = half.report(commas)["review_cost"]
        out["review_cost"]["halves"][name] = {k: r[k] for k in ("words", "decisions_per_1000_words",
                                                                 "fixes_per_1000_words", "final")}
    out["review_cost"]["file"] = str(path)
    out["review_cost"]["talks"] = len(talks)
    out["review_cost"]["threshold"] = threshold
    return out
