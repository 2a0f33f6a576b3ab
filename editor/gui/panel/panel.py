"""The side panel: a legend of the confidence colours, the suggestion under review with its numbered
alternatives, and every pending suggestion, least confident first."""

from __future__ import annotations

import heapq
import html
import time
from collections.abc import Iterator

from typing import cast

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (QBrush, QKeyEvent, QPainter, QPixmap, QTextCharFormat, QTextCursor, QTextDocument,
                           QTextDocumentFragment)
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLayout,
    QLayoutItem,
    QListWidget,
    QListWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from editor.core.review.accept_rules import is_keep
from editor.core.review.listening import pause_at
from editor.core.review.likeliest import likelier_refused
from editor.core.document.transcript import Kind, State, Suggestion, Token, Transcript
from editor.core.document.records import CHOICE, LEXICON
from editor.core.settings import Settings
from editor.core.document.text import join_mark
from editor.gui.text_view.accessibility import spoken_row
from editor.gui.text_view.gutter import CUE_COLOUR
from editor.gui.base.links import DocumentLinks
from editor.gui.text_view.looks import (BANDS, CHOICE_BAND, Looks, band_colour, band_of, describe_value,
                              in_band, named_mark, percent)
from editor.gui.panel.pending_rows import PARTS_ROLE, QtPendingRowDelegate, RowParts
from editor.gui.base.turns import WindowTurns
from editor.gui.text_view.unsure_words import UNSURE_COLOUR

_FILTERS = ("All pending", "Low", "Medium", "High", "From your choice")
_BANDS_LISTED = ("low", "medium", "high", CHOICE_BAND)  # what each filter after the first lists
#: Rows listed at most: the least confident ones are the ones to look at, and a short list is
#: rebuilt in a few milliseconds while restoration results stream in.
LIST_LIMIT = 400
#: A refresh looks through suggestions _SCAN_STEP words at a time, for _SCAN_SECONDS per turn of
#: the event loop.
_SCAN_STEP, _SCAN_SECONDS = 1000, 0.005
#: A transcript shown with more words with suggestions than this (a long project) is listed a
#: slice at a time from the start: all at once held the window 150-240 ms at 100,000 words.
_SCAN_AT_ONCE = 5 * _SCAN_STEP
_ROWS_A_SLICE = 50  # rows of the list made per slice of a refresh (their words, what a reader says)


#: What follows the change in a row of a proposal that is not the model's own: whose it is.
_ORIGIN_TAGS = {CHOICE: " · from your choice", LEXICON: " · from your lexicon"}


def case_change(written: str, proposed: str) -> str:
    """What a case suggestion changes, named by its letters, as the panel shows the form: "capital"
    where letters go up ("1d" -> "1D", "(deep" -> "(Deep", "iphone" -> "iPhone"), "lower case"
    where they go down ("NASA" -> "nasa"); the first letter that differs decides, whatever stands
    before it (a digit, an opening bracket or quote)."""
    for now, then in zip(written, proposed):
        if now != then and now.lower() == then.lower():
            return "capital" if then.isupper() else "lower case"
    first = next((ch for ch in proposed if ch.isalpha()), "")
    return "capital" if first.isupper() else "lower case"


def _as_shown(doc: Transcript, token: Token) -> tuple[str, str]:
    """A word and its mark as the text shows them: a pending capital or mark in place."""
    view = doc.suggestion_view(token.id)
    case, mark = view.get(Kind.CASE), view.get(Kind.PUNCT)
    return (case.value if case is not None and case.state == State.PENDING else token.surface or token.word,
            mark.value if mark is not None and mark.state == State.PENDING else token.punct)


