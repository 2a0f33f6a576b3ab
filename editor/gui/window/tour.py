"""A short tour of review, a page at a time: what a tinted proposal is, the keys that review,
accept-all, and the comma style (chosen on its page). Shown once on the first start (``settings.help.tour_seen``) and from the Help menu."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent, QTextDocumentFragment
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QPushButton, QStackedWidget, QVBoxLayout, QWidget

from editor.core.settings import Settings
from editor.gui.base.actions import BY_ID, keys_of
from editor.gui.dialogs.settings import comma_box
from editor.gui.text_view.accessibility import say
from editor.gui.text_view.looks import band_colour


#: The tour's width; its height is what the longest page needs (``ReviewTour._fit``).
WIDTH = 520
#: The page where the person chooses a comma style (``ReviewTour.commas``).
COMMAS_TITLE = "How many commas?"


def _keys(action_id: str) -> str:
    return f"<b>{keys_of(action_id)}</b>"


def _command(action_id: str) -> str:
    """A command as its menu shows it: "Review ▸ Accept all confident"."""
    action = BY_ID[action_id]
    return f"<b>{action.menu} ▸ {action.name}</b>"


def _tint(settings: Settings, band: str) -> str:
    c = band_colour(band, settings, 150)
    return f"background:rgba({c.red()},{c.green()},{c.blue()},{c.alpha()})"


def pages(settings: Settings) -> list[tuple[str, str, str]]:
    """(title, rich text, the section of the user guide that tells more) of each page, with the
    keys and names of the table of actions (editor/gui/base/actions.py) and the colours and thresholds of ``settings``."""
    high, medium, low = (_tint(settings, band) for band in ("high", "medium", "low"))
    review = settings.review
    example = (f"so how does it work<b style='{high}; font-size:large'>?</b> "
               f"<span style='{medium}'>You</span> sign in at the front table"
               f"<b style='{low}; font-size:large'>,</b> and")
    return [
        ("Tinted words and marks are proposals",
         f"<p style='font-size:large'>{example}</p>"
         "<p>Stet restores punctuation and capitals as <b>proposals</b>: a tinted capital or mark is "
         "<b>not in your text</b> until you accept it. Plain text is the text as it stands.</p>"
         f"<p>The tint says how sure Stet is: <span style='{high}'>&nbsp;high ≥ {review.high:.0%}&nbsp;</span> "
         f"<span style='{medium}'>&nbsp;medium&nbsp;</span> <span style='{low}'>&nbsp;low &lt; {review.low:.0%}"
         "&nbsp;</span> (low ones are also dotted-underlined). The key above the list on the right "
         "explains every mark.</p>", "user-guide.md#reviewing-in-the-editor"),
        ("Review with three keys",
         f"<p>{_keys('review.next')} selects the next proposal (it is framed), "
         f"{_keys('review.previous')} the previous one. Then:</p>"
         f"<p>{_keys('review.accept')} <b>accepts</b> it · {_keys('review.reject')} <b>rejects</b> it · "
         f"{_keys('review.alternative')} picks one of its alternatives, listed on the right. A sentence "
         "end and the capital after it are one proposal: one key decides both.</p>"
         f"<p>Move the caret or press {_keys('review.leave')} and the keys edit the text "
         "again; the status bar always says which (“Reviewing” or “Editing”).</p>", "user-guide.md#keys"),
        ("Accept many at once",
         f"<p>{_command('review.accept_confident')} ({_keys('review.accept_confident')}) accepts every "
         f"pending proposal at or above {review.high:.0%}; {_command('review.accept_above')} asks for "
         "the threshold and says how many first.</p>"
         f"<p>Each accept-all is one step of {_keys('edit.undo')} (undo). Export writes the text as "
         "it shows, proposals in, unless you choose only what you accepted.</p>", "user-guide.md#keys"),
        (COMMAS_TITLE,
         "<p>Writers and style guides disagree most about commas, so how many Stet proposes is yours "
         "to choose. Commas less sure than your style's line are neither asked nor put in; a comma "
         "where a sentence may end is still asked, so that you can pick the full stop.</p>"
         "<p>Choose here, or later in <b>Settings</b>; the next restoration follows it.</p>",
         "user-guide.md#commas"),
        ("Help is in the Help menu",
         f"<p>{_command('help.shortcuts')} ({_keys('help.shortcuts')}) lists every key; "
         f"{_command('help.tour')} shows this again; {_command('help.guide')} tells the rest.</p>",
         "user-guide.md#help"),
    ]


class ReviewTour(QDialog):
    """The tour's pages with Back, Next (Done on the last) and Skip tour; each page links to the
    section of the user guide that tells more, opened by ``open_help(topic)`` (the help window)."""

    def __init__(self, settings: Settings, parent: QWidget | None = None,
                 open_help: Callable[[str], object] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Review in Stet — a short tour")
        self.open_help = open_help
        self.settings = settings
        self.stack = QStackedWidget()
        #: the comma style, set in ``settings`` as it is chosen (the window saves the settings)
        self.commas = comma_box(settings.review.commas)
        self.commas.currentIndexChanged.connect(
            lambda _i: settings.set("review.commas", self.commas.currentData()))
        self._spoken: list[str] = []  # each page as a screen reader hears it when it turns
        for title, text, topic in pages(settings):
            self._spoken.append(f"{title}. {QTextDocumentFragment.fromHtml(text).toPlainText()}")
            page = QWidget()
            column = QVBoxLayout(page)
            heading = QLabel(f"<h3>{title}</h3>")
            body = QLabel(text)
            body.setWordWrap(True)
            body.setTextFormat(Qt.TextFormat.RichText)
            body.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
            column.addWidget(heading)
            column.addWidget(body)
            if title == COMMAS_TITLE:
                column.addWidget(self.commas)
            column.addStretch(1)  # a shorter page keeps its text at the top
            if open_help is not None:
                more = QLabel(f"<a href='{topic}'>More in the user guide…</a>")
                more.setObjectName("tour-more")
                more.setAccessibleName(f"More in the user guide about {title.lower()}")
                more.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse
                                             | Qt.TextInteractionFlag.LinksAccessibleByKeyboard)
                more.linkActivated.connect(open_help)
                column.addWidget(more)
            self.stack.addWidget(page)
        self.where = QLabel()
        self.skip_button = QPushButton("Skip tour")
        self.skip_button.clicked.connect(self.reject)
        self.back_button = QPushButton("Back")
        self.back_button.clicked.connect(lambda: self.go(-1))
        self.next_button = QPushButton("Next")
        self.next_button.setDefault(True)
        self.next_button.clicked.connect(lambda: self.go(+1))
        row = QHBoxLayout()
        row.addWidget(self.where)
        row.addStretch(1)
        for button in (self.skip_button, self.back_button, self.next_button):
            row.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.stack, 1)
        layout.addLayout(row)
        self._fit(WIDTH)
        self.go(0)

    def _fit(self, width: int) -> None:
        """As tall as the longest page needs at ``width``: at 560x320 each page was about 60 %
        empty. The pages' text is set in the dialog's font, so the height follows it."""
        layout = self.layout()
        assert layout is not None, "built in __init__"
        margins = layout.contentsMargins()
        inner = width - margins.left() - margins.right()
        tallest = 0
        for n in range(self.stack.count()):
            page = self.stack.widget(n)
            column = page.layout() if page is not None else None
            if column is not None:
                tallest = max(tallest, column.totalHeightForWidth(inner))
        self.stack.setMinimumHeight(tallest)
        rows = layout.itemAt(1)
        buttons = rows.sizeHint().height() if rows is not None else 0
        self.resize(width, margins.top() + tallest + layout.spacing() + buttons + margins.bottom())

    @property
    def page(self) -> int:
        return self.stack.currentIndex()

    def go(self, step: int) -> None:
        """Turn ``step`` pages; past the last, the tour is done."""
        to = self.page + step
        if to >= self.stack.count():
            self.accept()
            return
        self.stack.setCurrentIndex(max(0, to))
        last = self.page == self.stack.count() - 1
        self.back_button.setEnabled(self.page > 0)
        self.next_button.setText("Done" if last else "Next")
        self.skip_button.setVisible(not last)
        self.where.setText(f"{self.page + 1} of {self.stack.count()}")
        # Next keeps the focus while the page turns: the page is said as its description (Orca
        # speaks the focused button's change) and announced (the page changed silently)
        say(self.next_button, f"Page {self.page + 1} of {self.stack.count()}: {self._spoken[self.page]}")

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        # the tour opens on Next, which a reader names, not on the page's link (an unlabelled
        # "More in the user guide…" that took the first focus)
        self.next_button.setFocus()
