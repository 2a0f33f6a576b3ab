"""What the person's review decisions teach the rest of the document (pure Python, no Qt).

When the person accepts, rejects or chooses a case or a mark, the same word (case) or the same
pair of words (mark) elsewhere gets a *pending* proposal of that choice, marked
``source="choice"`` ("from your choice" in the editor), in the same undo step as the decision.
Nothing elsewhere is decided or removed unseen: where the word already reads as chosen, Stet's
proposal to change it becomes a pending proposal to keep it as it is (a rejection carried
elsewhere), which the person accepts or turns down there (turning it down gives Stet's proposal
back: ``accept_rules.turned_down``), one by one or all at once (``choice_proposals``,
``turn_down_choices``).

- A proposal from a choice carries how likely it is that the choice applies there
  (``choice_confidence``): the model's own probability of the chosen value at that word, its
  odds multiplied by (agree + 1) / (disagree + 1) for the person's decisions on the same word or
  pair (the rule of succession; ``choice_evidence``), corrected by a factor measured for each
  kind (``CHOICE_ODDS_FACTOR``: the rule alone read marks too sure and capitals too unsure),
  a mark never above 85 % unless the model held it surer (``CHOICE_MOST``), and never above
  the value the model holds likelier there. Where the model proposed nothing the prior is measured
  (``UNPROPOSED_PRIOR``): such a choice holds at few places (16 % shown after two agreeing
  decisions), and never above one half. The other values
  keep the model's probabilities, so turning the choice down gives Stet's proposal back as it
  was (``accept_rules.model_probs``). It is never 100 % by itself, and "accept all confident"
  leaves it to the person.
- A case choice counts only mid-sentence: a capital after a sentence end, or after an end mark
  only proposed, says nothing about the word ("The" starts a sentence; "Okafor" is a name); and
  it is proposed only at words mid-sentence. A capital typed before its mark (the usual order)
  is withdrawn from elsewhere once the mark makes its word a sentence start
  (``withdraw_start_capital``).
- Where Stet proposed nothing (the model left the word or the pair as it reads), a choice is
  proposed only once the person has made it ``UNPROPOSED_AGREE`` times (the decision itself
  and those already made on the same word or pair, ``choice_evidence``): on the dev talks a
  capital chosen once held at about one in eight of the places the model had left alone
  ("point A" put "A" 50 % on every article), so each such proposal cost a Delete more than it
  saved (docs/performance.md, "Where the decisions go").
- A capital on a word of one letter or an English function word ("point A", "The Who":
  ``common_word``) is a name's use of a common word: it repeats only where the same word
  stands before it (on dev, such a capital proposed at every use of the word was right at 2 %
  of them; a capital of another word, at 66 % of the places after the same word).
- A form the language fixes (English "I" and its contractions) is never generalised from a
  choice against it: one "i" left lower case (a Delete on "I") proposes nothing elsewhere.
- Suggestions the person already decided are never changed.
- Marks are propagated only where the text after the word is a plain mark (no quotes, brackets
  or ellipses), which is how recognisers and the restorer write them.

A case or a mark the person types is a choice too: `repeat_typed` compares a stretch of text
before and after typing and repeats the forms and marks typed on words that are still there.

`review_decisions` lists the decisions of a document as `ReviewDecision`s, what adaptation and
the user lexicon learn from.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from editor.core.review import accept_rules
from editor.core.document.transcript import Kind, State, Suggestion, Token, Transcript
from editor.core.review.lexicon import is_entry
from editor.core.document.records import CHOICE
from editor.core.document.text import ends_sentence, split_opening

#: How many of the person's decisions agreeing on a choice (itself included) it takes to propose
#: it where Stet proposed nothing (see the module's note).
UNPROPOSED_AGREE = 2
#: The prior of a choice where Stet proposed nothing, as (places it held, places it did not): the
#: rule of succession starts from it (``choice_confidence``). Measured on the dev talks (the
#: review-cost replay, 6 Dec 2026): such a proposal made from two agreeing decisions was right at
#: 34 % of 148 places (50 % on the even talks, 18 % on the odd), from one at 16 % of 1,013 (12 %
#: on the odd); 10 places against is the fewest for which the figure shown is at or under the
#: rate measured in every band of (agree, disagree) with at least 10 proposals, on the whole and
#: on each half (docs/performance.md, "A choice's percentage").
UNPROPOSED_PRIOR = (0, 10)
#: A factor on the odds of a choice's confidence where the model proposed something, per kind,
#: and the most it shows (``choice_confidence``; never below the model's own probability of the
#: value). Measured on the dev talks (the review-cost replay, 6 Dec 2026; docs/performance.md,
#: "A choice's percentage"): with the rule of succession alone, marks shown 90-100 % were right
#: at 86 % of 163 (83 % on the odd talks) and none of the factors that fit best (0.90 even, 0.85
#: odd talks) brought them to 90 %: the surest of them are right at about 85 %, so a mark from a
#: choice shows at most that. Capitals were shown too low (48 of 59 shown under 50 % were right):
#: the factor that fits best is 4.8 on the odd talks, 20 on the even. Each kind takes the smaller
#: half's factor.
CHOICE_ODDS_FACTOR: dict[Kind, float] = {Kind.CASE: 4.8, Kind.PUNCT: 0.85}
CHOICE_MOST: dict[Kind, float] = {Kind.CASE: 1.0, Kind.PUNCT: 0.85}
#: A mark that can stand alone after a word and be propagated (the restorer's own marks).
PLAIN_MARKS = frozenset({"", ",", ".", "?", "!", ":", ";"})
#: Words whose case English fixes: the pronoun I and its contractions (either apostrophe). A
#: choice against that form (one "i" left lower case) is a slip or a quotation, never a form
#: of the word to repeat.
FIXED_FORMS = frozenset(f"i{end}".replace("'", q) for end in ("", "'m", "'ve", "'ll", "'d")
                        for q in ("'", "\u2019"))
#: English function words, among the most frequent of any talk: a capital chosen on one of them
#: ("point A", "The Who") is a name's use of a common word, which repeats only where the same
#: word stands before it (``common_word``). Written out: a short closed class, fixed by the
#: language, not worth a stop-word package.
COMMON_WORDS = frozenset("""
    a an the and or but nor so of to in on at by for with from as into onto than then that this
    these those there here is are was were be been am it its he she we you they me him her us them
    my your our their his what which who whom when where how if not no do does did have has had
    just like about up out off over all some any each
