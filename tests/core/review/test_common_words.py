"""A capital chosen on a one-letter or very common word (issue 48): "point A" is a name's use of the
article, so it repeats only where the same word stands before it, never at every "a"
(editor.core.review.repeat_choices.common_word)."""

from editor.core.document.records import Metadata
from editor.core.document.transcript import Kind, Suggestion, Transcript
from editor.core.review.repeat_choices import common_word, decide, repeat_targets


def _doc(text: str, language: str | None = None) -> Transcript:
    doc = Transcript.from_words(text.split())
    if language is not None:
        doc.metadata = Metadata(language=language)
    return doc


def _case(doc: Transcript, i: int, value: str, p: float = 0.6) -> Suggestion:
    return Suggestion(doc[i].id, Kind.CASE, value, {value: p, doc[i].word: 1 - p})


def _at(doc: Transcript, word: str) -> list[int]:
    return [i for i, t in enumerate(doc.tokens) if t.word == word]


def test_point_a_made_twice_repeats_only_after_point():
    doc = _doc("from point a to a place near a river and then from point a to point a again with a map")
    a = _at(doc, "a")  # point a at 2, 13, 16; articles at 4, 7, 19
    doc.set_suggestions([_case(doc, 2, "A"), _case(doc, 13, "A")])
    decide(doc, doc[2].id, Kind.CASE)
    decide(doc, doc[13].id, Kind.CASE)
    assert doc.suggestion(doc[16].id, Kind.CASE).value == "A"  # point a: the same word before it
    for i in a:
        if doc[i - 1].word != "point":
            assert doc.suggestion(doc[i].id, Kind.CASE) is None, i


def test_a_common_word_s_targets_need_the_same_word_before_it():
    doc2 = _doc("i saw the who play and then the who left the stage")
    doc2.set_suggestions([_case(doc2, 2, "The")])
    decide(doc2, doc2[2].id, Kind.CASE)
    assert repeat_targets(doc2, doc2[2].id, Kind.CASE) == []  # "saw the": once
    doc3 = _doc("i saw the who and she saw the who again and saw the end")
    doc3.set_suggestions([_case(doc3, 2, "The")])
    decide(doc3, doc3[2].id, Kind.CASE)
    assert repeat_targets(doc3, doc3[2].id, Kind.CASE) == [7, 12]


def test_other_words_repeat_everywhere_and_the_pronoun_is_not_common():
    doc = _doc("we met okafor today and then okafor said hello")
    doc.set_suggestions([_case(doc, 2, "Okafor")])
    assert repeat_targets(doc, doc[2].id, Kind.CASE) == [6]
    assert not common_word(doc, "i") and not common_word(doc, "okafor")
    assert common_word(doc, "a") and common_word(doc, "the") and common_word(doc, "x")


def test_the_list_of_function_words_is_english_only_one_letter_words_any_language():
    de = _doc("wir haben die and a", "de")
    assert not common_word(de, "the") and common_word(de, "a")
    assert common_word(_doc("x y", "en-GB"), "the")
