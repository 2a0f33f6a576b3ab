"""Autosave in the window (after a pause, at the latest a few seconds into steady typing, on focus
loss, before long jobs) and the recovery offer at every start (what it shows, restore, discard,
keep for later, several files, live sessions left alone, sessions sharing a PID)."""

import os
import time

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QMessageBox

from editor.core.formats import read_any
from editor.core.paths import resource_path
from editor.gui.work.recovery import AUTOSAVE_MAX_MS, RecoveryDialog

SAMPLE = resource_path("samples", "sample.txt")


@pytest.fixture
def make_window(qtbot, settings):
    def make(interactive=False):
        from editor.gui import MainWindow

        w = MainWindow(settings, interactive=interactive)
        w.may_discard = lambda: True  # closing at the end asks nobody (the unsaved work goes)
        qtbot.addWidget(w)
        return w
    return make


def _open(w, qtbot, path=SAMPLE, restore=False):
    w.set_transcript(read_any(path), source=path, restore=restore)


def _crash(w):
    """What a kill leaves: the files as written, the lock released by the OS (and no clean-up)."""
    w.autosaver._pause.stop()
    w.autosaver._deadline.stop()
    w.autosaver._soon.stop()
    w.autosaver.slot._lock.release()
    w.session.mark_saved()  # so that closing the dead window in teardown touches nothing


def _autosaved(w, qtbot, words="Changed "):
    w.view.edit_characters(0, 0, words)
    with qtbot.waitSignal(w.autosaved, timeout=10_000):
        w.autosave()
    return w.transcript.words()


def _answer(monkeypatch, action, seen=None, row=0):
    """Stand in for the person in front of the recovery dialog."""
    def exec_(dialog):
        rows = [[dialog.table.topLevelItem(i).text(c) for c in range(4)]
                for i in range(dialog.table.topLevelItemCount())]
        if seen is not None:
            seen.append(rows)
        dialog.table.setCurrentItem(dialog.table.topLevelItem(row))
        if action == "restore":
            dialog.restore()
        elif action == "discard":
            dialog.discard(confirm=False)
        else:
            dialog.reject()
        return 0
    monkeypatch.setattr(RecoveryDialog, "exec", exec_)


def test_edits_after_the_last_autosave_are_recovered(make_window, qtbot, monkeypatch):
    """Killed before the next autosave: the edit journal beside the recovery file has the rest."""
    crashed = make_window()
    _open(crashed, qtbot)
    _autosaved(crashed, qtbot, "Autosaved ")
    crashed.view.edit_characters(0, 0, "Journaled ")
    before = crashed.transcript.paragraph_starts
    crashed.view.edit_characters(10, 10, "\n")  # a paragraph starts at "Autosaved"
    crashed.transcript.delete_span(5, 7)
    doc = crashed.transcript
    words, starts = doc.words(), doc.paragraph_starts
    assert crashed.autosaver.edits.path.stat().st_size > 100
    _crash(crashed)
    fresh = make_window(interactive=True)
    _answer(monkeypatch, "restore")
    assert fresh.offer_recovery()
    assert fresh.transcript.words() == words and fresh.transcript.paragraph_starts == starts
    assert words[:2] == ["journaled", "autosaved"] and starts != before


def test_autosave_after_a_pause(make_window, qtbot):
    w = make_window()
    _open(w, qtbot)
    w.view.edit_characters(0, 0, "Paused ")
    assert w.autosaver.pending and not w.recovery_path.exists()
    with qtbot.waitSignal(w.autosaved, timeout=10_000):
        pass
    assert read_any(w.recovery_path).words()[0] == "paused"


