"""GUI tests: offscreen Qt, a private config/data folder, and a tiny random restoration model."""

from collections import Counter
from pathlib import Path

import pytest

WORDS = ["the", "a", "and", "of", "to", "i", "you", "we", "it", "is", "that", "this", "in", "for", "so",
         "what", "how", "okay", "yes", "seed", "library", "station", "table"]


@pytest.fixture(autouse=True)
def private_folders(tmp_path, monkeypatch):
    """Settings, recent files and recovery files of a test never touch the person's own."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory) -> Path:
    import torch

    from editor.restore.model.bilstm_crf import BiLSTMCRF, ModelConfig
    from editor.restore.model.package import export_model
    from editor.restore.model.vocab import Vocab

    torch.manual_seed(0)
    vocab = Vocab.build(Counter({w: 100 - i for i, w in enumerate(WORDS)}), size=len(WORDS) + 2,
                        min_char_count=1)
    cfg = ModelConfig(vocab_size=len(vocab.words), n_chars=len(vocab.chars), word_dim=8, char_dim=4,
                      char_filters=6, hidden=8, layers=2)
    out = tmp_path_factory.mktemp("models") / "tiny"
    export_model(BiLSTMCRF(cfg), vocab, {}, out, name="tiny", decision={"none_scale": 0.3},
                 calibration={"punct_temperature": 1.0, "case_temperature": 1.0},
                 chunking={"size": 40, "overlap": 8, "cut": None, "merge": "owned"}, metrics={})
    return out


@pytest.fixture
def settings(tiny_model_dir):
    from editor.core.settings import Settings

    s = Settings()
    s.set("engine.restore_model", str(tiny_model_dir))
    s.set("engine.device", "cpu")
    return s


@pytest.fixture
def window(qtbot, settings):
    from editor.gui import MainWindow

    w = MainWindow(settings, interactive=False)
    qtbot.addWidget(w)
    w.resize(1000, 700)
    w.show()
    yield w
    # a save's learning still under way would keep what it learned in the next test's folders
    # (its user lexicon and profiles: see private_folders), where that test does not expect it
    qtbot.waitUntil(lambda: not w.learning.running, timeout=60000)


@pytest.fixture
def restored(window, qtbot, tmp_path):
    """The window with the bundled sample open and its restoration finished."""
    from editor.core.paths import resource_path

    with qtbot.waitSignal(window.restoration_finished, timeout=60000):
        window.open_path(resource_path("samples", "sample.txt"))
    assert window.restoration_status == "done", window.restoration_status
    return window
