"""The speech-model dialog: the catalogue of Vosk models (language, size) to download with progress
and cancel, a model's .zip already downloaded to install (offline too), or a model folder the
person already has."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor.commandline.progress import format_eta
from editor.gui.base.background import BackgroundOp
from editor.gui.dialogs.language import describe_model

if TYPE_CHECKING:
    from editor.asr import Catalogue, CatalogueEntry, DownloadProgress, ModelInfo

_STEPS = 1000
_PHASES = {"download": "Downloading", "verify": "Checking", "extract": "Unpacking"}


def _mb(n: int) -> str:
    return f"{n / 1_048_576:.1f} MB"


class ModelDialog(QDialog):
    """Choose a Vosk model: download one from ``catalogue`` (default: ``load_catalogue()``) into
    ``dest_dir`` (default: Stet's model folder), or pick a folder. ``model`` is the chosen
    ``ModelInfo`` once the dialog is accepted.

    ``download_ended(status)``: "done", "cancelled" or "failed: <why>" after each download;
    ``refreshed(status)``: "done" or "failed: <why>" after fetching the official list again.
    """

    download_ended = Signal(str)
    refreshed = Signal(str)

    def __init__(self, parent: QWidget | None = None, *, catalogue: Catalogue | None = None,
                 dest_dir: str | os.PathLike[str] | None = None, in_use: ModelInfo | None = None) -> None:
        super().__init__(parent)
        from editor.asr import MODEL_LIST_URL, load_catalogue, models_dir

        self.setWindowTitle("Speech model")
        self.resize(640, 480)
        self.catalogue = catalogue if catalogue is not None else load_catalogue()
        self.dest_dir = Path(dest_dir) if dest_dir is not None else models_dir()
        self.model: ModelInfo | None = None  # once chosen
        self.status = ""
        self.list_url = MODEL_LIST_URL
        self._cancel: threading.Event | None = None
        self._op: BackgroundOp | None = None
        self._refreshing = False
        self._entries: list[CatalogueEntry] = []
        self.in_use = in_use  # the ModelInfo recordings are transcribed with now, if any
        self.installed_models: list[ModelInfo] = []

        intro = QLabel("Transcribing needs a speech model for the language of the recording. "
                       "Download one (small models suit a laptop), install one downloaded "
                       "already (its .zip), or choose a model folder you already have.")
        intro.setWordWrap(True)
        self.installed = QListWidget()
        self.installed.setObjectName("installed-models")
        self.installed.setAccessibleName("Installed models")
        self.installed.setMaximumHeight(110)
        self.installed.itemSelectionChanged.connect(self._update_buttons)
        self.installed.itemDoubleClicked.connect(lambda _item: self.use_installed())
        self.use_button = QPushButton("&Use this model")
        self.use_button.clicked.connect(lambda _=False: self.use_installed())
        installed_row = QHBoxLayout()
        installed_row.addWidget(QLabel("Installed models (the one in use is marked):"), 1)
        installed_row.addWidget(self.use_button)
        self.filter = QLineEdit()
        self.filter.setAccessibleName("Filter the models to download")
        self.filter.setPlaceholderText("Filter by language or name")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._apply_filter)
        self.table = QTableWidget(0, 4)
        self.table.setAccessibleName("Models to download")
        self.table.setHorizontalHeaderLabels(["Language", "Model", "Size", "Kind"])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.table.itemDoubleClicked.connect(lambda _item: self.download())

        self.progress = QProgressBar()
        self.progress.setRange(0, _STEPS)
        self.progress.hide()
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.download_button = QPushButton("&Download")
        self.download_button.setDefault(True)
        self.download_button.clicked.connect(lambda _=False: self.download())
        self.folder_button = QPushButton("Choose a model &folder…")
        self.folder_button.clicked.connect(lambda _=False: self.choose_folder())
        self.install_button = QPushButton("&Install from a file…")
        self.install_button.setToolTip("Install a Vosk model's .zip downloaded already (on this "
                                       "computer or another): no connection needed")
        self.install_button.clicked.connect(lambda _=False: self.choose_file())
        self.refresh_button = QPushButton("&Refresh list")
        self.refresh_button.setToolTip("Fetch the current list of models (with checksums) from "
                                       "the Vosk site")
        self.refresh_button.clicked.connect(lambda _=False: self.refresh())
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(lambda _=False: self.reject())
        buttons = QHBoxLayout()
        buttons.addWidget(self.install_button)
        buttons.addWidget(self.folder_button)
        buttons.addWidget(self.refresh_button)
        buttons.addStretch(1)
        buttons.addWidget(self.download_button)
        buttons.addWidget(self.cancel_button)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(installed_row)
        layout.addWidget(self.installed)
        layout.addWidget(QLabel("Models to download:"))
        layout.addWidget(self.filter)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.progress)
        layout.addWidget(self.message)
        layout.addLayout(buttons)
        self._fill_installed()
        self._fill()
        self.message.setText(self._about_list())
        self._update_buttons()

    def _about_list(self) -> str:
        made = "shipped with Stet" if self.catalogue.snapshot else "fetched"
        when = f", {self.catalogue.taken[:10]}" if self.catalogue.taken else ""
        return f"{len(self._entries)} models (list {made}{when}); they go to {self.dest_dir}"

    def _fill_installed(self) -> None:
        from editor.asr import installed_models

        models = installed_models()
        if self.in_use is not None and self.in_use.path not in [m.path for m in models]:
            models.insert(0, self.in_use)  # a folder chosen earlier
        self.installed_models = models
        self.installed.clear()
        for m in models:
            used = self.in_use is not None and m.path == self.in_use.path
            item = QListWidgetItem(describe_model(m) + ("   ✓ in use" if used else ""))
            item.setToolTip(m.path)
            self.installed.addItem(item)
            if used:
                self.installed.setCurrentItem(item)
        if not models:
            item = QListWidgetItem("None yet: download one below, or choose a model folder")
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.installed.addItem(item)

    def use_installed(self, name: str | None = None) -> bool:
        """Take the selected installed model (or the one called ``name``) and accept."""
        rows = [self.installed.row(i) for i in self.installed.selectedItems()]
        if name is not None:
            rows = [i for i, m in enumerate(self.installed_models) if m.name == name]
        if not rows or rows[0] >= len(self.installed_models):
            return False
        self.model = self.installed_models[rows[0]]
        self.accept()
        return True

    def _fill(self) -> None:
        self._entries = [e for e in self.catalogue.entries if not e.obsolete]
        self._entries.sort(key=lambda e: (e.language_name.lower(), e.kind != "small", e.size or 0))
        self.table.clearContents()
        self.table.setRowCount(len(self._entries))
        for row, entry in enumerate(self._entries):
            size = entry.size_text if entry.size_exact or not entry.size else f"≈ {entry.size_text}"
            installed = (self.dest_dir / entry.name).is_dir()
            cells = [f"{entry.language_name} ({entry.language})",
                     entry.name + ("  — installed" if installed else ""), size, entry.kind]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if col == 2 and entry.size:
                    item.setData(Qt.ItemDataRole.UserRole, entry.size)
                self.table.setItem(row, col, item)
        self.table.resizeColumnToContents(0)
        self._apply_filter(self.filter.text())

    # -- the list ----------------------------------------------------------------------------------
    @property
    def downloading(self) -> bool:
        return self._op is not None

    def visible_entries(self) -> list[CatalogueEntry]:
        return [e for row, e in enumerate(self._entries) if not self.table.isRowHidden(row)]

    def _apply_filter(self, text: str) -> None:
        words = text.lower().split()
        for row, e in enumerate(self._entries):
            hay = f"{e.language} {e.language_name} {e.name}".lower()
            self.table.setRowHidden(row, not all(w in hay for w in words))

    def select(self, name: str) -> None:
        for row, e in enumerate(self._entries):
            if e.name == name:
                self.table.selectRow(row)
                return
        raise KeyError(name)

    def selected_entry(self) -> CatalogueEntry | None:
        rows = self.table.selectionModel().selectedRows()
        return self._entries[rows[0].row()] if rows else None

    def refresh(self) -> BackgroundOp | None:
        """Fetch the official list again in the background (it carries exact sizes and checksums,
        which the shipped snapshot lacks); kept for next time."""
        from editor.asr import refresh_catalogue

        if self.downloading or self._refreshing:
            return None
        self._refreshing = True
        self._update_buttons()
        url = self.list_url
        self.message.setText(f"Fetching the list from {url.split('/')[2]}…")
        return BackgroundOp(self, lambda report: refresh_catalogue(url)) \
            .success(self._refreshed).failure(self._refresh_failed).run()

    def _refreshed(self, catalogue: Catalogue) -> None:
        chosen = self.selected_entry()
        self._refreshing = False
        self.catalogue = catalogue
        self._fill()
        if chosen is not None and catalogue.find(chosen.name) is not None:
            self.select(chosen.name)
        self.message.setText(self._about_list())
        self._update_buttons()
        self.refreshed.emit("done")

    def _refresh_failed(self, err: BaseException) -> None:
        self._refreshing = False
        self.message.setText(f"The list could not be refreshed: {err}")
        self._update_buttons()
        self.refreshed.emit(f"failed: {err}")

    def _update_buttons(self) -> None:
        busy = self.downloading
        self.download_button.setEnabled(not busy and self.selected_entry() is not None)
        self.refresh_button.setEnabled(not busy and not self._refreshing)
        self.folder_button.setEnabled(not busy)
        self.install_button.setEnabled(not busy)
        self.use_button.setEnabled(not busy and bool(self.installed_models)
                                   and bool(self.installed.selectedItems()))
        self.table.setEnabled(not busy)
        self.filter.setEnabled(not busy)
        self.cancel_button.setText("Stop download" if busy else "Cancel")

    # -- downloading -------------------------------------------------------------------------------
    def download(self, entry: CatalogueEntry | None = None) -> BackgroundOp | None:
        """Fetch ``entry`` (default: the selected one) in the background; the dialog is accepted
        when the model is in place."""
        from editor.asr import download_model

        entry = entry or self.selected_entry()
        if entry is None or self.downloading:
            return None
        cancel = self._cancel = threading.Event()
        dest = self.dest_dir
        self.progress.setValue(0)
        self.progress.show()
        self.message.setText(f"Connecting to {entry.url.split('/')[2]}…")

        def work(report: Callable[[Any], None]) -> ModelInfo:
            return download_model(entry, dest, on_progress=report, cancel=cancel)

        self._op = BackgroundOp(self, work).progress(self._progressed) \
            .success(self._downloaded).failure(self._failed)
        self._update_buttons()
        return self._op.run()

    def cancel_download(self) -> None:
        """Stop the download; the partial file stays, so the next try resumes."""
        if self._cancel is not None:
            self._cancel.set()

    def _progressed(self, p: DownloadProgress) -> None:
        phase = _PHASES.get(p.phase, p.phase)
        if p.fraction is None:
            self.progress.setRange(0, 0)
        else:
            self.progress.setRange(0, _STEPS)
            self.progress.setValue(round(p.fraction * _STEPS))
        if p.phase == "extract" and p.fraction == 1.0 and self.model is None:
            self.message.setText("Checking the model (that Vosk loads it)…")
        elif p.phase == "download":
            total = f" of {_mb(p.total)}" if p.total else ""
            eta = format_eta(p.eta)
            self.message.setText(f"{phase} {_mb(p.done)}{total}" + (f", {eta}" if eta else ""))
        else:
            self.message.setText(f"{phase}…")

    def _downloaded(self, info: ModelInfo) -> None:
        self._op = None
        self.status = "done"
        self.progress.setRange(0, _STEPS)
        self.progress.setValue(_STEPS)
        self.message.setText(f"Installed {info.name}")
        self._update_buttons()
        self.model = info
        self.download_ended.emit("done")
        self.accept()

    def _failed(self, err: BaseException) -> None:
        from editor.asr import DownloadCancelled, NoConnection

        self._op = None
        self.progress.hide()
        self.progress.setRange(0, _STEPS)
        if isinstance(err, DownloadCancelled):
            self.status = "cancelled"
            self.message.setText("Download stopped; it resumes where it left off next time")
        elif isinstance(err, NoConnection):  # offline: the way on is a file got elsewhere
            self.status = f"failed: {err}"
            entry = self.selected_entry()
            host = entry.url.split("/")[2] if entry is not None else "the Vosk site"
            self.message.setText(f"No connection: {host} cannot be reached from this computer. "
                                 "A model's .zip downloaded elsewhere (from alphacephei.com/vosk/models) "
                                 "can be installed with “Install from a file…”.")
            self.download_button.setDefault(False)
            self.install_button.setDefault(True)
            self.install_button.setFocus()
        else:
            self.status = f"failed: {err}"
            self.message.setText(f"Download failed: {err}")
        self._update_buttons()
        self.download_ended.emit(self.status)

    # -- a file downloaded already ---------------------------------------------------------------
    def choose_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Install a Vosk model from its .zip", str(Path.home()),
                                              "Vosk models (*.zip);;All files (*)")
        if path:
            self.install_file(path)

    def install_file(self, path: str | os.PathLike[str]) -> BackgroundOp | None:
        """Install the model in ``path`` (a .zip, or a model folder to copy) into the models
        folder in the background: checked (its layout, and that Vosk loads it) and put in place
        whole; the dialog is accepted with it. A file that is no model is said in one line."""
        from editor.asr import install_model

        if self.downloading:
            return None
        source, dest = Path(path), self.dest_dir
        self.progress.setRange(0, 0)
        self.progress.show()
        self.message.setText(f"Installing {source.name}: unpacking and checking that Vosk loads it…")

        def work(report: Callable[[Any], None]) -> ModelInfo:
            return install_model(source, dest, on_progress=report)

        self._op = BackgroundOp(self, work).progress(self._progressed) \
            .success(self._downloaded).failure(self._install_failed)
        self._update_buttons()
        return self._op.run()

    def _install_failed(self, err: BaseException) -> None:
        self._op = None
        self.progress.hide()
        self.progress.setRange(0, _STEPS)
        self.status = f"failed: {err}"
        self.message.setText(f"Not installed: {err}")
        self._update_buttons()
        self.download_ended.emit(self.status)

    # -- a folder ----------------------------------------------------------------------------------
    def choose_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Choose a Vosk model folder", str(Path.home()))
        if path:
            self.use_folder(path)

    def use_folder(self, path: str | os.PathLike[str]) -> bool:
        """Take the model in ``path`` and accept; False (and why, in the dialog) if it is not one."""
        from editor.asr import ModelError, resolve_model

        try:  # a folder is checked; a packaged model's folder keeps the package's name, language
            info = resolve_model(Path(path).expanduser().absolute())
        except ModelError as err:
            self.message.setText(str(err))
            return False
        self.model = info
        self.accept()
        return True

    # -- closing -----------------------------------------------------------------------------------
    def reject(self) -> None:
        """Cancel: a running download stops first (the dialog stays until it has)."""
        if self.downloading:
            self.cancel_download()
            return
        super().reject()
