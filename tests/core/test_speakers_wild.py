"""Speakers as real tools write them: meeting platforms' and transcription services' exports,
diarizing recognisers' JSON. Each file here is shaped as the tool writes it."""

import json

from editor.core import render
from editor.core.formats import read_any, write_any
from editor.core.speakers import speakers_in_order


def _read(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return read_any(path)


def _turns(doc):
    out = []
    for t in doc.tokens:
        if not out or out[-1][0] != t.speaker:
            out.append((t.speaker, []))
        out[-1][1].append((t.surface or t.word) + t.punct)
    return [(name, " ".join(words)) for name, words in out]


# -- insanely-fast-whisper (transformers' pipeline, pyannote for speakers) ------------------------
def test_insanely_fast_whisper_speakers_and_chunks(tmp_path):
    """Its --diarization output: {"speakers": [{speaker, text, timestamp}], "chunks", "text"}; the
    chunks alone (no diarization: "speakers" is empty) still give the words their times."""
    chunks = [{"timestamp": [0.0, 2.1], "text": " Welcome back to the show."},
              {"timestamp": [2.5, 4.0], "text": " Thanks for having me."},
              {"timestamp": [4.2, None], "text": " Great."}]
    speakers = [{"speaker": "SPEAKER_00", "text": " Welcome back to the show.", "timestamp": [0.0, 2.1]},
                {"speaker": "SPEAKER_01", "text": " Thanks for having me.", "timestamp": [2.5, 4.0]},
                {"speaker": "SPEAKER_00", "text": " Great.", "timestamp": [4.2, None]}]
    text = "".join(c["text"] for c in chunks)
    doc = _read(tmp_path, "ifw.json", json.dumps({"speakers": speakers, "chunks": chunks, "text": text}))
    assert _turns(doc) == [("SPEAKER_00", "Welcome back to the show."),
                           ("SPEAKER_01", "Thanks for having me."), ("SPEAKER_00", "Great.")]
    assert doc[5].start == 2.5 and doc[9].start == 4.2
    plain = _read(tmp_path, "plain.json", json.dumps({"speakers": [], "chunks": chunks, "text": text}))
    assert render(plain, speakers=False).split() == text.split() and plain[5].start == 2.5
    write_any(doc, tmp_path / "out.srt")
    assert speakers_in_order(read_any(tmp_path / "out.srt")) == ["SPEAKER_00", "SPEAKER_01"]
