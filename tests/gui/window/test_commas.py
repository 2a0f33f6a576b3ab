"""Commas as a style the person sets (Settings, the first-run tour; the next restoration follows
it), and the panel saying why a likelier sentence end is not proposed."""

from __future__ import annotations

from editor.core.commas import DEFAULT_COMMAS
from editor.core.document.transcript import Kind, Suggestion, Token, Transcript


def test_the_settings_dialog_sets_the_comma_style_and_the_next_restoration_follows_it(window, qtbot, tmp_path):
    from editor.gui.dialogs.settings import SettingsDialog

    dialog = SettingsDialog(window.settings, window)
    assert dialog.commas.currentData() == DEFAULT_COMMAS == "every-pause"
    dialog.commas.setCurrentIndex(dialog.commas.findData("sure"))
    dialog.apply()
    window.apply_settings()
    assert window.settings.review.commas == "sure"
    passes = []
    import editor.gui.work.restoration as restoration

    real = restoration.PassSettings

    def spy(**kw):
        passes.append(kw["commas"])
        return real(**kw)
    qtbot_patch = __import__("pytest").MonkeyPatch()
    qtbot_patch.setattr(restoration, "PassSettings", spy)
    try:
        source = tmp_path / "raw.txt"
        source.write_text("so what is it for i asked and you said it is okay", encoding="utf-8")
        with qtbot.waitSignal(window.restoration_finished, timeout=60_000):
            window.open_path(source)
    finally:
        qtbot_patch.undo()
    assert passes == ["sure"]


def test_a_style_that_is_none_in_the_settings_file_is_shown_and_used_as_the_default(window):
    from editor.gui.dialogs.settings import SettingsDialog

    window.settings.set("review.commas", "lots")
    assert SettingsDialog(window.settings, window).commas.currentData() == DEFAULT_COMMAS


def test_the_tour_asks_for_the_comma_style_and_keeps_it(window, qtbot, monkeypatch):
    from PySide6.QtWidgets import QLabel

    saved = []
    monkeypatch.setattr(window, "save_settings", lambda: saved.append(window.settings.review.commas))
    tour = window.help.show_tour()
    while "How many commas?" not in " ".join(label.text() for label in tour.stack.currentWidget().findChildren(QLabel)):
        assert tour.next_button.text() != "Done"
        tour.go(+1)
    assert tour.commas.isVisibleTo(tour)
    tour.commas.setCurrentIndex(tour.commas.findData("careful"))
    assert window.settings.review.commas == "careful"
    tour.reject()  # skipped from there: the choice stays, and is saved
    assert saved == ["careful"]


def test_the_panel_says_why_a_likelier_sentence_end_is_not_proposed(window):
    doc = Transcript([Token(w) for w in ["later", "then", "we", "met"]])
    doc.set_suggestions([Suggestion(doc[0].id, Kind.PUNCT, ",", {".": 0.45, ",": 0.26, "": 0.25, "?": 0.04}),
                         Suggestion(doc[2].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})])
    window.set_transcript(doc, restore=False)
    window.view.set_current(doc.suggestion(doc[0].id, Kind.PUNCT))
    shown = window.panel.current_label.text()
    assert "Not the likelier ‘.’ full stop: ‘then’ after it is likelier in lower case" in shown
    window.view.set_current(doc.suggestion(doc[2].id, Kind.PUNCT))
    assert "likelier" not in window.panel.current_label.text()  # the likeliest: nothing to say
