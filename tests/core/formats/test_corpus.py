"""The corpus of files other programs wrote (tests/corpus, see its README): each imports with as
many words as an independent count found, or is refused with one line; subtitles come back out
with every cue as it was, and an edit changes only the cue it touched."""

import json
from pathlib import Path

import pytest

from editor.core import FormatError, RenderPolicy
from editor.core.formats import read_any, write_any

CORPUS = Path(__file__).parents[2] / "corpus"
MANIFEST = json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))
INTACT = [e for e in MANIFEST if e["expect"] == "intact"]
REFUSED = [e for e in MANIFEST if e["expect"] == "refused"]
ROUND_TRIP = [e for e in INTACT if Path(e["file"]).suffix in (".srt", ".vtt", ".sbv")]


def test_corpus_is_large_and_described():
    assert len(MANIFEST) >= 60
    files = {str(p.relative_to(CORPUS / "files")) for p in (CORPUS / "files").rglob("*") if p.is_file()}
    assert files == {e["file"] for e in MANIFEST}
    assert all(e["source"] and e["licence"] and e["count"] for e in MANIFEST)


@pytest.mark.parametrize("entry", INTACT, ids=[e["file"] for e in INTACT])
def test_words_intact(entry):
    doc = read_any(CORPUS / "files" / entry["file"])
    assert len(doc) == entry["words"], [t.text for t in doc.tokens][:40]
    assert all(any(ch.isalnum() for ch in t.text) for t in doc.tokens)


@pytest.mark.parametrize("entry", REFUSED, ids=[e["file"] for e in REFUSED])
def test_refused_in_one_line(entry):
    with pytest.raises(FormatError) as info:
        read_any(CORPUS / "files" / entry["file"])
    message = str(info.value)
    assert "\n" not in message and entry["file"].split("/")[-1] in message
    assert "Traceback" not in message and "Error(" not in message


def _cues(doc):
    return [(c.start, c.end, c.text, c.timing) for c in doc.metadata.cues]


@pytest.mark.parametrize("entry", ROUND_TRIP, ids=[e["file"] for e in ROUND_TRIP])
def test_round_trip_keeps_every_cue(tmp_path, entry):
    source = CORPUS / "files" / entry["file"]
    doc = read_any(source)
    out = tmp_path / f"out{source.suffix}"
    write_any(doc, out, RenderPolicy())
    back = read_any(out)
    assert back.words() == doc.words()
    if doc.metadata.cues:
        assert _cues(back) == _cues(doc)


@pytest.mark.parametrize("entry", ROUND_TRIP, ids=[e["file"] for e in ROUND_TRIP])
def test_an_edit_changes_only_its_cue(tmp_path, entry):
    source = CORPUS / "files" / entry["file"]
    doc = read_any(source)
    cues = doc.metadata.cues
    worded = [n for n, c in enumerate(cues) if c.token_ids]
    if len(worded) < 2:
        pytest.skip("fewer than two cues with words")
    target = worded[len(worded) // 2]
    index = doc.index_of(cues[target].token_ids[0])
    doc.replace_span(index, index + 1, "Zebra")
    out = tmp_path / f"out{source.suffix}"
    write_any(doc, out)
    after = _cues(read_any(out))
    before = _cues(read_any(source))
    assert len(after) == len(before)
    changed = [n for n, (a, b) in enumerate(zip(before, after)) if a[2] != b[2]]
    assert changed == [target]
    assert "Zebra" in after[target][2]
    times = [t for c in after for t in c[:2]]
    assert times == pytest.approx([t for c in before for t in c[:2]], abs=0.0011)
