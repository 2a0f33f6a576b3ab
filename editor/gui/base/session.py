"""What the window has open: the transcript, the file it came from, the project it is saved to, and
whether there is work not yet saved.

The saved state comes from the document's ``History`` (``mark_clean``/``is_clean``): undoing back
to what was saved makes the session clean again. Two kinds of change do not follow that rule:

- restoration results are not the person's work: they leave the session as clean or unsaved as it
  was (``note_change(by_person=False)``);
- work that is in no file, whatever the history says (a recovered autosave, a transcription whose
  history is forgotten when it ends), stays unsaved until it is saved (``mark_unsaved``).

No Qt here: the window and its controllers share one ``Session`` and read it; the window turns its
changes into a title, an autosave and the question asked before the work is replaced.
"""

from __future__ import annotations

from pathlib import Path

from editor.core.document.transcript import Transcript


class Session:
    """The open transcript, its source file and project file, and its saved state."""

    def __init__(self, transcript: Transcript | None = None) -> None:
        self.transcript = transcript if transcript is not None else Transcript()
        self.source: Path | None = None  # the file the transcript came from
        self.project: Path | None = None  # the .stet project, once saved or opened
        self._edited = False  # the person changed it since it was opened or saved
        self._unsaved = False  # work in no file, whatever the history says

    @property
    def dirty(self) -> bool:
        """There is work that saving would keep (and closing would lose)."""
        return self._unsaved or self._edited

    @property
    def name(self) -> str:
        """What the window's title calls the work: the project's or source file's name."""
        shown = self.project or self.source
        return shown.name if shown is not None else "Untitled"

    def replace(self, transcript: Transcript, *, source: Path | None = None,
                project: Path | None = None) -> Transcript:
        """Open ``transcript`` (read from ``source``, saved in ``project``) instead of the current
        one, which is returned; the new one starts clean."""
        old, self.transcript = self.transcript, transcript
        self.source, self.project = source, project
        self._edited = self._unsaved = False
        if not transcript.history.is_clean:  # what it can undo is where it starts from
            transcript.history.mark_clean()
        return old

    def note_change(self, *, by_person: bool = True) -> None:
        """The transcript's history changed. A change by the person makes the work unsaved unless
        it leads back to the saved state (an undo); one that is not (restoration results) leaves
        the saved state as it was."""
        history = self.transcript.history
        if by_person:
            self._edited = not history.is_clean
        elif not self._edited and not history.is_clean:
            history.mark_also_clean()  # undoing the person's later steps back to here is clean

    def mark_saved(self, project: Path | None = None) -> None:
        """The transcript was just written to ``project`` (the current one when not given)."""
        if project is not None:
            self.project = project
        self._edited = self._unsaved = False
        self.transcript.history.mark_clean()

    def mark_saved_at(self, project: Path, point: object) -> None:
        """The transcript as it stood at ``point`` (``History.checkpoint``) was just written to
        ``project``, and it changed since: it stays modified, unless undo leads back there."""
        self.project = project
        history = self.transcript.history
        history.mark_clean_at(point)  # type: ignore[arg-type]
        self._unsaved = False
        self._edited = not history.is_clean

    def mark_unsaved(self) -> None:
        """The transcript holds work that is in no file (recovered, or just transcribed)."""
        self._unsaved = True

    def forget_history(self) -> None:
        """Drop the undo steps (what they did becomes the starting point) and keep the work as
        unsaved as it was: words just transcribed are in no file, though nothing can be undone.
        No words at all (a silent recording) are nothing to save: the next Open does not ask."""
        self._unsaved = self.dirty and len(self.transcript) > 0
        self._edited = False
        self.transcript.history.clear()
