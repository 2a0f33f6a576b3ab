"""The person chooses the restoration model in Settings among the shipped ones, each shown with its
weights' licence and quality; About compares them side by side; the first pass says which model it
uses and why."""

from editor.core import restore_models as rm


def test_settings_lists_the_shipped_models_with_their_licences_and_saves_the_choice(window):
    from editor.gui.dialogs.settings import SettingsDialog

    dialog = SettingsDialog(window.settings, window)
    choice = dialog.restore_choice
    items = [choice.itemText(i) for i in range(choice.count())]
    assert items[0].startswith("This installation's default")
    for m in rm.shipped_restore_models():
        (text,) = [t for t in items if t.startswith(m.name + ":")]
        assert m.licence in text and m.use in text
    # the window's model is a folder of its own (the tiny test model): the last entry says so
    assert choice.currentIndex() == choice.count() - 1
    word = choice.findData(rm.WORD_MODEL)
    choice.setCurrentIndex(word)
    choice.activated.emit(word)
    assert dialog.restore_model.text() == rm.WORD_MODEL
    dialog.apply()
    assert window.settings.engine.restore_model == rm.WORD_MODEL
    dialog.restore_model.setText("")  # emptied: the installation's default
    assert choice.currentIndex() == 0


def test_about_compares_every_shipped_model_by_licence_and_quality(window):
    window.settings.set("engine.restore_model", rm.WORD_MODEL)
    text = window.help.show_about().text.text()
    for m in rm.shipped_restore_models():
        assert m.name in text and m.licence in text
        assert f"{m.figures['dev2012_overall_f1']:.1f}" in text and f"{m.figures['dev_talks_case_f1']:.1f}" in text
    assert f"{rm.WORD_MODEL} <b>(in use)</b>" in text
    assert "non-commercial only" in text


def test_the_first_pass_says_which_model_it_uses_and_why(window, qtbot):
    from editor.core.paths import resource_path

    said: list[str] = []
    window.statusBar().messageChanged.connect(said.append)
    with qtbot.waitSignal(window.restoration_finished, timeout=60000):
        window.open_path(resource_path("samples", "sample.txt"))
    notes = [s for s in said if s.startswith("Restoring with")]
    assert "tiny" in notes[0] and "chosen in Settings" in notes[0]
    # said once (the status bar shortens it with an ellipsis as the progress bar takes room)
    assert all(notes[0].startswith(n.removesuffix("…")) for n in notes)


def test_which_model_restores_is_said_whole_at_the_windows_default_size(window, qtbot, monkeypatch):
    """The note ran to "…Settings ▸ Restoration model offers the o…" after a first pass at
    1200 x 780: the weights' licence identifiers (About and Settings list them) left no room."""
    from PySide6.QtWidgets import QStatusBar

    from editor.core.paths import resource_path

    monkeypatch.delenv(rm.MODEL_ENV, raising=False)
    window.resize(1200, 780)
    window.show()
    with qtbot.waitSignal(window.restoration_finished, timeout=60000):
        window.open_path(resource_path("samples", "sample.txt"))
    bar = window.statusBar()
    for chosen in [None, *(m.name for m in rm.shipped_restore_models())]:
        note = rm.in_use_note(chosen)
        bar.showMessage(note)
        # not cut, once the bar has laid out its widgets after the pass (Cancel and the progress gone)
        qtbot.waitUntil(lambda note=note: QStatusBar.currentMessage(bar) == note and bar.toolTip() == "",
                        timeout=3000)
