"""A window a screen reader can read: every control of the main window and its dialogs has an
accessible name; the transcript view gives its text and caret through Qt's accessibility
interfaces, and says the suggestion under review ("proposed comma after station, 82 %") as the
review moves, in its accessible description and in an announcement."""

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QAccessibleEvent
from PySide6.QtWidgets import (QAbstractButton, QAbstractItemView, QAbstractSlider, QAbstractSpinBox,
                               QComboBox, QDialog, QHeaderView, QLineEdit, QMenu, QPlainTextEdit,
                               QScrollBar, QTabBar, QTextEdit, QWidget)

from editor.core.document.transcript import Kind, Suggestion, Token, Transcript
from editor.gui.text_view.accessibility import EDITING_SPOKEN

CONTROLS = (QAbstractButton, QAbstractItemView, QAbstractSlider, QAbstractSpinBox, QComboBox, QLineEdit,
            QPlainTextEdit, QTextEdit, QTabBar)


def _inside(widget: QWidget, kinds) -> bool:
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, kinds):
            return True
        parent = parent.parentWidget()
    return False


def _name(widget: QWidget) -> str:
    iface = QAccessible.queryAccessibleInterface(widget)
    assert iface is not None and iface.isValid(), widget
    return iface.text(QAccessible.Text.Name).strip()


def unnamed(root: QWidget) -> list[str]:
    """The controls under ``root`` (itself included) a screen reader would read without a name,
    and menu entries without words."""
    missing = []
    for widget in [root, *root.findChildren(QWidget)]:
        if isinstance(widget, QMenu):
            for action in widget.actions():
                if not action.isSeparator() and not action.text().replace("&", "").strip():
                    missing.append(f"a nameless entry of menu {widget.title()!r}")
            continue
        if not isinstance(widget, CONTROLS) or isinstance(widget, (QScrollBar, QHeaderView)):
            continue  # (a scroll bar is read by its role; a header's sections by their titles)
        if _inside(widget, (QComboBox, QAbstractSpinBox, QLineEdit)):
            continue  # a combo box's popup list, a field's clear button: read as their owner
        if widget.objectName().startswith("qt_"):  # Qt's own: a table's corner, the menu bar's »
            continue
        if not _name(widget):
            missing.append(f"{type(widget).__name__} {widget.objectName()!r} "
                           f"in {type(widget.window()).__name__}")
    return missing


def test_every_control_of_the_main_window_has_a_name(window):
    window.set_transcript(Transcript([Token(w) for w in "so the station was paris".split()]), restore=False)
    assert unnamed(window) == []
    assert _name(window.view) == "Transcript"
    assert _name(window.panel.list) == "Pending suggestions"


def test_every_control_of_the_player_bar_has_a_name(qtbot):
    from editor.audio import Player
    from editor.gui.playback.player_bar import QtPlayerBar
    from tests.fakes.audio import FakeOutputBackend

    player = Player(FakeOutputBackend(rate=16_000))
    bar = QtPlayerBar(player)
    qtbot.addWidget(bar)
    try:
        assert unnamed(bar) == []
        assert [_name(b) for b in (bar.back_button, bar.play_button, bar.forward_button)] == \
            [f"Back {player.skip_seconds:g} s", "Play", f"Forward {player.skip_seconds:g} s"]
    finally:
        player.close()


def _dialogs(window, tmp_path):
    from editor.asr.catalogue import Catalogue
    from editor.asr.models import ModelInfo
    from editor.gui.window.about import AboutDialog
    from editor.gui.dialogs.accept_all import AcceptAllDialog
    from editor.gui.dialogs.export import ExportDialog
    from editor.gui.dialogs.settings import SettingsDialog
    from editor.gui.dialogs.language import LanguageDialog
    from editor.gui.dialogs.learned import LearnedDialog
    from editor.gui.dialogs.model import ModelDialog
    from editor.gui.work.recovery import RecoveryDialog
    from editor.gui.dialogs.shortcut_sheet import ShortcutSheet
    from editor.gui.window.tour import ReviewTour

    settings = window.settings
    ko = ModelInfo(name="vosk-model-small-ko-0.22", path="/m/ko", language="ko", source="stet")

    def count(threshold):
        yield 1, 1, 0

    yield ExportDialog(settings, tmp_path / "talk.txt", 3, window)
    yield AcceptAllDialog(settings, count, 3, window)
    yield SettingsDialog(settings, window)
    yield LanguageDialog(Path("talk.mp3"), [ko], current=ko, get_model=lambda: None)
    yield LearnedDialog(settings, window)
    yield ModelDialog(window, catalogue=Catalogue(entries=(), snapshot=False, taken="", path=""),
                      dest_dir=tmp_path / "models")
    yield RecoveryDialog([])
    yield ShortcutSheet(window)
    yield ReviewTour(settings, window)
    yield AboutDialog(tmp_path, window)


