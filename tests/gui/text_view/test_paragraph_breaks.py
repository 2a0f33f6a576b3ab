"""A text that runs on for thousands of words (raw ASR output) is shown in lines at the paragraph
breaks Stet proposes where a sentence likely ends, each marked ¶ in the margin and reviewed like
any other suggestion; where none is likely yet (raw words before restoration), in lines marked ⋯
as running on, which are no suggestion and go once proposals come: never a line break that looks
like a paragraph break nobody made or proposed."""

from PySide6.QtCore import QPoint, Qt

from editor.core.document.transcript import Kind, State, Suggestion, Token, Transcript
from editor.core.document.paragraphs import LONG, RUN_ON_LIMIT, RUN_ON_STEP
from editor.core.render import NONE, render
from editor.core.settings import Settings
from editor.gui.text_view.gutter import CONTINUES, PROPOSED, RUNS_ON_TIP
from editor.gui.text_view.view import QtTranscriptView

from ..conftest import WORDS


def raw(n: int, **kw) -> Transcript:
    return Transcript([Token(WORDS[(i * 7) % len(WORDS)], **kw) for i in range(n)])


def marked(n: int) -> Transcript:
    """Words with the author's full stop after every 37th: a sentence end in every window."""
    return Transcript([Token(WORDS[(i * 7) % len(WORDS)], punct="." if i % 37 == 36 else "") for i in range(n)])


def restored(doc: Transcript) -> None:
    """As restoration brings marks: a full stop proposed after every 37th word, then the breaks."""
    doc.set_suggestions([Suggestion(doc[i].id, Kind.PUNCT, ".", {".": 0.8, ",": 0.1, "": 0.1})
                         for i in range(36, len(doc), 37)], text="Restore", merge_id="r")
    doc.suggest_paragraphs(text="Restore", merge_id="r")


def lines_of(view: QtTranscriptView) -> list[int]:
    """Indices of the words that begin a line in the view's text (the first excluded)."""
    view.shown_text()  # all of it on screen (a long text is shown a slice at a time)
    out = []
    block = view.document().firstBlock().next()
    while block.isValid():
        if block.length() > 1:
            out.append(view.token_at(block.position()))
        block = block.next()
    return out


def view_of(qtbot, doc: Transcript) -> QtTranscriptView:
    view = QtTranscriptView(doc, Settings())
    qtbot.addWidget(view)
    view.resize(700, 500)
    view.show()
    return view


def breaks(doc: Transcript, state: State = State.PENDING) -> list[int]:
    return sorted(doc.index_of(s.token_id) for s in doc.suggestions(kind=Kind.BREAK, state=state))


def test_raw_words_run_on_in_marked_lines_then_restoration_brings_breaks(window, qtbot, tmp_path):
    path = tmp_path / "raw.txt"
    path.write_text(" ".join(WORDS[(i * 7) % len(WORDS)] for i in range(4_000)), encoding="utf-8")
    doc = Transcript.from_text(path.read_text(encoding="utf-8"))
    window.set_transcript(doc, source=path, restore=False)
    view = window.view
    # raw words: no sentence end is likely anywhere, so no break is proposed; the view still
    # needs lines, marked ⋯ as running on: no suggestion, not counted, not exported
    assert not doc.suggestions() and window.panel.pending_count == 0
    lines = lines_of(view)
    assert lines == [RUN_ON_STEP, 2 * RUN_ON_STEP]
    assert "\n" not in view.shown_text() and "\n" not in render(doc, NONE).strip()
    view.scroll_to_token(lines[0], place=0.3)
    top, _h, text, _i = next(e for e in view.gutter.entries() if e[3] == lines[0])
    assert text == CONTINUES and view.gutter.tip_at(top + 2) == RUNS_ON_TIP
    # a line that runs on is no break: Backspace at its start says so and changes nothing
    cursor = view.textCursor()
    cursor.setPosition(view.token_range(lines[0])[0])
    view.setTextCursor(cursor)
    with qtbot.waitSignal(view.message):
        qtbot.keyClick(view, Qt.Key.Key_Backspace)
    assert doc.words() == path.read_text(encoding="utf-8").split() and lines_of(view) == lines
    # restoration brings likely sentence ends: proposals there, and the lines that ran on go
    restored(doc)
    proposed = breaks(doc)
    assert len(proposed) >= 4_000 // 300 and lines_of(view) == proposed
    assert all(s.confidence > 0.5 for s in doc.pending(kind=Kind.BREAK))
    assert window.panel.pending_count == len(doc.pending())
    doc.history.undo()  # and back: raw words, lines that run on where they were
    assert not breaks(doc) and lines_of(view) == lines


