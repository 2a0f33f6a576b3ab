"""The legend is a compact key (a line per kind of proposal, the rest behind "More"), and a proposed
full stop and comma read apart at the default font size: in the text and in the list."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QTextCursor, QTextFormat
from PySide6.QtWidgets import QApplication

from editor.core.document.transcript import Kind, Suggestion, Token, Transcript
from editor.core.settings import Settings
from editor.gui.text_view.view import QtTranscriptView


def test_the_legend_is_a_line_per_kind_with_the_rest_behind_more(window, qtbot):
    legend = window.panel.legend
    meanings = [meaning.text() for _, meaning in legend.rows]
    assert len(meanings) == 5
    for what, line in zip(("capital", "comma", "remove the mark", "paragraph break", "plain"), meanings):
        assert what in line
    assert "comma" in meanings[1] and "full stop" in meanings[1]
    assert "not in the text until accepted" in legend.more.text()
    for n, (sample, meaning) in enumerate(legend.rows):  # one line each at the panel's width, at its size
        assert n == 3 or not sample.pixmap().isNull()  # drawn with the view's formats (3: the margin's ¶)
        assert meaning.font().pointSizeF() == window.panel.font().pointSizeF()
        assert meaning.height() < 2 * meaning.fontMetrics().height(), meaning.text()
    assert not legend.more.isVisible() and legend.more_button.isVisible()
    collapsed = legend.height()
    qtbot.mouseClick(legend.more_button, pytest.importorskip("PySide6.QtCore").Qt.MouseButton.LeftButton)
    assert legend.more.isVisible()
    assert "subtitle cue" in legend.more.text() and "Dotted underline" in legend.more.text()
    qtbot.waitUntil(lambda: legend.height() > collapsed)
    legend.more_button.click()
    assert not legend.more.isVisible()


def test_the_collapsed_legend_leaves_the_list_room(window):
    """The old legend was 13 lines of 9-point text over the list. At the panel's default share of a
    wide window the chips share a row; in the narrowest panel they wrap, a line each, and so do the key's lines."""
    window.resize(1400, 800)
    window.splitter.setSizes([1000, 400])
    QApplication.processEvents()
    legend = window.panel.legend
    assert legend.height() <= 10 * legend.fontMetrics().height()
    narrowest = window.panel.minimumSizeHint().width()
    window.splitter.setSizes([1400 - narrowest, narrowest])  # the panel as narrow as it goes
    QApplication.processEvents()
    assert window.panel.width() == narrowest
    assert legend.height() <= 18 * legend.fontMetrics().height()  # each key line in two


@pytest.fixture
def marks_view(qtbot):
    """"the door. people … lamps, and" with a proposed full stop and comma of the same confidence."""
    doc = Transcript([Token(w) for w in "out the door people are holding lamps and toasters".split()])
    doc.set_suggestions([Suggestion(doc[2].id, Kind.PUNCT, ".", {".": 0.7, "": 0.3}),
                         Suggestion(doc[6].id, Kind.PUNCT, ",", {",": 0.7, "": 0.3})])
    view = QtTranscriptView(doc, Settings())
    qtbot.addWidget(view)
    view.resize(600, 200)
    view.show()
    view.flush()
    return view


def format_at(view, position: int):
    cursor = QTextCursor(view.document())
    cursor.setPosition(position + 1)
    return cursor.charFormat()


def test_a_proposed_full_stop_and_comma_have_formats_of_their_own(marks_view):
    text = marks_view.toPlainText()
    stop, comma = format_at(marks_view, text.index(".")), format_at(marks_view, text.index(","))
    plain = format_at(marks_view, text.index("are"))
    assert stop.background() == comma.background()  # the same band: the same colour
    assert stop != comma
    assert stop.fontLetterSpacing() > comma.fontLetterSpacing()  # a wide box, a narrow one
    for mark in (stop, comma):  # heavier than the text around them
        assert mark.fontWeight() > plain.fontWeight()
        assert not mark.hasProperty(QTextFormat.Property.TextOutline)  # drawn from the glyph cache


