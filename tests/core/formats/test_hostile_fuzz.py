"""Every reader, fuzzed from valid files: real-world files of each format (tests/corpus/files) and
what each of Stet's writers produces, in every script of tests/hostile.py, mutated by hypothesis
(bytes deleted, inserted, replaced, duplicated; numbers made huge, negative or fractional). Each
read ends in a document that makes sense or in one FormatError of one line: never another
exception, never a hang."""

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from editor.core import FormatError, Transcript
from editor.core.formats import READERS, WRITERS, read_any, write_any
from editor.core.formats._common import MAX_SECONDS
from tests import hostile
from tests.hostile import deadline

CORPUS = Path(__file__).parents[2] / "corpus" / "files"


def _seeds() -> dict[str, tuple[str, bytes]]:
    seeds = {p.name: (p.suffix.lower(), p.read_bytes()) for p in sorted(CORPUS.rglob("*"))
             if p.is_file() and p.suffix.lower() in READERS and p.stat().st_size < 200_000}
    text, words = hostile.TEXTS["english"]
    seeds["vosk.json"] = (".json", json.dumps(hostile.vosk_doc(text)).encode())
    seeds["monologues.json"] = (".json", json.dumps(hostile.transcriber_doc(text)).encode())
    seeds["project.stet"] = (".stet", json.dumps(hostile.stet_doc(words)).encode())
    seeds["vosk.jsonl"] = (".jsonl", b"\n".join(json.dumps({"result": [w]}).encode()
                                               for w in hostile.vosk_doc(text)["result"]))
    seeds["otr.otr"] = (".otr", json.dumps({"text": "<p>Hello <span class=\"timestamp\" "
                                                    "data-timestamp=\"1.5\">00:01</span> world</p>",
                                            "media": "a.mp3"}).encode())
    seeds["youtube.srv3"] = (".srv3", b'<?xml version="1.0" encoding="utf-8" ?><timedtext format="3">\n'
                             b'<head><pen id="1" i="1"/></head><body>\n<p t="80" d="2000" w="1">'
                             b'<s ac="0">hello</s><s t="320" ac="0"> there</s></p>\n<p t="2100" '
                             b'd="1500" p="1">how are\nyou</p>\n</body>\n</timedtext>\n')
    seeds["youtube.json3"] = (".json3", json.dumps({
        "wireMagic": "pb3", "pens": [{}, {"iAttr": 1, "fcForeColor": 16776960}],
        "events": [{"tStartMs": 0, "dDurationMs": 5000, "id": 1, "wpWinPosId": 1, "wsWinStyleId": 1},
                   {"tStartMs": 80, "dDurationMs": 2000, "wWinId": 1, "segs": [
                       {"utf8": "hello", "acAsrConf": 0}, {"utf8": " there", "tOffsetMs": 320}]},
                   {"tStartMs": 2000, "dDurationMs": 100, "wWinId": 1, "aAppend": 1, "segs": [{"utf8": "\n"}]},
                   {"tStartMs": 2100, "dDurationMs": 1500, "pPenId": 1, "segs": [{"utf8": "how are\nyou"}]}]}).encode())
    seeds["youtube_json3.json"] = (".json", seeds["youtube.json3"][1])  # the timedtext API's, saved as .json
    seeds["youtube.srv1"] = (".srv1", b'<?xml version="1.0" encoding="utf-8" ?><transcript><text start="0.08" '
                             b'dur="2.1">hello we&amp;amp;#39;re</text><text start="2.2" dur="1.5">how are\nyou'
                             b'</text></transcript>')
    seeds["youtube.srv2"] = (".srv2", b'<?xml version="1.0" encoding="utf-8" ?><timedtext><window t="0" id="1" '
                             b'op="define"/><text w="1" t="80" d="2100">hello we&amp;#39;re</text><text w="1" '
                             b't="2200" d="1500">how are\nyou</text></timedtext>')
    seeds["noscribe.html"] = (".html", (
        b'<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.0//EN" "http://www.w3.org/TR/REC-html40/strict.dtd">\n'
        b'<html ><head ><meta charset="UTF-8" /><meta name="audio_source" content="talk.mp3" /></head>'
        b'<body > <div class="WordSection1" ><p style="font-weight: 600" >talk</p><p ><span >Transcribed'
        b' with noScribe vers. 0.7<br />Audio file: talk.mp3</span></p><p ><a name="ts_0_4000_" >(4 seconds'
        b' pause) </a></p><p ><a name="ts_4000_6500_S01" >S01: <span >[00:00:04]</span> so the seed library'
        b'</a><a name="ts_6500_7200_S01" > (..)</a><a name="ts_9100_9900_//S02" > //S02: Yes.//</a></p>'
        b'<p ><a name="ts_11500_14000_S02" >S02: <span >[00:00:11]</span> Every Saturday.</a></p></div>'
        b'</body></html>'))
    return seeds


