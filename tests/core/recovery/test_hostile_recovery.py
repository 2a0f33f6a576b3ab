"""The recovery file is a journal (editor/core/recovery/slots.py, read by editor/core/recovery/reading.py): an autosave appends what an edit
changed, so its cost follows the edit and not the document; a kill at any byte of an append
leaves the last complete autosave readable; a file past the size a project may have reads too."""

import os
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from editor.core.document.transcript import Kind, Suggestion, Token, Transcript
from editor.core.errors import FormatError
from editor.core.formats import read_any
from editor.core.recovery.reading import JOURNAL_HEAD, is_journal, read_journal
from editor.core.recovery.slots import RecoverySlot, RecoveryState, find_orphans

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX locks")


def _doc(n: int) -> Transcript:
    doc = Transcript([Token(f"w{i}") for i in range(n)], paragraph_starts=[0, n // 3])
    doc.set_suggestions([Suggestion(t.id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})
                         for t in doc.tokens[::3]])
    return doc


def _same(a: Transcript, b: Transcript) -> bool:
    return (a.words() == b.words() and a.paragraph_starts == b.paragraph_starts
            and [(s.token_id, s.kind, s.state) for s in a.suggestions()]
            == [(s.token_id, s.kind, s.state) for s in b.suggestions()])


def test_an_edit_appends_what_it_changed_and_the_file_stays_bounded(tmp_path):
    doc = _doc(20_000)
    slot = RecoverySlot.claim(tmp_path)
    slot.write(RecoveryState.capture(doc))
    whole = slot.data.stat().st_size
    assert is_journal(slot.data) and _same(read_any(slot.data), doc)
    doc.replace_span(5000, 5001, "edited")
    slot.write(RecoveryState.capture(doc))
    grown = slot.data.stat().st_size - whole
    assert 0 < grown < whole / 10  # a run and a state, not the document again
    assert _same(read_any(slot.data), doc)
    for n in range(200):  # edits everywhere: the file is written whole again now and then
        doc.replace_span(n * 97 % len(doc), n * 97 % len(doc) + 1, f"e{n}")
        slot.write(RecoveryState.capture(doc))
        assert slot.data.stat().st_size < 3 * whole + 2**20
    assert _same(read_any(slot.data), doc)
    s = doc.pending()[10]
    doc.accept(s.token_id, s.kind)
    slot.write(RecoveryState.capture(doc))
    assert _same(read_any(slot.data), doc)


def test_a_kill_at_any_byte_of_an_append_leaves_the_last_whole_autosave(tmp_path):
    doc = _doc(3000)
    slot = RecoverySlot.claim(tmp_path)
    states, sizes = [], []
    for n in range(4):
        if n:
            doc.replace_span(n * 700, n * 700 + 1, f"edit{n} more words")
        slot.write(RecoveryState.capture(doc))
        states.append(doc.words())
        sizes.append(slot.data.stat().st_size)
    data = slot.data.read_bytes()
    torn = tmp_path / "torn.stet"
    for cut in sorted({sizes[0] - 1, *range(sizes[0], sizes[-1], 997), sizes[-1] - 1}):
        torn.write_bytes(data[:cut])
        last = max(i for i, size in enumerate(sizes) if size <= cut) if cut >= sizes[0] else None
        if last is None:  # not even the first autosave is whole
            with pytest.raises(FormatError, match="no complete autosave"):
                read_any(torn)
        else:
            assert read_any(torn).words() == states[last], cut


def test_a_recovery_file_larger_than_a_project_may_be_is_read(tmp_path, monkeypatch):
    """A long transcript's autosave can pass the size up to which a project is parsed whole
    (MAX_STET_BYTES): the journal is read a run at a time, so it is not refused."""
    from editor.core.formats import stet

    doc = _doc(5000)
    slot = RecoverySlot.claim(tmp_path)
    slot.write(RecoveryState.capture(doc))
    monkeypatch.setattr(stet, "MAX_STET_BYTES", slot.data.stat().st_size // 4)
    assert _same(read_any(slot.data), doc)


def test_a_taken_over_file_is_written_whole_and_offered_with_its_words(tmp_path):
    doc = _doc(2000)
    old = RecoverySlot.claim(tmp_path)
    old.write(RecoveryState.capture(doc, source="/talks/a.txt"))
    old._lock.release()  # the session died
    (orphan,) = find_orphans(tmp_path)
    assert orphan.info.words == 2000 and orphan.info.name == "a.txt"
    mine = RecoverySlot.claim(tmp_path)
    back = read_any(orphan.data)
    mine.take_over(orphan)
    back.replace_span(0, 1, "after")
    assert mine.write(RecoveryState.capture(back))
    assert read_any(mine.data).words()[0] == "after" and len(read_any(mine.data)) == 2000


JOURNAL_DOC = _doc(600)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(position=st.floats(0, 1), junk=st.binary(max_size=60), replace=st.booleans())
def test_fuzz_a_damaged_journal_is_read_or_refused_in_one_line(tmp_path, position, junk, replace):
    slot = RecoverySlot.claim(tmp_path)
    try:
        slot.write(RecoveryState.capture(JOURNAL_DOC))
        doc, data = JOURNAL_DOC, slot.data.read_bytes()
    finally:
        slot.discard()
        slot.close()
    at = len(JOURNAL_HEAD) + int(position * (len(data) - len(JOURNAL_HEAD)))
    damaged = data[:at] + junk + data[at + (len(junk) if replace else 0):]
    path = tmp_path / "damaged.stet"
    path.write_bytes(damaged)
    try:
        back = read_journal(path)
    except FormatError as err:
        assert "\n" not in str(err)
        return
    for token in back.tokens:
        assert token.word and (token.start is None) == (token.end is None)
    if at >= len(data) - 1 or (not replace and junk.startswith(b"\n")):
        assert back.words() == doc.words()  # damage after the last state's line: all is there


def test_hostile_journals_are_refused_in_one_line(tmp_path):
    state = b'{"state":{"format_version":1,"metadata":{}},"runs":[%s]}\n'
    cases = {
        "head only": JOURNAL_HEAD,
        "missing run": JOURNAL_HEAD + state % b"7",
        "run not a list": JOURNAL_HEAD + b'{"run":1,"tokens":5,"suggestions":[]}\n' + state % b"1",
        "bad token": JOURNAL_HEAD + b'{"run":1,"tokens":[{"id":-3}],"suggestions":[]}\n'
        + state % b"1",
        "duplicate ids": JOURNAL_HEAD + b'{"run":1,"tokens":[{"id":1,"word":"a"}],"suggestions":[]}\n'
        + b'{"run":2,"tokens":[{"id":1,"word":"b"}],"suggestions":[]}\n' + state % b"1,2",
        "huge number": JOURNAL_HEAD + b'{"run":1,"tokens":[{"id":1,"word":"a","start":1e999,'
        b'"end":2}],"suggestions":[]}\n' + state % b"1",
        "bad utf-8": JOURNAL_HEAD + b'{"run":1,"tokens":[{"id":1,"word":"\xff"}],"suggestions":[]}\n'
        + state % b"1",
        "deep": JOURNAL_HEAD + b'{"run":1,"tokens":' + b"[" * 100_000 + b"]" * 100_000
        + b',"suggestions":[]}\n' + state % b"1",
    }
    for name, data in cases.items():
        path = tmp_path / f"{name}.stet"
        path.write_bytes(data)
        with pytest.raises(FormatError) as info:
            read_any(path)
        assert "\n" not in str(info.value), name
    fifo = tmp_path / "fifo.stet"
    os.mkfifo(fifo)
    with pytest.raises(FormatError, match="named pipe"):
        read_journal(fifo)


def test_a_damaged_run_falls_back_to_the_autosave_before(tmp_path):
    doc = _doc(3000)
    slot = RecoverySlot.claim(tmp_path)
    slot.write(RecoveryState.capture(doc))
    before = doc.words()
    size = slot.data.stat().st_size
    doc.replace_span(100, 101, "changed")
    slot.write(RecoveryState.capture(doc))
    data = bytearray(slot.data.read_bytes())
    assert data[size:size + 7] == b'{"run":'  # the run the edit appended
    data[size + 30] = 0xFF  # a byte of it damaged (not valid UTF-8)
    slot.data.write_bytes(bytes(data))
    assert read_any(slot.data).words() == before


def test_captures_of_what_changed_write_the_document_exactly(tmp_path):
    """The window's autosave captures through a DocumentTracker (only the suggestions that
    changed): after any mix of edits, acceptances, rejections, undo and redo, the recovery file
    reads back as the document."""
    import random

    from editor.core.recovery.slots import DocumentTracker

    rng = random.Random(7)
    doc = _doc(6000)
    doc.set_suggestions([Suggestion(t.id, Kind.CASE, t.word.upper(), {t.word.upper(): 0.8})
                         for t in doc.tokens[::7]], text="More")
    slot = RecoverySlot.claim(tmp_path)
    tracker = DocumentTracker(doc)
    for step in range(60):
        action = rng.choice(["type", "accept", "reject", "undo", "redo", "restore", "delete"])
        at = rng.randrange(len(doc) - 3)
        if action == "type":
            doc.replace_span(at, at + 1, f"typed{step} word")
        elif action == "delete":
            doc.delete_span(at, at + 2)
        elif action in ("accept", "reject") and doc.pending():
            s = rng.choice(doc.pending())
            (doc.accept if action == "accept" else doc.reject)(s.token_id, s.kind)
        elif action == "undo" and doc.history.can_undo:
            doc.history.undo()
        elif action == "redo" and doc.history.can_redo:
            doc.history.redo()
        elif action == "restore":
            doc.set_suggestions([Suggestion(t.id, Kind.PUNCT, ".", {".": 0.7, "": 0.3})
                                 for t in doc.tokens[at:at + 50]])
        if step % 3 == 0:
            assert slot.write(tracker.capture(source="/a.txt"))
            assert _same(read_any(slot.data), doc), (step, action)
    assert slot.write(tracker.capture())
    assert _same(read_any(slot.data), doc)
    tracker.close()


def test_an_older_capture_written_after_a_newer_one_is_dropped(tmp_path):
    """A last write at close can pass one still in flight: the older one then changes nothing."""
    from editor.core.recovery.slots import DocumentTracker

    doc = _doc(3000)
    slot = RecoverySlot.claim(tmp_path)
    tracker = DocumentTracker(doc)
    assert slot.write(tracker.capture())
    s = doc.pending()[5]
    doc.accept(s.token_id, s.kind)
    older = tracker.capture()
    doc.replace_span(20, 21, "newer")
    t = doc.pending()[40]
    doc.reject(t.token_id, t.kind)
    newer = RecoveryState.capture(doc)  # what close() writes: everything, numbered later
    assert slot.write(newer)
    assert not slot.write(older)
    assert _same(read_any(slot.data), doc)
    u = doc.pending()[80]
    doc.accept(u.token_id, u.kind)
    assert slot.write(tracker.capture())
    assert _same(read_any(slot.data), doc)


def test_written_ahead_and_after_a_save_the_journal_is_kept_but_never_offered(tmp_path):
    """A long transcript's runs are written ahead when it opens, and kept aside when its work is
    saved: the next autosave appends only what changed. Nothing unsaved is never offered, and a
    gone session's file of that kind is removed."""
    from editor.core.recovery.slots import DocumentTracker

    doc = _doc(20_000)
    slot = RecoverySlot.claim(tmp_path)
    tracker = DocumentTracker(doc)
    assert slot.prime(tracker.capture())
    assert slot.clean_path.exists() and not slot.data.exists()
    ahead = slot.clean_path.stat().st_size
    doc.replace_span(10, 11, "first edit")
    assert slot.write(tracker.capture())
    assert slot.data.exists() and not slot.clean_path.exists()
    assert slot.data.stat().st_size - ahead < ahead / 10 and _same(read_any(slot.data), doc)
    slot.discard()  # saved: nothing to recover
    assert not slot.data.exists() and slot.clean_path.exists()
    doc.replace_span(500, 501, "after the save")
    doc.replace_span(900, 901, "more")
    size = slot.clean_path.stat().st_size if slot.clean_path.exists() else 0
    assert slot.write(tracker.capture())
    assert slot.data.stat().st_size - size < ahead / 10 and _same(read_any(slot.data), doc)
    slot.discard()
    slot._lock.release()  # the session dies with nothing unsaved
    assert find_orphans(tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_writing_ahead_never_replaces_unsaved_work(tmp_path):
    from editor.core.recovery.slots import DocumentTracker

    doc = _doc(3000)
    slot = RecoverySlot.claim(tmp_path)
    tracker = DocumentTracker(doc)
    assert slot.write(tracker.capture())
    assert not slot.prime(tracker.capture())
    assert slot.data.exists() and not slot.clean_path.exists() and _same(read_any(slot.data), doc)
