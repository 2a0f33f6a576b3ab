"""The review rules as functions of tokens and suggestions, without a transcript."""

from editor.core.document.records import Kind, State, Suggestion, Token
from editor.core.review.accept_rules import POSITION_FREE_CAPITAL, next_case_step, next_pending, pending_to_apply


def capital(token_id, value="We", lower=0.3, state=State.PENDING, original=None):
    return Suggestion(token_id, Kind.CASE, value, {value: 1 - lower, value.lower(): lower}, state=state,
                      original=original)


def test_an_end_mark_capitalises_the_next_word_unless_a_capital_is_proposed_there():
    """A proposed capital stays pending, the person's to decide (issue #41: accepting the full
    stop leaves the capital as it is); a word with none is capitalised ("Later. we" never stands),
    as is one whose capital was turned down before."""
    we = Token("we", id=1)
    step = next_case_step(we, capital(1), sentence_end=True)
    assert step.action == "" and "‘We’" in step.note
    assert next_case_step(we, capital(1, state=State.REJECTED), sentence_end=True)[:2] == ("accept", "capitalised ‘We’")
    assert next_case_step(we, None, sentence_end=True) == ("edit", "capitalised ‘We’", "We")
    quoted = Token("we", '"we', id=1)
    assert next_case_step(quoted, None, sentence_end=True).surface == '"We'


def test_another_mark_takes_back_a_capital_that_hangs_on_the_sentence_start():
    we = Token("we", id=1)
    assert next_case_step(we, capital(1), sentence_end=False)[:2] == ("reject", "left ‘we’ in lower case")
    accepted = Token("we", "We", id=1)
    step = next_case_step(accepted, capital(1, state=State.ACCEPTED, original="we"), sentence_end=False)
    assert step[:2] == ("reject", "lowercased ‘we’")
    name = Token("paris", id=1)
    assert next_case_step(name, capital(1, "Paris", lower=POSITION_FREE_CAPITAL / 2), sentence_end=False).action == ""


def test_a_capital_waits_for_the_end_mark_before_it_and_next_pending_walks_the_tokens():
    tokens = [Token("so", id=0), Token("we", id=1)]
    end = Suggestion(0, Kind.PUNCT, ".", {".": 0.6, "": 0.4})
    table = {0: {Kind.PUNCT: end}, 1: {Kind.CASE: capital(1)}}
    assert pending_to_apply(tokens, table, 0.9) == []  # the end mark stays pending: so does the capital
    assert pending_to_apply(tokens, table, 0.5) == [end, table[1][Kind.CASE]]
    assert next_pending(tokens, table) is end
    assert next_pending(tokens, table, 0) is table[1][Kind.CASE]
    assert next_pending(tokens, table, 2, reverse=True, kind=Kind.PUNCT) is end


def test_a_capital_of_a_word_that_is_no_name_waits_for_its_sentence_end_however_sure():
    """"Boy, You there": the model was 99 % sure of "You" because it half believed a sentence
    ended, so the probability alone let the capital through without the end mark. A capital the
    names lexicon marks ``needs_start`` waits for it, and picking a comma takes it back; a name
    keeps its capital."""
    tokens = [Token("boy", id=0), Token("you", id=1), Token("paris", id=2)]
    end = Suggestion(0, Kind.PUNCT, ".", {".": 0.6, "": 0.4})
    sure = Suggestion(1, Kind.CASE, "You", {"You": 0.99, "you": 0.01}, needs_start=True)
    loose = Suggestion(1, Kind.CASE, "You", {"You": 0.99, "you": 0.01})
    assert pending_to_apply(tokens, {0: {Kind.PUNCT: end}, 1: {Kind.CASE: loose}}, 0.9) == [loose]
    assert pending_to_apply(tokens, {0: {Kind.PUNCT: end}, 1: {Kind.CASE: sure}}, 0.9) == []
    assert pending_to_apply(tokens, {0: {Kind.PUNCT: end}, 1: {Kind.CASE: sure}}, 0.5) == [end, sure]
    assert next_case_step(tokens[1], sure, sentence_end=False)[:2] == ("reject", "left ‘you’ in lower case")
    assert next_case_step(tokens[1], loose, sentence_end=False).action == ""
    paris = Suggestion(2, Kind.CASE, "Paris", {"Paris": 0.99, "paris": 0.01})
    assert next_case_step(tokens[2], paris, sentence_end=False).action == ""


def test_accepting_all_applies_a_capital_only_with_the_mark_it_follows():
    """A capital and the mark pending before it are one decision (issue #48): where the mark
    applied is a comma, "Boy, We" never stands; where the mark waits, so does the capital."""
    tokens = [Token("so", id=0), Token("we", id=1)]
    comma = Suggestion(0, Kind.PUNCT, ",", {",": 0.7, ".": 0.2, "": 0.1})
    we = capital(1, lower=0.1)
    assert pending_to_apply(tokens, {0: {Kind.PUNCT: comma}, 1: {Kind.CASE: we}}, 0.5) == [comma]
    assert pending_to_apply(tokens, {0: {Kind.PUNCT: comma}, 1: {Kind.CASE: we}}, 0.8) == []
    assert pending_to_apply(tokens, {0: {Kind.PUNCT: comma}, 1: {Kind.CASE: we}}, 0.8, kind=Kind.CASE) == []
    end = Suggestion(0, Kind.PUNCT, ".", {".": 0.7, "": 0.3})
    assert pending_to_apply(tokens, {0: {Kind.PUNCT: end}, 1: {Kind.CASE: we}}, 0.5) == [end, we]
