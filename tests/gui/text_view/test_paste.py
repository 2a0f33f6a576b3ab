"""Pasting into the window: the words appear where the caret is, as plain words, one undo step
that undo and redo take back and bring again exactly; a long paste goes a slice per turn of the
event loop (its first words at once) and keys pressed meanwhile act after it."""

import pytest
from PySide6.QtCore import QMimeData, Qt
from PySide6.QtWidgets import QApplication

from editor.gui.text_view.editing import PASTE_AT_ONCE, paste_parts

RAW = ("so we planted the seeds by the old station and waited for the rain to come what a morning "
       "it was").split()


def raw_text(words: int, per_paragraph: int) -> str:
    """``words`` raw words, a paragraph every ``per_paragraph`` (an empty line between)."""
    w = [RAW[i % len(RAW)] for i in range(words)]
    return "\n\n".join(" ".join(w[i:i + per_paragraph]) for i in range(0, words, per_paragraph))


def state(window):
    """Everything undo must bring back: the words, paragraphs, suggestions, and the text shown."""
    doc = window.transcript
    return (doc.tokens, doc.paragraph_starts, sorted(doc.iter_suggestions(), key=lambda s: s.key),
            window.view.shown_text())


def caret_after_word(window, index: int) -> int:
    view = window.view
    view.review.leave_review(announce=False)
    position = view.token_range(index)[2]
    cursor = view.textCursor()
    cursor.setPosition(position)
    view.setTextCursor(cursor)
    view.setFocus()
    return position


def paste(window, text: str) -> None:
    mime = QMimeData()
    mime.setText(text)
    window.view.insertFromMimeData(mime)


def test_paste_parts_cut_between_words_and_join_again():
    text = raw_text(1_000, 150) + "\n"
    parts = paste_parts(text, 100)
    assert "".join(parts) == text
    assert len(parts) == 10
    assert all(p[0].isspace() and not p.strip() == "" for p in parts[1:])
    assert paste_parts("one two", 100) == ["one two"]


def test_a_paragraph_pasted_is_one_undo_step_of_plain_words(restored, qtbot):
    window = restored
    doc, view = window.transcript, window.view
    before = state(window)
    n = len(doc)
    at = caret_after_word(window, 20)
    mime = QMimeData()  # rich text comes in as its words, without its formats
    mime.setHtml(" <b>seeds</b> and <i>rain</i>")
    mime.setText(" seeds and rain")
    view.insertFromMimeData(mime)
    assert len(doc) == n + 3
    assert [doc[i].surface for i in range(21, 24)] == ["seeds", "and", "rain"]
    assert view.shown_text() == before[3][:at] + " seeds and rain" + before[3][at:]
    assert doc.history.undo_text == "Paste"
    after = state(window)
    window.undo()
    qtbot.waitUntil(lambda: not window.bulk_running)
    assert state(window) == before
    window.redo()
    assert state(window) == after


def test_a_paste_into_a_word_and_over_a_selection(restored):
    window = restored
    doc, view = window.transcript, window.view
    start, _, end = view.token_range(10)
    word = doc[10].word
    cursor = view.textCursor()
    cursor.setPosition(start + 2)  # in the middle of the word: the pasted text joins its halves
    view.setTextCursor(cursor)
    paste(window, "X Y")
    assert doc[10].word == word[:2] + "x" and doc[11].word == "y" + word[2:]
    n = len(doc)
    a, b = view.token_range(12)[0], view.token_range(14)[2]
    cursor.setPosition(a)
    cursor.setPosition(b, cursor.MoveMode.KeepAnchor)  # three words selected: two take their place
    view.setTextCursor(cursor)
    paste(window, "seeds rain")
    assert len(doc) == n - 1 and [doc[12].word, doc[13].word] == ["seeds", "rain"]


