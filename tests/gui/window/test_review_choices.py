"""Choices that never act unseen, and one decision with both its halves, in the window (issue
#41): a Delete on one "I" leaves the others as they were, a choice carried elsewhere shows there
as a pending proposal from your choice (listed and tinted), and one Ctrl+Z takes it all back."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor, QTextFormat

from editor.core.document.transcript import Kind, State, Suggestion, Token, Transcript

#: A raw interview's words: "i" the pronoun eight times, lower case, no marks.
INTERVIEW = ("so when i meet people i say hello and if i give a talk i read it out and every time "
             "i read i smile because i know what i mean and the apple pie was good and the apple "
             "juice too and an apple a day").split()


def _tint(view, index: int) -> str | None:
    """The confidence band the word ``index`` is tinted in (a proposal), None when plain."""
    a, _p, _b = view.token_range(index)
    cursor = QTextCursor(view.document())
    cursor.setPosition(a)
    cursor.setPosition(a + 1, QTextCursor.MoveMode.KeepAnchor)
    band = cursor.charFormat().property(QTextFormat.Property.UserProperty)
    return band or None


def _interview(window) -> Transcript:
    doc = Transcript([Token(w) for w in INTERVIEW])
    found = [Suggestion(t.id, Kind.CASE, "I", {"I": 0.97, "i": 0.03}) for t in doc if t.word == "i"]
    found += [Suggestion(t.id, Kind.CASE, "Apple", {"Apple": 0.55, "apple": 0.45})
              for t in doc if t.word == "apple"]
    found.append(Suggestion(doc[2].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}))  # "when, i"
    doc.set_suggestions(found)
    window.set_transcript(doc, restore=False)
    window.view.setFocus()
    return doc


def _listed(window, key) -> bool:
    return any(s.key == key for s in window.panel.items)


def test_one_delete_on_a_suggested_i_leaves_every_other_i_pending_and_visible(window, qtbot):
    doc = _interview(window)
    view = window.view
    eyes = [i for i, t in enumerate(doc) if t.word == "i"]
    others = {doc[i].id: doc.suggestion(doc[i].id, Kind.CASE) for i in eyes[1:]}
    pending = doc.pending_count
    view.set_current(doc.suggestion(doc[eyes[0]].id, Kind.CASE))
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert doc.suggestion(doc[eyes[0]].id, Kind.CASE).state == State.REJECTED
    assert doc.pending_count == pending - 1
    said = window.statusBar().currentMessage()
    assert "other place" not in said  # nothing carried elsewhere, nothing to say of it
    qtbot.waitUntil(lambda: window.panel.pending_count == pending - 1, timeout=3000)
    qtbot.waitUntil(lambda: all(_listed(window, (token_id, Kind.CASE)) for token_id in others), timeout=3000)
    for i in eyes[1:]:
        s = doc.suggestion(doc[i].id, Kind.CASE)
        assert s == others[doc[i].id] and s.state == State.PENDING  # as Stet proposed it
        assert _tint(view, i) == "high"  # tinted in the text, "I" shown
    assert _tint(view, eyes[0]) is None
    assert view.shown_text().split()[eyes[1]] == "I"


def test_a_rejection_carried_elsewhere_is_a_pending_keep_proposal_listed_and_tinted(window, qtbot):
    doc = _interview(window)
    view = window.view
    apples = [i for i, t in enumerate(doc) if t.word == "apple"]
    pending = doc.pending_count
    view.set_current(doc.suggestion(doc[apples[0]].id, Kind.CASE))
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    said = window.statusBar().currentMessage()
    assert "Rejected Apple" in said and "keeping it as it is in 2 other places" in said
    assert "from your choice" in said
    assert doc.pending_count == pending - 1
    for i in apples[1:]:
        keep = doc.suggestion(doc[i].id, Kind.CASE)
        assert keep.state == State.PENDING and keep.source == "choice" and keep.value == "apple"
        assert _tint(view, i) == "low"  # Stet thought otherwise: 45 %
        assert "keep it as it is" in view.pointer.tooltip_html([keep])
        assert "keep ‘apple’ as it is · from your choice" in window.panel.describe(keep)
    qtbot.waitUntil(lambda: all(_listed(window, (doc[i].id, Kind.CASE)) for i in apples[1:]), timeout=3000)
    # Delete on one of them: the choice does not hold there; Stet's "Apple" is back, pending
    view.set_current(doc.suggestion(doc[apples[1]].id, Kind.CASE))
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    back = doc.suggestion(doc[apples[1]].id, Kind.CASE)
    assert back.state == State.PENDING and back.value == "Apple" and back.source == "model"
    assert "Stet's own proposal here is back" in window.statusBar().currentMessage()
    assert doc.suggestion(doc[apples[2]].id, Kind.CASE).source == "choice"  # the other stays


def test_a_repeated_choice_is_undone_in_one_ctrl_z(window, qtbot):
    doc = _interview(window)
    view = window.view
    apples = [i for i, t in enumerate(doc) if t.word == "apple"]
    before = [doc.suggestion(doc[i].id, Kind.CASE) for i in apples]
    view.set_current(before[0])
    qtbot.keyClick(view, Qt.Key.Key_Return)  # "Apple" accepted, proposed at the two others
    assert doc[apples[0]].surface == "Apple"
    assert all(doc.suggestion(doc[i].id, Kind.CASE).source == "choice" for i in apples[1:])
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert [doc.suggestion(doc[i].id, Kind.CASE) for i in apples] == before
    assert doc[apples[0]].surface == "apple"
    assert view.current is not None and view.current.key == before[0].key  # under review again


def test_all_from_your_choice_accepted_or_turned_down_together_and_listed_apart(window, qtbot):
    doc = _interview(window)
    view = window.view
    apples = [i for i, t in enumerate(doc) if t.word == "apple"]
    view.set_current(doc.suggestion(doc[apples[0]].id, Kind.CASE))
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    window.panel.filter.setCurrentText("From your choice")
    assert sorted(doc.index_of(s.token_id) for s in window.panel.items) == apples[1:]
    assert "2 of" in window.panel.count_label.text() and "from your choice" in window.panel.count_label.text()
    view.setFocus()
    view.review.leave_review(announce=False)
    went = []
    for _ in range(3):  # Tab goes only among them, wrapping
        qtbot.keyClick(view, Qt.Key.Key_Tab)
        went.append(doc.index_of(view.current.token_id))
    assert went == [apples[1], apples[2], apples[1]]
    window.review.reject_choices()
    assert all(doc.suggestion(doc[i].id, Kind.CASE).value == "Apple" for i in apples[1:])
    assert "Turned down 2 suggestions from your choice" in window.statusBar().currentMessage()
    window.undo()
    assert window.review.accept_choices() == 2
    assert [doc[i].surface for i in apples] == ["apple"] * 3  # kept as they are
    assert all(doc.suggestion(doc[i].id, Kind.CASE).state == State.ACCEPTED for i in apples[1:])
    assert doc.suggestion(doc[0].id, Kind.CASE) is None and doc.pending_count > 0  # the rest wait
    assert "Accepted 2 suggestions from your choice" in window.statusBar().currentMessage()


def test_enter_on_a_capital_accepts_the_full_stop_it_hangs_on_in_one_step(window, qtbot):
    """Issue #41, "half a decision": Enter on "And" while the full stop before it was pending
    gave "i'm maria And today", with no word. Since #48 the capital is part of the full stop's
    decision point: selecting it selects the point, and Enter decides both."""
    doc = Transcript([Token(w) for w in ["i'm", "maria", "and", "today", "we", "open"]])
    doc.set_suggestions([Suggestion(doc[1].id, Kind.PUNCT, ".", {".": 0.55, "": 0.45}),
                         Suggestion(doc[2].id, Kind.CASE, "And", {"And": 0.7, "and": 0.3})])
    window.set_transcript(doc, restore=False)
    view = window.view
    view.setFocus()
    view.set_current(doc.suggestion(doc[2].id, Kind.CASE))
    assert view.current.key == (doc[1].id, Kind.PUNCT)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert [t.text for t in doc][:3] == ["i'm", "maria.", "And"]
    said = window.statusBar().currentMessage()
    assert said.startswith("Accepted ‘.’ full stop") and "capitalised ‘And’" in said
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # one step, both halves
    assert [t.text for t in doc][:3] == ["i'm", "maria", "and"]
    assert doc.suggestion(doc[1].id, Kind.PUNCT).state == State.PENDING
    assert doc.suggestion(doc[2].id, Kind.CASE).state == State.PENDING
    # the capital alone, from its own menu (no point): still settles the full stop it hangs on
    doc.pick(doc[2].id, Kind.CASE)
    assert [t.text for t in doc][:3] == ["i'm", "maria.", "And"]


def test_a_decision_from_the_context_menu_says_where_it_was_proposed(window, qtbot):
    doc = _interview(window)
    apples = [i for i, t in enumerate(doc) if t.word == "apple"]
    window.view.review.decide_and_say(doc[apples[0]].id, Kind.CASE, value="Apple")
    said = window.statusBar().currentMessage()
    assert "Accepted Apple" in said and "proposed the same in 2 other places" in said


def test_restoring_again_keeps_a_pending_proposal_from_your_choice(window, qtbot):
    """A pass's proposals went in over the person's: "Restore again" (or a pass still streaming
    in while they review) took a proposal from their choice away unseen."""
    from tests.gui.conftest import WORDS

    doc = Transcript([Token(w) for w in (WORDS * 3)])
    seeds = [i for i, t in enumerate(doc) if t.word == "seed"]
    doc.set_suggestions([Suggestion(doc[seeds[0]].id, Kind.CASE, "Seed", {"Seed": 0.8, "seed": 0.2})])
    with qtbot.waitSignal(window.restoration_finished, timeout=5000):
        window.set_transcript(doc, restore=False)
    window.view.review.decide(doc[seeds[0]].id, Kind.CASE)
    chosen = {i: doc.suggestion(doc[i].id, Kind.CASE) for i in seeds[1:]}
    assert all(s.source == "choice" and s.state == State.PENDING for s in chosen.values())
    with qtbot.waitSignal(window.restoration_finished, timeout=60000):
        window.start_restoration()
    assert window.restoration_status == "done"
    for i in seeds[1:]:
        s = doc.suggestion(doc[i].id, Kind.CASE)
        assert s.source == "choice" and s.value == "Seed" and s.state == State.PENDING


def test_a_choice_on_a_frequent_word_is_proposed_and_turned_down_a_slice_at_a_time(window, qtbot):
    """Over REPEAT_AT_ONCE places (and BULK_AT_ONCE words) the repeat and "Reject all from your
    choice" run a slice per turn of the event loop; each is still one undo step."""
    from editor.gui.text_view.review import REPEAT_AT_ONCE
    from editor.gui.window.review import BULK_AT_ONCE

    doc = Transcript([Token(w) for w in ["an", "apple", "and"] * (BULK_AT_ONCE // 3 + 100)])
    apples = [i for i, t in enumerate(doc) if t.word == "apple"]
    assert len(apples) > REPEAT_AT_ONCE and len(doc) > BULK_AT_ONCE
    doc.set_suggestions([Suggestion(doc[i].id, Kind.CASE, "Apple", {"Apple": 0.6, "apple": 0.4})
                         for i in apples])
    window.set_transcript(doc, restore=False)
    qtbot.waitUntil(lambda: not window.view.building, timeout=20_000)
    view = window.view
    view.setFocus()
    view.set_current(doc.suggestion(doc[apples[0]].id, Kind.CASE))
    with qtbot.waitSignal(window.bulk_finished, timeout=30_000):
        qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert f"keeping it as it is in {len(apples) - 1:,} other places" in window.statusBar().currentMessage()
    assert doc.pending_count == len(apples) - 1
    assert all(doc.suggestion(doc[i].id, Kind.CASE).source == "choice" for i in apples[1:])
    with qtbot.waitSignal(window.bulk_finished, timeout=30_000):
        assert window.review.reject_choices() == -1
    assert all(doc.suggestion(doc[i].id, Kind.CASE).source == "model" for i in apples[1:])
    assert f"Turned down {len(apples) - 1:,} suggestions" in window.statusBar().currentMessage()
    with qtbot.waitSignal(window.bulk_finished, timeout=30_000):
        window.undo()  # the turning down, in one step
    assert all(doc.suggestion(doc[i].id, Kind.CASE).source == "choice" for i in apples[1:])
    with qtbot.waitSignal(window.bulk_finished, timeout=30_000):
        window.undo()  # the Delete and all it proposed, in one step
    assert all(doc.suggestion(doc[i].id, Kind.CASE).source == "model" for i in apples)
    assert doc.pending_count == len(apples)