""".split())


@dataclass(frozen=True, slots=True)
class ReviewDecision:
    """One word as the person left it, with what Stet had proposed there."""

    index: int
    word: str
    surface: str  # without opening quotes or brackets
    punct: str
    sentence_start: bool
    kind: Kind  # what the person decided on this word
    state: State  # accepted (a proposal or an alternative) or rejected
    value: str  # accepted: the value now in the text; rejected: the value turned down
    next_word: str | None = None  # the word after it (a mark's context), None at the end


def starts_sentence(doc: Transcript, index: int) -> bool:
    return index == 0 or ends_sentence(doc[index - 1].punct)


def _start_proposed(doc: Transcript, index: int) -> bool:
    """Whether the mark before word ``index`` is a pending proposal that ends a sentence: a
    capital decided there (Tab and Enter past the mark, or least confident first) comes with
    that sentence start, as the text shows it."""
    if index == 0:
        return False
    mark = doc.suggestion_view(doc[index - 1].id).get(Kind.PUNCT)
    return mark is not None and mark.state == State.PENDING and ends_sentence(mark.value)


def _bare(surface: str | None) -> str:
    lead, rest = split_opening(surface or "")
    return rest if rest else (surface or "")


def fixed_by_language(doc: Transcript, word: str) -> bool:
    """Whether English fixes the case of ``word`` ("i", "i'm"...) in ``doc`` (English, or a
    document that does not say its language)."""
    language = (doc.metadata.language or "en").lower()
    return word.lower() in FIXED_FORMS and (language == "en" or language.startswith(("en-", "en_")))


def common_word(doc: Transcript, word: str) -> bool:
    """Whether ``word`` is so common that a case chosen on it says nothing of its other uses:
    a word of one letter (in any language; "I" is the pronoun, `fixed_by_language`) or an
    English function word (``COMMON_WORDS``, in English or a document that does not say its
    language). A capital on it ("point A", "Plan B", "The Who") repeats only where the same
    word stands before it: one "point A" proposed "A" at every article."""
    w = word.lower()
    if fixed_by_language(doc, w):
        return False
    if len(w) == 1 and w.isalpha():
        return True
    language = (doc.metadata.language or "en").lower()
    return w in COMMON_WORDS and (language == "en" or language.startswith(("en-", "en_")))


def propagate(doc: Transcript, token_id: int, kind: Kind | str) -> int:
    """Repeat the person's decision on ``token_id`` (its current case or mark) wherever the same
    word (case) or word pair (mark) has no decision of the person's yet, as pending proposals.
    Returns how many suggestions changed. Call it inside the history group of the decision so
    that one undo takes both back (``decide`` does)."""
    return repeat_on(doc, token_id, kind, repeat_targets(doc, token_id, kind))


def repeat_targets(doc: Transcript, token_id: int, kind: Kind | str) -> list[int]:
    """The indices of the words a decision on ``token_id`` may repeat on (see ``propagate``): the
    same word (case: ``repeat_on`` skips those that start a sentence) or the same word pair
    (mark), found at C speed (the most
    frequent word of 100,000 takes a few milliseconds). Empty when the decision repeats
    nowhere: a capital of the place (a sentence start, or an end mark proposed before it), an
    edited word, a form against the one the language fixes ("i"). An editor repeats a decision
    on many words a slice of them at a time with ``repeat_on``."""
    kind = Kind(kind)
    if kind == Kind.BREAK:
        return []  # a paragraph break is a choice about this place only
    index = doc.index_of(token_id)
    token = doc[index]
    if kind == Kind.CASE:
        if starts_sentence(doc, index) or _start_proposed(doc, index):
            return []  # a capital of the place, not a choice of the word's form
        form = _bare(token.surface)
        if not any(ch.isalpha() for ch in form) or form.lower() != token.word.lower():
            return []  # an edited word, not a case choice
        if fixed_by_language(doc, token.word) and not form[:1].isupper():
            return []  # "i" left lower case once says nothing about the pronoun elsewhere
    elif token.punct not in PLAIN_MARKS or index + 1 >= len(doc):
        return []
    if kind == Kind.CASE:
        if common_word(doc, token.word):  # a name's use of a common word: only after the same word
            before = doc[index - 1].word.lower()
            return [j for j in doc.positions_of(token.word)
                    if j != index and j > 0 and doc[j - 1].word.lower() == before]
        return [j for j in doc.positions_of(token.word) if j != index]
    tokens, after = doc.tokens, doc[index + 1].word  # (a mark: the same word pair)
    return [j for j in doc.positions_of(token.word)
            if j != index and j + 1 < len(tokens) and tokens[j + 1].word == after]


def choice_confidence(model: Mapping[str, float] | None, value: str, agree: int = 1, disagree: int = 0,
                      factor: float = 1.0, most: float = 1.0) -> float:
    """How likely it is that the person's choice ``value`` applies at a word where the model's
    probabilities are ``model`` (None: the model proposed nothing there, so it keeps what the
    word reads). The model's own probability of ``value`` there is the prior; the person's record
    on the same word (case) or word pair (mark) is the evidence, by the rule of succession: after
    ``agree`` decisions that left ``value`` and ``disagree`` that left another, the choice holds
    at the next place with probability (agree + 1) / (agree + disagree + 2), which multiplies the
    prior's odds by (agree + 1) / (disagree + 1) (one decision: twice the odds). The result is
    never above the model's likeliest other value there: a choice raises a value, it never
    outweighs what the model holds likelier (the model's 86 % "?" stays likelier than a "."
    chosen elsewhere). Where the model proposed nothing (None: it kept what the word reads) the
    prior is the measured one, ``UNPROPOSED_PRIOR``: the choice holds there at agree / (agree +
    disagree + 10), never above one half (one "Okafor" made twice is shown at 16 %: 2 / 12).
    A value the model cannot write: the rule of succession's alone, never above the model's
    likeliest. Never 1 by itself: only a model certain of the value gives that. ``factor``
    multiplies the odds where the model proposed something, and the result is never above
    ``most`` unless the model's own probability of the value is (``CHOICE_ODDS_FACTOR`` and
    ``CHOICE_MOST``: the measured correction of the rule for each kind)."""
    person = (agree + 1) / (disagree + 1) * factor
    if model is None:
        holds, fails = UNPROPOSED_PRIOR
        return min((agree + holds) / (agree + disagree + holds + fails), 0.5)
    likelier = max((q for v, q in model.items() if v != value), default=0.0)
    if value not in model:
        return min(person / (1.0 + person), likelier, most)
    prior = min(max(model[value], 1e-6), 1.0 - 1e-6)  # (a finite odds: never 1 by itself)
    odds = prior / (1.0 - prior) * person
    p = min(odds / (1.0 + odds), max(most, prior))
    if likelier >= prior:
        p = min(p, likelier)  # (where the model held another value likelier: never above it)
    return p


def choice_evidence(doc: Transcript, token_id: int, kind: Kind | str, targets: Sequence[int]) -> tuple[int, int]:
    """(agree, disagree): the person's decisions behind a choice on ``token_id`` (itself, one)
    and those already made on the words at ``targets`` (`repeat_targets`) that left the same
    form or mark, or another (a choice turned down there is one against). Decisions on a
    sentence start say nothing of a word's form and are not counted."""
    kind = Kind(kind)
    token = doc.token(token_id)
    chosen = _bare(token.surface) if kind == Kind.CASE else token.punct
    agree, disagree = 1, 0
    # the words with a decision of this kind, found at C speed: looking up each target's
    # suggestion (6,000 of "the" in 100,000 words) was most of what Enter on such a word cost
    tokens = doc.tokens  # (indexing a tuple: no method call a word)
    ids = [tokens[j].id for j in targets]
    decided = {s.token_id for s in doc.suggestions_on(ids) if s.kind == kind and s.state != State.PENDING}
    for j, target in zip(targets, ids):
        if target not in decided:
            continue
        t = doc[j]
        if kind == Kind.CASE and (starts_sentence(doc, j) or _start_proposed(doc, j)):
            continue
        now = _bare(t.surface) if kind == Kind.CASE else t.punct
        if now == chosen:
            agree += 1
        else:
            disagree += 1
    return agree, disagree


