"""Review keys that cannot edit by accident, and what a pick does to the next word's capital."""

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QTextCursor

from editor.core.document.transcript import Kind, State, Suggestion, Token, Transcript
from editor.core.settings import Settings
from editor.gui.text_view.gutter import format_time
from editor.gui.text_view.view import QtTranscriptView


@pytest.fixture
def doc():
    words = ["later", "we", "met", "at", "the", "station"]
    return Transcript([Token(w) for w in words])


@pytest.fixture
def view(qtbot, doc):
    v = QtTranscriptView(doc, Settings())
    qtbot.addWidget(v)
    v.resize(600, 300)
    v.show()
    v.setFocus()
    return v


def caret_to(view, position):
    cursor = view.textCursor()
    cursor.setPosition(position)
    view.setTextCursor(cursor)


def messages(view):
    seen = []
    view.message.connect(seen.append)
    return seen


def test_review_keys_act_only_while_a_suggestion_is_current(view, doc, qtbot):
    doc.set_suggestions([Suggestion(doc[0].id, Kind.PUNCT, ",", {",": 0.6, ".": 0.3, "": 0.1}),
                         Suggestion(doc[3].id, Kind.PUNCT, ",", {",": 0.5, "": 0.5})])
    seen = messages(view)
    assert not view.reviewing
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert view.reviewing and view.current.key == (doc[0].id, Kind.PUNCT)
    assert view.textCursor().selectedText() == ","  # visibly current
    assert view.extraSelections()  # and framed
    qtbot.keyClick(view, Qt.Key.Key_Right)  # the caret moves away: back to editing
    assert not view.reviewing and view.current is None
    assert any("edit the text again" in m for m in seen)
    assert not view.extraSelections()
    text = view.shown_text()
    assert text.startswith("later, we")
    caret_to(view, len("later, w"))
    qtbot.keyClick(view, Qt.Key.Key_Delete)  # deletes a letter, as in any editor
    assert doc.suggestion(doc[0].id, Kind.PUNCT).state == State.PENDING
    assert doc.words()[:2] == ["later", "w"]
    doc.history.undo()
    caret_to(view, len("later, we met"))
    qtbot.keyClick(view, Qt.Key.Key_Return)  # a paragraph break, not an accept
    assert doc.paragraph_starts == [0, 3]
    assert doc.suggestion(doc[0].id, Kind.PUNCT).state == State.PENDING


@pytest.mark.parametrize("proposed", [True, False])
def test_enter_between_a_word_and_its_mark_starts_a_paragraph_and_keeps_the_mark(view, doc, qtbot, proposed):
    """Tab to a capital, an arrow key to the end of its word, Enter: the mark after the word
    (proposed or in the text) became a word of its own ("Later ,") and no paragraph began."""
    if proposed:
        doc.set_suggestions([Suggestion(doc[0].id, Kind.CASE, "Later", {"Later": 0.9, "later": 0.1}),
                             Suggestion(doc[0].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})])
    else:
        doc.replace_span(0, 1, "later,")
    assert view.shown_text().startswith("Later, we" if proposed else "later, we")
    qtbot.keyClick(view, Qt.Key.Key_Tab if proposed else Qt.Key.Key_Home)
    qtbot.keyClick(view, Qt.Key.Key_End if not proposed else Qt.Key.Key_Right)
    caret_to(view, len("later"))  # the caret between the word and its mark
    assert not view.reviewing
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert doc.words() == ["later", "we", "met", "at", "the", "station"]
    assert doc.paragraph_starts == [0, 1]
    if proposed:
        assert doc.suggestion(doc[0].id, Kind.PUNCT).state == State.PENDING
        assert doc.suggestion(doc[0].id, Kind.CASE).state == State.PENDING
    else:
        assert doc[0].punct == ","
    caret_to(view, len("lat"))  # inside the letters: the word splits, as in any editor
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert doc.words()[:2] == ["lat", "er"]


def test_review_keys_do_not_act_on_a_suggestion_scrolled_out_of_view(qtbot):
    """Tab, then the text scrolled away with the wheel or scroll bar: Enter accepted the
    suggestion no longer on screen (and repeated it on 2,398 other words). Now the key brings
    it back into view and acts only when pressed again."""
    from editor.gui.text_view.review import OUT_OF_VIEW_NOTE

    doc = Transcript.from_text("\n\n".join(" ".join(["word"] * 40) for _ in range(60)))
    doc.set_suggestions([Suggestion(doc[3].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})])
    view = QtTranscriptView(doc, Settings())
    qtbot.addWidget(view)
    view.resize(600, 300)
    view.show()
    view.setFocus()
    seen = messages(view)
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert view.reviewing and view.review.current_in_view()
    bar = view.verticalScrollBar()
    for key in (Qt.Key.Key_Return, Qt.Key.Key_Delete, Qt.Key.Key_2):
        bar.setValue(bar.maximum())
        assert not view.review.current_in_view()
        qtbot.keyClick(view, key)
        assert doc.suggestion(doc[3].id, Kind.PUNCT).state == State.PENDING
        assert seen[-1] == OUT_OF_VIEW_NOTE and view.review.current_in_view() and bar.value() < bar.maximum()
    assert doc.words() == ["word"] * 2400 and view.reviewing
    qtbot.keyClick(view, Qt.Key.Key_Return)  # now on screen: it acts
    assert doc.suggestion(doc[3].id, Kind.PUNCT).state == State.ACCEPTED


def test_enter_after_the_last_suggestion_does_not_edit(view, doc, qtbot):
    doc.set_suggestions([Suggestion(doc[2].id, Kind.PUNCT, ",", {",": 0.7, "": 0.3})])
    seen = messages(view)
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert doc.suggestion(doc[2].id, Kind.PUNCT).state == State.ACCEPTED
    assert view.current is None and view.reviewing
    words, paragraphs = doc.words(), doc.paragraph_starts
    for key in (Qt.Key.Key_Return, Qt.Key.Key_Delete, Qt.Key.Key_2):
        qtbot.keyClick(view, key)
    assert doc.words() == words and doc.paragraph_starts == paragraphs  # nothing edited
    assert any("No suggestion selected" in m for m in seen)
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert not view.reviewing


