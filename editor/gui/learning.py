"""Learning from the person reviewing, in the editor: what is kept after a save, what a restoration
uses, and the "What Stet learned" dialog (the user lexicon, reset).

The rules live in ``editor.core.learning`` (propagation in the document) and
``editor.restore.learn`` (the lexicon and the adaptation a restoration applies); this module only
runs them off the UI thread and shows them.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import (QCheckBox, QDialog, QDialogButtonBox, QFileDialog, QHBoxLayout, QInputDialog,
                               QLabel, QListWidget, QMessageBox, QPushButton, QVBoxLayout, QWidget)

from editor.core.document import Transcript
from editor.core.errors import UserError
from editor.core.learning import review_decisions, user_forms
from editor.core.lexicon import UserLexicon, check_forms
from editor.core.settings import Settings
from editor.gui.background import BackgroundOp


def adaptation_inputs(transcript: Transcript) -> tuple[dict, str | None, frozenset]:
    """Copies of what a restoration's adaptation depends on, safe to hand to a worker thread."""
    return (dict(transcript.metadata.extra), transcript.metadata.language,
            frozenset(t.speaker for t in transcript.tokens if t.speaker))


class LearningController(QObject):
    """Keeps what a review taught after each save: the person's case forms join the user lexicon
    (and the project's own lexicon), the marks they chose between word pairs join the adaptation
    kept for the document's language and speakers. The work runs on the thread pool."""

    message = Signal(str)
    error = Signal(str)

    def __init__(self, settings: Settings, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.settings = settings

    def remember(self, transcript: Transcript, forms: dict[str, str] | None = None) -> BackgroundOp | None:
        """Learn from ``transcript``'s review (call after it was saved); ``forms``: its
        ``user_forms`` when the caller has them already (a pass over every word saved)."""
        if not self.settings.review.learn_from_reviews:
            return None
        decisions = review_decisions(transcript)
        forms = user_forms(transcript) if forms is None else forms
        if not decisions and not forms:
            return None
        extra, language, speakers = adaptation_inputs(transcript)

        def work(_report):
            from editor.restore.learned import profile_key, remember_review

            return remember_review(decisions, forms, profile_key(language, speakers))

        return BackgroundOp(self, work).success(self._remembered).failure(self._failed).run()

    def _remembered(self, result: tuple[int, int]) -> None:
        added, _pairs = result
        if added:
            self.message.emit(f"Stet will remember {added} form{'s' if added != 1 else ''} you wrote "
                              "(Review > What Stet learned)")

    def _failed(self, err: BaseException) -> None:
        self.error.emit(f"Could not keep what this review taught: {err}")


def project_lexicon_update(transcript: Transcript, forms: dict[str, str] | None = None) -> dict | None:
    """The metadata ``extra`` with the document's own lexicon brought up to date, or None when it
    is already current (so that saving a document whose forms did not change changes nothing)."""
    forms = user_forms(transcript) if forms is None else forms
    extra = dict(transcript.metadata.extra)
    if extra.get("lexicon", {}) == forms or (not forms and "lexicon" not in extra):
        return None
    if forms:
        extra["lexicon"] = forms
    else:
        extra.pop("lexicon", None)
    return extra


class LearnedDialog(QDialog):
    """The user lexicon (add, remove, export), whether choices repeat and reviews teach, and reset."""

    def __init__(self, settings: Settings, parent: QWidget | None = None,
                 lexicon: UserLexicon | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("What Stet learned")
        self.settings = settings
        self.lexicon = lexicon if lexicon is not None else UserLexicon.load()
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(
            "Forms you wrote mid-sentence (names, acronyms, mixed case such as iPad). Every later "
            "restoration writes them this way, before the model's own lexicon."))
        self.list = QListWidget()
        self.list.setSelectionMode(QListWidget.SelectionMode.ExtendedSelection)
        layout.addWidget(self.list)
        row = QHBoxLayout()
        self.add_button = QPushButton("Add…")
        self.remove_button = QPushButton("Remove")
        self.export_button = QPushButton("Export…")
        for b in (self.add_button, self.remove_button, self.export_button):
            row.addWidget(b)
        row.addStretch(1)
        layout.addLayout(row)
        self.repeat = QCheckBox("Repeat my choices elsewhere in the document (same word, same word pair)")
        self.repeat.setChecked(settings.review.repeat_choices)
        self.learn = QCheckBox("Learn from my reviews when I save (forms and marks I choose)")
        self.learn.setChecked(settings.review.learn_from_reviews)
        self.use = QCheckBox("Use what Stet learned for files of the same language and speakers")
        self.use.setChecked(settings.review.use_learned)
        for box in (self.repeat, self.learn, self.use):
            layout.addWidget(box)
        self.reset_button = QPushButton("Reset what Stet learned…")
        layout.addWidget(self.reset_button)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        layout.addWidget(buttons)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.add_button.clicked.connect(self.ask_add)
        self.remove_button.clicked.connect(self.remove_selected)
        self.export_button.clicked.connect(self.ask_export)
        self.reset_button.clicked.connect(self.ask_reset)
        self._refresh()

    def _refresh(self) -> None:
        self.list.clear()
        for _w, form in sorted(self.lexicon.forms.items()):
            self.list.addItem(form)
        self.remove_button.setEnabled(len(self.lexicon) > 0)
        self.export_button.setEnabled(len(self.lexicon) > 0)

    def add_forms(self, text: str) -> int:
        """Add the forms in ``text`` (separated by spaces or commas); raises UserError when one is bad."""
        words = [w for w in text.replace(",", " ").split() if w]
        changed = self.lexicon.learn(check_forms({w.lower(): w for w in words}, "the lexicon"))
        self._refresh()
        return len(changed)

    def ask_add(self) -> None:
        text, ok = QInputDialog.getText(self, "Add to the lexicon", "Forms (e.g. Okafor NASA iPad):")
        if ok and text.strip():
            try:
                self.add_forms(text)
            except UserError as err:
                QMessageBox.warning(self, "Not added", str(err))

    def remove_selected(self) -> int:
        n = self.lexicon.remove(item.text() for item in self.list.selectedItems())
        self._refresh()
        return n

    def ask_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export the lexicon", "stet-lexicon.txt", "Text (*.txt)")
        if path:
            try:
                self.lexicon.export(Path(path))
            except (OSError, UserError) as err:
                QMessageBox.warning(self, "Not exported", str(err))

    def ask_reset(self) -> None:
        answer = QMessageBox.question(
            self, "Reset what Stet learned",
            "Forget every form in the lexicon and every adaptation learned from your reviews? "
            "The model Stet ships with is not changed.")
        if answer == QMessageBox.StandardButton.Yes:
            self.reset()

    def reset(self) -> None:
        from editor.restore.learned import reset_learned

        reset_learned()
        self.lexicon.clear()
        self.lexicon.save()
        self._refresh()

    def accept(self) -> None:
        try:
            self.lexicon.save()
        except (OSError, UserError) as err:
            QMessageBox.warning(self, "Not saved", str(err))
            return
        self.settings.review.repeat_choices = self.repeat.isChecked()
        self.settings.review.learn_from_reviews = self.learn.isChecked()
        self.settings.review.use_learned = self.use.isChecked()
        super().accept()
