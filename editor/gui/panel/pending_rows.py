"""The rows of the panel's list of pending suggestions, and how a long one gives way in a narrow
panel: the words before the suggestion first, then the word after it, then the mark's name ("add
‘.’ full stop" becomes "add ‘.’"); the confidence, the word and the change itself stay whole, and
so does "· from your choice" after the change, cut last."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFontMetrics, QPainter
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

#: The item data role a row's parts are kept under (its text is the whole row, as its tooltip).
PARTS_ROLE = Qt.ItemDataRole.UserRole + 1
_ELLIPSIS = "…"
SPARE_PX = 2  # see QtPendingRowDelegate._fitted


@dataclass(frozen=True, slots=True)
class RowParts:
    """One row: " 62%  …the old train station. And  · add ‘.’ full stop" is confidence " 62%",
    before "…the old train", word "station." (as it would read), after "And", what "add ‘.’ full
    stop"; ``brief`` says the change without the mark's name ("add ‘.’"), for a narrow list;
    ``tag`` follows the change in either (" · from your choice": whose proposal it is)."""

    confidence: str
    before: str
    word: str
    after: str
    what: str
    brief: str = ""
    tag: str = ""

    @property
    def text(self) -> str:
        """The whole row, as the list's item text and tooltip give it."""
        return f"{self.confidence}  {self.before} {self.word} {self.after}  · {self.what}{self.tag}"


def fit_row(parts: RowParts, width: int, metrics: QFontMetrics) -> str:
    """The row as it fits ``width`` pixels in ``metrics``' font: the whole row when it fits;
    else the words before the suggestion give way from the left ("…train station. And"), then
    the word after it from the right, then the mark's name ("add ‘.’ full stop" is said "add
    ‘.’"), then the ellipsis that stood for the words before. The confidence, the word and the
    change stay whole: at 800x600 rows read "add ‘.’ f…", the change itself cut. The tag after
    the change (" · from your choice") goes with it, never alone: a row of the person's choice
    read as one of Stet's. Only a list too narrow for those is cut at the right."""
    text = parts.text
    advance = metrics.horizontalAdvance
    if advance(text) <= width:
        return text
    head, word, what = f"{parts.confidence}  ", f" {parts.word}", f"  · {parts.what}{parts.tag}"
    after = f" {parts.after}"
    # The words before, cut from the left to what the rest leaves them.
    room = width - advance(head + word + after + what)
    before = metrics.elidedText(parts.before, Qt.TextElideMode.ElideLeft, room) if room > 0 else ""
    if before:
        before = _whole_words(parts.before, before)
        return head + before + word + after + what
    before = _ELLIPSIS if parts.before else ""  # words were there: say so
    # Then the word after, cut from the right (the space before it stays only with a word).
    room = width - advance(head + before + word + " " + what)
    shown = metrics.elidedText(parts.after, Qt.TextElideMode.ElideRight, room) if room > 0 else ""
    if shown.rstrip(_ELLIPSIS):  # a letter of it at least: a lone "…" there says nothing
        return head + before + word + " " + shown + what
    # Then the mark's name, then the ellipsis before the word; the change itself is kept whole.
    brief = f"  · {parts.brief or parts.what}{parts.tag}"
    for row in (head + before + word + what, head + before + word + brief, head.rstrip() + word + brief):
        if advance(row) <= width:
            return row
    return metrics.elidedText(head.rstrip() + word + brief, Qt.TextElideMode.ElideRight, width)


def _whole_words(text: str, elided: str) -> str:
    """``elided`` (the end of ``text`` after an ellipsis) from its first whole word: "…workshop.
    I'm" rather than "…ay workshop. I'm", or "…" where no whole word is left."""
    if not elided.startswith(_ELLIPSIS) or elided == text:
        return elided
    kept = elided[len(_ELLIPSIS):]
    cut = len(text) - len(kept)
    if cut > 0 and not text[cut - 1].isspace():  # a word cut short: drop what is left of it
        kept = kept.partition(" ")[2]
    return _ELLIPSIS + kept.lstrip()


class QtPendingRowDelegate(QStyledItemDelegate):
    """Paints a row of the pending list as ``fit_row`` fits it to the row's width, with the look
    the style gives any item (its confidence colour, selection, the current row's frame). Only
    rows in sight are painted, and each again as the panel is resized."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = self._fitted(opt, index)
        style = opt.widget.style() if opt.widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)

    def _fitted(self, opt: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> str:
        parts = index.data(PARTS_ROLE)
        text: str = opt.text
        if not isinstance(parts, RowParts):
            return text
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, widget)
        # The style draws the text this far inside that rect on either side (QCommonStyle).
        margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, opt, widget) + 1
        # The style elides in fractional pixels, fit_row measures whole ones: a row measured
        # exactly as wide as its room was cut all the same ("add ‘.’ full st…"): 2 px spare.
        return fit_row(parts, rect.width() - 2 * margin - SPARE_PX, opt.fontMetrics)
