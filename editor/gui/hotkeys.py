"""Every keyboard shortcut of the editor, in one place (menus and the view read them from here)."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence

StandardKey = QKeySequence.StandardKey

# Plain strings and standard keys: a QKeySequence cannot be built before the QApplication exists.
Key = str | QKeySequence.StandardKey


def sequences(key: Key | list[Key]) -> list[QKeySequence]:
    """The key sequences for a shortcut above (call once the application exists)."""
    keys = key if isinstance(key, list) else [key]
    out: list[QKeySequence] = []
    for k in keys:
        out += QKeySequence.keyBindings(k) if isinstance(k, QKeySequence.StandardKey) else [QKeySequence(k)]
    return out

# File
OPEN = StandardKey.Open  # Ctrl+O
SAVE = StandardKey.Save  # Ctrl+S
SAVE_AS = "Ctrl+Shift+S"
EXPORT = "Ctrl+E"
QUIT = "Ctrl+Q"
CLOSE = StandardKey.Close  # Ctrl+W

# Edit
UNDO = "Ctrl+Z"
REDO = ["Ctrl+Shift+Z", "Ctrl+Y"]
FIND = StandardKey.Find  # Ctrl+F
REPLACE = "Ctrl+H"
FIND_NEXT = "Ctrl+G"  # not F3: that is oTranscribe's "slower" (SLOWER below)
PREFERENCES = "Ctrl+,"

# Review (Tab, Shift+Tab, Return, Delete and 1-9 are handled by the view while a suggestion is
# current, so that they still type, move and delete text otherwise)
NEXT_SUGGESTION = "Tab"
PREVIOUS_SUGGESTION = "Shift+Tab"
NEXT_LOWEST = "Ctrl+Tab"  # jump to the least confident pending suggestion
ACCEPT = "Return"
REJECT = "Delete"
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

# Playback, oTranscribe's keys; active while the player bar (editor/gui/player_bar.py) is shown.
# Esc still closes the find bar and leaves the current suggestion first (ShortcutOverride there).
PLAY_PAUSE = "Esc"
SKIP_BACK = "F1"
SKIP_FORWARD = "F2"
SLOWER = "F3"
FASTER = "F4"
# Ctrl+click on a word plays from it (the view emits token_activated)