def test_a_click_on_a_suggestion_makes_it_current_and_a_click_elsewhere_edits(view, doc, qtbot):
    doc.set_suggestions([Suggestion(doc[4].id, Kind.CASE, "The", {"The": 0.6, "the": 0.4})])
    view.flush()
    a, _, _ = view.token_range(4)
    cursor = view.textCursor()
    cursor.setPosition(a + 1)
    point = view.cursorRect(cursor).center()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert view.reviewing and view.current.key == (doc[4].id, Kind.CASE)
    assert view.extraSelections()  # framed although nothing is selected
    seen = messages(view)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(15, 15))
    assert not view.reviewing and view.current is None
    assert any("edit the text again" in m for m in seen)
    qtbot.keyClick(view, Qt.Key.Key_Delete)  # now edits
    assert doc.suggestion(doc[4].id, Kind.CASE).state == State.PENDING


def test_picking_an_end_mark_capitalises_the_next_word(view, doc, qtbot):
    doc.set_suggestions([Suggestion(doc[0].id, Kind.PUNCT, ",", {",": 0.6, ".": 0.3, "": 0.1})])
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    qtbot.keyClick(view, Qt.Key.Key_2)  # "."
    assert view.shown_text().startswith("later. We met")
    assert [t.text for t in doc][:2] == ["later.", "We"]
    doc.history.undo()  # one step takes both back
    assert [t.text for t in doc][:2] == ["later", "we"]
    assert doc.suggestion(doc[0].id, Kind.PUNCT).state == State.PENDING


def test_a_pending_capital_follows_the_mark_picked_before_it(view, doc, qtbot):
    doc.set_suggestions([Suggestion(doc[0].id, Kind.PUNCT, ".", {".": 0.5, ",": 0.4, "": 0.1}),
                         Suggestion(doc[1].id, Kind.CASE, "We", {"We": 0.5, "we": 0.5})])
    assert view.shown_text().startswith("later. We")  # both proposed
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert view.current.key == (doc[0].id, Kind.PUNCT)
    qtbot.keyClick(view, Qt.Key.Key_2)  # a comma: the capital went with the full stop
    assert view.shown_text().startswith("later, we met")
    assert doc.suggestion(doc[1].id, Kind.CASE).state == State.REJECTED
    doc.history.undo()
    caret_to(view, 0)
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert view.current.key == (doc[0].id, Kind.PUNCT)
    qtbot.keyClick(view, Qt.Key.Key_Return)  # the full stop brings its capital: one decision (#48)
    assert [t.text for t in doc][:2] == ["later.", "We"]
    assert doc.suggestion(doc[1].id, Kind.CASE).state == State.ACCEPTED
    assert view.current is None  # nothing else pending
    assert view.shown_text().startswith("later. We met")


def test_a_name_keeps_its_capital_after_a_comma(doc):
    doc.set_suggestions([Suggestion(doc[0].id, Kind.PUNCT, ".", {".": 0.5, ",": 0.5}),
                         Suggestion(doc[1].id, Kind.CASE, "We", {"We": 0.99, "we": 0.01})])
    _, note = doc.pick(doc[0].id, Kind.PUNCT, ",")
    assert note == "" and doc.suggestion(doc[1].id, Kind.CASE).state == State.PENDING


# -- thresholds in percent, counts that stay current ----------------------------------------------
@pytest.fixture
def reviewed(window):
    doc = Transcript([Token(w) for w in ["so", "the", "station", "was", "paris", "then"]])
    doc.set_suggestions([Suggestion(doc[0].id, Kind.CASE, "So", {"So": 0.95, "so": 0.05}),
                         Suggestion(doc[2].id, Kind.PUNCT, ",", {",": 0.85, "": 0.15}),
                         Suggestion(doc[3].id, Kind.PUNCT, ".", {".": 0.3, "": 0.7}),
                         Suggestion(doc[4].id, Kind.CASE, "Paris", {"Paris": 0.99, "paris": 0.01})])
    window.set_transcript(doc, restore=False)
    return window


def test_going_back_to_review_clears_the_note_that_keys_edit(reviewed, qtbot):
    """Tab, an arrow key ("Editing: Enter, Delete and 1–9 edit the text again"), Tab: the status
    bar said both that the keys edit and, beside it, that Enter accepts."""
    from editor.gui.text_view.review import EDITING_NOTE

    view = reviewed.view
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert reviewed.statusBar().currentMessage() == EDITING_NOTE and not view.reviewing
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert view.reviewing and reviewed.mode_label.text().startswith("Reviewing")
    assert reviewed.statusBar().currentMessage() != EDITING_NOTE


def test_undo_and_redo_say_what_they_did(reviewed, qtbot):
    """After accept-all and undo the status bar still said "Accepted 2 suggestions"."""
    assert reviewed.accept_all(0.9) == 2
    assert reviewed.statusBar().currentMessage().startswith("Accepted 2 suggestions")
    assert reviewed.undo()
    assert reviewed.statusBar().currentMessage() == "Undid Accept all ≥ 90%"
    assert reviewed.redo()
    assert reviewed.statusBar().currentMessage() == "Redid Accept all ≥ 90%"


@pytest.mark.parametrize("entry", ["Accept", "Reject", "Show alternatives"])
def test_the_review_menu_says_when_no_suggestion_is_selected(reviewed, entry):
    """Review > Accept, Reject and Show alternatives did nothing, and said nothing, with no
    suggestion selected (the keys said "No suggestion selected")."""
    menu = next(a.menu() for a in reviewed.menuBar().actions() if a.text() == "&Review")
    action = next(a for a in menu.actions() if a.text().split("\t")[0].replace("&", "") == entry)
    assert reviewed.view.current is None
    action.trigger()
    assert reviewed.statusBar().currentMessage().startswith("No suggestion selected: Tab")
    assert len(reviewed.transcript.pending()) == 4


def test_undoing_a_picked_alternative_says_so(reviewed, qtbot):
    """Picking alternative 2 ("so" for the proposed "So") and undoing said "Undid Accept
    suggestion": the person had not accepted it."""
    view = reviewed.view
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert view.current.value == "So"
    qtbot.keyClick(view, Qt.Key.Key_2)
    assert reviewed.transcript[0].surface == "so"
    assert reviewed.undo()
    assert reviewed.statusBar().currentMessage() == "Undid Choose alternative"
    qtbot.keyClick(view, Qt.Key.Key_Return)  # the same suggestion, under review again
    assert reviewed.undo()
    assert reviewed.statusBar().currentMessage() == "Undid Accept suggestion"