def test_steady_typing_is_autosaved_within_the_deadline(make_window, qtbot):
    """Every change used to restart the timer, so steady typing was never saved."""
    w = make_window()
    _open(w, qtbot)
    saved = []
    w.autosaved.connect(lambda _path: saved.append(time.monotonic()))
    began = time.monotonic()
    n = 0
    while time.monotonic() - began < AUTOSAVE_MAX_MS / 1000 + 2.5:  # faster than the pause
        w.view.edit_characters(0, 0, f"steady{n} ")
        n += 1
        qtbot.wait(150)
    assert saved, "no autosave while typing steadily"
    assert saved[0] - began < AUTOSAVE_MAX_MS / 1000 + 1.5
    qtbot.waitUntil(lambda: not w.autosaver.pending and not w.autosaver._writing, timeout=10_000)
    assert read_any(w.recovery_path).words()[0] == f"steady{n - 1}"


def test_autosave_on_focus_loss_and_before_long_jobs(make_window, qtbot, tmp_path):
    w = make_window()
    _open(w, qtbot)
    w.view.edit_characters(0, 0, "Focus ")
    with qtbot.waitSignal(w.autosaved, timeout=5_000):
        w.changeEvent(QEvent(QEvent.Type.ActivationChange))  # the window is not the active one
    w.view.edit_characters(0, 0, "Export ")
    with qtbot.waitSignal(w.autosaved, timeout=5_000):
        w.export(tmp_path / "out.txt")
    assert read_any(w.recovery_path).words()[:2] == ["export", "focus"]
    w.view.edit_characters(0, 0, "Restore ")
    with qtbot.waitSignal(w.autosaved, timeout=5_000):
        w.start_restoration()
    w.cancel_restoration()


def test_saving_or_closing_on_purpose_leaves_nothing_to_recover(make_window, qtbot, tmp_path):
    w = make_window()
    _open(w, qtbot)
    _autosaved(w, qtbot)
    w.save(tmp_path / "kept.stet", wait=True)
    assert not w.recovery_path.exists()
    folder = w.recovery_path.parent
    w.close()
    assert list(folder.iterdir()) == []  # the lock file goes too


def test_a_script_closing_with_unsaved_work_keeps_it_for_the_next_start(make_window, qtbot,
                                                                        monkeypatch):
    w = make_window()
    _open(w, qtbot)
    w.view.edit_characters(0, 0, "Unsaved ")  # not autosaved yet: closing writes it
    words = w.transcript.words()
    w.close()
    fresh = make_window(interactive=True)
    _answer(monkeypatch, "restore")
    assert fresh.offer_recovery()
    assert fresh.transcript.words() == words and fresh.dirty and fresh.source == SAMPLE


def test_the_offer_shows_file_time_and_words_then_restores(make_window, qtbot, monkeypatch):
    crashed = make_window()
    _open(crashed, qtbot)
    words = _autosaved(crashed, qtbot, "Recovered ")
    _crash(crashed)
    fresh = make_window(interactive=True)
    seen = []
    _answer(monkeypatch, "restore", seen)
    assert fresh.offer_recovery()
    ((name, when, count, folder),) = seen[0]
    assert name == "sample.txt" and count == f"{len(words):,}" and folder == str(SAMPLE.parent)
    assert time.strftime("%H:%M") in when or "today" in when
    assert fresh.transcript.words() == words and fresh.dirty
    assert fresh.windowTitle().startswith("sample.txt")
    # it is this session's recovery file now: written on, not offered to anyone else
    assert fresh.recovery_path.exists() and not crashed.recovery_path.exists()
    other = make_window(interactive=True)
    assert not other.offer_recovery()
    # written again at once: the edits replayed from the journal beside it are the state's now
    qtbot.waitUntil(lambda: not fresh.autosaver.pending and not fresh.autosaver._writing, timeout=10_000)
    fresh.view.edit_characters(0, 0, "Again ")
    with qtbot.waitSignal(fresh.autosaved, timeout=10_000):
        fresh.autosave()
    assert read_any(fresh.recovery_path).words()[:2] == ["again", "recovered"]


