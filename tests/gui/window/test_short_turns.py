"""What the window does a slice at a time on a long transcript stays in slices to its end: no step
left over for one turn of the event loop that grows with the text (tests/perf/bench_gui_stalls.py
measures the stalls; these check the behaviour that keeps them short)."""

from dataclasses import replace

from PySide6.QtCore import Qt

from editor.core.document.transcript import Kind, Suggestion, Transcript


def _many_pending(window, words: int = 900) -> Transcript:
    """A transcript shown in ``window`` with a pending comma on every word."""
    doc = Transcript.from_text(" ".join(f"word{i % 37}" for i in range(words)))
    window.set_transcript(doc, restore=False)
    doc.set_suggestions([Suggestion(doc[i].id, Kind.PUNCT, ",", {",": 0.3 + (i % 50) / 100, "": 0.7 - (i % 50) / 100})
                         for i in range(len(doc) - 1)])
    return doc


def _rows(panel) -> list[tuple[str, object]]:
    from PySide6.QtCore import Qt

    return [(panel.list.item(r).text(), panel.list.item(r).data(Qt.ItemDataRole.AccessibleTextRole))
            for r in range(panel.list.count())]


def test_the_pending_list_makes_its_rows_in_slices_and_only_puts_them_in_at_the_end(window, monkeypatch):
    """A refresh of the list made its 400 rows (their words, what a reader says of them) in one
    step after the last slice: 20-48 ms at 100,000 words. Now every row is made in a slice, and
    the list it shows at the end is the one a refresh at once shows."""
    from editor.gui.panel import panel as panel_module

    panel = window.panel
    _many_pending(window)
    panel.refresh()  # at once: the list as it should be
    at_once = _rows(panel)
    assert len(at_once) == panel_module.LIST_LIMIT

    made: list[int] = []
    real_row_parts = panel.row_parts
    monkeypatch.setattr(panel, "row_parts", lambda s: (made.append(1), real_row_parts(s))[1])
    at_each_slice = [len(made) for _ in panel._scanner()]  # what the slices made, up to each yield
    # all of it made in slices, a few rows a slice; the last step (after the last yield) made none
    assert at_each_slice[-1] == len(made) == panel_module.LIST_LIMIT
    assert max(b - a for a, b in zip(at_each_slice, at_each_slice[1:])) <= panel_module._ROWS_A_SLICE
    assert _rows(panel) == at_once


def test_a_bulk_step_starts_no_slice_that_would_overrun_its_turn(window, qtbot, monkeypatch):
    """Accept all, undo and redo on a long transcript run a slice per turn of the event loop, for
    _BULK_SECONDS of UI time: a slice that would end past that waits for the next turn (a second
    slice and the repaint after them took 20-25 ms of one turn at 100,000 words). Here each slice
    takes 0.6 of the time (a clock the slices move): one slice a turn, then the step's end."""
    from types import SimpleNamespace

    from editor.gui.window import review

    clock = [0.0]
    monkeypatch.setattr(review, "time", SimpleNamespace(perf_counter=lambda: clock[0]))
    commands = window.review
    turns: list[int] = []
    real = commands._bulk_slice

    def a_turn() -> None:
        turns.append(0)
        real()
    monkeypatch.setattr(commands, "_bulk_slice", a_turn)
    ran: list[int] = []

    def slices():
        for _ in range(6):
            clock[0] += 0.6 * review._BULK_SECONDS
            ran.append(len(turns))
            yield
    finished: list[bool] = []
    commands._run_bulk(slices(), lambda: finished.append(True))
    qtbot.waitUntil(lambda: bool(finished), timeout=5_000)
    assert len(ran) == 6 and all(b > a for a, b in zip(ran, ran[1:]))  # one slice a turn at most
    assert not commands.bulk_running


def test_a_refresh_of_the_list_starts_no_slice_that_would_overrun_its_turn(window, monkeypatch):
    """The pending list's refresh, a slice per turn as well, stops before a slice that would end
    past its time in the turn (here each slice takes 0.6 of it: one a turn)."""
    from types import SimpleNamespace

    from editor.gui.panel import panel as panel_module

    clock = [0.0]
    monkeypatch.setattr(panel_module, "time", SimpleNamespace(perf_counter=lambda: clock[0]))
    panel = window.panel
    ran: list[int] = []

    def slices():
        for _ in range(3):
            clock[0] += 0.6 * panel_module._SCAN_SECONDS
            ran.append(1)
            yield True
    panel._scan = slices()
    for turn in (1, 2, 3):
        panel._scan_step()  # one turn of the event loop
        assert len(ran) == turn


def test_a_decision_in_a_text_without_speakers_counts_no_speakers_again(window, qtbot):
    """The margin names the speakers in the order they first speak, counted over every word when
    words change (5-6 ms of the turn at 100,000 words). A word changed in place in a text with no
    speakers (Enter on a suggestion) names none: the count stands, and still says none."""
    doc = Transcript.from_text("so we met there and then we left")
    window.set_transcript(doc, restore=False)
    doc.set_suggestions([Suggestion(doc[3].id, Kind.PUNCT, ".", {".": 0.8, "": 0.2})])
    view = window.view
    assert view.speaker_names() == []
    counted = view._speakers
    view.set_current(doc.suggestion(doc[3].id, Kind.PUNCT))
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert doc.suggestion(doc[3].id, Kind.PUNCT).state.value == "accepted"
    assert view._speakers is counted and view.speaker_names() == []
    doc.push_tokens([(1, replace(doc[1], speaker="Ana"))], "a speaker named")
    assert view.speaker_names() == ["Ana"]  # a name that comes is counted


