"""Undo stacks: steps, groups, merging, the saved state."""

from editor.core.document.transcript import Transcript
from editor.core.document.history import History


class Append:
    def __init__(self, log, item):
        self.log, self.item = log, item

    def do(self):
        self.log.append(self.item)

    def undo(self):
        self.log.remove(self.item)


def test_saved_state_follows_undo_and_redo():
    log, h = [], History()
    assert h.is_clean
    h.push(Append(log, 1), "one")
    assert not h.is_clean
    h.mark_clean()
    assert h.is_clean
    h.push(Append(log, 2), "two")
    assert not h.is_clean
    h.undo()
    assert h.is_clean and log == [1]
    h.undo()
    assert not h.is_clean
    h.redo()
    assert h.is_clean


def test_merge_after_save_is_a_change():
    log, h = [], History()
    h.push(Append(log, 1), "chunk", merge_id="pass")
    h.mark_clean()
    h.push(Append(log, 2), "chunk", merge_id="pass")
    assert not h.is_clean and len(h) == 2


def test_limit_drops_oldest_steps():
    log, h = [], History(limit=2)
    h.mark_clean()
    for i in range(3):
        h.push(Append(log, i), str(i))
    assert len(h) == 2 and h.undo_text == "2"
    h.undo()
    h.undo()
    assert not h.can_undo and log == [0] and not h.is_clean


def test_changed_fires_per_step():
    log, h, seen = [], History(), []
    h.changed.connect(lambda: seen.append(1))
    with h.group("both"):
        h.push(Append(log, 1))
        h.push(Append(log, 2))
    assert len(seen) == 1 and h.undo_text == "both"
    assert not h.can_redo


def test_a_big_step_undone_and_redone_piecewise():
    from editor.core.document.transcript import Kind, State, Suggestion, Token, Transcript

    doc = Transcript([Token(f"w{i}") for i in range(30)])
    doc.set_suggestions([Suggestion(t.id, Kind.PUNCT, ",", {",": 0.9, "": 0.1}) for t in doc])
    chosen = doc.pending()
    for k in range(0, 30, 10):  # three slices, one step
        assert doc.accept_suggestions(chosen[k:k + 10], text="Accept all", merge_id="bulk") == 10
    assert len(doc.history) == 2 and doc.history.undo_text == "Accept all"
    assert all(t.punct == "," for t in doc)
    steps = doc.history.stepwise(undo=True)
    assert next(steps) == 5  # six commands: tokens and suggestions of three slices
    assert doc.history.busy and not doc.history.can_undo and not doc.history.can_redo
    for _ in steps:
        pass
    assert not doc.history.busy and doc.history.can_redo
    assert all(t.punct == "" for t in doc) and len(doc.pending()) == 30
    for _ in doc.history.stepwise(undo=False):
        pass
    assert all(t.punct == "," for t in doc)
    assert all(s.state == State.ACCEPTED for s in doc.suggestions())
    assert doc.history.stepwise(undo=False) is None  # nothing to redo


def test_accepting_given_suggestions_skips_what_changed_since():
    from editor.core.document.transcript import Kind, Suggestion, Token, Transcript

    doc = Transcript([Token("a"), Token("b")])
    doc.set_suggestions([Suggestion(doc[0].id, Kind.PUNCT, ",", {",": 0.9, "": 0.1}),
                         Suggestion(doc[1].id, Kind.PUNCT, ".", {".": 0.9, "": 0.1})])
    chosen = doc.pending()
    doc.reject(doc[0].id, Kind.PUNCT)
    assert doc.accept_suggestions(chosen) == 1 and [t.text for t in doc] == ["a", "b."]


def test_a_state_marked_also_clean_is_clean_beside_the_saved_one():
    doc = Transcript.from_words("a b c".split())
    h = doc.history
    doc.edit_token(0, surface="x")  # not the person's work, e.g. restoration
    h.mark_also_clean()
    assert h.is_clean
    doc.edit_token(1, surface="y")
    assert not h.is_clean
    h.undo()
    assert h.is_clean  # back to the state marked also clean
    h.undo()
    assert h.is_clean  # back to the saved one
    h.redo()
    h.mark_clean()  # a save forgets the other clean states
    h.undo()
    assert not h.is_clean


def test_a_step_of_many_small_commands_counts_each_of_them():
    """Undoing thousands of empty or tiny commands at once emits as many change events."""
    from editor.core.document.history import History, Swap

    history = History()
    with history.group("many"):
        for _ in range(50):
            history.push(Swap(lambda _v: None, [], []))
    assert history.size_of_step() == 50
