import pytest

from editor.core.document.transcript import Kind, Token
from editor.restore.passes.prediction import WordPrediction
from editor.restore.passes.suggest import make_suggestions, surface_probs


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


def test_written_quotes_brackets_and_ellipses_survive_suggestions():
    toks = [Token("hello", '"Hello', ',"', id=0), Token("slowly", "(slowly", ")", id=1),
            Token("left", "left", "...", id=2), Token("there", "there", '?"', id=3), Token("so", "So", "", id=4)]
    preds = [pred(".", "capitalized", "Hello"), pred(".", "lower", "slowly"), pred(".", "lower", "left"),
             pred("?", "lower", "there"), pred("", "lower", "so")]
    s = {(x.token_id, x.kind): x for x in make_suggestions(toks, preds)}
    # the mark changes inside the closing quote; the opening quote and bracket stay on the word
    assert s[(0, Kind.PUNCT)].value == '."' and set(s[(0, Kind.PUNCT)].probs) == {'."', '"'}
    assert (0, Kind.CASE) not in s
    # an aside in brackets is the author's: no mark after it either (issue 47: "(melody).")
    assert (1, Kind.PUNCT) not in s and s[(4, Kind.CASE)].value == "so"
    # "..." already ends the sentence and '?"' already asks: nothing to suggest
    assert (2, Kind.PUNCT) not in s and (3, Kind.PUNCT) not in s
    lowered = make_suggestions([Token("so", '"So', id=5)], [pred("", "lower", "so")])
    assert [(x.kind, x.value) for x in lowered] == [(Kind.CASE, '"so')] and '"So' in lowered[0].probs


def test_a_mark_replacing_written_punctuation_keeps_quotes_inside_and_brackets_outside():
    from editor.restore.passes.suggest import current_mark, with_mark

    assert with_mark(',"', "?") == '?"' and with_mark(")", ",") == ")," and with_mark(')"', ".") == ').\"'
    assert with_mark(" --", "") == "" and with_mark("”", "") == "”"
    assert [current_mark(p) for p in ("?!", "...", "…", " --", ',"', ")")] == ["?", ".", ".", ",", ",", ""]


def test_a_symbol_after_a_word_stays_when_a_mark_goes_in_before_it():
    """A lyric's closing note ("♪ the night is long ♪") or an emoji after a word is no mark: a
    full stop suggested there goes in before it, and the note stays (it was lost: "long.")."""
    from editor.restore.passes.suggest import with_mark

    assert with_mark(" ♪", ".") == ". ♪" and with_mark(", ♪", "?") == "? ♪" and with_mark(" ♪", "") == " ♪"
    assert with_mark(" 😀", ",") == ", 😀" and with_mark(' ♪"', ".") == '. ♪"'
    [s] = make_suggestions([Token("long", punct=" ♪", id=3)], [pred(".", "lower", "long")])
    assert (s.kind, s.value) == (Kind.PUNCT, ". ♪") and set(s.probs) >= {". ♪", " ♪"}


def test_raw_words_pasted_after_a_comma_get_no_capital_when_the_case_follows_the_marks():
    """Raw words pasted after "Dana," were proposed "And": the model's capital stood on its own,
    as it does in a raw transcript. With ``follow_marks`` the case follows the mark before them
    and the marks proposed among them: "and" stays, "then" after a proposed full stop is capitalised."""
    toks = [Token("and", id=0), Token("spring", id=1), Token("then", id=2)]
    preds = [pred("", "capitalized", "And"), pred(".", "lower", "spring"), pred("", "capitalized", "Then")]
    loose = make_suggestions(toks, preds, mark_before=",")
    assert (0, Kind.CASE, "And") in [(x.token_id, x.kind, x.value) for x in loose]
    s = make_suggestions(toks, preds, mark_before=",", follow_marks=True)
    assert [(x.token_id, x.kind, x.value) for x in s] == [(1, Kind.PUNCT, "."), (2, Kind.CASE, "Then")]