def test_every_control_of_every_dialog_has_a_name(window, qtbot, tmp_path):
    seen = []
    for dialog in _dialogs(window, tmp_path):
        qtbot.addWidget(dialog)
        assert isinstance(dialog, QDialog)
        seen.append(type(dialog).__name__)
        dialog.show()
        assert _name(dialog) == dialog.windowTitle() != "", type(dialog).__name__  # its title
        assert unnamed(dialog) == [], type(dialog).__name__
        dialog.close()
    assert len(seen) == 10


# -- the transcript view through QAccessible -------------------------------------------------------
@pytest.fixture
def reviewed(window):
    doc = Transcript([Token(w) for w in ["so", "the", "station", "was", "paris", "then"]])
    doc.set_suggestions([Suggestion(doc[2].id, Kind.PUNCT, ",", {",": 0.82, "": 0.18}),
                         Suggestion(doc[4].id, Kind.CASE, "Paris", {"Paris": 0.99, "paris": 0.01}),
                         Suggestion(doc[5].id, Kind.PUNCT, "", {"": 0.61, ".": 0.39})])
    doc.edit_token(5, punct=".")
    doc.set_suggestions([Suggestion(doc[5].id, Kind.PUNCT, "", {"": 0.61, ".": 0.39})])
    window.set_transcript(doc, restore=False)
    window.view.flush()
    window.view.setFocus()
    return window


def test_the_view_reads_the_text_as_it_stands(reviewed, qtbot):
    """The accessible text is what is exported, not what is shown: pending proposals (a comma, a
    capital, a full stop to remove) are not in it; the caret and positions map between the two."""
    view = reviewed.view
    iface = QAccessible.queryAccessibleInterface(view)
    text = iface.textInterface()
    assert text is not None
    shown = view.toPlainText()
    assert shown == "so the station, was Paris then"
    standing = text.text(0, text.characterCount())
    assert standing == "so the station was paris then."
    assert iface.text(QAccessible.Text.Value) == standing
    cursor = view.textCursor()
    cursor.setPosition(shown.index("Paris") + 2)
    view.setTextCursor(cursor)
    assert text.cursorPosition() == standing.index("paris") + 2
    cursor.setPosition(shown.index(",") + 1)  # after the proposed comma: after "station" as it stands
    view.setTextCursor(cursor)
    assert text.cursorPosition() == standing.index("station") + len("station")
    text.setCursorPosition(standing.index("then"))
    assert view.textCursor().position() == shown.index("then")
    assert iface.state().editable and iface.state().multiLine
    # accepting a proposal changes the text read, though the text shown stays the same
    doc = reviewed.transcript
    doc.accept(doc[2].id, Kind.PUNCT)
    assert text.text(0, text.characterCount()) == "so the station, was paris then."


def test_the_shown_text_changing_is_not_sent_to_a_reader(reviewed):
    """Qt's text control sends each change of the shown text (proposals included) to a reader,
    which read it out by itself; that connection is cut, also after the text is set whole."""
    from PySide6.QtCore import SIGNAL

    view = reviewed.view
    change = SIGNAL("contentsChange(int,int,int)")
    assert view.document().receivers(change) == 0
    view.setPlainText("so the station")
    assert view.document().receivers(change) == 0
    reviewed.set_transcript(Transcript([Token(w) for w in "a new text".split()]), restore=False)
    reviewed.view.flush()
    assert reviewed.view.document().receivers(change) == 0


@pytest.fixture
def spoken(monkeypatch):
    """What the window says: the view's description at each change (what Orca 43 speaks: the
    change is sent as DescriptionChanged, tests/gui/window/atspi_check.py sees it on the bus), and the
    announcements (what NVDA speaks)."""
    said = []
    original = QAccessible.updateAccessibility
    set_description = QWidget.setAccessibleDescription

    def record(event: QAccessibleEvent) -> None:
        if event.type() == QAccessible.Event.Announcement:
            said.append(("announcement", event.message()))
        original(event)

    def describe(widget: QWidget, text: str) -> None:
        if isinstance(widget, QPlainTextEdit) and text != widget.accessibleDescription():
            said.append(("description", text))
        set_description(widget, text)

    monkeypatch.setattr(QAccessible, "updateAccessibility", record)
    monkeypatch.setattr(QWidget, "setAccessibleDescription", describe)
    return said


