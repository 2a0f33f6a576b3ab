"""A decision made once is proposed everywhere it applies (editor.core.review.repeat_choices)."""

import pytest

from editor.core.document.transcript import Kind, State, Suggestion, Transcript
from editor.core.formats.stet import read_stet
from editor.core.project_writer import write_stet
from editor.core.review.repeat_choices import decide, propagate, review_decisions, user_forms
from editor.core.review import repeat_choices


@pytest.fixture(autouse=True)
def _once_is_enough(monkeypatch):
    """These tests are about what a choice does where it repeats; a choice made once repeats here
    even where Stet proposed nothing (the rule asks twice there: tests/core/review/test_repeat_evidence.py)."""
    monkeypatch.setattr(repeat_choices, "UNPROPOSED_AGREE", 1)


def _doc(text: str) -> Transcript:
    return Transcript.from_words(text.split())


def _case(doc: Transcript, i: int, value: str, p: float = 0.6) -> Suggestion:
    t = doc[i]
    return Suggestion(t.id, Kind.CASE, value, {value: p, t.word: 1 - p})


def test_a_case_choice_is_proposed_for_the_same_word_elsewhere():
    doc = _doc("we met okafor today and okafor said hello then we saw okafor again")
    doc.set_suggestions([_case(doc, 2, "Okafor")])
    s, _note, n = decide(doc, doc[2].id, Kind.CASE)
    assert s.state == State.ACCEPTED and doc[2].surface == "Okafor"
    assert n == 2
    for i in (5, 11):
        sug = doc.suggestion(doc[i].id, Kind.CASE)
        assert sug is not None and sug.value == "Okafor" and sug.source == "choice"
        assert sug.state == State.PENDING  # proposed, not applied
        assert doc[i].surface == "okafor"


def test_one_undo_takes_back_the_decision_and_what_it_repeated():
    doc = _doc("we met okafor today and okafor said hello")
    doc.set_suggestions([_case(doc, 2, "Okafor")])
    decide(doc, doc[2].id, Kind.CASE)
    assert doc.suggestion(doc[5].id, Kind.CASE) is not None
    doc.history.undo()
    assert doc[2].surface == "okafor"
    assert doc.suggestion(doc[2].id, Kind.CASE).state == State.PENDING
    assert doc.suggestion(doc[5].id, Kind.CASE) is None
    doc.history.redo()
    assert doc.suggestion(doc[5].id, Kind.CASE).source == "choice"


def test_a_capital_at_a_sentence_start_teaches_nothing():
    doc = Transcript.from_text("The cat sat. The dog ran and the bird sang.")
    the = [i for i, t in enumerate(doc.tokens) if t.word == "the"]
    doc.set_suggestions([_case(doc, the[1], "THE")])
    _, _note, n = decide(doc, doc[the[1]].id, Kind.CASE)
    assert n == 0
    assert doc.suggestion(doc[the[2]].id, Kind.CASE) is None


def test_a_capital_where_a_sentence_end_is_proposed_teaches_nothing():
    """Reviewing the raw sample by Tab and Enter (or least confident first), the capital of "And"
    after "Maria" was accepted while the full stop before it still waited: "And" was then proposed
    at 100 % wherever "and" stood ("toasters, And one man"), and "The", "You" the same way."""
    # ("today the" twice: a capital on a common word repeats only after the same word)
    doc = _doc("i'm maria and today the cafe opens and today the doors and tea")
    doc.set_suggestions([Suggestion(doc[1].id, Kind.PUNCT, ".", {".": 0.55, "": 0.45}),
                         _case(doc, 2, "And", 0.7), _case(doc, 4, "The", 0.6)])
    _, note, n = decide(doc, doc[2].id, Kind.CASE)  # the "." before it still pending
    assert doc[2].surface == "And" and n == 0
    assert doc[1].punct == "." and "accepted the ‘.’ before it" in note  # both halves
    assert all(doc.suggestion(doc[i].id, Kind.CASE) is None for i in (7, 11))
    doc.reject(doc[1].id, Kind.PUNCT)  # no sentence end proposed there now: a choice of form
    _, _note, n = decide(doc, doc[4].id, Kind.CASE)
    assert n == 1 and doc.suggestion(doc[9].id, Kind.CASE).value == "The"


