"""The "What Stet learned" dialog: the user lexicon, the profiles, reset."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QCheckBox, QDialog, QDialogButtonBox, QFileDialog, QHBoxLayout, QInputDialog,
                               QLabel, QListWidget, QListWidgetItem, QMessageBox, QPushButton, QVBoxLayout, QWidget)

from editor.core.errors import UserError
from editor.core.review.lexicon import UserLexicon, check_forms
from editor.core.settings import Settings
# with the window, not at the first file shown: it brings numpy, whose import there held the
# window's thread ~100 ms (tests/perf/bench_gui_stalls.py, a fresh window)
from editor.restore import list_profiles, reset_learned
from editor.gui.base.screen_fit import resize_within_screen

if TYPE_CHECKING:

    pass


def _wrapped(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    return label


class LearnedDialog(QDialog):
    """The user lexicon (add, remove, export), whether choices repeat and reviews teach, and reset."""

    def __init__(self, settings: Settings, parent: QWidget | None = None,
                 lexicon: UserLexicon | None = None, profile: str | None = None,
                 chosen: str | None = None) -> None:
        """``profile``: the key of the open document's own profile (its language and speakers),
        ``chosen``: the profile the person chose for it before (None: its own)."""
        super().__init__(parent)
        self.setWindowTitle("What Stet learned")
        self.settings = settings
        self.lexicon = lexicon if lexicon is not None else UserLexicon.load()
        layout = QVBoxLayout(self)
        # The explanations wrap: on one line each they made the dialog 1049 px wide.
        layout.addWidget(_wrapped(
            "Forms you wrote mid-sentence (names, acronyms, mixed case such as iPad). Every later "
            "restoration writes them this way, before the model's own lexicon."))
        self.list = QListWidget()
        self.list.setAccessibleName("Forms you wrote")
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
        self.repeat = QCheckBox("Propose my choices elsewhere in the document (same word, same word pair)")
        self.repeat.setToolTip("A choice repeats only as pending proposals “from your choice”, to "
                               "accept or reject where they are; nothing elsewhere changes unseen")
        self.repeat.setChecked(settings.review.repeat_choices)
        self.learn = QCheckBox("Learn from my reviews when I save (forms and marks I choose)")
        self.learn.setChecked(settings.review.learn_from_reviews)
        self.use = QCheckBox("Use what Stet learned for files of the same language and speakers")
        self.use.setChecked(settings.review.use_learned)
        for box in (self.repeat, self.learn, self.use):
            layout.addWidget(box)
        layout.addWidget(_wrapped(
            "Learned from reviews, per language and set of speakers. A document uses its own unless "
            "you choose another here (for a new speaker who sounds like one you reviewed)."))
        self.profiles = QListWidget()
        self.profiles.setAccessibleName("Learned from reviews")
        layout.addWidget(self.profiles)
        prow = QHBoxLayout()
        self.use_profile_button = QPushButton("Use for this document")
        self.own_profile_button = QPushButton("Use the document's own")
        for b in (self.use_profile_button, self.own_profile_button):
            prow.addWidget(b)
            b.setEnabled(profile is not None)
        prow.addStretch(1)
        layout.addLayout(prow)
        self.own_profile = profile
        self.chosen_profile = chosen  # None: the document's own
        self.reset_button = QPushButton("Reset what Stet learned…")
        layout.addWidget(self.reset_button)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        layout.addWidget(buttons)
        hint = self.sizeHint()  # 513x682: the lists give way on a screen less tall
        resize_within_screen(self, hint.width(), hint.height())
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.add_button.clicked.connect(self.ask_add)
        self.remove_button.clicked.connect(self.remove_selected)
        self.export_button.clicked.connect(self.ask_export)
        self.reset_button.clicked.connect(self.ask_reset)
        self.use_profile_button.clicked.connect(self.use_selected_profile)
        self.own_profile_button.clicked.connect(lambda: self.choose_profile(None))
        self._refresh()

    def _refresh(self) -> None:
        self.list.clear()
        for w, form in sorted(self.lexicon.forms.items()):
            item = QListWidgetItem(form)
            where = self.lexicon.origin(w)  # which review taught it, and when
            item.setToolTip(f"Learned from {where}" if where else "Added by hand, or before Stet kept where from")
            self.list.addItem(item)
        self.remove_button.setEnabled(len(self.lexicon) > 0)
        self.export_button.setEnabled(len(self.lexicon) > 0)

        self.profiles.clear()
        current = self.chosen_profile or self.own_profile
        for p in list_profiles():
            notes = [n for n, on in (("this document's", p.key == self.own_profile),
                                     ("used for this document", p.key == current)) if on]
            item = QListWidgetItem(f"{p.label}: {p.words:,} reviewed words" + (f" ({', '.join(notes)})" if notes else ""))
            item.setData(Qt.ItemDataRole.UserRole, p.key)
            if p.sources:  # where each share came from
                item.setToolTip("\n".join(f"from {Path(f).name if f else 'a review'}" + (f", {w}" if w else "")
                                          + f" ({n:,} words)" for f, w, n in p.sources))
            self.profiles.addItem(item)
        if self.own_profile is not None and not any(
                self.profiles.item(i).data(Qt.ItemDataRole.UserRole) == self.own_profile for i in range(self.profiles.count())):
            self.profiles.addItem("Nothing learned yet for this document's language and speakers")

    def choose_profile(self, key: str | None) -> None:
        """Use profile ``key`` for the open document (None: its own language and speakers')."""
        self.chosen_profile = None if key == self.own_profile else key
        self._refresh()

    def use_selected_profile(self) -> None:
        item = self.profiles.currentItem()
        key = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if key:
            self.choose_profile(key)

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
