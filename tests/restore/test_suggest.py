import pytest

from editor.core.document import Kind, Token
from editor.restore.inference import WordPrediction
from editor.restore.suggest import make_suggestions, surface_probs


def pred(punct, case, text, p=0.8):
    return WordPrediction(punct, {punct: p, "" if punct else ".": 1 - p}, case,
                          {"lower": 0.1, "capitalized": 0.7, "upper": 0.1, "mixed": 0.1} if case != "lower"
                          else {"lower": 0.9, "capitalized": 0.05, "upper": 0.05, "mixed": 0.0}, text)


def test_raw_words_get_a_suggestion_for_every_mark_and_capital():
    toks = [Token("hello", id=0), Token("world", id=1)]
    s = make_suggestions(toks, [pred("", "capitalized", "Hello"), pred(".", "lower", "world")])
    assert [(x.token_id, x.kind, x.value) for x in s] == [(0, Kind.CASE, "Hello"), (1, Kind.PUNCT, ".")]
    assert s[0].probs["Hello"] == pytest.approx(0.7 / 0.9)  # mixed mass dropped: no lexicon form


def test_written_text_only_gets_suggestions_where_the_model_disagrees():
    toks = [Token("hello", "Hello", ",", id=0), Token("world", "world", ".", id=1)]
    s = make_suggestions(toks, [pred("", "capitalized", "Hello"), pred(".", "lower", "world")])
    assert [(x.token_id, x.kind, x.value) for x in s] == [(0, Kind.PUNCT, "")]


def test_same_surfaces_share_probability():
    probs = surface_probs("i", {"lower": 0.1, "capitalized": 0.6, "upper": 0.3, "mixed": 0.0})
    assert probs == pytest.approx({"i": 0.1, "I": 0.9})


def test_lengths_must_match():
    with pytest.raises(ValueError):
        make_suggestions([Token("a", id=0)], [])


def test_no_case_suggestion_where_the_model_writes_the_word_as_it_stands():
    toks = [Token("hello", "Hello", id=0), Token("world", id=1), Token("nasa", "NASA", id=2)]
    preds = [pred("", "capitalized", "Hello"), pred("", "lower", "world"), pred("", "capitalized", "Nasa")]
    s = make_suggestions(toks, preds)
    assert [(x.token_id, x.kind, x.value) for x in s] == [(2, "case", "Nasa")]
