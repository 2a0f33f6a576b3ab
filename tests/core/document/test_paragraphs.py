"""Proposed paragraph breaks (editor.core.document.paragraphs): where they go, how they are reviewed, what
export does with them, and where a view starts a line that runs on (no break there)."""

import random

from editor.core.document.records import Spread
from editor.core.document.transcript import Kind, State, Suggestion, Token, Transcript
from editor.core.review.repeat_choices import review_decisions
from editor.core.document.paragraphs import BREAK, EVERY, LONG, MARGIN, NEAR, RUN_ON_LIMIT, RUN_ON_STEP, kept_lines
from editor.core.document.text import ends_sentence
from editor.core.render import ALL, NONE, RenderPolicy, render, render_words


def raw(n: int, **kw) -> Transcript:
    return Transcript([Token(f"w{i % 37}", **kw) for i in range(n)])


def marked(n: int, every: int = 37) -> Transcript:
    """Words with the author's full stop after every ``every``-th."""
    return Transcript([Token(f"w{i % 37}", punct="." if i % every == every - 1 else "") for i in range(n)])


def positions(doc: Transcript, state: State = State.PENDING) -> list[int]:
    return sorted(doc.index_of(s.token_id) for s in doc.suggestions(kind=Kind.BREAK, state=state))


def test_a_short_paragraph_gets_none_a_long_one_one_per_window():
    doc = marked(LONG)
    assert doc.suggest_paragraphs() == 0 and not doc.suggestions()
    doc = marked(3_000)
    doc.suggest_paragraphs()
    found = positions(doc)
    assert len(found) == 3_000 // EVERY
    gaps = [b - a for a, b in zip([0, *found], [*found, len(doc)])]
    assert min(gaps) >= 2 * MARGIN - 37 and max(gaps) <= EVERY + 2 * MARGIN + 37
    assert all(s.confidence == 1.0 and s.value == BREAK and ends_sentence(doc[doc.index_of(s.token_id) - 1].punct)
               for s in doc.pending(kind=Kind.BREAK))
    # raw words, no sentence end known yet: no break proposed (the view shows lines that run on)
    doc = raw(3_000)
    assert doc.suggest_paragraphs() == 0 and not doc.suggestions()
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


def test_a_pause_decides_among_sentence_ends_but_never_makes_one():
    def timed(pause_before: int) -> Transcript:
        return Transcript([Token(f"w{i}", punct="." if i in (280, 330) else "", start=i + (1.5 if i >= pause_before else 0),
                                 end=i + 0.5 + (1.5 if i >= pause_before else 0)) for i in range(1_000)])

    doc = timed(10_000)  # no pause: the sentence end nearer the window's middle (300)
    doc.suggest_paragraphs()
    assert 281 in positions(doc) and 331 not in positions(doc)
    doc = timed(331)  # a long pause after the other full stop
    doc.suggest_paragraphs()
    s = doc.suggestion(doc[331].id, Kind.BREAK)
    assert s is not None and s.confidence == 1.0 and 281 not in positions(doc)  # shown: P(end), no more
    doc = timed(320)  # a pause in mid-sentence is no place for a break
    doc.suggest_paragraphs()
    assert 320 not in positions(doc) and 281 in positions(doc)


def test_a_guessed_or_spread_time_is_no_pause():
    """Stamped text (noScribe, oTranscribe) guesses each segment's end from a pace or the next
    stamp, and subtitles spread a cue's time over its words: a gap there was never silence, so it
    does not pull a break away from the sentence end nearer the window's middle."""
    def timed(spread: Spread) -> Transcript:
        return Transcript([Token(f"w{i}", punct="." if i in (280, 330) else "", start=i + (1.5 if i >= 331 else 0),
                                 end=i + 0.5 + (1.5 if i >= 331 else 0), spread=spread if i == 330 else Spread.NONE)
                           for i in range(1_000)])

    doc = timed(Spread.NONE)  # measured: the long pause after the second full stop decides
    doc.suggest_paragraphs()
    assert 331 in positions(doc) and 281 not in positions(doc)
    doc = timed(Spread.END)  # the same gap, but the word's end was guessed
    doc.suggest_paragraphs()
    assert 281 in positions(doc) and 331 not in positions(doc)


