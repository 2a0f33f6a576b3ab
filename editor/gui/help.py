"""The Help menu: the keyboard shortcuts sheet, the review tour (also shown once, on the first
start), the bundled sample to try Stet on, the user guide and About Stet."""

from __future__ import annotations

import importlib.metadata as metadata
import os
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QTimer, QUrl
from PySide6.QtGui import QAction, QDesktopServices
from PySide6.QtWidgets import QMenu, QStatusBar, QWidget

import editor
from editor.core.paths import resource_path
from editor.core.settings import Settings
from editor.gui import hotkeys
from editor.gui.about import DISTRIBUTION, AboutDialog, field_of
from editor.gui.shortcut_sheet import ShortcutSheet
from editor.gui.tour import ReviewTour


class Host(Protocol):
    """What the Help menu uses of the window."""

    settings: Settings
    restore_model_override: str | None

    def add_action(self, menu: QMenu, text: str, slot: Callable[[], object], shortcut: hotkeys.Shortcut | None = None,
                   tip: str = "") -> QAction: ...
    @property
    def idle(self) -> bool: ...  # nothing under way: no reading, transcription or restoration
    def save_settings(self) -> None: ...
    def statusBar(self) -> QStatusBar: ...
    def open_chosen(self, path: str | os.PathLike[str]) -> None: ...


#: How often the first-run tour looks again whether the window is idle (see ``first_start``).
TOUR_WAIT_MS = 1000

#: Help > Open sample: a speech recogniser's raw words (no marks, no capitals), with their times
SAMPLE = ("samples", "repair-cafe.json")


def guide_path() -> Path | None:
    """docs/user-guide.md where this copy of Stet has it: a source checkout, or a build that
    carries it among its resources."""
    for candidate in (Path(editor.__file__).resolve().parents[1] / "docs" / "user-guide.md",
                      resource_path("docs", "user-guide.md")):
        if candidate.is_file():
            return candidate
    return None


def project_url() -> str | None:
    """The project's web address as its package metadata gives it, if it gives one."""
    try:
        dist = metadata.metadata(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return None
    for entry in dist.get_all("Project-URL") or []:
        _, _, url = str(entry).partition(",")
        if url.strip():
            return url.strip()
    return field_of(dist, "Home-page") or None


class HelpCommands:
    """The Help menu of ``window``; keeps the dialogs it opens as attributes (``sheet``, ``tour``,
    ``about``) so that they stay alive and tests can look at them."""

    def __init__(self, window: Host) -> None:
        self.window = window
        self.sheet: ShortcutSheet | None = None
        self.tour: ReviewTour | None = None
        self.about: AboutDialog | None = None

    @property
    def parent(self) -> QWidget | None:
        return self.window if isinstance(self.window, QWidget) else None

    def build_menu(self, menu: QMenu) -> None:
        add = self.window.add_action
        add(menu, "&Keyboard shortcuts", self.show_shortcuts, hotkeys.SHORTCUT_SHEET,
            "Every key of the editor, with a filter")
        add(menu, "Review &tour", self.show_tour, tip="A short tour of reviewing proposals")
        add(menu, "Open &sample", self.open_sample,
            tip="A speech recogniser's raw transcript of a short talk, to try restoring and reviewing")
        add(menu, "&User guide", self.open_user_guide, tip="docs/user-guide.md")
        menu.addSeparator()
        add(menu, "&About Stet", self.show_about, tip="Version, the restoration model and its quality, licences")

    def show_shortcuts(self) -> ShortcutSheet:
        if self.sheet is None:
            self.sheet = ShortcutSheet(self.parent)
        self.sheet.filter.clear()
        self.sheet.show()
        self.sheet.raise_()
        self.sheet.activateWindow()
        return self.sheet

    def open_sample(self) -> None:
        """Open the bundled sample (asking first about unsaved work, as File > Open does)."""
        self.window.open_chosen(resource_path(*SAMPLE))

    def show_tour(self) -> ReviewTour:
        self.tour = ReviewTour(self.window.settings, self.parent)
        self.tour.open()
        return self.tour

    def first_start(self) -> ReviewTour | None:
        """The tour, on the first start only: it is remembered as seen once shown, skipped or not."""
        if self.window.settings.help.tour_seen:
            return None
        if not self.window.idle:  # it popped up over the words of a recording as they arrived
            if self.parent is not None:
                QTimer.singleShot(TOUR_WAIT_MS, self.parent, self.first_start)
            return None
        self.window.settings.set("help.tour_seen", True)
        self.window.save_settings()
        return self.show_tour()

    def model_folder(self) -> Path:
        """The restoration model the window uses (as window_restoring chooses it)."""
        chosen = self.window.restore_model_override or self.window.settings.engine.restore_model
        if chosen:
            return Path(chosen)
        from editor.restore.package import default_model_dir

        return default_model_dir()

    def show_about(self) -> AboutDialog:
        self.about = AboutDialog(self.model_folder(), self.parent)
        self.about.open()
        return self.about

    def open_user_guide(self) -> QUrl | None:
        """Open the user guide: the local file where there is one, else the project's web page."""
        local = guide_path()
        url = QUrl.fromLocalFile(str(local)) if local else None
        if url is None:
            web = project_url()
            url = QUrl(web) if web else None
        if url is None:
            self.window.statusBar().showMessage(
                "The user guide is not installed with this copy of Stet: it is docs/user-guide.md "
                "in Stet's source", 10000)
            return None
        if not QDesktopServices.openUrl(url):
            self.window.statusBar().showMessage(f"Could not open {url.toDisplayString()}", 10000)
        return url
