"""Recovery files belong to a session by a lock the OS drops when the process dies, never by PID;
no session writes over another's; what an offer shows is read without restoring anything."""

import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from editor.core.document.transcript import Kind, Suggestion, Token, Transcript
from editor.core.formats import read_any
from editor.core.recovery.reading import journal_info
from editor.core.recovery.slots import RecoverySlot, RecoveryState, find_orphans

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX locks and signals")


def _doc(words=("one", "two", "three")) -> Transcript:
    doc = Transcript([Token(w) for w in words], paragraph_starts=[0, 2])
    doc.set_suggestions([Suggestion(doc[0].id, Kind.PUNCT, ",", {",": 0.7, "": 0.3})])
    return doc


def _state(doc, source="/talks/talk.txt"):
    return RecoveryState.capture(doc, source=source)


def test_the_written_file_is_a_project_with_what_the_offer_shows(tmp_path):
    doc = _doc()
    slot = RecoverySlot.claim(tmp_path)
    assert slot.write(_state(doc))
    back = read_any(slot.data)
    assert back.words() == doc.words() and back.paragraph_starts == [0, 2]
    assert [(s.token_id, s.kind, s.value) for s in back.suggestions()] == \
        [(doc[0].id, Kind.PUNCT, ",")]
    info = journal_info(slot.data)
    assert info["source"] == "/talks/talk.txt" and info["words"] == 3


def test_a_large_document_is_written_whole(tmp_path):
    doc = Transcript([Token(f"w{i}") for i in range(5003)])  # more than one slice of records
    slot = RecoverySlot.claim(tmp_path)
    slot.write(_state(doc))
    assert read_any(slot.data).words() == doc.words()


def test_a_live_session_is_never_offered(tmp_path):
    slot = RecoverySlot.claim(tmp_path)
    slot.write(_state(_doc()))
    assert find_orphans(tmp_path) == []  # this process holds its lock


def test_two_sessions_with_the_same_pid_keep_their_own_files(tmp_path, monkeypatch):
    """Under a PID namespace every session may be PID 1."""
    monkeypatch.setattr(os, "getpid", lambda: 1)
    first, second = RecoverySlot.claim(tmp_path), RecoverySlot.claim(tmp_path)
    assert first.data != second.data
    first.write(_state(_doc(("first", "session"))))
    second.write(_state(_doc(("second", "one", "here"))))
    assert read_any(first.data).words() == ["first", "session"]
    assert read_any(second.data).words() == ["second", "one", "here"]
    assert find_orphans(tmp_path) == []  # both alive


CHILD = textwrap.dedent("""
    import os, sys, time
    from editor.core.document.transcript import Token, Transcript
    from editor.core.recovery.slots import RecoverySlot, RecoveryState
    os.getpid = lambda: int(sys.argv[2])  # the PID a namespace or a reboot would give
    slot = RecoverySlot.claim(__import__('pathlib').Path(sys.argv[1]))
    slot.write(RecoveryState.capture(Transcript([Token(w) for w in ("saved", "words")]),
                                     source="/talks/crashed.txt"))
    print(slot.data, flush=True)
    time.sleep(600)
""")


def _crashing_session(folder, pid):
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(folder), str(pid)],
                             stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": os.getcwd()})
    path = child.stdout.readline().strip()
    return child, path


def test_a_dead_session_is_offered_even_when_its_pid_is_alive(tmp_path):
    """The dead session's PID is ours (reused): it is still offered, because its lock is gone."""
    child, path = _crashing_session(tmp_path, os.getpid())
    try:
        assert find_orphans(tmp_path) == []  # alive: its lock is held
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    (orphan,) = find_orphans(tmp_path)
    assert str(orphan.data) == path and str(os.getpid()) in orphan.name
    assert orphan.info.name == "crashed.txt" and orphan.info.words == 2
    assert orphan.info.saved == pytest.approx(orphan.data.stat().st_mtime)


def test_an_offered_file_is_not_offered_twice_at_once(tmp_path):
    child, _path = _crashing_session(tmp_path, 4242)
    child.send_signal(signal.SIGKILL)
    child.wait()
    (orphan,) = find_orphans(tmp_path)  # held by us while offered
    probe = ("import sys; from pathlib import Path; from editor.core.recovery.slots import find_orphans;"
             "print(len(find_orphans(Path(sys.argv[1]))))")

    def others_see() -> int:
        return int(subprocess.run([sys.executable, "-c", probe, str(tmp_path)], check=True,
                                  capture_output=True, text=True,
                                  env={**os.environ, "PYTHONPATH": os.getcwd()}).stdout)

    assert others_see() == 0
    orphan.release()  # kept for later
    assert others_see() == 1 and orphan.data.exists()


