"""The catalogue of official models: the shipped snapshot, the official format, refresh over HTTP."""

from __future__ import annotations

import json

import pytest

from editor.asr import models
from editor.asr.catalogue import (cache_path, format_size, load_catalogue, parse_model_list,
                                  refresh_catalogue, snapshot_path)
from editor.asr.errors import AsrError

OFFICIAL = [  # the shape of the official model-list.json
    {"lang": "en-us", "lang_text": "English", "md5": "0123456789abcdef0123456789abcdef",
     "name": "vosk-model-small-en-us-0.15", "obsolete": "false", "size": 41205931,
     "size_text": "39.3MiB", "type": "small",
     "url": "https://alphacephei.com/vosk/models/vosk-model-small-en-us-0.15.zip", "version": "0.15"},
    {"lang": "en-us", "lang_text": "English", "md5": "", "name": "vosk-model-en-us-0.21",
     "obsolete": "true", "size": 1000, "size_text": "1KiB", "type": "big",
     "url": "https://alphacephei.com/vosk/models/vosk-model-en-us-0.21.zip", "version": "0.21"},
    {"lang": "en", "lang_text": "Speaker identification", "md5": "", "name": "vosk-model-spk-0.4",
     "obsolete": "false", "size": 13, "size_text": "13MiB", "type": "spk",
     "url": "https://alphacephei.com/vosk/models/vosk-model-spk-0.4.zip", "version": "0.4"},
]


@pytest.fixture(autouse=True)
def own_models_dir(tmp_path, monkeypatch):
    monkeypatch.setenv(models.DATA_DIR_ENV, str(tmp_path / "models"))


def test_the_shipped_snapshot_is_marked_and_complete():
    data = json.loads(snapshot_path().read_text(encoding="utf-8"))
    assert data["snapshot"] is True and data["taken"]
    cat = load_catalogue()
    assert cat.snapshot and len(cat.entries) >= 40
    names = [e.name for e in cat.entries]
    assert len(names) == len(set(names))
    for e in cat.entries:
        assert e.url == f"https://alphacephei.com/vosk/models/{e.name}.zip"
        assert e.size and not e.size_exact and e.md5 is None
    assert {"en-us", "de", "fr", "es", "ru", "cn", "ko"} <= {e.language for e in cat.entries}
    assert cat.find("vosk-model-small-ko-0.22").language_name == "Korean"
    assert [e.name for e in cat.for_language("en")][0] == "vosk-model-small-en-us-0.15"


def test_the_official_format_parses():
    small, old = parse_model_list(OFFICIAL)  # the speaker model is left out
    assert small.size == 41205931 and small.size_exact and small.md5 == OFFICIAL[0]["md5"]
    assert not small.obsolete and old.obsolete and old.md5 is None
    assert small.size_text == "39 MB"


@pytest.mark.parametrize("bad", [{}, [1], [{"name": "x"}], [{"name": "../x", "url": "u"}], "text"])
def test_a_bad_list_is_refused(bad):
    with pytest.raises(AsrError):
        parse_model_list(bad)


def test_refresh_keeps_the_official_list_and_prefers_it(loopback_server):
    loopback_server.serve("model-list.json", json.dumps(OFFICIAL).encode())
    cat = refresh_catalogue(f"{loopback_server.url}/model-list.json")
    assert not cat.snapshot and len(cat.entries) == 2
    assert cache_path().is_file()
    again = load_catalogue()
    assert not again.snapshot and [e.name for e in again.entries] == [e.name for e in cat.entries]


def test_a_failed_refresh_keeps_what_was_there(loopback_server):
    loopback_server.serve("model-list.json", b"<html>down for maintenance</html>")
    with pytest.raises(AsrError, match="did not send JSON"):
        refresh_catalogue(f"{loopback_server.url}/model-list.json")
    with pytest.raises(AsrError, match="cannot fetch"):
        refresh_catalogue(f"{loopback_server.url}/missing.json")
    assert not cache_path().exists() and load_catalogue().snapshot


def test_a_damaged_cache_falls_back_to_the_snapshot():
    cache_path().parent.mkdir(parents=True)
    cache_path().write_text("{broken", encoding="utf-8")
    assert load_catalogue().snapshot


def test_format_size():
    assert [format_size(n) for n in (0, 999, 2048, 41943040, 1932735283)] == [
        "0 B", "999 B", "2.0 KB", "40 MB", "1.8 GB"]
