"""Review > Accept all at or above…: the summary under the percent is read whole, however long
the count and its warning grow as the threshold is typed."""

from editor.gui.dialogs.accept_all import AcceptAllDialog


def _count(threshold):
    """(decisions, suggestions, of them low): longer summaries as the threshold comes down."""
    yield (4, 4, 0) if threshold >= 0.9 else (10, 14, 0) if threshold >= 0.5 else (16, 17, 3)


def test_the_summary_is_never_cut_as_it_grows(window, qtbot):
    """At 70 % on a 61-word subtitle file the summary ran to a third line, and the dialog, sized
    for the two of 90 %, cut it in half; the warning about low confidence (a fourth line) was
    cut the same way."""
    dialog = AcceptAllDialog(window.settings, _count, 17, window)
    qtbot.addWidget(dialog)
    dialog.resize(380, 10)  # as narrow as a small screen leaves it
    dialog.show()
    qtbot.waitExposed(dialog)
    summary = dialog.summary
    for percent, said in ((90, "4 of 17 pending"), (70, "10 of 17 pending suggestions will be accepted (4 of them a sentence end"),
                          (2, "3 of them are of low confidence")):
        dialog.box.setValue(percent)
        qtbot.waitUntil(lambda said=said: said in summary.text())
        # as tall as its lines, and above the buttons: read whole
        qtbot.waitUntil(lambda: summary.height() >= summary.heightForWidth(summary.width())
                        and summary.geometry().bottom() < dialog.buttons.geometry().top(), timeout=2000)
