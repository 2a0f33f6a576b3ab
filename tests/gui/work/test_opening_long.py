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
    from editor.gui.panel import panel

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
    from editor.gui.work import recovery

    monkeypatch.setattr(recovery, "PRIME_WORDS", 10)  # the sample counts as long
    window.autosaver._priming.setInterval(200)
    slot = window.autosaver.slot
    window.open_path(project)
    assert window.autosaver._priming.isActive() and not window.autosaver._writing
    qtbot.waitUntil(lambda: slot.clean_path.exists() and not window.autosaver._writing,
                    timeout=10_000)
    assert not window.recovery_path.exists()  # written ahead, not offered


def test_the_text_shown_before_is_let_go_a_slice_at_a_time(window, qtbot, tmp_path):
    """Opening another transcript after a long one frees the old one's text map a few parts per
    turn (100,000 words of it at once took 6-10 ms of the opening): the new text shows at once."""
    from editor.core.document.transcript import Transcript
    from editor.gui.text_view.build import FIRST_BUILT

    long = Transcript.from_text(" ".join(f"word{i % 97}" for i in range(12 * FIRST_BUILT)))
    window.set_transcript(long, source=tmp_path / "long.txt", restore=False)
    view = window.view
    view.shown_text()  # all of it shown
    short = Transcript.from_text("a short one. two words more")
    window.set_transcript(short, source=tmp_path / "short.txt", restore=False)
    assert view.build._discarded  # not freed in the same turn
    assert view.shown_text() == "a short one. two words more" and len(view.text_map) == 6
    qtbot.waitUntil(lambda: not view.build._discarded, timeout=5_000)
    assert view.shown_text() == "a short one. two words more"


TALK = "so we met at the station and then we went home because it was late " * 4


@pytest.fixture
def long_talk(tmp_path, monkeypatch):
    """A text file that counts as a long transcript: its restoration follows in later turns."""
    from editor.gui.window import restoring

    monkeypatch.setattr(restoring, "FOLLOW_AT_ONCE", 10)
    path = tmp_path / "talk.txt"
    path.write_text(TALK, encoding="utf-8")
    return path


def test_a_long_transcript_is_looked_at_and_restored_in_the_turns_after_it_is_shown(window, long_talk, qtbot,
                                                                                  monkeypatch):
    """Showing 100,000 words, looking at every word for the author's punctuation and starting the
    pass took one turn of 30-36 ms; the look and the start now come each in a turn after the
    text is shown. Meanwhile the status bar says the word count, not the last file's."""
    from editor.gui.window import restoring

    looked: list[tuple[int, int]] = []  # (words looked at, passes started by then)
    started: list[int] = []
    real = restoring.keeps_author
    monkeypatch.setattr(restoring, "keeps_author",
                        lambda tokens: (looked.append((len(tokens), len(started))), real(tokens))[1])
    window.restoration.started.connect(started.append)
    window.open_path(long_talk)
    words = len(TALK.split())
    assert window.view.shown_text().startswith("so we met at the station")
    assert window.restoring.following and not looked and not started
    assert window.status_label.text() == f"{words:,} words"
    with qtbot.waitSignal(window.restoration_finished, timeout=60_000):
        pass
    assert looked == [(words, 0)] and started == [words]  # looked at, then the pass started
    assert not window.restoring.following
    assert window.restoration_status == "done"


def test_what_is_typed_before_a_long_transcripts_pass_starts_is_kept(window, long_talk, qtbot):
    window.open_path(long_talk)
    view = window.view
    cursor = view.textCursor()
    cursor.setPosition(view.token_range(0)[1])  # after "so"
    view.setTextCursor(cursor)
    view.setFocus()
    qtbot.keyClicks(view, "on")
    assert window.restoring.following  # typed before the pass started
    with qtbot.waitSignal(window.restoration_finished, timeout=60_000):
        pass
    assert window.restoration_status == "done"
    doc = window.transcript
    assert doc[0].word == "soon" and view.shown_text().lower().startswith("soon we met")
    assert len(doc) == len(TALK.split())


def test_a_transcript_opened_before_the_last_ones_pass_started_is_the_one_restored(window, long_talk, qtbot,
                                                                                 tmp_path):
    other = tmp_path / "other.txt"
    other.write_text("and then we went home " * 10, encoding="utf-8")
    started: list[object] = []
    window.restoration.started.connect(lambda _words: started.append(window.restoration.transcript))
    window.open_path(long_talk)
    first = window.transcript
    window.open_path(other)
    with qtbot.waitSignal(window.restoration_finished, timeout=60_000):
        pass
    assert started == [window.transcript] and window.transcript is not first
    assert window.restoration_status == "done"


def test_a_file_read_in_the_background_has_its_speakers_counted_there(window, qtbot, tmp_path, monkeypatch):
    """The margin names the speakers as the text is shown; counting them reads every word (4-5 ms
    at 100,000), done on the reading thread, not in the turn that shows the text."""
    import threading

    from editor.core.document.transcript import Transcript
    from editor.gui.work import opening

    monkeypatch.setattr(opening, "BACKGROUND_BYTES", 10)
    counted: list[bool] = []
    real = Transcript.speaker_names
    monkeypatch.setattr(Transcript, "speaker_names",
                        lambda self: (counted.append(threading.current_thread() is threading.main_thread()),
                                      real(self))[1])
    path = tmp_path / "interview.txt"
    path.write_text("Ann: so we met at the station.\n\nBob: and then we went home.\n", encoding="utf-8")
    with qtbot.waitSignal(window.restoration_finished, timeout=60_000):
        window.open_reporting(path)
    assert counted and counted[0] is False  # first on the reading thread
    assert window.view.speaker_names() == ["Ann", "Bob"]


def test_cancel_before_a_long_transcripts_pass_starts_means_it_never_starts(window, long_talk, qtbot):
    started: list[int] = []
    window.restoration.started.connect(started.append)
    with qtbot.waitSignal(window.restoration_finished, timeout=10_000):
        window.open_path(long_talk)
        window.cancel_restoration()
    qtbot.waitUntil(lambda: not window.restoring.following, timeout=5_000)
    assert window.restoration_status == "cancelled" and "cancelled" in window.status_label.text()
    assert not started and not window.restoration.running


def test_cancel_before_a_long_projects_steps_leaves_it_skipped(window, project, qtbot, monkeypatch):
    """A project with its suggestions has no pass to start: Cancel meanwhile cancels nothing."""
    from editor.gui.window import restoring

    monkeypatch.setattr(restoring, "FOLLOW_AT_ONCE", 10)
    with qtbot.waitSignal(window.restoration_finished, timeout=10_000):
        window.open_path(project)
        assert window.restoring.following
        window.cancel_restoration()
    assert window.restoration_status == "skipped"
