"""Issue #48 in the window: a sentence end and its capital are one decision (one Tab stop, one
Enter, one Delete, one digit, one undo step, one row, counted once), and a pass that never skips
(Enter on a paragraph break goes on to the same word's suggestions; a decision made from the list
goes on down the list)."""

import pytest
from PySide6.QtCore import Qt

from editor.core.document.transcript import Kind, State, Suggestion, Token, Transcript

WORDS = ["i'm", "maria", "and", "today", "we", "open", "the", "cafe"]


def _maria():
    """"i'm maria. And today, we open the cafe": a full stop and its capital, and a comma."""
    doc = Transcript([Token(w) for w in WORDS])
    doc.set_suggestions([Suggestion(doc[1].id, Kind.PUNCT, ".", {".": 0.55, ",": 0.35, "": 0.10}),
                         Suggestion(doc[2].id, Kind.CASE, "And", {"And": 0.7, "and": 0.3}),
                         Suggestion(doc[3].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})])
    return doc


@pytest.fixture
def maria(window):
    doc = _maria()
    window.set_transcript(doc, restore=False)
    window.panel.refresh()
    window.view.setFocus()
    return window


def _texts(doc):
    return [t.text for t in doc]


def test_one_tab_stop_frames_both_halves_and_says_so(maria, qtbot):
    view, doc, panel = maria.view, maria.transcript, maria.panel
    arrived = []
    view.point_arrived.connect(arrived.append)
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert view.current.key == (doc[1].id, Kind.PUNCT)
    assert len(arrived) == 1 and arrived[0].keys == ((doc[1].id, Kind.PUNCT), (doc[2].id, Kind.CASE))
    assert len(view.extraSelections()) == 2  # the full stop and "And" framed
    said = panel.current_label.text()
    assert "and the capital after it" in said and "Enter: accept both" in said
    assert "‘And’" in said and "comma" in said and "‘and’" in said  # a comma keeps "and"
    # said at the end of the event loop's turn (text_view.accessibility.Narrator)
    qtbot.waitUntil(lambda: "with the capital “And” after it" in view.accessibleDescription(), timeout=3000)
    assert "Enter accepts both" in view.accessibleDescription()
    qtbot.keyClick(view, Qt.Key.Key_Tab)  # the next stop is the comma: no stop at "And"
    assert view.current.key == (doc[3].id, Kind.PUNCT)
    qtbot.keyClick(view, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert view.current.key == (doc[1].id, Kind.PUNCT)
    # one row in the list for the two, saying both
    rows = [panel.list.item(n).text() for n in range(panel.list.count())]
    assert len(rows) == 2 and any("add ‘.’ full stop + ‘And’" in row for row in rows)


def test_enter_accepts_both_and_one_undo_takes_both_back(maria, qtbot):
    view, doc = maria.view, maria.transcript
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert _texts(doc)[:3] == ["i'm", "maria.", "And"]
    assert doc.suggestion(doc[2].id, Kind.CASE).state == State.ACCEPTED
    assert view.current.key == (doc[3].id, Kind.PUNCT)  # on to the next decision
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert _texts(doc)[:3] == ["i'm", "maria", "and"]
    assert doc.pending_count == 3
    assert view.current.key == (doc[1].id, Kind.PUNCT)  # the decision undone is under review again


def test_delete_rejects_both(maria, qtbot):
    view, doc = maria.view, maria.transcript
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert _texts(doc)[:3] == ["i'm", "maria", "and"]
    assert doc.suggestion(doc[1].id, Kind.PUNCT).state == State.REJECTED
    assert doc.suggestion(doc[2].id, Kind.CASE).state == State.REJECTED
    assert view.current.key == (doc[3].id, Kind.PUNCT)


def test_a_digit_picks_a_comma_and_the_capital_stays_lower(maria, qtbot):
    view, doc = maria.view, maria.transcript
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    qtbot.keyClick(view, Qt.Key.Key_2)  # the second alternative: a comma
    assert _texts(doc)[:3] == ["i'm", "maria,", "and"]
    assert doc.suggestion(doc[2].id, Kind.CASE).state == State.REJECTED
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert view.current.key == (doc[1].id, Kind.PUNCT)
    qtbot.keyClick(view, Qt.Key.Key_1)  # the full stop: the capital comes with it
    assert _texts(doc)[:3] == ["i'm", "maria.", "And"]


def test_accept_all_counts_a_sentence_end_and_its_capital_as_one(maria, qtbot):
    doc = maria.transcript
    assert maria.review.accept_all(0.5) == 2
    assert doc.pending_count == 0 and _texts(doc)[:4] == ["i'm", "maria.", "And", "today,"]
    said = maria.statusBar().currentMessage()
    assert said.startswith("Accepted 2 suggestions (1 of them a sentence end with its capital)")
    qtbot.keyClick(maria.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    dialog = maria.review.accept_all_dialog()
    dialog.box.selectAll()
    qtbot.keyClicks(dialog.box, "50")
    from PySide6.QtWidgets import QDialogButtonBox
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    qtbot.waitUntil(lambda: ok.text() == "Accept 2")
    dialog.reject()


def test_enter_on_a_paragraph_break_never_skips_the_words_own_suggestions(window, qtbot):
    """"¶ Now": Enter on the break went past the capital "Now" (95 %) and "Now," (49 %) after it."""
    doc = Transcript([Token("we"), Token("left", punct="."), Token("now"), Token("we"), Token("go")])
    doc.set_suggestions([Suggestion(doc[2].id, Kind.BREAK, "¶", {"¶": 0.7, "": 0.3}),
                         Suggestion(doc[2].id, Kind.CASE, "Now", {"Now": 0.95, "now": 0.05}),
                         Suggestion(doc[2].id, Kind.PUNCT, ",", {",": 0.49, "": 0.51}),
                         Suggestion(doc[4].id, Kind.PUNCT, ".", {".": 0.9, "": 0.1})])
    window.set_transcript(doc, restore=False)
    view = window.view
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert view.current.key == (doc[2].id, Kind.BREAK)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert view.current.key == (doc[2].id, Kind.CASE)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert view.current.key == (doc[2].id, Kind.PUNCT)
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert view.current.key == (doc[4].id, Kind.PUNCT)
    # and back: Shift+Tab from the mark after "go" visits them all the other way
    for _decision in range(3):
        doc.history.undo()
    view.set_current(doc.suggestion(doc[4].id, Kind.PUNCT))
    seen = []
    for _ in range(3):
        qtbot.keyClick(view, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
        seen.append(view.current.kind)
    assert seen == [Kind.PUNCT, Kind.CASE, Kind.BREAK]


def test_the_status_bar_counts_what_is_not_yet_visited(maria, qtbot):
    view, label = maria.view, maria.status_label
    maria.restoring.show_pending(maria.transcript.pending_decisions)
    # three suggestions, two rows: the full stop and its capital are one
    assert "2 suggestions to review" in label.text() and "visited" not in label.text()
    qtbot.keyClick(view, Qt.Key.Key_Tab)  # the full stop and its capital: one visited
    assert "2 suggestions to review, 1 not yet visited" in label.text()


def _commas(n=120):
    """``n`` words, a comma proposed after each, confidences spread so the list's order (least
    confident first) is not the text's, and some at 99 %."""
    doc = Transcript([Token(f"w{i}") for i in range(n)])
    doc.set_suggestions([Suggestion(doc[i].id, Kind.PUNCT, ",",
                                    {",": p, "": 1 - p})
                         for i in range(n) for p in [0.99 if i % 2 else 0.3 + 0.6 * ((i * 37) % n) / n]])
    return doc


def test_a_pass_down_the_list_keeps_its_place(window, qtbot):
    """Enter on a row clicked in the list went on to the next suggestion in the text, whose row
    (99 %) was at the end of the list: the list jumped away from where the person worked."""
    window.resize(800, 600)
    doc = _commas()
    window.set_transcript(doc, restore=False)
    panel, view = window.panel, window.view
    panel.refresh()
    item = panel.list.item(10)
    panel.list.scrollToItem(item)
    qtbot.mouseClick(panel.list.viewport(), Qt.MouseButton.LeftButton,
                     pos=panel.list.visualItemRect(item).center())
    first = panel.items[10]
    assert view.current.key == first.key
    below = [s.key for s in panel.items[11:16]]
    for key in below:
        qtbot.keyClick(view, Qt.Key.Key_Return)
        assert view.current.key == key  # the row below, not the next word's 99 % comma
        panel.refresh()  # the list is built again after each decision: its place stays
        assert panel.list.currentRow() == 10
        rect = panel.list.visualItemRect(panel.list.currentItem())
        assert panel.list.viewport().rect().contains(rect.center())
    assert all(s.confidence < 0.99 for s in [doc.suggestion(*k) for k in below])


def test_ctrl_tab_and_the_confidence_order_stop_once_at_a_point(window, qtbot):
    """Capitals less sure than the full stops they follow rank first by confidence, yet have no
    stop of their own: Ctrl+Tab and Tab in confidence order go to their points, each once."""
    words = [f"w{i}" for i in range(24)]
    doc = Transcript([Token(w) for w in words])
    found = []
    for n, i in enumerate(range(0, 20, 4)):  # five points: "w0. W1", "w4. W5", ...
        found.append(Suggestion(doc[i].id, Kind.PUNCT, ".", {".": 0.6 + n * 0.05, "": 0.4 - n * 0.05}))
        found.append(Suggestion(doc[i + 1].id, Kind.CASE, f"W{i + 1}", {f"W{i + 1}": 0.2 + n * 0.01,
                                                                         f"w{i + 1}": 0.8 - n * 0.01}))
    found.append(Suggestion(doc[22].id, Kind.PUNCT, ",", {",": 0.9, "": 0.1}))
    doc.set_suggestions(found)
    window.set_transcript(doc, restore=False)
    view = window.view
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)  # the least sure point
    assert view.current.key == (doc[0].id, Kind.PUNCT)
    view.order = "confidence"
    seen = [view.current.key]
    for _ in range(5):
        qtbot.keyClick(view, Qt.Key.Key_Tab)
        seen.append(view.current.key)
    assert seen == [(doc[i].id, Kind.PUNCT) for i in (0, 4, 8, 12, 16, 22)]
    qtbot.keyClick(view, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert view.current.key == (doc[16].id, Kind.PUNCT)
