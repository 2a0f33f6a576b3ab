"""Every command of the window in one table: what it is called, its keys, its menu, where its keys
work, what runs it and when it is enabled. The menus (``window.menus.build_menus``), the shortcut
sheet (Help > Keyboard shortcuts), the tour's keys and the player bar's keys are all read from here,
and tests/gui/base/test_actions.py checks that no two actions share a key where both work.

Handlers are named by their path on the window ("files.open_dialog" is ``window.files.open_dialog``)
so that this table, at the bottom of the window's layers, needs none of the parts it names; the
test resolves every path on a real window. Actions as data, as napari's ``_qapp_model`` keeps them.
"""

from __future__ import annotations

from dataclasses import dataclass

from editor.gui.base import hotkeys
from editor.gui.base.hotkeys import Shortcut

# Where an action's keys work. A key may be shared only by contexts that never hold at once, or
# that PRECEDENCE orders.
WINDOW = "window"  # anywhere in the window (a QAction's shortcut)
REVIEW = "review"  # in the text while a suggestion is selected (Tab, Return, Delete, 1-9, Esc)
PLAYBACK = "playback"  # while a recording is open (the player bar's keys)

WHEN = {
    WINDOW: "",
    REVIEW: "while a suggestion is selected",
    PLAYBACK: "while a recording is open",
}

#: Keys that two contexts share, and which wins when both hold: the first.
PRECEDENCE: dict[str, tuple[str, str]] = {
    "Esc": (REVIEW, PLAYBACK),  # Esc leaves the selected suggestion first; then it plays and pauses
}

MENUS = ("File", "Edit", "Review", "Speakers", "View", "Help")


@dataclass(frozen=True)
class Action:
    """One command. ``group`` starts a new section of its menu (a separator) when it changes."""

    id: str
    title: str  # as the menu shows it, & before the mnemonic
    does: str  # one line: the shortcut sheet's "what it does" and the status tip
    menu: str = ""  # one of MENUS; "" for keys of a part that are in no menu
    keys: Shortcut | None = None
    context: str = WINDOW
    handler: str = ""  # a path on the window: "files.open_dialog", "view.review.accept_current"
    args: tuple[object, ...] = ()  # given to the handler
    enabled_when: str = ""  # a path on the window to a predicate; "" for always
    checkable: bool = False
    group: int = 0

    @property
    def name(self) -> str:
        """The title as a person reads it: without the mnemonic's & or the trailing ellipsis."""
        return self.title.replace("&", "").removesuffix("…")


def _speakers() -> list[Action]:
    return [Action(f"speakers.number.{n}", f"Speaker &{n}",
                   f"Give the selection (or the caret's paragraph) speaker {n}, in the order they first speak",
                   "Speakers", hotkeys.SPEAKERS[n - 1], handler="speakers.assign_number", args=(n,),
                   enabled_when="has_document")
            for n in range(1, 10)]


