"""The main window's menus: every command with its shortcut, in the order a person looks for it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

from editor.gui import hotkeys
from editor.gui.encoding import reopen_with_encoding


def add_action(window: QWidget, menu: QMenu, text: str, slot: Callable[[], object],
               shortcut: hotkeys.Shortcut | None = None, tip: str = "") -> QAction:
    """A menu command that also works by its shortcut while the menu is closed."""
    action = QAction(text, window)
    if shortcut is not None:
        action.setShortcuts(hotkeys.sequences(shortcut))
    if tip:
        action.setStatusTip(tip)
    action.triggered.connect(lambda _=False: slot())
    menu.addAction(action)
    window.addAction(action)
    return action


def confident_text(high: float) -> str:
    """The Review menu's "accept all confident", with its threshold in percent as the list shows it."""
    return f"Accept all &confident (at or above {round(high * 100)} %)"


def build_menus(w: Any) -> None:
    """File, Edit, Review, Speakers, View and Help for ``w``, the ``MainWindow`` (not imported: it
    imports this module); the actions the window changes later become its attributes
    (``recent_menu``, ``undo_action``, ``redo_action``, ``order_action``, ``accept_confident_action``,
    ``keep_author_action``, ``view_menu``)."""
    bar = w.menuBar()
    add = w.add_action
    m = bar.addMenu("&File")
    add(m, "&Open…", w.files.open_dialog, hotkeys.OPEN)
    w.recent_menu = m.addMenu("Open &Recent")
    w.recent_menu.aboutToShow.connect(w.files.fill_recent)
    add(m, "Reopen with &Encoding…", lambda: reopen_with_encoding(w),
        tip="Read the open text or subtitle file again in another text encoding")
    m.addSeparator()
    add(m, "&Save", w.files.save_dialog, hotkeys.SAVE, "Save the session as a .stet project")
    add(m, "Save &As…", lambda: w.files.save_dialog(ask=True), hotkeys.SAVE_AS)
    add(m, "&Export…", w.files.export_dialog, hotkeys.EXPORT, "Write txt, md, docx, srt, vtt, ass, ttml, sbv or json")
    m.addSeparator()
    add(m, "&Transcribe again", w.files.transcribe_again,
        tip="Transcribe the open transcript's recording afresh, with the same speech model")
    add(m, "Speech &model…", lambda: w.transcription.choose_model(),
        tip="Download a Vosk model or choose a model folder for transcribing")
    m.addSeparator()
    add(m, "&Quit", w.close, hotkeys.QUIT)

    m = bar.addMenu("&Edit")
    w.undo_action = add(m, "&Undo", w.undo, hotkeys.UNDO)
    w.redo_action = add(m, "&Redo", w.redo, hotkeys.REDO)
    m.addSeparator()
    add(m, "Insert playback &time", w.review.insert_playback_time, hotkeys.INSERT_TIME,
        "Type the recording's current time, as [m:ss], at the caret")
    m.addSeparator()
    add(m, "&Find…", w.show_find, hotkeys.FIND)
    add(m, "Find &Next", lambda: w.find_bar.find_next(), hotkeys.FIND_NEXT)
    add(m, "&Replace…", lambda: w.show_find(replace=True), hotkeys.REPLACE)
    m.addSeparator()
    add(m, "&Settings…", w.settings_dialog, hotkeys.PREFERENCES)

    m = bar.addMenu("&Review")
    # Tab, Return, Delete and digits are keys of the text view (so they still edit when no
    # suggestion is under review); the menu shows them after a tab without taking them over.
    add(m, "&Next suggestion\tTab", lambda: w.view.next_suggestion())
    add(m, "&Previous suggestion\tShift+Tab", lambda: w.view.next_suggestion(reverse=True))
    add(m, "&Lowest confidence", w.view.review.lowest_confidence, hotkeys.NEXT_LOWEST)
    w.order_action = add(m, "Tab goes lowest confidence &first", w.review.toggle_order, hotkeys.TOGGLE_ORDER)
    w.order_action.setCheckable(True)
    w.order_action.setChecked(w.view.order == "confidence")
    m.addSeparator()
    add(m, "&Accept\tReturn", w.view.review.accept_current)
    add(m, "Re&ject\tDelete", w.view.review.reject_current)
    add(m, "Show &alternatives", w.view.pointer.show_alternatives, hotkeys.SHOW_ALTERNATIVES)
    m.addSeparator()
    w.accept_confident_action = add(m, confident_text(w.settings.review.high),
                                    lambda: w.accept_all(w.settings.review.high), hotkeys.ACCEPT_ALL,
                                    "Accept every pending suggestion at or above the high threshold")
    add(m, "Accept all at or a&bove…", w.review.accept_all_dialog)
    add(m, "Accept all pending", lambda: w.accept_all(0.0))
    add(m, "Reject all pending", w.review.reject_all, hotkeys.REJECT_ALL)
    m.addSeparator()
    w.keep_author_action = add(m, "&Keep the author's punctuation", w.restoring.toggle_keep_author,
                               tip="Propose only missing marks and capitals; never remove or replace "
                                   "those the text was written with")
    w.keep_author_action.setCheckable(True)
    w.keep_author_action.setChecked(w.restoring.keeping_author)
    add(m, "What Stet &learned…", w.learned_dialog,
        tip="The forms Stet remembers from your reviews, and whether choices repeat")
    add(m, "Re-&suggest with what Stet learned", w.restoring.resuggest_learned,
        tip="Propose the suggestions still pending again with what Stet learned; decisions stay")
    add(m, "Restore &again", w.start_restoration, hotkeys.RESTORE_AGAIN)
    add(m, "&Cancel restoration", w.cancel_restoration, hotkeys.CANCEL)

    w.speakers.build_menu(bar.addMenu("&Speakers"))

    m = bar.addMenu("&View")
    add(m, "&Text", w.view.setFocus, hotkeys.FOCUS_TEXT)
    add(m, "&Suggestion list", w.panel.list.setFocus, hotkeys.FOCUS_LIST)
    add(m, "Zoom &in", lambda: w.zoom(+1), hotkeys.ZOOM_IN)
    add(m, "Zoom &out", lambda: w.zoom(-1), hotkeys.ZOOM_OUT)
    w.view_menu = m

    w.help.build_menu(bar.addMenu("&Help"))
