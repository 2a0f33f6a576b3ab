"""Help > User guide: the pages of docs/ that ship with Stet (editor.core.paths.docs_path), shown in
a window of their own with their contents, a find field that searches every page, and links that
work: between the pages and to their headings inside the window, to the web in the browser.

Qt renders the Markdown (``QTextDocument.setMarkdown``); what it does not do is done here: the
anchors GitHub gives headings (so ``formats.md#speakers`` lands on "Speakers"), pictures scaled to
the window, and a picture that this copy of Stet does not carry named instead of drawn blank.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QPoint, QTimer, QUrl, Qt
from PySide6.QtGui import (
    QColor,
    QDesktopServices,
    QImageReader,
    QKeySequence,
    QShortcut,
    QTextCursor,
    QTextDocument,
    QTextOption,
)
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QTextEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor.core.paths import HELP_PAGES, docs_path
from editor.gui.base.screen_fit import resize_within_screen

#: ![alt](target "title") in Markdown: a picture
_PICTURE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)[^)]*\)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$", re.M)
_FENCE = re.compile(r"^```.*?^```", re.S | re.M)
#: widest a picture is drawn, in pixels (the screenshots are up to 1200 wide): alone, and in a
#: table's cell (two side by side)
PICTURE_WIDTH = 620
CELL_PICTURE_WIDTH = 340
#: the deepest heading level the contents list (2: sections, 3: their subsections)
CONTENTS_DEPTH = 3


def heading_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens
    ("Long paragraphs: proposed breaks" -> "long-paragraphs-proposed-breaks"), so that the links the
    pages have for GitHub work here too. (Written out: Qt makes no anchors of Markdown headings.)"""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # as rendered: no code ticks, link text
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    anchor: str


def headings(markdown: str) -> list[Heading]:
    """The headings of a page with their anchors (a repeated one gets -1, -2 as on GitHub)."""
    out: list[Heading] = []
    seen: dict[str, int] = {}
    for marks, text in _HEADING.findall(_FENCE.sub("", markdown)):
        anchor = heading_anchor(text)
        count = seen.get(anchor, 0)
        seen[anchor] = count + 1
        out.append(Heading(len(marks), re.sub(r"[`*_]", "", text), f"{anchor}-{count}" if count else anchor))
    return out


def page_title(path: Path) -> str:
    """The page's first heading, else its file name."""
    try:
        found = headings(path.read_text(encoding="utf-8"))
    except OSError:
        found = []
    return found[0].text if found else path.name


def with_missing_pictures_named(markdown: str, folder: Path) -> str:
    """A picture this copy of Stet does not carry (the README's screenshots stay out of the wheel
    and the bundle) is named in italics instead of drawn as an empty box."""

    def named(match: re.Match[str]) -> str:
        alt, target = match.group(1), match.group(2)
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or (folder / target).is_file():
            return match.group(0)
        return f"*(picture: {alt})*" if alt else ""

    return _PICTURE.sub(named, markdown)


def mark_headings(document: QTextDocument, found: list[Heading]) -> None:
    """Give each heading block of the page the anchor of the heading it came from, in order."""
    block = document.begin()
    wanted = iter(found)
    while block.isValid():
        if block.blockFormat().headingLevel() > 0:
            heading = next(wanted, None)
            if heading is None:
                break
            cursor = QTextCursor(block)
            cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
            fmt = cursor.charFormat()
            fmt.setAnchor(True)
            fmt.setAnchorNames([heading.anchor])
            cursor.mergeCharFormat(fmt)
        block = block.next()


def wrap_code(document: QTextDocument) -> None:
    """Let the lines of code blocks wrap as the text around them does. Qt's Markdown makes each a
    block that never breaks, and the longest command line of the guide (980 pixels) gave the whole
    page a horizontal scroll bar at the window's default size, every paragraph then read by
    scrolling sideways."""
    block = document.begin()
    while block.isValid():
        if block.blockFormat().nonBreakableLines():
            fmt = block.blockFormat()
            fmt.setNonBreakableLines(False)
            QTextCursor(block).setBlockFormat(fmt)
        block = block.next()


