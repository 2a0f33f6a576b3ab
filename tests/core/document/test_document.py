"""The transcript document: tokens, suggestions, decisions, paragraphs, events and undo."""

import pytest

from editor.core import Kind, RenderPolicy, State, Suggestion, Token, Transcript, render


def punct(token_id, value, p):
    return Suggestion(token_id, "punct", value, {value: p, "": 1 - p})


def case(token_id, value, p, other):
    return Suggestion(token_id, "case", value, {value: p, other: 1 - p})


@pytest.fixture
def doc():
    t = Transcript.from_words("so we met in paris it was cold".split())
    t.set_suggestions([punct(t[2].id, ",", 0.6), punct(t[4].id, ".", 0.95),
                       case(t[5].id, "It", 0.9, "it"), case(t[4].id, "Paris", 0.99, "paris"),
                       punct(t[7].id, ".", 0.97), case(t[0].id, "So", 0.5, "so")])
    t.history.clear()
    return t


def test_ids_are_unique_and_stable_across_edits(doc):
    ids = [t.id for t in doc.tokens]
    assert len(set(ids)) == len(ids)
    doc.replace_span(0, 1, "well so")
    assert [t.id for t in doc.tokens][2:] == ids[1:]


def test_suggestion_confidence_is_probability_of_its_value():
    s = Suggestion(1, "punct", ",", {"": 0.3, ",": 0.6, ".": 0.1})
    assert s.confidence == 0.6
    assert s.alternatives()[0] == (",", 0.6)
    assert s.kind is Kind.PUNCT and s.state is State.PENDING


def test_suggestion_tolerates_rounding():
    s = Suggestion(1, "punct", ",", {",": 1.0000000000000002, "": -1e-17})
    assert s.confidence == 1.0 and s.probs[""] == 0.0


def test_suggestion_refuses_impossible_probability():
    with pytest.raises(ValueError):
        Suggestion(1, "punct", ",", {",": 1.5})
    with pytest.raises(ValueError):
        Suggestion(1, "punct", ",", {",": float("nan")})


def test_one_suggestion_per_kind_per_token(doc):
    doc.set_suggestions([punct(doc[2].id, ".", 0.7)])
    assert doc.suggestion(doc[2].id, "punct").value == "."
    assert len([s for s in doc.pending() if s.token_id == doc[2].id]) == 1


def test_render_policies(doc):
    assert render(doc) == "so we met in paris it was cold"
    assert render(doc, RenderPolicy.parse("all")) == "So we met, in Paris. It was cold."
    assert render(doc, RenderPolicy.parse("0.9")) == "so we met in Paris. It was cold."


def test_accept_reject_and_choose(doc):
    doc.accept(doc[2].id, "punct")
    assert doc[2].punct == ","
    doc.reject(doc[5].id, "case")
    assert render(doc, RenderPolicy.parse("all")) == "So we met, in Paris. it was cold."
    doc.accept(doc[4].id, "punct", "?")
    assert doc[4].punct == "?"
    assert doc.suggestion(doc[4].id, "punct").state == State.ACCEPTED
    # Taking back an accepted suggestion restores what was there before.
    doc.reject(doc[2].id, "punct")
    assert doc[2].punct == ""
    assert doc.history.undo_text == "Reject suggestion"


def test_accept_all_is_one_undo_step(doc):
    before = render(doc)
    assert doc.accept_all(0.9) == 4
    assert render(doc) == "so we met in Paris. It was cold."
    assert [s.confidence for s in doc.pending()] == [0.5, 0.6]
    assert doc.history.undo()
    assert render(doc) == before
    assert len(doc.pending()) == 6
    assert doc.history.redo()
    assert render(doc) == "so we met in Paris. It was cold."


def test_reject_all(doc):
    assert doc.reject_all() == 6
    assert render(doc, RenderPolicy.parse("all")) == render(doc)
    assert not doc.pending()


def test_pending_by_confidence_and_next(doc):
    by_conf = [s.confidence for s in doc.pending(order="confidence")]
    assert by_conf == sorted(by_conf)
    first = doc.next_pending()
    assert (first.token_id, first.kind) == (doc[0].id, Kind.CASE)
    assert doc.next_pending(4).token_id == doc[5].id
    assert doc.next_pending(5, reverse=True).token_id == doc[4].id
    assert doc.next_pending(7) is None


