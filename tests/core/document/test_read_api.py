"""The public read API on Transcript that views use instead of its private suggestion table."""

import pytest

from editor.core.document.transcript import Kind, State, Suggestion, Token, Transcript


def doc_with_suggestions() -> Transcript:
    doc = Transcript([Token("hello"), Token("world"), Token("again")])
    ids = [t.id for t in doc.tokens]
    doc.set_suggestions([
        Suggestion(ids[0], Kind.PUNCT, ",", {",": 0.6, "": 0.4}),
        Suggestion(ids[0], Kind.CASE, "Hello", {"Hello": 0.9, "hello": 0.1}),
        Suggestion(ids[2], Kind.PUNCT, ".", {".": 0.8, "": 0.2}),
    ])
    return doc


def test_the_suggestion_view_is_read_only_and_live():
    doc = doc_with_suggestions()
    first, second = (t.id for t in doc.tokens[:2])
    view = doc.suggestion_view(first)
    assert set(view) == {Kind.PUNCT, Kind.CASE} and view[Kind.CASE].value == "Hello"
    with pytest.raises(TypeError):
        view[Kind.PUNCT] = None  # type: ignore[index]  # that it refuses is what is tested
    assert not doc.suggestion_view(second) and len(doc.suggestion_view(second)) == 0
    doc.accept(*view[Kind.PUNCT].key)
    assert doc.suggestion_view(first)[Kind.PUNCT].state == State.ACCEPTED


def test_iterating_suggestions_filters_without_sorting():
    doc = doc_with_suggestions()
    every = list(doc.iter_suggestions())
    assert sorted(every, key=lambda s: s.key) == sorted(doc.suggestions(), key=lambda s: s.key)
    assert {s.kind for s in doc.iter_suggestions(kind="punct")} == {Kind.PUNCT}
    doc.accept(*doc.suggestions()[0].key)
    pending = list(doc.iter_suggestions(state=State.PENDING))
    assert len(pending) == 2 and all(s.state == State.PENDING for s in pending)


def test_the_ids_with_suggestions_are_a_copy():
    doc = doc_with_suggestions()
    ids = doc.suggested_token_ids()
    assert sorted(ids) == sorted({doc[0].id, doc[2].id})
    doc.set_suggestions([Suggestion(doc[1].id, Kind.CASE, "World", {"World": 0.7, "world": 0.3})])
    assert len(ids) == 2 and len(doc.suggested_token_ids()) == 3


def test_take_apart_empties_a_document_and_its_history_in_slices():
    doc = Transcript.from_text(" ".join(f"w{i}" for i in range(50_000)))
    doc.set_suggestions([Suggestion(token_id=t.id, kind=Kind.PUNCT, value=",", probs={",": 0.9, "": 0.1})
                         for t in doc.tokens])
    doc.accept_all()
    slices = sum(1 for _ in doc.take_apart())
    assert slices > 3
    assert len(doc) == 0 and not list(doc.iter_suggestions())
    assert not doc.history.can_undo and not doc.history.can_redo
