"""Hostile files end in one FormatError or a sane document — never another exception or a hang."""

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from editor.core import FormatError, Transcript
from editor.core.formats import READERS, read_any

EXTENSIONS = sorted(READERS)


def assert_sane(doc: Transcript) -> None:
    for token in doc.tokens:
        assert token.word
        assert (token.start is None) == (token.end is None)
        if token.start is not None:
            assert math.isfinite(token.start) and 0 <= token.start <= token.end
        if token.confidence is not None:
            assert 0 <= token.confidence <= 1


def read_or_format_error(path):
    try:
        doc = read_any(path)
    except FormatError as err:
        assert str(err) and "\n" not in str(err)
        return None
    assert_sane(doc)
    return doc


HOSTILE = {
    "nul_bytes": b"hello\0world\0" * 50,
    "random_bytes": bytes(range(256)) * 8,
    "empty": b"",
    "truncated_json": b'{"result": [{"word": "hi", "start": 0.1, "en',
    "deep_json": b"[" * 100_000 + b"]" * 100_000,
    "deep_object": b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    "nan_json": b'{"result": [{"word": "x", "start": NaN, "end": 1}]}',
    "reversed_srt": b"1\n00:00:09,000 --> 00:00:01,000\nbackwards\n",
    "absurd_srt": b"1\n99999999:00:00,000 --> 99999999:00:01,000\nlater\n",
    "absurd_vosk": json.dumps({"result": [{"word": "x", "start": 1e300, "end": 1e301}]}).encode(),
    "negative_vosk": json.dumps({"result": [{"word": "x", "start": -5, "end": -1}]}).encode(),
    "string_times": json.dumps({"result": [{"word": "x", "start": "0", "end": "1"}]}).encode(),
    "huge_word": b"a" * 1_000_000,
    "huge_word_srt": b"1\n00:00:01,000 --> 00:00:02,000\n" + b"b" * 1_000_000 + b"\n",
    "not_vtt": b"1\n00:00:01,000 --> 00:00:02,000\nhello\n",
    "bad_utf8_json": b'{"text": "\xff\xfe\xfd"}',
    "wrong_types": json.dumps({"segments": [{"words": [{"word": 5}]}], "tokens": 3}).encode(),
    "stet_garbage": json.dumps({"format_version": 1, "tokens": [{"id": "x"}]}).encode(),
    "stet_bad_suggestion": json.dumps({"format_version": 1, "tokens": [{"id": 0, "word": "a"}],
                                       "suggestions": [{"token": [0], "kind": "punct"}]}).encode(),
    "json_list_of_numbers": b"[1, 2, 3]",
    "utf16_odd_length": b"\xff\xfeh\x00i\x00!",
}


@pytest.mark.parametrize("ext", EXTENSIONS)
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_file(tmp_path, name, ext):
    path = tmp_path / f"{name}{ext}"
    path.write_bytes(HOSTILE[name])
    read_or_format_error(path)


@pytest.mark.parametrize("ext", EXTENSIONS)
def test_directory_and_missing_file(tmp_path, ext):
    folder = tmp_path / f"folder{ext}"
    folder.mkdir()
    with pytest.raises(FormatError, match="folder"):
        read_any(folder)
    with pytest.raises(FormatError, match="no such file"):
        read_any(tmp_path / f"missing{ext}")


def test_error_names_file_and_line(tmp_path):
    path = tmp_path / "bad.srt"
    path.write_text("1\n00:00:01,000 --> 00:00:02,000\nhello\n\n2\n00:00:03 -> 4\nbye\n")
    with pytest.raises(FormatError) as info:
        read_any(path)
    assert str(path) in str(info.value) and "line" in str(info.value)
    path = tmp_path / "bad.json"
    path.write_text('{\n"result": [\n}')
    with pytest.raises(FormatError, match="line 3"):
        read_any(path)


def test_binary_text_is_refused(tmp_path):
    path = tmp_path / "a.txt"
    path.write_bytes(b"\x01\x02\x03\x04 hello \x05\x06\x07\x08" * 20)
    with pytest.raises(FormatError, match="binary"):
        read_any(path)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=300), ext=st.sampled_from(EXTENSIONS))
def test_fuzz_random_bytes(tmp_path, data, ext):
    path = tmp_path / f"fuzz{ext}"
    path.write_bytes(data)
    read_or_format_error(path)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(["result", "text", "word", "start", "end", "conf",
                                       "segments", "words", "format_version", "tokens", "id",
                                       "monologues", "terms", "speaker", "suggestions"]),
                      children, max_size=5),
    max_leaves=20)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=json_values, ext=st.sampled_from([".json", ".jsonl", ".stet"]))
def test_fuzz_json_shapes(tmp_path, value, ext):
    path = tmp_path / f"fuzz{ext}"
    path.write_text(json.dumps(value))
    read_or_format_error(path)


cue_time = st.integers(0, 10**8).map(
    lambda ms: f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cues=st.lists(st.tuples(cue_time, cue_time, st.text(max_size=30)), max_size=5),
       ext=st.sampled_from([".srt", ".vtt"]))