ACTIONS: tuple[Action, ...] = (
    # File
    Action("file.open", "&Open…", "Open a transcript, subtitle file, .stet project or a recording", "File",
           hotkeys.OPEN, handler="files.open_dialog"),
    Action("file.recent", "Open &Recent", "Open a file opened before", "File"),  # a submenu
    Action("file.reopen_encoding", "Reopen with &Encoding…",
           "Read the open text or subtitle file again in another text encoding", "File",
           handler="reopen_with_encoding", enabled_when="has_document"),
    Action("file.save", "&Save", "Save the session, suggestions and decisions included, as a .stet project",
           "File", hotkeys.SAVE, handler="files.save_dialog", group=1),
    Action("file.save_as", "Save &As…", "Save the project under another name", "File", hotkeys.SAVE_AS,
           handler="files.save_dialog", args=(True,), group=1),
    Action("file.export", "&Export…", "Write txt, md, docx, srt, vtt, ass, ttml, sbv or json", "File",
           hotkeys.EXPORT, handler="files.export_dialog", group=1),
    Action("file.attach_recording", "Attach re&cording…",
           "Give the open transcript its recording, to hear it and review by ear", "File",
           handler="playback.attach_dialog", enabled_when="has_document", group=2),
    Action("file.transcribe_again", "&Transcribe again",
           "Transcribe the open transcript's recording afresh, with the same speech model", "File",
           handler="files.transcribe_again", group=2),
    Action("file.speech_model", "Speech &model…", "Download a Vosk model or choose a model folder for transcribing",
           "File", handler="transcription.choose_model", group=2),
    Action("file.quit", "&Quit", "Close Stet (it asks first when work is not saved)", "File", hotkeys.QUIT,
           handler="close", group=3),
    # Edit
    Action("edit.undo", "&Undo", "Undo the last change: a typed edit, a decision or a whole restoration", "Edit",
           hotkeys.UNDO, handler="undo"),
    Action("edit.redo", "&Redo", "Do again what was undone", "Edit", hotkeys.REDO, handler="redo"),
    Action("edit.insert_time", "Insert playback &time", "Type the recording's current time, as [m:ss], at the caret",
           "Edit", hotkeys.INSERT_TIME, handler="review.insert_playback_time", group=1),
    Action("edit.find", "&Find…", "Search the text", "Edit", hotkeys.FIND, handler="show_find", group=2),
    Action("edit.find_next", "Find &Next", "Go to the next match", "Edit", hotkeys.FIND_NEXT,
           handler="find_bar.find_next", group=2),
    Action("edit.replace", "&Replace…", "Find and replace", "Edit", hotkeys.REPLACE, handler="show_find",
           args=(True,), group=2),
    Action("edit.settings", "&Settings…", "Thresholds, colours, font size, models", "Edit", hotkeys.PREFERENCES,
           handler="settings_dialog", group=3),
    # Review: Tab, Return, Delete, digits and Esc are keys of the text view while a suggestion is
    # selected (so that otherwise they still type, move and delete); the menu shows them.
    Action("review.next", "&Next suggestion", "Select the next pending suggestion", "Review",
           hotkeys.NEXT_SUGGESTION, REVIEW, "view.next_suggestion"),
    Action("review.previous", "&Previous suggestion", "Select the previous pending suggestion", "Review",
           hotkeys.PREVIOUS_SUGGESTION, REVIEW, "view.next_suggestion", args=(True,)),
    Action("review.lowest", "&Lowest confidence", "Jump to the least confident pending suggestion", "Review",
           hotkeys.NEXT_LOWEST, handler="view.review.lowest_confidence"),
    Action("review.order", "Tab goes lowest confidence &first", "Tab goes by confidence, lowest first, or by position",
           "Review", hotkeys.TOGGLE_ORDER, handler="review.toggle_order", checkable=True),
    Action("review.accept", "&Accept", "Accept the selected suggestion (with none selected, Return starts a paragraph)",
           "Review", hotkeys.ACCEPT, REVIEW, "view.review.accept_current", group=1),
    Action("review.reject", "Re&ject", "Reject the selected suggestion (with none selected, Delete deletes)",
           "Review", hotkeys.REJECT, REVIEW, "view.review.reject_current", group=1),
    Action("review.alternative", "Pick an alternative", "Take alternative n of the selected suggestion", "",
           hotkeys.ALTERNATIVES, REVIEW),
    Action("review.leave", "Leave review", "Stop reviewing: Return and Delete edit the text again", "",
           hotkeys.LEAVE_SUGGESTION, REVIEW),
    Action("review.show_alternatives", "Show &alternatives", "List the selected suggestion's alternatives", "Review",
           hotkeys.SHOW_ALTERNATIVES, handler="view.pointer.show_alternatives", group=1),
    Action("review.accept_confident", "Accept all &confident",
           "Accept every pending suggestion at or above the high threshold", "Review", hotkeys.ACCEPT_ALL,
           handler="accept_confident", group=2),
    Action("review.accept_above", "Accept all at or a&bove…", "Accept every pending suggestion at or above a confidence",
           "Review", hotkeys.ACCEPT_ABOVE, handler="review.accept_all_dialog", group=2),
    Action("review.accept_all", "Accept all pending",
           "Accept every pending suggestion, those from your choice or a lexicon too (one undo step)", "Review",
           handler="accept_pending", group=2),
    Action("review.reject_all", "Reject all pending", "Reject every pending suggestion (one undo step)", "Review",
           hotkeys.REJECT_ALL, handler="review.reject_all", group=2),
    Action("review.accept_choices", "Accept all from your c&hoice",
           "Accept every pending proposal that repeats a choice you made elsewhere", "Review",
           handler="review.accept_choices", group=2),
    Action("review.reject_choices", "Reject all from your choice",
           "Turn down every pending proposal that repeats a choice you made elsewhere; Stet's own proposals "
           "come back where it had one", "Review", handler="review.reject_choices", group=2),
    Action("review.keep_author", "&Keep the author's punctuation",
           "Propose only missing marks and capitals; never remove or replace those the text was written with",
           "Review", handler="restoring.toggle_keep_author", checkable=True, group=3),
    Action("review.learned", "What Stet &learned…", "The forms Stet remembers from your reviews, and whether choices repeat",
           "Review", handler="learned_dialog", group=3),
    Action("review.resuggest", "Re-&suggest with what Stet learned",
           "Propose the suggestions still pending again with what Stet learned; decisions stay", "Review",
           handler="restoring.resuggest_learned", enabled_when="has_document", group=3),
    Action("review.restore_again", "Restore &again", "Run punctuation and case restoration again", "Review",
           hotkeys.RESTORE_AGAIN, handler="start_restoration", group=3),
    Action("review.cancel", "&Cancel restoration", "Stop the restoration under way", "Review", hotkeys.CANCEL,
           handler="cancel_restoration", group=3),
    Action("review.check_cues", "Check line length and &reading speed…",
           "List the subtitle cues Export would write that are over the line length or the reading speed",
           "Review", handler="cue_check.run", enabled_when="has_document", group=4),
    # Speakers
    *_speakers(),
    Action("speakers.new", "&New speaker…", "Name a speaker for the selection (or the caret's paragraph)", "Speakers",
           hotkeys.NEW_SPEAKER, handler="speakers.new_speaker", enabled_when="has_document", group=1),
    Action("speakers.none", "No s&peaker", "Take the speaker off the selection (or the caret's paragraph)", "Speakers",
           handler="speakers.assign", args=(None,), enabled_when="has_document", group=1),
    Action("speakers.rename", "&Rename speaker…", "Rename a speaker everywhere", "Speakers",
           handler="speakers.rename", enabled_when="has_document", group=2),
    Action("speakers.merge", "&Merge speakers…", "Give one speaker's words to another", "Speakers",
           handler="speakers.merge", enabled_when="has_document", group=2),
    # View
    Action("view.text", "&Text", "Put the keyboard in the text", "View", hotkeys.FOCUS_TEXT, handler="view.setFocus"),
    Action("view.list", "&Suggestion list", "Put the keyboard in the list of pending suggestions", "View",
           hotkeys.FOCUS_LIST, handler="panel.focus_list"),
    Action("view.zoom_in", "Zoom &in", "Larger text", "View", hotkeys.ZOOM_IN, handler="zoom", args=(1,)),
    Action("view.zoom_out", "Zoom &out", "Smaller text", "View", hotkeys.ZOOM_OUT, handler="zoom", args=(-1,)),
    Action("view.unsure", "&Underline unsure words", "Underline words the speech recogniser was unsure of", "View",
           hotkeys.UNDERLINE_UNSURE, handler="unsure_words.toggle", checkable=True),
    Action("view.read_sentence", "&Read the sentence as it stands",
           "Say the caret's sentence as it would be exported now, pending suggestions left out", "View",
           hotkeys.READ_SENTENCE, handler="view.narrator.read_sentence", enabled_when="has_document", group=1),
    Action("view.say_details", "Say the suggestion's &details",
           "Say the selected suggestion's alternatives and the sentence it is in", "View",
           hotkeys.SAY_DETAILS, handler="view.narrator.read_details", enabled_when="has_document", group=1),
    Action("view.repeat_message", "Say the last &message again", "Say the last message of the status bar again",
           "View", hotkeys.REPEAT_MESSAGE, handler="view.narrator.repeat", group=1),
    Action("view.short_speech", "S&hort speech", "A screen reader hears a suggestion's change and confidence "
           "only; its keys and alternatives on demand", "View", handler="toggle_short_speech",
           checkable=True, group=1),
    # Playback (the player bar's keys, oTranscribe's; Ctrl+click on a word plays from it)
    Action("playback.play_pause", "Play / pause", "Play or pause the recording (Ctrl+click a word plays from it)", "",
           hotkeys.PLAY_PAUSE, PLAYBACK),
    Action("playback.skip_back", "Skip back", "A few seconds back", "", hotkeys.SKIP_BACK, PLAYBACK),
    Action("playback.skip_forward", "Skip forward", "A few seconds on", "", hotkeys.SKIP_FORWARD, PLAYBACK),
    Action("playback.slower", "Slower", "Play slower (pitch kept)", "", hotkeys.SLOWER, PLAYBACK),
    Action("playback.faster", "Faster", "Play faster (pitch kept)", "", hotkeys.FASTER, PLAYBACK),
    Action("playback.replay_suggestion", "Hear the suggestion again",
           "Play the words around the selected suggestion again (held: over and over)", "",
           hotkeys.REPLAY_SUGGESTION, PLAYBACK),
    Action("playback.play_sentence", "Hear its sentence", "Play the whole sentence of the selected suggestion",
           "", hotkeys.PLAY_SENTENCE, PLAYBACK),
    # Help
    Action("help.shortcuts", "&Keyboard shortcuts", "Every command and its keys, with a filter", "Help",
           hotkeys.SHORTCUT_SHEET, handler="help.show_shortcuts"),
    Action("help.tour", "Review &tour", "A short tour of reviewing proposals", "Help", handler="help.show_tour"),
    Action("help.sample", "Open &sample",
           "A speech recogniser's raw transcript of a short talk, to try restoring and reviewing", "Help",
           handler="help.open_sample"),
    Action("help.guide", "&User guide", "How to open, review, restore and export, in full", "Help",
           handler="help.open_user_guide"),
    Action("help.about", "&About Stet", "Version, the restoration model and its quality, licences", "Help",
           handler="help.show_about", group=1),
)

BY_ID: dict[str, Action] = {a.id: a for a in ACTIONS}


def keys_of(action_id: str) -> str:
    """An action's keys as a person reads them ("" for none)."""
    keys = BY_ID[action_id].keys
    return "" if keys is None else hotkeys.shortcut_text(keys)


def in_menu(menu: str) -> list[Action]:
    return [a for a in ACTIONS if a.menu == menu]
