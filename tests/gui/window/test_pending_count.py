"""Every count of what is pending counts what the person decides, as the list's rows do: a
sentence end and the capital after it share a row and a key, so they are one. The panel said
"17 pending" above 12 rows."""

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from editor.core.document.transcript import Kind, Suggestion, Token, Transcript
from editor.gui.dialogs.export import ExportDialog
from editor.gui.text_view.accessibility import spoken_pending


@pytest.fixture
def paired(window, qtbot):
    """Six suggestions, four rows: two sentence ends with their capitals, a comma, and the first
    word's capital (no mark before it: a decision of its own)."""
    words = "so we met in paris it was cold then we left early".split()
    doc = Transcript([Token(w) for w in words])
    doc.set_suggestions([
        Suggestion(doc[0].id, Kind.CASE, "So", {"So": 0.99, "so": 0.01}),
        Suggestion(doc[1].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}),
        Suggestion(doc[4].id, Kind.PUNCT, ".", {".": 0.9, ",": 0.05, "": 0.05}),
        Suggestion(doc[5].id, Kind.CASE, "It", {"It": 0.88, "it": 0.12}),
        Suggestion(doc[7].id, Kind.PUNCT, ".", {".": 0.7, "": 0.3}),
        Suggestion(doc[8].id, Kind.CASE, "Then", {"Then": 0.95, "then": 0.05}),
    ])
    window.set_transcript(doc, restore=False)
    qtbot.waitUntil(lambda: window.panel.list.count() == 4 and not window.panel.counting)
    assert doc.pending_count == 6
    return window


def _number(text: str, after: str = "") -> int:
    found = re.search(re.escape(after) + r"(\d[\d,]*)", text)
    assert found is not None, text
    return int(found.group(1).replace(",", ""))


def _shown(window) -> dict[str, int]:
    """Each count of pending the window shows or says, by where."""
    return {
        "panel": _number(window.panel.count_label.text()),
        "status bar": _number(window.status_label.text(), "words — "),
        "screen reader": _number(spoken_pending(window.transcript)),
    }


def test_every_count_of_pending_is_the_rows_shown(paired, qtbot):
    window = paired
    rows = window.panel.list.count()
    assert _shown(window) == dict.fromkeys(("panel", "status bar", "screen reader"), rows)
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Tab)  # "So", then the comma, then "paris." with "It"
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    assert window.view.review.current_point is not None and window.view.review.current_point.capital is not None
    qtbot.keyClick(window.view, Qt.Key.Key_Delete)  # the end and its capital: one key, one row
    qtbot.waitUntil(lambda: window.panel.list.count() == 1 and not window.panel.counting)
    assert _shown(window) == dict.fromkeys(("panel", "status bar", "screen reader"), 1)
    assert "1 suggestion to review" in window.status_label.text()
    for band in (1, 2, 3):  # a band's count: the rows it lists, of all the rows
        window.panel.filter.setCurrentIndex(band)
        qtbot.waitUntil(lambda: not window.panel.counting)
        window.panel.refresh()
        listed = window.panel.list.count()
        assert window.panel.count_label.text().startswith(f"{listed} of 1 pending")


def test_the_accept_all_dialog_counts_the_rows_too(paired, qtbot):
    dialog = paired.review.accept_all_dialog()
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    dialog.box.setValue(50)
    qtbot.waitUntil(lambda: ok.isEnabled())
    assert ok.text() == "Accept 4"
    assert dialog.summary.text().startswith(
        "4 of 4 pending suggestions will be accepted (2 of them a sentence end with the capital after it")
    dialog.box.setValue(85)  # the comma (60 %) and the end at 70 % with its "Then" (95 %) stay
    qtbot.waitUntil(lambda: ok.isEnabled() and ok.text() == "Accept 2")
    assert dialog.summary.text().startswith("2 of 4 pending suggestions will be accepted (1 of them")
    with qtbot.waitSignal(paired.bulk_finished, timeout=5000):
        dialog.accept()
    assert paired.statusBar().currentMessage().startswith(
        "Accepted 2 suggestions (1 of them a sentence end with its capital)")
    qtbot.waitUntil(lambda: paired.panel.list.count() == 2 and not paired.panel.counting)
    assert _shown(paired) == dict.fromkeys(("panel", "status bar", "screen reader"), 2)


def test_the_export_dialog_counts_the_rows_too(paired, monkeypatch):
    seen = {}

    def exec_(dialog):
        seen["pending"] = dialog.pending
        seen["note"] = dialog.policy_note.text()
        return 0  # cancelled
    monkeypatch.setattr(ExportDialog, "exec", exec_)
    paired.files.export_dialog()
    assert seen["pending"] == 4 and "All 4 pending suggestions" in seen["note"], seen
