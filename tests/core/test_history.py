"""Undo stacks: steps, groups, merging, the saved state."""

from editor.core.history import History


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
