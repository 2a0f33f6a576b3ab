"""The Help menu: the keyboard shortcuts sheet, the review tour (also shown once, on the first
start), the bundled sample to try Stet on, the user guide (with the pages on formats and
guarantees, in a window of Stet's own: editor.gui.dialogs.help_window) and About Stet."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import Qt, QUrl
from PySide6.QtWidgets import QLabel, QStatusBar, QWidget

from editor.core.paths import resource_path
from editor.core.settings import Settings
from editor.gui.base.actions import BY_ID
from editor.gui.base.status_bar import StatusBar
from editor.gui.window.about import AboutDialog
from editor.gui.dialogs.help_window import HelpWindow
from editor.gui.dialogs.shortcut_sheet import ShortcutSheet
from editor.gui.window.tour import ReviewTour


class Host(Protocol):
    """What the Help menu uses of the window."""

    settings: Settings
    restore_model_override: str | None

    @property
    def idle(self) -> bool: ...  # nothing under way: no reading, transcription or restoration
    def save_settings(self) -> None: ...
    def statusBar(self) -> QStatusBar: ...
    def open_chosen(self, path: str | os.PathLike[str]) -> None: ...


#: Help > Open sample: a speech recogniser's raw words (no marks, no capitals), with their times
SAMPLE = ("samples", "repair-cafe.json")


class TourNote(QLabel):
    """The status bar's offer of the tour on a first start that found work under way (a file
    opened with Stet): a link that opens it. It stands beside the messages, not among them: as
    a message, the hint was replaced in the same turn by the file's own ("Recording talk.mp3
    attached…") and never seen. It goes when the tour is shown."""

    def __init__(self, open_tour: Callable[[], object], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        tour = BY_ID["help.tour"]
        where = f"{tour.menu} ▸ {tour.name.replace('&', '')}"
        self.setObjectName("tour-note")
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse
                                     | Qt.TextInteractionFlag.LinksAccessibleByKeyboard)
        self.setText("New to Stet? <a href=\"tour\">Take the review tour</a>")
        #: what a screen reader says of it, once, as it comes
        self.spoken = f"New to Stet? {where} shows how review works"
        self.setToolTip(f"A short tour of reviewing proposals; {where} shows it at any time")
        self.setAccessibleName(f"New to Stet? Take the review tour ({where})")
        self.linkActivated.connect(lambda _link: open_tour())


class HelpCommands:
    """The Help menu of ``window``; keeps the dialogs it opens as attributes (``sheet``, ``tour``,
    ``about``, ``pages``) so that they stay alive and tests can look at them."""

    def __init__(self, window: Host) -> None:
        self.window = window
        self.sheet: ShortcutSheet | None = None
        self.tour: ReviewTour | None = None
        self.about: AboutDialog | None = None
        self.pages: HelpWindow | None = None  # the help pages, made when first asked for
        # the tour offered in the status bar (first_start), hidden until then. Put in now: a
        # widget added to a QStatusBar while it shows a message shows again the line the message
        # hides (its layout is made anew), and the two were drawn over each other
        self.tour_note = TourNote(self.show_tour)
        self.tour_note.hide()
        window.statusBar().addPermanentWidget(self.tour_note)

    @property
    def parent(self) -> QWidget | None:
        return self.window if isinstance(self.window, QWidget) else None

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
        if self.tour_note.isVisible():  # offered, and taken
            self.tour_note.hide()
            self.window.settings.set("help.tour_seen", True)
            self.window.save_settings()
        self.tour = ReviewTour(self.window.settings, self.parent, open_help=self.show_help)
        self.tour.finished.connect(lambda _result: self.window.save_settings())  # the comma style chosen in it
        self.tour.open()
        return self.tour

    def first_start(self) -> ReviewTour | None:
        """The tour, on the first start only: it is remembered as seen once shown, skipped or not.

        Only over a window with nothing under way: shown later, when a recording's words or a
        pass's suggestions had come in, it opened under the person's pointer and took the click
        meant for the text (issue 50). Then the status bar offers it (``TourNote``) until it is
        shown; not taken, the next start offers it again."""
        if self.window.settings.help.tour_seen:
            return None
        if not self.window.idle:
            self.tour_note.show()
            bar = self.window.statusBar()
            if isinstance(bar, StatusBar):
                bar.say(self.tour_note.spoken)
            return None
        self.window.settings.set("help.tour_seen", True)
        self.window.save_settings()
        return self.show_tour()

    def model_folder(self) -> Path:
        """The restoration model the window uses (as window/restoring.py chooses it)."""
        from editor.core.restore_models import model_folder

        # a shipped model's name or a folder; none: the installation's default
        return model_folder(self.window.restore_model_override or self.window.settings.engine.restore_model or None)

    def show_about(self) -> AboutDialog:
        self.about = AboutDialog(self.model_folder(), self.parent, open_link=self.open_link)
        self.about.open()
        return self.about

    def open_link(self, url: QUrl) -> None:
        """A link in About: a Markdown file Stet carries (the model card) in the help window, the
        rest (the licence's page) as the help window follows links: in the browser."""
        if self.pages is None:
            self.pages = HelpWindow(self.parent)
        if url.isLocalFile() and url.toLocalFile().lower().endswith(".md"):
            self.pages.bring_up()
        self.pages.follow(url)

    def open_user_guide(self) -> HelpWindow:
        return self.show_help("user-guide.md")

    def show_help(self, topic: str) -> HelpWindow:
        """The help window at ``topic``: a page of docs/, at a heading or not ("formats.md#speakers").
        The tour and the dialogs open it here, at the section they are about."""
        if self.pages is None:
            self.pages = HelpWindow(self.parent)
        self.pages.show_topic(topic)
        return self.pages
