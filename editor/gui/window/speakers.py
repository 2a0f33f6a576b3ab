"""The Speakers menu: give the selection (or the caret's paragraph) a speaker, Alt+1…9 for the
first nine and "New speaker…" for another; rename one everywhere, merge two. Each is one undo
step of the transcript (``Transcript.set_speaker``, ``rename_speakers``); the margin shows who
speaks where (``editor.gui.text_view.gutter``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtGui import QAction, QTextCursor
from PySide6.QtWidgets import QInputDialog, QMenu, QMessageBox, QWidget

from editor.core.document.speakers import clean_name, speakers_in_order
from editor.core.document.transcript import Transcript


class SpeakersHost(Protocol):
    """What ``SpeakerCommands`` uses of the text view (``QtTranscriptView``)."""

    @property
    def transcript(self) -> Transcript: ...
    @property
    def frozen(self) -> bool: ...  # a bulk step runs: a speaker change waits
    def flush(self) -> None: ...
    def textCursor(self) -> QTextCursor: ...
    def token_at(self, position: int) -> int | None: ...
    def token_range(self, index: int) -> tuple[int, int, int]: ...
    def window(self) -> QWidget: ...  # the parent of its questions


class SpeakerCommands:
    """The Speakers menu's commands on ``view``; ``say`` puts a short note in the status bar."""

    def __init__(self, view: SpeakersHost, say: Callable[[str], None]) -> None:
        self.view = view
        self.say = say

    # -- the words a command is for -------------------------------------------------------------
    def target(self) -> tuple[int, int] | None:
        """The words a speaker is given: those the selection touches, else the caret's
        paragraph; None in an empty transcript."""
        view, doc = self.view, self.view.transcript
        if not len(doc):
            return None
        view.flush()
        cursor = view.textCursor()
        if cursor.hasSelection():
            a, b = cursor.selectionStart(), cursor.selectionEnd()
            first = view.token_at(a)
            if first is None:
                return None
            if a >= view.token_range(first)[2] and first + 1 < len(doc):
                first += 1  # the selection begins in the space after a word
            last = view.token_at(max(a, b - 1))
            last = first if last is None else max(last, first)
            return first, last + 1
        index = view.token_at(cursor.position()) or 0
        return next(((r.start, r.stop) for r in doc.paragraphs() if index in r), (0, len(doc)))

    def caret_speaker(self, names: list[str]) -> int:
        """The index in ``names`` of the speaker of the word at the caret (or the selection's
        first), 0 when it has none: the dialogs start from the speaker one is looking at (Rename
        offered Speaker 1 with the caret in a Speaker 2 paragraph)."""
        view, doc = self.view, self.view.transcript
        if not len(doc):
            return 0
        view.flush()
        cursor = view.textCursor()
        index = view.token_at(cursor.selectionStart() if cursor.hasSelection() else cursor.position())
        speaker = doc[index].speaker if index is not None and index < len(doc) else None
        return names.index(speaker) if speaker in names else 0

    # -- commands -------------------------------------------------------------------------------
    def assign_number(self, number: int) -> None:
        """Alt+``number``: the selection's speaker is the ``number``-th (in the order they first
        speak)."""
        names = speakers_in_order(self.view.transcript)
        if number > len(names):
            self.say(f"There is no speaker {number} yet: Speakers > New speaker… names one"
                     if names or number > 1 else "No speakers yet: Speakers > New speaker… names one")
            return
        self.assign(names[number - 1])

    def busy(self) -> bool:
        """A bulk step runs (accept all, a long undo): a speaker change waits, and is said to."""
        if self.view.frozen:
            self.say("Wait for the step under way to finish")
        return bool(self.view.frozen)

    def assign(self, name: str | None) -> None:
        span = self.target()
        if span is None or self.busy():
            return
        self.view.transcript.set_speaker(span[0], span[1], name)
        words = span[1] - span[0]
        self.say(f"{words} word{'s' if words != 1 else ''}: {name or 'no speaker'}")

    def new_speaker(self) -> None:
        names = speakers_in_order(self.view.transcript)
        name = self._ask_name("New speaker", "Name of the speaker of the selected words "
                              "(or of the caret's paragraph):", f"Speaker {len(names) + 1}")
        if name is not None:
            self.assign(name)

    def rename(self) -> None:
        doc = self.view.transcript
        names = speakers_in_order(doc)
        if not names:
            self.say("No speakers to rename: give words a speaker first (Speakers > New speaker…)")
            return
        old, ok = QInputDialog.getItem(self.view.window(), "Rename speaker", "Speaker:", names,
                                       self.caret_speaker(names), False)
        if not ok:
            return
        new = self._ask_name("Rename speaker", f"New name for {old} (a name already used merges "
                             "the two):", old)
        if new is None or new == old:
            return
        if new in names and not self._confirm_merge(old, new) or self.busy():
            return
        count = doc.rename_speakers({old: new})
        self.say(f"{old} is now {new} ({count} words)")

    def merge(self) -> None:
        doc = self.view.transcript
        names = speakers_in_order(doc)
        if len(names) < 2:
            self.say("Merging needs two speakers")
            return
        old, ok = QInputDialog.getItem(self.view.window(), "Merge speakers", "Merge this speaker…",
                                       names, self.caret_speaker(names), False)
        if not ok:
            return
        others = [n for n in names if n != old]
        into, ok = QInputDialog.getItem(self.view.window(), "Merge speakers", f"…into ({old}'s words "
                                        "become theirs):", others, 0, False)
        if not ok or self.busy():
            return
        count = doc.rename_speakers({old: into})
        self.say(f"Merged {old} into {into} ({count} words)")

    def _ask_name(self, title: str, label: str, text: str) -> str | None:
        while True:
            typed, ok = QInputDialog.getText(self.view.window(), title, label, text=text)
            if not ok:
                return None
            try:
                name = clean_name(typed)
            except ValueError as err:
                QMessageBox.warning(self.view.window(), title, str(err))
                text = typed
                continue
            if name is None:
                return None
            return name

    def _confirm_merge(self, old: str, new: str) -> bool:
        answer = QMessageBox.question(self.view.window(), "Merge speakers",
                                      f"{new} is already a speaker: give {new} all of {old}'s words?")
        return answer == QMessageBox.StandardButton.Yes

    # -- the menu -------------------------------------------------------------------------------
    def use_menu(self, menu: QMenu, number_actions: list[QAction]) -> None:
        """The Speakers menu (built from the table of actions): speaker n's entry says the name it
        gives each time the menu opens."""
        self.number_actions = number_actions
        menu.aboutToShow.connect(self.name_entries)

    def name_entries(self) -> None:
        """Speaker n's entry says the name it gives ("&1: Ann"); a speaker named after the
        number reads once ("Speaker &2", not "Speaker 2: Speaker 2"); one not there yet says so."""
        names = speakers_in_order(self.view.transcript)
        for n, action in enumerate(self.number_actions, 1):
            name = names[n - 1] if n <= len(names) else None
            action.setText(f"Speaker &{n}" if name == f"Speaker {n}" else
                           f"&{n}: {name}" if name is not None else f"Speaker &{n} (none yet)")
