"""Saving a project is written off the UI thread (editor.gui.work.saving) and still never loses work:
an edit made while it writes stays and keeps the document modified, closing waits for the write,
a failed write says so and keeps the document unsaved, saves never run two at a time, and what
was written reopens as the document was."""

import errno
import threading

import pytest
from PySide6.QtWidgets import QMessageBox

from editor.core.document.transcript import Kind, State, Suggestion, Transcript
from editor.core.formats import read_any
from editor.core.project_writer import ProjectWriter
from editor.gui.work import saving


class Gate:
    """Holds every project write until ``open()``; counts how many run at once."""

    def __init__(self, monkeypatch) -> None:
        self.event = threading.Event()
        self.entered = threading.Event()
        self.running = 0
        self.most = 0
        self.written: list[str] = []
        self._lock = threading.Lock()
        gate = self

        class Gated(ProjectWriter):
            def write(self, state, path, **kwargs):
                with gate._lock:
                    gate.running += 1
                    gate.most = max(gate.most, gate.running)
                gate.entered.set()
                try:
                    gate.event.wait(30)
                    return super().write(state, path, **kwargs)
                finally:
                    with gate._lock:
                        gate.running -= 1
                        gate.written.append(str(path))

        monkeypatch.setattr(saving, "ProjectWriter", Gated)

    def open(self) -> None:
        self.event.set()


def _doc() -> Transcript:
    doc = Transcript.from_words("so we met okafor in paris and then it rained all day long".split())
    doc.set_suggestions([Suggestion(doc[3].id, Kind.CASE, "Okafor", {"Okafor": 0.8, "okafor": 0.2}),
                         Suggestion(doc[5].id, Kind.PUNCT, ".", {".": 0.7, "": 0.3}),
                         Suggestion(doc[8].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})])
    return doc


@pytest.fixture
def opened(window):
    window.set_transcript(_doc(), restore=False)
    window.transcript.accept(window.transcript[3].id, Kind.CASE)
    assert window.dirty
    return window


def _words(path):
    return [t.surface + t.punct for t in read_any(path).tokens]


def test_the_window_goes_on_while_the_project_is_written(opened, monkeypatch, tmp_path):
    gate = Gate(monkeypatch)
    target = opened.save(tmp_path / "talk.stet")  # returns at once: the write waits at the gate
    assert gate.entered.wait(10) and not target.exists()
    assert opened.saver.running and opened.dirty
    assert opened.statusBar().currentMessage() == "Saving talk.stet…"
    gate.open()
    opened.saver.wait()
    assert not opened.dirty and opened.path == target and not opened.isWindowModified()
    assert opened.statusBar().currentMessage() == "Saved talk.stet"


def test_an_edit_during_a_save_survives_and_keeps_the_document_modified(opened, qtbot, monkeypatch,
                                                                       tmp_path):
    gate = Gate(monkeypatch)
    target = tmp_path / "talk.stet"
    opened.save(target)
    assert gate.entered.wait(10)
    opened.view.edit_characters(0, 0, "Later ")  # typed while the save writes
    doc = opened.transcript
    doc.accept(doc[6].id, Kind.PUNCT)  # a decision too ("." after "paris", now word 6)
    with qtbot.waitSignal(opened.project_saved, timeout=10_000):
        gate.open()
    assert _words(target)[:4] == ["so", "we", "met", "Okafor"]  # as it stood when saved
    assert opened.transcript[0].surface == "Later"  # the edit is still there...
    assert opened.dirty and opened.isWindowModified()  # ...and not saved yet
    assert "later changes are not saved yet" in opened.statusBar().currentMessage()
    assert opened.autosaver.pending or opened.recovery_path.exists()  # and autosaved
    opened.save(target, wait=True)  # the next save has it
    assert _words(target)[:5] == ["Later", "so", "we", "met", "Okafor"]
    assert read_any(target).suggestion(doc[6].id, Kind.PUNCT).state == State.ACCEPTED
    assert not opened.dirty


