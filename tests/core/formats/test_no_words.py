"""A file without a word (zero bytes, blank space, a header alone, cues without text) is refused in
one line by every reader, never read as an empty transcript that looks fine."""

import io
import json

import pytest

from editor.core import FormatError, Transcript
from editor.core.formats import READERS, read_any, write_any

ASS_HEAD = ("[Script Info]\nScriptType: v4.00+\n\n[V4+ Styles]\nFormat: Name, Fontname, Fontsize\n"
            "Style: Default,Arial,20\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, "
            "MarginR, MarginV, Effect, Text\n")
TTML = '<?xml version="1.0"?>\n<tt xmlns="http://www.w3.org/ns/ttml"><body><div>{}</div></body></tt>\n'
SAMI = "<SAMI><BODY>{}</BODY></SAMI>\n"

NO_WORDS = {
    ".txt": ["\n\n  \n"],
    ".srt": ["1\n00:00:01,000 --> 00:00:02,000\n\n2\n00:00:03,000 --> 00:00:04,000\n<i></i>\n"],
    ".vtt": ["WEBVTT\n\n", "WEBVTT\n\nNOTE nothing here\n\n00:01.000 --> 00:02.000\n<i> </i>\n"],
    ".sbv": ["0:00:01.000,0:00:02.000\n\n\n0:00:03.000,0:00:04.000\n \n"],
    ".ass": [ASS_HEAD, ASS_HEAD + "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\i1}{\\i0}\n"],
    ".ttml": [TTML.format(""), TTML.format('<p begin="00:00:01.000" end="00:00:02.000"> </p>')],
    ".smi": [SAMI.format("<SYNC Start=1000><P>&nbsp;</P>")],
    ".otr": [json.dumps({"text": "<p> </p>", "media": "a.mp3"})],
    ".md": ["\n\n"],
    ".json": [json.dumps({"segments": []}),  # openai-whisper
              json.dumps({"text": "", "segments": [{"start": 0, "end": 1, "text": " "}]}),
              json.dumps({"result": [], "text": ""}),  # vosk
              json.dumps({"text": ""}),
              json.dumps({"transcription": []})],  # whisper.cpp
    ".jsonl": ['{"result": [], "text": ""}\n{"text": ""}\n'],
}


def _cases():
    for ext in sorted(READERS):
        yield ext, "zero bytes", b""
        if ext not in (".docx", ".stet"):
            yield ext, "blank space", b"  \n\t\n \n"
        for k, text in enumerate(NO_WORDS.get(ext, [])):
            yield ext, f"no words {k}", text.encode("utf-8")


@pytest.mark.parametrize(("ext", "name", "data"), list(_cases()),
                         ids=[f"{e}-{n}" for e, n, _ in _cases()])
def test_a_file_without_words_is_refused_in_one_line(tmp_path, ext, name, data):
    path = tmp_path / f"empty{ext}"
    path.write_bytes(data)
    with pytest.raises(FormatError) as info:
        read_any(path)
    message = str(info.value)
    assert "\n" not in message and str(path) in message
    if data:  # a reader's own complaint (not JSON, no header...) is as good as saying it is empty
        assert any(w in message for w in ("no words", "empty", "not", "no ")), message


@pytest.mark.parametrize("ext", [".stet", ".docx", ".md", ".txt", ".srt", ".vtt", ".json"])
def test_a_transcript_written_without_words_reads_as_none(tmp_path, ext):
    path = tmp_path / f"empty{ext}"
    write_any(Transcript.from_text(""), path)
    with pytest.raises(FormatError, match="no words"):
        read_any(path)


def test_words_in_one_cue_among_empty_ones_are_read(tmp_path):
    path = tmp_path / "a.srt"
    path.write_text("1\n00:00:01,000 --> 00:00:02,000\n\n2\n00:00:03,000 --> 00:00:04,000\nhello\n")
    assert read_any(path).words() == ["hello"]


def test_a_docx_without_text_is_refused(tmp_path):
    import docx

    document = docx.Document()
    document.add_paragraph("   ")
    buffer = io.BytesIO()
    document.save(buffer)
    path = tmp_path / "blank.docx"
    path.write_bytes(buffer.getvalue())
    with pytest.raises(FormatError, match="no words"):
        read_any(path)


@pytest.mark.parametrize("ext", sorted(READERS))
def test_zero_bytes_is_said_as_empty(tmp_path, ext):
    path = tmp_path / f"zero-byte{ext}"
    path.write_bytes(b"")
    with pytest.raises(FormatError, match=rf"zero-byte\{ext}: the file is empty \(0 bytes\)"):
        read_any(path)


def test_a_recovery_journal_may_hold_no_words(tmp_path):
    path = tmp_path / "work.stet"
    write_any(Transcript.from_text(""), path)
    assert len(read_any(path, allow_empty=True)) == 0