def test_accept_all_takes_percent_and_shows_the_count_first(reviewed, qtbot):
    from PySide6.QtWidgets import QDialogButtonBox

    doc = reviewed.transcript
    dialog = reviewed.review.accept_all_dialog()
    dialog.box.selectAll()
    qtbot.keyClicks(dialog.box, "80")  # eighty percent, as the list shows it
    assert dialog.threshold == 0.8
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    qtbot.waitUntil(lambda: ok.text() == "Accept 3")
    assert "3 of 4" in dialog.summary.text()
    dialog.box.selectAll()
    qtbot.keyClicks(dialog.box, "2")  # a slip: 2 % would take the 30 % one too
    qtbot.waitUntil(lambda: "low confidence" in dialog.summary.text())
    assert "3 of 4" not in dialog.summary.text()
    qtbot.keyClick(dialog.box, Qt.Key.Key_Return)  # Enter does not accept low ones
    assert len(doc.pending()) == 4
    dialog.box.selectAll()
    qtbot.keyClicks(dialog.box, "80")
    # the count is shown before Enter acts (on a loaded machine even 4 suggestions may be
    # counted over two turns of the event loop; Enter meanwhile accepts nothing)
    qtbot.waitUntil(lambda: ok.text() == "Accept 3")
    qtbot.keyClick(dialog.box, Qt.Key.Key_Return)
    assert len(doc.pending()) == 1 and doc.pending()[0].confidence == 0.3


def test_threshold_dialogs_count_a_long_transcript_a_slice_at_a_time(window, qtbot, monkeypatch, tmp_path):
    """Accept all at or above… and Export counted every word at each change of the percent:
    ~600 ms held at 100,000 words. They count a slice per turn, say so meanwhile, and accept
    nothing before the count is shown."""
    from PySide6.QtWidgets import QDialogButtonBox

    from editor.gui.dialogs import accept_all as dialogs
    from editor.gui.dialogs.export import ExportDialog

    monkeypatch.setattr(dialogs, "_COUNT_SECONDS", 0.0)  # one slice per turn of the event loop
    doc = Transcript.from_words(["word"] * 5_000)
    doc.set_suggestions([Suggestion(t.id, Kind.PUNCT, ",", {",": 0.95 if i % 2 else 0.4, "": 0.05})
                         for i, t in enumerate(doc.tokens)])
    window.set_transcript(doc, restore=False)
    pending = doc.pending_count  # (paragraph breaks may be proposed too)
    high, everything = len(doc.pending_to_apply(0.9)), len(doc.pending_to_apply(0.3))
    low = sum(1 for s in doc.pending_to_apply(0.3) if s.confidence < window.settings.review.low)
    assert high >= 2_500 and low >= 2_500
    dialog = window.review.accept_all_dialog()
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert "Counting" in dialog.summary.text() and not ok.isEnabled()
    qtbot.keyClick(dialog.box, Qt.Key.Key_Return)  # Enter while counting accepts nothing
    assert doc.pending_count == pending
    qtbot.waitUntil(lambda: ok.isEnabled(), timeout=10_000)
    assert ok.text() == f"Accept {high:,}" and f"{high:,} of {pending:,}" in dialog.summary.text()
    dialog.box.setValue(30)  # counted afresh; the low ones said
    assert not ok.isEnabled()
    qtbot.waitUntil(lambda: ok.isEnabled(), timeout=10_000)
    assert ok.text() == f"Accept {everything:,}"
    assert f"{low:,} of them are of low confidence" in dialog.summary.text()
    dialog.reject()
    export = ExportDialog(window.settings, tmp_path / "out.txt", pending, window,
                          count=lambda t: iter([len(doc.pending_to_apply(t, end=2_500)),
                                                len(doc.pending_to_apply(t, start=2_500))]))
    export.policy.setCurrentIndex(1)  # at or above the threshold: counted in parts
    assert "Counting" in export.policy_note.text()
    qtbot.waitUntil(lambda: f"{high:,} of {pending:,}" in export.policy_note.text(), timeout=10_000)


def test_the_status_count_follows_every_change(reviewed, qtbot):
    doc = reviewed.transcript
    assert "4 suggestions to review" in reviewed.status_label.text()
    doc.accept(doc[0].id, Kind.CASE)
    qtbot.waitUntil(lambda: "3 suggestions to review" in reviewed.status_label.text())
    assert reviewed.panel.count_label.text().startswith("3 pending")
    reviewed.undo()
    qtbot.waitUntil(lambda: "4 suggestions to review" in reviewed.status_label.text())
    reviewed.accept_all(0.0)
    qtbot.waitUntil(lambda: "no suggestions pending" in reviewed.status_label.text())


def test_one_suggestion_to_review_is_one(reviewed, qtbot):
    """The status line said "1 suggestions to review"."""
    doc = reviewed.transcript
    for token, kind in ((0, Kind.CASE), (2, Kind.PUNCT), (3, Kind.PUNCT)):
        doc.accept(doc[token].id, kind)
    qtbot.waitUntil(lambda: "1 suggestion to review" in reviewed.status_label.text())


def test_export_dialog_says_what_pending_suggestions_do(reviewed, tmp_path):
    from editor.core.render import ALL, NONE, RenderPolicy
    from editor.gui.dialogs.export import ExportDialog

    doc = reviewed.transcript
    dialog = ExportDialog(reviewed.settings, tmp_path / "out.txt", len(doc.pending()), reviewed,
                          count=lambda t: len(doc.pending_to_apply(t)))
    # by default as the text shows them (#48: as `stet convert` writes them)
    assert dialog.chosen_policy == ALL and "as the text shows them" in dialog.policy_note.text()
    assert not dialog.threshold.isEnabled()
    dialog.policy.setCurrentIndex(0)
    assert dialog.chosen_policy == NONE and "left out" in dialog.policy_note.text()
    dialog.policy.setCurrentIndex(1)
    dialog.threshold.setValue(80)
    assert dialog.chosen_policy == RenderPolicy(0.8)
    assert "3 of 4 pending suggestions will be applied" in dialog.policy_note.text()
    dialog.policy.setCurrentIndex(2)
    assert dialog.chosen_policy == ALL
    reviewed.export(tmp_path / "out.txt", RenderPolicy(0.8))
    assert (tmp_path / "out.txt").read_text(encoding="utf-8").startswith("So the station, was Paris")