def test_undoing_back_to_what_a_save_wrote_is_clean(opened, monkeypatch, tmp_path):
    gate = Gate(monkeypatch)
    opened.save(tmp_path / "talk.stet")
    assert gate.entered.wait(10)
    opened.view.edit_characters(0, 0, "Later ")
    gate.open()
    opened.saver.wait()
    assert opened.dirty
    opened.undo()  # back to the state written
    assert not opened.dirty
    opened.redo()
    assert opened.dirty


def test_learning_after_a_save_learns_from_what_was_written(opened, monkeypatch, tmp_path):
    gate = Gate(monkeypatch)
    taught = []
    monkeypatch.setattr(opened.learning, "remember", lambda doc, forms, source, **kw: taught.append((forms, kw)))
    target = tmp_path / "talk.stet"
    opened.save(target)
    assert gate.entered.wait(10)
    doc = opened.transcript
    doc.edit_token(0, surface="So")
    doc.reject(doc[5].id, Kind.PUNCT)
    gate.open()
    opened.saver.wait()
    ((forms, kw),) = taught
    assert forms == {"okafor": "Okafor"}
    assert kw["tokens"] == read_any(target).tokens and kw["tokens"][0].surface == "so"
    states = {(s.token_id, s.kind): s.state for s in kw["suggestions"]}
    assert states[(doc[5].id, Kind.PUNCT)] == State.PENDING  # the rejection came after
    assert kw["revision"] < doc.revision


def test_closing_during_a_save_waits_for_a_complete_file(opened, monkeypatch, tmp_path):
    gate = Gate(monkeypatch)
    target = tmp_path / "talk.stet"
    opened.save(target)
    assert gate.entered.wait(10)
    threading.Timer(0.8, gate.open).start()  # the disk answers a little later
    said = []
    opened.statusBar().messageChanged.connect(said.append)
    assert opened.close()  # waits, then closes: nothing unsaved is left
    assert "Finishing saving talk.stet…" in said and said[-1] == "Saved talk.stet"
    assert not opened.saver.running
    assert _words(target)[3] == "Okafor" and len(read_any(target)) == 13


def test_save_and_close_is_saved_before_the_window_goes(opened, monkeypatch, tmp_path):
    target = tmp_path / "talk.stet"
    opened.save(target, wait=True)
    opened.view.edit_characters(0, 0, "Later ")
    opened.interactive = True
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Save)
    assert opened.close()
    assert _words(target)[0] == "Later" and not opened.dirty


def test_save_and_close_that_fails_keeps_the_window(opened, monkeypatch, tmp_path):
    target = tmp_path / "talk.stet"
    opened.save(target, wait=True)
    opened.view.edit_characters(0, 0, "Later ")
    opened.interactive = True
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Save)
    warned = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, title, text, *a, **k: warned.append(text))
    _disk_full(monkeypatch)
    assert not opened.close()  # not saved: the window stays, with the work
    assert warned and "No space left" in warned[0] and opened.dirty
    assert _words(target)[0] == "so"  # the file is as it was


def _disk_full(monkeypatch):
    from editor.core import project_writer

    def full(path, data):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))
    monkeypatch.setattr(project_writer, "atomic_write", full)


def test_a_failed_write_says_so_and_keeps_the_document_unsaved(opened, qtbot, monkeypatch, tmp_path):
    target = tmp_path / "talk.stet"
    _disk_full(monkeypatch)
    with qtbot.waitSignal(opened.project_save_failed, timeout=10_000) as failed:
        opened.save(target)
    assert "No space left" in failed.args[0]
    message = opened.statusBar().currentMessage()
    assert message.startswith("Not saved: ") and "No space left" in message and "\n" not in message
    assert opened.dirty and opened.isWindowModified() and opened.path is None and not target.exists()
    with pytest.raises(OSError, match="No space left"):  # scripted, waiting: raised
        opened.save(target, wait=True)
    monkeypatch.undo()  # room again: the next save writes everything
    opened.save(target, wait=True)
    assert not opened.dirty and _words(target)[3] == "Okafor"


def test_a_read_only_project_is_not_replaced(opened, tmp_path):
    from editor.core.errors import UserError

    target = tmp_path / "talk.stet"
    target.write_text("{}", encoding="utf-8")
    target.chmod(0o444)
    with pytest.raises(UserError, match="read-only"):
        opened.save(target, wait=True)
    assert target.read_text(encoding="utf-8") == "{}" and opened.dirty