def test_a_window_restoring_raw_words_shows_only_likely_breaks(window, qtbot, tmp_path):
    path = tmp_path / "raw.txt"
    path.write_text(" ".join(WORDS[(i * 7) % len(WORDS)] for i in range(2_500)), encoding="utf-8")
    with qtbot.waitSignal(window.restoration_finished, timeout=120_000):
        window.open_path(path)
    assert window.restoration_status == "done"  # the proposals did not stop restoration
    doc, view = window.transcript, window.view
    proposed = breaks(doc)
    assert all(s.confidence > 0.5 for s in doc.pending(kind=Kind.BREAK)) and doc.paragraph_starts == [0]
    lines = lines_of(view)
    assert set(proposed) <= set(lines)  # every proposal on a line of its own; the others run on
    assert max(b - a for a, b in zip([0, *lines], [*lines, len(doc)])) <= RUN_ON_LIMIT
    assert "\n" not in view.shown_text()  # the text still runs on: each line reads as a space


def test_proposed_breaks_are_listed_marked_and_explained(window, qtbot, tmp_path):
    doc = marked(2_500)
    window.set_transcript(doc, source=tmp_path / "marked.txt", restore=False)
    view = window.view
    proposed = breaks(doc)
    assert len(proposed) >= 2_500 // 300 and lines_of(view) == proposed
    # listed and counted like the others
    listed = [window.panel.describe(s) for s in doc.pending(kind=Kind.BREAK)]
    assert all("paragraph break" in row for row in listed)
    assert window.panel.pending_count == len(doc.pending())
    # the margin marks each one in the suggestion style, and says what the keys do
    view.scroll_to_token(proposed[0], place=0.3)
    labels = view.gutter.entries()
    top = next(top for top, _h, text, i in labels if text == PROPOSED and i == proposed[0])
    tip = view.gutter.tip_at(top + 2)
    assert "Suggested paragraph break" in tip and "Enter accepts" in tip and "Delete" in tip
    assert "paragraph break" in window.panel.legend.key_html()


def test_enter_accepts_a_break_and_delete_keeps_the_text_running_on(qtbot):
    doc = marked(1_500)
    doc.suggest_paragraphs(undoable=False)
    view = view_of(qtbot, doc)
    first, second = breaks(doc)[:2]
    # a click on the ¶ in the margin makes it the one under review
    view.scroll_to_token(first, place=0.3)
    top = next(top for top, _h, text, i in view.gutter.entries() if i == first)
    qtbot.mouseClick(view.gutter, Qt.MouseButton.LeftButton, pos=QPoint(5, top + 3))
    assert view.current is not None and view.current.kind == Kind.BREAK and view.reviewing
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert doc.paragraph_starts == [0, first]
    assert view.toPlainText().count("\n\n") == 1 and first not in breaks(doc)
    view.set_current(doc.suggestion(doc[second].id, Kind.BREAK))
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert doc.suggestion(doc[second].id, Kind.BREAK).state == State.REJECTED
    assert second not in lines_of(view)  # joined: one paragraph in the document and on screen
    assert len(doc) == 1_500 and doc.paragraph_starts == [0, first]
    doc.history.undo()
    doc.history.undo()
    assert lines_of(view) == breaks(doc) and doc.paragraph_starts == [0]


def test_enter_at_a_proposed_break_with_the_caret_accepts_it(qtbot):
    doc = marked(1_500)
    doc.suggest_paragraphs(undoable=False)
    view = view_of(qtbot, doc)
    first, second = breaks(doc)[:2]
    for at, edge in ((first, 0), (second - 1, 2)):  # the caret at the line's start, or the end before it
        cursor = view.textCursor()
        cursor.setPosition(view.token_range(at)[edge])
        view.setTextCursor(cursor)
        assert not view.reviewing
        qtbot.keyClick(view, Qt.Key.Key_Return)
    assert doc.paragraph_starts == [0, first, second] and len(doc) == 1_500
    assert [doc.suggestion(doc[i].id, Kind.BREAK).state for i in (first, second)] == [State.ACCEPTED] * 2
    assert view.toPlainText().count("\n\n") == 2


