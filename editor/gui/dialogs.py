"""The export dialog, the settings dialog and the find/replace bar."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QKeyEvent, QShowEvent, QStandardItemModel, QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QCheckBox,
    QColorDialog,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QToolButton,
    QWidget,
)

from editor.core.render import ALL, NONE, RenderPolicy
from editor.core.settings import Settings
from editor.gui.overwrite import same_file

if TYPE_CHECKING:
    from editor.gui.view import QtTranscriptView

EXPORT_FORMATS = {".txt": "Plain text", ".md": "Markdown", ".docx": "Word document",
                  ".srt": "SubRip subtitles", ".vtt": "WebVTT subtitles",
                  ".ass": "SubStation Alpha subtitles", ".ttml": "TTML subtitles",
                  ".sbv": "YouTube SubViewer subtitles", ".json": "JSON (Whisper shape)"}
#: Subtitle formats Stet writes, by the extension of a file it reads (".ssa" is written as ".ass"):
#: a subtitle source is exported in its own format by default, cues and timings kept.
SUBTITLE_EXPORTS = {".srt": ".srt", ".vtt": ".vtt", ".sbv": ".sbv", ".ass": ".ass", ".ssa": ".ass",
                    ".ttml": ".ttml", ".dfxp": ".ttml"}


def suggested_export(source: Path | None, project: Path | None, folder: Path, *,
                     last_format: str = "", unavailable: Mapping[str, str] | None = None) -> Path:
    """The name the export dialog proposes, in ``folder``: the format of the last export
    (``last_format``), else a subtitle source's own (SubRip stays SubRip, its cues and timings
    kept), plain text as a Word document, anything else as plain text; never a format the document
    cannot fill (``unavailable``: extension -> why), and never the source itself ("talk.srt" ->
    "talk-edited.srt"), which a person would lose by pressing Enter."""
    unavailable = unavailable or {}
    base = folder / (source or project or Path("transcript")).name
    ext = SUBTITLE_EXPORTS.get(base.suffix.lower()) or (".docx" if base.suffix.lower() == ".txt" else ".txt")
    if last_format in EXPORT_FORMATS and last_format not in unavailable:
        ext = last_format
    elif ext in unavailable:
        ext = ".txt"
    return not_the_source(base.with_suffix(ext), source)


def not_the_source(path: Path, source: Path | None) -> Path:
    """``path``, or where it would be the ``source`` file itself, "NAME-edited.EXT" beside it."""
    if source is not None and same_file(path, source):
        return path.with_name(f"{path.stem}-edited{path.suffix}")
    return path


def with_export_suffix(path: Path, ext: str) -> Path:
    """``path`` in the export format ``ext``: its extension swapped when it is an export
    format's, else ``ext`` added ("Interview with Dr. Smith" keeps its ". Smith")."""
    if path.suffix.lower() in EXPORT_FORMATS:
        return path.with_suffix(ext)
    return path.with_name(path.name + ext)


