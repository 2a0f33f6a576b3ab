"""Where a suggestion is heard: the pause at its place, the passage around it, its sentence."""

from __future__ import annotations

import pytest

from editor.core import Kind, Suggestion, Token, Transcript
from editor.core.review.listening import pause_at, passage, sentence

WORDS = [("so", 0.0, 0.4), ("the", 0.5, 0.7), ("seed", 0.8, 1.2), ("library", 1.3, 1.9),
         ("opens", 2.52, 2.8), ("today", 2.9, 3.3)]


def doc_with(*suggestions: tuple[int, Kind, str]) -> Transcript:
    doc = Transcript([Token(w, start=s, end=e) for w, s, e in WORDS])
    doc.set_suggestions([Suggestion(doc[i].id, kind, value, {value: 0.6, "": 0.4})
                         for i, kind, value in suggestions])
    return doc


def test_the_pause_is_between_the_two_words_the_suggestion_stands_between():
    doc = doc_with((3, Kind.PUNCT, "."), (4, Kind.CASE, "Opens"), (0, Kind.CASE, "So"), (5, Kind.PUNCT, "."))
    mark, capital, first, last = (doc.suggestion(doc[i].id, k) for i, k in
                                  ((3, Kind.PUNCT), (4, Kind.CASE), (0, Kind.CASE), (5, Kind.PUNCT)))
    assert pause_at(doc, mark) == pytest.approx(0.62)  # after "library", before "opens"
    assert pause_at(doc, capital) == pytest.approx(0.62)  # the same place, seen from "opens"
    assert pause_at(doc, first) is None and pause_at(doc, last) is None  # nothing on one side


def test_words_that_touch_have_no_pause_and_untimed_ones_none_known():
    doc = Transcript([Token("a", start=0.0, end=0.5), Token("b", start=0.5, end=0.9), Token("c")])
    doc.set_suggestions([Suggestion(doc[0].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}),
                         Suggestion(doc[1].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})])
    assert pause_at(doc, doc.suggestion(doc[0].id, Kind.PUNCT)) == 0.0
    assert pause_at(doc, doc.suggestion(doc[1].id, Kind.PUNCT)) is None


def test_a_mark_plays_from_before_its_word_to_after_the_next_word_begins():
    doc = doc_with((3, Kind.PUNCT, "."), (4, Kind.CASE, "Opens"), (5, Kind.PUNCT, "."), (0, Kind.CASE, "So"))
    mark = doc.suggestion(doc[3].id, Kind.PUNCT)
    got = passage(doc, mark, 1.5, 0.5)
    assert (got.start, got.end) == (pytest.approx(0.0), pytest.approx(3.02))  # 1.3 - 1.5 clamps to 0
    capital = doc.suggestion(doc[4].id, Kind.CASE)
    got = passage(doc, capital, 1.5, 0.5)
    assert (got.start, got.end) == (pytest.approx(1.02), pytest.approx(3.02))
    last = doc.suggestion(doc[5].id, Kind.PUNCT)
    got = passage(doc, last, 1.0, 0.25)
    assert (got.start, got.end) == (pytest.approx(1.9), pytest.approx(3.55))  # after its own end


def test_an_untimed_word_has_no_passage():
    doc = Transcript([Token("a"), Token("b", start=1.0, end=1.5)])
    doc.set_suggestions([Suggestion(doc[0].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})])
    assert passage(doc, doc.suggestion(doc[0].id, Kind.PUNCT), 1.5, 0.5) is None


def test_the_sentence_runs_between_the_ends_shown_or_proposed_but_not_its_own():
    doc = doc_with((1, Kind.PUNCT, "."), (3, Kind.PUNCT, ","))
    comma = doc.suggestion(doc[3].id, Kind.PUNCT)
    got = sentence(doc, comma)  # from "seed" (after the proposed full stop) to the end
    assert (got.start, got.end) == (pytest.approx(0.8), pytest.approx(3.3))
    stop = doc.suggestion(doc[1].id, Kind.PUNCT)
    got = sentence(doc, stop)  # its own full stop ends nothing: the whole text
    assert (got.start, got.end) == (pytest.approx(0.0), pytest.approx(3.3))
