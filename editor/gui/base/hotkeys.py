"""Every key of the editor, in one place: the table of actions (``editor.gui.base.actions``), which the
menus, the shortcut sheet and the tour are built from, and the view's own key handling read the keys
from here."""

from __future__ import annotations

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
ACCEPT_ABOVE = "Ctrl+Shift+B"  # accept all at or a-b-ove a confidence typed (the menu's mnemonic)
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
# What a screen reader is told on demand (editor/gui/text_view/accessibility.py)
READ_SENTENCE = "Ctrl+Shift+Space"  # the caret's sentence as it would be exported
SAY_DETAILS = "Ctrl+Shift+D"  # the selected suggestion's alternatives and its sentence
REPEAT_MESSAGE = "Ctrl+Shift+M"  # the last message again

# Playback, oTranscribe's keys; active while the player bar (editor/gui/playback/player_bar.py) is shown.
# Esc still closes the find bar and leaves the current suggestion first (ShortcutOverride there).
PLAY_PAUSE = "Esc"
SKIP_BACK = "F1"
SKIP_FORWARD = "F2"
SLOWER = "F3"
FASTER = "F4"
# Reviewing by ear (editor/gui/playback/review_listen.py): arriving at a suggestion plays it; these
# play it again (held: over and over) and play its whole sentence. Beside oTranscribe's F1-F4.
REPLAY_SUGGESTION = "F5"
PLAY_SENTENCE = "F6"
# Ctrl+click on a word plays from it (the view emits token_activated)

# Help (F1 is the player's "skip back")
SHORTCUT_SHEET = "Ctrl+/"


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