def descriptions(said) -> list[str]:
    return [text for kind, text in said if kind == "description"]


def _wait_said(qtbot, said, start: str) -> str:
    qtbot.waitUntil(lambda: any(t.startswith(start) for t in descriptions(said)))
    return next(t for t in reversed(descriptions(said)) if t.startswith(start))


def test_the_current_suggestion_is_said_with_its_confidence(reviewed, qtbot, spoken):
    view = reviewed.view
    iface = QAccessible.queryAccessibleInterface(view)
    assert "Tab" in iface.text(QAccessible.Text.Description)  # how to start reviewing
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    said = _wait_said(qtbot, spoken, "Proposed comma")
    assert said.startswith("Proposed comma after “station”, 82 %."), said
    assert "Enter accepts" in said and "Delete rejects" in said
    announced = [m for kind, m in spoken if kind == "announcement"]
    assert announced and announced[-1] == said
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert _wait_said(qtbot, spoken, "Proposed capital").startswith("Proposed capital: “Paris”, 99 %")
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert _wait_said(qtbot, spoken, "Proposed: remove").startswith(
        "Proposed: remove the full stop after “then”, 61 %")
    qtbot.keyClick(view, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: descriptions(spoken)[-1].startswith("Proposed capital"))
    del spoken[:]
    qtbot.keyClick(view, Qt.Key.Key_Return)  # accept the capital: said, then the next one, in one
    said = _wait_said(qtbot, spoken, "Accepted")
    assert said.startswith("Accepted capital: “Paris”. Proposed: remove the full stop after “then”"), said
    assert descriptions(spoken) == [said]  # never "Editing…" in between (a reader said it after every Enter)
    qtbot.keyClick(view, Qt.Key.Key_Delete)  # reject the last one: said, and the review wraps round
    said = _wait_said(qtbot, spoken, "Rejected")
    assert said.startswith("Rejected: remove the full stop after “then”. Proposed comma after “station”"), said
    qtbot.keyClick(view, Qt.Key.Key_Delete)  # and the last: said, and that none is left
    said = _wait_said(qtbot, spoken, "Rejected comma")
    assert said == "Rejected comma after “station”. No pending suggestions.", said
    del spoken[:]
    qtbot.keyClick(view, Qt.Key.Key_Right)  # back to editing
    qtbot.waitUntil(lambda: descriptions(spoken) != [])
    assert descriptions(spoken)[-1].startswith("Editing")


def test_undo_is_said_with_the_suggestion_back_under_review(reviewed, qtbot, spoken):
    view = reviewed.view
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    _wait_said(qtbot, spoken, "Proposed comma")
    qtbot.keyClick(view, Qt.Key.Key_Return)
    _wait_said(qtbot, spoken, "Accepted comma")
    del spoken[:]
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    said = _wait_said(qtbot, spoken, "Undid")
    assert said.startswith("Undid Accept suggestion. Proposed comma after “station”, 82 %"), said


def test_accept_all_says_how_many_it_accepted(reviewed, qtbot, spoken):
    view = reviewed.view
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    _wait_said(qtbot, spoken, "Proposed comma")
    del spoken[:]
    reviewed.accept_all()
    said = _wait_said(qtbot, spoken, "Accepted")
    assert said.startswith("Accepted 3 suggestions."), said  # not "Accepted comma after…" (one of them)
    assert "No suggestions pending" in said


def test_short_speech_says_the_change_and_confidence_alone(reviewed, qtbot, spoken):
    view = reviewed.view
    reviewed.toggle_short_speech()
    assert reviewed.settings.review.short_speech and reviewed.menu_actions["view.short_speech"].isChecked()
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert _wait_said(qtbot, spoken, "Proposed comma") == "Proposed comma after “station”, 82 %."
    said = view.narrator.read_details()  # the alternatives and the sentence, on demand
    assert said == "Enter accepts, Delete rejects; 1: comma, 82 %; 2: no mark, 18 %. In: so the station was paris then."
    assert descriptions(spoken)[-1] == said