def test_new_edit_clears_redo(doc):
    doc.accept(doc[2].id, "punct")
    doc.history.undo()
    assert doc.history.can_redo
    doc.accept(doc[4].id, "punct")
    assert not doc.history.can_redo


def test_group_is_one_step_and_rolls_back_on_error(doc):
    with doc.history.group("Two things"):
        doc.accept(doc[2].id, "punct")
        doc.accept(doc[4].id, "punct")
    assert doc.history.undo_text == "Two things"
    doc.history.undo()
    assert doc[2].punct == doc[4].punct == ""
    with pytest.raises(RuntimeError):
        with doc.history.group("Fails"):
            doc.accept(doc[2].id, "punct")
            raise RuntimeError
    assert doc[2].punct == ""
    assert doc.history.undo_text == "Two things" or not doc.history.can_undo


def test_chunks_of_one_pass_merge_into_one_step():
    t = Transcript.from_words("a b c d e f".split())
    for chunk in ([0, 1], [2, 3], [4, 5]):
        t.set_suggestions([punct(t[i].id, ".", 0.8) for i in chunk], merge_id="pass-1")
    assert len(t.history) == 1
    t.history.undo()
    assert not t.pending()


def test_suggestions_for_vanished_tokens_are_skipped():
    t = Transcript.from_words("one two three".split())
    stale = t[1].id
    t.replace_span(1, 2, "deux")
    assert t.set_suggestions([punct(stale, ".", 0.9)]) == 0


def test_decided_suggestions_are_kept_by_a_new_pass(doc):
    doc.reject(doc[2].id, "punct")
    assert doc.set_suggestions([punct(doc[2].id, ",", 0.9)]) == 0
    assert doc.suggestion(doc[2].id, "punct").state == State.REJECTED


def test_events_name_what_changed(doc):
    seen = []
    doc.tokens_changed.connect(lambda *a: seen.append(("tokens", a)))
    doc.suggestions_changed.connect(lambda ids: seen.append(("sugg", ids)))
    doc.accept(doc[4].id, "punct")
    assert seen == [("tokens", (4, 1, 1)), ("sugg", (doc[4].id,))]
    seen.clear()
    doc.replace_span(1, 2, "they")
    assert ("tokens", (1, 1, 1)) in seen


def test_revision_and_words_revision(doc):
    rev, words_rev = doc.revision, doc.words_revision
    doc.accept(doc[4].id, "punct")
    assert doc.revision > rev and doc.words_revision == words_rev
    doc.replace_span(0, 1, "and so")
    assert doc.words_revision == words_rev + 1
    snap = doc.snapshot()
    assert snap.words[:3] == ("and", "so", "we") and snap.revision == doc.words_revision


def test_append_tokens_merge_and_paragraphs():
    t = Transcript()
    t.append_tokens([Token("hello", start=0.0, end=0.4)])
    t.append_tokens([Token("there", start=0.5, end=0.9)])
    t.append_tokens([Token("next", start=3.0, end=3.2)], new_paragraph=True)
    assert t.words() == ["hello", "there", "next"]
    assert t.paragraph_starts == [0, 2]
    assert t.index_of(t[2].id) == 2
    assert len(t.history) == 1


def test_paragraphs_and_speakers_render():
    t = Transcript([Token("hi", speaker="Ann"), Token("yes", speaker="Bob"),
                    Token("ok", speaker="Bob")], paragraph_starts=[1, 2])
    assert render(t) == "Ann: hi\n\nBob: yes\n\nok"
    t.set_paragraph_start(2, False)
    assert render(t) == "Ann: hi\n\nBob: yes ok"
    t.history.undo()
    assert t.paragraph_starts == [0, 1, 2]


def test_from_text_keeps_existing_punctuation_and_case():
    t = Transcript.from_text('He said: "Hello, World!" — then left.\n\nNew para')
    assert t.words() == ["he", "said", "hello", "world", "then", "left", "new", "para"]
    assert render(t) == 'He said: "Hello, World!" — then left.\n\nNew para'


