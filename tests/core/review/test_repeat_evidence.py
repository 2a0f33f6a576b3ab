"""Where Stet proposed nothing, a choice repeats only once the person has made it twice
(editor.core.review.repeat_choices.UNPROPOSED_AGREE): one "point A" does not put "A" on every
article; where Stet proposed something, one choice stands in for its proposal at once."""

from editor.core.document.transcript import Kind, State, Suggestion, Transcript
from editor.core.review.repeat_choices import UNPROPOSED_AGREE, decide


def _doc(text: str) -> Transcript:
    return Transcript.from_words(text.split())


def _case(doc: Transcript, i: int, value: str, p: float = 0.6) -> Suggestion:
    t = doc[i]
    return Suggestion(t.id, Kind.CASE, value, {value: p, t.word: 1 - p})


def test_the_rule_asks_two_decisions():
    assert UNPROPOSED_AGREE == 2


def test_a_capital_chosen_once_is_not_proposed_where_stet_proposed_nothing():
    doc = _doc("from point a to a place near a river")
    doc.set_suggestions([_case(doc, 2, "A")])
    _s, _note, n = decide(doc, doc[2].id, Kind.CASE)
    assert doc[2].surface == "A" and n == 0
    assert all(doc.suggestion(doc[i].id, Kind.CASE) is None for i in (4, 7))


def test_a_capital_chosen_twice_is_proposed_where_stet_proposed_nothing():
    doc = _doc("we met okafor today and okafor said hello then we saw okafor again")
    doc.set_suggestions([_case(doc, 2, "Okafor"), _case(doc, 5, "Okafor")])
    assert decide(doc, doc[2].id, Kind.CASE)[2] == 1  # once: only Stet's proposal at 5 is the choice's
    assert doc.suggestion(doc[11].id, Kind.CASE) is None
    _s, _note, n = decide(doc, doc[5].id, Kind.CASE)  # twice: the rest get it
    assert n == 1
    sug = doc.suggestion(doc[11].id, Kind.CASE)
    assert sug.value == "Okafor" and sug.source == "choice" and sug.state == State.PENDING
    assert doc[11].surface == "okafor"  # proposed, not applied


def test_a_choice_made_once_stands_in_for_stets_own_proposal():
    doc = _doc("we met okafor today and okafor said hello")
    doc.set_suggestions([_case(doc, 2, "Okafor"), _case(doc, 5, "OKAFOR", 0.55)])
    assert decide(doc, doc[2].id, Kind.CASE)[2] == 1
    sug = doc.suggestion(doc[5].id, Kind.CASE)
    assert sug.value == "Okafor" and sug.source == "choice" and sug.original == "OKAFOR"


def test_a_mark_chosen_once_is_proposed_only_where_stet_proposed_a_mark_and_twice_everywhere():
    doc = _doc("well you know it works well you know it is well you know")
    doc.set_suggestions([Suggestion(doc[0].id, Kind.PUNCT, ",", {",": 0.7, "": 0.3}),
                         Suggestion(doc[5].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})])
    decide(doc, doc[0].id, Kind.PUNCT)
    assert doc.suggestion(doc[10].id, Kind.PUNCT) is None
    assert doc.suggestion(doc[5].id, Kind.PUNCT).source == "choice"
    decide(doc, doc[5].id, Kind.PUNCT)
    sug = doc.suggestion(doc[10].id, Kind.PUNCT)
    assert sug.value == "," and sug.source == "choice" and doc[10].punct == ""