def test_a_capital_accepted_where_a_sentence_end_is_proposed_is_no_form_to_remember(tmp_path):
    """Saved mid-review with "And" accepted and the full stop before it still pending, the words
    read "maria And today": the user lexicon learned "And" (and "Welcome", "One" the same way),
    and every later restoration capitalised them mid-sentence."""
    from editor.core.formats import read_any
    from editor.core.project_writer import ProjectWriter
    from editor.core.recovery.state import DocumentTracker

    doc = _doc("i'm maria and today we met okafor")
    doc.set_suggestions([Suggestion(doc[1].id, Kind.PUNCT, ".", {".": 0.55, "": 0.45}),
                         _case(doc, 2, "And", 0.7), _case(doc, 6, "Okafor", 0.9)])
    doc.accept(doc[2].id, Kind.CASE)
    doc.accept(doc[6].id, Kind.CASE)
    assert user_forms(doc) == {"okafor": "Okafor"}
    ProjectWriter().write(DocumentTracker(doc).capture(), tmp_path / "p.stet")  # as a save writes it
    assert read_any(tmp_path / "p.stet").metadata.extra.get("lexicon") == {"okafor": "Okafor"}


def test_a_rejected_capital_proposes_keeping_the_word_elsewhere_but_keeps_decided_ones():
    """A rejection carried elsewhere is a pending "keep as is" proposal there, never a silent
    removal of Stet's proposal (issue #41: one Delete took 30 suggestions away unseen)."""
    doc = _doc("i like apple pie and apple juice and apple cake")
    apples = [i for i, t in enumerate(doc.tokens) if t.word == "apple"]
    doc.set_suggestions([_case(doc, i, "Apple") for i in apples])
    doc.accept(doc[apples[2]].id, Kind.CASE)  # the person wanted this one capitalised
    pending = doc.pending_count
    _, _note, n = decide(doc, doc[apples[0]].id, Kind.CASE, accept=False)
    assert n == 1
    keep = doc.suggestion(doc[apples[1]].id, Kind.CASE)
    assert keep.state == State.PENDING and keep.source == "choice"
    assert keep.value == "apple" and keep.original == "Apple"  # Stet's, to give back if turned down
    assert doc.pending_count == pending - 1  # only the one decided
    assert doc.suggestion(doc[apples[2]].id, Kind.CASE).state == State.ACCEPTED
    assert doc[apples[2]].surface == "Apple"


def test_a_mark_choice_is_repeated_for_the_same_word_pair():
    doc = _doc("i stayed because it rained and i stayed because it snowed and we stayed because why not")
    becauses = [i - 1 for i, t in enumerate(doc.tokens) if t.word == "because"]
    doc.set_suggestions([Suggestion(doc[i].id, Kind.PUNCT, ",", {",": 0.55, "": 0.45}) for i in becauses])
    _, _note, n = decide(doc, doc[becauses[0]].id, Kind.PUNCT, accept=False)
    assert n == 2
    for i in becauses[1:]:  # proposed: keep "stayed because" without a comma
        keep = doc.suggestion(doc[i].id, Kind.PUNCT)
        assert keep.state == State.PENDING and keep.source == "choice" and keep.value == ""
    assert [t.punct for t in doc.tokens] == [""] * len(doc)


def test_a_chosen_mark_is_proposed_where_the_model_proposed_nothing():
    doc = _doc("well you know it works well you know")
    doc.set_suggestions([Suggestion(doc[0].id, Kind.PUNCT, ",", {",": 0.7, "": 0.3})])
    _, _note, n = decide(doc, doc[0].id, Kind.PUNCT)
    assert n == 1
    sug = doc.suggestion(doc[5].id, Kind.PUNCT)
    assert sug.value == "," and sug.source == "choice" and doc[5].punct == ""


