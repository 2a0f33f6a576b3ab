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
        yield 1, 0

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


def test_the_view_gives_its_text_and_caret(reviewed, qtbot):
    view = reviewed.view
    iface = QAccessible.queryAccessibleInterface(view)
    text = iface.textInterface()
    assert text is not None
    shown = view.toPlainText()
    assert text.text(0, text.characterCount()) == shown
    assert "station" in shown
    cursor = view.textCursor()
    cursor.setPosition(shown.index("station"))
    view.setTextCursor(cursor)
    assert text.cursorPosition() == shown.index("station")


@pytest.fixture
def events(monkeypatch):
    """The accessibility events the window sends (as a screen reader would get them)."""
    sent = []
    original = QAccessible.updateAccessibility

    def record(event: QAccessibleEvent) -> None:
        message = event.message() if event.type() == QAccessible.Event.Announcement else ""
        sent.append((event.type(), event.object(), message))
        original(event)

    monkeypatch.setattr(QAccessible, "updateAccessibility", record)
    return sent


def test_the_current_suggestion_is_said_with_its_confidence(reviewed, qtbot, events):
    view = reviewed.view
    iface = QAccessible.queryAccessibleInterface(view)
    assert "Tab" in iface.text(QAccessible.Text.Description)  # how to start reviewing
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    said = iface.text(QAccessible.Text.Description)
    assert said.startswith("Proposed comma after “station”, 82 %"), said
    assert "Enter accepts" in said and "Delete rejects" in said
    announced = [m for kind, obj, m in events if kind == QAccessible.Event.Announcement]
    assert announced and announced[-1].startswith("Proposed comma after “station”, 82 %")
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    said = iface.text(QAccessible.Text.Description)
    assert said.startswith("Proposed capital: “Paris”, 99 %"), said
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    said = iface.text(QAccessible.Text.Description)
    assert said.startswith("Proposed: remove the full stop after “then”, 61 %"), said
    qtbot.keyClick(view, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(view, Qt.Key.Key_Return)  # accept the capital: said, and the next one too
    announced = [m for kind, obj, m in events if kind == QAccessible.Event.Announcement]
    assert any(m.startswith("Accepted") for m in announced), announced
    qtbot.keyClick(view, Qt.Key.Key_Right)  # back to editing
    assert "Tab" in iface.text(QAccessible.Text.Description)
    assert not iface.text(QAccessible.Text.Description).startswith("Proposed")


def test_the_list_rows_read_as_they_look(reviewed):
    panel = reviewed.panel
    panel.refresh()
    iface = QAccessible.queryAccessibleInterface(panel.list)
    assert iface.childCount() == len(panel.items)
    row = iface.child(0).text(QAccessible.Text.Name)
    assert row == panel.describe(panel.items[0])


def test_a_sentence_end_and_its_capital_are_said_as_one_decision(window, qtbot, events):
    """Issue #48: one stop for a full stop and the capital after it, said as one, and what the
    decision did to both."""
    doc = Transcript([Token(w) for w in ["i'm", "maria", "and", "today", "we", "open"]])
    doc.set_suggestions([Suggestion(doc[1].id, Kind.PUNCT, ".", {".": 0.55, ",": 0.35, "": 0.10}),
                         Suggestion(doc[2].id, Kind.CASE, "And", {"And": 0.7, "and": 0.3}),
                         Suggestion(doc[4].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})])
    window.set_transcript(doc, restore=False)
    view = window.view
    view.setFocus()
    iface = QAccessible.queryAccessibleInterface(view)
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    said = iface.text(QAccessible.Text.Description)
    assert said.startswith("Proposed full stop after “maria”, 55 %, with the capital “And” after it"), said
    assert "Enter accepts both, Delete rejects both, a digit picks the mark" in said
    assert "2: comma, 35 %" in said
    qtbot.keyClick(view, Qt.Key.Key_2)  # a comma: the capital does not come
    announced = [m for kind, obj, m in events if kind == QAccessible.Event.Announcement]
    assert any(m.startswith("Accepted comma after “maria”, leaving “and” as it was.") for m in announced), announced
    assert not any("2 suggestions pending" in m for m in announced), announced  # the capital went too
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    announced = [m for kind, obj, m in events if kind == QAccessible.Event.Announcement]
    assert any(m.startswith("Accepted full stop after “maria”, with the capital “And”.") for m in announced), announced
