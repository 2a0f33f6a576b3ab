"""File > Reopen with Encoding: a file whose code page was guessed wrong is read again as named."""

from editor.core import render
from editor.gui.work.encoding import reopen_with_encoding, reopenable


def test_reopen_with_encoding_reads_the_file_again(window, qtbot, tmp_path):
    path = tmp_path / "talk.srt"
    path.write_bytes("1\n00:00:01,000 --> 00:00:02,000\nРешение\n".encode("cp1251"))
    with qtbot.waitSignal(window.restoration_finished, timeout=60_000):
        window.open_path(path, encoding="cp1252")
    assert render(window.transcript) != "Решение"
    assert reopenable(window) == path
    with qtbot.waitSignal(window.restoration_finished, timeout=60_000):
        assert reopen_with_encoding(window, window, "cp1251")
    assert render(window.transcript) == "Решение"
    assert window.transcript.metadata.warnings == ()
    assert any("Encoding" in a.text() for a in window.findChildren(type(window.undo_action)))


def test_reopen_needs_a_text_file(window):
    assert reopenable(window) is None
    assert not reopen_with_encoding(window, window, "cp1251")
