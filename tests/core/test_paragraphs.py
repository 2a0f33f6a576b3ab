"""Proposed paragraph breaks (editor.core.paragraphs): where they go, how they are reviewed, what
export does with them, and which rejected ones a view still starts on a new line."""

from editor.core.document import Kind, State, Suggestion, Token, Transcript
from editor.core.learning import review_decisions
from editor.core.paragraphs import BREAK, EVERY, LONG, MARGIN, RUN_ON_LIMIT, kept_lines
from editor.core.render import ALL, NONE, RenderPolicy, render, render_words


def raw(n: int, **kw) -> Transcript:
    return Transcript([Token(f"w{i % 37}", **kw) for i in range(n)])


def positions(doc: Transcript, state: State = State.PENDING) -> list[int]:
    return sorted(doc.index_of(s.token_id) for s in doc.suggestions(kind=Kind.BREAK, state=state))


def test_a_short_paragraph_gets_none_a_long_one_one_per_window():
    doc = raw(LONG)
    assert doc.suggest_paragraphs() == 0 and not doc.suggestions()
    doc = raw(3_000)
    doc.suggest_paragraphs()
    found = positions(doc)
    assert len(found) == 3_000 // EVERY
    gaps = [b - a for a, b in zip([0, *found], [*found, len(doc)])]
    assert min(gaps) >= 2 * MARGIN and max(gaps) <= EVERY + 2 * MARGIN
    # raw words, nothing known yet: each in its window's middle, with no claim of a sentence end
    assert all(s.confidence == 0.0 and s.value == BREAK for s in doc.pending(kind=Kind.BREAK))
    # paragraphs the author made are left alone
    doc = Transcript([Token(f"w{i}") for i in range(1_200)], paragraph_starts=[400, 800])
    assert doc.suggest_paragraphs() == 0


def test_breaks_go_to_sentence_ends_the_authors_first_then_the_models_then_pauses():
    tokens = [Token(f"w{i}", punct="." if i == 130 else "") for i in range(1_000)]
    doc = Transcript(tokens)
    # the model proposes an end mark after word 250, fairly sure; and a comma after 260
    doc.set_suggestions([Suggestion(doc[250].id, Kind.PUNCT, ".", {".": 0.8, "": 0.2}),
                         Suggestion(doc[260].id, Kind.PUNCT, ",", {",": 0.9, "": 0.1})])
    doc.suggest_paragraphs()
    s = {doc.index_of(s.token_id): s for s in doc.pending(kind=Kind.BREAK)}
    assert 131 in s and s[131].confidence == 1.0  # after the author's full stop
    assert 251 in s and s[251].confidence == 0.8  # after the model's one, as sure as it is
    timed = Transcript([Token(f"w{i}", start=i + (1.5 if i == 320 else 0), end=i + 0.5) for i in range(1_000)])
    timed.suggest_paragraphs()
    assert 320 in positions(timed)  # the long pause before word 320


def test_restoration_moves_a_pending_proposal_but_never_a_decided_one():
    doc = raw(1_000)
    doc.suggest_paragraphs()
    before = positions(doc)
    assert 100 in before
    doc.set_suggestions([Suggestion(doc[70].id, Kind.PUNCT, ".", {".": 0.9, "": 0.1}),
                         Suggestion(doc[270].id, Kind.PUNCT, "?", {"?": 0.7, "": 0.3})])
    doc.reject(doc[before[1]].id, Kind.BREAK)  # the person decided in the second window
    doc.suggest_paragraphs(0, 400)
    after = positions(doc)
    assert 71 in after and 100 not in after
    assert 271 not in after and positions(doc, State.REJECTED) == [before[1]]


def test_accept_reject_undo_and_the_document_paragraphs():
    doc = raw(1_000)
    doc.suggest_paragraphs()
    first = doc.pending(kind=Kind.BREAK)[0]
    at = doc.index_of(first.token_id)
    doc.accept(first.token_id, Kind.BREAK)
    assert doc.paragraph_starts == [0, at] and doc.suggestion(first.token_id, Kind.BREAK).original == ""
    doc.history.undo()
    assert doc.paragraph_starts == [0]
    doc.history.redo()
    doc.reject(first.token_id, Kind.BREAK)  # an accepted break taken back
    assert doc.paragraph_starts == [0]
    assert doc.suggestion(first.token_id, Kind.BREAK).state == State.REJECTED
    assert review_decisions(doc) == []  # not a case or mark choice to learn from