def test_repeat_can_be_turned_off():
    doc = _doc("okafor and okafor")
    doc.set_suggestions([_case(doc, 2, "Okafor")])
    _, _note, n = decide(doc, doc[2].id, Kind.CASE, repeat=False)
    assert n == 0 and doc.suggestion(doc[0].id, Kind.CASE) is None


def test_propagate_ignores_an_edited_word():
    doc = _doc("we met okafor and okafor")
    doc.edit_token(2, surface="Okoro")
    assert propagate(doc, doc[2].id, Kind.CASE) == 0


def test_the_source_survives_a_project_round_trip(tmp_path):
    doc = _doc("we met okafor and okafor left")
    doc.set_suggestions([_case(doc, 2, "Okafor")])
    decide(doc, doc[2].id, Kind.CASE)
    write_stet(doc, tmp_path / "x.stet")
    back = read_stet(tmp_path / "x.stet")
    assert back.suggestion(back[4].id, Kind.CASE).source == "choice"
    assert back.suggestion(back[2].id, Kind.CASE).source == "model"


def test_review_decisions_and_user_forms():
    doc = _doc("we met okafor and okafor left with the ipad")
    doc.set_suggestions([_case(doc, 2, "Okafor"), _case(doc, 8, "Ipad")])
    decide(doc, doc[2].id, Kind.CASE)
    decide(doc, doc[8].id, Kind.CASE, value="iPad")
    decided = review_decisions(doc)
    assert [(d.word, d.kind, d.state) for d in decided] == [("okafor", Kind.CASE, State.ACCEPTED),
                                                            ("ipad", Kind.CASE, State.ACCEPTED)]
    # the second okafor still reads lowercase: the forms disagree until it is accepted too
    assert user_forms(doc) == {"ipad": "iPad"}
    decide(doc, doc[4].id, Kind.CASE)
    assert user_forms(doc) == {"ipad": "iPad", "okafor": "Okafor"}


def test_a_typed_capital_and_a_typed_mark_are_repeated_as_choices():
    from editor.core.review.repeat_choices import repeat_typed, snapshot_shown

    doc = _doc("we met okafor today because okafor said so today because we asked")
    before = snapshot_shown(doc, 1, 4)
    with doc.history.group("Typing"):
        doc.replace_span(1, 4, "met Okafor today")
        n = repeat_typed(doc, before, 1, 4)
    assert n == 1
    sug = doc.suggestion(doc[5].id, Kind.CASE)
    assert sug is not None and sug.value == "Okafor" and sug.source == "choice" and sug.state == State.PENDING
    doc.history.undo()  # one step takes the typing and what it repeated
    assert doc[2].surface == "okafor" and doc.suggestion(doc[5].id, Kind.CASE) is None
    # a comma typed in "today because" is proposed in the other "today because"
    before = snapshot_shown(doc, 2, 5)
    doc.replace_span(2, 5, "okafor today, because")
    assert repeat_typed(doc, before, 2, 5) == 1
    assert doc.suggestion(doc[8].id, Kind.PUNCT).value == ","


def test_a_retyped_word_or_an_unchanged_one_teaches_nothing():
    from editor.core.review.repeat_choices import repeat_typed, snapshot_shown, typed_choices

    doc = _doc("we met okafor and okafor left")
    before = snapshot_shown(doc, 1, 4)
    doc.replace_span(1, 4, "met Ozafor and")  # another word: not a case choice
    assert repeat_typed(doc, before, 1, 4) == 0
    assert doc.suggestion(doc[4].id, Kind.CASE) is None
    assert typed_choices(snapshot_shown(doc, 0, 3), doc.tokens[0:3], [("we", ""), ("met", ""), ("Ozafor", "")]) == []


