"""A file whose lines came in two encodings (a UTF-8 file and a Windows-1252 one joined, a UTF-8
line pasted into an old file) reads each line in its own: before, the whole file was read as
Windows-1252 and its UTF-8 lines came out as mojibake ("CafÃ©")."""

import pytest

from editor.core.decoding import decode_source, decode_text
from editor.core.formats import read_any, write_any

from tests.core.decoding.test_legacy_encodings import FRENCH, GERMAN

UTF8_PART = "Le café est fermé, dit Zoë.\nÇa coûte 3 € à Besançon.\n"


def test_each_line_is_read_in_its_encoding():
    data = UTF8_PART.encode("utf-8") + b"plain ascii line\n" + FRENCH.encode("cp1252")
    text, warnings = decode_text(data, "x.txt")
    assert text == UTF8_PART + "plain ascii line\n" + FRENCH
    assert "Ã" not in text
    assert len(warnings) == 1
    legacy = sum(not line.isascii() for line in FRENCH.splitlines())
    assert "2 lines read as UTF-8" in warnings[0] and f"{legacy} lines as Windows-1252 (cp1252)" in warnings[0]
    assert "French" in warnings[0]


def test_a_utf8_file_with_its_byte_order_mark_joined_to_a_legacy_one():
    """Before, refused: "not valid UTF-8 despite its byte-order mark"."""
    data = b"\xef\xbb\xbf" + UTF8_PART.encode() + FRENCH.encode("cp1252")
    text, warnings, decoding = decode_source(data, "x.srt")
    assert text == UTF8_PART + FRENCH and "mixes encodings" in warnings[0]
    assert decoding.codec == "utf-8" and decoding.bom  # written back with its mark


def test_the_legacy_lines_code_page_is_guessed_from_them_alone():
    polish = "Zażółć gęślą jaźń, powiedział.\nNie wiem, co się stało z tą książką.\n" * 4
    data = polish.encode("cp1250") + UTF8_PART.encode("utf-8")
    text, warnings = decode_text(data, "x.srt")
    assert text == polish + UTF8_PART
    assert "Windows-1250" in warnings[0]


def test_a_file_in_one_legacy_encoding_is_read_as_before():
    data = GERMAN.encode("cp1252")
    text, warnings = decode_text(data, "x.txt")
    assert text == GERMAN and "mixes" not in warnings[0]


def test_chinese_in_gb18030_beside_utf8_is_read_whole_as_before():
    """Lines of a multi-byte code page are not read line by line: the file's one encoding is
    guessed as before."""
    chinese = "你好，今天天气很好。我们去公园散步吧。\n" * 6
    data = chinese.encode("gb18030") + "Café\n".encode()
    _text, warnings = decode_text(data, "x.txt")
    assert "mixes" not in " ".join(warnings)


def test_a_mixed_subtitle_file_reads_and_is_written_back_as_utf8(tmp_path):
    cues = ("1\n00:00:01,000 --> 00:00:02,000\nLe café est fermé.\n\n"
            "2\n00:00:03,000 --> 00:00:04,000\n")
    data = cues.encode("utf-8") + "L'élève a déjà fini, c'est très bien.\n".encode("cp1252")
    path = tmp_path / "joined.srt"
    path.write_bytes(data)
    doc = read_any(path)
    assert " ".join(doc.words()) == "le café est fermé l'élève a déjà fini c'est très bien"
    assert any("mixes encodings" in w for w in doc.metadata.warnings)
    out = tmp_path / "out.srt"
    write_any(doc, out)
    assert out.read_bytes() == (cues + "L'élève a déjà fini, c'est très bien.\n").encode("utf-8")


@pytest.mark.parametrize("encoding", ["utf-8", "cp1252"])
def test_a_named_encoding_decides(encoding):
    data = UTF8_PART.encode("utf-8") + FRENCH.encode("cp1252")
    if encoding == "utf-8":
        with pytest.raises(Exception, match="not valid utf-8"):
            decode_source(data, "x.txt", encoding)
    else:
        text, warnings, _ = decode_source(data, "x.txt", encoding)
        assert "CafÃ©" not in text and "cafÃ©" in text and not warnings