def test_saves_asked_for_while_one_writes_run_one_after_another(opened, monkeypatch, tmp_path):
    gate = Gate(monkeypatch)
    target, other = tmp_path / "talk.stet", tmp_path / "other.stet"
    opened.save(target)
    assert gate.entered.wait(10)
    opened.view.edit_characters(0, 0, "One ")
    opened.save(target)  # waits for the first
    opened.view.edit_characters(0, 0, "Two ")
    opened.save(target)  # the same file again: one save, taken when it starts
    opened.save(other)
    gate.open()
    opened.saver.wait()
    assert gate.most == 1  # never two at once
    assert gate.written == [str(target), str(target), str(other)]
    assert _words(target)[:2] == ["Two", "One"] and _words(other)[:2] == ["Two", "One"]
    assert opened.path == other and not opened.dirty


def test_a_save_during_accept_all_writes_it_whole(window, qtbot, tmp_path):
    from editor.gui.window.review import BULK_AT_ONCE

    n = BULK_AT_ONCE + 500
    doc = Transcript.from_words(["word"] * n)
    doc.set_suggestions([Suggestion(t.id, Kind.PUNCT, ",", {",": 0.9, "": 0.1}) for t in doc.tokens])
    window.set_transcript(doc, restore=False)
    target = tmp_path / "all.stet"
    with qtbot.waitSignal(window.project_saved, timeout=30_000):
        assert window.accept_all(0.0) == -1  # a slice per turn
        window.save(target)  # starts when the accept-all has ended
    saved = read_any(target)
    marks = [s for s in saved.all_suggestions() if s.kind == Kind.PUNCT]
    assert len(marks) == n and all(s.state == State.ACCEPTED for s in marks)
    assert not window.dirty


def test_the_saved_project_reopens_identical(restored, tmp_path):
    doc = restored.transcript
    pending = doc.pending()
    doc.accept(pending[0].token_id, pending[0].kind)
    doc.reject(pending[1].token_id, pending[1].kind)
    restored.view.edit_characters(0, 0, "Opening ")
    target = restored.save(tmp_path / "sample.stet", wait=True)

    def state(d):
        return (d.tokens, tuple(d.paragraph_starts),
                sorted((s.token_id, s.kind.value, s.value, s.state.value, s.source, s.original,
                        tuple(sorted(s.probs.items()))) for s in d.all_suggestions()),
                {k: v for k, v in d.metadata.extra.items() if k != "learning"})

    assert state(read_any(target)) == state(doc)
    restored.view.edit_characters(0, 0, "Again ")  # a second save, reusing what did not change
    restored.save(target, wait=True)
    assert state(read_any(target)) == state(doc)


def test_opening_another_file_during_a_save_waits_for_it(opened, monkeypatch, tmp_path):
    gate = Gate(monkeypatch)
    target = tmp_path / "talk.stet"
    opened.save(target)
    assert gate.entered.wait(10)
    other = tmp_path / "other.txt"
    other.write_text("another talk entirely", encoding="utf-8")
    threading.Timer(0.5, gate.open).start()
    opened.open_path(other)  # the save under way is written first
    assert opened.transcript.words() == ["another", "talk", "entirely"]
    assert _words(target)[3] == "Okafor" and not opened.saver.running
    assert str(target.resolve()) in opened.settings.recent_files


def test_a_close_that_stops_waiting_for_a_slow_disk_keeps_the_window_and_the_save(
        opened, qtbot, monkeypatch, tmp_path):
    from editor.gui.window import files as window_files

    monkeypatch.setattr(window_files, "STILL_SAVING_ASK_S", 0.2)
    gate = Gate(monkeypatch)
    target = tmp_path / "talk.stet"
    opened.save(target)
    assert gate.entered.wait(10)
    opened.interactive = True
    asked = []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda _p, title, *a, **k: asked.append(title) or QMessageBox.StandardButton.No)
    assert not opened.close()  # the person stops waiting: the window stays, the save goes on
    assert asked == ["Still saving"] and opened.saver.running and opened.dirty
    with qtbot.waitSignal(opened.project_saved, timeout=10_000):
        gate.open()
    assert not opened.dirty and _words(target)[3] == "Okafor"
