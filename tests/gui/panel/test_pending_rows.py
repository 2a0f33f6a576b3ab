"""A long row of the pending list in a narrow panel: the words before the suggestion give way
first, then the word after it, then what it changes; the confidence and the word stay."""

import pytest
from PySide6.QtGui import QFont, QFontMetrics

from editor.gui.panel.pending_rows import RowParts, fit_row

ROW = RowParts(" 62%", "…the old train", "station.", "And", "add ‘.’ full stop", "add ‘.’")


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


def test_then_the_word_after_then_the_mark_s_name_and_the_change_stays_whole(metrics):
    advance = metrics.horizontalAdvance
    seen = set()
    for width in range(advance(ROW.text), 0, -1):
        shown = fit_row(ROW, width, metrics)
        assert advance(shown) <= width, (width, shown)
        if width >= advance(" 62%  … station."):
            assert shown.startswith(" 62%") and " station." in shown, (width, shown)
        if width >= advance(" 62%  … station.  · add ‘.’ full stop"):
            assert shown.endswith("  · add ‘.’ full stop"), (width, shown)
        if width >= advance(" 62% station.  · add ‘.’"):
            assert shown.endswith("  · add ‘.’ full stop") or shown.endswith("  · add ‘.’"), (width, shown)
        if "And" not in shown and width >= advance(" 62%  … station.  · add ‘.’"):
            assert shown.startswith(" 62%  … station."), (width, shown)  # the words before went first
        seen.add(shown)
    assert " 62%  … station. A…  · add ‘.’ full stop" in seen  # the word after is cut second
    assert " 62%  … station.  · add ‘.’" in seen  # then the mark's name
    assert " 62% station.  · add ‘.’" in seen  # then the ellipsis; the change itself is whole
    least = advance(" 62% station.  · add ‘.’")  # below this only, the row is cut at the right
    wide = [fit_row(ROW, w, metrics) for w in range(least, advance(ROW.text))]
    assert not any("add ‘.’ f…" in shown for shown in wide)  # (at 800x600, rows read so)
    assert not any(" station. …" in shown for shown in wide)  # no word after: none shown


def test_a_row_of_the_first_words_has_no_ellipsis_to_give(metrics):
    first = RowParts(" 40%", "", "Hello,", "and", "add ‘,’ comma")
    assert first.text == " 40%   Hello, and  · add ‘,’ comma"
    shown = fit_row(first, metrics.horizontalAdvance(first.text) - 1, metrics)
    assert shown.startswith(" 40%   Hello, ") and shown.endswith("· add ‘,’ comma")


def test_a_proposal_from_your_choice_says_so_however_narrow_the_row(metrics):
    """At 1200x780 the list showed " 1%  … saturday  · keep ‘saturday’": the mark that the row is
    the person's own choice repeated ("· from your choice", as the guide and the filter call it)
    went with the mark's long name, and the row read as one of Stet's."""
    mine = RowParts("  1%", "…on the first", "saturday", "of", "keep ‘saturday’ as it is", "keep ‘saturday’",
                    tag=" · from your choice")
    assert mine.text == "  1%  …on the first saturday of  · keep ‘saturday’ as it is · from your choice"
    advance = metrics.horizontalAdvance
    least = advance("  1% saturday  · keep ‘saturday’ · from your choice")
    seen = set()
    for width in range(advance(mine.text), least - 1, -1):
        shown = fit_row(mine, width, metrics)
        assert advance(shown) <= width, (width, shown)
        assert shown.endswith(" · from your choice"), (width, shown)
        seen.add(shown)
    assert "  1%  … saturday  · keep ‘saturday’ · from your choice" in seen  # the mark's name went first
    # narrower still, the row is cut at the right: the change stays whole as long as it can
    shown = fit_row(mine, least - 10, metrics)
    assert shown.startswith("  1% saturday  · keep ‘saturday’"), shown