def test_edit_token_drops_pending_suggestion_of_that_kind(doc):
    doc.edit_token(4, punct=";")
    assert doc.suggestion(doc[4].id, "punct") is None
    assert doc.suggestion(doc[4].id, "case") is not None
    doc.history.undo()
    assert doc.suggestion(doc[4].id, "punct") is not None


def test_set_metadata_is_undoable(doc):
    doc.set_metadata(language="en")
    assert doc.metadata.language == "en"
    doc.history.undo()
    assert doc.metadata.language is None


def test_bulk_acceptance_keeps_case_with_the_sentence_end_before_it():
    t = Transcript.from_words("we had tea now the table is full and paris is far".split())
    # "tea." at 0.85 and "Now" at 0.92: at 0.9 the capital waits for its period
    t.set_suggestions([punct(t[2].id, ".", 0.85), case(t[3].id, "Now", 0.92, "now"),
                       # a name's capital does not hang on the position: applied anyway
                       punct(t[7].id, ".", 0.5), Suggestion(t[8].id, "case", "And", {"And": 0.95, "and": 0.05}),
                       Suggestion(t[9].id, "case", "Paris", {"Paris": 0.995, "paris": 0.005})])
    t.set_suggestions([punct(t[8].id, ".", 0.4)], text="more")
    assert render(t, RenderPolicy(0.9)) == "we had tea now the table is full and Paris is far"
    assert render(t, RenderPolicy(0.8)) == "we had tea. Now the table is full and Paris is far"
    assert t.accept_all(0.9) == 1  # only "Paris"; "Now" and "And" stay pending
    assert {s.value for s in t.pending()} == {".", "Now", "And"}
    assert render(t) == "we had tea now the table is full and Paris is far"


def test_bulk_acceptance_does_not_lowercase_a_sentence_start_after_an_end_mark_that_stays():
    t = Transcript.from_text("Of course. Some seeds cross.")
    t.set_suggestions([Suggestion(t[1].id, "punct", "", {"": 0.6, ".": 0.4}), case(t[2].id, "some", 0.96, "Some")])
    assert render(t, RenderPolicy(0.9)) == "Of course. Some seeds cross."
    assert render(t, RenderPolicy(0.5)) == "Of course some seeds cross."
    assert t.accept_all(0.9) == 0


def test_the_pending_count_follows_every_change_undo_included():
    from editor.core.document.transcript import Kind, State, Suggestion, Transcript

    doc = Transcript.from_words("one two three four".split())
    doc.set_suggestions([Suggestion(doc[i].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}) for i in range(3)]
                        + [Suggestion(doc[1].id, Kind.CASE, "Two", {"Two": 0.7, "two": 0.3})])

    def counted() -> int:
        return sum(1 for s in doc.iter_suggestions() if s.state == State.PENDING)

    assert doc.pending_count == counted() == 4
    doc.accept(doc[0].id, Kind.PUNCT)
    doc.reject(doc[1].id, Kind.CASE)
    assert doc.pending_count == counted() == 2
    doc.drop_suggestions([(doc[2].id, Kind.PUNCT)])
    doc.set_suggestions([Suggestion(doc[3].id, Kind.PUNCT, ".", {".": 0.9, "": 0.1})])
    assert doc.pending_count == counted() == 2
    doc.accept_all()
    assert doc.pending_count == counted() == 0
    while doc.history.undo():
        assert doc.pending_count == counted()
    assert doc.pending_count == 0  # before the first suggestions
    while doc.history.redo():
        assert doc.pending_count == counted()
    assert Transcript(doc.tokens, suggestions=doc.all_suggestions()).pending_count == 0


