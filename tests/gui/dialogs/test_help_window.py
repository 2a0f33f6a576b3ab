"""Help > User guide: docs/ shown in Stet's own window (it was a raw Markdown file of the checkout
opened in the browser, "Could not open file:///…" where there is none), at the right section from
the tour and the export dialog, with links that work between the pages and a find field."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import QUrl, Qt
from PySide6.QtGui import QDesktopServices

from editor.core.paths import HELP_PAGES, docs_path
from editor.gui.dialogs.help_window import HelpWindow, heading_anchor, headings, with_missing_pictures_named

ROOT = Path(__file__).resolve().parents[3]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)[^)]*\)")


@pytest.fixture
def pages(qtbot, monkeypatch):
    opened: list[QUrl] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    window = HelpWindow()
    window.opened = opened
    qtbot.addWidget(window)
    window.resize(1000, 700)
    return window


def test_the_pages_are_docs_itself():
    """One copy: in a checkout docs_path is docs/ (the wheel and the bundle carry the same files)."""
    for name in HELP_PAGES:
        assert docs_path(name).resolve() == (ROOT / "docs" / name).resolve()


def test_the_help_menu_opens_the_guide_in_a_window(window):
    shown = window.help.open_user_guide()
    assert isinstance(shown, HelpWindow) and shown.isVisible()
    assert shown.page == docs_path("user-guide.md")
    text = shown.browser.toPlainText()
    assert text.startswith("User guide") and "](" not in text[:2000]  # rendered, not raw Markdown
    contents = [shown.contents.topLevelItem(i).text(0) for i in range(shown.contents.topLevelItemCount())]
    assert contents == ["User guide", "Formats", "Keeping the author's punctuation",
                        "What Stet guarantees about your work"]
    assert window.help.open_user_guide() is shown  # one window, raised again


@pytest.mark.parametrize("topic, section", [
    ("formats.md#speakers", "Speakers"),
    ("user-guide.md#long-paragraphs-proposed-breaks-and-lines-that-run-on",
     "Long paragraphs: proposed breaks and lines that run on"),
    ("guarantees.md#atomic-writes", "Atomic writes"),
])
def test_a_topic_opens_at_its_heading(pages, qtbot, topic, section):
    pages.show()
    assert pages.show_topic(topic)
    assert pages.section == section
    qtbot.waitUntil(lambda: pages.browser.verticalScrollBar().value() > 0)
    bar = pages.browser.verticalScrollBar()
    top = pages.browser.cursorForPosition(pages.browser.viewport().rect().topLeft()).block()
    assert top.text() == section or bar.value() == bar.maximum()  # at the top, or the page ends


def test_every_link_between_the_pages_lands_on_its_heading(pages):
    """The anchors GitHub gives headings are the ones the window gives them, so each link of a page
    to another page of docs/ (or to a heading of its own) works inside the window."""
    checked = 0
    for name in HELP_PAGES:
        for target in LINK.findall((ROOT / "docs" / name).read_text(encoding="utf-8")):
            path, _, anchor = target.partition("#")
            if re.match(r"[a-z]+:", target) or (path and not (ROOT / "docs" / path).is_file()) or not anchor:
                continue
            pages.show_topic(name)
            pages.follow(QUrl(target))
            assert pages.page == docs_path(path or name), target
            assert heading_anchor(pages.section) == anchor, target
            assert pages.status.text() == "", f"{name}: {target}: {pages.status.text()}"
            checked += 1
    assert checked >= 10


def test_links_go_back_and_forward_and_the_web_opens_in_the_browser(pages):
    pages.show_topic("user-guide.md")
    pages.follow(QUrl("formats.md#speakers"))
    assert pages.page.name == "formats.md" and pages.section == "Speakers"
    pages.back_button.click()
    assert pages.page.name == "user-guide.md"
    assert not pages.back_button.isEnabled() and pages.forward_button.isEnabled()
    pages.forward_button.click()
    assert pages.page.name == "formats.md" and pages.section == "Speakers"
    pages.follow(QUrl("#encodings"))
    assert pages.section == "Encodings"
    assert pages.opened == []
    pages.follow(QUrl("https://example.org/stet"))
    assert pages.opened == [QUrl("https://example.org/stet")] and pages.page.name == "formats.md"


def test_a_link_to_the_source_tree_outside_an_installation_is_said(pages, tmp_path, monkeypatch):
    """An installed Stet carries docs/ but not packaging/ or tests/: the window says so."""
    from editor.gui.dialogs import help_window

    for name in HELP_PAGES:
        (tmp_path / name).write_text((ROOT / "docs" / name).read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(help_window, "docs_path", lambda *parts: tmp_path.joinpath(*parts))
    pages.show_topic("user-guide.md")
    pages.follow(QUrl("../packaging/screenshots.py"))
    assert "not of this installation" in pages.status.text() and pages.opened == []


def test_find_searches_this_page_then_the_others(pages, qtbot):
    pages.show_topic("user-guide.md")
    qtbot.keyClicks(pages.find_edit, "speaker")
    assert re.fullmatch(r"\d+ on this page", pages.find_status.text())
    assert len(pages.browser.extraSelections()) == int(pages.find_status.text().split()[0]) > 5
    qtbot.keyClick(pages.find_edit, "\r")
    assert pages.browser.textCursor().selectedText().lower() == "speaker"
    assert pages.find_status.text().startswith("1 of ")
    # a word only formats.md has: Enter goes there
    pages.find_edit.setText("tickRate")
    assert "not on this page" in pages.find_status.text()
    assert pages.find_next()
    assert pages.page.name == "formats.md" and pages.browser.textCursor().selectedText().lower() == "tickrate"
    pages.find_edit.setText("no such words anywhere")
    assert not pages.find_next() and pages.find_status.text() == "not found in the help"


def test_a_picture_not_installed_is_named_not_drawn(tmp_path):
    (tmp_path / "here.png").write_bytes(b"")
    text = "![A table](here.png) and ![The export dialog](../resources/screenshots/export.png) ![x](https://e.org/a.png)"
    assert with_missing_pictures_named(text, tmp_path) == (
        "![A table](here.png) and *(picture: The export dialog)* ![x](https://e.org/a.png)")


def test_headings_get_githubs_anchors():
    found = headings("# Formats\n```\n# not a heading\n```\n## Speakers\n### `.srt` and **more**\n## Speakers\n")
    assert [(h.level, h.text, h.anchor) for h in found] == [
        (1, "Formats", "formats"), (2, "Speakers", "speakers"), (3, ".srt and more", "srt-and-more"),
        (2, "Speakers", "speakers-1")]


def test_the_tour_opens_the_guide_at_its_pages_section(window, qtbot):
    from PySide6.QtWidgets import QLabel

    tour = window.help.show_tour()
    tour.go(+1)  # "Review with three keys"
    (more,) = [label for label in tour.stack.currentWidget().findChildren(QLabel) if label.objectName() == "tour-more"]
    more.linkActivated.emit("user-guide.md#keys")  # what a click on it sends
    assert window.help.pages is not None and window.help.pages.section == "Keys"
    assert "href='user-guide.md#keys'" in more.text()


def test_abouts_model_card_opens_in_the_help_window_and_the_licence_in_the_browser(window, monkeypatch):
    from editor.restore.model.package import default_model_dir

    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    window.settings.set("engine.restore_model", "")
    about = window.help.show_about()
    links = re.findall(r"href='([^']+)'", about.text.text())
    card = next(link for link in links if link.endswith("MODEL_CARD.md"))
    about.text.linkActivated.emit(card)  # what a click on it sends
    pages = window.help.pages
    assert pages is not None and pages.isVisible() and opened == []
    assert pages.page == default_model_dir() / "MODEL_CARD.md"
    assert pages.browser.toPlainText().startswith("Model card:")
    licence = next(link for link in links if link.startswith("https://"))
    about.text.linkActivated.emit(licence)
    assert opened == [QUrl(licence)] and pages.page.name == "MODEL_CARD.md"


def test_back_returns_to_where_the_link_was_read(pages, qtbot):
    """A link followed from far down the guide ("guarantees.md#crash-recovery", in "Autosave and
    recovery"), then Back: the guide came back at its top, the place the person was reading lost.
    Back and Forward now come back to the place each page was left at."""
    pages.show()
    qtbot.waitExposed(pages)
    pages.show_topic("user-guide.md")
    bar = pages.browser.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    bar.setValue(bar.maximum() // 2)  # read down to the middle of the guide
    left_at = bar.value()
    assert left_at > 0
    pages.follow(QUrl("guarantees.md#crash-recovery"))
    assert pages.page.name == "guarantees.md"
    pages.back_button.click()
    assert pages.page.name == "user-guide.md"
    assert bar.value() == left_at, (bar.value(), left_at)
    top = pages.browser.cursorForPosition(pages.browser.viewport().rect().topLeft())
    assert pages.browser.textCursor().block() == top.block()  # the section said is the one in sight
    pages.forward_button.click()
    assert pages.page.name == "guarantees.md" and pages.section == "Crash recovery"


#: docs/ pages written for those who build Stet, not for those who use it: the help leaves them out
#: (links to them still open in the window). A new page of docs/ is one or the other.
DEVELOPER_PAGES = {"architecture.md", "development.md", "performance.md", "accessibility-run.md"}


def test_every_page_for_users_is_in_the_contents_with_its_subsections(pages):
    """docs/authored-text.md was not in the help at all, and "With a keyboard and a screen reader"
    (a subsection) was not listed."""
    for_users = {p.name for p in (ROOT / "docs").glob("*.md")} - DEVELOPER_PAGES
    assert for_users <= set(HELP_PAGES), sorted(for_users - set(HELP_PAGES))

    def listed(item) -> set[str]:
        found = {str(item.data(0, Qt.ItemDataRole.UserRole))}
        for i in range(item.childCount()):
            found |= listed(item.child(i))
        return found

    topics: set[str] = set()
    for i in range(pages.contents.topLevelItemCount()):
        topics |= listed(pages.contents.topLevelItem(i))
    for name in HELP_PAGES:
        for heading in headings((ROOT / "docs" / name).read_text(encoding="utf-8"))[1:]:
            if heading.level <= 3:
                assert f"{name}#{heading.anchor}" in topics, (name, heading.text)
    assert "user-guide.md#with-a-keyboard-and-a-screen-reader" in topics


def test_every_paragraph_of_every_page_is_drawn(pages, qtbot):
    """Measured in the window: 96 of 312 text blocks of the help pages were laid out 0 pixels high
    (the guide from "Finding speakers in a recording" on showed its headings only)."""
    pages.show()
    for name in HELP_PAGES:
        assert pages.show_topic(name)
        qtbot.wait(10)
        document = pages.browser.document()
        layout = document.documentLayout()
        block, blank, drawn = document.begin(), [], 0
        while block.isValid():
            if block.text().strip():
                drawn += 1
                if layout.blockBoundingRect(block).height() <= 0 or block.layout().lineCount() == 0:
                    blank.append(block.text()[:60])
            block = block.next()
        assert drawn > 10 and blank == [], f"{name}: {len(blank)} of {drawn} blocks not drawn: {blank[:3]}"


def test_a_reader_can_walk_the_page_and_hears_the_find_count(pages, qtbot):
    """The page had no caret (arrow keys scrolled, a screen reader could only Say All), the window
    read as a "filler", the find field and contents had no names, "1 of 3 here" was not spoken."""
    from PySide6.QtGui import QAccessible

    pages.show()
    pages.show_topic("user-guide.md#with-a-keyboard-and-a-screen-reader")
    assert QAccessible.queryAccessibleInterface(pages).role() == QAccessible.Role.Window
    assert pages.find_edit.accessibleName() and pages.contents.accessibleName()
    assert pages.browser.accessibleName() == "Help page: User guide"
    pages.browser.setFocus()
    start = pages.browser.textCursor().blockNumber()
    qtbot.keyClick(pages.browser, Qt.Key.Key_Down)
    qtbot.keyClick(pages.browser, Qt.Key.Key_Down)
    assert pages.browser.textCursor().blockNumber() > start or pages.browser.textCursor().position() > 0
    pages.find_edit.setText("screen reader")
    assert pages.find_next()
    assert re.fullmatch(r"\d+ of \d+ here", pages.find_edit.accessibleDescription())


def laid_out(pages) -> None:
    """Every block of the page shown laid out (Qt lays out a long page lazily, as it is scrolled)."""
    document = pages.browser.document()
    block = document.begin()
    while block.isValid():
        document.documentLayout().blockBoundingRect(block)
        block = block.next()


def test_no_page_scrolls_sideways_at_the_default_size(qtbot):
    """The guide's longest command line (980 pixels, a code block that never broke) gave every page
    of it a horizontal scroll bar at the window's default size, 1040 x 720."""
    window = HelpWindow()
    qtbot.addWidget(window)
    window.resize(1040, 720)  # the size it is made at on a screen with room for it
    window.show()
    for name in HELP_PAGES:
        assert window.show_topic(name)
        laid_out(window)
        qtbot.wait(10)
        assert window.browser.horizontalScrollBar().maximum() == 0, name


def test_at_a_narrow_width_code_wraps_and_pictures_fit(pages, qtbot):
    """A window made narrower, or one on a small screen: the page's text and its command lines
    wrap, and its pictures are drawn as wide as the page is, once the resize settles."""
    pages.show()
    pages.show_topic("user-guide.md#speech-recognition")
    section = pages.section
    pages.resize(600, 700)
    bar = pages.browser.horizontalScrollBar()

    def fits() -> bool:
        laid_out(pages)
        return bar.maximum() == 0
    qtbot.waitUntil(fits)
    assert pages.section == section  # read from the same place
    document = pages.browser.document()
    block = document.begin()
    while block.isValid() and not block.text().startswith("stet models list -l en"):
        block = block.next()
    assert block.isValid() and block.layout().lineCount() > 1  # the code's line wraps
    room = pages.browser.viewport().width()
    block, widths = document.begin(), []
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            if it.fragment().charFormat().isImageFormat():
                widths.append(it.fragment().charFormat().toImageFormat().width())
            it += 1
        block = block.next()
    assert widths and max(widths) < room


def test_the_contents_show_every_pages_title_whole(qtbot):
    """At the default size the contents were 240 pixels wide and cut "What Stet guarantees about
    your work" to "What Stet guarantees about you…"; a longer section heading is whole in its tooltip."""
    window = HelpWindow()
    qtbot.addWidget(window)
    window.resize(1040, 720)
    window.show()
    qtbot.waitExposed(window)
    tree = window.contents
    for i in range(tree.topLevelItemCount()):
        item = tree.topLevelItem(i)
        rect = tree.visualItemRect(item)
        needed = tree.fontMetrics().horizontalAdvance(item.text(0))
        assert rect.left() + needed < tree.viewport().width(), item.text(0)
        assert item.toolTip(0) == item.text(0)
        assert all(item.child(n).toolTip(0) == item.child(n).text(0) for n in range(item.childCount()))