def test_a_break_only_where_a_sentence_end_is_likelier_than_not():
    doc = raw(1_000)
    doc.set_suggestions([
        # the marginals of the end marks add up: "." or "?" at 0.65
        Suggestion(doc[99].id, Kind.PUNCT, ".", {".": 0.35, "?": 0.3, "": 0.35}),
        # a comma proposed, whatever its alternatives: no break after it
        Suggestion(doc[299].id, Kind.PUNCT, ",", {",": 0.45, ".": 0.3, "?": 0.25}),
        # an end mark at even odds: running on is as likely
        Suggestion(doc[499].id, Kind.PUNCT, ".", {".": 0.5, "": 0.5}),
        Suggestion(doc[699].id, Kind.PUNCT, ".", {".": 0.45, "": 0.55}),
        # near the window's edge: where its middle has none
        Suggestion(doc[800 + NEAR + 1].id, Kind.PUNCT, "!", {"!": 0.9, "": 0.1}),
    ])
    doc.suggest_paragraphs()
    assert positions(doc) == [100, 800 + NEAR + 2]
    assert doc.suggestion(doc[100].id, Kind.BREAK).confidence == 0.65


def test_restoration_moves_a_pending_proposal_but_never_a_decided_one():
    doc = raw(1_000)
    doc.set_suggestions([Suggestion(doc[70].id, Kind.PUNCT, ".", {".": 0.9, "": 0.1}),
                         Suggestion(doc[270].id, Kind.PUNCT, "?", {"?": 0.7, "": 0.3})])
    doc.suggest_paragraphs(0, 400)
    assert positions(doc) == [71, 271]
    doc.reject(doc[271].id, Kind.BREAK)  # the person decided in the second window
    doc.set_suggestions([Suggestion(doc[120].id, Kind.PUNCT, ".", {".": 0.95, "": 0.05}),
                         Suggestion(doc[299].id, Kind.PUNCT, ".", {".": 0.99, "": 0.01})])
    doc.suggest_paragraphs(0, 400)
    assert positions(doc) == [121] and positions(doc, State.REJECTED) == [271]
    doc.reject(doc[120].id, Kind.PUNCT)  # no end there after all: the break goes back
    doc.suggest_paragraphs(0, 400)
    assert positions(doc) == [71]
    doc.reject(doc[70].id, Kind.PUNCT)  # none left in the window: none proposed
    doc.suggest_paragraphs(0, 400)
    assert positions(doc) == [] and positions(doc, State.REJECTED) == [271]


def test_accept_reject_undo_and_the_document_paragraphs():
    doc = marked(1_000)
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
    doc.accept_all(0.0)  # every mark: both breaks (none was proposed in mid-sentence)
    assert doc.paragraph_starts == [0, 100, 300] and positions(doc) == []


def test_export_follows_the_policy_like_every_other_suggestion():
    doc = Transcript([Token(f"w{i}", punct="." if i % 50 == 49 else "") for i in range(1_000)])
    doc.suggest_paragraphs()
    assert len(doc.pending(kind=Kind.BREAK)) == 5
    assert "\n" not in render(doc, NONE)  # pending proposals are left out by default
    assert render(doc, ALL).count("\n\n") == 5
    assert render(doc, RenderPolicy(0.5)).count("\n\n") == 5
    assert sum(w.paragraph_start for w in render_words(doc, NONE)) == 1


def test_rejected_breaks_join_unless_the_run_gets_too_long_for_the_view():
    doc = marked(3 * RUN_ON_LIMIT)
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

    doc = marked(1_500)
    doc.suggest_paragraphs()
    doc.accept(doc.pending(kind=Kind.BREAK)[0].token_id, Kind.BREAK)
    doc.reject(doc.pending(kind=Kind.BREAK)[0].token_id, Kind.BREAK)
    write_any(doc, tmp_path / "a.stet")
    back = read_any(tmp_path / "a.stet")
    assert back.paragraph_starts == doc.paragraph_starts
    assert {(s.token_id, s.state) for s in back.suggestions(kind=Kind.BREAK)} == \
        {(s.token_id, s.state) for s in doc.suggestions(kind=Kind.BREAK)}


def test_no_break_picked_counts_as_running_on():
    doc = marked(3 * RUN_ON_LIMIT)
    doc.suggest_paragraphs()
    for s in doc.pending(kind=Kind.BREAK):
        doc.accept(s.token_id, Kind.BREAK, "")  # the alternative "run on", picked
    assert doc.paragraph_starts == [0]
    kept = sorted(doc.index_of(i) for i in kept_lines(doc))
    assert kept and max(b - a for a, b in zip([0, *kept], [*kept, len(doc)])) <= RUN_ON_LIMIT


