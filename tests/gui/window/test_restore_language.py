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
    from editor.restore.model.package import write_checksums

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


def test_the_reason_is_said_where_the_suggestions_would_be_and_never_widens_the_window(
        english_window, qtbot, tmp_path):
    window = english_window
    window.resize(1300, 780)
    qtbot.wait(10)
    assert window.width() == 1300
    src = tmp_path / "interview.txt"
    src.write_text(GERMAN, encoding="utf-8")
    with qtbot.waitSignal(window.restoration_finished, timeout=60_000):
        window.open_path(src)
        # another warning (an encoding guessed, a note) is up as the pass ends
        window.statusBar().showMessage("Read as Windows-1252: check the accents", 12_000)
    qtbot.wait(50)
    assert window.width() == 1300  # the long reason ends in "…" (1300 -> 1357 px before)
    assert window.minimumSizeHint().width() <= 1300
    notice = window.panel.notice
    assert notice.isVisible()  # at once, not after the other warning times out
    assert "Not restored" in notice.text() and "English" in notice.text()
    assert "Restore again" in notice.text()
    with qtbot.waitSignal(window.restoration_finished, timeout=60_000):
        window.start_restoration()
    assert not notice.isVisible()  # restored: the suggestions are listed there now


def test_a_long_status_line_never_widens_the_window(english_window, qtbot):
    window = english_window
    window.resize(1000, 700)
    qtbot.wait(10)
    window.status_label.setText("12,345 words — " + "a long reason, " * 40)
    qtbot.wait(50)
    assert window.width() == 1000
    assert window.status_label.text().endswith("a long reason, ")  # the whole text is kept