SEEDS = _seeds()
REFUSED = {Path(e["file"]).name for e in json.loads((CORPUS.parent / "manifest.json").read_text(encoding="utf-8"))
           if e["expect"] == "refused"}


def _written() -> dict[str, tuple[str, bytes]]:
    """What each writer makes of a timed document, in each script (a reader must read back what
    Stet writes, and survive it damaged)."""
    import tempfile

    made = {}
    with tempfile.TemporaryDirectory() as folder:
        for script, (text, _words) in hostile.TEXTS.items():
            source = Path(folder) / f"{script}.json"
            source.write_text(json.dumps(hostile.whisper_doc(text), ensure_ascii=False),
                              encoding="utf-8")
            doc = read_any(source)
            for ext in sorted(set(WRITERS) & set(READERS)):
                out = Path(folder) / f"{script}{ext}"
                write_any(doc, out)
                made[f"{script}{ext}"] = (ext, out.read_bytes())
    return made


SEEDS.update(_written())


def test_the_seeds_cover_every_reader():
    assert {ext for ext, _ in SEEDS.values()} >= set(READERS) - {".text", ".ssa", ".sami", ".htm"}



_NUMBER = re.compile(rb"\d+(?:\.\d+)?")
NUMBERS = [b"9" * 40, b"-1", b"1e400", b"0.000001", b"99999999999", b"NaN", b"0"]


def _mutate(raw: bytes, ops: list) -> bytes:
    data = bytearray(raw)
    for op, where, size, junk in ops:
        at = int(where * len(data))
        span = max(1, int(size * 64))
        if op == "delete":
            del data[at:at + span]
        elif op == "insert":
            data[at:at] = junk
        elif op == "replace":
            data[at:at + len(junk)] = junk
        elif op == "duplicate":
            data[at:at] = data[at:at + span * 8]
        elif op == "number":
            found = list(_NUMBER.finditer(bytes(data)))
            if found:
                m = found[int(where * len(found)) % len(found)]
                data[m.start():m.end()] = NUMBERS[int(size * len(NUMBERS)) % len(NUMBERS)]
    return bytes(data)


def _sane(doc: Transcript) -> None:
    for token in doc.tokens:
        assert token.word
        assert (token.start is None) == (token.end is None)
        if token.start is not None:
            assert 0 <= token.start <= token.end <= MAX_SECONDS  # the readers' own limit
        if token.confidence is not None:
            assert 0 <= token.confidence <= 1


mutation = st.tuples(st.sampled_from(["delete", "insert", "replace", "duplicate", "number"]),
                     st.floats(0, 1), st.floats(0, 1), st.binary(min_size=1, max_size=12))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.sampled_from(sorted(SEEDS)), ops=st.lists(mutation, min_size=1, max_size=4))
def test_fuzz_every_reader_from_valid_files(tmp_path, seed, ops):
    ext, raw = SEEDS[seed]
    path = tmp_path / f"fuzz{ext}"
    path.write_bytes(_mutate(raw, ops))
    try:
        with deadline(20):
            doc = read_any(path)
    except FormatError as err:
        assert str(err) and "\n" not in str(err)
        return
    _sane(doc)


@pytest.mark.parametrize("seed", sorted(SEEDS))
def test_every_seed_reads(tmp_path, seed):
    """The seeds themselves read (so the fuzzing starts from valid files), but for the corpus's
    own examples of broken files and of files without words, read leniently or refused in one
    line."""
    ext, raw = SEEDS[seed]
    path = tmp_path / f"seed{ext}"
    path.write_bytes(raw)
    try:
        _sane(read_any(path))
    except FormatError as err:
        assert ("invalid" in seed or seed in REFUSED) and "\n" not in str(err)