def test_rejecting_every_break_keeps_lines_only_where_a_run_would_be_too_long(qtbot):
    doc = marked(3 * RUN_ON_LIMIT)
    doc.suggest_paragraphs(undoable=False)
    view = view_of(qtbot, doc)
    doc.reject_all(kind=Kind.BREAK)
    lines = lines_of(view)
    runs = [b - a for a, b in zip([0, *lines], [*lines, len(doc)])]
    assert lines and max(runs) <= RUN_ON_LIMIT and len(lines) <= 3
    view.scroll_to_token(lines[0], place=0.3)
    assert CONTINUES in [text for _, text in view.gutter.labels()]
    assert "\n" not in view.shown_text() and doc.paragraph_starts == [0]
    doc.history.undo()
    assert lines_of(view) == breaks(doc)


def test_accept_all_breaks_at_sentence_ends_and_undo_takes_them_back(window, qtbot, tmp_path):
    text = " ".join(f"{WORDS[i % len(WORDS)]}{'.' if i % 90 == 89 else ''}" for i in range(LONG * 3))
    path = tmp_path / "marked.txt"
    path.write_text(text, encoding="utf-8")
    doc = Transcript.from_text(text)
    window.set_transcript(doc, source=path, restore=False)
    proposed = breaks(doc)
    assert proposed and all(doc[i - 1].punct == "." for i in proposed)
    out = tmp_path / "out.txt"
    window.export(out, NONE)  # only what was accepted: pending proposals are left out
    assert "\n" not in out.read_text(encoding="utf-8").strip()
    with qtbot.waitSignal(window.bulk_finished, timeout=60_000):
        window.accept_all(0.0)
    assert doc.paragraph_starts == [0, *proposed]
    assert window.view.toPlainText().count("\n\n") == len(proposed)
    with qtbot.waitSignal(window.bulk_finished, timeout=60_000):
        window.undo()
    assert doc.paragraph_starts == [0] and lines_of(window.view) == proposed


def test_backspace_on_a_proposed_break_rejects_it_and_never_joins_words(qtbot):
    doc = marked(1_200)
    doc.suggest_paragraphs(undoable=False)
    view = view_of(qtbot, doc)
    first = breaks(doc)[0]
    words = doc.words()
    cursor = view.textCursor()
    cursor.setPosition(view.token_range(first)[0])  # at the start of the line
    view.setTextCursor(cursor)
    assert not view.reviewing
    with qtbot.waitSignal(view.message) as said:
        qtbot.keyClick(view, Qt.Key.Key_Backspace)
    assert "paragraph break" in said.args[0]
    assert doc.suggestion(doc[first].id, Kind.BREAK).state == State.REJECTED
    assert doc.words() == words and first not in lines_of(view)


def test_a_long_paste_of_raw_words_runs_on_in_lines_when_it_is_done(window, qtbot, tmp_path):
    from PySide6.QtCore import QMimeData, QTimer

    doc = raw(600)
    window.set_transcript(doc, source=tmp_path / "raw.txt", restore=False)
    view = window.view
    assert lines_of(view) == []
    cursor = view.textCursor()
    cursor.setPosition(view.token_range(300)[2])
    view.setTextCursor(cursor)
    mime = QMimeData()
    mime.setText(" " + " ".join(WORDS[i % len(WORDS)] for i in range(5_000)))
    seen: list[int] = []  # how many lines run on as the paste goes
    timer = QTimer()
    timer.timeout.connect(lambda: seen.append(len(view.soft)))
    timer.start(1)
    with qtbot.waitSignal(window.bulk_finished, timeout=60_000):
        view.insertFromMimeData(mime)
    qtbot.waitUntil(lambda: not window.bulk_running, timeout=60_000)
    timer.stop()
    assert max(seen) > 10  # meanwhile each part of the paste on a line of its own (quick to lay out)
    assert len(doc) == 5_600 and not doc.suggestions()
    lines = lines_of(view)  # the paste's own lines joined; lines that run on where needed
    assert lines and len(lines) <= 5_600 // RUN_ON_STEP
    assert max(b - a for a, b in zip([0, *lines], [*lines, len(doc)])) <= RUN_ON_LIMIT
    assert all(i in {doc.index_of(t) for t in view.soft} for i in lines)


