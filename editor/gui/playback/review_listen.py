"""Reviewing by ear: arriving at a suggestion plays the words around it, so it is decided by ear
in two keys (Tab, then Enter, Delete or a digit).

The ``ReviewListener`` listens to the view's ``current_changed`` (whatever moved the review there:
Tab, Shift+Tab, Ctrl+Tab, Enter moving on, a click in the list or on the word) and plays the
suggestion's passage (``editor.core.review.listening.passage``: from ``listen.before`` seconds
before its word to ``listen.after`` seconds after the next word begins) with
``Player.play_span``, which stops by itself at the passage's end. Nothing here takes the focus or
leaves review. F5 plays the passage again (held down, over and over), F6 the whole sentence;
with ``listen.slower_when_unsure`` a low-confidence suggestion is played slower and the player's
speed is put back when the passage ends.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, Qt, Signal, SignalInstance
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QWidget

from editor.core import Kind, Suggestion, Transcript
from editor.core.review.listening import Passage, passage, sentence
from editor.core.settings import Settings
from editor.gui.base import hotkeys
from editor.gui.base.actions import BY_ID

if TYPE_CHECKING:
    from editor.audio import Player
    from editor.gui.playback.playback import PlaybackController
    from editor.gui.playback.player_bar import QtPlayerBar

#: Two presses of the replay key closer than this are the key held down (its auto-repeat): the
#: passage is not started afresh but played again when it ends, for as long as they come. Longer
#: than the keyboard's wait before it repeats (500 ms on Windows, 660 ms on X11 by default), so
#: the first repeat does not start the passage over; a quick second press is taken as held too,
#: which only plays on what already plays.
HELD_GAP = 0.75


class ListenedView(Protocol):
    """What the listener uses of the transcript view."""

    current_changed: SignalInstance

    @property
    def transcript(self) -> Transcript: ...

    @property
    def current(self) -> Suggestion | None: ...


class ReviewListener(QObject):
    """Plays each suggestion the review arrives at, when the transcript has a recording."""

    message = Signal(str, int)  # a status-bar message, and for how many ms

    def __init__(self, settings: Settings, view: ListenedView, playback: PlaybackController,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.view = view
        self.playback = playback
        self.clock: Callable[[], float] = time.monotonic
        """Seconds, for telling a held key from two presses (tests swap it)."""
        self.actions: dict[str, QAction] = {}
        self._key: tuple[int, Kind] | None = None  # the suggestion last arrived at
        self._passage: Passage | None = None  # what was played last, to play again
        self._ours = False  # the player is playing a passage this started
        self._last_press = -1e9
        self._held_until = -1e9
        self._speed_before: float | None = None  # the person's speed, while a slower passage plays
        view.current_changed.connect(self.arrived)
        playback.bar_made.connect(self._bar_made)
        if playback.bar is not None:
            self._bar_made(playback.bar)

    # -- the keys -------------------------------------------------------------------------------------
    def _bar_made(self, bar: QWidget) -> None:
        """The keys work while the player bar is shown (a recording is open), as its own do."""
        for name, slot in (("replay_suggestion", self.replay), ("play_sentence", self.play_sentence)):
            spec = BY_ID[f"playback.{name}"]
            action = QAction(spec.name, bar)
            action.setShortcuts(hotkeys.sequences(spec.keys) if spec.keys is not None else [])
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            action.setAutoRepeat(True)  # held down, the replay key comes again and again
            action.triggered.connect(slot)
            bar.addAction(action)
            self.actions[name] = action
        timer = getattr(bar, "timer", None)
        if timer is not None:
            timer.timeout.connect(self.tick)

    # -- arriving -------------------------------------------------------------------------------------
    def arrived(self, s: Suggestion | None) -> None:
        """The suggestion under review changed: play it (once per arrival, not when the view
        says the same suggestion again after a change to its word)."""
        key = None if s is None else s.key
        if key == self._key:
            return
        self._key = key
        if s is None:
            self._stop_ours()
            return
        if self.settings.listen.on_arrival:
            self.play_suggestion(s, quiet=True)

    def play_suggestion(self, s: Suggestion, *, quiet: bool = False) -> bool:
        """Play ``s``'s passage; whether it plays. ``quiet``: say nothing when it cannot."""
        player = self._ready(quiet)
        if player is None:
            return False
        listen = self.settings.listen
        found = passage(self.view.transcript, s, listen.before, listen.after)
        if found is None:
            if not quiet:
                self.message.emit("This suggestion's word has no time in the recording", 3000)
            return False
        slower = listen.slower_when_unsure and s.confidence < self.settings.review.low
        return self._play(player, found, slower)

    def replay(self) -> None:
        """F5: the passage of the suggestion under review again; held down, over and over."""
        now = self.clock()
        held = now - self._last_press < HELD_GAP
        self._last_press = now
        player = self.playback.player
        if held and self._ours and player is not None and player.playing:
            self._held_until = now + HELD_GAP  # still held: it plays again when it ends
            return
        s = self.view.current
        if s is None:
            self.message.emit("Select a suggestion first (Tab)", 3000)
            return
        self._held_until = now + HELD_GAP if held else -1e9
        self.play_suggestion(s)

    def play_sentence(self) -> None:
        """F6: the whole sentence of the suggestion under review."""
        s = self.view.current
        if s is None:
            self.message.emit("Select a suggestion first (Tab)", 3000)
            return
        player = self._ready(False)
        if player is None:
            return
        found = sentence(self.view.transcript, s)
        if found is None:
            self.message.emit("This sentence has no time in the recording", 3000)
            return
        self._play(player, found, False)

    def tick(self) -> None:
        """The player bar's poll (30 times a second): a passage that ended plays again while its
        key is held, else the person's speed comes back."""
        player = self.playback.player
        if not self._ours or player is None or player.playing:
            return
        self._ours = False
        if self._passage is not None and self.clock() < self._held_until:
            self._play(player, self._passage, self._speed_before is not None)
            return
        self._restore_speed(player)

    # -- playing ----------------------------------------------------------------------------------
    def _ready(self, quiet: bool) -> Player | None:
        """The player, when a recording is loaded and there is sound; else None (said unless
        ``quiet``: the player bar already says why there is no sound)."""
        player = self.playback.player
        if player is None or player.audio is None:
            if not quiet:
                self.message.emit("No recording to play: File > Attach recording… gives it one", 4000)
            return None
        if not player.available:
            return None
        return player

    def _play(self, player: Player, span: Passage, slower: bool) -> bool:
        self._restore_speed(player)
        if slower:
            self._speed_before = player.speed
            player.set_speed(player.speed * self.settings.listen.slower_speed)
        self._passage = span
        played = player.play_span(span.start, span.end)
        self._ours = played
        bar: QtPlayerBar | None = self.playback.bar
        if bar is not None:
            bar.poll()
        if not played:
            self._restore_speed(player)
        return played

    def _stop_ours(self) -> None:
        """Review left: a passage still playing stops (playing the person started goes on)."""
        player = self.playback.player
        if self._ours and player is not None and player.span_end is not None:
            player.pause()
        self._ours = False
        self._held_until = -1e9
        if player is not None:
            self._restore_speed(player)

    def _restore_speed(self, player: Player) -> None:
        if self._speed_before is not None:
            speed, self._speed_before = self._speed_before, None
            player.set_speed(speed)