def _busy(seconds: float) -> None:
    """The UI thread busy (as a slice of work is) for ``seconds``."""
    import time

    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def _ticking(qtbot):
    """A 1 ms timer of the window's thread (a frame, the person's key, an animation) and the list
    of its ticks."""
    from PySide6.QtCore import QTimer

    ticks: list[int] = []
    beat = QTimer()
    beat.setTimerType(Qt.TimerType.PreciseTimer)
    beat.setInterval(1)
    beat.timeout.connect(lambda: ticks.append(1))
    beat.start()
    return beat, ticks


def test_a_bulk_step_lets_the_windows_timers_run_between_two_of_its_turns(window, qtbot):
    """Each turn of a bulk step (accept all, undo, redo) comes from a timer, not a posted call:
    Qt runs every posted call before it looks at a timer, so a chain of posted turns ran two
    turns and the repaint between two ticks of any timer (18-25 ms of UI time at 100,000
    words). Here each turn takes 3 ms and a 1 ms timer is due after each: it ticks between every
    two turns."""
    commands = window.review
    beat, ticks = _ticking(qtbot)
    seen: list[int] = []

    def slices():
        for _ in range(8):
            _busy(0.003)  # past half the turn's 5 ms: one slice a turn
            seen.append(len(ticks))
            yield
    finished: list[bool] = []
    commands._run_bulk(slices(), lambda: finished.append(True))
    qtbot.waitUntil(lambda: bool(finished), timeout=5_000)
    beat.stop()
    assert len(seen) == 8
    assert all(b > a for a, b in zip(seen, seen[1:])), seen


def test_a_refresh_of_the_list_lets_the_windows_timers_run_between_two_of_its_turns(window, qtbot):
    """The same for the pending list's refresh, a slice per turn."""
    from editor.gui.panel import panel as panel_module

    panel = window.panel
    beat, ticks = _ticking(qtbot)
    seen: list[int] = []

    def slices():
        for _ in range(8):
            _busy(0.6 * panel_module._SCAN_SECONDS)  # one slice a turn
            seen.append(len(ticks))
            yield True
    panel._scan = slices()
    panel._scan_slice()
    qtbot.waitUntil(lambda: panel._scan is None, timeout=5_000)
    beat.stop()
    assert len(seen) == 8
    assert all(b > a for a, b in zip(seen, seen[1:])), seen


def test_a_bulk_steps_slice_waits_for_the_next_turn_after_a_repaint_of_the_text(window, qtbot, monkeypatch):
    """The repaint of the text after a slice is a posted event, run in the turn before the next
    slice's timer: a slice and that repaint in one turn were 10-20 ms of UI time at 100,000
    words. A turn that finds the text repainted since the last slice runs none (the repaint was
    that turn's work); the next one does. Every slice still ends in its own redraw."""
    from types import SimpleNamespace

    from editor.gui.window import review

    clock = [0.0]
    monkeypatch.setattr(review, "time", SimpleNamespace(perf_counter=lambda: clock[0]))
    commands = window.review
    view = window.view
    ran: list[int] = []

    def slices():
        for k in range(3):
            clock[0] += 0.6 * review._BULK_SECONDS  # one slice a turn
            ran.append(k)
            yield
    finished: list[bool] = []
    commands._run_bulk(slices(), lambda: finished.append(True))
    commands._next_slice.stop()  # the turns by hand
    commands._bulk_slice()
    assert ran == [0]
    view.viewport().repaint()  # the text drawn again (as the turn after a slice does)
    commands._bulk_slice()
    assert ran == [0]  # this turn painted: no slice in it
    assert commands._next_slice.isActive()  # but one in the next
    commands._bulk_slice()
    assert ran == [0, 1]
    commands._bulk_slice()  # no repaint between: the next slice in the next turn
    assert ran == [0, 1, 2]
    view.viewport().repaint()
    commands.finish_bulk()  # a save waiting for the step: to its end now, repaints or not
    assert finished == [True] and not commands.bulk_running


def test_accept_all_on_a_long_text_shows_every_word_accepted(window, qtbot):
    """Accept all on a transcript over BULK_AT_ONCE words, its slices and repaints taking turns:
    the text shown at the end is the document's, every mark and capital in."""
    from editor.gui.window.review import BULK_AT_ONCE

    words = BULK_AT_ONCE + 600
    doc = Transcript.from_text(" ".join(f"word{i % 37}" for i in range(words)))
    window.set_transcript(doc, restore=False)
    qtbot.waitUntil(lambda: not window.view.building, timeout=20_000)
    doc.set_suggestions([Suggestion(doc[i].id, Kind.PUNCT, ",", {",": 0.9, "": 0.1})
                         for i in range(0, len(doc) - 1, 3)])
    painted_before = window.view.paints
    assert window.accept_all(0.0) == -1  # in slices
    qtbot.waitUntil(lambda: not window.bulk_running, timeout=30_000)
    assert window.view.paints > painted_before  # drawn on the way
    shown = window.view.toPlainText().split()
    assert len(shown) == words
    assert all(shown[i].endswith(",") == (i % 3 == 0 and i < words - 1) for i in range(words))
    assert not doc.pending()