def test_after_a_written_comma_a_common_word_keeps_its_lowercase_whatever_the_model():
    """Where the case follows the marks someone wrote, a capital after their comma is proposed only
    for a word that may take one there (a name); the model's 99 % for "Well" is not enough."""
    toks = [Token("so", punct=",", id=0), Token("well", id=1), Token("yes", punct=",", id=2), Token("john", id=3)]
    sure = {"lower": 0.01, "capitalized": 0.99, "upper": 0.0, "mixed": 0.0}
    preds = [pred(",", "lower", "so"), WordPrediction("", {"": 0.9, ".": 0.1}, "capitalized", sure, "Well"),
             pred(",", "lower", "yes"), WordPrediction("", {"": 0.9, ".": 0.1}, "capitalized", sure, "John")]
    names = {"john"}
    s = make_suggestions(toks, preds, mark_before=None, follow_marks=True, comma_capital=names.__contains__)
    assert [(x.token_id, x.value) for x in s if x.kind is Kind.CASE] == [(3, "John")]
    loose = make_suggestions(toks, preds, mark_before=None, follow_marks=True)
    assert [(x.token_id, x.value) for x in loose if x.kind is Kind.CASE] == [(1, "Well"), (3, "John")]


def test_a_capital_of_a_word_that_is_no_name_is_marked_as_coming_with_a_sentence_start():
    toks = [Token("boy", id=0), Token("you", id=1), Token("paris", id=2)]
    sure = {"lower": 0.01, "capitalized": 0.99, "upper": 0.0, "mixed": 0.0}
    preds = [pred(".", "lower", "boy", p=0.6), WordPrediction("", {"": 1.0}, "capitalized", sure, "You"),
             WordPrediction("", {"": 1.0}, "capitalized", sure, "Paris")]
    s = make_suggestions(toks, preds, comma_capital={"paris"}.__contains__)
    case = {x.token_id: x.needs_start for x in s if x.kind is Kind.CASE}
    assert case == {1: True, 2: False}
    assert not any(x.needs_start for x in make_suggestions(toks, preds))  # no names lexicon: the probabilities decide


def test_a_written_mark_becomes_a_sentence_end_only_with_the_capital_after_it():
    """Subtitles said "Mick Jagger; we're not really sure": the model's "." (71 %) beat the
    author's ";" once the author prior was weighed, but the author's lowercase "we're" held
    against the model's capital, so Stet proposed and wrote "Jagger. we're". A sentence end is
    kept only where the capital it brings is likelier than the word as it stands; otherwise the
    best mark that does not end a sentence (here the author's ";": no suggestion at all)."""
    toks = [Token("jagger", "Jagger", ";", id=0), Token("we're", "we're", "", id=1),
            Token("not", "not", ".", id=2), Token("so", "So", "", id=3)]
    marks = {"": 0.013, ",": 0.245, ".": 0.71, "?": 0.008, "!": 0.002, ":": 0.015, ";": 0.007}
    preds = [WordPrediction(".", marks, "capitalized", {"lower": 0.04, "capitalized": 0.96}, "Jagger"),
             WordPrediction("", {"": 0.998, ",": 0.002}, "capitalized", {"lower": 0.28, "capitalized": 0.72}, "We're"),
             WordPrediction(".", {".": 0.9, "": 0.1}, "lower", {"lower": 0.9, "capitalized": 0.1}, "not"),
             WordPrediction("", {"": 1.0}, "capitalized", {"lower": 0.1, "capitalized": 0.9}, "So")]
    s = make_suggestions(toks, preds, author_prior={"punct": 0.9, "case": 0.95})
    assert s == []
    # where the capital does win, the end mark and the capital are proposed together (over a
    # written ","; a written ";" stays whatever the model says: see authors_own)
    preds[1] = WordPrediction("", {"": 1.0}, "capitalized", {"lower": 0.004, "capitalized": 0.996}, "We're")
    assert make_suggestions(toks, preds, author_prior={"punct": 0.9, "case": 0.95}) == []
    toks[0] = Token("jagger", "Jagger", ",", id=0)
    preds[0] = WordPrediction(".", {"": 0.01, ",": 0.01, ".": 0.97, "?": 0.01}, "capitalized",
                              {"lower": 0.04, "capitalized": 0.96}, "Jagger")
    s = make_suggestions(toks, preds, author_prior={"punct": 0.9, "case": 0.95})
    assert [(x.token_id, x.kind, x.value) for x in s] == [(0, Kind.PUNCT, "."), (1, Kind.CASE, "We're")]