def test_the_caret_meeting_a_proposal_says_it_as_a_proposal(reviewed, qtbot, spoken):
    view = reviewed.view
    shown = view.toPlainText()
    cursor = view.textCursor()
    cursor.setPosition(shown.index("station") + 2)
    view.setTextCursor(cursor)
    qtbot.waitUntil(lambda: any("comma proposed, 82 %" in t for t in descriptions(spoken)))
    cursor.setPosition(shown.index("Paris") + 1)
    view.setTextCursor(cursor)
    qtbot.waitUntil(lambda: any("capital “Paris” proposed, 99 %" in t for t in descriptions(spoken)))


def test_a_key_reads_the_sentence_as_it_stands(reviewed, qtbot, spoken):
    view = reviewed.view
    cursor = view.textCursor()
    cursor.setPosition(view.toPlainText().index("was"))
    view.setTextCursor(cursor)
    qtbot.keyClick(view, Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    said = descriptions(spoken)[-1]
    assert said.startswith("As it stands: so the station was paris then.")
    # Export's default writes the pending proposals in (issue 48): said too, where they differ
    assert "Exported by default, with the proposals: " in said and "Paris" in said


def test_the_last_message_stays_and_a_key_says_it_again(reviewed, qtbot, spoken):
    bar = reviewed.statusBar()
    bar.showMessage("Exported talk.docx", 3000)
    _wait_said(qtbot, spoken, "Exported talk.docx.")
    qtbot.wait(3200)
    assert bar.currentMessage() == "Exported talk.docx"  # not gone before a reader said it
    qtbot.keyClick(reviewed.view, Qt.Key.Key_M,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert descriptions(spoken)[-1].endswith(": Exported talk.docx. " + EDITING_SPOKEN)
    qtbot.keyClick(reviewed.view, Qt.Key.Key_Tab)  # the next action: the message goes
    assert bar.currentMessage() == "" and reviewed.status_label.isVisible()


def test_the_list_rows_say_the_change_its_word_and_confidence_first(reviewed):
    """A "capital" row did not say which word; each row now says its change, word and confidence
    first, then the words around it as the list shows them."""
    panel = reviewed.panel
    panel.refresh()
    iface = QAccessible.queryAccessibleInterface(panel.list)
    assert iface.childCount() == len(panel.items)
    said = [iface.child(n).text(QAccessible.Text.Name) for n in range(iface.childCount())]
    capital = next(t for t in said if "capital" in t)
    assert capital.startswith("Proposed capital: “Paris”, 99 %. ") and "station, was Paris then" in capital
    assert said[0].startswith("Proposed: remove the full stop after “then”, 61 %.")


def _tab_to_an_end_and_its_capital(window, qtbot, words, at, marks, comma_at):
    """Show ``words`` with a full stop proposed after word ``at`` (``marks``: its choices), the
    capital after it (70 %) and a comma after word ``comma_at``; Tab to the first; returns the
    view."""
    doc = Transcript([Token(w) for w in words])
    following = words[at + 1]
    doc.set_suggestions([Suggestion(doc[at].id, Kind.PUNCT, ".", marks),
                         Suggestion(doc[at + 1].id, Kind.CASE, following.capitalize(),
                                    {following.capitalize(): 0.7, following: 0.3}),
                         Suggestion(doc[comma_at].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})])
    window.set_transcript(doc, restore=False)
    view = window.view
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    return view


def test_a_sentence_end_and_its_capital_are_said_as_one_decision(window, qtbot, spoken):
    """Issue #48: one stop for a full stop and the capital after it, said as one, and what the
    decision did to both."""
    view = _tab_to_an_end_and_its_capital(window, qtbot, ["i'm", "maria", "and", "today", "we", "open"], 1,
                                          {".": 0.55, ",": 0.35, "": 0.10}, comma_at=4)
    qtbot.waitUntil(lambda: "with the capital “And” after it" in view.accessibleDescription(), timeout=3000)
    said = view.accessibleDescription()
    assert said.startswith("Proposed full stop after “maria”, 55 %, with the capital “And” after it"), said
    assert "Enter accepts both, Delete rejects both, a digit picks the mark" in said
    assert "2: comma, 35 %" in said
    del spoken[:]
    qtbot.keyClick(view, Qt.Key.Key_2)  # a comma: the capital does not come
    qtbot.waitUntil(lambda: any(kind == "announcement" for kind, _ in spoken), timeout=3000)
    announced = [m for kind, m in spoken if kind == "announcement"]
    assert any(m.startswith("Accepted comma after “maria”, leaving “and” as it was.") for m in announced), announced
    assert not any("2 suggestions pending" in m for m in announced), announced  # the capital went too
    del spoken[:]
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: any("Accepted full stop after “maria”, with the capital “And”." in m
                                for kind, m in spoken if kind == "announcement"), timeout=3000)