def fit_pictures(document: QTextDocument, folder: Path, room: int = PICTURE_WIDTH) -> None:
    """Draw a picture wider than PICTURE_WIDTH (CELL_PICTURE_WIDTH in a table), or than ``room``
    (the page's width; half of it in a table's cell), at that width, its height in proportion."""
    block = document.begin()
    while block.isValid():
        in_table = QTextCursor(block).currentTable() is not None
        # a cell: half the room, less its padding and borders
        widest = min(CELL_PICTURE_WIDTH, room // 2 - 12) if in_table else min(PICTURE_WIDTH, room)
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            fmt = fragment.charFormat()
            if fmt.isImageFormat():
                image = fmt.toImageFormat()
                size = QImageReader(str(folder / image.name())).size()
                if size.isValid() and size.width() > widest:
                    image.setWidth(widest)
                    image.setHeight(size.height() * widest / size.width())
                    cursor = QTextCursor(document)
                    cursor.setPosition(fragment.position())
                    cursor.setPosition(fragment.position() + fragment.length(), QTextCursor.MoveMode.KeepAnchor)
                    cursor.setCharFormat(image)
            it += 1
        block = block.next()


class HelpWindow(QMainWindow):
    """The help pages: contents on the left, the page on the right, a find field above.

    ``show_topic("formats.md#speakers")`` shows a page at a heading; a link clicked in a page
    goes the same way, and Back/Forward retrace them.

    For a screen reader it is a window (a main window: a plain widget reads as a "filler") whose
    page has a caret that the arrow keys move, so that a reader speaks it line by line and not only
    by Say All; the find field, its count and the contents are named."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle("Stet help")
        self.setObjectName("help-window")
        self.page: Path | None = None  # the page shown
        self._fitted_to = 0  # the page's width its pictures were fitted to
        self._history: list[tuple[Path, str]] = []  # (page, anchor) shown, for Back and Forward
        self._left_at: dict[int, int] = {}  # history entry -> where its page was scrolled when left
        self._at = -1

        self.back_button = QPushButton("◀ Back")
        self.back_button.setToolTip("Back (Alt+Left)")
        self.back_button.clicked.connect(lambda: self._go(-1))
        self.forward_button = QPushButton("Forward ▶")
        self.forward_button.setToolTip("Forward (Alt+Right)")
        self.forward_button.clicked.connect(lambda: self._go(+1))
        self.find_edit = QLineEdit()
        self.find_edit.setObjectName("help-find")
        self.find_edit.setPlaceholderText("Find in the help (Enter: next, Shift+Enter: previous)")
        self.find_edit.setClearButtonEnabled(True)
        self.find_edit.textChanged.connect(self._highlight)
        self.find_edit.returnPressed.connect(self.find_next)
        previous = QShortcut(QKeySequence("Shift+Return"), self.find_edit)
        previous.setContext(Qt.ShortcutContext.WidgetShortcut)
        previous.activated.connect(lambda: self.find_next(backwards=True))
        self.find_status = QLabel()
        self.find_status.setObjectName("help-find-status")
        self.find_status.setMinimumWidth(160)
        bar = QHBoxLayout()
        bar.addWidget(self.back_button)
        bar.addWidget(self.forward_button)
        bar.addWidget(self.find_edit, 1)
        bar.addWidget(self.find_status)

        self.contents = QTreeWidget()
        self.contents.setObjectName("help-contents")
        self.contents.setHeaderHidden(True)
        self.contents.itemActivated.connect(self._contents_chosen)
        self.contents.itemClicked.connect(self._contents_chosen)
        self.browser = QTextBrowser()
        self.browser.setObjectName("help-page")
        # a word longer than the page (a path, a command's option) breaks rather than widen it
        self.browser.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.browser.setOpenLinks(False)  # every link goes through follow(): pages here, web outside
        self.browser.anchorClicked.connect(self.follow)
        # pictures fitted again once a resize of the page settles (a load a resize, not one a pixel)
        self._refit = QTimer(self)
        self._refit.setSingleShot(True)
        self._refit.setInterval(200)
        self._refit.timeout.connect(self._fit_to_width)
        self.browser.viewport().installEventFilter(self)
        split = QSplitter()
        split.addWidget(self.contents)
        split.addWidget(self.browser)
        split.setStretchFactor(1, 1)
        self.status = QLabel()
        self.status.setObjectName("help-status")
        self.status.setWordWrap(True)
        self.browser.highlighted.connect(lambda url: self.status.setText(url.toString()))

        self.find_edit.setAccessibleName("Find in the help")
        self.contents.setAccessibleName("Contents of the help")
        self.browser.setAccessibleName("Help page")
        self.browser.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction
                                             | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.browser.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        central = QWidget()
        self.setCentralWidget(central)
        layout = QVBoxLayout(central)
        layout.addLayout(bar)
        layout.addWidget(split, 1)
        layout.addWidget(self.status)
        for key, slot in (("Ctrl+F", self._focus_find), ("Alt+Left", lambda: self._go(-1)),
                          ("Alt+Right", lambda: self._go(+1)), ("Esc", self.close)):
            QShortcut(QKeySequence(key), self).activated.connect(slot)
        self._fill_contents()
        # the contents as wide as the pages' titles ("What Stet guarantees about your work" was cut
        # at 240 pixels), a section's longer heading whole in its tooltip
        titles = [top.text(0) for i in range(self.contents.topLevelItemCount())
                  if (top := self.contents.topLevelItem(i)) is not None]
        widest = max((self.contents.fontMetrics().horizontalAdvance(t) for t in titles), default=0)
        split.setSizes([max(240, widest + self.contents.indentation() + 2 * self.contents.frameWidth() + 24), 760])
        resize_within_screen(self, 1040, 720)
        self._update_buttons()

    # -- pages -------------------------------------------------------------------------------------
    def _fill_contents(self) -> None:
        """Each page, its sections under it and their subsections under them (headings of level 2
        and 3: "With a keyboard and a screen reader" is a subsection of "Reviewing in the editor")."""
        for name in HELP_PAGES:
            path = docs_path(name)
            if not path.is_file():
                continue
            top = QTreeWidgetItem([page_title(path)])
            top.setToolTip(0, top.text(0))
            top.setData(0, Qt.ItemDataRole.UserRole, name)
            section: QTreeWidgetItem | None = None
            for heading in headings(path.read_text(encoding="utf-8"))[1:]:
                if heading.level > CONTENTS_DEPTH:
                    continue
                item = QTreeWidgetItem([heading.text])
                item.setToolTip(0, heading.text)
                item.setData(0, Qt.ItemDataRole.UserRole, f"{name}#{heading.anchor}")
                if heading.level > 2 and section is not None:
                    section.addChild(item)
                else:
                    top.addChild(item)
                    section = item
            self.contents.addTopLevelItem(top)

    def _contents_chosen(self, item: QTreeWidgetItem) -> None:
        self.show_topic(str(item.data(0, Qt.ItemDataRole.UserRole)))

    def show_topic(self, topic: str = HELP_PAGES[0]) -> bool:
        """Show ``topic``, a page of docs/ with an anchor or not ("user-guide.md#speakers"), and
        bring the window up. False, said in the window, where this copy of Stet lacks the page."""
        name, _, anchor = topic.partition("#")
        path = docs_path(name or HELP_PAGES[0])
        self.bring_up()
        if not path.is_file():
            self.status.setText(f"{name} is not among the help pages of this copy of Stet ({docs_path()}).")
            return False
        self._visit(path, anchor)
        return True

    def bring_up(self) -> None:
        self.show()
        self.raise_()
        self.activateWindow()

    def _visit(self, path: Path, anchor: str) -> None:
        self._leave()
        del self._history[self._at + 1:]
        self._left_at = {k: v for k, v in self._left_at.items() if k <= self._at}
        self._history.append((path, anchor))
        self._at = len(self._history) - 1
        self._show(path, anchor)

    def _leave(self) -> None:
        """Remember where the page shown was read to: Back to a link followed far down the guide
        showed the guide from its top (or its anchor), the place lost."""
        if 0 <= self._at < len(self._history):
            self._left_at[self._at] = self.browser.verticalScrollBar().value()

    def _go(self, step: int) -> None:
        to = self._at + step
        if 0 <= to < len(self._history):
            self._leave()
            self._at = to
            self._show(*self._history[to])
            left_at = self._left_at.get(to)
            if left_at is not None:  # where it was left, the caret at the top of what is in sight
                self.browser.verticalScrollBar().setValue(left_at)
                top = self.browser.cursorForPosition(QPoint(0, 0))
                self.browser.setTextCursor(top)
                self.browser.verticalScrollBar().setValue(left_at)

    def _update_buttons(self) -> None:
        self.back_button.setEnabled(self._at > 0)
        self.forward_button.setEnabled(0 <= self._at < len(self._history) - 1)

    def _show(self, path: Path, anchor: str) -> None:
        if path != self.page:
            self._load(path)
        self._update_buttons()
        self.go_to_anchor(anchor)
        self._highlight()

    def _load(self, path: Path) -> None:
        """Make the page's document whole (headings anchored, pictures fitted) before the browser
        shows it. Changed in place after ``setMarkdown``, Qt's lazy layout of a long page stopped
        where the first change landed: every paragraph after it kept a height of 0 (a third of the
        guide drawn as empty space under its headings)."""
        markdown = path.read_text(encoding="utf-8")
        self.page = path
        self.setWindowTitle(f"{page_title(path)} — Stet help")
        self.browser.setAccessibleName(f"Help page: {page_title(path)}")
        folder = path.parent
        self.browser.setSearchPaths([str(folder)])
        document = QTextDocument(self.browser)  # its pictures load through the browser's search paths
        document.setBaseUrl(QUrl.fromLocalFile(str(folder) + "/"))
        document.setDefaultFont(self.browser.font())
        document.setMarkdown(with_missing_pictures_named(markdown, folder),
                             QTextDocument.MarkdownFeature.MarkdownDialectGitHub)
        mark_headings(document, headings(markdown))
        wrap_code(document)
        self._fitted_to = self._room()
        fit_pictures(document, folder, max(self._fitted_to - 2 * round(document.documentMargin()) - 2, 120))
        self.browser.setDocument(document)  # the page before, a child of the browser, goes with it
        self.status.clear()

    def _room(self) -> int:
        """The page's width as it is now (a window on a small screen is narrower than the pictures),
        less the scroll bar a long page is about to get."""
        bar = self.browser.verticalScrollBar()
        return self.browser.viewport().width() - (0 if bar.isVisible() else bar.sizeHint().width())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and watched is self.browser.viewport():
            self._refit.start()
        return super().eventFilter(watched, event)

    def _fit_to_width(self) -> None:
        """The page shown made again for the page's width now, where it changed since it was
        made: read from the same place, the caret and the find's marks where they were."""
        if self.page is None or self._room() == self._fitted_to:
            return
        top = self.browser.cursorForPosition(QPoint(0, 0)).position()
        caret = self.browser.textCursor()
        anchor, position = caret.anchor(), caret.position()
        self._load(self.page)
        document = self.browser.document()
        last = max(document.characterCount() - 1, 0)
        at = QTextCursor(document)
        at.setPosition(min(top, last))
        self.browser.verticalScrollBar().setValue(
            round(document.documentLayout().blockBoundingRect(at.block()).top()))
        kept = QTextCursor(document)
        kept.setPosition(min(anchor, last))
        kept.setPosition(min(position, last), QTextCursor.MoveMode.KeepAnchor)
        value = self.browser.verticalScrollBar().value()
        self.browser.setTextCursor(kept)
        self.browser.verticalScrollBar().setValue(value)
        self._highlight()

    def go_to_anchor(self, anchor: str) -> bool:
        """Put the heading ``anchor`` of the page shown at the top ("" the page's start)."""
        if not anchor:
            self.browser.moveCursor(QTextCursor.MoveOperation.Start)
            self.browser.verticalScrollBar().setValue(0)
            return True
        block = self.browser.document().begin()
        while block.isValid():
            it = block.begin()
            if not it.atEnd() and anchor in it.fragment().charFormat().anchorNames():
                self.browser.setTextCursor(QTextCursor(block))
                self.browser.scrollToAnchor(anchor)
                return True
            block = block.next()
        self.status.setText(f"{self.page.name if self.page else ''} has no heading #{anchor}; shown from its start.")
        return False

    @property
    def section(self) -> str:
        """The heading the caret is under, "" before the first."""
        block = self.browser.textCursor().block()
        while block.isValid():
            if block.blockFormat().headingLevel() > 0:
                return block.text()
            block = block.previous()
        return ""

    # -- links -------------------------------------------------------------------------------------
    def follow(self, url: QUrl) -> None:
        """A link clicked in a page: a heading of this page, another page of docs/ (or another
        Markdown file Stet carries, a model card) here; the web and other files outside."""
        if url.scheme() not in ("", "file"):
            if not QDesktopServices.openUrl(url):
                self.status.setText(f"Could not open {url.toString()}")
            return
        if not url.path() and url.hasFragment():
            if self.page is not None:
                self._visit(self.page, url.fragment())
            return
        here = self.page.parent if self.page else docs_path()
        target = Path(url.toLocalFile()) if url.isLocalFile() else (here / url.path()).resolve()
        if target.suffix.lower() == ".md" and target.is_file():
            self._visit(target, url.fragment())
        elif target.exists():
            if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(target))):
                self.status.setText(f"Could not open {target}")
        else:
            self.status.setText(f"{url.path()} is part of Stet's source, not of this installation.")

    # -- find --------------------------------------------------------------------------------------
    def _focus_find(self) -> None:
        self.find_edit.setFocus()
        self.find_edit.selectAll()

    def _matches(self, needle: str) -> list[QTextCursor]:
        document = self.browser.document()
        found: list[QTextCursor] = []
        cursor = document.find(needle, 0)
        while not cursor.isNull() and len(found) < 10_000:
            found.append(cursor)
            cursor = document.find(needle, cursor)
        return found

    def _highlight(self) -> None:
        """Every match of the find field in the page, tinted; how many, said."""
        needle = self.find_edit.text()
        selections = []
        if needle:
            tint = QColor("#ffe066")
            for cursor in self._matches(needle):
                selection = QTextEdit.ExtraSelection()
                selection.cursor = cursor
                selection.format.setBackground(tint)
                selections.append(selection)
        self.browser.setExtraSelections(selections)
        self._say_where()

    def _say_where(self) -> None:
        self._tell_find(self._where())

    def _tell_find(self, text: str) -> None:
        """Show how the find went beside the field and give it to the field's description too, which
        a screen reader speaks when it changes on the field in focus ("1 of 3 here")."""
        self.find_status.setText(text)
        self.find_edit.setAccessibleDescription(text)

    def _where(self) -> str:
        needle = self.find_edit.text()
        if not needle:
            return ""
        matches = self._matches(needle)
        if not matches:
            return "not on this page: Enter looks in the others"
        caret = self.browser.textCursor()
        index = next((i for i, c in enumerate(matches) if c.selectionStart() == caret.selectionStart()
                      and caret.hasSelection()), None)
        return f"{index + 1} of {len(matches)} here" if index is not None else f"{len(matches)} on this page"

    def find_next(self, backwards: bool = False) -> bool:
        """The next match (the previous, ``backwards``) of the find field: on this page, then on
        the pages after it (before it) in the contents' order, round to this page's first again."""
        needle = self.find_edit.text()
        if not needle:
            return False
        flags = QTextDocument.FindFlag.FindBackward if backwards else QTextDocument.FindFlag(0)
        found = self.browser.document().find(needle, self.browser.textCursor(), flags)
        if found.isNull():
            for path in self._pages_after(backwards):
                if needle.lower() in path.read_text(encoding="utf-8").lower():
                    self._visit(path, "")
                    break
            else:
                if not self._matches(needle):
                    self._tell_find("not found in the help")
                    return False
            start = QTextCursor(self.browser.document())
            if backwards:
                start.movePosition(QTextCursor.MoveOperation.End)
            found = self.browser.document().find(needle, start, flags)
            if found.isNull():  # the page's text has it only in Markdown markup
                self._tell_find("not found in the help")
                return False
        self.browser.setTextCursor(found)
        self.browser.ensureCursorVisible()
        self._say_where()
        return True

    def _pages_after(self, backwards: bool) -> list[Path]:
        """The other help pages, in the order find goes through them from the page shown."""
        pages = [docs_path(name) for name in HELP_PAGES if docs_path(name).is_file()]
        if self.page in pages:
            at = pages.index(self.page)
            pages = pages[at + 1:] + pages[:at]
        if backwards:
            pages.reverse()
        return [p for p in pages if p != self.page]