def _proposal(old: Suggestion | None, token_id: int, kind: Kind, value: str, current: str,
              evidence: tuple[int, int]) -> Suggestion | None:
    """The pending proposal of the person's choice ``value`` on a word whose suggestion is
    ``old`` and whose text reads ``current``; None where it is proposed there already. Its
    confidence is the choice's (``choice_confidence`` with the person's record ``evidence``);
    the other values keep the model's probabilities, and Stet's own proposal (in ``original``)
    is kept to give back if the person turns the choice down there."""
    if old is None:
        p = choice_confidence(None, value, *evidence)
        probs = {value: p} if current == value else {current: 1.0 - p, value: p}
        return Suggestion(token_id, kind, value, probs, source=CHOICE)
    if old.source == CHOICE and old.value == value:
        return None
    replaced = old.original if old.source == CHOICE else old.value
    model = accept_rules.model_probs(old)
    probs = {**model, value: choice_confidence(model, value, *evidence, factor=CHOICE_ODDS_FACTOR[kind],
                                               most=CHOICE_MOST[kind])}
    return Suggestion(token_id, kind, value, probs, source=CHOICE, original=replaced,
                      needs_start=old.needs_start)


def repeat_on(doc: Transcript, token_id: int, kind: Kind | str, targets: Sequence[int], *,
              merge_id: object | None = None, evidence: tuple[int, int] | None = None) -> int:
    """Repeat the decision on ``token_id`` on the words at ``targets`` (from ``repeat_targets``)
    that have no decision of the person's yet, as pending proposals from the person's choice:
    the chosen form or mark where the word differs (where Stet proposed nothing there, only
    once the person made the choice ``UNPROPOSED_AGREE`` times), and where it already reads as
    chosen but Stet proposes to change it, a proposal to keep it as it is. Nothing is decided or removed.
    Each carries how likely the choice applies there (``choice_confidence``), from the person's
    decisions ``evidence`` (``choice_evidence``; None: counted among ``targets``, which an editor
    repeating on a slice of them at a time counts once over all). One undo step (joined to the
    step before when ``merge_id`` is the same). Returns how many suggestions changed."""
    kind = Kind(kind)
    if kind == Kind.BREAK:
        return 0  # a paragraph break is a choice about this place only
    index = doc.index_of(token_id)
    token = doc[index]
    if evidence is None:
        evidence = choice_evidence(doc, token_id, kind, targets)
    changes: list[Suggestion] = []
    if kind == Kind.CASE:
        form = _bare(token.surface)
        for j in targets:
            if starts_sentence(doc, j) or _start_proposed(doc, j):
                continue  # a sentence start's capital is the place's, not the word's
            t = doc[j]
            old = doc.suggestion(t.id, Kind.CASE)
            if old is not None and old.state != State.PENDING:
                continue
            lead, now = split_opening(t.surface or t.word)
            if not now:
                continue
            if old is None and (now == form or evidence[0] < UNPROPOSED_AGREE):
                continue  # reads as chosen and nothing proposes otherwise, or a choice made once
            made = _proposal(old, t.id, Kind.CASE, lead + form, lead + now, evidence)  # (now == form: keep it)
            if made is not None:
                changes.append(made)
    else:
        mark = token.punct
        for j in targets:
            t = doc[j]
            if t.punct not in PLAIN_MARKS:
                continue
            old = doc.suggestion(t.id, Kind.PUNCT)
            if old is not None and old.state != State.PENDING:
                continue
            if old is None and (t.punct == mark or evidence[0] < UNPROPOSED_AGREE):
                continue
            made = _proposal(old, t.id, Kind.PUNCT, mark, t.punct, evidence)
            if made is not None:
                changes.append(made)
    if not changes:
        return 0
    doc.set_suggestions(changes, text="Repeat your choice", merge_id=merge_id)
    return len(changes)


