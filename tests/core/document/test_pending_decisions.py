"""The pending count in decisions (``Transcript.pending_decisions``): a sentence end and the
capital after it are one, as the list's rows and Tab's stops count them, kept through every
kind of change without a pass over the suggestions."""

import random

import pytest

from editor.core import Kind, State, Suggestion, Transcript


def end(token_id, p=0.8):
    return Suggestion(token_id, "punct", ".", {".": p, ",": (1 - p) / 2, "": (1 - p) / 2})


def capital(doc, index, p=0.7):
    word = doc[index].word
    return Suggestion(doc[index].id, "case", word.capitalize(), {word.capitalize(): p, word: 1 - p})


def decisions(doc, low=0.0, high=None):
    """What the pending decisions are, walked afresh (decision_points), led in [low, high)."""
    return sum(1 for point in doc.decision_points()
               if low <= point.lead.probs[point.lead.value] and (high is None or point.lead.probs[point.lead.value] < high))


def test_a_sentence_end_and_its_capital_are_one_decision():
    doc = Transcript.from_words("we met in paris it was cold then".split())
    doc.set_suggestions([end(doc[3].id, 0.9), capital(doc, 4, 0.5), Suggestion(doc[1].id, "punct", ",", {",": 0.6, "": 0.4})])
    assert doc.pending_count == 3
    assert doc.pending_decisions == 2 == len(doc.decision_points())
    assert doc.pending_decisions_between(0.0, 0.6) == 0  # the capital's 50 % is counted with its mark's 90 %
    assert doc.pending_decisions_between(0.6, 0.9) == 1
    assert doc.pending_decisions_between(0.9) == 1
    doc.pick(doc[3].id, Kind.PUNCT)  # the end accepted takes its capital with it
    assert doc.pending_count == doc.pending_decisions == 1
    doc.history.undo()
    assert doc.pending_decisions == 2
    doc.accept(doc[3].id, Kind.PUNCT, ",")  # a comma chosen: the capital stays, decided alone
    assert doc.pending_decisions == len(doc.decision_points())
    doc.history.undo()
    doc.replace_span(4, 5, "It")  # the capital typed by hand: no longer a change, decided alone
    assert doc.pending_decisions == len(doc.decision_points())


@pytest.mark.parametrize("seed", range(6))
def test_the_count_follows_every_change_as_a_fresh_walk_counts(seed):
    rng = random.Random(seed)
    words = [rng.choice(["so", "we", "met", "it", "was", "paris", "then", "cold", "and"]) for _ in range(60)]
    doc = Transcript.from_words(words)

    def propose():
        made = []
        for i in range(len(doc)):
            if doc.suggestion(doc[i].id, Kind.PUNCT) is None and rng.random() < 0.4:
                made.append(end(doc[i].id, rng.choice([0.5, 0.75, 0.95])))
            if i and doc[i].word.islower() and doc.suggestion(doc[i].id, Kind.CASE) is None and rng.random() < 0.5:
                made.append(capital(doc, i, rng.choice([0.3, 0.65, 0.92])))
        doc.set_suggestions(made)

    propose()
    assert doc.pending_decisions == decisions(doc)  # the first count: one pass
    for _ in range(150):
        pending = [s for s in doc.iter_suggestions(state=State.PENDING)]
        action = rng.random()
        if action < 0.15 and pending:
            s = rng.choice(pending)
            doc.pick(s.token_id, s.kind)
        elif action < 0.25 and pending:
            s = rng.choice(pending)
            doc.turn_down(s.token_id, s.kind)
        elif action < 0.35 and pending:
            s = rng.choice(pending)
            doc.accept(s.token_id, s.kind, rng.choice(list(s.probs)))
        elif action < 0.45 and pending:
            s = rng.choice(pending)
            doc.reject(s.token_id, s.kind)
        elif action < 0.6 and len(doc) > 4:
            i = rng.randrange(len(doc) - 2)
            doc.replace_span(i, i + rng.randrange(0, 3), rng.choice(["", "so", "Then we", "it was cold"]))
        elif action < 0.7:
            i = rng.randrange(len(doc))
            doc.edit_token(i, surface=rng.choice([doc[i].word, doc[i].word.capitalize()]))
        elif action < 0.8:
            doc.history.undo()
        elif action < 0.88:
            doc.history.redo()
        elif action < 0.94:
            propose()
        else:
            doc.accept_all(0.7)
        assert doc.pending_decisions == decisions(doc)
        for low, high in ((0.0, 0.6), (0.6, 0.9), (0.9, None)):
            assert doc.pending_decisions_between(low, high) == decisions(doc, low, high)


def test_a_word_changed_or_taken_out_alone_rejoins_its_pair():
    """Changes that touch no suggestion: a word's case set by an undoable token change, and a
    splice recorded from another copy (a recovery journal's replay) that takes words out."""
    import dataclasses

    doc = Transcript.from_words("we met in paris it was cold then".split())
    doc.set_suggestions([end(doc[3].id), capital(doc, 4)])
    assert doc.pending_decisions == 1
    doc.push_tokens([(4, dataclasses.replace(doc[4], surface="It"))], "Case by hand")
    assert doc.pending_decisions == 2 == len(doc.decision_points())  # the capital is no change: alone
    doc.history.undo()
    assert doc.pending_decisions == 1 == len(doc.decision_points())
    # "it" taken out with its suggestions, as a journal records it: "paris" and "was" side by side
    doc.apply_recorded(splice=(4, 1, []), suggestions={doc[4].id: []})
    assert doc.pending_decisions == len(doc.decision_points()) == 1
    doc.set_suggestions([capital(doc, 4)])  # "Was" after the end proposed after "paris"
    assert doc.pending_decisions == len(doc.decision_points()) == 1
