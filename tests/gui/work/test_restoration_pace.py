"""Restoration's slices of results: the gap before the next one follows whether the event loop had
other work in the last (the person typing or scrolling, painting), not a fixed wait."""

from editor.core.document.transcript import Transcript
from editor.gui.work import restoration
from editor.gui.work.restoration import RestorationController


def test_slices_follow_at_once_while_the_window_is_idle(qtbot):
    pump = RestorationController()
    pump._armed = 100.0
    pump._pump.setInterval(restoration._SLICE_GAP_MS)
    pump._pace(100.0 + restoration._SLICE_GAP_MS / 1000 + 0.001)  # the timer came on time
    assert pump._pump.interval() == restoration._IDLE_GAP_MS < restoration._SLICE_GAP_MS


def test_slices_leave_the_window_room_once_other_work_made_them_late(qtbot):
    pump = RestorationController()
    pump._armed = 100.0
    pump._pump.setInterval(restoration._IDLE_GAP_MS)
    pump._pace(100.0 + restoration._IDLE_GAP_MS / 1000 + 0.02)  # 20 ms late: the loop was busy
    assert pump._pump.interval() == restoration._SLICE_GAP_MS
    pump._armed = 200.0
    pump._pace(200.0 + restoration._SLICE_GAP_MS / 1000)  # on time again
    assert pump._pump.interval() == restoration._IDLE_GAP_MS


def test_results_held_for_a_bulk_step_are_looked_at_again_after_the_long_gap(qtbot):
    pump = RestorationController()
    pump.transcript = Transcript.from_words(["so", "it", "is"])
    pump.paused = True  # an accept-all runs its own slices
    pump._drain()
    assert pump._pump.isActive() and pump._pump.interval() == restoration._SLICE_GAP_MS
    pump._pump.stop()


def test_each_slice_of_results_is_a_step_background_work_waits_for(window, qtbot, monkeypatch):
    """In the window's process a slice of results (and its redraw) runs as a window step: the
    restoration's worker, which passes the window's turns' give_way between its pieces, waits for it; between
    slices it goes on. The suggestions are those made without waiting."""
    from editor.core import process
    from editor.core.paths import resource_path

    monkeypatch.setitem(process._configured, "gui", 1)
    turns = window.turns
    assert turns.follow() and window.restoration.turns is turns
    busy_in_slices = []
    window.restoration.after_slice = (lambda before=window.restoration.after_slice:
                                      (busy_in_slices.append(not turns._idle.is_set()),
                                       before and before()))
    try:
        given = turns.given_way()[0]
        with qtbot.waitSignal(window.restoration_finished, timeout=60000):
            window.open_path(resource_path("samples", "sample.txt"))
        assert busy_in_slices and all(busy_in_slices)
        assert turns._idle.is_set()  # no step left open
        followed = sorted((s.token_id, s.kind, s.value) for s in window.transcript.iter_suggestions())
        assert turns.given_way()[0] >= given
    finally:
        turns.stop()
    with qtbot.waitSignal(window.restoration_finished, timeout=60000):
        window.open_path(resource_path("samples", "sample.txt"))
    again = sorted((s.token_id, s.kind, s.value) for s in window.transcript.iter_suggestions())
    assert again == followed


def test_the_list_s_slices_and_the_text_s_repaints_are_window_steps(window, qtbot, monkeypatch):
    from PySide6.QtWidgets import QPlainTextEdit

    from editor.core import process

    monkeypatch.setitem(process._configured, "gui", 1)
    turns = window.turns
    assert turns.follow() and window.restoration.turns is turns
    seen = []
    try:
        monkeypatch.setattr(window.panel, "_scan_step", lambda: seen.append(("scan", turns._idle.is_set())))
        window.panel._scan_slice()
        from PySide6.QtGui import QPaintEvent

        monkeypatch.setattr(QPlainTextEdit, "paintEvent",  # Qt's own, which Stet's calls
                            lambda view, event: seen.append(("paint", turns._idle.is_set())))
        window.view.paintEvent(QPaintEvent(window.view.viewport().rect()))
        assert ("scan", False) in seen and ("paint", False) in seen
        # the recovery file's and the project's encodings rest for the same window's steps
        assert window.autosaver.slot.give_way == turns.give_way == window.saver._give_way
        assert turns._idle.is_set()
    finally:
        turns.stop()
