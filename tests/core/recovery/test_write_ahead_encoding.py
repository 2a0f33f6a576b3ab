"""The recovery file's encoder (explicit records, cues encoded once and in pieces, rests between
pieces on a worker thread) writes what the encoder before it wrote: the same bytes for text,
SubRip cues, Vosk timed words and suggestions, and a file the recovery offer reads back whole."""

from __future__ import annotations

import dataclasses
import json
import threading

import pytest

from editor.core.recovery import state as recovery_state
from editor.core.document.transcript import Kind, SourceCue, State, Suggestion, Token, Transcript
from editor.core.formats import read_any
from editor.core.formats import stet as stet_format
from editor.core.formats.stet import cue_record, project_head, suggestion_record, token_record
from editor.core.recovery.slots import EncodeCache, RecoverySlot, RecoveryState
from editor.core.recovery.state import _KINDS, RawJSON, _runs, dumps, head_json


# -- the records as the encoder before this one made them ------------------------------------------
def _old_cue(cue: SourceCue) -> dict:
    item = dataclasses.asdict(cue)
    return {key: list(value) if isinstance(value, tuple) else value
            for key, value in item.items() if value not in (None, "", ())}


def _old_token(t: Token) -> dict:
    item = {"id": t.id, "word": t.word}
    if t.surface != t.word:
        item["surface"] = t.surface
    for key, value in (("punct", t.punct), ("start", t.start), ("end", t.end),
                       ("conf", t.confidence), ("speaker", t.speaker)):
        if value not in (None, ""):
            item[key] = value
    if t.spread:  # kept since pauses are shown only where measured (issue 48)
        item["spread"] = stet_format.SPREAD_NAMES[t.spread]
    return item


def _old_encode(state: RecoveryState) -> bytes:
    """``RecoveryState.encode`` as it was: the whole head encoded at once, cues by asdict."""
    m = state.metadata
    head = project_head(m, cues=[_old_cue(c) for c in m.cues] or None)
    head["paragraph_starts"] = [state.tokens[i].id for i in state.paragraph_starts
                                if 0 < i < len(state.tokens)]
    head["recovery"] = state.info.to_json()
    tables = [{s.token_id: s for s in state.suggestions if s.kind == k} for k in _KINDS]
    runs = list(_runs(state.tokens))
    tokens = [dumps([_old_token(t) for t in run])[1:-1] for run in runs]
    suggestions = [dumps([suggestion_record(s) for t in run for table in tables
                          if (s := table.get(t.id)) is not None])[1:-1] for run in runs]
    return (f'{dumps(head)[:-1]},"tokens":[{",".join(x for x in tokens if x)}],'
            f'"suggestions":[{",".join(x for x in suggestions if x)}]}}').encode()


# -- documents of each kind -----------------------------------------------------------------------
SRT = """1
00:00:00,000 --> 00:00:02,500
<i>Hello</i> there, world.
Second line here

2
00:00:02,500 --> 00:00:05,000 X1:10 X2:20
- Où es-tu?
- Ici & "là"

3
00:00:05,000 --> 00:00:06,000
just words
"""

VOSK = [{"result": [{"conf": 1.0, "end": 0.25, "start": 0.0, "word": "so"},
                    {"conf": 0.0, "end": 0.6, "start": 0.3, "word": "we"},
                    {"conf": 0.42, "end": 1.0, "start": 0.6, "word": "began"}],
         "text": "so we began"},
        {"result": [{"conf": 0.93, "end": 1.5, "start": 1.2, "word": "ça"},
                    {"conf": 0.9, "end": 2.0, "start": 1.5, "word": "marche"}],
         "text": "ça marche"}]


def _suggest(doc: Transcript) -> Transcript:
    """Suggestions of every shape: pending, accepted, rejected, with an original, a choice, a
    lexicon's."""
    t = doc.tokens
    doc.set_suggestions([
        Suggestion(t[0].id, Kind.CASE, t[0].word.title(), {t[0].word.title(): 0.8, t[0].word: 0.2}, needs_start=True),
        Suggestion(t[0].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}),
        Suggestion(t[1].id, Kind.PUNCT, ".", {".": 0.9, "": 0.1}, State.ACCEPTED, original=""),
        Suggestion(t[2].id, Kind.PUNCT, "?", {"?": 0.55, ".": 0.45}, State.REJECTED),
        Suggestion(t[2].id, Kind.CASE, t[2].word.title(), {t[2].word.title(): 1.0}, source="lexicon"),
        Suggestion(t[-1].id, Kind.CASE, t[-1].word.upper(), {t[-1].word.upper(): 1.0},
                   source="choice"),
    ])
    return doc


@pytest.fixture(params=["text", "srt", "vosk"])
def doc(request, tmp_path) -> Transcript:
    if request.param == "text":
        path = tmp_path / "talk.txt"
        path.write_text("so we began the day\n\nwith a walk\n", encoding="utf-8")
    elif request.param == "srt":
        path = tmp_path / "talk.srt"
        path.write_text(SRT, encoding="utf-8")
    else:
        path = tmp_path / "talk.json"
        path.write_text(json.dumps(VOSK), encoding="utf-8")
    read = read_any(path)
    assert bool(read.metadata.cues) == (request.param == "srt")
    return _suggest(read)


