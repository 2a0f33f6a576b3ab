"""Review > Check line length and reading speed (issue 51), through the real window: the cues an
export would write that are over the line length or the reading speed, found off the UI thread,
each a click or Enter from its first word in the text."""

from PySide6.QtCore import Qt

from editor.gui.dialogs.cue_check import TOKEN_ROLE

def _checked(window, qtbot):
    window.menu_actions["review.check_cues"].trigger()
    dialog = window.cue_check.dialog
    qtbot.waitUntil(lambda: window.cue_check.running.done, timeout=20000)
    return dialog


def test_the_check_lists_cues_over_the_limits_and_a_click_goes_to_the_first_word(window, qtbot, over_limits_srt):
    window.open_path(over_limits_srt)
    window.cancel_restoration()
    dialog = _checked(window, qtbot)
    assert dialog.isVisible()
    table = dialog.table
    rows = [[table.data(table.index(n, c)) for c in range(3)] for n in range(table.rowCount())]
    assert rows == [["0:05.0", "42.0 characters a second", "This cue says far too much for one second."],
                    ["0:07.0", "line 1 is 59 characters; 27.7 characters a second",
                     "and this one has a first line that runs on for far too long / but a short second one."]]
    assert "17 characters a second" in dialog.summary.text() and "42 characters a line" in dialog.summary.text()
    view, doc = window.view, window.transcript
    second = table.index(1, 2)
    rect = dialog.rows.visualRect(second)
    qtbot.mouseClick(dialog.rows.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert view.token_at(view.textCursor().position()) == doc.index_of(table.data(second, TOKEN_ROLE))
    assert doc[view.token_at(view.textCursor().position())].surface == "and"
    # Enter on a row goes there too
    dialog.rows.setCurrentIndex(table.index(0, 0))
    qtbot.keyClick(dialog.rows, Qt.Key.Key_Return)
    assert doc[view.token_at(view.textCursor().position())].surface == "This"


def test_the_check_uses_the_export_settings_and_says_when_all_is_well(window, qtbot, over_limits_srt):
    window.settings.set("export.layout", {"max_line_length": 60, "max_cps": 45.0})
    window.open_path(over_limits_srt)
    window.cancel_restoration()
    dialog = _checked(window, qtbot)
    assert dialog.table.rowCount() == 0
    assert dialog.summary.text().startswith("Every cue is within 60 characters a line, 2 lines a cue, "
                                            "45 characters a second")


def test_a_transcript_without_times_is_said_in_a_line(window, qtbot, tmp_path):
    (tmp_path / "notes.txt").write_text("just some words without any times\n", encoding="utf-8")
    window.open_path(tmp_path / "notes.txt")
    window.cancel_restoration()
    dialog = _checked(window, qtbot)
    assert dialog.table.rowCount() == 0
    assert "no word times" in dialog.summary.text()


def _youtube_vtt(lines):
    """YouTube's automatic captions as yt-dlp saves them: each line timed by its words' start
    tags, shown again above the next, a 10 ms cue moving it up."""
    out, before, t = ["WEBVTT", "Kind: captions", "Language: en", ""], " ", 0.0

    def clock(s):
        return f"00:00:{s:06.3f}"
    for line in lines:
        words = line.split()
        end = t + 0.5 * len(words)
        tagged = words[0] + "".join(f"<{clock(t + 0.5 * k)}><c> {w}</c>" for k, w in enumerate(words[1:], 1))
        out += [f"{clock(t)} --> {clock(end - 0.01)} align:start position:0%", before, tagged, "",
                f"{clock(end - 0.01)} --> {clock(end)} align:start position:0%", line, " ", ""]
        before, t = line, end
    return "\n".join(out) + "\n"


def test_rolling_captions_written_back_as_they_came_are_said_unchecked(window, qtbot, tmp_path):
    """The check said "Every cue is within 42 characters a line" of a YouTube .vtt whose export
    writes its 60-character lines back as they came: it now says that the .vtt keeps its own
    lines, unchecked, and what it found is of the cues cut afresh."""
    lines = ["welcome back to the channel today we are going to fix it all",
             "first you open the back panel with a small screwdriver now"]
    source = tmp_path / "talk.en.vtt"
    source.write_text(_youtube_vtt(lines), encoding="utf-8")
    window.open_path(source)
    window.cancel_restoration()
    dialog = _checked(window, qtbot)
    summary = dialog.summary.text()
    assert summary.startswith("Exported as .vtt, these rolling captions are written back as they came")
    assert "not checked" in summary and "every cue is within 42 characters a line" in summary
    # and so Export writes them: the long lines as they came
    from editor.core.formats import write_any
    out = tmp_path / "talk-edited.en.vtt"
    write_any(window.transcript, out)
    assert lines[0] in out.read_text(encoding="utf-8").splitlines()


def test_rolling_captions_cut_afresh_are_checked_as_any_cues(window, qtbot, tmp_path):
    source = tmp_path / "talk.en.vtt"
    source.write_text(_youtube_vtt(["welcome back to the channel today", "first you open the back panel"]),
                      encoding="utf-8")
    window.open_path(source)
    window.cancel_restoration()
    doc = window.transcript
    doc.replace_span(0, 1, "hello and welcome")  # words added: Export cuts the cues afresh
    dialog = _checked(window, qtbot)
    assert dialog.summary.text().startswith("Every cue is within 42 characters a line")