def test_a_few_capitals_in_raw_words_do_not_hold_every_sentence_start_lowercase():
    """A raw transcript with a name typed in ("Interview with Marc Pachter the national…") counted
    as capitals written, so the author prior held each lowercase word against the model's capital
    and `stet restore` wrote "lives. amazing people. and that's". Without marks written, a
    lowercase word says nothing about where sentences start: only the capitals written are kept."""
    toks = [Token("marc", "Marc", id=0), Token("lives", id=1), Token("amazing", id=2), Token("people", id=3)]
    cap = {"lower": 0.1, "capitalized": 0.9}
    preds = [WordPrediction("", {"": 0.9, ".": 0.1}, "lower", {"lower": 0.6, "capitalized": 0.4}, "marc"),
             WordPrediction(".", {".": 0.8, "": 0.2}, "lower", {"lower": 0.9, "capitalized": 0.1}, "lives"),
             WordPrediction("", {"": 0.9, ".": 0.1}, "capitalized", cap, "Amazing"),
             WordPrediction(".", {".": 0.9, "": 0.1}, "lower", {"lower": 0.9, "capitalized": 0.1}, "people")]
    s = make_suggestions(toks, preds, author_prior={"punct": 0.9, "case": 0.95})
    assert [(x.token_id, x.kind, x.value) for x in s] == [
        (1, Kind.PUNCT, "."), (2, Kind.CASE, "Amazing"), (3, Kind.PUNCT, ".")]  # "Marc" stays


PRIOR = {"punct": 0.9, "case": 0.95}


def sure(mark, case="lower", text=None, p=0.999):
    """A prediction all but certain of `mark` and `case`: it outweighs the author prior."""
    marks = {m: (p if m == mark else (1 - p) / 6) for m in ("", ",", ".", "?", "!", ":", ";")}
    cases = {"lower": 0.001, "capitalized": 0.999} if case == "capitalized" else {"lower": 0.999, "capitalized": 0.001}
    return WordPrediction(mark, marks, case, cases, text or "")


def test_marks_the_model_cannot_predict_stay_as_the_author_wrote_them():
    """Review > Accept all >= 90 % on a finished subtitle took "There is so much..." to "much",
    "Get that man!" to "man" and '"Marriage"?' to '"Marriage"': the author prior kept the marks the
    model predicts (, . ?) but not those it barely does. "!", ";", an ellipsis, a dash and a mark
    beside a closing quote are never changed, however sure the model is; "," and "." still are."""
    toks = [Token("much", "much", "...", id=0), Token("man", "man", "!", id=1), Token("marriage", '"Marriage', '"?', id=2),
            Token("told", "told", ";", id=3), Token("home", "home", " --", id=4), Token("dog", "dog", ",", id=5),
            Token("ran", "ran", ".", id=6)]
    preds = [sure("", text="much"), sure(".", text="man"), sure("", text="marriage"), sure(",", text="told"),
             sure("", text="home"), sure("", text="dog"), sure("", text="ran")]
    s = make_suggestions(toks, preds, author_prior=PRIOR, keep_author=False)
    assert [(x.token_id, x.kind, x.value) for x in s] == [(5, Kind.PUNCT, ""), (6, Kind.PUNCT, "")]
    # without the author's evidence (raw words) the model's say is all there is, but for the
    # ellipsis and the dash where the speaker was cut off (issue 47: "Dad--,")
    loose = make_suggestions(toks, preds, keep_author=False)
    assert sorted(x.token_id for x in loose if x.kind == Kind.PUNCT) == [1, 2, 3, 5, 6]