def test_pending_counts_by_confidence_follow_every_change_and_are_exact_at_percent_bounds():
    """What the review panel's band filter shows at once: how many pending suggestions lie in
    [low, high), kept with every change, undo included; a bound in percent is exact even where
    the confidence is that very float (0.57 at or above 57 %)."""
    from editor.core.document.transcript import Kind, State, Suggestion, Transcript

    confidences = [0.0, 0.3, 0.57, 0.5699999999, 0.6, 0.899, 0.9, 0.95, 1.0]
    doc = Transcript.from_words([f"w{i}" for i in range(len(confidences))])
    doc.set_suggestions([Suggestion(doc[i].id, Kind.PUNCT, ",", {",": p, "": 1 - p})
                         for i, p in enumerate(confidences)])

    def counted(low, high=None):
        return sum(1 for s in doc.iter_suggestions() if s.state == State.PENDING
                   and low <= s.confidence and (high is None or s.confidence < high))

    def check():
        for low, high in [(0, 0.57), (0.57, 0.9), (0.9, None), (0.6, 0.9), (0, None), (0.95, 1.0),
                          (1.0, None), (0.3, 0.3)]:
            assert doc.pending_between(low, high) == counted(low, high), (low, high)

    check()
    assert doc.pending_between(0.57, 0.9) == 3 and doc.pending_between(0.9) == 3
    doc.accept(doc[6].id, Kind.PUNCT)  # the 0.9 one
    doc.reject(doc[2].id, Kind.PUNCT)  # the 0.57 one
    check()
    assert doc.pending_between(0.9) == 2 and doc.pending_between(0.57, 0.9) == 2
    doc.set_suggestions([Suggestion(doc[0].id, Kind.PUNCT, ".", {".": 0.92, "": 0.08})])
    check()
    doc.accept_all(0.9)
    check()
    while doc.history.undo():
        check()
    while doc.history.redo():
        check()
    again = Transcript(doc.tokens, suggestions=doc.all_suggestions())
    assert again.pending_between(0.0) == again.pending_count == doc.pending_count


def test_suggestions_are_copied_all_or_by_token():
    from editor.core.document.transcript import Kind, Suggestion, Transcript

    doc = Transcript.from_words("one two three".split())
    mark = Suggestion(doc[0].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})
    case = Suggestion(doc[0].id, Kind.CASE, "One", {"One": 0.6, "one": 0.4})
    other = Suggestion(doc[2].id, Kind.PUNCT, ".", {".": 0.6, "": 0.4})
    doc.set_suggestions([mark, case, other])
    assert sorted(map(id, doc.all_suggestions())) == sorted(map(id, (mark, case, other)))
    assert sorted(map(id, doc.suggestions_on([doc[0].id, doc[1].id, 999]))) == sorted(map(id, (mark, case)))
    assert doc.suggested_count() == 2


def test_a_snapshot_taken_later_is_of_the_text_as_it_stood():
    """The restoration's copy of the words is made on its worker thread: edits made meanwhile on
    the UI thread do not reach it."""
    doc = Transcript.from_text("one two three\n\nfour five\n\nsix seven eight")
    take = doc.snapshot_later()
    expected = doc.snapshot()
    doc.replace_span(0, 1, "and so")
    doc.set_paragraph_start(1, True)
    assert take() == expected
    assert expected.paragraph_starts == (0, 3, 5) and expected.words[0] == "one"
    assert doc.snapshot_later()() == doc.snapshot() != expected
    assert Transcript().snapshot_later()() == Transcript().snapshot()


def test_a_long_snapshot_taken_later_in_pieces_is_whole():
    """Taken a piece at a time (so that its thread lets the window have the interpreter between
    them), a long text's snapshot has every word and paragraph start, at the pieces' edges too."""
    from editor.core.document import transcript as module

    words = [f"w{i}" for i in range(3 * module._PIECE + 7)]
    starts = [0, module._PIECE - 1, module._PIECE, module._PIECE + 1, 2 * module._PIECE, len(words) - 1]
    text = "\n\n".join(" ".join(words[a:b]) for a, b in zip(starts, [*starts[1:], len(words)]))
    doc = Transcript.from_text(text)
    taken = doc.snapshot_later()()
    assert taken == doc.snapshot()
    assert taken.words == tuple(words) and taken.paragraph_starts == tuple(starts)
    assert doc.speaker_names() == []


def test_has_suggestions_follows_every_state(doc):
    assert doc.has_suggestions() and not Transcript.from_words(["a", "b"]).has_suggestions()
    doc.accept(doc[4].id, "punct")  # an accepted one is still a suggestion of the document
    doc.clear_suggestions()
    assert doc.has_suggestions() == bool(doc.suggestions())
    doc.clear_suggestions(states=(State.ACCEPTED, State.PENDING, State.REJECTED))
    assert not doc.has_suggestions() and not doc.suggestions()
    doc.history.undo()
    assert doc.has_suggestions()


