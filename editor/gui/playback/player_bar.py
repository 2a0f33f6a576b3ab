"""The player bar: play/pause, skips, a clickable timeline, time, speed, for one ``Player``.

The player renders sound on its own thread; this bar reads its position on the UI thread at a
steady 30 Hz and never waits on it. oTranscribe's keys work anywhere in the window while the bar
is shown: Esc play/pause, F1/F2 skip back/forward, F3/F4 slower/faster.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from psygnal import SignalInstance
from PySide6.QtCore import QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QMouseEvent
from PySide6.QtWidgets import (QDoubleSpinBox, QHBoxLayout, QLabel, QMenu, QSlider, QStyle,
                               QToolButton, QWidget)

from editor.audio import MAX_SPEED, MIN_SPEED, PcmAudio, Player
from editor.gui.base import hotkeys
from editor.gui.base.actions import BY_ID
from editor.gui.base.background import BackgroundOp
from editor.gui.base.status_bar import ElidingLabel

POLL_MS = 33  # ~30 Hz: smooth enough for a moving word highlight, cheap for the UI thread
REWIND_SECONDS = 2.0
#: What the bar says when there is no sound output (no device, no PortAudio): the technical
#: reason ("no audio output device (Error querying device -1)") is in its tooltip.
NO_SOUND = "No sound output found: playback is off. Stet works without it."
_FAINT = "color: palette(mid);"  # a passing note (loading a recording)
_PLAIN = "color: palette(window-text);"  # (an empty style sheet left the faint colour in place)


def format_time(seconds: float, *, hours: bool = False) -> str:
    """``m:ss``, or ``h:mm:ss`` when ``hours`` (the recording is an hour or longer)."""
    total = max(0, int(seconds))
    h, rest = divmod(total, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if hours or h else f"{m}:{s:02d}"


class _Timeline(QSlider):
    """A slider that jumps to where it is clicked, instead of paging towards it."""

    clicked = Signal(int)

    def __init__(self) -> None:
        super().__init__(Qt.Orientation.Horizontal)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self.maximum() > self.minimum():
            span = max(1, self.width())
            value = QStyle.sliderValueFromPosition(self.minimum(), self.maximum(),
                                                   int(event.position().x()), span)
            self.setValue(value)
            self.clicked.emit(value)
        super().mousePressEvent(event)  # and the handle follows a drag from here


class QtPlayerBar(QWidget):
    """Transport controls for ``player``. ``position_changed(seconds)`` fires on the UI thread
    whenever the position moves, by playing or by a seek from here."""

    position_changed = Signal(float)
    audio_loaded = Signal(str)  # path, once decoded and ready to play
    audio_failed = Signal(str)  # one-line reason

    def __init__(self, player: Player, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.player = player
        self._last_position: float | None = None
        self._last_playing: bool | None = None
        self._load_id = 0  # a decode that lands after another was asked for is dropped
        style = self.style()

        self.back_button = self._button(QStyle.StandardPixmap.SP_MediaSeekBackward,
                                        f"Back {player.skip_seconds:g} s (F1)", self.skip_back)
        self.play_button = self._button(QStyle.StandardPixmap.SP_MediaPlay, "Play (Esc)", self.toggle)
        self.forward_button = self._button(QStyle.StandardPixmap.SP_MediaSeekForward,
                                           f"Forward {player.skip_seconds:g} s (F2)", self.skip_forward)
        self._play_icon = style.standardIcon(QStyle.StandardPixmap.SP_MediaPlay)
        self._pause_icon = style.standardIcon(QStyle.StandardPixmap.SP_MediaPause)

        self.timeline = _Timeline()
        self.timeline.setObjectName("player-timeline")
        self.timeline.setToolTip("Click to play from there")
        self.timeline.setAccessibleName("Playback position")
        self.timeline.setMinimumWidth(120)  # a narrow window shortens the note beside it first
        self.timeline.clicked.connect(self._timeline_moved)
        self.timeline.sliderMoved.connect(self._timeline_moved)
        self.timeline.actionTriggered.connect(
            lambda _action: QTimer.singleShot(0, self, lambda: self._timeline_moved(self.timeline.value())))

        self.time_label = QLabel()
        self.time_label.setObjectName("player-time")
        self.time_label.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)

        self.speed_box = QDoubleSpinBox()
        self.speed_box.setObjectName("player-speed")
        self.speed_box.setRange(MIN_SPEED, MAX_SPEED)
        self.speed_box.setSingleStep(0.1)
        self.speed_box.setDecimals(2)
        self.speed_box.setSuffix("×")
        self.speed_box.setToolTip("Speed, pitch kept (F3 slower, F4 faster)")
        self.speed_box.setAccessibleName("Playback speed")
        self.speed_box.setValue(player.speed)
        self.speed_box.valueChanged.connect(self._speed_edited)

        self.rewind_action = QAction(f"Go back {REWIND_SECONDS:g} s when resuming", self)
        self.rewind_action.setCheckable(True)
        self.rewind_action.setChecked(player.rewind_on_resume > 0)
        self.rewind_action.toggled.connect(self.set_rewind_on_resume)
        options = QToolButton()
        options.setText("⋯")
        options.setToolTip("Playback options")
        options.setAccessibleName("Playback options")
        options.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(options)
        menu.addAction(self.rewind_action)
        options.setMenu(menu)
        self.options_button = options

        self.notice_label = ElidingLabel()  # gives way in a narrow window, whole in its tooltip
        self.notice_label.setObjectName("player-notice")
        self.notice_label.setStyleSheet(_FAINT)

        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 2)
        for widget in (self.back_button, self.play_button, self.forward_button):
            layout.addWidget(widget)
        layout.addWidget(self.timeline, 1)
        layout.addWidget(self.time_label)
        layout.addWidget(self.speed_box)
        layout.addWidget(options)
        layout.addWidget(self.notice_label)

        # the player's keys and their names, from the table of actions (editor/gui/base/actions.py)
        self.actions_by_name = {
            name: self._shortcut(BY_ID[f"playback.{name}"].name, BY_ID[f"playback.{name}"].keys, slot)
            for name, slot in (("play_pause", self.toggle), ("skip_back", self.skip_back),
                               ("skip_forward", self.skip_forward), ("slower", self.slower), ("faster", self.faster))}

        self.timer = QTimer(self)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self.poll)

        self._connections: list[tuple[SignalInstance, Callable[..., None]]] = [(player.state_changed, self._state_changed),
                             (player.speed_changed, self._speed_changed),
                             (player.audio_changed, self._audio_changed)]
        for signal, slot in self._connections:
            signal.connect(slot)
        self.destroyed.connect(_disconnecter(self._connections))
        self._audio_changed()

    # -- building ----------------------------------------------------------------------------------
    def _button(self, icon: QStyle.StandardPixmap, tip: str, slot: Callable[[], object]) -> QToolButton:
        button = QToolButton()
        button.setIcon(self.style().standardIcon(icon))
        button.setToolTip(tip)
        button.setAccessibleName(tip.partition(" (")[0])  # "Back 5 s": an icon says nothing to a reader
        button.setAutoRaise(True)
        button.clicked.connect(slot)
        return button

    def _shortcut(self, text: str, key: hotkeys.Shortcut | None, slot: Callable[[], object]) -> QAction:
        action = QAction(text, self)
        action.setShortcuts(hotkeys.sequences(key) if key is not None else [])
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)  # while the bar is shown
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    # -- loading -----------------------------------------------------------------------------------
    def open_audio(self, path: str | os.PathLike[str]) -> BackgroundOp:
        """Decode ``path`` off the UI thread, then make it the player's; ``audio_loaded`` or
        ``audio_failed`` follows on the UI thread."""
        path = os.fspath(path)
        self._load_id += 1
        load_id = self._load_id
        self.player.set_audio(None)
        self.notice_label.setStyleSheet(_FAINT)
        self.notice_label.setText(f"Loading {os.path.basename(path)}…")
        self.notice_label.show()
        player = self.player
        op = BackgroundOp(self, lambda _report: player.decode(path))
        op.success(lambda audio: self._decoded(audio, path, load_id))
        op.failure(lambda err: self._decode_failed(err, load_id))
        return op.run()

    def unload(self) -> None:
        """Stop, forget the recording, and drop a decode still under way."""
        self._load_id += 1
        self.player.set_audio(None)

    def _decoded(self, audio: PcmAudio, path: str, load_id: int) -> None:
        if load_id != self._load_id:
            return
        self.player.set_audio(audio)
        self._show_notice()
        self.audio_loaded.emit(path)

    def _decode_failed(self, err: BaseException, load_id: int) -> None:
        if load_id != self._load_id:
            return
        text = str(err).strip() or type(err).__name__
        self.notice_label.setText(text)
        self.notice_label.setToolTip(text)
        self.notice_label.show()
        self.audio_failed.emit(text)

    # -- transport ---------------------------------------------------------------------------------
    def toggle(self) -> None:
        self.player.toggle()
        self._show_notice()
        self.poll()

    def seek(self, seconds: float) -> None:
        self.player.seek(seconds)
        self.poll()

    def skip_back(self) -> None:
        self.player.skip_back()
        self.poll()

    def skip_forward(self) -> None:
        self.player.skip_forward()
        self.poll()

    def slower(self) -> None:
        self.player.slower()

    def faster(self) -> None:
        self.player.faster()

    def set_rewind_on_resume(self, on: bool) -> None:
        self.player.rewind_on_resume = REWIND_SECONDS if on else 0.0

    # -- following the player ------------------------------------------------------------------------
    def poll(self) -> None:
        """Read the player's position and state and show them (the timer calls this at 30 Hz)."""
        player = self.player
        position = player.position
        playing = player.playing
        if playing != self._last_playing:
            self._last_playing = playing
            self.play_button.setIcon(self._pause_icon if playing else self._play_icon)
            self.play_button.setToolTip("Pause (Esc)" if playing else "Play (Esc)")
            self.play_button.setAccessibleName("Pause" if playing else "Play")
        if position != self._last_position:
            self._last_position = position
            if not self.timeline.isSliderDown():
                with QSignalBlocker(self.timeline):
                    self.timeline.setValue(round(position * 1000))
            self._show_time(position)
            self.position_changed.emit(position)

    def _show_time(self, position: float) -> None:
        hours = self.player.duration >= 3600
        self.time_label.setText(f"{format_time(position, hours=hours)} / "
                                f"{format_time(self.player.duration, hours=hours)}")

    def _show_notice(self) -> None:
        notice = self.player.notice
        self.notice_label.setStyleSheet(_PLAIN)  # said in the text's colour, not faint grey
        if not self.player.available:  # in plain words; what PortAudio said in the tooltip
            self.notice_label.setText(NO_SOUND)
            self.notice_label.setToolTip(f"{NO_SOUND}\n\nDetail: {notice}")
        else:
            self.notice_label.setText(notice or "")
            self.notice_label.setToolTip(notice or "")
        self.notice_label.setVisible(bool(notice))
        self.play_button.setEnabled(self.player.available and self.player.audio is not None)

    def _timeline_moved(self, value: int) -> None:
        self.player.seek(value / 1000)
        self.poll()

    def _speed_edited(self, value: float) -> None:
        self.player.set_speed(value)

    def _speed_changed(self, speed: float) -> None:
        with QSignalBlocker(self.speed_box):
            self.speed_box.setValue(speed)

    def _state_changed(self, _playing: bool) -> None:
        self.poll()

    def _audio_changed(self) -> None:
        has_audio = self.player.audio is not None
        self.timeline.setRange(0, round(self.player.duration * 1000))
        self.timeline.setPageStep(round(self.player.skip_seconds * 1000))
        self.timeline.setSingleStep(1000)
        for widget in (self.timeline, self.back_button, self.forward_button, self.speed_box):
            widget.setEnabled(has_audio)
        self._last_position = None
        self._last_playing = None
        self._show_notice()
        self.poll()
        if has_audio:
            self.timer.start()
        else:
            self.timer.stop()


def _disconnecter(connections: list[tuple[SignalInstance, Callable[..., None]]]) -> Callable[..., None]:
    """A slot for ``destroyed`` that holds no reference to the widget itself."""
    def disconnect(*_args: object) -> None:
        for signal, slot in connections:
            try:
                signal.disconnect(slot)
            except (ValueError, RuntimeError):
                pass
    return disconnect
