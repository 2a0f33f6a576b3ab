"""A long row of the pending list in a narrow panel: the words before the suggestion give way
first, then the word after it, then what it changes; the confidence and the word stay."""

import pytest
from PySide6.QtGui import QFont, QFontMetrics

from editor.gui.pending_rows import RowParts, fit_row

ROW = RowParts(" 62%", "…the old train", "station.", "And", "add ‘.’ full stop")


@pytest.fixture
def metrics(qapp):
    return QFontMetrics(QFont())


def test_a_row_that_fits_is_whole(metrics):
    full = ROW.text
    assert full == " 62%  …the old train station. And  · add ‘.’ full stop"
    assert fit_row(ROW, metrics.horizontalAdvance(full), metrics) == full


def test_the_words_before_give_way_from_the_left_in_whole_words(metrics):
    """Qt's ElideMiddle read " 62%  …the old tr…on. And  · add ‘.’ full stop": the word went."""
    rest = metrics.horizontalAdvance(" 62%   station. And  · add ‘.’ full stop")
    shown = fit_row(ROW, rest + metrics.horizontalAdvance("…train") + 1, metrics)
    assert shown == " 62%  …train station. And  · add ‘.’ full stop"
    shown = fit_row(ROW, rest + metrics.horizontalAdvance("…rain") + 1, metrics)
    assert shown == " 62%  … station. And  · add ‘.’ full stop"  # never "…rain station."


def test_then_the_word_after_then_what_changes_and_the_word_last(metrics):
    advance = metrics.horizontalAdvance
    seen = set()
    for width in range(advance(ROW.text), 0, -1):
        shown = fit_row(ROW, width, metrics)
        assert advance(shown) <= width, (width, shown)
        if width >= advance(" 62%  … station."):
            assert shown.startswith(" 62%  ") and " station." in shown, (width, shown)
        if width >= advance(" 62%  … station.  · add ‘.’ full stop"):
            assert shown.endswith("  · add ‘.’ full stop"), (width, shown)
        if "And" not in shown and width >= advance(" 62%  … station."):
            assert shown.startswith(" 62%  … station."), (width, shown)  # the words before went first
        seen.add(shown)
    assert " 62%  … station. A…  · add ‘.’ full stop" in seen  # the word after is cut second
    assert " 62%  … station.  · add ‘.’ f…" in seen  # what changes last
    assert not any(" station. …" in shown for shown in seen)  # no word after: none shown


def test_a_row_of_the_first_words_has_no_ellipsis_to_give(metrics):
    first = RowParts(" 40%", "", "Hello,", "and", "add ‘,’ comma")
    assert first.text == " 40%   Hello, and  · add ‘,’ comma"
    shown = fit_row(first, metrics.horizontalAdvance(first.text) - 1, metrics)
    assert shown.startswith(" 40%   Hello, ") and shown.endswith("· add ‘,’ comma")