def test_a_rare_name_written_with_a_capital_mid_sentence_keeps_it():
    """`stet restore talk.vtt` turned the name "Gecko" into "gecko": the model writes the word
    "gecko" lowercase, and is sure of it. A capital written on a rare word where no sentence
    starts stays; a common word's ("The" mid-sentence) may still be lowercased."""
    toks = [Token("we", "We", "", id=0), Token("met", "met", "", id=1), Token("gecko", "Gecko", "", id=2),
            Token("and", "and", "", id=3), Token("the", "The", "", id=4), Token("dog", "dog", ".", id=5)]
    preds = [sure("", "capitalized", "We"), sure(""), sure("", text="gecko"), sure(""), sure("", text="the"),
             sure(".", text="dog")]
    rare = {"gecko"}.__contains__
    s = make_suggestions(toks, preds, author_prior=PRIOR, keep_author=False, rare=rare)
    assert [(x.token_id, x.kind, x.value) for x in s] == [(4, Kind.CASE, "the")]
    # at a sentence start the capital hangs on the position, not on the word: unchanged rules
    before = make_suggestions(toks, preds, author_prior=PRIOR, keep_author=False)
    assert (2, Kind.CASE, "gecko") in [(x.token_id, x.kind, x.value) for x in before]


def test_keeping_the_authors_punctuation_proposes_only_what_is_missing():
    """Keep the author's punctuation: a missing mark or capital is proposed, no mark or capital
    written is removed or replaced; None (the default of `stet restore` and the window) keeps them
    where the text has marks or capitals, and proposes everything for raw words."""
    toks = [Token("so", "So", ",", id=0), Token("paris", "paris", "", id=1), Token("is", "Is", "", id=2),
            Token("big", "big", "", id=3)]
    preds = [sure("", "capitalized", "So"), sure("", "capitalized", "Paris"), sure("", text="is"),
             sure(".", text="big")]
    kept = make_suggestions(toks, preds, author_prior=PRIOR, keep_author=True)
    assert [(x.token_id, x.kind, x.value) for x in kept] == [(1, Kind.CASE, "Paris"), (3, Kind.PUNCT, ".")]
    assert make_suggestions(toks, preds, author_prior=PRIOR, keep_author=None) == kept
    every = make_suggestions(toks, preds, author_prior=PRIOR, keep_author=False)
    assert {(x.token_id, x.kind) for x in every} == {(0, Kind.PUNCT), (1, Kind.CASE), (2, Kind.CASE), (3, Kind.PUNCT)}
    raw = [Token("so", id=0), Token("big", id=1)]
    assert len(make_suggestions(raw, [sure(",", "capitalized", "So"), sure(".", text="big")], author_prior=PRIOR,
                                keep_author=None)) == 3


def test_removes_authors_tells_a_removal_or_replacement_from_an_addition():
    from editor.restore.passes.suggest import removes_authors

    assert removes_authors(Token("a", "a", ",", id=0), Kind.PUNCT, ".")
    assert removes_authors(Token("a", "a", ",", id=0), Kind.PUNCT, "")
    assert not removes_authors(Token("a", "a", "", id=0), Kind.PUNCT, ".")
    assert not removes_authors(Token("a", '"a', '"', id=0), Kind.PUNCT, '."')  # the quote is no mark
    assert removes_authors(Token("gecko", "Gecko", "", id=0), Kind.CASE, "gecko")
    assert removes_authors(Token("nasa", "Nasa", "", id=0), Kind.CASE, "NASA")
    assert not removes_authors(Token("paris", "paris", "", id=0), Kind.CASE, "Paris")
