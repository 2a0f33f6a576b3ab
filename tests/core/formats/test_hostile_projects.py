""".stet projects are parsed a record at a time (editor/core/formats/stet.py ``_parse_project``), so
a long project opens in the memory its words take: it must read exactly what parsing the whole JSON
would, refuse exactly what that refuses, and bound what a hostile file can make it hold."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from editor.core import FormatError
from editor.core.formats import read_any, stet
from editor.core.formats._common import parse_json
from tests import hostile


def _whole(text: str, path):
    """What the reader said before: the whole JSON parsed, then the project built from it."""
    return stet.transcript_from_stet(parse_json(text, path), path)


def _outcome(read, text, path):
    try:
        doc = read(text, path)
    except FormatError as err:  # refused by both (which fault is named first may differ)
        assert "\n" not in str(err)
        return ("error",)
    return ("doc", doc.words(), doc.paragraph_starts,
            [(s.token_id, s.kind, s.value, s.state) for s in doc.suggestions()],
            doc.metadata)


STET_CASES = [c for c in hostile.cases() if c.filename.endswith(".stet") and c.data is not None]


def test_every_generated_project_reads_as_the_whole_parse_does(tmp_path):
    differ = []
    for case in STET_CASES:
        path = tmp_path / case.filename
        try:
            text = case.data.decode("utf-8")
        except UnicodeDecodeError:
            continue  # refused before any parsing, by both
        if _outcome(stet._parse_project, text, path) != _outcome(_whole, text, path):
            differ.append(case.name)
    assert len(STET_CASES) > 300 and not differ, differ


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10**20) | st.floats(allow_nan=False)
    | st.text(max_size=5),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.sampled_from(["id", "word", "start", "end", "token", "kind", "value",
                                       "probs", "state", "format_version", "tokens",
                                       "suggestions", "metadata", "paragraph_starts"]),
                      children, max_size=4),
    max_leaves=12)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.sampled_from([p for p in hostile._paths(hostile.stet_doc(["a", "b", "c"]))]),
       value=json_values, indent=st.sampled_from([None, 1, "\t"]))
def test_fuzz_a_project_reads_as_the_whole_parse_does(tmp_path, where, value, indent):
    doc = hostile._replace(hostile.stet_doc(["a", "b", "c"]), where, value)
    text = json.dumps(doc, indent=indent)
    path = tmp_path / "p.stet"
    assert _outcome(stet._parse_project, text, path) == _outcome(_whole, text, path)


@pytest.mark.parametrize("text", [
    '{"format_version": 1, "suggestions": [], "tokens": [{"id": 0, "word": "a"}]}',
    '{"tokens": [{"id": 0, "word": "a"}], "format_version": 1}',
    '{"format_version": 1, "tokens": [{"id": 0, "word": "a"}], "tokens": [{"id": 1, "word": "b"}]}',
    '{"format_version": 1, "tokens": true}',
    '{"format_version": 1, "tokens": [{"id": 0, "word": "a"}]} trailing',
    '{"format_version": 1, "tokens": [{"id": 0, "word": "a"},]}',
    '{"format_version": 1, "tokens": [{"id": 0, "word": "a"}],}',
    '{"format_version": 1 "tokens": []}',
    '[1, 2]', '"text"', '', '{', '{"format_version": 1, "tokens": [',
    '{"format_version": 1, "tokens": [{"id": 0, "word": "a"}], "suggestions": [{"token": 0, '
    '"kind": "punct", "value": ",", "probs": {",": NaN}}]}',
])
def test_odd_layouts_read_or_fail_as_the_whole_parse_does(tmp_path, text):
    path = tmp_path / "p.stet"
    assert _outcome(stet._parse_project, text, path) == _outcome(_whole, text, path)
    path.write_text(text, encoding="utf-8")
    try:
        read_any(path)
    except FormatError as err:
        assert "\n" not in str(err)


def test_a_dense_hostile_project_is_refused_before_it_is_parsed(tmp_path, monkeypatch):
    monkeypatch.setattr(stet, "MAX_STET_VALUES", 1000)
    monkeypatch.setattr(stet, "MAX_STET_CONTAINERS", 1000)
    path = tmp_path / "dense.stet"
    path.write_text('{"format_version": 1, "metadata": {"extra": {"x": [' + ",".join(["1"] * 2000)
                    + ']}}, "tokens": []}', encoding="utf-8")
    with pytest.raises(FormatError, match="more values than a transcript"):
        read_any(path)
    path.write_text('{"format_version": 1, "tokens": [' + ",".join(["[]"] * 1500) + "]}")
    with pytest.raises(FormatError, match="more values than a transcript"):
        read_any(path)


def test_a_project_over_its_limit_is_refused_before_it_is_read(tmp_path):
    big = tmp_path / "big.stet"
    with open(big, "wb") as f:  # sparse: no disk used
        f.truncate(stet.MAX_STET_BYTES + 1)
    with pytest.raises(FormatError, match="too large"):
        read_any(big)