def test_accept_all_breaks_only_where_a_sentence_ends_as_the_text_will_stand():
    doc = raw(1_000)
    doc.set_suggestions([Suggestion(doc[99].id, Kind.PUNCT, ".", {".": 0.95, "": 0.05}),
                         Suggestion(doc[299].id, Kind.PUNCT, ".", {".": 0.6, "": 0.4})])
    doc.suggest_paragraphs()
    assert {100, 300} <= set(positions(doc))
    doc.accept_all(0.9)  # the mark before 300 stays pending: so does its break
    assert doc.paragraph_starts == [0, 100]
    assert doc.suggestion(doc[300].id, Kind.BREAK).state == State.PENDING
    doc.history.undo()
    doc.accept_all(0.0)  # every mark: both breaks; the mid-sentence proposals stay pending
    assert doc.paragraph_starts == [0, 100, 300]
    assert len(doc.pending(kind=Kind.BREAK)) == len(positions(doc)) and positions(doc)


def test_export_follows_the_policy_like_every_other_suggestion():
    doc = Transcript([Token(f"w{i}", punct="." if i % 50 == 49 else "") for i in range(1_000)])
    doc.suggest_paragraphs()
    assert len(doc.pending(kind=Kind.BREAK)) == 5
    assert "\n" not in render(doc, NONE)  # pending proposals are left out by default
    assert render(doc, ALL).count("\n\n") == 5
    assert render(doc, RenderPolicy(0.5)).count("\n\n") == 5
    assert sum(w.paragraph_start for w in render_words(doc, NONE)) == 1


def test_rejected_breaks_join_unless_the_run_gets_too_long_for_the_view():
    doc = raw(3 * RUN_ON_LIMIT)
    doc.suggest_paragraphs()
    assert kept_lines(doc) == set()
    first = doc.pending(kind=Kind.BREAK)[0]
    doc.reject(first.token_id, Kind.BREAK)
    assert kept_lines(doc) == set()  # two pieces of a few hundred words: joined
    doc.reject_all(kind=Kind.BREAK)
    kept = sorted(doc.index_of(i) for i in kept_lines(doc))
    runs = [b - a for a, b in zip([0, *kept], [*kept, len(doc)])]
    assert kept and max(runs) <= RUN_ON_LIMIT
    assert len(kept) <= len(doc) // (RUN_ON_LIMIT - EVERY - 2 * MARGIN)  # only where needed


def test_a_saved_project_keeps_the_proposals_and_decisions(tmp_path):
    from editor.core.formats import read_any, write_any

    doc = raw(1_500)
    doc.suggest_paragraphs()
    doc.accept(doc.pending(kind=Kind.BREAK)[0].token_id, Kind.BREAK)
    doc.reject(doc.pending(kind=Kind.BREAK)[0].token_id, Kind.BREAK)
    write_any(doc, tmp_path / "a.stet")
    back = read_any(tmp_path / "a.stet")
    assert back.paragraph_starts == doc.paragraph_starts
    assert {(s.token_id, s.state) for s in back.suggestions(kind=Kind.BREAK)} == \
        {(s.token_id, s.state) for s in doc.suggestions(kind=Kind.BREAK)}


def test_no_break_picked_counts_as_running_on():
    doc = raw(3 * RUN_ON_LIMIT)
    doc.suggest_paragraphs()
    for s in doc.pending(kind=Kind.BREAK):
        doc.accept(s.token_id, Kind.BREAK, "")  # the alternative "run on", picked
    assert doc.paragraph_starts == [0]
    kept = sorted(doc.index_of(i) for i in kept_lines(doc))
    assert kept and max(b - a for a, b in zip([0, *kept], [*kept, len(doc)])) <= RUN_ON_LIMIT


def test_words_arriving_in_batches_get_proposals_as_they_come_in_their_undo_step():
    """As a transcription appends words (editor.gui.transcription does this after each batch)."""
    doc = Transcript()
    for _batch in range(12):
        first = len(doc)
        doc.append_tokens([Token(f"w{i}") for i in range(100)], merge_id="asr")
        doc.suggest_paragraphs(max(0, first - LONG - EVERY), len(doc), text="Add words", merge_id="asr")
        found = positions(doc)
        if len(doc) > LONG:
            assert found and max(b - a for a, b in zip([0, *found], [*found, len(doc)])) <= EVERY + 2 * MARGIN + 100
    assert len(found) == len(set(found)) and len(found) >= 1_200 // (EVERY + 2 * MARGIN)
    doc.history.undo()  # words and proposals were one step
    assert len(doc) == 0 and not doc.suggestions()
