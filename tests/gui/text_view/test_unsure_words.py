"""Words the recogniser was unsure of: underlined on the View menu's toggle (kept in settings), as
transcription adds words too, and never confused with the suggestion colours."""

from __future__ import annotations

from PySide6.QtGui import QTextCharFormat

from editor.core.document.transcript import Token, Transcript
from editor.gui.text_view.unsure_words import UNSURE_COLOUR

WORDS = [("so", 0.95), ("the", 0.3), ("seed", 1.0), ("library", 0.2), ("opens", None)]


def unsure_doc() -> Transcript:
    return Transcript([Token(w, start=i * 0.5, end=i * 0.5 + 0.4, confidence=c)
                       for i, (w, c) in enumerate(WORDS)])


def underlined(view) -> list[str]:
    """The words the highlighter marks, read from the text layout (what gets painted)."""
    text = view.toPlainText()
    found = []
    block = view.document().begin()
    while block.isValid():
        for r in block.layout().formats():
            if (r.format.underlineStyle() == QTextCharFormat.UnderlineStyle.DashUnderline
                    and r.format.underlineColor().name().upper() == UNSURE_COLOUR):
                found.append(text[block.position() + r.start:block.position() + r.start + r.length])
        block = block.next()
    return found


def test_the_toggle_underlines_unsure_words_and_is_kept_in_settings(window, qtbot):
    window.set_transcript(unsure_doc(), restore=False)
    action = window.unsure_words.action
    assert not action.isChecked() and underlined(window.view) == []

    action.trigger()
    qtbot.wait(10)
    assert action.isChecked() and window.settings.appearance.underline_unsure
    assert underlined(window.view) == ["the", "library"]

    window.settings.set("appearance.unsure_below", 0.99)
    window.apply_settings()
    assert underlined(window.view) == ["so", "the", "library"]

    action.trigger()
    assert not window.settings.appearance.underline_unsure and underlined(window.view) == []


def test_words_that_arrive_later_are_marked_too(window, qtbot):
    window.settings.set("appearance.underline_unsure", True)
    window.unsure_words.apply()
    doc = unsure_doc()
    window.set_transcript(doc, restore=False)
    qtbot.waitUntil(lambda: underlined(window.view) == ["the", "library"], timeout=2000)

    doc.append_tokens([Token("today", confidence=0.1), Token("again", confidence=0.9)])
    doc.append_tokens([Token("later", confidence=0.4)], new_paragraph=True)
    qtbot.waitUntil(lambda: underlined(window.view) == ["the", "library", "today", "later"],
                    timeout=2000)
    # An edit elsewhere moves the words along; the marks follow them.
    doc.replace_span(0, 1, "well so")
    qtbot.waitUntil(lambda: "library" in underlined(window.view) and "today" in underlined(window.view),
                    timeout=2000)
    assert "well" not in underlined(window.view)


def test_the_marks_leave_the_suggestion_colours_alone(window, qtbot):
    from PySide6.QtGui import QTextCursor

    from editor.core.document.transcript import Kind, Suggestion

    doc = unsure_doc()
    window.set_transcript(doc, restore=False)
    doc.set_suggestions([Suggestion(doc[1].id, Kind.CASE, "The", {"The": 0.55, "the": 0.45})])
    window.view.flush()
    start, _, _ = window.view.token_range(1)

    def char_format():
        cursor = QTextCursor(window.view.document())
        cursor.setPosition(start + 1)
        return cursor.charFormat()

    tint = char_format().background().color().name(), char_format().underlineStyle()
    assert window.view.toPlainText().split()[1] == "The"
    window.unsure_words.toggle()
    qtbot.wait(10)
    assert underlined(window.view) == ["The", "library"]
    # The suggestion's colour lives in the text's own format, which the marks leave as it was.
    assert (char_format().background().color().name(), char_format().underlineStyle()) == tint


def test_marks_hold_in_a_long_paragraph_the_view_breaks_into_lines(window, qtbot):
    words = [Token(f"w{i}", start=i * 0.3, end=i * 0.3 + 0.2, confidence=0.1 if i % 97 == 0 else 0.9)
             for i in range(1000)]  # one paragraph of 1,000 words: the view wraps it in blocks
    window.settings.set("appearance.underline_unsure", True)
    window.unsure_words.apply()
    window.set_transcript(Transcript(words), restore=False)
    expected = [f"w{i}" for i in range(0, 1000, 97)]
    qtbot.waitUntil(lambda: underlined(window.view) == expected, timeout=3000)


def test_the_legend_explains_the_unsure_underline_while_it_is_shown(window, qtbot):
    """Ctrl+U dash-underlined words in purple, a mark the legend did not explain."""
    window.set_transcript(unsure_doc(), restore=False)
    key = window.panel.legend.more  # behind the key's "More"
    assert "unsure" not in key.text()
    window.unsure_words.action.trigger()
    assert "recogniser was unsure" in key.text() and UNSURE_COLOUR.lower() in key.text().lower()
    window.unsure_words.action.trigger()
    assert "unsure" not in key.text()


def test_the_text_has_one_highlighter_and_a_second_is_refused(window, qtbot):
    """Two QSyntaxHighlighters on one document draw over each other's marks without a word; the
    view's slot refuses the second at once (text_view/highlighting.py)."""
    import pytest
    from PySide6.QtGui import QSyntaxHighlighter

    window.set_transcript(unsure_doc(), restore=False)
    window.unsure_words.action.trigger()
    qtbot.wait(10)
    slot = window.view.highlighting
    assert slot.holder is window.unsure_words.highlighter
    assert window.unsure_words.highlighter.document() is window.view.document()

    class Other(QSyntaxHighlighter):
        def highlightBlock(self, text: str) -> None:
            pass

    other = Other(None)
    with pytest.raises(RuntimeError, match="already has a highlighter"):
        slot.take(other)
    assert other.document() is None and underlined(window.view) == ["the", "library"]
    window.unsure_words.action.trigger()  # off: the slot is free, and the marks gone
    assert slot.holder is None and window.unsure_words.highlighter.document() is None
    slot.take(other)
    assert other.document() is window.view.document()
    slot.release(other)


def test_every_highlighter_of_the_window_is_known():
    """A new QSyntaxHighlighter is a choice to make in the open: the document has one (see
    docs/architecture.md, How to draw on the text), so a second one is drawn in that one or
    takes its turn through the view's slot, and this list says which there are."""
    import importlib
    import inspect
    import pkgutil

    from PySide6.QtGui import QSyntaxHighlighter

    import editor.gui

    found = set()
    for info in pkgutil.walk_packages(editor.gui.__path__, "editor.gui."):
        module = importlib.import_module(info.name)
        found |= {f"{c.__module__}.{c.__qualname__}" for _, c in inspect.getmembers(module, inspect.isclass)
                  if issubclass(c, QSyntaxHighlighter) and c.__module__ == info.name}
    assert found == {"editor.gui.text_view.unsure_words.UnsureWordsHighlighter"}