def test_the_list_says_what_each_suggestion_changes(reviewed):
    doc = reviewed.transcript
    doc.edit_token(5, punct=",")
    doc.set_suggestions([Suggestion(doc[5].id, Kind.PUNCT, "", {"": 0.6, ",": 0.4}),
                         Suggestion(doc[1].id, Kind.CASE, "the", {"the": 0.6, "The": 0.4})])
    doc.edit_token(1, surface="The")
    doc.set_suggestions([Suggestion(doc[1].id, Kind.CASE, "the", {"the": 0.6, "The": 0.4})])
    reviewed.panel.refresh()
    rows = {s.key: reviewed.panel.describe(s) for s in reviewed.panel.items}
    assert rows[(doc[0].id, Kind.CASE)].endswith("· capital")
    assert rows[(doc[1].id, Kind.CASE)].endswith("· lower case")
    assert rows[(doc[2].id, Kind.PUNCT)].endswith("· add ‘,’ comma")
    assert rows[(doc[5].id, Kind.PUNCT)].endswith("· remove ‘,’ comma")
    assert "lower case" in reviewed.panel.list.toolTip()


def test_a_long_row_keeps_its_confidence_the_word_and_what_it_changes_in_sight(reviewed, monkeypatch):
    """In a narrow panel rows read "…old girlfriend, maureen Stapleton. And · add…": the ellipsis
    took what the suggestion changes. Given way in the middle, they read "38%  …old girlfr….
    stapleton  · add ‘.’ full stop": the word went. The words before it give way instead, fitted
    again as the panel is made narrower; the item's text and tooltip stay whole."""
    from PySide6.QtGui import QFontMetrics

    from editor.gui.panel import pending_rows

    doc = Transcript([Token(w) for w in "she was an old girlfriend named maureen stapleton and".split()])
    doc.set_suggestions([Suggestion(doc[6].id, Kind.PUNCT, ".", {".": 0.38, "": 0.3, ",": 0.32})])
    reviewed.set_transcript(doc, restore=False)
    panel = reviewed.panel
    panel.refresh()
    row = panel.describe(panel.items[0])
    assert row == " 38%  …old girlfriend named maureen. stapleton  · add ‘.’ full stop"
    item = panel.list.item(0)
    assert item.text() == row and item.toolTip() == row
    painted = []

    def fit_row(*args):
        painted.append(fitted(*args))
        return painted[-1]

    fitted = pending_rows.fit_row
    monkeypatch.setattr(pending_rows, "fit_row", fit_row)
    full = QFontMetrics(panel.list.font()).horizontalAdvance(row)
    shown = []
    for width in (full * 4 // 5, full * 3 // 5):
        panel.list.setFixedWidth(width)
        painted.clear()
        panel.list.grab()  # paints the rows in sight, as a resize does
        shown.append(painted[0])
        assert shown[-1].startswith(" 38%  …") and " maureen. " in shown[-1], shown
        assert shown[-1].endswith("· add ‘.’ full stop"), shown
    assert len(shown[1]) < len(shown[0]) < len(row)


def test_the_list_shows_the_words_around_as_the_text_does(reviewed):
    """A row read "…station was paris then · capital" while the text showed "station, was.
    Paris then": the other proposals around a suggestion are in its row, as in the text."""
    doc = reviewed.transcript  # so the station was paris then: "So", ",", "." and "Paris" proposed
    reviewed.panel.refresh()
    rows = {s.key: reviewed.panel.describe(s) for s in reviewed.panel.items}
    assert "station, was. Paris then  · capital" in rows[(doc[4].id, Kind.CASE)]
    assert rows[(doc[2].id, Kind.PUNCT)].endswith("So the station, was.  · add ‘,’ comma")
    doc.reject(doc[2].id, Kind.PUNCT)  # decided: the text as it stands, no proposal
    assert "station was. Paris then" in reviewed.panel.describe(doc.suggestion(doc[4].id, Kind.CASE))


def test_a_confidence_just_under_a_threshold_never_reads_as_it(reviewed):
    """59.6 % was listed as "60%" under "Low < 60 %": the review shows whole percent rounded
    down, in the list, the suggestion under review and the tooltip."""
    doc = reviewed.transcript
    low = reviewed.settings.review.low
    doc.set_suggestions([Suggestion(doc[2].id, Kind.PUNCT, ",", {",": low - 0.004, "": 1 - low + 0.004}),
                         Suggestion(doc[3].id, Kind.PUNCT, ".", {".": low, "": 1 - low})])
    reviewed.panel.filter.setCurrentIndex(1)  # Low
    reviewed.panel.refresh()
    below = f"{round(low * 100) - 1}%"
    listed = {s.key: reviewed.panel.describe(s) for s in reviewed.panel.items}
    assert listed[(doc[2].id, Kind.PUNCT)].lstrip().startswith(below)
    assert (doc[3].id, Kind.PUNCT) not in listed  # at the threshold: medium, and says so
    assert reviewed.panel.describe(doc.suggestion(doc[3].id, Kind.PUNCT)).lstrip().startswith(
        f"{round(low * 100)}%")
    reviewed.view.set_current(doc.suggestion(doc[2].id, Kind.PUNCT))
    assert f"— {below}" in reviewed.panel.current_label.text()
    assert f"— {below}" in reviewed.view.pointer.tooltip_html([doc.suggestion(doc[2].id, Kind.PUNCT)])


# -- times on screen ---------------------------------------------------------------------------------
def test_the_margin_shows_each_paragraphs_time(qtbot):
    tokens = [Token(w, start=60.0 + i, end=60.5 + i) for i, w in enumerate(
        ["so", "we", "met", "then", "we", "left"])]
    doc = Transcript(tokens, paragraph_starts=[3])
    view = QtTranscriptView(doc, Settings())
    qtbot.addWidget(view)
    view.resize(500, 300)
    view.show()
    qtbot.waitExposed(view)
    assert view.gutter.isVisible() and view.viewportMargins().left() > 0
    assert [text for _, text in view.gutter.labels()] == ["1:00", "1:03"]
    assert "1:04" in view.pointer.time_html(4) and "64.0–64.5 s" in view.pointer.time_html(4)


def test_no_margin_without_times_and_proposed_breaks_are_marked(qtbot):
    from editor.core.document.paragraphs import LONG

    doc = Transcript([Token("word") for _ in range(8)])
    view = QtTranscriptView(doc, Settings())
    qtbot.addWidget(view)
    view.show()
    assert view.viewportMargins().left() == 0 and view.pointer.time_html(0) == ""
    huge = Transcript([Token(f"w{i % 50}", punct="." if i % 37 == 36 else "") for i in range(LONG + 10)])
    huge.suggest_paragraphs(undoable=False)
    view.set_transcript(huge)
    view.resize(600, 400)
    assert view.viewportMargins().left() > 0
    first = huge.index_of(huge.pending(kind="break")[0].token_id)
    view.scroll_to_token(first, place=0.1)
    assert "¶" in [text for _, text in view.gutter.labels()]


def test_a_proposed_break_shows_the_time_it_would_begin_at(qtbot):
    """A recognised transcript or a subtitle file is often one paragraph: the margin showed 0:00
    and then only ¶ for a quarter of an hour, no time beside the lines that read as paragraphs."""
    from editor.core.document.paragraphs import LONG

    doc = Transcript([Token(f"w{i % 50}", punct="." if i % 37 == 36 else "", start=2.0 * i, end=2.0 * i + 1)
                      for i in range(LONG + 10)])
    doc.suggest_paragraphs(undoable=False)
    view = QtTranscriptView(doc, Settings())
    qtbot.addWidget(view)
    view.resize(600, 400)
    view.show()
    qtbot.waitExposed(view)
    first = doc.index_of(doc.pending(kind="break")[0].token_id)
    view.scroll_to_token(first, place=0.1)
    top = next(top for top, _h, text, i in view.gutter.entries() if i == first and text == "¶")
    assert (top, format_time(doc[first].start)) in view.gutter.times()
    assert format_time(doc[first].start) in view.gutter.tip_at(top + 1)  # and the tip
    assert view.gutter.width() >= view.gutter.fontMetrics().horizontalAdvance("¶ 0:00:00")


def test_subtitle_cues_are_marked_where_they_begin(qtbot):
    from types import SimpleNamespace

    doc = Transcript([Token(w, start=i, end=i + 0.5) for i, w in enumerate(
        ["hello", "there", "how", "are", "you"])])
    doc.metadata = SimpleNamespace(  # what a subtitle reader keeps: each cue's tokens
        cues=(SimpleNamespace(token_ids=(doc[0].id, doc[1].id)),
              SimpleNamespace(token_ids=(doc[2].id, doc[3].id, doc[4].id))), extra={})
    view = QtTranscriptView(doc, Settings())
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    assert view.cue_ids == {doc[0].id, doc[2].id}
    assert "starts a subtitle cue" in view.pointer.time_html(2)
    assert "starts a subtitle cue" not in view.pointer.time_html(3)
    view.repaint()  # the bars are drawn without error


def test_the_frame_round_a_proposed_mark_takes_in_its_word(view, doc, qtbot):
    """A selected comma or full stop was framed alone: a tiny square, hard to see."""
    doc.set_suggestions([Suggestion(doc[2].id, Kind.PUNCT, ",", {",": 0.8, "": 0.2})])
    view.flush()
    view.review.next_suggestion()
    a, p, b = view.token_range(2)
    assert b - p == 1  # the comma
    framed = [x.cursor for x in view.pointer._extra["current"]]
    assert [(c.selectionStart(), c.selectionEnd()) for c in framed] == [(a, b)]  # "met,"
    caret = QTextCursor(view.document())
    caret.setPosition(a)
    left = view.cursorRect(caret).left()
    caret.setPosition(b)
    assert view.cursorRect(caret).left() - left > 3 * view.fontMetrics().horizontalAdvance(",")


def test_a_cue_keeps_its_bar_when_its_first_word_is_edited(qtbot, tmp_path):
    """The bar before a cue went away once its first word was typed over (a new word, a new id)."""
    from editor.core.formats import read_any

    path = tmp_path / "a.srt"
    path.write_text("1\n00:00:01,000 --> 00:00:03,500\nHello there.\n\n"
                    "2\n00:01:04,200 --> 00:01:07,000\nHow are you?\n", encoding="utf-8")
    doc = read_any(path)
    view = QtTranscriptView(doc, Settings())
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    assert view.cue_ids == {doc[0].id, doc[2].id}
    doc.replace_span(2, 3, "Who")  # the second cue's first word
    view.flush()
    assert doc[2].word.lower() == "who" and view.cue_ids == {doc[0].id, doc[2].id}
    assert "starts a subtitle cue, 1:04–1:07" in view.pointer.time_html(2)
    doc.replace_span(0, 1, "Hi")
    view.flush()
    assert view.cue_ids == {doc[0].id, doc[2].id}
    doc.history.undo()
    doc.history.undo()
    view.flush()
    assert view.cue_ids == {doc[0].id, doc[2].id}


def test_hovering_a_cue_s_first_word_says_when_the_cue_is_shown(qtbot, tmp_path):
    from editor.core.formats import read_any

    path = tmp_path / "a.srt"
    path.write_text("1\n00:00:01,000 --> 00:00:03,500\nHello there.\n\n"
                    "2\n00:01:04,200 --> 00:01:07,000\nHow are you?\n", encoding="utf-8")
    view = QtTranscriptView(read_any(path), Settings())
    qtbot.addWidget(view)
    view.show()
    assert "starts a subtitle cue, 1:04–1:07 (64.2–67.0 s)" in view.pointer.time_html(2)
    assert "starts a subtitle cue, 0:01–0:03 (1.0–3.5 s)" in view.pointer.time_html(0)
    assert "subtitle cue" not in view.pointer.time_html(1)


# -- opening a long transcript without a freeze ------------------------------------------------------
def test_a_replaced_transcript_is_freed_without_a_full_collection(window, qtbot):
    import gc
    import weakref

    first = Transcript([Token(w) for w in ["one", "two", "three"]])
    window.set_transcript(first, restore=False)
    window.view.edit_characters(0, 0, "zero ")  # an undo step that refers back to the document
    gone = weakref.ref(first)
    del first
    gc.disable()
    try:
        window.set_transcript(Transcript([Token("four")]), restore=False)
        qtbot.waitUntil(lambda: gone() is None, timeout=5000)  # taken apart a slice at a time
    finally:
        gc.enable()


def test_a_long_replaced_transcript_is_taken_apart_to_the_end(window, qtbot):
    """Each slice of the disposer yields; the document is taken apart to its last slice (it once
    stopped after the first, leaving the rest to a full collection that the window's frozen
    objects never get: every long document opened leaked its memory)."""
    import gc
    import weakref

    first = Transcript.from_text(" ".join(f"w{i}" for i in range(12_000)))
    first.set_suggestions([Suggestion(token_id=t.id, kind=Kind.PUNCT, value=",", probs={",": 0.9, "": 0.1})
                           for t in first.tokens])
    first.accept_all()  # an undo step of 12,000 changes, each referring back to the document
    window.set_transcript(first, restore=False)
    gone = weakref.ref(first)
    del first
    gc.disable()
    try:
        window.set_transcript(Transcript([Token("four")]), restore=False)
        qtbot.waitUntil(lambda: gone() is None, timeout=10_000)  # no full collection needed
    finally:
        gc.enable()
    assert not window.disposer.busy


def test_documents_opened_in_turn_leave_nothing_behind_on_the_window(window, qtbot):
    """Each document's connections go with it. Its signals were connected to the view's, the
    panel's and the window's methods, and psygnal keeps such a connection as a weak reference to
    the object in a reference cycle that ``disconnect`` does not break; frozen with the window's
    lasting objects, the cycles were never collected, and every document opened added its weak
    references to the view, the panel and the window for good."""
    import gc
    import weakref

    from editor.core.review.repeat_choices import decide

    def lasting() -> tuple[int, ...]:
        return tuple(weakref.getweakrefcount(o) for o in (window, window.view, window.panel,
                                                          window.playback))

    counts, gone = [], []
    gc.disable()  # as the window's frozen objects are: no full collection comes
    try:
        for _ in range(4):
            doc = Transcript([Token(w) for w in ["the", "cat", "and", "the", "dog"] * 50])
            doc.set_suggestions([Suggestion(token_id=t.id, kind=Kind.CASE, value=t.word.title(),
                                            probs={t.word.title(): 0.8, t.word: 0.2})
                                 for t in doc.tokens])
            window.set_transcript(doc, restore=False)
            decide(doc, doc[0].id, Kind.CASE)  # an undo step, and every view of the document told
            gone.append(weakref.ref(doc))
            del doc
            qtbot.waitUntil(lambda: not window.disposer.busy, timeout=5000)
            counts.append(lasting())
        window.set_transcript(Transcript([Token("four")]), restore=False)
        qtbot.waitUntil(lambda: all(r() is None for r in gone), timeout=5000)
    finally:
        gc.enable()
    assert counts == [counts[0]] * len(counts), counts


def test_the_legend_explains_every_mark_the_text_can_carry(reviewed):
    key = reviewed.panel.legend.key_html()
    for what in ("proposed", "not in the text until accepted", "remove the mark",
                 "Dotted underline", "low confidence", "Framed", "Export", "subtitle cue",
                 "Times in the margin", "Ctrl+J"):
        assert what in key, what
    assert reviewed.panel.legend.labels["high"].text() == "High ≥ 90%"


def test_a_list_refresh_queued_before_the_panel_is_deleted_does_not_run(qtbot, monkeypatch):
    """A slice queued on the event loop belongs to its panel: deleting the panel (closing the
    window while a refresh is under way) drops it instead of touching a deleted list widget."""
    import shiboken6
    from PySide6.QtWidgets import QApplication

    from editor.core.document.transcript import Kind, Suggestion, Transcript
    from editor.core.settings import Settings
    from editor.gui.panel import panel as panel_module
    from editor.gui.panel.panel import QtSuggestionList

    doc = Transcript.from_text(" ".join(f"w{i}" for i in range(20_000)))
    doc.set_suggestions([Suggestion(token_id=t.id, kind=Kind.PUNCT, value=",", probs={",": 0.6, "": 0.4})
                         for t in doc.tokens])
    monkeypatch.setattr(panel_module, "_SCAN_SECONDS", 0.0002)  # many slices, one step each
    panel = QtSuggestionList(doc, Settings())
    panel.refresh_soon()
    qtbot.waitUntil(lambda: panel._scan is not None)  # the refresh started; its next slice queued
    shiboken6.delete(panel)
    for _ in range(20):
        QApplication.processEvents()  # an error in a queued slice would fail the test here


def test_the_count_is_current_at_once_after_every_change(reviewed):
    """The list follows a moment later; the count never lags (it did by a list refresh)."""
    doc = reviewed.transcript
    before = reviewed.panel.pending_count
    doc.accept(doc.pending()[0].token_id, doc.pending()[0].kind)
    assert reviewed.panel.count_label.text().startswith(f"{before - 1} pending")
    assert f"{before - 1} suggestions to review" in reviewed.status_label.text()
    settings = reviewed.panel.settings

    def in_band(band):
        lo, hi = {"low": (0, settings.review.low), "medium": (settings.review.low, settings.review.high),
                  "high": (settings.review.high, 2)}[band]
        return sum(1 for s in doc.pending() if lo <= s.confidence < hi)

    for index, band in enumerate(("low", "medium", "high"), 1):
        reviewed.panel.filter.setCurrentIndex(index)  # a band: its count current at once too
        assert reviewed.panel.count_label.text().startswith(f"{in_band(band)} of {before - 1} pending")
    doc.history.undo()  # no refresh between: the band's count follows the change at once
    assert reviewed.panel.count_label.text().startswith(f"{in_band('high')} of {before} pending")
    top = max(doc.pending(), key=lambda s: s.confidence)
    band = "high" if top.confidence >= settings.review.high else "medium" if top.confidence >= settings.review.low else "low"
    reviewed.panel.filter.setCurrentIndex(("low", "medium", "high").index(band) + 1)
    shown = in_band(band)
    doc.reject(top.token_id, top.kind)
    assert reviewed.panel.count_label.text().startswith(f"{shown - 1} of {before - 1} pending")
    assert "counting" not in reviewed.panel.count_label.text()
    reviewed.panel.refresh()  # the list, once refreshed, agrees with the count
    assert len(reviewed.panel.items) == shown - 1


def test_undoing_accept_all_on_a_long_transcript_keeps_the_place_on_screen(window, qtbot):
    """Undoing a step that changed the words on screen does not jump to its first word, far up
    the text (where the person loses their place)."""
    from editor.core.document.transcript import Suggestion, Transcript
    from editor.gui.window.review import BULK_AT_ONCE

    doc = Transcript.from_text("\n\n".join(" ".join(["word"] * 100) for _ in range(BULK_AT_ONCE // 100 + 5)))
    doc.set_suggestions([Suggestion(t.id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}) for t in doc.tokens])
    window.set_transcript(doc, restore=False)
    qtbot.waitUntil(lambda: not window.view.building, timeout=10_000)
    window.view.scroll_to_token(len(doc) * 2 // 3)
    with qtbot.waitSignal(window.bulk_finished, timeout=20_000):
        window.accept_all(0.0)
    first, last = window.view.visible_tokens()
    assert first > len(doc) // 2
    with qtbot.waitSignal(window.bulk_finished, timeout=20_000):
        assert window.undo()
    assert doc.pending_count == len(doc)
    assert window.view.visible_tokens() == (first, last)


def test_the_panel_count_never_widens_the_panel(qtbot):
    """The count wraps rather than set the panel's least width: as it changed ("3,500 pending
    (first 400 listed)", then "600 pending..." while accepting all) the splitter took the width
    from the text, which was laid out again each time (and lost its place)."""
    from editor.gui.panel.panel import LIST_LIMIT, QtSuggestionList

    panel = QtSuggestionList(Transcript([Token("one")]), Settings())
    qtbot.addWidget(panel)
    panel.show()
    qtbot.wait(1)  # the layout brought up to date
    least = panel.minimumSizeHint().width()
    doc = Transcript.from_text(" ".join(["word"] * 3_500))
    doc.set_suggestions([Suggestion(t.id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}) for t in doc.tokens])
    panel.set_transcript(doc)
    panel.refresh()
    assert panel.count_label.text() == f"3,500 pending (first {LIST_LIMIT} listed)"
    qtbot.wait(1)
    assert panel.minimumSizeHint().width() == least


def _banded_doc():
    """Six words, a suggestion on each: confidences low, high, medium, low, high, medium."""
    doc = Transcript([Token(w) for w in ["one", "two", "three", "four", "five", "six"]])
    confidences = [0.3, 0.95, 0.7, 0.35, 0.97, 0.75]
    doc.set_suggestions([Suggestion(doc[i].id, Kind.PUNCT, ",", {",": p, "": 1 - p})
                         for i, p in enumerate(confidences)])
    return doc


def _tab_through(window, qtbot, key=Qt.Key.Key_Tab, modifier=Qt.KeyboardModifier.NoModifier, times=4):
    doc = window.transcript
    went = []
    for _ in range(times):
        qtbot.keyClick(window.view, key, modifier)
        went.append(doc.index_of(window.view.current.token_id) if window.view.current else None)
    return went


@pytest.mark.parametrize("band, indices", [("Low", [0, 3]), ("Medium", [2, 5]), ("High", [1, 4])])
def test_tab_goes_only_among_the_suggestions_the_filtered_list_shows(window, qtbot, band, indices):
    """The list filtered to a band: Tab and Shift+Tab move among its rows only (wrapping), in
    position and in confidence order, and the list shows exactly those."""
    window.set_transcript(_banded_doc(), restore=False)
    window.panel.filter.setCurrentText(band)
    shown = sorted(window.transcript.index_of(s.token_id) for s in window.panel.items)
    assert shown == indices
    window.view.setFocus()
    assert _tab_through(window, qtbot) == indices * 2
    assert _tab_through(window, qtbot, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier) \
        == [indices[0], indices[1]] * 2
    assert band.lower() in window.statusBar().currentMessage()
    window.view.order = "confidence"
    went = {window.transcript.index_of(window.view.next_suggestion().token_id) for _ in range(4)}
    assert went == set(indices)
    window.view.review.leave_review()
    assert window.transcript.index_of(window.view.review.lowest_confidence().token_id) == indices[0]


def test_tab_with_the_list_back_on_all_goes_everywhere(window, qtbot):
    window.set_transcript(_banded_doc(), restore=False)
    window.panel.filter.setCurrentText("High")
    window.panel.filter.setCurrentText("All pending")
    window.view.setFocus()
    assert _tab_through(window, qtbot, times=6) == [0, 1, 2, 3, 4, 5]


def test_tab_says_why_it_stops_when_the_filtered_band_has_none_left(window, qtbot):
    window.set_transcript(_banded_doc(), restore=False)
    window.panel.filter.setCurrentText("High")
    window.view.setFocus()
    for _ in range(2):  # accept both high ones
        qtbot.keyClick(window.view, Qt.Key.Key_Tab)
        qtbot.keyClick(window.view, Qt.Key.Key_Return)
    assert window.view.current is None
    qtbot.keyClick(window.view, Qt.Key.Key_Tab)
    assert window.view.current is None
    said = window.statusBar().currentMessage()
    assert "No pending high-confidence suggestions" in said and "4 others pending" in said
    assert "All pending" in said


def _mixed_doc(words):
    """``words`` words with marks and capitals proposed at seeded random confidences, a capital
    often right after a proposed full stop (accepted only with it: the count must know that)."""
    import random

    rng = random.Random(7)
    doc = Transcript.from_words(["word"] * words)
    found = []
    for i, t in enumerate(doc.tokens):
        if i % 3 == 0:
            p = rng.choice([0.35, 0.55, 0.72, 0.81, 0.88, 0.93, 0.97])
            found.append(Suggestion(t.id, Kind.PUNCT, ".", {".": p, "": 1 - p}))
        elif i % 3 == 1:
            p = rng.choice([0.45, 0.66, 0.79, 0.84, 0.91, 0.99])
            found.append(Suggestion(t.id, Kind.CASE, "Word", {"Word": p, "word": 1 - p}))
    doc.set_suggestions(found)
    return doc


@pytest.mark.parametrize("words", [600, 4_500])  # at once, and a slice per turn (over BULK_AT_ONCE)
def test_enter_in_the_accept_all_dialog_accepts_exactly_the_count_it_showed(window, qtbot, words,
                                                                            monkeypatch):
    """Enter in the percent box said the value again, which counted afresh: on a text counted
    in slices the button went back to "Counting…" before Enter reached it, and Enter did nothing."""
    from PySide6.QtWidgets import QDialogButtonBox

    from editor.gui.dialogs import accept_all as dialogs
    from editor.gui.window.review import BULK_AT_ONCE

    monkeypatch.setattr(dialogs, "_COUNT_SECONDS", 0.0)  # one slice per turn, however fast the machine

    doc = _mixed_doc(words)
    assert (words > BULK_AT_ONCE) == (words == 4_500)
    window.set_transcript(doc, restore=False)
    before, rows = doc.pending_count, doc.pending_decisions
    dialog = window.review.accept_all_dialog()
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    dialog.box.selectAll()
    qtbot.keyClicks(dialog.box, "85")  # eighty-five percent, typed as the list shows it
    qtbot.waitUntil(lambda: ok.isEnabled(), timeout=10_000)
    shown = int(ok.text().removeprefix("Accept ").replace(",", ""))
    summary = dialog.summary.text()
    # decisions of decisions, as the list's rows count them, and how many of them are pairs
    assert summary.startswith(f"{shown:,} of {rows:,} pending suggestions will be accepted (")
    told = shown + int(summary.split(" (", 1)[1].split(" of them a sentence end")[0].replace(",", ""))
    assert 0 < shown < told < before
    with qtbot.waitSignal(window.bulk_finished, timeout=30_000):
        qtbot.keyClick(dialog.box, Qt.Key.Key_Return)
    assert not dialog.isVisible()
    assert window.review.last_accepted == shown
    # a full stop and the capital after it, both accepted, are one decision (#48): counted once,
    # also where a slice of words ends between them
    accepted = doc.suggestions(state=State.ACCEPTED)
    marks = {s.token_id for s in accepted if s.kind == Kind.PUNCT}
    pairs = sum(1 for s in accepted if s.kind == Kind.CASE and doc[doc.index_of(s.token_id) - 1].id in marks
                and s.probs["word"] >= 0.02)  # ("Word" at 99 % is as sure as a name: decided alone)
    assert pairs > 0
    assert before - doc.pending_count == len(accepted) == shown + pairs == told
    assert window.statusBar().currentMessage().startswith(
        f"Accepted {shown:,} suggestions ({pairs:,} of them a sentence end with its capital)")


def test_escape_in_the_accept_all_dialog_accepts_nothing(window, qtbot):
    doc = _mixed_doc(600)
    window.set_transcript(doc, restore=False)
    before = doc.pending_count
    dialog = window.review.accept_all_dialog()
    dialog.box.selectAll()
    qtbot.keyClicks(dialog.box, "85")
    qtbot.keyClick(dialog.box, Qt.Key.Key_Escape)
    qtbot.wait(50)
    assert not dialog.isVisible() and dialog.result() == 0
    assert doc.pending_count == before and not doc.suggestions(state=State.ACCEPTED)


@pytest.mark.parametrize("keys", ["Ctrl+Z", "Ctrl+Shift+Z", "Ctrl+Y"])
def test_undo_and_redo_keys_work_in_the_text(reviewed, qtbot, keys):
    """Ctrl+Z pressed in the text did nothing: the text edit claimed the key (its own undo,
    switched off) and then let it go, so the window's Undo never saw it."""
    from PySide6.QtGui import QKeySequence
    from PySide6.QtTest import QTest

    view, doc = reviewed.view, reviewed.transcript
    reviewed.activateWindow()
    view.setFocus()
    qtbot.waitUntil(view.hasFocus)
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    qtbot.keyClick(view, Qt.Key.Key_Return)  # accept "So"
    assert doc[0].surface == "So"
    if keys != "Ctrl+Z":
        assert reviewed.undo() and doc[0].surface == "so"
    QTest.keySequence(view, QKeySequence(keys))
    qtbot.waitUntil(lambda: doc[0].surface == ("so" if keys == "Ctrl+Z" else "So"), timeout=2000)


def test_a_threshold_typed_as_the_dialog_opens_replaces_the_default(reviewed, qtbot):
    """Review > Accept all at or above…, type 80, Enter: the box had the focus with its caret
    before "90 %" and nothing selected, so "80" became "090" and Enter accepted at 90 %."""
    dialog = reviewed.review.accept_all_dialog()
    qtbot.waitUntil(dialog.box.hasFocus)
    qtbot.keyClicks(dialog.box, "80")
    assert dialog.threshold == 0.8


def test_undoing_a_decision_brings_back_the_suggestion_it_decided(reviewed, qtbot):
    """After Enter (or a digit) review goes on to the next suggestion; Ctrl+Z took the decision
    back but left the next one current, so a digit pressed to decide again picked on that one."""
    view, doc = reviewed.view, reviewed.transcript
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    first = view.current.key
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert view.current.key != first
    assert reviewed.undo()
    assert view.current is not None and view.current.key == first and view.reviewing
    assert doc.suggestion(*first).state == State.PENDING
    qtbot.keyClick(view, Qt.Key.Key_Delete)  # decided again, on the one brought back
    assert doc.suggestion(*first).state == State.REJECTED


def test_the_mode_label_says_enter_does_nothing_once_no_suggestion_is_selected(reviewed, qtbot):
    """After the last suggestion was decided the status bar still said "Reviewing: Enter accepts,
    Delete rejects" while Enter did nothing (the panel said "no suggestion selected")."""
    view = reviewed.view
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert reviewed.mode_label.text() == "Reviewing: Enter accepts, Delete rejects"
    for _ in range(4):
        qtbot.keyClick(view, Qt.Key.Key_Return)
    assert reviewed.transcript.pending_count == 0 and view.reviewing and view.current is None
    assert "Enter accepts" not in reviewed.mode_label.text()
    assert "no suggestion selected" in reviewed.mode_label.text()


def test_turning_down_a_full_stop_takes_back_the_capital_that_came_with_it(window, qtbot):
    """The capital of "And" accepted first (the list goes by confidence), then Delete on the full
    stop before it: "Maria And today" stood, a capital mid-sentence, nothing said."""
    doc = Transcript([Token(w) for w in ["i'm", "maria", "and", "today", "paris"]])
    doc.set_suggestions([Suggestion(doc[1].id, Kind.PUNCT, ".", {".": 0.47, "": 0.4, ",": 0.13}),
                         Suggestion(doc[2].id, Kind.CASE, "And", {"And": 0.56, "and": 0.44}),
                         Suggestion(doc[4].id, Kind.CASE, "Paris", {"Paris": 0.99, "paris": 0.01})])
    window.set_transcript(doc, restore=False)
    view = window.view
    view.setFocus()
    seen = messages(view)
    view.set_current(doc.suggestion(doc[2].id, Kind.CASE))
    qtbot.keyClick(view, Qt.Key.Key_Return)  # the full stop it hangs on comes with it (issue #41)
    assert doc[2].surface == "And" and doc[1].punct == "."
    view.set_current(doc.suggestion(doc[1].id, Kind.PUNCT))
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert doc[1].punct == "" and doc[2].surface == "and"
    assert doc.suggestion(doc[2].id, Kind.CASE).state == State.REJECTED
    assert any("lowercased" in m for m in seen)
    window.undo()  # one step: the mark and the capital are back as they were
    assert doc.suggestion(doc[1].id, Kind.PUNCT).state == State.ACCEPTED and doc[2].surface == "And"


def test_accept_all_confident_says_its_threshold_in_percent(reviewed):
    """Review > "Accept all confident" (Ctrl+Shift+A) accepted at or above a threshold it did not
    name; thresholds are in percent everywhere else."""
    assert "90 %" in reviewed.accept_confident_action.text()
    reviewed.settings.set("review.high", 0.85)
    reviewed.apply_settings()
    assert "85 %" in reviewed.accept_confident_action.text()
    assert reviewed.accept_confident_action.text().replace("&", "").startswith("Accept all confident")
