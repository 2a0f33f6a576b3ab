"""Restoration's slices of results: the gap before the next one follows whether the event loop had
other work in the last (the person typing or scrolling, painting), not a fixed wait."""

from editor.core.document import Transcript
from editor.gui import restoration
from editor.gui.restoration import RestorationController


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
