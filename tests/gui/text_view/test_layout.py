"""Character edits in the displayed text become span replacements over whole words."""

from hypothesis import given, settings
from hypothesis import strategies as st

from editor.core import Suggestion, Token, Transcript
from editor.gui.text_view.layout import layout
from editor.core.render import ALL
from editor.core.document.text import split_words


def doc():
    return Transcript([Token("cat", start=0, end=1), Token("sat", "Sat", ",", 1, 2),
                       Token("mat", start=5, end=6)], paragraph_starts=[2])


def test_text_and_spans():
    lay = layout(doc())
    assert lay.text == "cat Sat,\nmat"
    assert [(s.start, s.punct_start, s.end) for s in lay.spans] == [(0, 3, 3), (4, 7, 8), (9, 12, 12)]
    assert lay.token_at(5) == 1 and lay.token_at(3) == 0


def test_pending_suggestions_can_be_shown_inline():
    d = doc()
    d.set_suggestions([Suggestion(d[0].id, "punct", ".", {".": 0.8})])
    assert layout(d, ALL).text.startswith("cat. Sat,")


def apply_edit(d, start, end, typed):
    lay = layout(d)
    expected = lay.text[:start] + typed + lay.text[end:]
    d.replace_span(*lay.edit(start, end, typed))
    return expected


def test_typing_after_a_word_changes_that_word():
    d = doc()
    assert apply_edit(d, 3, 3, "s") == layout(d).text
    assert d.words() == ["cats", "sat", "mat"] and d[1].start == 1


def test_deleting_a_space_joins_words():
    d = doc()
    apply_edit(d, 3, 4, "")
    assert d.words() == ["catsat", "mat"]


def test_typing_a_new_word_keeps_neighbours():
    d = doc()
    ids = [t.id for t in d.tokens]
    apply_edit(d, 4, 4, "big ")
    assert d.words() == ["cat", "big", "sat", "mat"]
    assert [t.id for t in d.tokens if t.id in ids] == ids


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_any_edit_gives_the_text_the_user_sees(data):
    words = data.draw(st.lists(st.sampled_from(["cat", "Sat,", "mat.", "a", "b"]), max_size=6))
    d = Transcript.from_text(" ".join(words))
    text = layout(d).text
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    typed = data.draw(st.text(alphabet="ab ,.\n-", max_size=6))
    expected = apply_edit(d, start, end, typed)
    assert d.words() == [p.word for p in split_words(expected)]
    assert "".join(layout(d).text.split()) == "".join(expected.split())
