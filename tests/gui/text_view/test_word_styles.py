"""Italics, bold, underline and colour read from subtitle cues are shown in the text, under any
proposal's tint, and stay through a review."""

import pytest
from PySide6.QtGui import QColor, QFont, QTextCursor

from editor.core.document.transcript import Kind, Suggestion
from editor.core.formats import read_any
from editor.core.settings import Settings
from editor.gui.text_view.view import QtTranscriptView

STYLED = """1
00:00:01,000 --> 00:00:03,000
<i>Where were you
last night?</i>

2
00:00:07,000 --> 00:00:09,500
I told you, <i>never</i> again.
<b>Never</b> and <u>ever</u>. <font color="#ffff00">Yellow</font> words
"""


def format_of(view: QtTranscriptView, word: str, nth: int = 0):
    """The character format of the first letter of the ``nth`` token whose text is ``word``."""
    view.flush()
    doc = view.transcript
    index = [i for i, t in enumerate(doc.tokens) if (t.surface or t.word) == word][nth]
    start, _, _ = view.token_range(index)
    cursor = QTextCursor(view.document())
    cursor.setPosition(start)
    cursor.setPosition(start + 1, QTextCursor.MoveMode.KeepAnchor)
    return cursor.charFormat()


@pytest.fixture
def view(qtbot, tmp_path):
    src = tmp_path / "styled.srt"
    src.write_text(STYLED, encoding="utf-8")
    v = QtTranscriptView(read_any(src), Settings())
    qtbot.addWidget(v)
    v.resize(600, 300)
    v.show()
    return v


def test_cue_styles_are_shown_word_by_word(view):
    assert format_of(view, "Where").fontItalic() and format_of(view, "night").fontItalic()
    assert format_of(view, "never").fontItalic()
    assert not format_of(view, "told").fontItalic() and not format_of(view, "again").fontItalic()
    assert format_of(view, "Never").fontWeight() == QFont.Weight.Bold
    assert format_of(view, "ever").fontUnderline()
    assert not format_of(view, "words").fontUnderline()


def test_a_colour_too_light_for_the_page_is_shown_darker_in_its_hue(view):
    colour = format_of(view, "Yellow").foreground().color()
    assert colour != QColor("#ffff00")
    assert abs(colour.hueF() - QColor("#ffff00").hueF()) < 0.02
    assert colour.lightnessF() < 0.5  # readable on the white page


def test_a_proposal_on_an_italic_word_is_tinted_and_stays_italic_after_accepting(view):
    doc = view.transcript
    index = [i for i, t in enumerate(doc.tokens) if t.surface == "were"][0]
    doc.set_suggestions([Suggestion(doc[index].id, Kind.CASE, "Were", {"Were": 0.97, "were": 0.03})])
    fmt = format_of(view, "were")
    assert fmt.fontItalic() and fmt.background().style().value  # tinted and italic
    doc.accept(doc[index].id, Kind.CASE)
    fmt = format_of(view, "Were")
    assert fmt.fontItalic() and not fmt.background().style().value
    assert view.shown_text().startswith("Where Were you")
