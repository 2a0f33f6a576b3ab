"""The Export dialog: format, file and what to apply of the pending suggestions."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, cast

from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLayout,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QWidget,
)

from editor.core.formats import TIMED_FORMATS
from editor.core.formats.subtitles import layout_options
from editor.core.document.speakers import TURN_TIME_FORMATS
from editor.core.render import ALL, NONE, RenderPolicy
from editor.core.settings import Settings
from editor.gui.dialogs.overwrite import same_file

if TYPE_CHECKING:
    pass
from editor.gui.dialogs.accept_all import SlicedCount
from editor.gui.dialogs.percent import percent_box

EXPORT_FORMATS = {".txt": "Plain text", ".md": "Markdown", ".docx": "Word document",
                  ".srt": "SubRip subtitles", ".vtt": "WebVTT subtitles",
                  ".ass": "Advanced SubStation Alpha subtitles", ".ssa": "SubStation Alpha (v4) subtitles",
                  ".ttml": "TTML subtitles", ".dfxp": "DFXP (TTML) subtitles",
                  ".smi": "SAMI captions", ".sbv": "YouTube SubViewer subtitles",
                  ".json": "JSON (Whisper shape)"}


#: Subtitle formats Stet writes, by the extension of a file it reads: a subtitle source is exported
#: in its own format by default, cues and timings kept, and written back as it came but for what
#: the person decided (an .ssa, a .dfxp and a SAMI file too: offered as .ass and .ttml before, they
#: were written afresh in another format).
SUBTITLE_EXPORTS = {".srt": ".srt", ".vtt": ".vtt", ".sbv": ".sbv", ".ass": ".ass", ".ssa": ".ssa",
                    ".ttml": ".ttml", ".dfxp": ".dfxp", ".smi": ".smi", ".sami": ".smi"}


def suggested_export(source: Path | None, project: Path | None, folder: Path, *,
                     last_format: str = "", unavailable: Mapping[str, str] | None = None) -> Path:
    """The name the export dialog proposes, in ``folder``: a subtitle source's own format
    (SubRip stays SubRip, its cues and timings kept: a styled .vtt was offered as the .srt last
    exported, and one Enter converted it), else the format of the last export (``last_format``),
    else plain text as a Word document, anything else as plain text; never a format the document
    cannot fill (``unavailable``: extension -> why), and never the source itself ("talk.srt" ->
    "talk-edited.srt"), which a person would lose by pressing Enter."""
    unavailable = unavailable or {}
    base = folder / (source or project or Path("transcript")).name
    own = SUBTITLE_EXPORTS.get(base.suffix.lower())
    ext = own or (".docx" if base.suffix.lower() == ".txt" else ".txt")
    if own is not None and own not in unavailable:
        ext = own
    elif last_format in EXPORT_FORMATS and last_format not in unavailable:
        ext = last_format
    elif ext in unavailable:
        ext = ".txt"
    return not_the_source(base.with_suffix(ext), source)


#: A language tag before a subtitle's extension, as yt-dlp and players name subtitles
#: ("talk.en.vtt", "talk.pt-BR.srt", "talk.zh-Hans.vtt", YouTube's "talk.en-orig.vtt"): BCP 47's
#: shape (a language of 2 or 3 letters, then subtags of 2 to 8 letters or digits), by hand
#: because no library Stet has knows the tags and players match this shape, not a registry.
_LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*")


def not_the_source(path: Path, source: Path | None) -> Path:
    """``path``, or where it would be the ``source`` file itself, "NAME-edited.EXT" beside it;
    a language tag before the extension stays there, where players look for it ("talk.en.vtt"
    -> "talk-edited.en.vtt")."""
    if source is None or not same_file(path, source):
        return path
    name, dot, tag = path.stem.rpartition(".")
    if dot and name and _LANGUAGE_TAG.fullmatch(tag):
        return path.with_name(f"{name}-edited.{tag}{path.suffix}")
    return path.with_name(f"{path.stem}-edited{path.suffix}")


def with_export_suffix(path: Path, ext: str) -> Path:
    """``path`` in the export format ``ext``: its extension swapped when it is an export
    format's, else ``ext`` added ("Interview with Dr. Smith" keeps its ". Smith")."""
    if path.suffix.lower() in EXPORT_FORMATS:
        return path.with_suffix(ext)
    return path.with_name(path.name + ext)


