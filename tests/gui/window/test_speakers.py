"""The Speakers menu: Alt+1…9 and "New speaker…" give words a speaker, rename and merge, each
one undo step; the margin names who speaks where, in colours that are not the confidence ones."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QInputDialog

from editor.core.document.speakers import speakers_in_order
from editor.gui.text_view.looks import SPEAKER_COLOURS


@pytest.fixture
def opened(window, tmp_path):
    source = tmp_path / "talk.txt"
    source.write_text("Ann: so we met in paris.\n\nBob: it was cold.\n\nAnn: and the river was high.\n\n"
                      "and then we went home.\n")
    window.open_path(source)
    return window


def _names(doc):
    return [t.speaker for t in doc.tokens]


def test_alt_number_gives_the_caret_paragraph_that_speaker_in_one_undo_step(opened, qtbot):
    w = opened
    doc = w.transcript
    assert speakers_in_order(doc) == ["Ann", "Bob"]
    last = doc.paragraphs()[-1]
    cursor = w.view.textCursor()
    cursor.setPosition(w.view.token_range(last.start)[0])
    w.view.setTextCursor(cursor)
    w.view.setFocus()
    qtbot.keyClick(w.view, Qt.Key.Key_2, Qt.KeyboardModifier.AltModifier)
    assert {doc[i].speaker for i in last} == {"Bob"}
    w.undo()
    assert {doc[i].speaker for i in last} == {"Ann"}


def test_new_speaker_for_a_selection_starts_a_paragraph(opened, monkeypatch):
    w = opened
    doc = w.transcript
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Cleo", True))
    first = doc.paragraphs()[0]
    a = w.view.token_range(first.start + 3)[0]  # "in paris."
    b = w.view.token_range(first.stop - 1)[2]
    cursor = w.view.textCursor()
    cursor.setPosition(a)
    cursor.setPosition(b, QTextCursor.MoveMode.KeepAnchor)
    w.view.setTextCursor(cursor)
    w.speakers.new_speaker()
    assert _names(doc)[:5] == ["Ann", "Ann", "Ann", "Cleo", "Cleo"]
    assert 3 in doc.paragraph_starts
    assert speakers_in_order(doc) == ["Ann", "Cleo", "Bob"]
    w.undo()
    assert "Cleo" not in _names(doc) and 3 not in doc.paragraph_starts


def test_rename_and_merge_are_one_undo_step_each(opened, monkeypatch):
    w = opened
    doc = w.transcript
    monkeypatch.setattr(QInputDialog, "getItem", lambda *a, **k: ("Ann", True))
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Anna", True))
    w.speakers.rename()
    assert speakers_in_order(doc) == ["Anna", "Bob"]
    answers = iter([("Bob", True), ("Anna", True)])
    monkeypatch.setattr(QInputDialog, "getItem", lambda *a, **k: next(answers))
    w.speakers.merge()
    assert speakers_in_order(doc) == ["Anna"]
    w.undo()
    assert speakers_in_order(doc) == ["Anna", "Bob"]
    w.undo()
    assert speakers_in_order(doc) == ["Ann", "Bob"]


def test_margin_names_each_change_in_speaker_colours(opened, qtbot):
    w = opened
    qtbot.waitUntil(lambda: w.view.gutter.speaker_labels() != [])
    labels = [name for _top, name in w.view.gutter.speaker_labels()]
    assert labels == ["Ann", "Bob", "Ann"]  # the fourth paragraph goes on with Ann: no label
    assert w.view.gutter.width() >= w.view.gutter.speaker_width() > 0
    confidence = {c.lower() for c in (w.settings.appearance.high_colour, w.settings.appearance.medium_colour,
                                      w.settings.appearance.low_colour)}
    assert not confidence & {c.lower() for c in SPEAKER_COLOURS}


def test_speakers_are_kept_in_the_project(opened, tmp_path):
    from editor.core.formats import read_any

    w = opened
    w.transcript.rename_speakers({"Bob": "Robert"})
    project = w.save(tmp_path / "talk.stet", wait=True)
    assert speakers_in_order(read_any(project)) == ["Ann", "Robert"]


def test_margin_hover_names_the_speaker(opened, qtbot):
    gutter = opened.view.gutter
    qtbot.waitUntil(lambda: gutter.speaker_labels() != [])
    top, name = gutter.speaker_labels()[1]
    assert gutter.tip_at(top + 1, 2).startswith("Bob speaks from here")


def test_exported_subrip_uses_the_speaker_convention_of_settings(window, tmp_path):
    from editor.gui.dialogs.settings import SettingsDialog

    source = tmp_path / "two.vtt"
    source.write_text("WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n<v Ann>Hello there.\n<v Bob>Hi.\n")
    window.open_path(source)
    dialog = SettingsDialog(window.settings, window)
    dialog.srt_speakers.setCurrentIndex(dialog.srt_speakers.findData("dash"))
    dialog.apply()
    assert window.settings.export.srt_speakers == "dash"
    out = window.export(tmp_path / "two.srt")
    assert out.read_text().endswith("\n- Hello there.\n- Hi.\n")
    window.settings.set("export.srt_speakers", "name")
    assert window.export(tmp_path / "two.srt").read_text().endswith("\nAnn: Hello there.\nBob: Hi.\n")


def test_rename_and_merge_start_from_the_caret_s_speaker(opened, monkeypatch):
    """Rename speaker offered Speaker 1 with the caret in a Speaker 2 paragraph."""
    w = opened
    doc = w.transcript
    bob = doc.paragraphs()[1]
    cursor = w.view.textCursor()
    cursor.setPosition(w.view.token_range(bob.start + 1)[0])
    w.view.setTextCursor(cursor)
    offered = []

    def get_item(parent, title, label, items, current, editable):
        offered.append(items[current])
        return items[current], False

    monkeypatch.setattr(QInputDialog, "getItem", get_item)
    w.speakers.rename()
    w.speakers.merge()
    assert offered == ["Bob", "Bob"]
    cursor.setPosition(0)
    w.view.setTextCursor(cursor)
    w.speakers.rename()
    assert offered[-1] == "Ann"


def test_the_speakers_menu_says_each_name_once(window, tmp_path):
    """The menu read "Speaker 1: Speaker 1" for a recording's speakers."""
    source = tmp_path / "talk.txt"
    source.write_text("Speaker 1: so we met.\n\nSpeaker 2: it was cold.\n\nAnn: and then.\n")
    window.open_path(source)
    window.speakers.name_entries()
    texts = [a.text() for a in window.speakers.number_actions[:4]]
    assert texts == ["Speaker &1", "Speaker &2", "&3: Ann", "Speaker &4 (none yet)"]
    assert not any(t.replace("&", "").count("Speaker") > 1 for t in texts)
