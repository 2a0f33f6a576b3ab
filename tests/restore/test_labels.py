import pytest

from editor.restore.labels import apply_case, case_of, labelled_words, words_of


@pytest.mark.parametrize("surface, case", [("the", "lower"), ("The", "capitalized"), ("I", "capitalized"),
                                           ("NASA", "upper"), ("iPhone", "mixed"), ("McDonald's", "mixed"),
                                           ("1989", "lower"), ("U.S", "upper")])
def test_case_of(surface, case):
    assert case_of(surface) == case


def test_apply_case_uses_the_lexicon_for_mixed_forms_and_falls_back_to_capitals():
    assert apply_case("iphone", "mixed", {"iphone": "iPhone"}) == "iPhone"
    assert apply_case("zebra", "mixed", {}) == "Zebra"
    assert apply_case("nasa", "upper") == "NASA"
    assert apply_case("'tis", "capitalized") == "'Tis"


def test_labelled_words_attach_marks_to_the_word_before():
    got = [(w.word, w.punct, w.case) for w in labelled_words('Mr. Smith said -- well, "Why?" I know.')]
    assert got == [("mr", "", "capitalized"), ("smith", "", "capitalized"), ("said", ",", "lower"),
                   ("well", ",", "lower"), ("why", "?", "capitalized"), ("i", "", "capitalized"),
                   ("know", ".", "lower")]


def test_the_strongest_mark_wins_and_ellipses_end_sentences():
    assert [w.punct for w in labelled_words("What?! So... fine;")] == ["?", ".", ";"]


def test_words_of_gives_what_an_asr_engine_writes():
    assert words_of("It's the iPhone's day, isn't it?") == ["it's", "the", "iphone's", "day", "isn't", "it"]