def _pending(count: int) -> str:
    """"1 pending suggestion", "2 pending suggestions"."""
    return f"{count:,} pending suggestion{'' if count == 1 else 's'}"


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
        self.proposed_name = suggested.name  # what goes into a folder typed as the file
        form = QFormLayout(self)
        # the dialog grows with a note shown later ("SubRip cannot be written: …" was cut off)
        form.setSizeConstraint(QLayout.SizeConstraint.SetMinimumSize)
        row = QHBoxLayout()
        self.path_edit = QLineEdit(str(suggested))
        # wide enough for the whole path where it can be, and shown from its start: the folder
        # the file goes to is in sight, not only its name (scrolled to its end, it hid the folder)
        self.path_edit.setMinimumWidth(min(640, self.path_edit.fontMetrics().horizontalAdvance(
            str(suggested)) + 24))
        self.path_edit.setCursorPosition(0)
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
        # how subtitles are laid out: a box for each option the layout declares (`layout_options`),
        # its lowest value "as Stet does by default", said in words
        remembered = settings.export.subtitle_layout()
        self.layout_boxes: dict[str, QSpinBox] = {}
        for name, declared in layout_options().items():
            box = QSpinBox()
            low, high = declared.bounds
            box.setRange(math.ceil(low) - 1, math.floor(high))
            box.setSpecialValueText(declared.unset)
            box.setSuffix(f" {declared.unit}")
            value = getattr(remembered, name)
            box.setValue(box.minimum() if value is None else round(value))
            box.setAccessibleName(declared.title)
            box.setToolTip(declared.help[:1].upper() + declared.help[1:])
            self.layout_boxes[name] = box
            form.addRow(declared.label, box)
        self.subtitle_rows = tuple(self.layout_boxes.values())
        self._show_subtitle_rows()
        self.turn_times = QCheckBox("Time at each speaker turn (“[00:12:34] Ann: …”)")
        self.turn_times.setObjectName("export-turn-times")
        self.turn_times.setChecked(settings.export.turn_times)
        self.turn_times.setToolTip("Before the name where a speaker takes over, the time their turn "
                                   "starts in the recording, as noScribe writes it (.txt, .md, .docx)")
        form.addRow(self.turn_times)
        self.format.currentIndexChanged.connect(lambda _i: self._update_turn_times())
        self.path_edit.textChanged.connect(lambda _t: self._update_turn_times())
        self._update_turn_times()
        # Pending suggestions are tinted proposals in the text: by default the file reads as the
        # text shows them (as `stet convert` writes it: one default for both, issue #48), and the
        # person may choose to leave them out, with counts; the project keeps them pending.
        self.pending = pending
        # threshold (0..1) -> how many it applies, at once or in parts (see SlicedCount)
        self._counter = SlicedCount(self, count or (lambda threshold: 0), self._show_applied)
        self.policy = QComboBox()
        self.policy.addItem("Only what I accepted (pending suggestions left out)", NONE)
        self.policy.addItem("Also pending suggestions at or above the threshold", "threshold")
        self.policy.addItem("Every pending suggestion, as the text shows them (the default)", ALL)
        self.policy.setCurrentIndex(self.policy.findData(ALL))
        self.threshold = percent_box(settings.review.high, minimum=1)
        self.threshold.setToolTip("Confidence in percent, as the suggestion list shows it")
        self.policy_note = QLabel()
        self.policy_note.setWordWrap(True)
        self.policy_note.setObjectName("export-policy-note")
        if pending:
            pending_note = QLabel("1 suggestion is still pending (a tinted proposal in the text). The "
                                  "file is written as the text shows it unless you choose otherwise; "
                                  "the project keeps it pending either way." if pending == 1 else
                                  f"{pending:,} suggestions are still pending (tinted proposals in "
                                  "the text). The file is written as the text shows them unless you "
                                  "choose otherwise; the project keeps them pending either way.")
            # wrapped: on one line it made the dialog 1,099 px wide
            pending_note.setWordWrap(True)
            pending_note.setObjectName("export-pending-note")
            form.addRow(pending_note)
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
            if why and self.isVisible():
                # as tall as its wrapped lines need: a form layout gives a wrapped label the
                # height of one line until the window is sized again (the note was cut off)
                self.format_note.setMinimumHeight(self.format_note.heightForWidth(
                    self.format_note.width() if self.format_note.width() > 100 else self.path_edit.width()))
                self.adjustSize()

    def _typed(self, text: str) -> None:
        """A name typed with an export format's extension ("talk.srt") chooses that format."""
        self._match_format(Path(text.strip()).suffix.lower())
        self._show_subtitle_rows()

    def _format_changed(self) -> None:
        path = Path(self.path_edit.text())
        self.path_edit.setText(str(not_the_source(with_export_suffix(path, self.format.currentData()), self.source)))
        self.format_note.hide()
        self._show_subtitle_rows()

    def _show_subtitle_rows(self) -> None:
        """The layout's boxes only where the format has lines to lay out (subtitles)."""
        form = cast(QFormLayout, self.layout())
        for box in self.subtitle_rows:
            form.setRowVisible(box, self.chosen_format in TIMED_FORMATS)

    @property
    def chosen_layout(self) -> dict[str, float]:
        """The layout's options set in the boxes, by field name (one at its lowest: unset)."""
        return {name: float(box.value()) for name, box in self.layout_boxes.items()
                if box.value() != box.minimum()}

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
        if path.is_dir():  # a folder typed as the file ("…/exports" wrote "…/exports.txt"): into it
            name = with_export_suffix(Path(self.proposed_name), self.format.currentData()).name
            path = not_the_source(path / name, self.source)
            self.path_edit.setText(str(path))
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
        if path.suffix.lower() in TIMED_FORMATS:  # the export's layout, and the next one's
            self.settings.set("export.layout", self.chosen_layout)
        if self.turn_times.isEnabled():  # the choice is kept for the next export
            self.settings.set("export.turn_times", self.turn_times.isChecked())
        super().accept()

    def _update_turn_times(self) -> None:
        """Times at speaker turns are for .txt, .md and .docx (the others keep times of their own)."""
        self.turn_times.setEnabled(self.chosen_format in TURN_TIME_FORMATS)

    def _policy_changed(self) -> None:
        data = self.policy.currentData()
        self.threshold.setEnabled(data == "threshold")
        if data == "threshold":
            self._counter.start(self.threshold.value() / 100)
        elif data is ALL:
            self.policy_note.setText("The pending suggestion will be applied, as the text shows it (the "
                                     "default); “Only what I accepted” leaves it out." if self.pending == 1
                                     else f"All {self.pending:,} pending suggestions will be applied, as "
                                     "the text shows them (the default); “Only what I accepted” leaves "
                                     "them out.")
        else:
            self.policy_note.setText("The file gets the text as it stands with what you accepted; "
                                     + ("the pending suggestion is left out." if self.pending == 1 else
                                        f"the {self.pending:,} pending suggestions are left out."))

    def _show_applied(self, applied: object) -> None:
        if self.policy.currentData() != "threshold":
            return
        if applied is None:
            self.policy_note.setText(f"Counting how many of the {_pending(self.pending)} this applies…")
            return
        self.policy_note.setText(f"{applied:,} of {_pending(self.pending)} will be applied in the "
                                 "exported file; the rest left out.")

    @property
    def chosen_policy(self) -> RenderPolicy:
        data = self.policy.currentData()
        if data == "threshold":
            return RenderPolicy(self.threshold.value() / 100)
        return cast(RenderPolicy, data)
