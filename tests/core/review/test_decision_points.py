"""Decision points: which pending suggestions a reviewer decides together, in reading order."""

from editor.core.document.records import Kind, State, Suggestion, Token
from editor.core.review.decision_points import (
    DecisionPoint, capital_follows, count_decisions, decision_count, decision_points, next_point, point_of)


def mark(token_id, value=".", p=0.6, state=State.PENDING):
    other = "," if value == "." else "."
    return Suggestion(token_id, Kind.PUNCT, value, {value: p, other: (1 - p) * 0.7, "": (1 - p) * 0.3}, state=state)


def capital(token_id, value="We", lower=0.3, state=State.PENDING):
    return Suggestion(token_id, Kind.CASE, value, {value: 1 - lower, value.lower(): lower}, state=state)


def brk(token_id):
    return Suggestion(token_id, Kind.BREAK, "¶", {"¶": 0.7, "": 0.3})


def table(*suggestions):
    out = {}
    for s in suggestions:
        out.setdefault(s.token_id, {})[s.kind] = s
    return out


WORDS = [Token("so", id=0), Token("we", id=1), Token("went", id=2), Token("to", id=3), Token("paris", id=4)]


def test_a_sentence_end_and_the_capital_after_it_are_one_point():
    end, we = mark(0), capital(1)
    points = decision_points(WORDS, table(end, we))
    assert points == [DecisionPoint(0, end, we)]
    assert points[0].suggestions == (end, we) and points[0].keys == ((0, Kind.PUNCT), (1, Kind.CASE))
    assert points[0].confidence == end.confidence and points[0].position == (0, 2)
    # whichever half is asked about, the point is the same
    assert point_of(WORDS, table(end, we), 1, Kind.CASE) == points[0]
    assert point_of(WORDS, table(end, we), 0, Kind.PUNCT) == points[0]


def test_the_capital_follows_the_mark_chosen():
    we = capital(1)
    point = DecisionPoint(0, mark(0), we)
    assert point.capital_after(".") and point.capital_after("?") and point.capital_after("!")
    assert not point.capital_after(",") and not point.capital_after("")
    # a proposal to lower a capital follows the other way round
    lowered = Suggestion(1, Kind.CASE, "we", {"we": 0.8, "We": 0.2})
    assert capital_follows(lowered, ",") and not capital_follows(lowered, ".")
    assert not DecisionPoint(0, mark(0)).capital_after(".")  # no capital: nothing follows


def test_a_capital_alone_where_no_mark_before_it_is_pending():
    we = capital(1)
    decided = mark(0, state=State.ACCEPTED)
    assert decision_points(WORDS, table(we)) == [DecisionPoint(1, we)]
    assert decision_points(WORDS, table(decided, we)) == [DecisionPoint(1, we)]
    assert point_of(WORDS, table(we), 1, Kind.CASE) == DecisionPoint(1, we)


def test_a_name_keeps_its_capital_whatever_the_mark_and_is_decided_alone():
    comma = mark(3, ",")
    paris = Suggestion(4, Kind.CASE, "Paris", {"Paris": 0.995, "paris": 0.005})
    assert decision_points(WORDS, table(comma, paris)) == [DecisionPoint(3, comma), DecisionPoint(4, paris)]


def test_a_comma_proposed_before_a_capital_still_takes_it_along():
    """The capital hangs on the mark before it whatever that mark proposes: the digit or Enter
    decides the mark, and the capital follows it (a comma drops it)."""
    comma, we = mark(0, ","), capital(1)
    point, = decision_points(WORDS, table(comma, we))
    assert point.capital is we and not point.capital_after(comma.value)


def test_a_word_already_capitalised_is_no_capital_to_decide():
    """A case suggestion that keeps the first letter as it is (a change inside the word) is no
    capital that follows a mark."""
    words = [Token("so", id=0), Token("we", "We", id=1)]
    same = Suggestion(1, Kind.CASE, "WE", {"WE": 0.6, "We": 0.4})
    end = mark(0)
    assert decision_points(words, table(end, same)) == [DecisionPoint(0, end), DecisionPoint(1, same)]


def test_reading_order_a_break_between_a_mark_and_its_capital():
    """"so. ¶ We went, to": the mark (with the capital after it) comes first, then the paragraph
    break before the next word, then that word's own mark."""
    end, we, para, comma = mark(0), capital(1), brk(1), mark(1, ",")
    sugg = table(end, we, para, comma)
    points = decision_points(WORDS, sugg)
    assert [p.lead for p in points] == [end, para, comma] and points[0].capital is we
    # Tab from the break goes to the same word's mark, never past it
    assert next_point(WORDS, sugg, points[1].position) == points[2]
    assert next_point(WORDS, sugg, points[2].position, reverse=True) == points[1]
    assert next_point(WORDS, sugg, points[1].position, reverse=True) == points[0]
    assert next_point(WORDS, sugg) == points[0]
    assert next_point(WORDS, sugg, reverse=True) == points[2]
    assert next_point(WORDS, sugg, points[2].position) is None
    assert next_point(WORDS, sugg, wanted=lambda p: p.lead.kind == Kind.BREAK) == points[1]
    # a slice of words: a point belongs to the word of its lead
    assert decision_points(WORDS, sugg, 1) == points[1:]
    assert decision_points(WORDS, sugg, 0, 1) == points[:1]


def test_count_decisions_counts_a_sentence_end_and_its_capital_once():
    end, we, comma = mark(0), capital(1), mark(2, ",")
    points = decision_points(WORDS, table(end, we, comma))
    assert len(points) == 2
    assert count_decisions(points, {end.key, we.key, comma.key}) == 2
    assert count_decisions(points, {we.key}) == 1
    assert count_decisions(points, set()) == 0


def test_decision_count_counts_a_capital_with_its_mark_across_slices():
    """Accept-all chooses a slice of words at a time: a capital at the start of one slice whose
    sentence end closed the slice before is counted with that end, and only where the end is
    itself chosen (at or above the threshold)."""
    end, we, comma = mark(0, p=0.8), capital(1), mark(2, ",", p=0.6)
    sugg = table(end, we, comma)
    index_of = {t.id: i for i, t in enumerate(WORDS)}.__getitem__
    assert decision_count(WORDS, sugg, [end, we, comma], index_of) == 2
    assert decision_count(WORDS, sugg, [we, comma], index_of) == 1  # (the end was in the slice before)
    assert decision_count(WORDS, sugg, [we], index_of, min_confidence=0.9) == 1  # the end is not chosen
    paris = Suggestion(4, Kind.CASE, "Paris", {"Paris": 0.995, "paris": 0.005})
    assert decision_count(WORDS, table(mark(3), paris), [mark(3), paris], index_of) == 2  # a name: alone