def decide(doc: Transcript, token_id: int, kind: Kind | str, *, accept: bool = True,
           value: str | None = None, repeat: bool = True) -> tuple[Suggestion, str, int]:
    """Accept (as a reviewer picks: see ``Transcript.pick``) or choose ``value``, or reject a
    suggestion (as a reviewer turns one down: ``Transcript.turn_down``), and with ``repeat``
    propagate the choice; one undo step. Turning down a proposal from the person's own choice
    repeats nothing (it says the choice does not hold there). Returns the decided suggestion,
    what happened next to it ("" if nothing) and how many others changed."""
    kind = Kind(kind)
    note = ""
    with doc.history.group("Accept suggestion" if accept else "Reject suggestion"):
        if accept:
            decided, note = doc.pick(token_id, kind, value)
        else:
            decided, note = doc.turn_down(token_id, kind)
        if kind == Kind.PUNCT:
            withdraw_start_capital(doc, token_id)
        n = propagate(doc, token_id, kind) if repeat and repeats(decided, accept) else 0
    return decided, note, n


def withdraw_start_capital(doc: Transcript, token_id: int, *, merge_id: object | None = None) -> int:
    """The mark after ``token_id`` now ends a sentence (typed, or decided): a capital on the word
    after it is the place's, not the word's, so the proposals from the person's choice that it
    made elsewhere, when it was typed before its mark ("Two" typed over "two", then the full stop
    before it), are withdrawn: Stet's own proposal is back where it had one, else nothing is
    proposed there (a withdrawal is no decision of the person's). Kept where another word of
    the same form mid-sentence reads so with no proposal pending on it (the form has other
    ground), and where the capital was Stet's proposal of a name's, which does not hang on a
    sentence start (``accept_rules.hangs_on_start``). One undo step (joined to the step before when ``merge_id`` is the same); returns
    how many proposals were withdrawn."""
    index = doc.index_of(token_id)
    if index + 1 >= len(doc) or not ends_sentence(doc[index].punct):
        return 0
    after = doc[index + 1]
    form = _bare(after.surface)
    if not form or form == form.lower():
        return 0
    own = doc.suggestion(after.id, Kind.CASE)
    if own is not None and own.state == State.ACCEPTED and not accept_rules.hangs_on_start(own):
        return 0  # a capital Stet proposed as a name's ("Okafor"): the word's, wherever it stands
    found = [j for j in doc.positions_of(after.word) if j != index + 1]
    # Only a pending proposal from the person's choice of this form is withdrawn: where none is
    # (nearly always), nothing changes, and looking at each word (6,000 of "the" in 100,000
    # words: 35 ms, on Enter) is skipped; what is on those words is gathered at C speed.
    if not any(s.kind == Kind.CASE and s.state == State.PENDING and s.source == CHOICE
               and _bare(s.value) == form for s in doc.suggestions_on([t.id for t in map(doc.tokens.__getitem__, found)])):
        return 0
    changes: list[tuple[tuple[int, Kind], Suggestion | None]] = []
    for j in found:
        t = doc[j]
        s = doc.suggestion(t.id, Kind.CASE)
        if s is not None and s.state == State.PENDING and s.source == CHOICE:
            if _bare(s.value) == form:
                back = accept_rules.turned_down(s, same_back=True)
                changes.append((s.key, back if back.state == State.PENDING else None))
        elif (_bare(t.surface) == form and (s is None or s.state != State.PENDING)
              and not starts_sentence(doc, j) and not _start_proposed(doc, j)):
            return 0  # the form stands mid-sentence elsewhere: the proposals have other ground
    return doc.push_changes(changes, "Withdraw a sentence start's capital", merge_id=merge_id)


