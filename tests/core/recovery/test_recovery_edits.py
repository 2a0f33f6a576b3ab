"""The edit journal: every change written as it is made, replayed after the last autosave's state
up to the first change missing, so a kill loses no typing and recovery never guesses."""

import dataclasses
import sys

import pytest

from editor.core.document.transcript import Kind, Suggestion, Token, Transcript
from editor.core.recovery.reading import EDITS_HEAD, read_recovery, replay_edits
from editor.core.recovery.slots import RecoverySlot, RecoveryState
from editor.core.recovery.edits import MAX_ITEMS, ROTATE_BYTES, EditJournal

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX locks")


def _doc(n=40) -> Transcript:
    doc = Transcript([Token(("one", "two", "three", "four")[i % 4]) for i in range(n)],
                     paragraph_starts=[0, n // 2])
    doc.set_suggestions([Suggestion(t.id, Kind.PUNCT, ",", {",": 0.7, "": 0.3})
                         for t in doc.tokens[::3]])
    return doc


def _same(a: Transcript, b: Transcript) -> None:
    assert a.tokens == b.tokens
    assert a.paragraph_starts == b.paragraph_starts
    assert sorted(a.all_suggestions(), key=lambda s: s.key) == sorted(b.all_suggestions(), key=lambda s: s.key)


@pytest.fixture
def live(tmp_path):
    """A document with a state on disk, its edit journal following it (as after an autosave)."""
    doc = _doc()
    slot = RecoverySlot.claim(tmp_path)
    journal = EditJournal(slot.edits_path)
    journal.follow(doc)
    doc.replace_span(0, 1, "first")  # before the state: held by it
    assert slot.write(dataclasses.replace(RecoveryState.capture(doc), edits=journal.seq))
    journal.landed(journal.seq)
    yield doc, slot, journal
    journal.close(remove=True)
    slot.close()


def _recovered(slot) -> Transcript:
    doc, edits = read_recovery(slot.data)
    assert edits is not None
    replay_edits(doc, slot.edits_path, edits)
    return doc


def test_typing_review_and_paragraphs_after_the_state_are_replayed(live):
    doc, slot, journal = live
    for n in range(5):  # a word typed a key at a time, as the view does
        doc.replace_span(3, 3 if n == 0 else 4, "hello"[:n + 1])
    pending = [s.token_id for s in doc.pending()]
    doc.accept(pending[2], Kind.PUNCT)
    doc.reject(pending[3], Kind.PUNCT)
    doc.replace_span(12, 14, "two words\nnew paragraph")
    doc.delete_span(20, 25)
    doc.history.undo()  # the deletion back, ids and all
    doc.set_paragraph_start(30)
    _same(_recovered(slot), doc)
    assert "hello" in _recovered(slot).words()


def test_replay_stops_at_the_first_change_not_written(live):
    doc, slot, journal = live
    doc.replace_span(2, 2, "kept")
    kept = Transcript(doc.tokens, paragraph_starts=doc.paragraph_starts,
                      suggestions=doc.all_suggestions())
    gaps = []
    journal.on_gap = lambda: gaps.append(journal.seq)
    journal.recording = lambda: False
    doc.replace_span(5, 5, "lost")  # not written: nothing after it fits
    journal.recording = lambda: True
    doc.replace_span(0, 0, "after")
    assert gaps == [journal.seq - 1]
    _same(_recovered(slot), kept)


def test_a_change_too_big_for_a_line_is_a_gap(live):
    doc, slot, journal = live
    gaps = []
    journal.on_gap = lambda: gaps.append(True)
    doc.replace_span(0, 0, " ".join(["w"] * (MAX_ITEMS + 1)))
    assert gaps == [True]
    assert _recovered(slot).words()[0] == "first"  # the state alone


def test_a_torn_last_line_is_ignored_and_a_later_state_holds_earlier_lines(live):
    doc, slot, journal = live
    doc.replace_span(0, 0, "one")
    doc.replace_span(0, 0, "two")
    with open(slot.edits_path, "ab") as f:
        f.write(b'{"edit":99,"splice":[0,0,[{"id":')  # a kill mid-write
    recovered = _recovered(slot)
    _same(recovered, doc)
    # a state written after the lines: they are held by it, not applied twice
    assert slot.write(dataclasses.replace(RecoveryState.capture(doc), edits=journal.seq))
    _same(_recovered(slot), doc)


def test_the_journal_is_written_again_short_once_the_state_holds_its_lines(live):
    doc, slot, journal = live
    while slot.edits_path.stat().st_size <= ROTATE_BYTES:
        doc.replace_span(0, 1, "word" if doc[0].word != "word" else "other")
    assert slot.write(dataclasses.replace(RecoveryState.capture(doc), edits=journal.seq))
    journal.landed(journal.seq)
    assert slot.edits_path.read_bytes() == EDITS_HEAD
    doc.replace_span(0, 0, "then")
    _same(_recovered(slot), doc)


def test_a_journal_of_another_document_or_hostile_lines_apply_nothing_wrong(live, tmp_path):
    doc, slot, journal = live
    state = Transcript(doc.tokens, paragraph_starts=doc.paragraph_starts,
                       suggestions=doc.all_suggestions())
    seq = journal.seq
    hostile = [b'{"edit":%d,"splice":[999,0,[]]}' % (seq + 1),
               b'{"edit":%d,"splice":[0,0,[{"id":%d,"word":"x"}]]}' % (seq + 1, doc[5].id),
               b'{"edit":%d,"suggestions":[[0,[{"token":0,"kind":"nope"}]]]}' % (seq + 1),
               b'{"edit":%d,"what":1}' % (seq + 1), b'[1,2]', b'{"edit":"1"}', b'\xff\xfe']
    for line in hostile:
        slot.edits_path.write_bytes(EDITS_HEAD + line + b"\n")
        _same(_recovered(slot), state)
    slot.edits_path.write_bytes(b"not a journal\n")
    _same(_recovered(slot), state)
    slot.edits_path.unlink()
    _same(_recovered(slot), state)


def test_a_journal_that_cannot_be_written_asks_for_one_autosave_not_one_a_key(tmp_path):
    doc = _doc()
    gaps = []
    journal = EditJournal(tmp_path / "gone" / "session.edits", on_gap=lambda: gaps.append(True))
    journal.follow(doc)
    for n in range(5):
        doc.replace_span(0, 0, f"key{n}")
    assert journal.failed and gaps == [True] and journal.seq == 5
    (tmp_path / "gone").mkdir()
    journal.reset()  # after a save: tried again
    doc.replace_span(0, 0, "again")
    assert journal.failed is None and journal.path.exists()
    journal.close(remove=True)
    assert not journal.path.exists()