def test_a_pasted_stretch_holding_the_words_around_the_caret_teaches_nothing():
    """Pasting "form no" after "form" (shown "Form", "No": proposed capitals) must not match the
    pasted plain words to those around the caret and repeat "form" and "no" as choices."""
    from editor.core.review.repeat_choices import repeat_typed, snapshot_shown

    doc = _doc("the sign-up form no later form no one")
    doc.set_suggestions([_case(doc, 2, "Form"), _case(doc, 3, "No"), _case(doc, 5, "Form"),
                         _case(doc, 6, "No")])
    before = snapshot_shown(doc, 1, 4)
    with doc.history.group("Typing"):
        new = doc.replace_span(2, 3, "Form we filled the sign-up form no less")
        n = repeat_typed(doc, before, 1, new.stop + 1)
    assert n == 0
    for i in (new.stop, len(doc) - 3, len(doc) - 2):  # the "no" after the paste, the later ones
        assert doc.suggestion(doc[i].id, Kind.CASE).source == "model"


def test_a_typed_capital_counts_only_once_in_a_run_of_typing():
    from editor.core.review.repeat_choices import repeat_typed, snapshot_shown

    doc = _doc("we met okafor and okafor left")
    before, done = snapshot_shown(doc, 1, 4), set()
    doc.replace_span(1, 4, "met Okafor and")
    assert repeat_typed(doc, before, 1, 4, done) == 1
    doc.accept(doc[4].id, Kind.CASE)
    assert repeat_typed(doc, before, 1, 4, done) == 0  # already repeated


def test_a_form_too_long_for_the_lexicon_is_not_offered_to_it():
    """A link or path the restorer capitalised and the person accepted is no lexicon entry: the
    save's learning must not fail on it (the lexicon refuses entries over 100 characters)."""
    from editor.core.review.repeat_choices import user_forms
    from editor.core.review.lexicon import UserLexicon

    long = "cleaned_ted_data/titles_starting_a_to_o/" * 3
    doc = Transcript.from_words(["we", "read", long, "and", "met", "okafor"])
    doc.set_suggestions([Suggestion(doc[2].id, Kind.CASE, long.capitalize(), {long.capitalize(): 0.6, long: 0.4}),
                         Suggestion(doc[5].id, Kind.CASE, "Okafor", {"Okafor": 0.6, "okafor": 0.4})])
    doc.accept(doc[2].id, Kind.CASE)
    doc.accept(doc[5].id, Kind.CASE)
    forms = user_forms(doc)
    assert forms == {"okafor": "Okafor"}
    assert UserLexicon().learn(forms) == ["okafor"]


def test_a_choice_repeats_a_slice_of_words_at_a_time_as_one_undo_step():
    from editor.core.document.transcript import Kind, State, Suggestion, Transcript
    from editor.core.review.repeat_choices import propagate, repeat_on, repeat_targets

    words = ("we met okafor there and " * 50).split()
    doc = Transcript.from_words(words)
    first = doc[2]
    doc.set_suggestions([Suggestion(first.id, Kind.CASE, "Okafor", {"Okafor": 0.7, "okafor": 0.3})])
    doc.accept(first.id, Kind.CASE)
    targets = repeat_targets(doc, first.id, Kind.CASE)
    assert targets == [i for i, w in enumerate(words) if w == "okafor" and i != 2]  # none starts a sentence
    steps = len(doc.history)
    for k in range(0, len(targets), 7):
        repeat_on(doc, first.id, Kind.CASE, targets[k:k + 7], merge_id="slices")
    assert len(doc.history) == steps + 1
    repeated = [doc.suggestion(doc[i].id, Kind.CASE) for i in targets]
    assert all(s is not None and s.value == "Okafor" and s.source == "choice" and s.state == State.PENDING
               for s in repeated)
    doc.history.undo()
    assert all(doc.suggestion(doc[i].id, Kind.CASE) is None for i in targets)
    assert propagate(doc, first.id, Kind.CASE) == len(targets)  # the same, at once