def repeats(decided: Suggestion, accept: bool) -> bool:
    """Whether a decision repeats elsewhere: all but turning down a proposal from the person's
    own choice."""
    return accept or decided.source != CHOICE


def choice_proposals(doc: Transcript, start: int = 0, end: int | None = None) -> list[Suggestion]:
    """The pending proposals from the person's choice on words ``start:end``, in text order."""
    out = []
    for i in range(max(0, start), len(doc) if end is None else min(end, len(doc))):
        for s in doc.suggestion_view(doc[i].id).values():
            if s.state == State.PENDING and s.source == CHOICE:
                out.append(s)
    return out


def turn_down_choices(doc: Transcript, start: int = 0, end: int | None = None, *,
                      merge_id: object | None = None) -> int:
    """Turn down every pending proposal from the person's choice on words ``start:end``
    (``accept_rules.turned_down``: Stet's own proposal comes back where the choice stood in for
    one); one undo step, joined to the step before when ``merge_id`` is the same. Returns how
    many."""
    changes: list[tuple[tuple[int, Kind], Suggestion | None]] = [
        (s.key, accept_rules.turned_down(s, same_back=True)) for s in choice_proposals(doc, start, end)]
    return doc.push_changes(changes, "Reject all from your choice", merge_id=merge_id)