@pytest.mark.parametrize("per_paragraph", [150, 3 * PASTE_AT_ONCE])
def test_a_long_paste_goes_in_slices_whole_and_as_one_undo_step(restored, qtbot, per_paragraph):
    window = restored
    doc, view = window.transcript, window.view
    before = state(window)
    n = len(doc)
    paragraph = doc.is_paragraph_start(31)
    at = caret_after_word(window, 30)
    text = raw_text(3 * PASTE_AT_ONCE, per_paragraph)
    QApplication.clipboard().setText(" " + text)
    with qtbot.waitSignal(window.bulk_finished, timeout=60_000):
        qtbot.keyClick(view, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
        # the first words are in at once, at the caret; the rest follows a slice at a time
        assert window.bulk_running and view.frozen
        assert n < len(doc) < n + 3 * PASTE_AT_ONCE
        assert view.shown_text()[at:at + 40] == " " + text[:39]
    assert len(doc) == n + 3 * PASTE_AT_ONCE
    assert view.shown_text() == before[3][:at] + " " + text + before[3][at:]
    # no line the paste made for its time stays (a very long paragraph goes a line a part)
    assert view.toPlainText()[at:at + 1 + len(text)] == " " + text
    # each pasted paragraph starts one; the paragraph the caret was in goes on after the paste
    starts = set(doc.paragraph_starts)
    assert {31 + k for k in range(per_paragraph, 3 * PASTE_AT_ONCE, per_paragraph)} <= starts
    assert not {31 + k for k in range(3 * PASTE_AT_ONCE) if k % per_paragraph} & starts
    assert (31 + 3 * PASTE_AT_ONCE in starts) == paragraph
    assert view.textCursor().position() == at + 1 + len(text)  # the caret after what was pasted
    assert doc.history.undo_text == "Paste"
    after = state(window)
    with qtbot.waitSignal(window.bulk_finished, timeout=60_000):
        window.undo()  # one step, undone a slice at a time
    assert state(window) == before
    with qtbot.waitSignal(window.bulk_finished, timeout=60_000):
        window.redo()
    assert state(window) == after


def test_keys_pressed_during_a_long_paste_act_after_it(restored, qtbot):
    window = restored
    doc, view = window.transcript, window.view
    at = caret_after_word(window, 30)
    before_after = view.shown_text()[at:at + 3]
    text = raw_text(2 * PASTE_AT_ONCE, 150)
    with qtbot.waitSignal(window.bulk_finished, timeout=60_000):
        paste(window, " " + text)
        assert window.bulk_running
        qtbot.keyClicks(view, " ok")
        qtbot.keyClick(view, Qt.Key.Key_Backspace)  # in order: " o" is what stays
        assert "ok" not in view.shown_text()[at:at + len(text) + 10]
    qtbot.waitUntil(lambda: view.shown_text()[at:at + len(text) + 3] == " " + text + " o", timeout=5_000)
    assert doc[31 + 2 * PASTE_AT_ONCE].word == "o"
    # the typing comes after the paste in the history too: undone first, then the paste
    assert doc.history.undo_text == "Delete"
    for _ in range(3):
        if doc.history.undo_text == "Paste":
            break
        window.undo()
    assert doc.history.undo_text == "Paste"
    assert view.shown_text()[at:at + len(text) + 4] == " " + text + before_after
    window.undo()  # (the undos before each said bulk_finished: wait for the step to end)
    qtbot.waitUntil(lambda: not window.bulk_running, timeout=60_000)
    assert view.shown_text()[at:at + 3] == before_after


def _learn_zarvex():
    from editor.core.review.lexicon import UserLexicon

    lex = UserLexicon.load()
    lex.learn({"zarvex": "ZarVex"})  # the user lexicon writes the name so: a sure case suggestion
    lex.save()


def _zarvex_cases(doc, ids):
    from editor.core.document.transcript import Kind

    return [doc.suggestion(i, Kind.CASE) for i in ids if doc.has_token(i) and doc.token(i).word == "zarvex"]


def test_raw_words_pasted_into_a_restored_text_are_restored_in_the_paste_undo_step(restored, qtbot):
    """A paste of raw words got no suggestions at all once the text's restoration was done:
    now they are restored in the background, the words around them read but left as they
    were, and one Ctrl+Z takes the paste and its suggestions back."""
    from editor.core.document.transcript import State

    _learn_zarvex()
    window = restored
    doc = window.transcript
    before = state(window)
    caret_after_word(window, 20)
    pasted = []
    window.view.pasted.connect(lambda ids, _merge: pasted.extend(ids))
    with qtbot.waitSignal(window.restoration_finished, timeout=60_000):
        paste(window, " we met zarvex at the station and zarvex said so")
        assert not [s for i in pasted for s in doc.suggestion_view(i).values()]  # none yet
        others = {s.key: s for s in doc.iter_suggestions()}  # as the paste left them
    assert window.restoration_status == "done" and len(pasted) == 10
    cases = _zarvex_cases(doc, pasted)
    assert len(cases) == 2 and all(s is not None and s.value == "ZarVex" and s.state == State.PENDING
                                   for s in cases)
    assert {s.key: s for s in doc.iter_suggestions() if s.token_id not in pasted} == others
    assert "2 pasted words restored" not in window.status_label.text()
    assert "10 pasted words restored" in window.status_label.text()
    assert doc.history.undo_text == "Paste"
    window.undo()
    qtbot.waitUntil(lambda: not window.bulk_running)
    assert state(window) == before


def test_a_paste_with_its_own_marks_and_capitals_is_left_as_written(restored, qtbot):
    _learn_zarvex()
    window = restored
    doc = window.transcript
    caret_after_word(window, 20)
    pasted = []
    window.view.pasted.connect(lambda ids, _merge: pasted.extend(ids))
    paste(window, " We met zarvex. At the Station, Zarvex said so.")
    qtbot.wait(300)
    assert pasted and not window.restoration.running
    assert not [s for i in pasted for s in doc.suggestion_view(i).values()]


def test_a_long_raw_paste_is_restored_after_its_slices_with_every_word(restored, qtbot):
    """A paste long enough to go in a slice per turn: restored once it is all in, every
    pasted word (the words the slices re-wrote included)."""
    _learn_zarvex()
    window = restored
    doc = window.transcript
    text = raw_text(PASTE_AT_ONCE + 600, 150).replace("station", "zarvex")
    pasted = []
    window.view.pasted.connect(lambda ids, _merge: pasted.extend(ids))
    caret_after_word(window, 20)
    with qtbot.waitSignal(window.restoration_finished, timeout=120_000):
        paste(window, " " + text)
        assert window.bulk_running and not pasted  # still going in: not restored yet
    assert window.restoration_status == "done"
    words = text.split()
    assert len(pasted) == len(words)
    assert [doc.token(i).word for i in pasted] == words
    cases = _zarvex_cases(doc, pasted)
    assert len(cases) == words.count("zarvex") > 10
    assert all(s is not None and s.value == "ZarVex" for s in cases)


def test_words_pasted_while_pasted_words_are_restored_are_restored_after(restored, qtbot):
    """A second paste while the first one's words are being restored: the first pass finds its
    words changed under it, and one more pass restores both pastes' words."""
    _learn_zarvex()
    window = restored
    doc = window.transcript
    pasted = []
    window.view.pasted.connect(lambda ids, _merge: pasted.append(ids))
    caret_after_word(window, 20)
    paste(window, " we met zarvex at the station")
    assert window.restoration.running and window.restoration.only == frozenset(pasted[0])
    caret_after_word(window, 60)
    paste(window, " and zarvex said so")
    assert window.restoration.only == frozenset(pasted[0])  # the second waits for the first
    qtbot.waitUntil(lambda: not window.restoration.running and window.restoration.only is not None
                    and window.restoration.only >= frozenset(pasted[0] + pasted[1]), timeout=60_000)
    assert window.restoration_status == "done"
    cases = _zarvex_cases(doc, pasted[0] + pasted[1])
    assert len(cases) == 2 and all(s is not None and s.value == "ZarVex" for s in cases)


def test_caption_lines_pasted_flow_as_the_file_of_them_reads(window, tmp_path):
    """YouTube caption text (one short line per caption, &#39; for an apostrophe) becomes one
    paragraph of running text, pasted or opened, as `stet show` gives it."""
    from editor.core.formats import read_any
    from editor.core.render import render

    captions = tmp_path / "captions.txt"
    lines = ["so today we&#39;re going to talk about", "how the river changed the town and why",
             "people weren&#39;t ready for the flood", "when it came in the spring of that year",
             "and the mayor said &quot;we will rebuild&quot;", "so they did with help from Smith & Sons",
             "who brought the timber down the valley", "and nobody asked what it would cost them"]
    captions.write_text("\n".join(lines) + "\n", encoding="utf-8")
    as_read = read_any(captions)
    window.open_path(captions)
    window.cancel_restoration()
    assert window.transcript.paragraph_starts == as_read.paragraph_starts == [0]
    assert "&#39;" not in window.view.shown_text() and "weren't" in window.view.shown_text()
    doc = window.transcript
    n = len(doc)
    caret_after_word(window, n - 1)
    paste(window, "\n" + "\n".join(lines))
    assert doc.paragraph_starts == [0, n]  # one paragraph more, not one per caption line
    assert render(doc).split("\n\n")[1] == render(as_read)
