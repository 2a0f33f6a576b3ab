"""What a decision costs on a long transcript: the rules of editor.core.review.repeat_choices look
at each occurrence of a word only where that can change something (the window's stall on Enter
is measured by tests/perf/bench_gui_stalls.py)."""

from editor.core.document.transcript import Kind, Transcript
from editor.core.review.repeat_choices import repeat_typed, snapshot_shown, withdraw_start_capital


def test_a_sentence_end_before_a_frequent_word_reads_no_occurrence_when_no_choice_is_pending(monkeypatch):
    """A full stop decided before "The" withdraws the proposals from the person's choice of
    "The" elsewhere; with none pending (nearly always) it changes nothing, and it no longer reads
    the suggestions of each of the word's occurrences one by one (6,000 of "the" in 100,000
    words held the window 35 ms on Enter)."""
    doc = Transcript.from_words(("we saw the tree and the river " * 300).split())
    the = [i for i, t in enumerate(doc.tokens) if t.word == "the"]
    doc.edit_token(the[0], surface="The")
    doc.edit_token(the[0] - 1, punct=".")  # "we saw. The tree"
    looked: list[int] = []
    real = doc.suggestion
    monkeypatch.setattr(doc, "suggestion", lambda token_id, kind: (looked.append(token_id), real(token_id, kind))[1])
    assert withdraw_start_capital(doc, doc[the[0] - 1].id) == 0
    assert len(looked) <= 2  # the word after the mark, not its 599 other occurrences


def test_with_a_choice_pending_the_proposals_are_still_withdrawn(monkeypatch):
    """The same rule where it acts: "Two" typed mid-sentence proposed "Two" elsewhere; a full stop
    typed before it withdraws those proposals (as tests/core/review/test_review_choices.py checks on a
    short text), on a long one too. A choice made once repeats here even where Stet proposed nothing
    (the window asks for it twice there: tests/core/review/test_repeat_evidence.py)."""
    from editor.core.review import repeat_choices

    monkeypatch.setattr(repeat_choices, "UNPROPOSED_AGREE", 1)
    doc = Transcript.from_words(("we left manhattan two years ago and two days later " * 200).split())
    twos = [i for i, t in enumerate(doc.tokens) if t.word == "two"]
    before = snapshot_shown(doc, 0, len(doc))
    doc.edit_token(twos[0], surface="Two")
    assert repeat_typed(doc, before, 0, len(doc)) == len(twos) - 1
    doc.edit_token(twos[0] - 1, punct=".")
    assert withdraw_start_capital(doc, doc[twos[0] - 1].id) == len(twos) - 1
    assert all(doc.suggestion(doc[i].id, Kind.CASE) is None for i in twos[1:])


def test_the_evidence_for_a_choice_counts_the_decided_occurrences_without_reading_each(monkeypatch):
    """A choice's evidence (the person's decisions on the same word elsewhere) counts the few
    decided occurrences; it no longer looks up the suggestion of each of the word's thousands
    of occurrences one by one on Enter."""
    from editor.core.document.transcript import Suggestion
    from editor.core.review.repeat_choices import choice_evidence, decide, repeat_targets

    doc = Transcript.from_words(("so we saw paris and then paris again " * 300).split())
    paris = [i for i, t in enumerate(doc.tokens) if t.word == "paris"]
    doc.set_suggestions([Suggestion(doc[i].id, Kind.CASE, "Paris", {"Paris": 0.9, "paris": 0.1})
                         for i in paris[:3]])
    decide(doc, doc[paris[1]].id, Kind.CASE, repeat=False)  # "Paris": one for
    decide(doc, doc[paris[2]].id, Kind.CASE, accept=False, repeat=False)  # "paris": one against
    doc.edit_token(paris[0], surface="Paris")
    targets = repeat_targets(doc, doc[paris[0]].id, Kind.CASE)
    assert len(targets) == len(paris) - 1
    looked: list[int] = []
    real = doc.suggestion
    monkeypatch.setattr(doc, "suggestion", lambda token_id, kind: (looked.append(token_id), real(token_id, kind))[1])
    assert choice_evidence(doc, doc[paris[0]].id, Kind.CASE, targets) == (2, 1)
    assert len(looked) <= 4  # the decided ones (and what the rule reads around them), not 599


def test_a_word_s_positions_follow_every_change_of_the_words_and_outlive_accepting():
    """``Transcript.positions_of`` (where a decision may repeat) reads raw words it keeps between
    calls: they stay while marks and capitals are accepted (no copy of 100,000 words at each
    Enter) and follow every change of the words, undone and redone too."""
    from dataclasses import replace

    from editor.core.document.transcript import Suggestion
    from editor.core.review.repeat_choices import decide

    doc = Transcript.from_words("the cat and the dog and the bird".split())
    assert doc.positions_of("the") == [0, 3, 6] and doc.positions_of("owl") == []
    kept = doc._words
    doc.set_suggestions([Suggestion(doc[1].id, Kind.PUNCT, ".", {".": 0.9, "": 0.1}),
                         Suggestion(doc[3].id, Kind.CASE, "The", {"The": 0.9, "the": 0.1})])
    decide(doc, doc[1].id, Kind.PUNCT, repeat=False)
    decide(doc, doc[3].id, Kind.CASE, repeat=False)
    assert doc.positions_of("the") == [0, 3, 6] and doc._words is kept  # accepting: the same words
    doc.delete_span(1, 2)  # "cat" gone: every later word moves
    assert doc.positions_of("the") == [0, 2, 5]
    doc.history.undo()
    assert doc.positions_of("the") == [0, 3, 6]
    doc.push_tokens([(4, replace(doc[4], word="the"))], "a word changed in place")
    assert doc.positions_of("the") == [0, 3, 4, 6]
    doc.history.undo()
    assert doc.positions_of("the") == [0, 3, 6]
