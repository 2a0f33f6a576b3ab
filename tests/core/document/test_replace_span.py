"""Replacing a span of words with typed text keeps what did not change (property-tested)."""

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from editor.core import Suggestion, Token, Transcript, render

VOCAB = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran", "to", "it"]


@st.composite
def timed_documents(draw):
    words = draw(st.lists(st.sampled_from(VOCAB), min_size=0, max_size=12))
    gaps = draw(st.lists(st.floats(0, 2), min_size=len(words), max_size=len(words)))
    tokens, t = [], 0.0
    for word, gap in zip(words, gaps):
        t += gap
        tokens.append(Token(word, start=t, end=t + 0.3, confidence=0.9))
        t += 0.3
    return Transcript(tokens)


@st.composite
def edits(draw):
    doc = draw(timed_documents())
    start = draw(st.integers(0, len(doc)))
    end = draw(st.integers(start, len(doc)))
    new_words = draw(st.lists(st.sampled_from(VOCAB + ["new", "Cat,", "mat."]), max_size=8))
    return doc, start, end, " ".join(new_words)


@settings(max_examples=150, deadline=None)
@given(edits())
def test_words_are_replaced_exactly(edit):
    doc, start, end, text = edit
    before = doc.words()
    new_range = doc.replace_span(start, end, text)
    expected = before[:start] + [w.lower().strip(",.") for w in text.split()] + before[end:]
    assert doc.words() == expected
    assert new_range == range(start, start + len(text.split()))


@settings(max_examples=150, deadline=None)
@given(edits())
def test_unchanged_words_keep_ids_and_times(edit):
    doc, start, end, text = edit
    before = {t.id: t for t in doc.tokens}
    doc.replace_span(start, end, text)
    for token in doc.tokens:
        if token.id in before:
            old = before[token.id]
            assert (token.word, token.start, token.end, token.confidence) == (
                old.word, old.start, old.end, old.confidence)


@settings(max_examples=150, deadline=None)
@given(edits())
def test_new_words_get_times_inside_the_span_and_stay_ordered(edit):
    doc, start, end, text = edit
    lo = doc[start - 1].end if start > 0 else 0.0
    hi = doc[end].start if end < len(doc) else float("inf")
    old_ids = {t.id for t in doc.tokens}
    starts_before = [t.start for t in doc.tokens]
    doc.replace_span(start, end, text)
    for token in doc.tokens:
        assert (token.start is None) == (token.end is None)
        if token.start is not None:
            assert token.start <= token.end
        if token.id not in old_ids and token.start is not None:
            assert lo - 1e-9 <= token.start and token.end <= hi + 1e-9
    times = [t.start for t in doc.tokens if t.start is not None]
    if None not in starts_before and starts_before == sorted(starts_before):
        assert times == sorted(times)


@settings(max_examples=100, deadline=None)
@given(edits())
def test_undo_restores_everything_and_redo_repeats(edit):
    doc, start, end, text = edit
    doc.set_suggestions([Suggestion(t.id, "punct", ".", {".": 0.7, "": 0.3}) for t in doc.tokens])
    before = (doc.tokens, doc.paragraph_starts, doc.suggestions())
    doc.replace_span(start, end, text)
    after = (doc.tokens, doc.paragraph_starts, doc.suggestions())
    if doc.history.undo_text in ("Edit text", "Delete"):
        doc.history.undo()
    assert (doc.tokens, doc.paragraph_starts, doc.suggestions()) == before
    doc.history.redo()
    assert (doc.tokens, doc.paragraph_starts, doc.suggestions()) == after


@settings(max_examples=100, deadline=None)
@given(edits())
def test_suggestions_stay_only_on_unchanged_words(edit):
    doc, start, end, text = edit
    doc.set_suggestions([Suggestion(t.id, "case", t.word.upper(), {t.word.upper(): 0.6})
                         for t in doc.tokens])
    kept_before = {t.id for t in doc.tokens}
    doc.replace_span(start, end, text)
    for s in doc.suggestions():
        assert s.token_id in kept_before
        assert doc.has_token(s.token_id)


@given(st.text(alphabet=string.ascii_letters + " ,.\n", max_size=60))
@settings(max_examples=100, deadline=None)
def test_retyping_the_rendered_text_changes_nothing(text):
    doc = Transcript.from_text(text)
    ids = [t.id for t in doc.tokens]
    rendered = render(doc)
    doc.replace_span(0, len(doc), rendered.replace("\n\n", "\n"))
    assert [t.id for t in doc.tokens] == ids
    assert render(doc) == rendered


def test_typed_line_break_starts_a_paragraph():
    doc = Transcript.from_words("one two three four".split())
    doc.replace_span(2, 2, "\n")
    assert doc.paragraph_starts == [0, 2]
    doc.replace_span(1, 3, "two three")
    assert doc.paragraph_starts == [0]


def test_new_words_share_the_time_of_the_words_they_replace():
    doc = Transcript([Token("a", start=0, end=1), Token("b", start=1, end=2),
                      Token("c", start=2, end=3)])
    doc.replace_span(1, 2, "x y")
    assert [(t.start, t.end) for t in doc.tokens] == [(0, 1), (1, 1.5), (1.5, 2), (2, 3)]
