"""Opening a long transcript never holds the window for long: what it takes is done a slice at a
time, or later, or on a worker (tests/perf/bench_open_stalls.py measures the stalls)."""

import pytest


@pytest.fixture
def project(restored, tmp_path):
    """A project of the restored sample, every suggestion pending in it."""
    path = restored.save(tmp_path / "sample.stet", wait=True)
    assert restored.transcript.pending()
    return path


def test_a_project_with_many_suggestions_is_listed_a_slice_at_a_time(window, project, qtbot,
                                                                     monkeypatch):
    from editor.gui import panel

    monkeypatch.setattr(panel, "_SCAN_AT_ONCE", 3)  # the sample counts as long
    with qtbot.waitSignal(window.restoration_finished, timeout=10_000):
        window.open_path(project)
        # shown at once with its count, the list filled from the next turn on
        pending = len(window.transcript.pending())
        assert window.panel.counting and window.panel.items == []
        assert window.panel.count_label.text() == f"{pending:,} pending"
        assert f"{pending:,} suggestions to review" in window.status_label.text()
    assert window.restoration_status == "skipped"  # it has its suggestions: nothing to restore
    qtbot.waitUntil(lambda: not window.panel.counting, timeout=10_000)
    assert window.panel.pending_count == pending and window.panel.items
    assert window.panel.items[0] in window.transcript.pending()


def test_a_short_project_is_listed_at_once(window, project, qtbot):
    with qtbot.waitSignal(window.restoration_finished, timeout=10_000):
        window.open_path(project)
        assert not window.panel.counting
        assert window.panel.pending_count == len(window.transcript.pending())
    assert "suggestions to review" in window.status_label.text()


def test_a_long_transcript_is_written_ahead_after_it_is_shown(window, project, qtbot, monkeypatch):
    """The recovery file is written ahead a while after opening, not in the same turn."""
    from editor.gui import recovery

    monkeypatch.setattr(recovery, "PRIME_WORDS", 10)  # the sample counts as long
    window.autosaver._priming.setInterval(200)
    slot = window.autosaver.slot
    window.open_path(project)
    assert window.autosaver._priming.isActive() and not window.autosaver._writing
    qtbot.waitUntil(lambda: slot.clean_path.exists() and not window.autosaver._writing,
                    timeout=10_000)
    assert not window.recovery_path.exists()  # written ahead, not offered