class FlowLayout(QLayout):
    """Widgets side by side while they fit, going on in a new row when they do not: the legend's
    confidence chips wrap in a narrow panel instead of holding it ~360 px wide (Qt's own "Flow
    Layout" example, left to right only). Its height follows its width (``heightForWidth``)."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self.setContentsMargins(0, 0, 0, 0)
        self.setSpacing(spacing)
        self._items: list[QLayoutItem] = []

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._place(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._place(rect, move=True)

    def sizeHint(self) -> QSize:
        """All in one row."""
        hints = [item.sizeHint() for item in self._items]
        width = sum(h.width() for h in hints) + self.spacing() * max(0, len(hints) - 1)
        return QSize(width, max((h.height() for h in hints), default=0))

    def minimumSize(self) -> QSize:
        """One a row: as narrow as the widest."""
        size = QSize()
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        return size

    def _place(self, rect: QRect, *, move: bool) -> int:
        """Lay the items out in ``rect`` (when ``move``); the height they take."""
        x, y, row_height = rect.x(), rect.y(), 0
        for item in self._items:
            hint = item.sizeHint()
            if x > rect.x() and x + hint.width() > rect.right() + 1:  # the next row
                x, y, row_height = rect.x(), y + row_height + self.spacing(), 0
            if move:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x += hint.width() + self.spacing()
            row_height = max(row_height, hint.height())
        return y + row_height - rect.y()


class QtLegend(QWidget):
    """Three colour chips with the thresholds they stand for, and a compact key: one line per kind
    of proposal, with a "More" that opens the rest (the margin's signs, cue bars, underlines)."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(3)
        layout = FlowLayout(spacing=4)  # in a row while the panel is wide enough, else wrapped
        outer.addLayout(layout)
        self.labels: dict[str, QLabel] = {}
        for band in BANDS:
            label = QLabel()
            label.setObjectName(f"legend-{band}")
            layout.addWidget(label)
            self.labels[band] = label
        key = QGridLayout()
        key.setContentsMargins(0, 0, 0, 0)
        key.setHorizontalSpacing(8)
        key.setVerticalSpacing(1)
        #: (sample, meaning) of each line of the key, in order
        self.rows: list[tuple[QLabel, QLabel]] = []
        for n in range(len(self._key_lines())):
            sample, meaning = QLabel(), QLabel()
            for label in (sample, meaning):
                label.setTextFormat(Qt.TextFormat.RichText)
            meaning.setWordWrap(True)  # never widens the panel; each fits one line at its default width
            sample.setObjectName(f"legend-sample-{n}")
            sample.setAlignment(Qt.AlignmentFlag.AlignCenter)
            key.addWidget(sample, n, 0)
            key.addWidget(meaning, n, 1)
            self.rows.append((sample, meaning))
        key.setColumnStretch(1, 1)
        outer.addLayout(key)
        self.more_button = QToolButton()
        self.more_button.setObjectName("legend-more")
        self.more_button.setText("More")
        self.more_button.setCheckable(True)
        self.more_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.more_button.setArrowType(Qt.ArrowType.RightArrow)
        self.more_button.setAutoRaise(True)
        self.more_button.setToolTip("What the other marks in the text and the margin mean")
        self.more_button.toggled.connect(self.show_more)
        outer.addWidget(self.more_button)
        self.more = QLabel()
        self.more.setObjectName("legend-more-text")
        self.more.setWordWrap(True)
        self.more.setTextFormat(Qt.TextFormat.RichText)
        self.more.hide()
        outer.addWidget(self.more)
        self.refresh()

    def show_more(self, shown: bool) -> None:
        self.more_button.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        self.more.setVisible(shown)

    def refresh(self) -> None:
        r = self.settings.review
        text = {"high": f"High ≥ {r.high:.0%}", "medium": f"Medium {r.low:.0%}–{r.high:.0%}",
                "low": f"Low < {r.low:.0%}"}
        for band, label in self.labels.items():
            colour = band_colour(band, self.settings).name()
            light = band_colour(band, self.settings, 90)
            label.setText(text[band])
            label.setToolTip(f"Suggestions with {text[band].lower()} confidence")
            label.setStyleSheet(
                f"QLabel {{ border-left: 10px solid {colour}; padding: 2px 4px; "
                f"background: rgba({light.red()},{light.green()},{light.blue()},{light.alpha()}); }}")
        for (sample, meaning), (look, meaning_html) in zip(self.rows, self._key_lines()):
            if isinstance(look, QPixmap):
                sample.setPixmap(look)
            else:
                sample.setText(look)
            meaning.setText(meaning_html)
            # a drawn sample has no words of its own: a reader said four unnamed images
            sample.setAccessibleName("Sample: " + QTextDocumentFragment.fromHtml(meaning_html).toPlainText())
        self.more.setText(self.more_html())

    def _sample(self, parts: list[tuple[str, QTextCharFormat]]) -> QPixmap:
        """A few words drawn with the view's own formats (editor.gui.text_view.looks), in the legend's font."""
        doc = QTextDocument()
        doc.setDefaultFont(self.font())
        doc.setDocumentMargin(1)
        cursor = QTextCursor(doc)
        for text, fmt in parts:
            cursor.insertText(text, fmt)
        ratio = self.devicePixelRatioF()
        size = doc.size()
        pixmap = QPixmap(max(1, round(size.width() * ratio)), max(1, round(size.height() * ratio)))
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(Qt.GlobalColor.transparent)
        with QPainter(pixmap) as painter:  # ended on the way out, an error too (see StatusLabel.paintEvent)
            doc.drawContents(painter)
        return pixmap

    def _key_lines(self) -> list[tuple[QPixmap | str, str]]:
        """(sample, meaning) of each line of the compact key: one per kind of proposal."""
        looks = Looks(self.settings)
        plain = looks.plain
        removal = QTextCharFormat()
        removal.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
        removal.setUnderlineColor(band_colour("medium", self.settings))
        paragraph = band_colour("medium", self.settings).name()
        return [
            (self._sample([("Word", looks.formats["medium"])]), "<b>proposed</b> capital or lower case"),
            (self._sample([(",", looks.mark_format("medium", ",")), (" ", plain),
                           (".", looks.mark_format("medium", "."))]),
             "<b>proposed</b> comma, full stop…"),
            (self._sample([("word", removal)]), "proposed: remove the mark after it"),
            (f"<b style='color:{paragraph}'>¶</b>", "margin: proposed paragraph break"),
            (self._sample([("word", plain)]), "plain: the text as it stands"),
        ]

    def more_html(self) -> str:
        """The rest of the key, behind "More"."""
        return (
            "A proposal is not in the text until accepted (Enter); a mark's box is narrow for a "
            "pause (, ; :) and wide for a sentence end (. ? !). "
            "Dotted underline: low confidence. Framed: the suggestion under review. "
            "A proposal “from your choice” (so says its hover, and the list) repeats a choice you "
            "made elsewhere; a tinted word or mark that would not change proposes keeping it as "
            "it is. "
            + (f"<span style='color:{UNSURE_COLOUR}'>Dashed underline</span>: a word the speech "
               "recogniser was unsure of (View &gt; Underline unsure words). "
               if self.settings.appearance.underline_unsure else "") +
            "¶ in the margin: the text runs on there until the break is accepted (it starts on a "
            "new line without an empty one). ⋯ in the margin: the paragraph runs on (a rejected "
            "break, or a long run shown on lines only to stay quick). "
            f"<span style='color:{CUE_COLOUR}'>│</span> before a word: a subtitle cue (or "
            "segment) begins there. Times in the margin: when each paragraph (or line marked ¶ "
            "or ⋯) begins (hover a word for its own); Ctrl+J types the playback time. "
            "Export writes the text as it shows, proposals in, unless you choose only what you "
            "accepted. Help ▸ Review tour explains "
            "review.")

    def key_html(self) -> str:
        """The whole key's words: the compact lines' meanings, then the rest."""
        return "<br>".join(meaning.text() for _, meaning in self.rows) + "<br>" + self.more_html()


class QtSuggestionList(QWidget):
    """Pending suggestions of a transcript by confidence; activating one makes it current.
    ``counted(pending)`` after every change, in decisions (rows), so counts shown elsewhere stay
    current."""

    activated = Signal(object)  # Suggestion
    reject_requested = Signal(object)  # Suggestion: Delete on its row
    counted = Signal(int)
    band_changed = Signal(object)  # the band the list is filtered to ("low", ...), None: all

    def __init__(self, transcript: Transcript, settings: Settings, parent: QWidget | None = None, *,
                 turns: WindowTurns | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self._turns = turns if turns is not None else WindowTurns()  # the window's: a slice is a step
        self._transcript: Transcript | None = None
        self._links = DocumentLinks()  # to the document's signals
        self.busy = False  # restoration running: refresh less often
        self.reviewing = False  # the view's review mode (what Enter and Delete do)
        self._shown: Suggestion | None = None
        self.pending_count = 0
        self._listed = 0  # how many pending suggestions the last refresh found in the filter
        self._cost = 0.0  # seconds the last refresh took
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        self.legend = QtLegend(settings)
        layout.addWidget(self.legend)
        self.current_label = QLabel()
        self.current_label.setObjectName("current-suggestion")
        self.current_label.setWordWrap(True)
        self.current_label.setTextFormat(Qt.TextFormat.RichText)
        self.current_label.setFrameShape(QFrame.Shape.StyledPanel)
        self.current_label.setMinimumHeight(80)
        self.current_label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.current_label)
        row = QHBoxLayout()
        self.count_label = QLabel()
        # Wrapped, it never widens the panel: "3,500 pending (first 400 listed)" set the panel's
        # least width, and as the count changed (accepting all, undoing it) the splitter took
        # that from the text, which was laid out again at each change.
        self.count_label.setWordWrap(True)
        row.addWidget(self.count_label, 1)
        self.filter = QComboBox()
        self.filter.addItems(_FILTERS)
        self.filter.setAccessibleName("Which suggestions to list")
        self.filter.setToolTip("Which pending suggestions to list (Tab and Shift+Tab go only to "
                               "those listed); From your choice: those that repeat a choice you "
                               "made elsewhere")
        self.filter.currentIndexChanged.connect(self._filter_changed)
        row.addWidget(self.filter)
        layout.addLayout(row)
        self.list = QListWidget()
        self.list.setUniformItemSizes(True)
        # A long row gives way in the words before the suggestion, then the word after it, then
        # what it changes (QtPendingRowDelegate): its confidence and the word stay in sight; the
        # whole row in its tooltip. (Qt's own ElideMiddle took the word: "…train st…nd · add".)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)  # only what the delegate missed
        self.list.setItemDelegate(QtPendingRowDelegate(self.list))
        self.list.setObjectName("pending-list")
        self.list.setAccessibleName("Pending suggestions")
        self.list.setToolTip(
            "Pending suggestions, least confident first: the confidence, the words around it as "
            "they would read, and what changes —<br><b>capital</b>: the word would start with a "
            "capital letter; <b>lower case</b>: its capital would go; <b>add ‘,’ comma</b>: a mark "
            "after the word; <b>remove ‘,’ comma</b>: the mark after it would go; <b>‘,’ → ‘.’ full "
            "stop</b>: its mark would change.")
        # what a screen reader says of the list: plain words (the tooltip's HTML was read out,
        # "<br><b>capital</b>"), and the keys
        self.list.setAccessibleDescription(
            "Pending suggestions, least confident first. Enter goes to the suggestion in the text, "
            "Delete rejects it.")
        self.list.installEventFilter(self)
        self.items: list[Suggestion] = []  # what the rows show, in order
        self._row_of: dict[tuple[int, Kind], int] = {}  # each listed suggestion's row
        # the row Delete rejected in the list and the suggestion of the row below it, where the
        # keyboard goes on (see _scanner)
        self._place: tuple[int, tuple[int, Kind] | None] | None = None
        self.list.itemActivated.connect(self._activated)
        self.list.itemClicked.connect(self._activated)
        # Why there are no suggestions, when the transcript was not restored (another language,
        # no model): said here, where they would be; the status bar's line may be covered by a
        # passing message, or cut short.
        self.notice = QLabel()
        self.notice.setObjectName("panel-notice")
        self.notice.setWordWrap(True)
        self.notice.setTextFormat(Qt.TextFormat.RichText)
        self.notice.setFrameShape(QFrame.Shape.StyledPanel)
        self.notice.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.notice.hide()
        self._notices: dict[str, str] = {}  # what the notice says, by what it is about
        layout.addWidget(self.notice)
        layout.addWidget(self.list, 1)
        self._timer = QTimer(self)  # many events in a row (a restoration pass) -> one refresh
        self._timer.setSingleShot(True)
        self._timer.setInterval(250)
        self._timer.timeout.connect(self._refresh_in_slices)
        # the refresh's next slice: a timer, so that other timers get their turn between two
        # slices (posted calls all run before any timer; see ReviewCommands._next_slice)
        self._next_slice = QTimer(self)
        self._next_slice.setSingleShot(True)
        self._next_slice.setInterval(0)
        self._next_slice.timeout.connect(lambda: self._scan_slice())
        self._scan: Iterator[bool] | None = None  # the refresh under way, a slice per turn of the event loop
        self._again = False
        self.show_current(None)
        self.set_transcript(transcript)

    def set_transcript(self, transcript: Transcript) -> None:
        self._links.clear()  # (see editor.gui.base.links: nothing left behind on the old document)
        self._transcript = transcript
        self._links.connect(transcript.suggestions_changed, self._changed)
        self._links.connect(transcript.tokens_changed, self._changed)
        if transcript.suggested_count() <= _SCAN_AT_ONCE:
            self.refresh()
            return
        self._timer.stop()
        self.items = []
        self._row_of = {}
        self.list.clear()
        self._show_count()  # the count at once; the list from the next turn, a slice at a time
        self._again = False
        self._scan = self._scanner()
        self._next_slice.start()

    @property
    def band(self) -> str | None:
        """The confidence band the list is filtered to, None when it lists all pending."""
        wanted = self.filter.currentIndex()
        return _BANDS_LISTED[wanted - 1] if wanted > 0 else None

    def _filter_changed(self) -> None:
        self.refresh()
        self.band_changed.emit(self.band)
        if self._shown is None:
            self.show_current(None)

    @property
    def counting(self) -> bool:
        """A refresh of the list is under way (a slice per turn of the event loop)."""
        return self._scan is not None

    def _changed(self, *_: object) -> None:
        self._show_count()
        if self._scan is not None:
            self._again = True  # the scan under way may have missed it: another after it
        elif not self._timer.isActive():
            # While restoration streams in, refresh seldom, and the more seldom the longer a
            # refresh takes (a 100,000-word transcript has 200,000 suggestions to look through).
            self._timer.start(max(1500, int(self._cost * 40_000)) if self.busy else 250)

    def refresh_soon(self) -> None:
        """Refresh on the next turn of the event loop (a slice at a time)."""
        if self._scan is None:
            self._timer.start(0)
        else:
            self._again = True

    def refresh(self) -> None:
        """List the least confident pending suggestions at once (only the first LIST_LIMIT are
        sorted: a full sort of 20,000 suggestions would stall the window)."""
        self._timer.stop()
        self._scan = None
        if self._transcript is None:
            return
        scan = self._scanner()
        for _ in scan:
            pass

    def _refresh_in_slices(self) -> None:
        """The same as ``refresh``, looking through the suggestions a slice per turn of the event
        loop, so a long transcript never stalls the window while its list is brought up to date."""
        if self._transcript is None:
            return
        self._again = False
        self._scan = self._scanner()
        self._scan_slice()

    def _scan_slice(self) -> None:
        with self._turns.busy():  # background work gives way meanwhile (WindowTurns.give_way)
            self._scan_step()

    def _scan_step(self) -> None:
        scan = self._scan
        if scan is None:
            return
        end = time.perf_counter() + _SCAN_SECONDS
        while True:
            began = time.perf_counter()
            if next(scan, None) is None:
                self._scan = None
                if self._again:
                    self._changed()
                return
            now = time.perf_counter()
            if now + (now - began) > end:  # the next slice would end past the turn's time
                break
        self._next_slice.start()

    def _scanner(self) -> Iterator[bool]:
        """Yields True per slice of suggestions looked at; shows the result at the end."""
        worked = 0.0
        doc = self._transcript
        assert doc is not None, "a scan starts only with a transcript"
        band = self.band
        ids = doc.suggested_token_ids()  # a snapshot, as edits may come between slices
        worst: list[tuple[float, int, Suggestion]] = []  # the LIST_LIMIT least confident, max-heap
        order = 0
        for k in range(0, len(ids), _SCAN_STEP):
            t0 = time.perf_counter()
            for token_id in ids[k:k + _SCAN_STEP]:
                for s in doc.suggestion_view(token_id).values():
                    if s.state != State.PENDING or (s.kind == Kind.CASE and doc.follows_mark(s)):
                        continue  # (a capital that follows a mark is listed in the mark's row)
                    p = s.probs[s.value]
                    if band is not None and not in_band(s, band, self.settings):
                        continue
                    order += 1
                    if len(worst) < LIST_LIMIT:
                        heapq.heappush(worst, (-p, order, s))
                    elif p < -worst[0][0]:
                        heapq.heapreplace(worst, (-p, order, s))
            worked += time.perf_counter() - t0
            yield True
        t0 = time.perf_counter()
        lowest = [s for _, _, s in worst
                  if doc.has_token(s.token_id) and doc.suggestion(s.token_id, s.kind) is s]
        lowest.sort(key=lambda s: (s.probs[s.value], doc.index_of(s.token_id), s.kind != Kind.CASE))
        worked += time.perf_counter() - t0
        # Each row's words, what a reader says of it and its item are made a slice at a time as
        # well; the last step only puts the items in (400 rows made there held the window 20-48
        # ms at 100,000 words, see docs/performance.md).
        brushes = {band: QBrush(band_colour(band, self.settings, 45)) for band in BANDS}
        made: list[QListWidgetItem] = []
        yield True
        for k in range(0, len(lowest), _ROWS_A_SLICE):
            t0 = time.perf_counter()
            made += [self._list_item(doc, s, brushes) for s in lowest[k:k + _ROWS_A_SLICE]]
            worked += time.perf_counter() - t0
            yield True
        t0 = time.perf_counter()
        # where the keyboard is in the list with nothing under review (Ctrl+2, the arrows): kept
        # on the same suggestion; Delete having rejected it, on the row below it
        keyboard = self._shown is None and self.list.hasFocus()
        place = self.list.currentRow() if keyboard else -1
        held = self.items[place].key if 0 <= place < len(self.items) else None
        if keyboard and self._place is not None:
            place, held = self._place
        self._place = None
        self.items = lowest
        self._listed = order
        self._row_of = {s.key: n for n, s in enumerate(lowest)}
        self.list.setUpdatesEnabled(False)
        kept = self.list.verticalScrollBar().value()  # the list keeps its place (then shows the current row)
        self.list.clear()
        for item in made:
            self.list.addItem(item)
        self.list.verticalScrollBar().setValue(kept)
        self._select_row(self._shown)
        if place >= 0 and lowest:
            same = self._row_of.get(held, -1) if held is not None else -1
            self.list.setCurrentRow(same if same >= 0 else min(place, len(lowest) - 1))
        self.list.setUpdatesEnabled(True)
        self._show_count()
        self._cost = worked + time.perf_counter() - t0

    def _list_item(self, doc: Transcript, s: Suggestion, brushes: dict[str, QBrush]) -> QListWidgetItem:
        """The list's row for ``s``: its text, its parts for the delegate, what a reader says."""
        row = self.row_parts(s)
        text = row.text if row is not None else self.describe(s)
        item = QListWidgetItem(text)
        item.setData(PARTS_ROLE, row)  # for the delegate, which fits the row to the width
        item.setToolTip(text)
        if row is not None:
            item.setData(Qt.ItemDataRole.AccessibleTextRole, spoken_row(
                doc, s, f"{row.before} {row.word} {row.after}".strip()))
        item.setBackground(brushes[band_of(s.confidence, self.settings)])
        return item

    def _show_count(self) -> None:
        """The count above the list, current at every change: the document keeps its pending
        count in decisions (a row each: a sentence end and its capital are one), and how many
        are in each band of confidence, so this needs no pass over the suggestions (the list
        itself follows a moment later)."""
        doc = self._transcript
        if doc is None:
            return
        pending = doc.pending_decisions
        wanted = self.filter.currentIndex()
        if wanted == 0:
            text = f"{pending:,} pending"
            shown = pending
        elif self.band == CHOICE_BAND:
            # (the document keeps no count of these: the last refresh's, a moment behind)
            shown = min(self._listed, pending)
            text = f"{shown:,} of {pending:,} pending from your choice"
        else:
            review = self.settings.review
            low, high = min(review.low, review.high), review.high
            shown = (doc.pending_decisions_between(0.0, low), doc.pending_decisions_between(low, high),
                     doc.pending_decisions_between(high))[wanted - 1]
            text = f"{shown:,} of {pending:,} pending"
        if shown > LIST_LIMIT:
            text += f" (first {LIST_LIMIT} listed)"
        self.pending_count = pending
        if text != self.count_label.text():
            self.count_label.setText(text)
        self.counted.emit(pending)

    def describe(self, s: Suggestion) -> str:
        """"62%  …the old train station. And  · add ‘.’ full stop": the words around it as they
        would read, and as the text shows them, with the other proposals in ("…for donations. And
        the · capital": the capital's reason, a proposed full stop, is there)."""
        parts = self.row_parts(s)
        return parts.text if parts is not None else f"{percent(s.confidence):>4}  ?"

    def row_parts(self, s: Suggestion) -> RowParts | None:
        """The parts of ``describe``'s row, which a narrow list shows some of (pending_rows);
        None for a word no longer in the text."""
        doc = self._transcript
        if doc is None or not doc.has_token(s.token_id):
            return None
        i = doc.index_of(s.token_id)
        token = doc[i]
        surface, punct = _as_shown(doc, token)
        keep = s.source == CHOICE and is_keep(s, token)
        if s.kind == Kind.BREAK:
            word, what = f"¶ {join_mark(surface, punct)}", "paragraph break before"
            brief = "break before"
        elif keep and s.kind == Kind.CASE:
            word, what = join_mark(s.value, punct), f"keep ‘{s.value}’ as it is"
            brief = f"keep ‘{s.value}’"
        elif keep:
            word, what = join_mark(surface, s.value), f"keep {named_mark(s.value)}" if s.value else "keep without a mark"
            brief = f"keep ‘{s.value}’" if s.value else "keep no mark"
        elif s.kind == Kind.CASE:
            word = join_mark(s.value, punct)
            what = brief = case_change(token.surface or token.word, s.value)
        elif s.value and token.punct:
            word, what = join_mark(surface, s.value), f"‘{token.punct}’ → {named_mark(s.value)}"
            brief = f"‘{token.punct}’ → ‘{s.value}’"
        elif s.value:
            word, what = join_mark(surface, s.value), f"add {named_mark(s.value)}"
            brief = f"add ‘{s.value}’"
        else:
            word, what = join_mark(surface, token.punct), f"remove {named_mark(token.punct)}"
            brief = f"remove ‘{token.punct}’"
        point = doc.decision_point(s.token_id, s.kind) if s.kind == Kind.PUNCT else None
        if point is not None and point.capital is not None:  # one decision, both halves in its row
            what += f" + ‘{point.capital.value}’"
            brief += f" + ‘{point.capital.value}’"
        # by index: doc.tokens copies every word after each change (a row per suggestion listed)
        before = " ".join(join_mark(*_as_shown(doc, doc[j])) for j in range(max(0, i - 3), i))
        after = join_mark(*_as_shown(doc, doc[i + 1])) if i + 1 < len(doc) else ""
        return RowParts(f"{percent(s.confidence):>4}", f"{'…' if i > 3 else ''}{before}", word, after, what,
                        brief, _ORIGIN_TAGS.get(s.source, ""))

    def show_notice(self, title: str | None, text: str = "", about: str = "restoration") -> None:
        """Say above the list, in plain words, what the person should know about the text
        (``about``: "restoration", why the list is empty; "fonts", a script no font here has),
        ``title`` in bold, then ``text``; None: no more of that."""
        if title is None:
            self._notices.pop(about, None)
        else:
            self._notices[about] = f"<b>{html.escape(title)}</b><br>{html.escape(text)}"
        self.notice.setText("<br><br>".join(self._notices.values()))
        self.notice.setVisible(bool(self._notices))

    def set_reviewing(self, reviewing: bool) -> None:
        self.reviewing = reviewing
        if self._shown is None:
            self.show_current(None)

    def _select_row(self, s: Suggestion | None) -> None:
        """Select and scroll to the row of ``s``, the suggestion under review, as Tab, Shift+Tab
        or a click in the text make it current; no row when it is not listed (beyond the first
        LIST_LIMIT, or another band). Selecting emits none of the signals a person's click does."""
        row = self._row_of.get(s.key, -1) if s is not None else -1
        if row < 0:
            self.list.setCurrentRow(-1)
            self.list.clearSelection()
            return
        self.list.setCurrentRow(row)
        item = self.list.item(row)
        if item is not None:
            self.list.scrollToItem(item, QListWidget.ScrollHint.EnsureVisible)

    def show_current(self, s: Suggestion | None) -> None:
        self._shown = s
        self._select_row(s)
        if s is None:
            among = ("" if self.band is None else " (from your choice)" if self.band == CHOICE_BAND
                     else f" {self.band}-confidence")
            if self.reviewing:
                self.current_label.setText(
                    f"<b>Reviewing</b> — no suggestion selected<br>Tab / Shift+Tab: next / previous{among}"
                    "<br>Enter, Delete and 1–9 do nothing until one is selected; move the caret "
                    "to edit")
            else:
                self.current_label.setText(
                    "<b>Editing</b> — Enter, Delete and 1–9 edit the text<br>"
                    f"Tab / Shift+Tab: go to the next / previous{among} suggestion; then Enter accepts, "
                    "Delete rejects, 1–9 picks an alternative")
            return
        title = {Kind.CASE: "Capitals", Kind.BREAK: "Paragraph break"}.get(s.kind, "Mark after the word")
        doc = self._transcript
        origin, delete = "", "reject"
        if s.source == LEXICON:
            origin = ", from your lexicon"
        if s.source == CHOICE:
            keep = doc is not None and doc.has_token(s.token_id) and is_keep(s, doc.token(s.token_id))
            origin = ", from your choice elsewhere" + (": keep it as it is" if keep and s.state == State.PENDING else "")
            if s.state == State.PENDING and s.original is not None and s.original != s.value:
                delete = "Stet's proposal back"  # (accept_rules.turned_down)
        point = doc.decision_point(s.token_id, s.kind) if doc is not None and s.state == State.PENDING else None
        written = ""  # the next word as it stands (a point's capital turned down leaves it so)
        if point is None or point.capital is None or doc is None:
            rows = [f"<b>{title}</b> ({s.state.value}{origin}) — Enter: accept · Delete: {delete} · "
                    f"1–9: pick"]
        else:  # a mark and the capital after it: one decision, both parts shown
            capital = point.capital
            token = doc.token(capital.token_id)
            written = token.surface or token.word
            rows = [f"<b>{title}, and the capital after it</b> ({s.state.value}{origin}) — one "
                    f"decision: Enter: accept both · Delete: {delete}, both · 1–9: pick the mark; "
                    f"the next word follows it ({html.escape(capital.value)} "
                    f"{percent(capital.confidence)})"]
        pause = pause_at(doc, s) if doc is not None else None
        if pause is not None:  # heard in the recording: how long the speaker stopped there
            rows.append(f"pause {pause:.2f} s")
        for n, (value, p) in enumerate(s.alternatives()[:6], 1):
            text = html.escape(describe_value(s.kind, value))
            if value == s.value:
                text = f"<b>{text}</b>"
            if point is not None and point.capital is not None:
                text += html.escape(f" ‘{point.capital.value if point.capital_after(value) else written}’")
            rows.append(f"{n}. {text} — {percent(p)}")
        refused = likelier_refused(s) if s.state == State.PENDING else None
        if refused is not None and doc is not None and doc.has_token(s.token_id):
            index = doc.index_of(s.token_id)
            after = f"‘{doc[index + 1].surface or doc[index + 1].word}’" if index + 1 < len(doc) else "the next word"
            rows.append(html.escape(f"Not the likelier {describe_value(Kind.PUNCT, refused)}: {after} after it is "
                                    "likelier in lower case, and a sentence end brings a capital"))
        self.current_label.setText("<br>".join(rows))

    def row_after(self, key: tuple[int, Kind]) -> Suggestion | None:
        """The pending suggestion of the first row below that of ``key`` still pending (None:
        ``key`` is not listed, or nothing below it is): where a pass down the list goes on."""
        doc = self._transcript
        row = self._row_of.get(key)
        if doc is None or row is None:
            return None
        for s in self.items[row + 1:]:
            now = doc.suggestion(*s.key) if doc.has_token(s.token_id) else None
            if now is not None and now.state == State.PENDING and not doc.follows_mark(now):
                return now
        return None
    def focus_list(self) -> None:
        """View > Suggestion list (Ctrl+2): the keyboard in the list, on a row: the suggestion
        under review's, else the first (a second Ctrl+2 landed on no row: a reader said nothing)."""
        self.list.setFocus()
        if self.list.currentRow() < 0 and self.list.count():
            row = self._row_of.get(self._shown.key, 0) if self._shown is not None else 0
            self.list.setCurrentRow(row)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Delete on a row of the list rejects its suggestion (it did nothing)."""
        if watched is self.list and event.type() == QEvent.Type.KeyPress \
                and cast(QKeyEvent, event).key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            row = self.list.currentRow()
            if 0 <= row < len(self.items):
                self._place = (row, self.items[row + 1].key if row + 1 < len(self.items) else None)
                self.reject_requested.emit(self.items[row])
                return True
        return super().eventFilter(watched, event)

    def _activated(self, item: QListWidgetItem) -> None:
        row = self.list.row(item)
        if 0 <= row < len(self.items):
            self.activated.emit(self.items[row])

    def apply_settings(self) -> None:
        self.legend.refresh()
        self.refresh()
