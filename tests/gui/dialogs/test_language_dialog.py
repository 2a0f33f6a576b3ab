"""The question of a recording's language: installed models by language, the last one first,
and another language got through the model dialog."""

from pathlib import Path

from editor.asr.models import ModelInfo
from editor.gui.dialogs.language import LanguageDialog

KO = ModelInfo(name="vosk-model-small-ko-0.22", path="/m/ko", language="ko", source="stet")
DE = ModelInfo(name="vosk-model-small-de-0.15", path="/m/de", language="de", source="stet")
EN = ModelInfo(name="vosk-model-small-en-us-0.15", path="/m/en", language="en-us", source="stet")


def test_the_model_in_use_is_offered_first_and_others_can_be_chosen(qtbot):
    dialog = LanguageDialog(Path("talk.mp3"), [KO, DE], current=DE, get_model=lambda: None)
    qtbot.addWidget(dialog)
    assert dialog.chosen() == DE and dialog.choice.currentText() == "German (de) — vosk-model-small-de-0.15"
    assert dialog.note.text() == ""  # two languages: nothing to warn about
    dialog.choose("ko")
    dialog.accept()
    assert dialog.model == KO and dialog.result() == LanguageDialog.DialogCode.Accepted


def test_another_language_comes_from_the_model_dialog(qtbot):
    dialog = LanguageDialog(Path("talk.mp3"), [KO], current=KO, get_model=lambda: EN)
    qtbot.addWidget(dialog)
    assert "Only Korean (ko) is installed" in dialog.note.text()
    dialog.choice.setCurrentIndex(1)
    dialog._activated(1)  # as when the person picks "Another language…"
    assert dialog.chosen() == EN and dialog.choice.count() == 3
    assert dialog.note.text() == ""


def test_giving_up_on_another_language_chooses_none(qtbot):
    dialog = LanguageDialog(Path("talk.mp3"), [KO], current=KO, get_model=lambda: None)
    qtbot.addWidget(dialog)
    dialog.choice.setCurrentIndex(1)
    dialog._activated(1)
    assert dialog.chosen() is None  # no model for the language wanted: none in its place
    dialog.choice.setCurrentIndex(1)
    dialog.accept()  # "Another language" is not a model: the dialog stays open
    assert dialog.model is None and dialog.result() != LanguageDialog.DialogCode.Accepted


def test_nothing_is_chosen_for_the_person_and_enter_waits_for_a_choice(qtbot):
    """Issue 50: the one installed model was preselected and Enter transcribed English speech
    as Korean. With no model chosen before, none is selected and Enter does nothing."""
    from PySide6.QtCore import Qt

    dialog = LanguageDialog(Path("apollo11.mp3"), [KO], current=None, get_model=lambda: None)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.chosen() is None and dialog.choice.currentIndex() == -1
    assert dialog.choice.currentText() == "" and dialog.choice.placeholderText().startswith("Choose the language")
    assert not dialog.transcribe_button.isEnabled()
    qtbot.keyClick(dialog.choice, Qt.Key.Key_Return)
    assert dialog.model is None and dialog.isVisible() and dialog.result() != LanguageDialog.DialogCode.Accepted
    dialog.choose("ko")  # the person chooses: now Enter transcribes in that language
    assert dialog.transcribe_button.isEnabled() and dialog.transcribe_button.isDefault()
    qtbot.keyClick(dialog.choice, Qt.Key.Key_Return)
    assert dialog.model == KO and dialog.result() == LanguageDialog.DialogCode.Accepted


def test_a_language_without_a_model_leaves_nothing_chosen(qtbot):
    """The person wanted English and got no model for it (offline, or gave up): Korean is not put
    in its place, and Enter does not transcribe."""
    from PySide6.QtCore import Qt

    dialog = LanguageDialog(Path("apollo11.mp3"), [KO], current=KO, get_model=lambda: None)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.choice.setCurrentIndex(1)
    dialog._activated(1)  # as when the person picks "Another language…"
    assert dialog.chosen() is None and not dialog.transcribe_button.isEnabled()
    qtbot.keyClick(dialog.choice, Qt.Key.Key_Return)
    assert dialog.model is None and dialog.result() != LanguageDialog.DialogCode.Accepted
