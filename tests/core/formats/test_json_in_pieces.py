"""A long JSON file is parsed a value at a time (so that the window's thread gets the GIL between
pieces while a file is read in the background): the result and the errors are json.loads's."""

import json

import pytest

from editor.core.errors import FormatError
from editor.core.formats import _common, read_any

SAME = [
    '{"segments": [{"id": 0, "words": [{"word": " hi", "start": 0.5}]}], "language": "en"}',
    ' \n[ {"result" : [ {"word":"a","conf":1} , {"word":"b"} ], "text":"a b"} ,\t{"text": ""} ]\r\n',
    '{"a": 1, "a": [2, {"b": {"c": [3]}}], "d": {}, "e": [], "f": "x\\u00e9\\n", "g": null}',
    '[[], {}, [[[1]]], {"x": {"y": {"z": [1, 2, {"w": true}]}}}, -1.5e3, "s", false]',
    '"just a string"', '42', '[1.0, 2, 3e-2]', '{"k\\"ey": "v"}',
]
BROKEN = ['[1, 2,]', '{"a": 1,}', '{"a" 1}', '{a: 1}', '[1 2]', '[1] x', '{"a": NaN}',
          '[{"a": Infinity}]', '{"a": [1, 2}', '', '[', '{"a": "\\ud800"}', '[1' + ', 1' * 50]


@pytest.fixture
def in_pieces(monkeypatch):
    monkeypatch.setattr(_common, "JSON_IN_PIECES_FROM", 0)  # every text is "long"


@pytest.mark.parametrize("text", SAME)
def test_the_same_result_as_json_loads(in_pieces, text):
    expected = json.loads(text)
    got = _common.parse_json(text, "x.json")
    assert got == expected and type(got) is type(expected)
    if isinstance(expected, dict):
        assert list(got) == list(expected)  # keys in the same order, a repeated one last-wins
    assert _common._loads_in_pieces(text) == expected


@pytest.mark.parametrize("text", BROKEN)
def test_the_same_error_as_a_whole_parse(in_pieces, monkeypatch, text):
    with pytest.raises(FormatError) as pieces:
        _common.parse_json(text, "x.json")
    monkeypatch.setattr(_common, "JSON_IN_PIECES_FROM", 1 << 40)
    with pytest.raises(FormatError) as whole:
        _common.parse_json(text, "x.json")
    assert str(pieces.value) == str(whole.value)


def test_a_long_whisper_file_reads_as_it_did(tmp_path, monkeypatch):
    segments = [{"id": n, "start": n * 3.0, "end": n * 3.0 + 2.5, "text": f" word{n} two",
                 "words": [{"word": f" word{n}", "start": n * 3.0, "end": n * 3.0 + 1,
                            "probability": 0.9},
                           {"word": " two", "start": n * 3.0 + 1.2, "end": n * 3.0 + 2.5,
                            "probability": 0.8}]} for n in range(4000)]
    path = tmp_path / "long.json"
    path.write_text(json.dumps({"segments": segments, "language": "en"}, indent=1))
    assert path.stat().st_size > _common.JSON_IN_PIECES_FROM
    pieces = read_any(path)
    monkeypatch.setattr(_common, "JSON_IN_PIECES_FROM", 1 << 40)
    whole = read_any(path)
    assert len(pieces) == 8000 and pieces.tokens == whole.tokens
    assert pieces.paragraph_starts == whole.paragraph_starts
