"""The window and the process: the collector is never left off, and loading restorers does not
keep lowering torch's thread count."""

import gc

from editor.core.paths import resource_path

SAMPLE = resource_path("samples", "sample.txt")


def test_closing_mid_restoration_leaves_the_collector_on(window, tmp_path, qtbot):
    words = SAMPLE.read_text(encoding="utf-8").split() * 20
    source = tmp_path / "long.txt"
    source.write_text(" ".join(words), encoding="utf-8")
    window.open_path(source)
    # (a transcript this long has its pass started in a turn after it is shown: restoration_follows)
    qtbot.waitUntil(lambda: window.restoration.running, timeout=10_000)
    assert not gc.isenabled()
    window.close()
    assert gc.isenabled()


def test_closing_before_a_long_transcripts_pass_starts_means_it_never_starts(window, tmp_path, qtbot):
    words = SAMPLE.read_text(encoding="utf-8").split() * 20
    source = tmp_path / "long.txt"
    source.write_text(" ".join(words), encoding="utf-8")
    started: list[int] = []
    window.restoration.started.connect(started.append)
    window.open_path(source)
    assert window.restoring.following
    window.close()
    qtbot.wait(200)  # the turns the steps would have taken
    assert not started and not window.restoration.running and gc.isenabled()


def test_each_new_model_leaves_the_thread_count_alone(tiny_model_dir, tmp_path):
    import shutil

    import torch

    from editor.gui.work.restoration import Restorers

    before = torch.get_num_threads()
    other = tmp_path / "other"
    shutil.copytree(tiny_model_dir, other)
    torch.set_num_threads(3)
    try:
        restorers = Restorers()
        first = restorers.get(str(tiny_model_dir), "cpu")
        restorers.get(str(other), "cpu")
        assert restorers.get(str(tiny_model_dir), "cpu") is first  # loaded once
        assert torch.get_num_threads() == 3  # decided once, at start (editor.core.process)
    finally:
        torch.set_num_threads(before)


def test_a_restoration_that_cannot_start_says_so_with_the_word_count(window, qtbot, tmp_path):
    window.restoration.model = str(tmp_path / "no-such-model")
    window.settings.set("engine.restore_model", str(tmp_path / "no-such-model"))
    source = tmp_path / "few.txt"
    source.write_text("one two three", encoding="utf-8")
    with qtbot.waitSignal(window.restoration_finished, timeout=60_000):
        window.open_path(source)
    assert window.restoration_status.startswith("failed")
    assert window.status_label.text() == "3 words — restoration unavailable"
    assert gc.isenabled()
