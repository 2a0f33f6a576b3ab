"""Reading never blocks, never reads without bound, and says what a path is when it is no file;
every number read from a file goes through one checked conversion."""

import json
import os
import socket
import time

import pytest

from editor.core import FormatError
from editor.core.formats import _common, read_any
from editor.core.formats._common import MAX_JSON_BYTES, MAX_WORDS, number, read_bytes


def one_line_error(path, match):
    t = time.monotonic()
    with pytest.raises(FormatError, match=match) as info:
        read_any(path)
    assert time.monotonic() - t < 10 and "\n" not in str(info.value)
    return str(info.value)


@pytest.mark.parametrize("ext", [".txt", ".json", ".stet", ".srt"])
def test_a_fifo_is_refused_without_blocking(tmp_path, ext):
    fifo = tmp_path / f"x{ext}"
    os.mkfifo(fifo)
    one_line_error(fifo, "named pipe")


def test_a_link_to_a_device_is_refused_without_reading(tmp_path):
    link = tmp_path / "zero.txt"
    link.symlink_to("/dev/zero")
    one_line_error(link, "a device")
    with pytest.raises(FormatError, match="a device"):
        read_bytes("/dev/zero")


def test_a_socket_is_refused(tmp_path):
    path = tmp_path / "s.json"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        one_line_error(path, "a socket")
    finally:
        server.close()


def test_a_symlink_loop_is_said_to_be_one(tmp_path):
    (tmp_path / "a.txt").symlink_to(tmp_path / "b.txt")
    (tmp_path / "b.txt").symlink_to(tmp_path / "a.txt")
    message = one_line_error(tmp_path / "a.txt", "symbolic link loop")
    assert "no such file" not in message
    (tmp_path / "self.srt").symlink_to(tmp_path / "self.srt")
    one_line_error(tmp_path / "self.srt", "symbolic link loop")


def test_folder_missing_and_dangling_link(tmp_path):
    one_line_error(tmp_path, "folder")
    one_line_error(tmp_path / "missing.txt", "no such file")
    (tmp_path / "dangling.txt").symlink_to(tmp_path / "nowhere.txt")
    one_line_error(tmp_path / "dangling.txt", "no such file")


def test_an_unreadable_file_says_permission_denied(tmp_path, monkeypatch):
    path = tmp_path / "secret.txt"
    path.write_text("hello")
    path.chmod(0)
    if os.geteuid() != 0:  # root reads anything: then only the simulated denial below is real
        one_line_error(path, "permission denied")

    def denied(*_args, **_kw):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(_common.os, "open", denied)
    one_line_error(path, "permission denied")