def _state(doc: Transcript) -> RecoveryState:
    return RecoveryState.capture(doc, source="/talks/talk")


# -- tests --------------------------------------------------------------------------------------------
def test_the_encoding_is_byte_for_byte_the_old_one(doc):
    state = _state(doc)
    assert state.encode() == _old_encode(state)
    cache = EncodeCache()
    assert state.encode(cache) == state.encode(cache) == _old_encode(state)  # cached: the same


def test_records_are_those_of_the_old_encoder():
    cues = [SourceCue((1, 2, 3), 0.0, 1.5, "a <b>b</b>\nc", ("a", "b", "c."), (3,), "Ann", "7",
                      "00:00:00,000 --> 00:00:01,500 X1:1", "srt"),
            SourceCue((), 2, 3, "", ()),  # nothing optional set
            SourceCue((4,), 3.0, 3.0, "x", ("x",), (), "", "", None, "vtt")]
    for cue in cues:
        assert dumps(cue_record(cue)) == dumps(_old_cue(cue))
    tokens = [Token("w"), Token("w", "W", ".", 0.0, 0.0, 0.0, "", 3),
              Token("x", "x", "", 1.25, 2.5, 1.0, "S1", 4), Token("y", speaker=None)]
    for t in tokens:
        assert dumps(token_record(t)) == dumps(_old_token(t))


def test_the_head_with_cues_made_ahead_is_the_head_encoded_whole(doc):
    head, _ = _state(doc).parts(EncodeCache())
    plain = dict(head, metadata=dict(head["metadata"]))
    if doc.metadata.cues:
        assert isinstance(head["metadata"]["cues"], RawJSON)
        plain["metadata"]["cues"] = [_old_cue(c) for c in doc.metadata.cues]
    assert head_json(head) == dumps(plain)
    with pytest.raises(TypeError):  # never written as a string by a plain encoder
        json.dumps({"x": RawJSON("[]")})


def test_written_from_a_worker_it_is_recovered_whole(doc, tmp_path, monkeypatch):
    """As the Autosaver writes: on a pool thread, resting between pieces (made tiny here, so it
    rests after every piece); the recovery offer then reads the document back."""
    rests = []
    monkeypatch.setattr(recovery_state, "WORK_S", 0.0)
    monkeypatch.setattr(recovery_state, "REST_MAX_S", 0.0)
    real_sleep = recovery_state.time.sleep
    monkeypatch.setattr(recovery_state.time, "sleep",
                        lambda s: (rests.append(threading.current_thread().name), real_sleep(s)))
    slot = RecoverySlot.claim(tmp_path / "recovery")
    state = _state(doc)
    done = []
    worker = threading.Thread(target=lambda: done.append(slot.prime(state) and slot.write(state)),
                              name="writer")
    worker.start()
    worker.join()
    assert done == [True] and rests and set(rests) == {"writer"}
    back = read_any(slot.data)
    assert back.tokens == doc.tokens and back.paragraph_starts == doc.paragraph_starts
    assert back.metadata.cues == doc.metadata.cues
    assert sorted(back.suggestions(), key=lambda s: s.key) == \
        sorted(doc.suggestions(), key=lambda s: s.key)
    rests.clear()
    slot.write(_state(doc))  # on the main thread (a last write at close): no rest
    assert rests == []
    slot.discard()
    slot.close()


def test_cues_are_encoded_once_while_the_metadata_stays(tmp_path, monkeypatch):
    path = tmp_path / "talk.srt"
    path.write_text(SRT, encoding="utf-8")
    doc = _suggest(read_any(path))
    made = []
    monkeypatch.setattr(stet_format, "cue_record",
                        lambda cue: (made.append(cue), dataclasses.asdict(cue))[1])
    cache = EncodeCache()
    first = _state(doc).parts(cache)[0]["metadata"]["cues"]
    assert len(made) == len(doc.metadata.cues)
    doc.accept(doc.pending()[0].token_id, doc.pending()[0].kind)
    again = _state(doc).parts(cache)[0]["metadata"]["cues"]
    assert again is first and len(made) == len(doc.metadata.cues)


def test_writing_ahead_builds_no_head(doc, tmp_path, monkeypatch):
    """A write ahead keeps only runs (no state line): it never encodes the metadata's cues."""
    calls = []
    monkeypatch.setattr(EncodeCache, "cues_json",
                        lambda self, cues, pacer=None: calls.append(cues) or RawJSON("[]"))
    slot = RecoverySlot.claim(tmp_path / "recovery")
    assert slot.prime(_state(doc))
    assert calls == []
    slot.close()


def test_a_replaced_document_s_records_are_let_go_a_piece_at_a_time():
    """What a recovery file's mirror held of the document before is released a piece at a time,
    resting between pieces (freed in one go, 100,000 suggestions held the GIL 50-100 ms)."""
    from editor.core.recovery.state import MIRROR_PIECE, release

    rests = []

    class Counting:
        def rest(self) -> None:
            rests.append(len(table))

    table = {i: object() for i in range(2 * MIRROR_PIECE + 1)}
    release(table, Counting(), MIRROR_PIECE)
    assert table == {} and rests == [MIRROR_PIECE + 1, 1, 0]
