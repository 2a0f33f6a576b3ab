"""The pending list follows the review: the row of the suggestion under review is selected and
scrolled to, whether Tab, Shift+Tab or a click in the text made it current; a narrow list keeps
each row's word and change whole."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics

from editor.core.document.transcript import Kind, Suggestion, Token, Transcript
from editor.gui.panel import pending_rows
from editor.gui.panel.pending_rows import RowParts, fit_row

WORDS = ("the library opened at nine and the seed table was busy until the station closed "
         "so we went home after that").split()


def _long_doc(n=120):
    """``n`` words, a comma proposed after each, confidences spread so the list's order (least
    confident first) is not the text's."""
    doc = Transcript([Token(WORDS[i % len(WORDS)]) for i in range(n)])
    doc.set_suggestions([Suggestion(doc[i].id, Kind.PUNCT, ",",
                                    {",": 0.3 + 0.6 * ((i * 37) % n) / n, "": 0.7 - 0.6 * ((i * 37) % n) / n})
                         for i in range(n)])
    return doc


def _row_in_sight(panel, s):
    row = panel.items.index(s)
    assert panel.list.currentRow() == row
    assert panel.list.item(row).isSelected()
    rect = panel.list.visualItemRect(panel.list.item(row))
    sight = panel.list.viewport().rect()  # (a row is as wide as its whole text: only its height counts)
    return sight.top() <= rect.top() and rect.bottom() <= sight.bottom()


def _into_the_list(window, qtbot):
    """Ctrl+2 from the text, as a keyboard user goes to the list; returns the panel."""
    window.activateWindow()
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    return window.panel


@pytest.fixture
def listed(window):
    window.resize(800, 600)
    window.set_transcript(_long_doc(), restore=False)
    window.panel.refresh()
    window.view.setFocus()
    return window


def test_tab_and_shift_tab_select_and_reveal_the_row(listed, qtbot):
    """Tab framed a suggestion in the text; its row in the list was neither selected nor in
    sight (the list stayed at its top, on the least confident ones)."""
    panel, view = listed.panel, listed.view
    rows = []
    for _ in range(30):  # far enough for rows well below the list's first screen
        qtbot.keyClick(view, Qt.Key.Key_Tab)
        s = view.current
        assert s is not None
        assert _row_in_sight(panel, s), panel.items.index(s)
        rows.append(panel.list.currentRow())
    assert max(rows) > 20  # some of them far down the list, so it scrolled
    for _ in range(5):
        qtbot.keyClick(view, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
        assert _row_in_sight(panel, view.current)
    qtbot.keyClick(view, Qt.Key.Key_Right)  # back to editing: no row selected
    assert view.current is None
    assert panel.list.currentRow() == -1 and not panel.list.selectedItems()


def test_a_click_on_a_suggestion_in_the_text_selects_its_row(listed, qtbot):
    view, panel, doc = listed.view, listed.panel, listed.transcript
    view.flush()
    # the word whose row is lowest in the list among those on screen
    first, last = view.visible_tokens()
    index = max(range(first, min(last, len(doc))),
                key=lambda i: panel.items.index(doc.suggestion(doc[i].id, Kind.PUNCT)))
    _, p, b = view.token_range(index)
    cursor = view.textCursor()
    cursor.setPosition(p)
    point = view.cursorRect(cursor).center()
    point.setX(point.x() + 2)  # on the proposed comma
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    s = view.current
    assert s is not None and s.token_id == doc[index].id
    assert _row_in_sight(panel, s)


def test_activating_a_row_keeps_it_selected(listed, qtbot):
    panel, view = listed.panel, listed.view
    item = panel.list.item(10)
    panel.list.scrollToItem(item)
    rect = panel.list.visualItemRect(item)
    qtbot.mouseClick(panel.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert view.current is panel.items[10] or view.current.key == panel.items[10].key
    assert panel.list.currentRow() == 10


def test_a_refresh_keeps_the_current_row_selected(listed, qtbot):
    panel, view, doc = listed.panel, listed.view, listed.transcript
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    s = view.current
    doc.edit_token(len(doc) - 1, surface="After")  # a change: the list is built again
    panel.refresh()
    assert _row_in_sight(panel, s)


ROWS = [RowParts(" 62%", "…the old train", "station.", "And", "add ‘.’ full stop", "add ‘.’"),
        RowParts(" 41%", "…we went to", "Paris", "then", "capital", "capital"),
        RowParts(" 55%", "…all of the", "stapleton.", "and", "‘,’ → ‘.’ full stop", "‘,’ → ‘.’"),
        RowParts(" 70%", "…said it to", "me", "and", "remove ‘,’ comma", "remove ‘,’")]


@pytest.mark.parametrize("parts", ROWS, ids=lambda p: p.brief)
def test_a_narrow_row_cuts_the_context_never_the_change(qapp, parts):
    """At 800x600 rows read " 62%  … station.  · add ‘.’ f…": the change cut. Now the words
    around give way, then the mark's name, then the ellipsis; the change is whole down to the
    width of the confidence, the word and the change itself."""
    metrics = QFontMetrics(qapp.font())
    advance = metrics.horizontalAdvance
    least = advance(f"{parts.confidence} {parts.word}  · {parts.brief}")
    for width in range(advance(parts.text), least - 1, -1):
        shown = fit_row(parts, width, metrics)
        assert advance(shown) <= width, (width, shown)
        assert f" {parts.word}" in shown and shown.startswith(parts.confidence), (width, shown)
        assert shown.endswith(f"· {parts.what}") or shown.endswith(f"· {parts.brief}"), (width, shown)
    assert fit_row(parts, least, metrics) == f"{parts.confidence} {parts.word}  · {parts.brief}"


def test_rows_at_800x600_show_the_whole_change(listed, monkeypatch):
    """The list as painted in a window of 800x600: every row in sight shows its word and its
    change whole."""
    from PySide6.QtGui import QFontMetricsF

    painted = []

    def fitted(parts, width, metrics):
        painted.append((parts, width, original(parts, width, metrics)))
        return painted[-1][2]

    original = pending_rows.fit_row
    monkeypatch.setattr(pending_rows, "fit_row", fitted)
    listed.panel.list.grab()
    assert painted
    from PySide6.QtWidgets import QStyle

    exact = QFontMetricsF(listed.panel.list.font())
    plist = listed.panel.list
    margin = plist.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin) + 1
    room = plist.viewport().width() - 2 * margin  # where the style draws a row's text
    for parts, _width, shown in painted:
        assert f" {parts.word}" in shown, shown
        assert shown.endswith(f"· {parts.what}") or shown.endswith(f"· {parts.brief}"), shown
        # as the style measures it (in fractions of a pixel), so it does not cut the row again:
        # the first row, exactly as wide as its room in whole pixels, read "add ‘.’ full st…"
        assert exact.horizontalAdvance(shown) <= room, (shown, room)


def test_no_row_is_cut_again_by_the_style(listed):
    """A row exactly as wide as its room in whole pixels (199 px; 199.33 in the fractions the
    style measures in) read "60%  we. met.  · add ‘.’ full st…": the style cut it after the
    delegate had fitted it. At every width, what the delegate leaves fits the style's room."""
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QFontMetricsF
    from PySide6.QtWidgets import QStyle, QStyleOptionViewItem

    plist = listed.panel.list
    delegate, style = plist.itemDelegate(), plist.style()
    exact = QFontMetricsF(plist.font())
    margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin) + 1
    for row in range(3):
        index = plist.model().index(row, 0)
        for width in range(120, 420):
            opt = QStyleOptionViewItem()
            opt.initFrom(plist)
            delegate.initStyleOption(opt, index)
            opt.rect = QRect(0, 0, width, 20)
            room = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, plist).width() - 2 * margin
            shown = delegate._fitted(opt, index)
            assert exact.horizontalAdvance(shown) <= room, (row, width, shown)