def test_taking_over_and_discarding(tmp_path):
    for pid in (11, 12):
        child, _ = _crashing_session(tmp_path, pid)
        child.send_signal(signal.SIGKILL)
        child.wait()
    first, second = find_orphans(tmp_path)
    mine = RecoverySlot.claim(tmp_path)
    mine.take_over(first)
    assert read_any(mine.data).words() == ["saved", "words"] and not first.data.exists()
    assert not first.lock_path.exists()
    second.discard()
    assert not second.data.exists() and not second.lock_path.exists()
    assert find_orphans(tmp_path) == []
    mine.discard()
    mine.close()
    assert sorted(tmp_path.iterdir()) == []  # nothing left behind


def test_a_discarded_state_is_not_written_afterwards(tmp_path):
    slot = RecoverySlot.claim(tmp_path)
    state, generation = _state(_doc()), slot.generation
    slot.discard()  # saved meanwhile
    assert not slot.write(state, generation) and not slot.data.exists()


def test_closing_with_work_left_makes_it_an_orphan(tmp_path):
    slot = RecoverySlot.claim(tmp_path)
    slot.write(_state(_doc()))
    slot.close()
    (orphan,) = find_orphans(tmp_path)
    assert orphan.data == slot.data
    assert not slot.write(_state(_doc()))  # a closed slot writes nothing


def test_an_older_stet_autosave_without_a_lock_is_offered(tmp_path):
    doc = _doc()
    slot = RecoverySlot.claim(tmp_path / "x")
    slot.write(_state(doc))
    legacy = tmp_path / "session-123.stet"
    legacy.write_bytes(slot.data.read_bytes())
    (tmp_path / "session-123.json").write_text(json.dumps({"source": "/a/old.txt", "saved": 1.0}))
    (orphan,) = find_orphans(tmp_path)
    assert orphan.info.name == "old.txt" and orphan.info.words == 3


def test_lock_files_of_sessions_killed_before_any_autosave_are_cleaned(tmp_path):
    code = ("import sys, time; from pathlib import Path;"
            "from editor.core.recovery.slots import RecoverySlot;"
            "slot = RecoverySlot.claim(Path(sys.argv[1])); print('ok', flush=True);"
            "time.sleep(600)")
    child = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)],
                             stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": os.getcwd()})
    assert child.stdout.readline().strip() == "ok"
    mine = RecoverySlot.claim(tmp_path)  # alive, nothing written: its lock stays
    assert find_orphans(tmp_path) == [] and len(list(tmp_path.glob("*.lock"))) == 2
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert find_orphans(tmp_path) == []
    assert list(tmp_path.glob("*.lock")) == [mine.lock_path]


def test_encoding_again_after_edits_reuses_only_what_did_not_change(tmp_path):
    from editor.core.recovery.slots import EncodeCache

    words = [f"w{i}" for i in range(3000)]
    doc = Transcript([Token(w) for w in words], paragraph_starts=[0, 700, 2100])
    doc.set_suggestions([Suggestion(t.id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})
                         for t in doc.tokens[::2]]
                        + [Suggestion(t.id, Kind.CASE, t.word.upper(), {t.word.upper(): 0.9})
                           for t in doc.tokens[::5]])
    cache = EncodeCache()

    def same() -> bool:
        state = _state(doc)
        return state.encode(cache) == state.encode()

    assert same() and same()
    doc.replace_span(10, 11, "inserted words here")  # a run grows
    assert same()
    doc.delete_span(1500, 1600)  # runs shrink, one boundary token goes
    assert same()
    s = doc.pending()[700]
    doc.accept(s.token_id, s.kind)  # a suggestion changes state
    assert same()
    doc.replace_span(0, 0, "first")  # before everything
    assert same()
    back = read_any(_written(tmp_path, doc))
    assert back.words() == doc.words() and back.paragraph_starts == doc.paragraph_starts
    assert [(x.token_id, x.kind, x.state) for x in back.suggestions()] == \
        [(x.token_id, x.kind, x.state) for x in doc.suggestions()]


def _written(folder, doc):
    slot = RecoverySlot.claim(folder)
    for _ in range(2):  # the second time from the cache
        slot.write(_state(doc))
    return slot.data
