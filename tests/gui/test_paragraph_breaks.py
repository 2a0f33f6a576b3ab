"""A text that runs on for thousands of words (raw ASR output) is shown in lines at the paragraph
breaks Stet proposes, each marked ¶ in the margin and reviewed like any other suggestion: never a
line break nobody made or proposed."""

from PySide6.QtCore import QPoint, Qt

from editor.core.document import Kind, State, Token, Transcript
from editor.core.paragraphs import LONG, RUN_ON_LIMIT
from editor.core.settings import Settings
from editor.gui.gutter import CONTINUES, PROPOSED
from editor.gui.view import QtTranscriptView

from .conftest import WORDS


def raw(n: int, **kw) -> Transcript:
    return Transcript([Token(WORDS[(i * 7) % len(WORDS)], **kw) for i in range(n)])


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


def test_a_text_running_on_opens_in_lines_at_proposals_listed_and_restored(window, qtbot, tmp_path):
    path = tmp_path / "raw.txt"
    path.write_text(" ".join(WORDS[(i * 7) % len(WORDS)] for i in range(2_500)), encoding="utf-8")
    with qtbot.waitSignal(window.restoration_finished, timeout=120_000):
        window.open_path(path)
    assert window.restoration_status == "done"  # the proposals did not stop restoration
    doc, view = window.transcript, window.view
    proposed = breaks(doc)
    assert len(proposed) >= 2_500 // 300 and doc.paragraph_starts == [0]
    assert lines_of(view) == proposed  # a line only where a break is proposed
    assert "\n" not in view.shown_text()  # the text still runs on: each line reads as a space
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
    doc = raw(1_500)
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


def test_rejecting_every_break_keeps_lines_only_where_a_run_would_be_too_long(qtbot):
    doc = raw(3 * RUN_ON_LIMIT)
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
    window.export(out)  # pending proposals are left out, as every pending suggestion is
    assert "\n" not in out.read_text(encoding="utf-8").strip()
    with qtbot.waitSignal(window.bulk_finished, timeout=60_000):
        window.accept_all(0.0)
    assert doc.paragraph_starts == [0, *proposed]
    assert window.view.toPlainText().count("\n\n") == len(proposed)
    with qtbot.waitSignal(window.bulk_finished, timeout=60_000):
        window.undo()
    assert doc.paragraph_starts == [0] and lines_of(window.view) == proposed


def test_backspace_on_a_proposed_break_rejects_it_and_never_joins_words(qtbot):
    doc = raw(1_200)
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