def keep_choices(doc: Transcript, made: Sequence[Suggestion]) -> list[Suggestion]:
    """A restoration pass's suggestions ``made`` as they go into ``doc``: where a pending proposal
    from the person's choice stands, it stays (a pass never takes it away unseen), with the
    pass's proposal kept to give back if the person turns the choice down there."""
    out = []
    for s in made:
        old = doc.suggestion(s.token_id, s.kind) if doc.has_token(s.token_id) else None
        if old is not None and old.state == State.PENDING and old.source == CHOICE:
            if old.original != s.value or accept_rules.model_probs(old) != dict(s.probs):
                # the choice's confidence, the pass's probabilities for the rest (what turning
                # the choice down gives back), never above the pass's likelier value
                p = old.confidence
                likelier = max((q for v, q in s.probs.items() if v != old.value), default=0.0)
                if likelier >= s.probs.get(old.value, 0.0):
                    p = min(p, likelier)
                out.append(Suggestion(old.token_id, old.kind, old.value, {**s.probs, old.value: p},
                                      source=CHOICE, original=s.value, needs_start=old.needs_start))
            continue
        out.append(s)
    return out


def shown(doc: Transcript, token: Token) -> tuple[str, str]:
    """A token's form (without opening quotes) and mark as the person sees them: a pending
    suggestion shows in the text."""
    case = doc.suggestion(token.id, Kind.CASE) if doc.has_token(token.id) else None
    punct = doc.suggestion(token.id, Kind.PUNCT) if doc.has_token(token.id) else None
    surface = case.value if case is not None and case.state == State.PENDING else (token.surface or token.word)
    mark = punct.value if punct is not None and punct.state == State.PENDING else token.punct
    return _bare(surface), mark


