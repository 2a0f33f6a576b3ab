"""The settings dialog: review thresholds, colours, restoration, learning."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QColorDialog,
    QCheckBox,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QToolButton,
    QWidget,
)

from editor.core.commas import COMMA_STYLES, DEFAULT_COMMAS
from editor.core.restore_models import default_model_name, shipped_restore_models
from editor.core.settings import Settings

if TYPE_CHECKING:
    pass
from editor.gui.dialogs.percent import percent_box


class _ColourButton(QToolButton):
    def __init__(self, colour: str) -> None:
        super().__init__()
        self.colour = colour
        self.clicked.connect(self._pick)
        self._show()

    def _pick(self) -> None:
        chosen = QColorDialog.getColor(QColor(self.colour), self, "Colour")
        if chosen.isValid():
            self.colour = chosen.name()
            self._show()

    def _show(self) -> None:
        self.setText(self.colour)
        self.setStyleSheet(f"QToolButton {{ border-left: 16px solid {self.colour}; padding: 2px 6px; }}")


def comma_box(style: str) -> QComboBox:
    """A choice of comma style (`editor.core.commas`), ``style`` chosen (the default where it is
    none of them)."""
    box = QComboBox()
    for name, (_line, meaning) in COMMA_STYLES.items():
        box.addItem(f"{name.replace('-', ' ').capitalize()}: {meaning}", name)
    box.setCurrentIndex(box.findData(style if style in COMMA_STYLES else DEFAULT_COMMAS))
    box.setAccessibleName("Commas")
    box.setToolTip("How sure Stet must be of a comma to propose it; the next restoration follows it")
    return box


def fit_long_items(box: QComboBox, shown: int = 48) -> None:
    """Let ``box`` be narrower than its longest item: a shipped model's line (its licence, use and
    measured F1) made the whole Settings dialog 1,131 px wide, wider than a 1,024-px screen. The
    closed box shows about ``shown`` characters of the chosen item, each item's whole text is its
    tooltip, and the list that opens is as wide as the longest item (Qt keeps it on the screen)."""
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    box.setMinimumContentsLength(shown)
    for i in range(box.count()):
        box.setItemData(i, box.itemText(i), Qt.ItemDataRole.ToolTipRole)
    view = box.view()
    # measured here: the view's own sizeHintForColumn is not ready before the list first opens
    widest = max((view.fontMetrics().horizontalAdvance(box.itemText(i)) for i in range(box.count())),
                 default=0)
    view.setMinimumWidth(widest + 2 * view.frameWidth() + view.verticalScrollBar().sizeHint().width()
                         + 16)  # the item's own margins


class SettingsDialog(QDialog):
    """Thresholds, colours, font size, device and model folders; writes into ``settings`` on OK."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.settings = settings
        form = QFormLayout(self)
        self.high = percent_box(settings.review.high)
        self.low = percent_box(settings.review.low)
        for box in (self.high, self.low):
            box.setSingleStep(5)
        form.addRow("High confidence from:", self.high)
        form.addRow("Low confidence below:", self.low)
        self.order = QComboBox()
        self.order.addItem("In reading order", "position")
        self.order.addItem("Lowest confidence first", "confidence")
        self.order.setCurrentIndex(0 if settings.review.order == "position" else 1)
        form.addRow("Tab goes through suggestions:", self.order)
        self.commas = comma_box(settings.review.commas)
        form.addRow("Commas:", self.commas)
        # reviewing by ear (editor/gui/playback/review_listen.py)
        listen = settings.listen
        self.listen_on_arrival = QCheckBox("Play the words around each suggestion reached (with a recording)")
        self.listen_on_arrival.setChecked(listen.on_arrival)
        form.addRow("Reviewing by ear:", self.listen_on_arrival)
        self.listen_before = self._seconds_box(listen.before, "Seconds played before the suggestion's word")
        self.listen_after = self._seconds_box(listen.after, "Seconds played after the mark (after the next word begins)")
        form.addRow("Play from before the word:", self.listen_before)
        form.addRow("Play on after the mark:", self.listen_after)
        self.listen_slower = QCheckBox("Play low-confidence suggestions slower")
        self.listen_slower.setChecked(listen.slower_when_unsure)
        self.listen_slower_speed = percent_box(listen.slower_speed)
        self.listen_slower_speed.setRange(50, 100)
        self.listen_slower_speed.setSingleStep(5)
        self.listen_slower_speed.setToolTip("The share of the player's speed they are played at")
        self.listen_slower_speed.setAccessibleName("Slower playing, share of the speed")
        slower = QHBoxLayout()
        slower.addWidget(self.listen_slower, 1)
        slower.addWidget(self.listen_slower_speed)
        form.addRow("", slower)
        self.colours = {band: _ColourButton(getattr(settings.appearance, f"{band}_colour"))
                        for band in ("high", "medium", "low")}
        for band, button in self.colours.items():
            form.addRow(f"{band.capitalize()} colour:", button)
        self.font_size = QSpinBox()
        self.font_size.setRange(6, 48)
        self.font_size.setValue(settings.appearance.font_size)
        form.addRow("Font size:", self.font_size)
        self.device = QComboBox()
        for value, label in (("auto", "Automatic (CUDA when available)"), ("cpu", "CPU"),
                             ("cuda", "CUDA")):
            self.device.addItem(label, value)
        self.device.setCurrentIndex(max(0, ["auto", "cpu", "cuda"].index(settings.engine.device)
                                        if settings.engine.device in ("auto", "cpu", "cuda") else 0))
        form.addRow("Restoration runs on:", self.device)
        self.srt_speakers = QComboBox()
        self.srt_speakers.addItem('A name where the speaker changes ("Ann: ")', "name")
        self.srt_speakers.addItem('A dash before each speaker\'s line in a shared cue ("- ")', "dash")
        self.srt_speakers.setCurrentIndex(1 if settings.export.srt_speakers == "dash" else 0)
        form.addRow("Speakers in exported .srt:", self.srt_speakers)
        self.author = QLineEdit(settings.export.author)
        self.author.setPlaceholderText("empty: the name this computer has for you")
        self.author.setToolTip("Written as the author of exported Word documents")
        form.addRow("Your name (Word documents):", self.author)
        self.restore_choice = self._restore_model_choice(form)
        self.restore_model = self._folder_row(form, "Restoration model folder:",
                                              settings.engine.restore_model, "this installation's default")
        self.restore_model.textChanged.connect(self._follow_model_folder)
        self._follow_model_folder(self.restore_model.text())
        self.vosk_model = self._folder_row(form, "Vosk model folder:",
                                           settings.engine.vosk_model_dir, "look in the data folder")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    @staticmethod
    def _seconds_box(value: float, tip: str) -> QDoubleSpinBox:
        box = QDoubleSpinBox()
        box.setRange(0.0, 10.0)
        box.setSingleStep(0.25)
        box.setDecimals(2)
        box.setSuffix(" s")
        box.setValue(value)
        box.setToolTip(tip)
        box.setAccessibleName(tip)
        return box
    def _restore_model_choice(self, form: QFormLayout) -> QComboBox:
        """The shipped restoration models, each with its weights' licence and measured quality,
        the installation's default first; a model folder of one's own is the row below."""
        choice = QComboBox()
        choice.setObjectName("restore-model-choice")
        choice.setAccessibleName("Restoration model")
        choice.addItem(f"This installation's default ({default_model_name()})", "")
        for m in shipped_restore_models():
            f1, case = m.figures.get("dev2012_overall_f1"), m.figures.get("dev_talks_case_f1")
            quality = (f"; punctuation F1 {f1:.1f}, capitals F1 {case:.1f}" if f1 is not None and case is not None
                       else "")
            choice.addItem(f"{m.name}: weights {m.licence or 'licence not stated'}, {m.use}{quality}", m.name)
        choice.addItem("A model folder (below)", None)
        choice.setToolTip("Which model proposes punctuation and capitals. Weights under a non-commercial "
                          "licence may not be used for paid work; About compares the models.")
        choice.activated.connect(self._choose_model)
        fit_long_items(choice)
        form.addRow("Restoration model:", choice)
        return choice

    def _choose_model(self, index: int) -> None:
        name = self.restore_choice.itemData(index)
        if name is not None:
            self.restore_model.setText(name)
        else:
            self.restore_model.setFocus()

    def _follow_model_folder(self, text: str) -> None:
        found = self.restore_choice.findData(text.strip())
        self.restore_choice.setCurrentIndex(found if found >= 0 else self.restore_choice.count() - 1)

    def _folder_row(self, form: QFormLayout, label: str, value: str, empty: str) -> QLineEdit:
        row = QHBoxLayout()
        edit = QLineEdit(value)
        edit.setAccessibleName(label.rstrip(":"))
        edit.setPlaceholderText(f"empty: {empty}")
        browse = QPushButton("Browse…")
        browse.clicked.connect(lambda: self._browse(edit))
        row.addWidget(edit, 1)
        row.addWidget(browse)
        form.addRow(label, row)
        return edit

    def _browse(self, edit: QLineEdit) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Choose a folder", edit.text())
        if folder:
            edit.setText(folder)

    def apply(self) -> None:
        """Copy the dialog's values into the settings object."""
        s = self.settings
        high, low = self.high.value() / 100, self.low.value() / 100
        s.set("review.high", max(high, low))
        s.set("review.low", min(high, low))
        s.set("review.order", self.order.currentData())
        s.set("review.commas", self.commas.currentData())
        s.set("listen.on_arrival", self.listen_on_arrival.isChecked())
        s.set("listen.before", self.listen_before.value())
        s.set("listen.after", self.listen_after.value())
        s.set("listen.slower_when_unsure", self.listen_slower.isChecked())
        s.set("listen.slower_speed", self.listen_slower_speed.value() / 100)
        for band, button in self.colours.items():
            s.set(f"appearance.{band}_colour", button.colour)
        s.set("appearance.font_size", self.font_size.value())
        s.set("engine.device", self.device.currentData())
        s.set("export.srt_speakers", self.srt_speakers.currentData())
        s.set("export.author", self.author.text().strip())
        s.set("engine.restore_model", self.restore_model.text().strip())
        s.set("engine.vosk_model_dir", self.vosk_model.text().strip())