def test_word_indices_stay_right_through_edits_anywhere_and_undo():
    """Only the words after an edit get new indices (brought up to date when next asked)."""
    import random

    from editor.core.document.transcript import Transcript

    rng = random.Random(7)
    doc = Transcript.from_words([f"w{i}" for i in range(400)])
    ever: set[int] = set()
    for step in range(120):
        a = rng.randrange(len(doc) + 1)
        b = min(len(doc), a + rng.randrange(4))
        doc.replace_span(a, b, " ".join(f"n{step}x{k}" for k in range(rng.randrange(4))))
        if step % 7 == 0:
            doc.history.undo()
        if step % 3 == 0:  # asked between edits, or not
            assert all(doc.index_of(t.id) == i for i, t in enumerate(doc.tokens))
        elif len(doc):  # or one word only, before, in or after the edit, and a word gone
            k = rng.choice([rng.randrange(len(doc)), min(a, len(doc) - 1), len(doc) - 1])
            assert doc.index_of(doc[k].id) == k
            ever.update(t.id for t in doc.tokens)
            gone_ids = ever - {t.id for t in doc.tokens}
            assert not any(doc.has_token(i) for i in gone_ids)
    assert all(doc.index_of(t.id) == i for i, t in enumerate(doc.tokens))
    gone = Transcript.from_words(["a", "b", "c"])
    first = gone[0].id
    gone.replace_span(0, 1, "")
    assert not gone.has_token(first) and gone.index_of(gone[0].id) == 0


def test_indices_of_many_ids_agree_with_index_of_through_edits():
    """``indices_of`` (one pass at C speed, for a long paste's words) gives what ``index_of``
    gives per id, also right after an edit left the later indices out of date; the gone left out."""
    import random

    from editor.core.document.transcript import Transcript

    rng = random.Random(11)
    doc = Transcript.from_words([f"w{i}" for i in range(300)])
    ever: set[int] = {t.id for t in doc.tokens}
    for step in range(80):
        a = rng.randrange(len(doc) + 1)
        b = min(len(doc), a + rng.randrange(5))
        doc.replace_span(a, b, " ".join(f"n{step}x{k}" for k in range(rng.randrange(5))))
        if step % 5 == 0:
            doc.history.undo()
        ever.update(t.id for t in doc.tokens)
        asked = rng.sample(sorted(ever), min(len(ever), 60))
        present = {t.id for t in doc.tokens}
        if step % 2:  # asked first, right after the edit, while later indices are out of date
            got = doc.indices_of(asked)
            expected = [doc.index_of(i) for i in asked if i in present]
        else:
            expected = [doc.index_of(i) for i in asked if i in present]
            got = doc.indices_of(asked)
        assert got == expected
        assert [doc[i].id for i in got] == [i for i in asked if i in present]


def test_a_copy_taken_later_holds_the_document_as_it_was_asked_for(doc):
    """An export written on a worker thread reads a copy taken when it was asked for: the person's
    later edits, decisions and paragraph breaks are not in it, and the copy shares no state."""
    doc.set_paragraph_start(4)
    doc.accept(doc[4].id, Kind.PUNCT)
    take = doc.copy_later()
    before = render(doc, RenderPolicy.parse("all"))
    doc.edit_token(0, surface="Well")
    doc.reject(doc[7].id, Kind.PUNCT)
    doc.set_paragraph_start(4, False)
    copy = take()
    assert [t.id for t in copy.tokens] == [t.id for t in doc.tokens]
    assert copy[0].surface != "Well" and copy.paragraph_starts == [0, 4]
    assert copy.suggestion(doc[7].id, Kind.PUNCT).state == State.PENDING
    assert copy.suggestion(doc[4].id, Kind.PUNCT).state == State.ACCEPTED
    assert copy.metadata == doc.metadata and copy.pending_count == 5
    assert render(copy, RenderPolicy.parse("all")) == before != render(doc, RenderPolicy.parse("all"))
    copy.accept(copy[2].id, Kind.PUNCT)  # and changing the copy leaves the document alone
    assert doc.suggestion(doc[2].id, Kind.PUNCT).state == State.PENDING