def test_words_arriving_in_batches_get_proposals_as_they_come_in_their_undo_step():
    """As a transcription appends words (editor.gui.work.transcription does this after each batch)."""
    doc = Transcript()
    for _batch in range(12):
        first = len(doc)
        doc.append_tokens([Token(f"w{i}", punct="." if i % 37 == 36 else "") for i in range(100)], merge_id="asr")
        doc.suggest_paragraphs(max(0, first - LONG - EVERY), len(doc), text="Add words", merge_id="asr")
        found = positions(doc)
        if len(doc) > LONG:
            assert found and max(b - a for a, b in zip([0, *found], [*found, len(doc)])) <= EVERY + 2 * MARGIN + 100
    assert len(found) == len(set(found)) and len(found) >= 1_200 // (EVERY + 2 * MARGIN)
    doc.history.undo()  # words and proposals were one step
    assert len(doc) == 0 and not doc.suggestions()


def test_raw_words_run_on_in_lines_that_stay_put_and_go_once_proposals_come():
    doc = raw(10_000)
    doc.suggest_paragraphs()
    lines = kept_lines(doc)
    at = sorted(doc.index_of(i) for i in lines)
    assert at == list(range(RUN_ON_STEP, 10_000 - RUN_ON_LIMIT + 1, RUN_ON_STEP))
    assert max(b - a for a, b in zip([0, *at], [*at, len(doc)])) <= RUN_ON_LIMIT
    # words typed before them: the lines stay on their words (none moves, none is added)
    doc.replace_span(10, 10, "new words")
    assert kept_lines(doc, previous=lines) == lines
    # restoration brings sentence ends: proposals, and the lines they make needless go
    doc.set_suggestions([Suggestion(doc[i].id, Kind.PUNCT, ".", {".": 0.8, "": 0.2})
                         for i in range(36, len(doc), 37)])
    doc.suggest_paragraphs()
    assert positions(doc) and kept_lines(doc, previous=lines) == set()
    # the same words cut into paragraphs: none needed
    assert kept_lines(Transcript(list(doc.tokens), paragraph_starts=range(0, len(doc), 1_000))) == set()


def test_no_break_is_ever_proposed_at_even_odds_or_less():
    """A synthetic document of every kind of place: author's marks, pending mark suggestions with
    their marginals split among end marks or not, decided ones, pauses; whatever is proposed is
    likelier than the text running on, after a sentence end as the text will stand."""
    marks = [".", "?", "!", ",", ";", ":", ""]
    for seed in range(5):
        rng = random.Random(seed)
        tokens = []
        t = 0.0
        for i in range(6_000):
            gap = rng.choice([0.0, 0.0, 0.0, 0.4, 1.2, 3.0])
            tokens.append(Token(f"w{i % 50}", punct=rng.choice(marks) if rng.random() < 0.01 else "",
                                start=t + gap, end=t + gap + 0.3))
            t += gap + 0.3
        doc = Transcript(tokens)
        made = []
        for i in rng.sample(range(len(doc)), 600):
            p = [rng.random() for _ in marks]
            total = sum(p)
            probs = {m: round(x / total, 4) for m, x in zip(marks, p)}
            value = rng.choice([max(probs, key=probs.__getitem__), rng.choice(marks)])
            if value != doc[i].punct:
                made.append(Suggestion(doc[i].id, Kind.PUNCT, value, probs))
        doc.set_suggestions(made)
        for s in rng.sample(made, 100):
            (doc.accept if rng.random() < 0.5 else doc.reject)(s.token_id, Kind.PUNCT)
        doc.suggest_paragraphs()
        proposed = doc.pending(kind=Kind.BREAK)
        assert len(proposed) > 6_000 // (2 * EVERY)
        for s in proposed:
            assert s.confidence > 0.5 and s.probs[""] < 0.5
            before = doc.index_of(s.token_id) - 1
            mark = doc.suggestion(doc[before].id, Kind.PUNCT)
            assert ends_sentence(mark.value if mark is not None and mark.state == State.PENDING else doc[before].punct)


def test_raw_words_are_seen_to_need_no_break_without_looking_at_each_window(monkeypatch):
    """Raw words as a recogniser writes them (no mark, no suggestion): no word can end a
    sentence, so none is proposed, and that is found without looking at each window (20-25 ms
    at 100,000 words, in the turn that opens them). A mark written, or a suggestion, and the
    windows are looked at again."""
    from editor.core.document import paragraphs

    looked: list[int] = []
    real = paragraphs._place
    monkeypatch.setattr(paragraphs, "_place", lambda *a: (looked.append(1), real(*a))[1])
    doc = Transcript([Token(f"w{i % 50}") for i in range(3 * LONG)])
    assert doc.suggest_paragraphs(undoable=False) == 0
    assert not looked and not doc.suggestions(kind=Kind.BREAK)
    marked = Transcript([Token(f"w{i % 50}", punct="." if i % 37 == 36 else "") for i in range(3 * LONG)])
    marked.suggest_paragraphs(undoable=False)
    assert looked and marked.suggestions(kind=Kind.BREAK)