def ink_box(image, left: int, right: int, top: int, bottom: int, background: QColor):
    """The tinted box (columns whose middle row has the band's tint) and the dark pixels in it."""
    def tinted(x: int, y: int) -> bool:
        c = image.pixelColor(x, y)
        return abs(c.red() - background.red()) + abs(c.green() - background.green()) + abs(c.blue() - background.blue()) < 40
    middle = (top + bottom) // 2
    columns = [x for x in range(left, right) if tinted(x, top + 2) or tinted(x, bottom - 2)]
    dark = [(x, y) for x in range(left, right) for y in range(top, bottom)
            if image.pixelColor(x, y).lightness() < 90]
    assert middle and columns and dark
    return len(columns), dark


def test_a_proposed_full_stop_and_comma_render_apart_at_the_default_size(marks_view):
    view = marks_view
    assert view.font().pointSize() == Settings().appearance.font_size
    image = view.viewport().grab().toImage()
    text = view.toPlainText()
    shapes = {}
    for mark in ".,":
        at = text.index(mark)
        start, end = view.cursorRect(_cursor(view, at)), view.cursorRect(_cursor(view, at + 1))
        colour = format_at(view, at).background().color()
        tint = QColor(colour)  # as painted over the white page
        a = colour.alphaF()
        tint.setRgb(*(round(255 * (1 - a) + c * a) for c in (colour.red(), colour.green(), colour.blue())))
        shapes[mark] = ink_box(image, start.left(), end.left() + 1, start.top(), start.bottom(), tint)
    (stop_width, stop_ink), (comma_width, comma_ink) = shapes["."], shapes[","]
    assert stop_width >= comma_width + 3, (stop_width, comma_width)  # a wide box against a narrow one
    stop_low, comma_low = max(y for _, y in stop_ink), max(y for _, y in comma_ink)
    comma_top = min(y for _, y in comma_ink)
    assert comma_low - stop_low >= 2  # the comma's tail goes below the line
    assert comma_low - comma_top + 1 >= 5  # and is long enough to see
    assert len(stop_ink) >= 9  # the dot: at least 3x3 pixels of ink


def _cursor(view, position: int) -> QTextCursor:
    cursor = QTextCursor(view.document())
    cursor.setPosition(position)
    return cursor


def test_the_list_names_the_mark_it_proposes(window):
    doc = Transcript([Token(w) for w in "out the door people are holding lamps and toasters".split()])
    doc.set_suggestions([Suggestion(doc[2].id, Kind.PUNCT, ".", {".": 0.7, "": 0.3}),
                         Suggestion(doc[6].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})])
    window.set_transcript(doc, restore=False)
    window.panel.refresh()
    rows = [window.panel.list.item(i).text() for i in range(window.panel.list.count())]
    assert rows[0].endswith("· add ‘,’ comma") and rows[1].endswith("· add ‘.’ full stop")


@pytest.mark.parametrize("width", [640, 700, 900])
def test_a_narrow_window_leaves_the_text_most_of_its_width(qtbot, settings, width):
    """The three confidence chips sat in one row, so the panel could not go below ~363 px and at
    half a screen the text column was 190-290 px wide: they wrap instead, whole and in sight."""
    from editor.gui import MainWindow

    window = MainWindow(settings, interactive=False)
    qtbot.addWidget(window)
    window.resize(width, 700)
    window.show()
    qtbot.waitExposed(window)
    assert window.panel.minimumSizeHint().width() <= 240
    assert window.view.width() >= 0.6 * window.splitter.width(), (window.view.width(), window.panel.width())
    legend = window.panel.legend
    for label in legend.labels.values():  # every chip whole, inside the panel
        assert label.isVisible() and label.width() >= label.sizeHint().width()
        assert 0 <= label.mapTo(legend, label.rect().topRight()).x() < legend.width()


def test_a_wide_panel_shows_the_chips_in_one_row(window):
    window.resize(1400, 800)
    window.splitter.setSizes([900, 500])
    QApplication.processEvents()
    ys = {label.mapTo(window.panel, label.rect().topLeft()).y() for label in window.panel.legend.labels.values()}
    assert len(ys) == 1