def test_several_files_are_listed_discarded_or_kept_for_later(make_window, qtbot, monkeypatch,
                                                              tmp_path):
    names = []
    for n in range(3):
        source = tmp_path / f"talk{n}.txt"
        source.write_text(" ".join(["word"] * (n + 2)), encoding="utf-8")
        w = make_window()
        _open(w, qtbot, source)
        _autosaved(w, qtbot, f"Crashed{n} ")
        _crash(w)
        names.append(source.name)
        time.sleep(0.02)  # distinct autosave times
    fresh = make_window(interactive=True)
    seen = []
    _answer(monkeypatch, "discard", seen)  # the newest, talk2, is first
    assert not fresh.offer_recovery()
    assert [row[0] for row in seen[0]] == names[::-1]
    assert [row[2] for row in seen[0]] == ["5", "4", "3"]
    _answer(monkeypatch, "keep", seen)
    assert not fresh.offer_recovery()
    assert [row[0] for row in seen[1]] == names[1::-1]  # kept: offered again next time
    _answer(monkeypatch, "restore", seen, row=1)
    assert fresh.offer_recovery()
    assert fresh.source.name == "talk0.txt" and fresh.transcript.words()[0] == "crashed0"


def test_recovery_is_offered_at_every_start_whatever_was_asked(make_window, qtbot, monkeypatch,
                                                               tmp_path):
    """`stet`, `stet FILE` (the desktop entry) and `stet talk.mp3` all offer it first."""
    from editor.gui.app import begin

    recording = tmp_path / "talk.mp3"
    recording.write_bytes(b"not really audio")
    for asked in (None, str(SAMPLE), str(recording)):
        crashed = make_window()
        _open(crashed, qtbot)
        _autosaved(crashed, qtbot)
        _crash(crashed)
        fresh = make_window(interactive=True)
        opened = []
        monkeypatch.setattr(fresh, "open_reporting", opened.append)
        monkeypatch.setattr(fresh.restoring, "preload_restorer", lambda: None)
        seen = []
        _answer(monkeypatch, "keep", seen)
        begin(fresh, asked)
        assert len(seen) == 1 and seen[0][0][0] == "sample.txt", asked
        assert opened == ([asked] if asked else [])  # kept for later: the file opens
        _answer(monkeypatch, "restore", seen)
        begin(fresh, asked)
        assert len(seen) == 2 and opened == ([asked] if asked else [])  # restored instead
        assert fresh.dirty and fresh.transcript.words()[0] == "changed"
        fresh.discard_recovery()
        fresh.session.mark_saved()


def test_a_live_session_is_never_offered_nor_written_over(make_window, qtbot, monkeypatch):
    alive = make_window()
    _open(alive, qtbot)
    words = _autosaved(alive, qtbot, "Alive ")
    fresh = make_window(interactive=True)
    _answer(monkeypatch, "restore")
    assert not fresh.offer_recovery()
    _open(fresh, qtbot)
    _autosaved(fresh, qtbot, "Other ")
    assert read_any(alive.recovery_path).words() == words


def test_two_sessions_with_the_same_pid_never_share_a_recovery_file(make_window, qtbot,
                                                                    monkeypatch):
    """Under a PID namespace (Flatpak, containers) every session may be PID 1."""
    monkeypatch.setattr(os, "getpid", lambda: 1)
    first, second = make_window(), make_window()
    assert first.recovery_path != second.recovery_path
    _open(first, qtbot)
    _open(second, qtbot)
    one = _autosaved(first, qtbot, "First ")
    two = _autosaved(second, qtbot, "Second ")
    assert read_any(first.recovery_path).words() == one
    assert read_any(second.recovery_path).words() == two
    _crash(first)  # one of them dies: only its file is offered, to a third session
    third = make_window(interactive=True)
    seen = []
    _answer(monkeypatch, "restore", seen)
    assert third.offer_recovery() and len(seen[0]) == 1
    assert third.transcript.words() == one
    assert read_any(second.recovery_path).words() == two


def test_discard_asks_first(make_window, qtbot, monkeypatch):
    crashed = make_window()
    _open(crashed, qtbot)
    _autosaved(crashed, qtbot)
    _crash(crashed)
    from editor.core.recovery.slots import find_orphans

    orphans = find_orphans(crashed.recovery_path.parent)
    dialog = RecoveryDialog(orphans)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Cancel)
    dialog.discard()
    assert orphans[0].data.exists()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    dialog.discard()
    assert not orphans[0].data.exists() and not dialog.orphans


