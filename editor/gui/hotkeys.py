"""Every keyboard shortcut of the editor, in one place: menus and the view read the keys from here,
and Help > Keyboard shortcuts lists them, with what each does (``ABOUT``), from here too."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QKeyCombination, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence

StandardKey = QKeySequence.StandardKey

# Plain strings and standard keys: a QKeySequence cannot be built before the QApplication exists.
Key = str | QKeySequence.StandardKey
#: What a command's shortcut is given as: one key, or several.
Shortcut = Key | list[str] | list[Key]


def sequences(key: Shortcut) -> list[QKeySequence]:
    """The key sequences for a shortcut above (call once the application exists)."""
    keys = key if isinstance(key, list) else [key]
    out: list[QKeySequence] = []
    for k in keys:
        out += QKeySequence.keyBindings(k) if isinstance(k, QKeySequence.StandardKey) else [QKeySequence(k)]
    return out

def pressed(event: QKeyEvent, key: Shortcut) -> bool:
    """Whether a key event is the shortcut ``key`` (Shift+Tab arrives as Shift+Backtab; the keypad
    is ignored, so keypad Enter and digits count too)."""
    combination = event.keyCombination()
    mods = combination.keyboardModifiers() & ~Qt.KeyboardModifier.KeypadModifier
    k = combination.key()
    if k == Qt.Key.Key_Backtab:
        k, mods = Qt.Key.Key_Tab, mods | Qt.KeyboardModifier.ShiftModifier
    seen = QKeySequence(QKeyCombination(mods, k))
    return any(seen.matches(s) == QKeySequence.SequenceMatch.ExactMatch for s in sequences(key))


# File
OPEN = StandardKey.Open  # Ctrl+O
SAVE = StandardKey.Save  # Ctrl+S
SAVE_AS = "Ctrl+Shift+S"
EXPORT = "Ctrl+E"
QUIT = "Ctrl+Q"

# Edit
UNDO = "Ctrl+Z"
REDO = ["Ctrl+Shift+Z", "Ctrl+Y"]
FIND = StandardKey.Find  # Ctrl+F
REPLACE = "Ctrl+H"
FIND_NEXT = "Ctrl+G"  # not F3: that is oTranscribe's "slower" (SLOWER below)
PREFERENCES = "Ctrl+,"
INSERT_TIME = "Ctrl+J"  # oTranscribe's key: the playback time, as [m:ss], at the caret

# Speakers: Alt+n gives the selection (or the caret's paragraph) the n-th speaker
SPEAKERS = [f"Alt+{n}" for n in range(1, 10)]
NEW_SPEAKER = "Alt+0"

# Review (Tab, Shift+Tab, Return, Delete and 1-9 are handled by the view while a suggestion is
# current, so that they still type, move and delete text otherwise)
NEXT_SUGGESTION = "Tab"
PREVIOUS_SUGGESTION = "Shift+Tab"
NEXT_LOWEST = "Ctrl+Tab"  # jump to the least confident pending suggestion
ACCEPT = ["Return", "Enter"]
REJECT = "Delete"
ALTERNATIVES = [str(n) for n in range(1, 10)]  # pick alternative n of the current suggestion
LEAVE_SUGGESTION = "Esc"
ACCEPT_ALL = "Ctrl+Shift+A"
REJECT_ALL = "Ctrl+Shift+R"
TOGGLE_ORDER = "Ctrl+L"  # position order <-> lowest confidence first
RESTORE_AGAIN = "Ctrl+R"
CANCEL = "Ctrl+."
SHOW_ALTERNATIVES = "Ctrl+Space"

# View
FOCUS_TEXT = "Ctrl+1"
FOCUS_LIST = "Ctrl+2"
ZOOM_IN = StandardKey.ZoomIn
ZOOM_OUT = StandardKey.ZoomOut
UNDERLINE_UNSURE = "Ctrl+U"  # words the speech recogniser was unsure of

# Playback, oTranscribe's keys; active while the player bar (editor/gui/player_bar.py) is shown.
# Esc still closes the find bar and leaves the current suggestion first (ShortcutOverride there).
PLAY_PAUSE = "Esc"
SKIP_BACK = "F1"
SKIP_FORWARD = "F2"
SLOWER = "F3"
FASTER = "F4"
# Ctrl+click on a word plays from it (the view emits token_activated)

# Help (F1 is the player's "skip back")
SHORTCUT_SHEET = "Ctrl+/"


@dataclass(frozen=True)
class About:
    """What a shortcut above is for, as the shortcut sheet shows it."""

    area: str  # the menu (or part of the window) it belongs to
    action: str
    does: str


#: What every shortcut above does, by its name (tests/gui/test_help.py checks that none is missing).
ABOUT: dict[str, About] = {
    "OPEN": About("File", "Open", "Open a transcript, subtitle file, .stet project or a recording"),
    "SAVE": About("File", "Save", "Save the session, suggestions and decisions included, as a .stet project"),
    "SAVE_AS": About("File", "Save as", "Save the project under another name"),
    "EXPORT": About("File", "Export", "Write txt, md, docx, srt, vtt, ass, ttml, sbv or json"),
    "QUIT": About("File", "Quit", "Close Stet (it asks first when work is not saved)"),
    "UNDO": About("Edit", "Undo", "Undo the last change: a typed edit, a decision or a whole restoration"),
    "REDO": About("Edit", "Redo", "Do again what was undone"),
    "FIND": About("Edit", "Find", "Search the text"),
    "REPLACE": About("Edit", "Replace", "Find and replace"),
    "FIND_NEXT": About("Edit", "Find next", "Go to the next match"),
    "PREFERENCES": About("Edit", "Settings", "Thresholds, colours, font size, models"),
    "INSERT_TIME": About("Edit", "Insert playback time", "Type the recording's current time as [m:ss] at the caret"),
    "SPEAKERS": About("Speakers", "Speaker 1 … 9", "Give the selection (or the caret's paragraph) that speaker"),
    "NEW_SPEAKER": About("Speakers", "New speaker", "Type a name and give it to the selection"),
    "NEXT_SUGGESTION": About("Review", "Next suggestion", "Select the next pending suggestion (review mode)"),
    "PREVIOUS_SUGGESTION": About("Review", "Previous suggestion", "Select the previous pending suggestion"),
    "NEXT_LOWEST": About("Review", "Lowest confidence", "Jump to the least confident pending suggestion"),
    "ACCEPT": About("Review", "Accept", "Accept the selected suggestion (in review mode; else a new paragraph)"),
    "REJECT": About("Review", "Reject", "Reject the selected suggestion (in review mode; else delete)"),
    "ALTERNATIVES": About("Review", "Pick an alternative", "Take alternative n of the selected suggestion"),
    "LEAVE_SUGGESTION": About("Review", "Leave review", "Stop reviewing: Enter and Delete edit the text again"),
    "ACCEPT_ALL": About("Review", "Accept all confident", "Accept every pending suggestion at or above the high threshold"),
    "REJECT_ALL": About("Review", "Reject all pending", "Reject every pending suggestion (one undo step)"),
    "TOGGLE_ORDER": About("Review", "Lowest confidence first", "Tab goes by confidence, lowest first, or by position"),
    "RESTORE_AGAIN": About("Review", "Restore again", "Run punctuation and case restoration again"),
    "CANCEL": About("Review", "Cancel restoration", "Stop the restoration under way"),
    "SHOW_ALTERNATIVES": About("Review", "Show alternatives", "List the selected suggestion's alternatives"),
    "FOCUS_TEXT": About("View", "Text", "Put the keyboard in the text"),
    "FOCUS_LIST": About("View", "Suggestion list", "Put the keyboard in the list of pending suggestions"),
    "ZOOM_IN": About("View", "Zoom in", "Larger text"),
    "ZOOM_OUT": About("View", "Zoom out", "Smaller text"),
    "UNDERLINE_UNSURE": About("View", "Underline unsure words", "Mark words the speech recogniser was unsure of"),
    "PLAY_PAUSE": About("Playback", "Play / pause", "With a recording: play or pause (Ctrl+click a word plays from it)"),
    "SKIP_BACK": About("Playback", "Skip back", "With a recording: a few seconds back"),
    "SKIP_FORWARD": About("Playback", "Skip forward", "With a recording: a few seconds on"),
    "SLOWER": About("Playback", "Slower", "With a recording: play slower (pitch kept)"),
    "FASTER": About("Playback", "Faster", "With a recording: play faster (pitch kept)"),
    "SHORTCUT_SHEET": About("Help", "Keyboard shortcuts", "This list"),
}


def names() -> list[str]:
    """The names of the shortcuts above (upper case, a key or a list of keys), in their order."""
    return [name for name, value in globals().items()
            if name.isupper() and (isinstance(value, str | QKeySequence.StandardKey)
                                   or (isinstance(value, list) and value))]


def _on_every_keyboard(sequence: QKeySequence) -> bool:
    """Not one of the dedicated keys of multimedia keyboards (Open, Save, Find, Zoom In…) that
    Qt's standard keys also bind: listed beside Ctrl+O they read as a key to press with it."""
    key = sequence[0].key().value if sequence.count() else 0  # type: ignore[index]  # stubs lack []
    return not Qt.Key.Key_Back.value <= key <= Qt.Key.Key_MediaLast.value


def shortcut_text(key: Key | list[str] | list[Key]) -> str:
    """A shortcut as a person reads it ("Ctrl+Shift+Z, Ctrl+Y"; a run of nine as "Alt+1 … Alt+9"),
    without the multimedia keyboards' own keys (they still work)."""
    texts = [s.toString(QKeySequence.SequenceFormat.NativeText) for s in sequences(key)
             if _on_every_keyboard(s)]
    if len(texts) > 3:
        return f"{texts[0]} … {texts[-1]}"
    return ", ".join(texts)


def described() -> list[tuple[str, About]]:
    """Every shortcut above as (keys, what it is for), in their order; one that ``ABOUT`` forgot
    is listed all the same, under its name."""
    return [(shortcut_text(globals()[name]),
             ABOUT.get(name, About("", name.replace("_", " ").capitalize(), "")))
            for name in names()]