def test_a_decision_for_no_mark_is_said_once(window, qtbot, spoken):
    """A digit for "no mark" on a sentence end and its capital was said twice: the decision
    ("Accepted: no mark after “library”, leaving “opens” as it was.") and then the status bar's
    line of it ("Accepted no mark; left ‘opens’ in lower case"), whose first part is dropped only
    after a decision said as "Accepted " (the colon of "Accepted: no mark" escaped it)."""
    view = _tab_to_an_end_and_its_capital(window, qtbot, "so the seed library opens today".split(), 3,
                                          {".": 0.55, ",": 0.3, "": 0.15}, comma_at=5)
    qtbot.waitUntil(lambda: "3: no mark, 15 %" in view.accessibleDescription(), timeout=3000)
    del spoken[:]
    qtbot.keyClick(view, Qt.Key.Key_3)  # no mark: the capital does not come either
    qtbot.waitUntil(lambda: any(kind == "announcement" for kind, _ in spoken), timeout=3000)
    announced = [m for kind, m in spoken if kind == "announcement"][-1]
    assert announced.startswith("Accepted: no mark after “library”, leaving “opens” as it was."), announced
    assert announced.count("Accepted") == 1, announced
    assert "Proposed comma after “today”" in announced  # and on to the next


def test_the_list_is_described_in_plain_words(reviewed):
    """Its description was its tooltip, read out with the HTML: "<br><b>capital</b>"."""
    iface = QAccessible.queryAccessibleInterface(reviewed.panel.list)
    described = iface.text(QAccessible.Text.Description)
    assert described and "<" not in described and "Delete rejects" in described


