"""Settings load, save and survive damage; resources are found."""

import json

import pytest

from editor.core.paths import resource_path
from editor.core.settings import Settings


def test_namespaced_keys_round_trip(tmp_path):
    s = Settings()
    s.set("review.high", 0.95)
    s.set("engine.device", "cpu")
    s.set("recent_files", ["/a.srt"])
    s.save(tmp_path / "s.json")
    back, problems = Settings.load(tmp_path / "s.json")
    assert problems == [] and back == s
    assert back.get("review.high") == 0.95
    assert "appearance.font_size" in back.keys()


def test_wrong_types_and_unknown_keys(tmp_path):
    s = Settings()
    with pytest.raises(TypeError):
        s.set("appearance.font_size", "big")
    with pytest.raises(KeyError):
        s.get("review.nope")
    (tmp_path / "s.json").write_text(json.dumps({"review": {"high": "x", "low": 0.5},
                                                  "future": {"thing": 1}}))
    back, problems = Settings.load(tmp_path / "s.json")
    assert back.review.high == 0.9 and back.review.low == 0.5 and len(problems) == 1


@pytest.mark.parametrize("content", ["{", "[1]", "[" * 100000, ""])
def test_damaged_file_gives_defaults(tmp_path, content):
    (tmp_path / "s.json").write_text(content)
    back, problems = Settings.load(tmp_path / "s.json")
    assert back == Settings() and problems


def test_missing_file_is_no_problem(tmp_path):
    assert Settings.load(tmp_path / "none.json") == (Settings(), [])


def test_resource_path_finds_samples(monkeypatch, tmp_path):
    assert resource_path("samples", "sample.srt").is_file()
    monkeypatch.setattr("sys._MEIPASS", str(tmp_path), raising=False)
    assert resource_path("x") == tmp_path / "resources" / "x"


def test_the_suite_never_touches_the_persons_own_stet_data():
    """tests/conftest.py points every data folder of the suite away from the person's own."""
    import tempfile
    from pathlib import Path

    from editor.core.paths import config_dir, data_dir, recovery_dir

    own = Path(tempfile.gettempdir()).resolve()
    for path in (config_dir(), data_dir(), recovery_dir()):
        assert own in path.resolve().parents and "stet-tests-" in str(path)