def test_undoing_a_long_paste_into_a_text_that_runs_on_is_one_step_lines_after(window, qtbot, tmp_path,
                                                                              monkeypatch):
    """Undoing a long paste into one paragraph goes a slice at a time (150 words a command) and
    finds the lines that run on once, when it is done: the text, lines and history as before the
    paste, and redo brings the paste back whole."""
    from PySide6.QtCore import QMimeData

    doc = raw(3_000)
    window.set_transcript(doc, source=tmp_path / "raw.txt", restore=False)
    view = window.view
    lines, words, shown = lines_of(view), doc.words(), view.shown_text()
    assert lines == [RUN_ON_STEP]
    cursor = view.textCursor()
    cursor.setPosition(view.token_range(1_500)[2])
    view.setTextCursor(cursor)
    mime = QMimeData()
    pasted = " ".join(WORDS[i % len(WORDS)] for i in range(5_000))
    mime.setText(" " + pasted)
    with qtbot.waitSignal(window.bulk_finished, timeout=60_000):
        view.insertFromMimeData(mime)
    qtbot.waitUntil(lambda: not window.bulk_running, timeout=60_000)
    after_paste, lines_pasted = view.shown_text(), lines_of(view)
    assert len(doc) == 8_000 and len(lines_pasted) > len(lines)
    assert doc.history.undo_text == "Paste" and doc.history.size_of_step() > 30
    found = []
    update = view.update_lines
    monkeypatch.setattr(view, "update_lines", lambda: found.append(view.frozen) or update())
    with qtbot.waitSignal(window.bulk_finished, timeout=60_000):
        assert window.undo()
        assert window.bulk_running  # a slice at a time
    monkeypatch.undo()
    assert found == [False]  # the lines found once, when the undo was done
    assert doc.words() == words and view.shown_text() == shown and lines_of(view) == lines
    assert view.toPlainText().replace("\n", " ") == shown
    assert doc.history.redo_text == "Paste" and not doc.history.can_undo  # one step
    with qtbot.waitSignal(window.bulk_finished, timeout=60_000):
        window.redo()
    qtbot.waitUntil(lambda: not window.bulk_running, timeout=60_000)
    assert view.shown_text() == after_paste and len(doc) == 8_000
    assert max(b - a for a, b in zip([0, *lines_of(view)], [*lines_of(view), len(doc)])) <= RUN_ON_LIMIT


def test_a_bulk_step_finds_the_lines_that_run_on_once_at_its_end(window, qtbot, tmp_path, monkeypatch):
    """Accept all on a long text goes a slice at a time; finding the lines that run on reads
    every break proposal (2-3 ms a slice at 100,000 words), so it is done once, when the step is
    done: the lines are then those a view shown afresh finds, and its undo brings back the lines
    as they were."""
    from editor.gui.window.review import BULK_AT_ONCE

    doc = raw(BULK_AT_ONCE + 1_000)
    window.set_transcript(doc, source=tmp_path / "raw.txt", restore=False)
    view = window.view
    restored(doc)
    for i in breaks(doc)[::3]:  # some decided against: the text runs on there
        doc.reject(doc[i].id, Kind.BREAK)
    before = lines_of(view)
    calls: list[bool] = []
    real = view.update_lines
    monkeypatch.setattr(view, "update_lines", lambda: (calls.append(view.frozen), real())[1])
    with qtbot.waitSignal(window.bulk_finished, timeout=60_000):
        assert window.accept_all(0.0) == -1  # a slice at a time
    qtbot.waitUntil(lambda: not window.bulk_running, timeout=60_000)
    assert calls == [False], calls  # once, at the end
    assert lines_of(view) == lines_of(view_of(qtbot, doc))
    window.undo()
    qtbot.waitUntil(lambda: not window.bulk_running, timeout=60_000)
    assert lines_of(view) == before