def typed_choices(before: Sequence[tuple[str, str, str]], after: Sequence[Token],
                  shown_after: Sequence[tuple[str, str]] | Callable[[Token], tuple[str, str]]
                  ) -> list[tuple[int, Kind]]:
    """The case and mark choices typed in a stretch of text: ``before`` holds (word, form, mark) as
    shown before the typing, ``after`` the stretch's tokens now and ``shown_after`` their
    (form, mark) as shown (or a function giving them for a token). A word found again with the
    same letters whose form or mark differs is a choice: (its token id, kind). A word that was
    retyped into another word is not, nor is one typed or pasted anew.

    The stretch was edited in one place, so the words that lead and end it are matched where they
    stand first, and only the rest by difflib: a pasted paragraph holding the same words as those
    around the caret ("form no") would otherwise be matched to them, and its plain forms taken
    for capitals the person undid and repeated over the whole document."""
    out: list[tuple[int, Kind]] = []

    def compare(i: int, j: int) -> None:
        (_w, form, mark), token = before[i], after[j]
        now_form, now_mark = shown_after(token) if callable(shown_after) else shown_after[j]
        if now_form != form and now_form.lower() == form.lower():
            out.append((token.id, Kind.CASE))
        if now_mark != mark and now_mark in PLAIN_MARKS and mark in PLAIN_MARKS:
            out.append((token.id, Kind.PUNCT))

    n, m = len(before), len(after)
    head = 0
    while head < min(n, m) and before[head][0].lower() == after[head].word.lower():
        head += 1
    tail = 0
    while tail < min(n, m) - head and before[n - 1 - tail][0].lower() == after[m - 1 - tail].word.lower():
        tail += 1
    for k in range(head):
        compare(k, k)
    middle_before, middle_after = before[head:n - tail], after[head:m - tail]
    if middle_before and middle_after:
        matcher = difflib.SequenceMatcher(None, [w.lower() for w, _f, _m in middle_before],
                                          [t.word.lower() for t in middle_after], autojunk=False)
        for tag, i1, i2, j1, _j2 in matcher.get_opcodes():
            if tag == "equal":
                for k in range(i2 - i1):
                    compare(head + i1 + k, head + j1 + k)
    for k in range(tail, 0, -1):
        compare(n - k, m - k)
    return out


def snapshot_shown(doc: Transcript, start: int, end: int) -> list[tuple[str, str, str]]:
    """(word, form, mark) of tokens ``start:end`` as shown: the ``before`` of `repeat_typed`."""
    return [(t.word, *shown(doc, t)) for t in doc.tokens[max(0, start):max(0, end)]]


def repeat_typed(doc: Transcript, before: Sequence[tuple[str, str, str]], start: int, end: int,
                 done: set[tuple[str, Kind, str]] | None = None) -> int:
    """Repeat the forms and marks typed in tokens ``start:end`` (which read as ``before`` before
    the typing: see `snapshot_shown`) elsewhere, as a choice is. Call it inside the typing's history
    group so that one undo takes both back. ``done``: (word, kind, value) already repeated in this
    run of typing, not repeated again. Returns how many suggestions changed."""
    n = 0
    for token_id, kind in typed_to_repeat(doc, before, start, end, done):
        if kind == Kind.PUNCT:
            withdraw_start_capital(doc, token_id)
        n += propagate(doc, token_id, kind)
    return n