def test_a_long_transcript_is_written_ahead_and_offered_only_once_edited(make_window, qtbot,
                                                                         monkeypatch):
    """A long transcript's recovery file is written ahead when it opens (so the first autosave
    appends only the edit), aside, never offered: a crash before any edit offers nothing."""
    from editor.gui.work import recovery

    monkeypatch.setattr(recovery, "PRIME_WORDS", 10)  # the sample counts as long
    untouched = make_window()
    with qtbot.assertNotEmitted(untouched.autosaved):  # written ahead is not autosaved work
        _open(untouched, qtbot)
        slot = untouched.autosaver.slot
        qtbot.waitUntil(lambda: slot.clean_path.exists() and not untouched.autosaver._writing,
                        timeout=10_000)
    assert not untouched.recovery_path.exists()
    _crash(untouched)
    edited = make_window()
    _open(edited, qtbot)
    qtbot.waitUntil(lambda: edited.autosaver.slot.clean_path.exists()
                    and not edited.autosaver._writing, timeout=10_000)
    words = _autosaved(edited, qtbot, "Edited ")
    assert not edited.autosaver.slot.clean_path.exists()
    _crash(edited)
    fresh = make_window(interactive=True)
    seen = []
    _answer(monkeypatch, "restore", seen)
    assert fresh.offer_recovery() and len(seen[0]) == 1  # the edited one only
    assert fresh.transcript.words() == words
    assert not slot.clean_path.exists() and not slot.lock_path.exists()  # the untouched one: gone


def test_a_long_transcript_is_written_ahead_once_its_restoration_is_done(make_window, qtbot,
                                                                         monkeypatch):
    """Writing ahead while the restoration streams in would be out of date at once, and its
    encoding a third thread wanting the interpreter beside the restoration's and the window's:
    it waits for the pass to end, then writes the suggestions too."""
    from editor.gui.work import recovery

    monkeypatch.setattr(recovery, "PRIME_WORDS", 10)  # the sample counts as long
    w = make_window()
    w.autosaver._priming.setInterval(50)
    primed_while_restoring = []
    real_prime = w.autosaver.slot.prime

    def prime(state, generation=None):
        primed_while_restoring.append(w.restoration.running)
        return real_prime(state, generation)

    monkeypatch.setattr(w.autosaver.slot, "prime", prime)
    with qtbot.waitSignal(w.restoration_finished, timeout=20_000):
        _open(w, qtbot, restore=True)
        w.restoration.paused = True  # its results wait: the pass outlasts a few prime turns
        qtbot.wait(300)
        assert w.restoration.running and not w.autosaver._writing
        assert not w.autosaver.slot.clean_path.exists()
        w.restoration.paused = False
    slot = w.autosaver.slot
    qtbot.waitUntil(lambda: slot.clean_path.exists() and not w.autosaver._writing, timeout=10_000)
    assert primed_while_restoring == [False]
    assert b'"suggestions":[{' in slot.clean_path.read_bytes()  # after the pass: its suggestions too
    assert not w.recovery_path.exists()  # written ahead, not offered


def test_a_bulk_step_holds_off_writing_ahead(make_window, qtbot, monkeypatch):
    from editor.gui.work import recovery

    monkeypatch.setattr(recovery, "PRIME_WORDS", 10)
    w = make_window()
    _open(w, qtbot)
    w.autosaver._priming.stop()
    monkeypatch.setattr(type(w), "bulk_running", property(lambda self: True))
    w.autosaver.prime()
    assert not w.autosaver._writing and w.autosaver._priming.isActive()
    monkeypatch.setattr(type(w), "bulk_running", property(lambda self: False))
    w.autosaver._priming.stop()
    w.autosaver.prime()
    assert w.autosaver._writing
    qtbot.waitUntil(lambda: not w.autosaver._writing, timeout=10_000)