def test_ctrl_2_lands_on_a_row_and_delete_there_rejects(reviewed, qtbot, spoken):
    """A second Ctrl+2 landed on no row; Delete in the list did nothing."""
    panel, doc = reviewed.panel, reviewed.transcript
    panel.refresh()
    reviewed.activateWindow()
    reviewed.view.setFocus()
    for _ in range(2):
        qtbot.keyClick(reviewed.view if reviewed.view.hasFocus() else panel.list, Qt.Key.Key_2,
                       Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(panel.list.hasFocus)
        assert panel.list.currentRow() >= 0
    s = panel.items[panel.list.currentRow()]
    qtbot.keyClick(panel.list, Qt.Key.Key_Delete)
    assert doc.suggestion(s.token_id, s.kind).state.value == "rejected"
    assert "Rejected" in reviewed.statusBar().currentMessage()




def test_the_tour_opens_on_a_named_button_and_says_each_page(window, qtbot, spoken):
    """The tour opened on an unlabelled "More in the user guide…" link; Next turned the page
    silently."""
    from editor.gui.window.tour import ReviewTour

    tour = ReviewTour(window.settings, window, open_help=lambda topic: None)
    qtbot.addWidget(tour)
    tour.show()
    qtbot.waitExposed(tour)
    qtbot.waitUntil(lambda: tour.focusWidget() is not None)
    assert _name(tour.focusWidget()) == "Next"
    more = tour.stack.currentWidget().findChild(QWidget, "tour-more")
    assert _name(more).startswith("More in the user guide about ")
    first = tour.next_button.accessibleDescription()
    assert first.startswith(f"Page 1 of {tour.stack.count()}: ")
    qtbot.keyClick(tour.next_button, Qt.Key.Key_Return)
    assert tour.page == 1
    said = tour.next_button.accessibleDescription()
    assert said.startswith(f"Page 2 of {tour.stack.count()}: ") and said != first
    assert ("announcement", said) in spoken


def test_the_legend_samples_are_named(window):
    """The legend's four drawn samples were read as unnamed images."""
    legend = window.panel.legend
    names = [_name(sample) for sample, _meaning in legend.rows]
    assert len(names) >= 4 and all(n.startswith("Sample: ") and len(n) > 12 for n in names)
    assert "<" not in "".join(names)


def test_the_caret_stays_where_it_is_when_proposals_land(window, qtbot):
    """When restoration landed the caret moved from 0 to 7 (a word rewritten under it pushed it
    to the word's end), and a screen reader followed it."""
    doc = Transcript([Token(w) for w in "so the station was paris then".split()])
    window.set_transcript(doc, restore=False)
    view = window.view
    view.flush()
    moves = []
    view.cursorPositionChanged.connect(lambda: moves.append(view.textCursor().position()))
    cursor = view.textCursor()
    cursor.setPosition(0)
    view.setTextCursor(cursor)
    doc.set_suggestions([Suggestion(doc[0].id, Kind.CASE, "So", {"So": 0.9, "so": 0.1}),
                         Suggestion(doc[2].id, Kind.PUNCT, ",", {",": 0.8, "": 0.2})])
    view.flush()
    assert view.textCursor().position() == 0 and moves in ([], [0])
    at = view.toPlainText().index("station") + 3  # inside a word given a mark
    cursor.setPosition(at)
    view.setTextCursor(cursor)
    doc.set_suggestions([Suggestion(doc[2].id, Kind.PUNCT, ".", {".": 0.8, "": 0.2})])
    view.flush()
    assert view.textCursor().position() == at


def test_the_number_of_suggestions_is_said_when_restoration_lands(window, qtbot, tmp_path, spoken):
    path = tmp_path / "raw.txt"
    path.write_text("so we went to the station and then we met paris and she said hello to everyone " * 3)
    with qtbot.waitSignal(window.restoration_finished, timeout=60000):
        window.open_path(path)
    assert window.restoration_status == "done"
    pending = window.transcript.pending_count
    expected = f"Restored: {pending} suggestion{'s' if pending != 1 else ''} to review" if pending \
        else "Restored: no suggestions"
    qtbot.waitUntil(lambda: any(kind == "announcement" and expected in text for kind, text in spoken))


@pytest.mark.parametrize("key, decision", [
    (Qt.Key.Key_Delete, "Rejected full stop after “maria”, leaving “and” as it was."),
    (Qt.Key.Key_Return, "Accepted full stop after “maria”, with the capital “And”.")])
def test_what_a_decision_did_to_the_capital_after_it_is_said_once(window, qtbot, spoken, key, decision):
    """"Rejected full stop after “morning”, leaving “how” as it was. Left ‘how’ in lower case.":
    the status bar's line of the decision said the capital's fate again in other words."""
    view = _tab_to_an_end_and_its_capital(window, qtbot, ["i'm", "maria", "and", "today", "we", "open"], 1,
                                          {".": 0.55, ",": 0.35, "": 0.10}, comma_at=4)
    qtbot.waitUntil(lambda: "with the capital “And” after it" in view.accessibleDescription(), timeout=3000)
    del spoken[:]
    qtbot.keyClick(view, key)
    qtbot.waitUntil(lambda: any(kind == "announcement" for kind, _ in spoken), timeout=3000)
    announced = [m for kind, m in spoken if kind == "announcement"][-1]
    assert announced.startswith(f"{decision} Proposed comma after “we”"), announced
    assert "in lower case" not in announced and "Capitalised" not in announced, announced


def test_accept_all_from_editing_says_what_is_left_as_the_list_counts_it(window, qtbot, spoken):
    """Ctrl+Shift+A while editing said "Accepted 2 suggestions. Editing. …", not what was left,
    as the guide promises ("Accepted 31 suggestions. 92 suggestions pending.")."""
    doc = Transcript([Token(w) for w in "so we met in paris it was cold then we left".split()])
    doc.set_suggestions([Suggestion(doc[4].id, Kind.PUNCT, ".", {".": 0.95, "": 0.05}),
                         Suggestion(doc[5].id, Kind.CASE, "It", {"It": 0.95, "it": 0.05}),
                         Suggestion(doc[7].id, Kind.PUNCT, ".", {".": 0.6, "": 0.4}),
                         Suggestion(doc[8].id, Kind.CASE, "Then", {"Then": 0.7, "then": 0.3}),
                         Suggestion(doc[1].id, Kind.PUNCT, ",", {",": 0.5, "": 0.5})])
    window.set_transcript(doc, restore=False)
    view = window.view
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    _wait_said(qtbot, spoken, "Proposed")
    qtbot.keyClick(view, Qt.Key.Key_Escape)  # back to editing: said
    _wait_said(qtbot, spoken, "Editing")
    del spoken[:]
    qtbot.keyClick(view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    said = _wait_said(qtbot, spoken, "Accepted")
    # two rows left (the comma; the full stop after "cold" with its "Then"), as the list shows them
    assert said.startswith("Accepted 1 suggestion (a sentence end with its capital). "
                           "2 suggestions pending."), said
