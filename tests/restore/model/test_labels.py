import pytest

from editor.restore.model.labels import apply_case, case_of, labelled_words, words_of


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


def test_apply_case_writes_the_period_of_an_abbreviation():
    assert apply_case("mr", "capitalized") == "Mr." and apply_case("u.s", "upper") == "U.S."
    assert apply_case("e.g", "lower") == "e.g." and apply_case("vs", "lower") == "vs."
    # lower-case words that are also abbreviations stay words; a lone "v" is a letter
    assert apply_case("rep", "lower") == "rep" and apply_case("gen", "lower") == "gen"
    assert apply_case("rep", "capitalized") == "Rep." and apply_case("v", "capitalized") == "V"


def test_labelled_words_give_abbreviations_no_mark_but_numbers_keep_their_period():
    got = [(w.word, w.punct) for w in labelled_words("Mr. Smith paid 1.5. In the U.S. it rained.")]
    assert got == [("mr", ""), ("smith", ""), ("paid", ""), ("1.5", "."), ("in", ""), ("the", ""),
                   ("u.s", ""), ("it", ""), ("rained", ".")]
