"""A text that is not in the restorer's language is not restored unless the person asks again."""

import json
import shutil

import pytest

GERMAN = ("also ich habe mit dem mann gesprochen und er hat gesagt dass die firma im nächsten jahr nach berlin "
          "umziehen will wir waren alle ein bisschen überrascht weil niemand davon wusste")


ENGLISH = ["the", "a", "and", "of", "to", "i", "you", "we", "it", "is", "that", "this", "in", "for", "so", "what"]


@pytest.fixture
def english_window(qtbot, settings, tiny_model_dir, tmp_path):
    from editor.gui import MainWindow
    from editor.restore.package import write_checksums

    model = tmp_path / "tiny-en"
    shutil.copytree(tiny_model_dir, model)
    config = json.loads((model / "config.json").read_text())
    config["language"] = "en"
    (model / "config.json").write_text(json.dumps(config))
    write_checksums(model)
    settings.set("engine.restore_model", str(model))
    w = MainWindow(settings, interactive=False)
    qtbot.addWidget(w)
    w.show()
    return w


def test_another_language_is_not_restored_until_asked_again(english_window, qtbot, tmp_path):
    window = english_window
    src = tmp_path / "interview.txt"
    src.write_text(GERMAN, encoding="utf-8")
    with qtbot.waitSignal(window.restoration_finished, timeout=60_000):
        window.open_path(src)
    assert window.restoration_status.startswith("skipped: ")
    assert "not restored" in window.status_label.text() and "English" in window.status_label.text()
    assert not window.transcript.suggestions()
    with qtbot.waitSignal(window.restoration_finished, timeout=60_000):
        window.start_restoration()  # Restore again: the person asks for it
    assert window.restoration_status == "done"
    assert window.transcript.suggestions()


def test_text_in_the_models_language_is_restored_at_once(english_window, qtbot, tmp_path):
    src = tmp_path / "english.txt"
    src.write_text(" ".join(ENGLISH * 3), encoding="utf-8")
    with qtbot.waitSignal(english_window.restoration_finished, timeout=60_000):
        english_window.open_path(src)
    assert english_window.restoration_status == "done"