def typed_to_repeat(doc: Transcript, before: Sequence[tuple[str, str, str]], start: int, end: int,
                    done: set[tuple[str, Kind, str]] | None = None) -> list[tuple[int, Kind]]:
    """The choices typed in tokens ``start:end`` that `repeat_typed` repeats, as (token id,
    kind), each marked in ``done``: for an editor that repeats one on many words a slice of
    them at a time (`repeat_targets`, `repeat_on`)."""
    tokens = doc.tokens[max(0, start):max(0, end)]
    out = []
    # (shown only for the words matched: a paste of thousands of new words needs none of theirs)
    for token_id, kind in typed_choices(before, tokens, lambda t: shown(doc, t)):
        t = doc.token(token_id)
        key = (t.word, kind, t.punct if kind == Kind.PUNCT else (t.surface or t.word))
        if done is not None:
            if key in done:
                continue
            done.add(key)
        out.append((token_id, kind))
    return out


def review_decisions(doc: Transcript) -> list[ReviewDecision]:
    """The person's decisions in the document (accepted or rejected suggestions), in text order."""
    out = []
    for s in doc.suggestions(order="position"):
        if s.state == State.PENDING or s.kind == Kind.BREAK:
            continue
        i = doc.index_of(s.token_id)
        t = doc[i]
        out.append(ReviewDecision(i, t.word, _bare(t.surface), t.punct, starts_sentence(doc, i), s.kind, s.state,
                                  s.value, doc[i + 1].word if i + 1 < len(doc) else None))
    return out


def user_forms(doc: Transcript) -> dict[str, str]:
    """Case forms the person chose or wrote mid-sentence that differ from plain lowercase and from
    what a capital at a sentence start gives ("okafor" -> "Okafor", "ipad" -> "iPad"), where every
    mid-sentence occurrence in the document agrees: for the user lexicon (so only what can be an
    entry of it: one word of at most `editor.core.review.lexicon.MAX_WORD` characters)."""
    return forms_of(doc.tokens, lambda token_id: doc.suggestion_view(token_id).get(Kind.CASE),
                    lambda token_id: doc.suggestion_view(token_id).get(Kind.PUNCT))


def forms_of(tokens: Sequence[Token], case_of: Callable[[int], Suggestion | None],
             mark_of: Callable[[int], Suggestion | None] | None = None,
             authored: Mapping[int, str] | None = None, least: int = 1) -> dict[str, str]:
    """`user_forms` of a document's tokens and its case and mark suggestions by token id
    (``case_of``, ``mark_of``): copies of them, read on the thread that writes a project while
    the person goes on. A word after a pending proposal of an end mark starts a sentence as the
    text shows it: its capital is no form of the person's ("maria And today" mid-review).
    ``authored``: the forms the words had when the document was opened, by token id; a word that
    still stands so without a case suggestion is the author's form, not one the person chose
    (the source's "George Washington Bridge" teaches the lexicon nothing). ``least``: how many
    mid-sentence occurrences a form needs."""
    seen: dict[str, set[str]] = {}
    count: dict[str, int] = {}
    chosen: set[str] = set()  # decided mid-sentence: a case suggestion, or a form typed where none was
    starts = True
    for t in tokens:  # one pass
        mark = mark_of(t.id) if mark_of is not None else None
        mid, starts = not starts, ends_sentence(t.punct) or (
            mark is not None and mark.state == State.PENDING and ends_sentence(mark.value))
        if not mid:
            continue
        form = _bare(t.surface)
        word = t.word.lower()
        if form and any(ch.isalpha() for ch in form) and form.lower() == word:
            seen.setdefault(word, set()).add(form)
            count[word] = count.get(word, 0) + 1
        case = case_of(t.id)
        if (case.state != State.PENDING) if case is not None else (
                form != t.word and (authored is None or authored.get(t.id) != t.surface)):
            chosen.add(word)
    return {w: next(iter(f)) for w, f in seen.items()
            if len(f) == 1 and w in chosen and next(iter(f)) != w and is_entry(w, next(iter(f)))
            and count[w] >= least}

