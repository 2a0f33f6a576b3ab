"""Listening in the main window: a player bar under the text when the transcript names its audio,
Ctrl+click on a word plays from it, and the word being played is highlighted and kept in view.
Any transcript can be given its recording (File > Attach recording…), and one with a recording
of the same name beside it (``talk.srt``, ``talk.mp3``) gets it when opened."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from editor.audio.follow import word_at
from editor.core import Transcript
from editor.core.errors import UserError
from editor.gui.base.links import DocumentLinks
from editor.gui.base.session import Session
from editor.media.kinds import MEDIA_SUFFIXES, recording_beside

if TYPE_CHECKING:  # numpy and the player load with the first transcript that has audio
    from editor.audio import Player
    from editor.gui.playback.player_bar import QtPlayerBar


class FollowingView(Protocol):
    """What ``PlaybackController`` uses of the text view (``QtTranscriptView``): the word heard,
    marked and kept on screen."""

    def highlight_token(self, index: int | None, colour: QColor | None = None) -> None: ...
    def scroll_to_token(self, index: int, place: float = ...) -> None: ...


def resolve_audio(audio_file: str | None, source: Path | None) -> Path | None:
    """Where the transcript's recording is: as written, or relative to the transcript's own folder
    (a .stet project moved together with its audio). None when it is not found."""
    if not audio_file:
        return None
    path = Path(os.path.expanduser(audio_file))
    candidates = [path] if path.is_absolute() else []
    if source is not None:
        candidates.append(Path(source).parent / (path if not path.is_absolute() else path.name))
    if not path.is_absolute():
        candidates.append(path)
    return next((c for c in candidates if c.is_file()), None)


class PlaybackController(QObject):
    """Owns the window's ``Player`` and ``QtPlayerBar`` and wires them to the transcript view.
    Both are made when a transcript with audio is first opened, so a window that never plays sound
    never loads PortAudio; the bar is hidden while the transcript has no audio, which also leaves
    its keys free then.

    It knows the session and the view, not the window: the window puts the bar in place when
    ``bar_made`` says so, calls ``transcript_opened`` and ``play_from_token`` (Ctrl+click on a
    word), and shows ``message``. Dialogs open over ``parent``."""

    bar_made = Signal(QWidget)  # the player bar, to go under the text
    message = Signal(str, int)  # a status-bar message, and for how many ms

    def __init__(self, session: Session, view: FollowingView, player: Player | None = None, *,
                 make_player: Callable[[], Player] | None = None, interactive: bool = False,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.view = view
        self.interactive = interactive  # a missing recording is asked for
        self._parent_widget = parent
        self.make_player = make_player
        """Builds the player on first need (default: ``Player()`` on the sound card); tests swap it."""
        self.player: Player | None = None
        self.bar: QtPlayerBar | None = None
        self.audio_path: Path | None = None
        self._highlighted: int | None = None
        self._doc: Transcript | None = None  # whose metadata_changed is connected
        self._links = DocumentLinks()
        if player is not None:
            self._build(player)

    def _build(self, player: Player | None) -> QtPlayerBar:
        from editor.gui.playback.player_bar import QtPlayerBar

        if player is None:
            from editor.audio import Player

            player = Player()
        self.player = player
        self.bar = QtPlayerBar(player)
        self.bar.setObjectName("player-bar")
        self.bar.hide()
        self.bar_made.emit(self.bar)
        self.bar.position_changed.connect(self.follow)
        self.bar.audio_failed.connect(self._failed)
        self.bar.audio_loaded.connect(self._check_length)
        return self.bar

    def transcript_opened(self, doc: Transcript) -> None:
        """Load the audio the transcript names (off the UI thread), or hide the bar."""
        if doc is not self._doc:
            self._links.clear()  # (see editor.gui.base.links: nothing left behind on the old document)
            self._attach_beside(doc)
            self._doc = doc
            self._links.connect(doc.metadata_changed, self._metadata_changed)
        self._highlight(None)
        path = resolve_audio(doc.metadata.audio_file, self.session.source)
        self.audio_path = path
        if path is None:
            if self.bar is not None:
                self.bar.unload()
                self.bar.hide()
            if doc.metadata.audio_file:
                self.message.emit(f"The recording {doc.metadata.audio_file} was not found", 8000)
                if self.interactive:  # after the window has shown the text
                    QTimer.singleShot(0, self, lambda: self._offer_to_locate(doc))
            return
        bar = self.bar
        if bar is None:
            bar = self._build(self.make_player() if self.make_player is not None else None)
        bar.show()
        bar.open_audio(path)

    def _attach_beside(self, doc: Transcript) -> None:
        """A transcript that names no recording gets the one with its name beside it, and says
        so; kept with no undo step (nothing the person did), and saved in the project."""
        source = self.session.source
        if doc.metadata.audio_file or source is None or doc is not self.session.transcript:
            return
        found = recording_beside(source)
        if found is None:
            return
        doc.set_metadata(undoable=False, audio_file=os.fspath(found.resolve()))
        note = f"Recording {found.name} attached: it has the name of {source.name}"
        # said after what the window says of the file it opened (its reading's warnings)
        QTimer.singleShot(0, self, lambda: self._say_for(doc, note))

    def _say_for(self, doc: Transcript, note: str) -> None:
        if doc is self.session.transcript:
            self.message.emit(note, 10000)

    def attach_dialog(self) -> None:
        """File > Attach recording…: choose the open transcript's recording."""
        source = self.session.source
        patterns = " ".join(f"*{suffix}" for suffix in MEDIA_SUFFIXES)
        path, _ = QFileDialog.getOpenFileName(self._parent_widget, "Attach recording",
                                              str(source.parent) if source is not None else "",
                                              f"Recordings ({patterns});;All files (*)")
        if path:
            self.attach(path)

    def attach(self, path: str | os.PathLike[str]) -> bool:
        """Give the open transcript the recording at ``path`` (an undoable change that the project
        keeps); whether it was given. A file that is not there, or whose sound does not decode
        (the transcript itself or an empty .mp3 chosen by mistake), is said and changes nothing:
        the recording attached before stays."""
        chosen = Path(path)
        if not chosen.is_file():
            self.message.emit(f"{chosen.name} is not a file that can be played", 8000)
            return False
        if not self._playable(chosen):
            return False
        timed = any(t.start is not None for t in self.session.transcript.tokens)
        self.locate_audio(chosen)
        self.message.emit(f"Recording {chosen.name} attached" if timed else
                          f"Recording {chosen.name} attached; this transcript has no word times, so "
                          "words are not followed as it plays and suggestions are not heard", 8000)
        return True

    def _check_length(self, _path: str) -> None:
        """Say when the recording ends before the transcript's times do: those words cannot be
        heard (a wrong recording, or a cut one)."""
        from editor.gui.playback.player_bar import format_time

        player = self.player
        if player is None or player.audio is None:
            return
        times = [t.end if t.end is not None else t.start for t in self.session.transcript.tokens
                 if t.start is not None]
        last = max((t for t in times if t is not None), default=None)
        if last is not None and last > player.duration + 0.5:
            self.message.emit(f"The recording ({format_time(player.duration)}) is shorter than the "
                              f"transcript's times ({format_time(last)}): words after "
                              f"{format_time(player.duration)} cannot be heard", 10000)

    def locate_audio(self, path: str | os.PathLike[str]) -> None:
        """Point the open transcript at its recording in a new place (an undoable change)."""
        self.session.transcript.set_metadata(audio_file=os.fspath(Path(path).resolve()))

    def _metadata_changed(self) -> None:
        doc = self._doc
        if doc is not None and resolve_audio(doc.metadata.audio_file, self.session.source) != self.audio_path:
            self.transcript_opened(doc)  # located, or the locating undone

    def _offer_to_locate(self, doc: Transcript) -> None:
        if doc is not self.session.transcript or self.audio_path is not None:
            return
        name = Path(doc.metadata.audio_file or "").name
        answer = QMessageBox.question(
            self._parent_widget, "Recording not found",
            f"The recording {name} is not where the transcript says. Find it?")
        if answer != QMessageBox.StandardButton.Yes:
            return
        path, _ = QFileDialog.getOpenFileName(self._parent_widget, f"Where is {name}?",
                                              str(self.session.source.parent) if self.session.source else "",
                                              f"{name} (*{Path(name).suffix});;All files (*)")
        if path and doc is self.session.transcript and self._playable(Path(path)):
            self.locate_audio(path)

    def _playable(self, path: Path) -> bool:
        """Whether ``path`` opens and its first sound decodes, as File > Open checks a recording
        (`editor.media.decode.check_sound`: the first half second, a few ms); if not, says why.
        A text file taken for the recording replaced a good one, and the project kept it."""
        from editor.media.decode import check_sound  # (PyAV: loaded when a recording is chosen)

        try:
            check_sound(path)
        except UserError as err:
            self.message.emit(f"Not attached: {err}", 8000)
            return False
        return True

    def play_from_token(self, index: int) -> None:
        """Play from the start of token ``index`` (Ctrl+click on a word)."""
        doc = self.session.transcript
        if self.bar is None or self.player is None or self.player.audio is None or not 0 <= index < len(doc):
            return
        start = doc[index].start
        if start is None:
            self.message.emit("This word has no time in the recording", 3000)
            return
        self.bar.seek(start)
        if not self.player.playing:
            self.bar.toggle()

    def follow(self, seconds: float) -> None:
        """Highlight the word at ``seconds``; while playing, scroll it into view if it left it."""
        index = word_at(self.session.transcript, seconds)
        if index == self._highlighted:
            return
        self._highlight(index)
        if index is not None and self.player is not None and self.player.playing:
            self._keep_in_view(index)

    def close(self) -> None:
        """Stop playing and let go of the output device."""
        if self.player is not None:
            self.player.close()

    def _highlight(self, index: int | None) -> None:
        self._highlighted = index
        self.view.highlight_token(index)

    def _keep_in_view(self, index: int) -> None:
        # The view owns the scrolling: its paragraphs are separated by empty lines (blocks), and
        # the steps it needs to settle depend on that.
        self.view.scroll_to_token(index)

    def _failed(self, reason: str) -> None:
        self.message.emit(reason, 8000)
