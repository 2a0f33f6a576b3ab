"""The status line's label: its own painting."""

import sys

from editor.gui.base.status_bar import StatusLabel


def test_the_status_label_ends_its_painter_before_its_paint_event_returns(window):
    """The label drew with a QPainter it left to be ended when its ``paintEvent``'s frame was freed.
    Whatever keeps that frame (a sampling profiler, a debugger, code that keeps a traceback) then
    ends it later, perhaps on another thread: a window sampled by tests/perf/bench_gui_stalls.py
    --profile-gaps died of SIGSEGV in QRasterPaintEngine::alphaPenBlt, the window's paint engine
    left without a state under the widget it was painting next."""
    label = window.status_label
    assert isinstance(label, StatusLabel)
    kept = []

    def keep(frame, event, _arg):  # the frame of each of the label's paints, kept as a profiler does
        if event == "return" and frame.f_code is StatusLabel.paintEvent.__code__:
            kept.append(frame)

    sys.setprofile(keep)
    try:
        label.repaint()
    finally:
        sys.setprofile(None)
    assert kept, "the label did not paint"
    painter = kept[0].f_locals["painter"]
    active = painter.isActive()
    if active:  # end it here, on this thread, so that this failure does not crash a later paint
        painter.end()
    kept.clear()
    assert not active