def test_a_proposal_from_your_choice_says_so_in_the_list_as_painted(window, qtbot, monkeypatch):
    """Delete on a proposed "Saturday" proposes keeping the other "saturday" as it is, "from
    your choice"; at 1200x780 its row was painted " 1%  … saturday  · keep ‘saturday’", the
    words that say whose proposal it is gone with the mark's long name."""
    window.resize(1200, 780)
    words = ("hello and welcome back to the saturday workshop where we meet on the first "
             "saturday of every month").split()
    doc = Transcript([Token(w) for w in words])
    doc.set_suggestions([Suggestion(doc[i].id, Kind.CASE, "Saturday", {"Saturday": 0.996, "saturday": 0.004})
                         for i, w in enumerate(words) if w == "saturday"])
    window.set_transcript(doc, restore=False)
    window.panel.refresh()
    view = window.view
    view.setFocus()
    first = doc.pending(kind=Kind.CASE)[0]
    view.set_current(first)
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    mine = [s for s in doc.pending() if s.source == "choice"]
    assert len(mine) == 1
    window.panel.refresh()
    painted = []

    def fitted(parts, width, metrics):
        painted.append(original(parts, width, metrics))
        return painted[-1]

    original = pending_rows.fit_row
    monkeypatch.setattr(pending_rows, "fit_row", fitted)
    window.panel.list.grab()
    rows = [shown for shown in painted if "saturday" in shown]
    assert rows, painted
    assert all(shown.endswith("· from your choice") for shown in rows), rows


def test_delete_in_the_list_keeps_the_keyboards_place(listed, qtbot):
    """Ctrl+2, Down, Delete: the row was rejected and the list, brought up to date, was on no row,
    so Enter did nothing and the next Down went back to the top (a keyboard and screen reader
    review down the list lost its place at every Delete). The row below takes its place."""
    window = listed
    doc = window.transcript
    panel = _into_the_list(window, qtbot)
    assert panel.list.hasFocus() and panel.list.currentRow() == 0
    qtbot.keyClick(panel.list, Qt.Key.Key_Down)
    qtbot.keyClick(panel.list, Qt.Key.Key_Down)
    rejected, below = panel.items[2], panel.items[3]
    qtbot.keyClick(panel.list, Qt.Key.Key_Delete)
    assert doc.suggestion(*rejected.key).state.value == "rejected"
    qtbot.waitUntil(lambda: rejected not in panel.items, timeout=5000)
    assert panel.list.hasFocus() and panel.items[panel.list.currentRow()] == below
    qtbot.keyClick(panel.list, Qt.Key.Key_Return)  # Enter goes to it in the text
    assert window.view.current is not None and window.view.current.key == below.key


def test_the_list_keeps_its_row_when_it_is_brought_up_to_date(listed, qtbot):
    """A refresh while the keyboard is in the list (a decision made in the text by undo, a pass
    of restoration landing) keeps it on the same suggestion."""
    window = listed
    doc = window.transcript
    panel = _into_the_list(window, qtbot)
    for _ in range(4):
        qtbot.keyClick(panel.list, Qt.Key.Key_Down)
    held = panel.items[4]
    first = panel.items[0]
    doc.accept(first.token_id, first.kind)  # decided elsewhere: the list is brought up to date
    qtbot.waitUntil(lambda: first not in panel.items, timeout=5000)
    assert panel.items[panel.list.currentRow()] == held