def test_fuzz_subtitles(tmp_path, cues, ext):
    head = "WEBVTT\n\n" if ext == ".vtt" else ""
    sep = "." if ext == ".vtt" else ","
    body = "\n".join(f"{n}\n{a.replace(',', sep)} --> {b.replace(',', sep)}\n{text}\n"
                     for n, (a, b, text) in enumerate(cues, 1))
    path = tmp_path / f"fuzz{ext}"
    path.write_text(head + body, encoding="utf-8", errors="surrogatepass")
    read_or_format_error(path)


# -- the generated set (tests/hostile.py): every format, encoding, special file, number and type --
import contextlib  # noqa: E402
import io  # noqa: E402
from pathlib import Path  # noqa: E402

from tests import hostile  # noqa: E402
from tests.hostile import deadline  # noqa: E402

from editor import cli  # noqa: E402

ALL_CASES = list(hostile.cases())
CATEGORIES = sorted({c.name.split("-")[0] for c in ALL_CASES})



def _problems_reading(case, folder: Path) -> str | None:
    path = case.build(folder)
    try:
        with deadline(20):
            doc = read_any(path)
    except FormatError as err:
        return "a two-line message" if "\n" in str(err) else None
    except Exception as err:  # noqa: BLE001 - every other exception is the failure being sought
        return f"{type(err).__name__}: {str(err)[:120]}"
    try:
        assert_sane(doc)
    except AssertionError:
        return "an insane document"
    if case.words is not None and tuple(doc.words()) != case.words:
        return f"read 0 but words changed: {doc.words()[:8]}"
    return None


@pytest.mark.parametrize("category", CATEGORIES)
def test_generated_hostile_files_are_read_or_refused_in_one_line(tmp_path, category):
    failures = []
    try:
        for i, case in enumerate(c for c in ALL_CASES if c.name.split("-")[0] == category):
            folder = tmp_path / str(i)
            folder.mkdir()
            problem = _problems_reading(case, folder)
            if problem:
                failures.append(f"{case.name}: {problem}")
    finally:
        hostile.close_sockets()
    assert not failures, "\n".join(failures)


OUTPUTS = (".txt", ".srt", ".stet", ".json", ".vtt", ".md", ".docx")


@pytest.mark.parametrize("category", CATEGORIES)
def test_generated_hostile_files_through_stet_convert(tmp_path, category):
    """`stet convert` in process (every other case, every special file; outputs rotating over every
    writer): exit 0, 1 or 2 only, an error is one line, and a conversion that succeeds keeps the
    words."""
    failures = []
    try:
        chosen = hostile.sample([c for c in ALL_CASES if c.name.split("-")[0] == category], 2)
        for i, case in enumerate(chosen):
            folder = tmp_path / str(i)
            folder.mkdir()
            path = case.build(folder)
            out = folder / f"out{OUTPUTS[i % len(OUTPUTS)]}"
            err = io.StringIO()
            try:
                with deadline(20), contextlib.redirect_stderr(err), \
                        contextlib.redirect_stdout(io.StringIO()):
                    code = cli.main(["convert", str(path), "-o", str(out)])
            except SystemExit as exit_:
                code = exit_.code
            except Exception as exc:  # noqa: BLE001
                failures.append(f"{case.name} -> {out.suffix}: {type(exc).__name__}: {exc}")
                continue
            errors = [line for line in err.getvalue().splitlines() if line.startswith("stet: error:")]
            if code not in (0, 1, 2) or (code == 1 and len(errors) != 1):
                failures.append(f"{case.name} -> {out.suffix}: exit {code}, {err.getvalue()!r}")
            elif code == 0 and case.words is not None and out.suffix in (".stet", ".json"):
                if tuple(read_any(out).words()) != case.words:
                    failures.append(f"{case.name} -> {out.suffix}: exit 0 but words changed")
    finally:
        hostile.close_sockets()
    assert not failures, "\n".join(failures)


def test_the_generated_set_covers_every_kind():
    names = [c.name for c in ALL_CASES]
    assert len(names) == len(set(names)) and len(names) > 1000
    assert {"enc", "special", "num", "type", "stet", "raw", "crlf", "bom"} <= set(CATEGORIES)
    specials = {c.special for c in ALL_CASES if c.special}
    assert {"fifo", "dev_zero", "loop", "folder", "unreadable", "socket"} <= specials


# -- hypothesis: valid documents with one node replaced by anything JSON can hold ------------------
hostile_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-10**400, max_value=10**400)
    | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4),
                                                                       children, max_size=3),
    max_leaves=8)
_TEXT, _WORDS = hostile.TEXTS["english"]
BASE_DOCS = {".json": [hostile.vosk_doc(_TEXT), hostile.whisper_doc(_TEXT),
                       hostile.transcriber_doc(_TEXT)],
             ".stet": [hostile.stet_doc(_WORDS)]}
DOC_PATHS = [(ext, n, path) for ext, docs in BASE_DOCS.items() for n, doc in enumerate(docs)
             for path in hostile._paths(doc)]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.sampled_from(DOC_PATHS), value=hostile_values)
def test_fuzz_one_node_of_a_valid_document(tmp_path, where, value):
    ext, n, path = where
    doc = hostile._replace(BASE_DOCS[ext][n], path, value)
    file = tmp_path / f"fuzz{ext}"
    file.write_text(json.dumps(doc), encoding="utf-8")
    got = read_or_format_error(file)
    if got is not None and hostile._is_number_field(path):
        assert got.words() == _WORDS  # a number changed: never the words
