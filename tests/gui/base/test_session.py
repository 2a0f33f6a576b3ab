"""The window's session: the saved state follows the document's history (no Qt needed)."""

from pathlib import Path

from editor.core.document.transcript import Transcript
from editor.gui.base.session import Session


def _session(words: str = "so we met in paris") -> Session:
    session = Session()
    session.replace(Transcript.from_words(words.split()), source=Path("/tmp/talk.txt"))
    return session


def _edit(session: Session, word: str = "hello") -> None:
    session.transcript.edit_token(0, surface=word)
    session.note_change()


def test_a_new_session_is_clean_and_untitled():
    session = Session()
    assert not session.dirty and session.name == "Untitled" and len(session.transcript) == 0


def test_replace_returns_the_old_transcript_and_starts_clean():
    session = Session()
    first = session.transcript
    doc = Transcript.from_words("a b c".split())
    old = session.replace(doc, source=Path("/tmp/a.txt"), project=Path("/tmp/a.stet"))
    assert old is first and session.transcript is doc
    assert session.source == Path("/tmp/a.txt") and session.project == Path("/tmp/a.stet")
    assert session.name == "a.stet" and not session.dirty


def test_an_edit_makes_it_dirty_and_undoing_back_to_the_saved_state_cleans_it():
    session = _session()
    _edit(session)
    assert session.dirty
    session.transcript.history.undo()
    session.note_change()
    assert not session.dirty  # back where it was opened
    session.transcript.history.redo()
    session.note_change()
    assert session.dirty


def test_saving_marks_the_history_clean_and_names_the_project():
    session = _session()
    _edit(session, "one")
    session.mark_saved(Path("/tmp/talk.stet"))
    assert not session.dirty and session.project == Path("/tmp/talk.stet")
    assert session.transcript.history.is_clean and session.name == "talk.stet"
    _edit(session, "two")
    assert session.dirty
    session.transcript.history.undo()  # back to what was saved
    session.note_change()
    assert not session.dirty
    session.transcript.history.undo()  # before what was saved
    session.note_change()
    assert session.dirty


def test_a_change_not_by_the_person_keeps_the_saved_state_as_it_was():
    session = _session()
    session.transcript.set_metadata(language="en")  # as restoration results arrive
    session.note_change(by_person=False)
    assert not session.dirty
    _edit(session)
    session.transcript.set_metadata(language="fr")
    session.note_change(by_person=False)
    assert session.dirty  # the person's edit is still unsaved


def test_work_in_no_file_stays_unsaved_whatever_the_history_says():
    session = _session()
    session.mark_unsaved()  # a recovered autosave
    assert session.dirty and session.transcript.history.is_clean
    session.note_change()
    assert session.dirty
    session.mark_saved(Path("/tmp/talk.stet"))
    assert not session.dirty


def test_forgetting_the_history_keeps_unsaved_work_unsaved():
    session = _session()
    _edit(session)  # words transcribed
    session.forget_history()
    session.note_change()  # the history's change signal, as the window hears it
    assert session.dirty and not session.transcript.history.can_undo
    clean = _session()
    clean.forget_history()
    assert not clean.dirty


def test_a_transcript_that_can_undo_starts_clean_where_it_is():
    doc = Transcript.from_words("a b c".split())
    doc.edit_token(0, surface="x")
    session = Session()
    session.replace(doc)
    assert not session.dirty and doc.history.is_clean
    doc.history.undo()
    session.note_change()
    assert session.dirty  # before where it started


def test_the_window_title_follows_the_saved_state(restored, tmp_path):
    """Restoration leaves a just-opened transcript saved; an edit marks the title; undoing it
    back to what was saved clears the mark again."""
    window = restored
    assert not window.dirty and not window.isWindowModified()  # restoration is not the person's
    window.view.edit_characters(0, 0, "Hello ")
    assert window.dirty and window.isWindowModified()
    window.save(tmp_path / "talk.stet", wait=True)
    assert not window.dirty and window.windowTitle().startswith("talk.stet")
    window.view.edit_characters(0, 0, "Well ")
    assert window.dirty
    window.undo()
    assert not window.dirty and not window.isWindowModified()
    window.undo()  # before the save: unsaved again
    assert window.dirty and window.isWindowModified()


def test_undoing_the_persons_step_after_restoration_is_clean_again():
    """Open, restoration results arrive, the person accepts one and undoes it: nothing to save,
    and nothing either once the restoration is undone too."""
    session = _session()
    session.transcript.set_metadata(language="en")  # as restoration results arrive
    session.note_change(by_person=False)
    _edit(session)
    assert session.dirty
    session.transcript.history.undo()
    session.note_change()
    assert not session.dirty
    session.transcript.history.undo()  # the restoration too
    session.note_change()
    assert not session.dirty