def test_an_autosave_waits_for_a_bulk_step_to_end(make_window, qtbot):
    """A capture in the middle of accept-all would stall one of its turns and keep a half-done
    state: it is written once the step is done."""
    from editor.core.document.transcript import Kind, Suggestion, Transcript
    from editor.gui.window.review import BULK_AT_ONCE

    w = make_window()
    doc = Transcript.from_words(["word"] * (BULK_AT_ONCE + 500))
    doc.set_suggestions([Suggestion(t.id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}) for t in doc.tokens])
    w.set_transcript(doc, restore=False)
    w.view.edit_characters(0, 0, "Edited ")
    with qtbot.waitSignal(w.bulk_finished, timeout=20_000):
        assert w.accept_all(0.0) == -1
        w.autosaver.save_now()
        assert w.autosaver.pending and not w.recovery_path.exists()
    with qtbot.waitSignal(w.autosaved, timeout=10_000):
        pass
    assert not read_any(w.recovery_path).pending(kind=Kind.PUNCT)  # all accepted: written once done


def test_the_folder_column_names_a_folder_never_a_dot(qtbot, tmp_path, monkeypatch):
    """A session opened as `stet talk.txt` was offered with the Folder "."."""
    import time
    from types import SimpleNamespace

    from editor.core.document.transcript import Token, Transcript
    from editor.core.recovery.state import RecoveryInfo, RecoveryState

    monkeypatch.chdir(tmp_path)
    kept = RecoveryState.capture(Transcript([Token("hello")]), source="talk.txt")
    assert kept.info.source == str(tmp_path / "talk.txt")  # kept whole from now on
    infos = [RecoveryInfo("talk.txt", None, time.time(), 3),  # as older autosaves kept it
             RecoveryInfo(str(tmp_path / "talk.txt"), None, time.time(), 3),
             RecoveryInfo(None, None, time.time(), 3)]
    dialog = RecoveryDialog([SimpleNamespace(info=info) for info in infos])
    qtbot.addWidget(dialog)
    folders = [dialog.table.topLevelItem(n).text(3) for n in range(3)]
    assert "." not in folders and "" not in folders
    assert folders == ["where Stet was started", str(tmp_path), "(not saved yet)"]


def test_the_offer_shows_every_column_of_a_long_name_in_a_small_screen(qtbot, tmp_path):
    """An 80-character file name in a deep folder filled the dialog's 620 px: the Folder column
    began at the right edge ("/home/some", "(not saved y") and took a scroll to the side to read.
    Now the dialog widens as the screen allows, and what still does not fit is cut in the middle
    of the name and the folder (whole in their tooltips); every column is in sight."""
    from types import SimpleNamespace

    from PySide6.QtCore import Qt

    from editor.core.recovery.state import RecoveryInfo

    deep = "/home/someone/Documents/Transcripts/2026/December/repair-cafe-interviews/harbour-street"
    long_name = "interview-with-the-harbour-street-repair-cafe-volunteers-about-singing-fish.srt"
    orphans = [SimpleNamespace(info=RecoveryInfo(f"{deep}/{long_name}", None, time.time() - 300, 12345)),
               SimpleNamespace(info=RecoveryInfo(None, None, time.time() - 3 * 86400, -1))]
    dialog = RecoveryDialog(orphans, opening=str(tmp_path / "new.srt"))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    screen = dialog.screen().availableGeometry()
    assert dialog.frameGeometry().width() <= screen.width()
    table = dialog.table
    header = table.header()
    assert header.length() <= table.viewport().width()  # no column beyond the right edge
    assert table.horizontalScrollBar().maximum() == 0
    first = table.topLevelItem(0)
    metrics = table.fontMetrics()
    for column in (1, 2):  # the time and the count whole
        assert header.sectionSize(column) >= metrics.horizontalAdvance(first.text(column)), column
    for column in (0, 3):  # the name and the folder share the rest
        assert header.sectionSize(column) >= 150, (column, header.sectionSize(column))
    assert table.textElideMode() == Qt.TextElideMode.ElideMiddle
    assert first.toolTip(0) == f"{deep}/{long_name}" and first.toolTip(3) == f"{deep}/{long_name}"