def test_size_limits_are_checked_before_reading(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as f:  # sparse: no disk used
        f.truncate(MAX_JSON_BYTES + 1)
    one_line_error(big, "too large")
    text = tmp_path / "big.txt"
    with open(text, "wb") as f:
        f.truncate(_common.MAX_TEXT_BYTES + 1)
    one_line_error(text, "too large")


def test_a_file_that_grows_is_read_only_to_the_limit_plus_one_byte(tmp_path, monkeypatch):
    path = tmp_path / "grows.txt"
    path.write_bytes(b"x" * 1000)
    real_fstat, real_read, read = os.fstat, os.read, []

    class Small:  # the size seen when opened, before the file grew
        def __init__(self, st):
            self.st_mode, self.st_size = st.st_mode, 5

    monkeypatch.setattr(_common.os, "fstat", lambda fd: Small(real_fstat(fd)))
    monkeypatch.setattr(_common.os, "read", lambda fd, n: read.append(n) or real_read(fd, n))
    with pytest.raises(FormatError, match="too large"):
        read_bytes(path, limit=10)
    assert sum(read) <= 11
    assert read_bytes(path, limit=1000) == b"x" * 1000


def test_ten_million_words_in_20_mb_of_json_are_refused_quickly(tmp_path):
    path = tmp_path / "10m.json"
    path.write_text(json.dumps({"text": "a " * 10_000_000}))
    t = time.monotonic()
    message = one_line_error(path, "more than 3,000,000 words")
    assert time.monotonic() - t < 30, message  # was 84 s and 5.2 GB before the word limit


def test_the_word_limit_is_exact(tmp_path, monkeypatch):
    monkeypatch.setattr(_common, "MAX_WORDS", 10)
    path = tmp_path / "w.json"
    path.write_text(json.dumps({"text": " ".join(["w"] * 10)}))
    assert len(read_any(path)) == 10
    path.write_text(json.dumps({"text": " ".join(["w"] * 11)}))
    with pytest.raises(FormatError, match="more than 10 words"):
        read_any(path)
    path.write_text(json.dumps({"result": [{"word": "w"}] * 11}))
    with pytest.raises(FormatError, match="more than 10 words"):
        read_any(path)
    stet = tmp_path / "w.stet"
    stet.write_text(json.dumps({"format_version": 1,
                                "tokens": [{"id": i, "word": "w"} for i in range(11)]}))
    with pytest.raises(FormatError, match="more than 10 words"):
        read_any(stet)


def test_limits_keep_the_largest_file_under_2_gb():
    # measured by tests/perf/bench_reader_memory.py: 500 bytes of RAM per word of text (the
    # densest), 49 bytes of RAM per byte of JSON (one-letter Vosk word objects)
    assert MAX_WORDS * 500 < 1.6e9 and MAX_JSON_BYTES * 49 < 1.7e9


HUGE = 10 ** 400  # an int no float holds


@pytest.mark.parametrize("value, message", [
    (HUGE, "too large"), (-HUGE, "too large"), ({"a": 1}, "is an object, not a number"),
    ([1], "is a list, not a number"), ("12", "is the text '12'"), (True, "true/false"),
    (float("inf"), "not a finite number"), (float("nan"), "not a finite number"),
    (5, r"outside 0\.\.1"),
])
def test_number_is_the_one_checked_conversion(value, message):
    with pytest.raises(FormatError, match=message) as info:
        number(value, "f.json", "word 3", "the time", low=0, high=1)
    assert str(info.value).startswith("f.json: word 3: the time") and "\n" not in str(info.value)
    assert number(1, "f", "w") == 1.0 and number(0.5, "f", "w", low=0, high=1) == 0.5


VOSK_WORD = {"word": "x", "start": 0.0, "end": 1.0, "conf": 0.5}
WHISPER_WORD = {"word": "x", "start": 0.0, "end": 1.0, "probability": 0.5}
STET_TOKEN = {"id": 0, "word": "x", "start": 0.0, "end": 1.0, "conf": 0.5}


def _vosk(key, value):
    return {"result": [dict(VOSK_WORD, **{key: value})]}


def _transcriber(key, value):
    return {"monologues": [{"terms": [{"text": "x", "start": 0, "end": 1, "confidence": 1,
                                       key: value}]}]}


def _whisper(key, value):
    return {"segments": [{"start": 0, "end": 1, "words": [dict(WHISPER_WORD, **{key: value})]}]}


def _whisper_segment(key, value):
    return {"segments": [{"start": 0, "end": 1, "text": "x", key: value}]}


def _stet(key, value):
    return {"format_version": 1, "tokens": [dict(STET_TOKEN, **{key: value})]}


def _stet_probs(_key, value):
    return {"format_version": 1, "tokens": [STET_TOKEN],
            "suggestions": [{"token": 0, "kind": "punct", "value": ",", "probs": {",": value}}]}


def _stet_duration(_key, value):
    return {"format_version": 1, "tokens": [STET_TOKEN], "metadata": {"duration": value}}


CASES = [(".json", _vosk, k) for k in ("start", "end", "conf")] + \
    [(".json", _transcriber, k) for k in ("start", "end", "confidence")] + \
    [(".json", _whisper, k) for k in ("start", "end", "probability", "score")] + \
    [(".json", _whisper_segment, k) for k in ("start", "end")] + \
    [(".stet", _stet, k) for k in ("start", "end", "conf")] + \
    [(".stet", _stet_probs, "probs"), (".stet", _stet_duration, "duration")]


@pytest.mark.parametrize("ext, make, key", CASES)
@pytest.mark.parametrize("value, message", [
    (HUGE, "too large"), ({"nested": {"x": 1}}, "is an object, not a number"),
    ([0.5], "is a list"), (1e308 * 10, "not a finite number"), ("0.5", "is the text")])
def test_no_number_field_leaks_an_exception(tmp_path, ext, make, key, value, message):
    if key == "score":
        make = lambda k, v: {"segments": [{"words": [{"word": "x", "score": v}]}]}  # noqa: E731
    path = tmp_path / f"n{ext}"
    data = make(key, value)
    path.write_text(json.dumps(data) if value != 1e308 * 10 else
                    json.dumps(data).replace("Infinity", "1e400"))
    one_line_error(path, message)


def test_an_integer_of_thousands_of_digits_is_one_line(tmp_path):
    path = tmp_path / "digits.json"
    path.write_text('{"result": [{"word": "x", "start": ' + "9" * 5000 + "}]}")
    one_line_error(path, "thousands of digits")


def test_half_a_surrogate_pair_is_refused_and_a_whole_pair_read(tmp_path):
    path = tmp_path / "s.json"
    path.write_text('{"result": [{"word": "\\ud800x", "start": 0, "end": 1}]}')
    one_line_error(path, "broken character")
    path.write_text('{"result": [{"word": "\\ud83d\\ude00", "start": 0, "end": 1}]}')
    assert read_any(path).words() == ["\U0001f600"]