class ExportDialog(QDialog):
    """Where to export and what to do with suggestions still pending.

    ``unavailable`` names the formats the document cannot fill (extension -> why): they are listed
    but disabled, the reason their tooltip. ``may_write(path, confirmed)`` is asked on OK (a file
    that exists, the source itself); a No leaves the dialog open as it was. ``open_help(topic)``
    opens the help at the formats page."""

    def __init__(self, settings: Settings, suggested: Path, pending: int,
                 parent: QWidget | None = None, count: Callable[[float], object] | None = None, *,
                 source: Path | None = None, unavailable: Mapping[str, str] | None = None,
                 may_write: Callable[[Path, bool], bool] | None = None,
                 open_help: Callable[[str], object] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export")
        self.settings = settings
        self.source = source
        self.unavailable = dict(unavailable or {})
        self.may_write = may_write
        self.export_path: Path | None = None  # what OK settled on, its format's extension on it
        form = QFormLayout(self)
        row = QHBoxLayout()
        self.path_edit = QLineEdit(str(suggested))
        self.path_edit.textEdited.connect(self._typed)
        self.path_edit.setAccessibleName("File to export to")
        self.confirmed_path: Path | None = None  # a file dialog asked about replacing it
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        row.addWidget(self.path_edit, 1)
        row.addWidget(browse)
        form.addRow("File:", row)
        self.format = QComboBox()
        items = cast(QStandardItemModel, self.format.model())
        for ext, name in EXPORT_FORMATS.items():
            self.format.addItem(f"{name} ({ext})", ext)
            why = self.unavailable.get(ext)
            if why:
                item = items.item(self.format.count() - 1)
                item.setEnabled(False)
                item.setToolTip(f"Not for this transcript: {why}")
        self.format_note = QLabel()  # why a typed extension's format cannot be had
        self.format_note.setObjectName("export-format-note")
        self.format_note.setWordWrap(True)
        self.format_note.hide()
        self._match_format(suggested.suffix.lower())
        self.format.currentIndexChanged.connect(self._format_changed)
        form.addRow("Format:", self.format)
        form.addRow(self.format_note)
        # Pending suggestions are tinted proposals in the text, not part of it: say so, and let
        # the person choose what goes out, with counts, rather than export silently differ from
        # what the screen shows.
        self.pending = pending
        # threshold (0..1) -> how many it applies, at once or in parts (see SlicedCount)
        self._counter = SlicedCount(self, count or (lambda threshold: 0), self._show_applied)
        self.policy = QComboBox()
        self.policy.addItem("Only what I accepted (pending suggestions left out)", NONE)
        self.policy.addItem("Also pending suggestions at or above the threshold", "threshold")
        self.policy.addItem("Every pending suggestion, as the text shows them", ALL)
        self.threshold = percent_box(settings.review.high, minimum=1)
        self.threshold.setToolTip("Confidence in percent, as the suggestion list shows it")
        self.policy_note = QLabel()
        self.policy_note.setWordWrap(True)
        self.policy_note.setObjectName("export-policy-note")
        if pending:
            form.addRow(QLabel(f"{pending:,} suggestions are still pending: they are tinted in "
                               "the text as proposals and are not part of it until accepted."))
            form.addRow("Write:", self.policy)
            form.addRow("Threshold:", self.threshold)
            form.addRow(self.policy_note)
        else:
            self.policy.hide()
            self.threshold.hide()
            self.policy_note.hide()
        self.policy.currentIndexChanged.connect(self._policy_changed)
        self.threshold.valueChanged.connect(self._policy_changed)
        self._policy_changed()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        if open_help is not None:
            buttons.addButton(QDialogButtonBox.StandardButton.Help)
            buttons.helpRequested.connect(lambda: open_help("formats.md#reading-and-writing"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _browse(self) -> None:
        ext = self.format.currentData()
        # the dialog asks before replacing a file (Qt's default, kept on)
        path, _ = QFileDialog.getSaveFileName(self, "Export to", self.path_edit.text(),
                                              f"{EXPORT_FORMATS[ext]} (*{ext})")
        if path:
            if Path(path).suffix:
                self.confirmed_path = Path(path)
            else:
                path += ext
            self.path_edit.setText(path)
            self._match_format(Path(path).suffix.lower())

    def _match_format(self, ext: str) -> None:
        """Show ``ext``'s format in the box (without touching the name), where it is one; say why
        not where the document cannot fill it."""
        if ext in EXPORT_FORMATS:
            why = self.unavailable.get(ext)
            if why is None:
                self.format.blockSignals(True)
                self.format.setCurrentIndex(list(EXPORT_FORMATS).index(ext))
                self.format.blockSignals(False)
            self.format_note.setText(f"{EXPORT_FORMATS[ext]} cannot be written: {why}." if why else "")
            self.format_note.setVisible(bool(why))

    def _typed(self, text: str) -> None:
        """A name typed with an export format's extension ("talk.srt") chooses that format."""
        self._match_format(Path(text.strip()).suffix.lower())

    def _format_changed(self) -> None:
        path = Path(self.path_edit.text())
        self.path_edit.setText(str(not_the_source(with_export_suffix(path, self.format.currentData()), self.source)))
        self.format_note.hide()

    @property
    def chosen_path(self) -> Path:
        return Path(self.path_edit.text()).expanduser()

    @property
    def chosen_format(self) -> str:
        """The extension the export is written in: the name's where it is an export format's."""
        ext = self.chosen_path.suffix.lower()
        return ext if ext in EXPORT_FORMATS else cast(str, self.format.currentData())

    def accept(self) -> None:
        """OK: refused with the reason where the document cannot fill the format; asked about a
        file that exists (``may_write``), and left open, as it was, where the answer is No."""
        path = self.chosen_path
        if path.suffix.lower() not in EXPORT_FORMATS:
            path = with_export_suffix(path, self.format.currentData())
        why = self.unavailable.get(path.suffix.lower())
        if why:
            QMessageBox.warning(self, "Cannot export", f"{path.name}: {EXPORT_FORMATS[path.suffix.lower()]} "
                                f"cannot be written: {why}.")
            return
        if self.may_write is not None and not self.may_write(path, path == self.confirmed_path):
            self.path_edit.setFocus()
            self.path_edit.selectAll()
            return
        self.export_path = path
        super().accept()

    def _policy_changed(self) -> None:
        data = self.policy.currentData()
        self.threshold.setEnabled(data == "threshold")
        if data == "threshold":
            self._counter.start(self.threshold.value() / 100)
        elif data is ALL:
            self.policy_note.setText(f"All {self.pending:,} pending suggestions will be applied.")
        else:
            self.policy_note.setText("The file gets the text as it stands with what you accepted; "
                                     f"the {self.pending:,} pending suggestions are left out.")

    def _show_applied(self, applied: object) -> None:
        if self.policy.currentData() != "threshold":
            return
        if applied is None:
            self.policy_note.setText(f"Counting how many of the {self.pending:,} pending suggestions "
                                     "this applies…")
            return
        self.policy_note.setText(f"{applied:,} of {self.pending:,} pending suggestions will be "
                                 "applied in the exported file; the rest left out.")

    @property
    def chosen_policy(self) -> RenderPolicy:
        data = self.policy.currentData()
        if data == "threshold":
            return RenderPolicy(self.threshold.value() / 100)
        return cast(RenderPolicy, data)


#: A count a threshold dialog shows is summed over the text for this long per turn of the event
#: loop: at 100,000 words the whole count took ~600 ms, held at every change of the threshold.
_COUNT_SECONDS = 0.005


def _added(total: object, part: object) -> object:
    """A count's ``total`` so far with ``part`` added: numbers, or tuples of them summed by place."""
    if total is None:
        return part
    if isinstance(total, tuple) and isinstance(part, tuple):
        return tuple(a + b for a, b in zip(total, part))
    if isinstance(total, int | float) and isinstance(part, int | float):
        return total + part
    raise TypeError(f"cannot add a count of {type(part).__name__} to one of {type(total).__name__}")


class SlicedCount(QObject):
    """A count for a threshold that ``count(threshold)`` gives at once (a number, or a tuple of
    numbers) or in parts, as an iterator of them summed a slice per turn of the event loop;
    ``show(total)`` when it is known, ``show(None)`` while it is being counted. Counting again
    drops the count under way."""

    def __init__(self, parent: QObject, count: Callable[[float], object],
                 show: Callable[[object], None]) -> None:
        super().__init__(parent)
        self._count, self._show = count, show
        self._parts: Iterator[object] | None = None
        self._total: object = None
        self._generation = 0
        self._threshold: float | None = None  # what the count under way or shown is for

    @property
    def counting(self) -> bool:
        return self._parts is not None

    def start(self, threshold: float) -> None:
        if threshold == self._threshold:
            # The same threshold again (Enter in a spin box says its value once more): the count
            # under way goes on, a count done is shown again. Counting afresh would take back
            # the button Enter was about to press, and Enter on a long text would do nothing.
            if self._parts is None:
                self._show(self._total)
            return
        self._threshold = threshold
        self._generation += 1
        found = self._count(threshold)
        if not isinstance(found, Iterator):
            self._parts = None
            self._total = found
            self._show(found)
            return
        self._parts, self._total = found, None
        self._step(self._generation)  # a short text is counted at once
        if self._parts is not None:
            self._show(None)

    def _step(self, generation: int) -> None:
        if generation != self._generation or self._parts is None:
            return  # counted again since, or done
        end = time.perf_counter() + _COUNT_SECONDS
        while True:  # a part at least per turn
            part = next(self._parts, None)
            if part is None:
                self._parts = None
                self._show(self._total)
                return
            self._total = _added(self._total, part)
            if time.perf_counter() >= end:
                break
        QTimer.singleShot(0, self, lambda: self._step(generation))


def percent_box(value: float, minimum: int = 0) -> QSpinBox:
    """A threshold typed in percent, as the list and the legend show it ("80" means 80 %)."""
    box = QSpinBox()
    box.setRange(minimum, 100)
    box.setSuffix(" %")
    box.setValue(round(value * 100))
    return box


class AcceptAllDialog(QDialog):
    """Accept all at or above a threshold typed in percent; shows before Enter how many that is,
    and how many of them are of low confidence, so a typo cannot accept everything unseen."""

    def __init__(self, settings: Settings, count: Callable[[float], object], pending: int,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Accept all at or above")
        self.settings = settings
        # threshold (0..1) -> (accepted, of them below the low band), at once or in parts
        self._counter = SlicedCount(self, count, self._show_count)
        self.pending = pending
        form = QFormLayout(self)
        self.box = percent_box(settings.review.high, minimum=1)
        self.box.setToolTip("Confidence in percent, as the suggestion list shows it")
        form.addRow("Accept suggestions with confidence at or above:", self.box)
        self.summary = QLabel()
        self.summary.setObjectName("accept-all-summary")
        self.summary.setWordWrap(True)
        form.addRow(self.summary)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self.box.valueChanged.connect(self._update)
        self._update()

    @property
    def threshold(self) -> float:
        return self.box.value() / 100

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        # The box takes the focus as the dialog opens, its text not selected (Qt selects it only
        # for Tab): typing "80" then read "090 %". Selected, what is typed replaces it.
        self.box.setFocus()
        self.box.selectAll()

    def _update(self) -> None:
        self._counter.start(self.threshold)

    def _show_count(self, counted: object) -> None:
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        if counted is None:  # still counting: nothing to accept yet, Enter included
            ok.setText("Counting…")
            ok.setEnabled(False)
            ok.setDefault(False)
            ok.setAutoDefault(False)
            self.summary.setText(f"Counting how many of the {self.pending:,} pending suggestions "
                                 "are at or above it…")
            return
        accepted, low = cast(tuple[int, int], counted)
        ok.setText(f"Accept {accepted:,}")
        ok.setEnabled(accepted > 0)
        text = f"{accepted:,} of {self.pending:,} pending suggestions will be accepted (one undo step)."
        if low:
            text += (f" <b>{low:,} of them are of low confidence</b> (under "
                     f"{self.settings.review.low:.0%}); look at those one by one instead?")
        self.summary.setText(text)
        # Enter in the box accepts only when no low-confidence suggestion is among them; with
        # some, the button has to be clicked (a slip of the finger must not accept them all).
        ok.setDefault(not low)
        ok.setAutoDefault(not low)


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
        self.restore_model = self._folder_row(form, "Restoration model folder:",
                                              settings.engine.restore_model, "the shipped model")
        self.vosk_model = self._folder_row(form, "Vosk model folder:",
                                           settings.engine.vosk_model_dir, "look in the data folder")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

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
        for band, button in self.colours.items():
            s.set(f"appearance.{band}_colour", button.colour)
        s.set("appearance.font_size", self.font_size.value())
        s.set("engine.device", self.device.currentData())
        s.set("export.srt_speakers", self.srt_speakers.currentData())
        s.set("export.author", self.author.text().strip())
        s.set("engine.restore_model", self.restore_model.text().strip())
        s.set("engine.vosk_model_dir", self.vosk_model.text().strip())


class FindBar(QWidget):
    """Find and replace in the text as shown. Replacing goes through the view, so it is undoable
    and keeps the timings of words it does not change."""

    closed = Signal()

    def __init__(self, view: QtTranscriptView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = view
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 2)
        find_label = QLabel("Find:")
        layout.addWidget(find_label)
        self.find_edit = QLineEdit()
        find_label.setBuddy(self.find_edit)  # its accessible name
        self.find_edit.setPlaceholderText("text to find")
        self.find_edit.returnPressed.connect(self.find_next)
        layout.addWidget(self.find_edit, 2)
        replace_label = QLabel("Replace with:")
        layout.addWidget(replace_label)
        self.replace_edit = QLineEdit()
        replace_label.setBuddy(self.replace_edit)
        self.replace_edit.returnPressed.connect(self.replace)
        layout.addWidget(self.replace_edit, 2)
        self.case = QCheckBox("Match case")
        layout.addWidget(self.case)
        for text, slot in (("Previous", lambda: self.find_next(backwards=True)),
                           ("Next", self.find_next), ("Replace", self.replace),
                           ("Replace all", self.replace_all)):
            button = QPushButton(text)
            button.clicked.connect(slot)
            layout.addWidget(button)
        close = QToolButton()
        close.setText("✕")
        close.setToolTip("Close (Esc)")
        close.setAccessibleName("Close find and replace")
        close.clicked.connect(self.close_bar)
        layout.addWidget(close)
        self.status = QLabel()
        layout.addWidget(self.status)

    def event(self, event: QEvent) -> bool:
        # Esc here closes the bar, although the player bar makes Esc a window shortcut (play/pause)
        if event.type() == QEvent.Type.ShortcutOverride and cast(QKeyEvent, event).key() == Qt.Key.Key_Escape:
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.close_bar()
        else:
            super().keyPressEvent(event)

    def close_bar(self) -> None:
        self.hide()
        self.closed.emit()

    def _flags(self, backwards: bool = False) -> QTextDocument.FindFlag:
        flags = QTextDocument.FindFlag(0)
        if self.case.isChecked():
            flags |= QTextDocument.FindFlag.FindCaseSensitively
        if backwards:
            flags |= QTextDocument.FindFlag.FindBackward
        return flags

    def find_next(self, backwards: bool = False) -> bool:
        needle = self.find_edit.text()
        if not needle:
            return False
        self.view.flush()
        doc = self.view.document()
        found = doc.find(needle, self.view.textCursor(), self._flags(backwards))
        if found.isNull():  # wrap around
            start = QTextCursor(doc)
            if backwards:
                start.movePosition(QTextCursor.MoveOperation.End)
            found = doc.find(needle, start, self._flags(backwards))
        if found.isNull():
            self.status.setText("Not found")
            return False
        self.status.setText("")
        self.view.setTextCursor(found)
        self.view.ensureCursorVisible()
        return True

    def _selection_matches(self) -> bool:
        selected = self.view.textCursor().selectedText()
        needle = self.find_edit.text()
        if self.case.isChecked():
            return selected == needle
        return selected.lower() == needle.lower()

    def replace(self) -> None:
        if self.find_edit.text() and self._selection_matches():
            cursor = self.view.textCursor()
            self.view.edit_characters(cursor.selectionStart(), cursor.selectionEnd(),
                                      self.replace_edit.text())
        self.find_next()

    def replace_all(self) -> int:
        """Replace every match; one undo step. Returns how many were replaced."""
        needle = self.find_edit.text()
        if not needle:
            return 0
        self.view.flush()
        doc = self.view.document()
        matches = []
        cursor = doc.find(needle, 0, self._flags())
        while not cursor.isNull():
            matches.append((cursor.selectionStart(), cursor.selectionEnd()))
            cursor = doc.find(needle, cursor, self._flags())
        if not matches:
            self.status.setText("Not found")
            return 0
        with self.view.transcript.history.group(f"Replace all “{needle}”"):
            for start, end in reversed(matches):
                self.view.edit_characters(start, end, self.replace_edit.text())
        self.status.setText(f"Replaced {len(matches)}")
        return len(matches)
