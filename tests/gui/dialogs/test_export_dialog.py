"""Export as a person meeting it for the first time expects it (issue: "The first hour, round 2"):
it proposes a folder of their own, never Stet's; a plain-text export of a .txt never proposes the
source's own name; No to "Replace?" goes back to the dialog; formats the document cannot fill are
shown disabled with the reason; a typed extension chooses the format, and the next Export proposes
the last format used."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox

from editor.core.formats.subtitles.layout import layout_options
from editor.core.paths import resource_path
from editor.gui.dialogs.export import ExportDialog

SRT = ("1\n00:00:01,000 --> 00:00:02,500\nthe raw words\n\n"
       "2\n00:00:03,000 --> 00:00:04,250\nof the talk\n")


class Answers:
    """Stands in for QMessageBox.question / warning: the answers given in turn, what was asked."""

    def __init__(self, monkeypatch, *answers):
        self.asked: list[str] = []
        self.answers = list(answers)
        for name in ("question", "warning"):
            monkeypatch.setattr(QMessageBox, name, self._ask)

    def _ask(self, _parent, title, text, *args, **kwargs):
        self.asked.append(f"{title}: {text}")
        return self.answers.pop(0) if self.answers else QMessageBox.StandardButton.Ok


def opened(window, path: Path) -> Path:
    window.open_path(path)
    window.cancel_restoration()
    window.interactive = True
    window.may_discard = lambda: True
    return path


def dialog_as_proposed(window, monkeypatch) -> ExportDialog:
    """Export's dialog as it opens (the person cancels it)."""
    shown: list[ExportDialog] = []

    def exec_(dialog):
        shown.append(dialog)
        return 0
    monkeypatch.setattr(ExportDialog, "exec", exec_)
    window.files.export_dialog(wait=True)
    return shown[-1]


@pytest.fixture
def talk_txt(window, tmp_path):
    source = tmp_path / "talk.txt"
    source.write_text("the raw words of the talk as they came in", encoding="utf-8")
    return opened(window, source)


@pytest.fixture
def talk_srt(window, tmp_path):
    source = tmp_path / "talk.srt"
    source.write_text(SRT, encoding="utf-8")
    return opened(window, source)


# -- where --------------------------------------------------------------------------------------------

def test_export_of_the_sample_proposes_the_last_export_folder_never_stets_own(window, monkeypatch, tmp_path):
    """After Help > Open sample, Export proposed .../resources/samples/repair-cafe.docx: Stet's own
    folder (read-only in the .deb, inside the package in a wheel)."""
    window.help.open_sample()
    window.cancel_restoration()
    proposed = dialog_as_proposed(window, monkeypatch).chosen_path
    assert proposed.stem == "repair-cafe"
    assert not proposed.resolve().is_relative_to(resource_path().resolve())
    exports = tmp_path / "exports"
    exports.mkdir()
    window.settings.set("export.last_folder", str(exports))
    assert dialog_as_proposed(window, monkeypatch).chosen_path.parent == exports


def test_export_of_ones_own_file_proposes_its_folder(window, talk_txt, monkeypatch, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    window.settings.set("export.last_folder", str(elsewhere))
    assert dialog_as_proposed(window, monkeypatch).chosen_path.parent == talk_txt.parent


def test_a_plain_text_export_of_a_txt_never_proposes_the_source(window, talk_txt, monkeypatch):
    dialog = dialog_as_proposed(window, monkeypatch)
    dialog.format.setCurrentIndex(dialog.format.findData(".txt"))
    assert dialog.chosen_path == talk_txt.with_name("talk-edited.txt")
    dialog.format.setCurrentIndex(dialog.format.findData(".md"))
    assert dialog.chosen_path == talk_txt.with_name("talk-edited.md")


def test_no_to_replacing_goes_back_to_the_dialog(window, talk_txt, monkeypatch):
    """Cancel on "Replace the original?" closed the whole Export dialog: what was chosen there (the
    pending suggestions, the threshold) was lost with it."""
    answers = Answers(monkeypatch, QMessageBox.StandardButton.Cancel)
    before = talk_txt.read_bytes()
    steps = []

    def exec_(dialog):
        dialog.path_edit.setText(str(talk_txt))
        dialog._typed(str(talk_txt))
        dialog.accept()  # OK: "Replace the original?" -> Cancel
        steps.append((dialog.result(), dialog.export_path))
        dialog.path_edit.setText(str(talk_txt.with_name("talk-final.txt")))
        dialog.accept()  # still open: another name, OK
        return dialog.result()
    monkeypatch.setattr(ExportDialog, "exec", exec_)
    window.files.export_dialog(wait=True)
    assert steps == [(0, None)]
    (question,) = answers.asked
    assert question.startswith("Replace the original?")
    assert talk_txt.read_bytes() == before
    assert talk_txt.with_name("talk-final.txt").read_text(encoding="utf-8").strip()



def test_a_folder_typed_as_the_file_writes_the_proposed_name_in_it(window, talk_txt, monkeypatch, tmp_path):
    """A folder typed (or pasted) in File: the export went beside it, as the folder's name with
    the format's extension ("…/exports" wrote "…/exports.docx"). The proposed name goes into it."""
    folder = tmp_path / "exports"
    folder.mkdir()
    _typed(monkeypatch, folder)
    window.files.export_dialog(wait=True)
    assert not tmp_path.joinpath("exports.txt").exists()
    written = sorted(p.name for p in folder.iterdir())
    assert written == ["talk.docx"], written  # as proposed: plain text goes out as Word
    assert "Exported talk.docx" in window.statusBar().currentMessage()

# -- which formats --------------------------------------------------------------------------------------

def test_subtitles_are_shown_disabled_with_the_reason_for_a_text_without_times(window, talk_txt, monkeypatch):
    dialog = dialog_as_proposed(window, monkeypatch)
    model = dialog.format.model()
    for ext in (".srt", ".vtt", ".sbv", ".ass", ".ttml"):
        item = model.item(dialog.format.findData(ext))
        assert not item.isEnabled() and "times" in item.toolTip(), ext
    for ext in (".txt", ".md", ".docx", ".json"):
        assert model.item(dialog.format.findData(ext)).isEnabled(), ext


def test_a_typed_subtitle_name_for_a_text_without_times_is_refused_before_writing(window, talk_txt, monkeypatch,
                                                                                 qtbot):
    answers = Answers(monkeypatch)
    dialog = dialog_as_proposed(window, monkeypatch)
    qtbot.addWidget(dialog)
    dialog.path_edit.clear()
    qtbot.keyClicks(dialog.path_edit, str(talk_txt.with_name("talk.srt")))
    assert dialog.format.currentData() != ".srt"
    assert not dialog.format_note.isHidden() and "times" in dialog.format_note.text()
    dialog.accept()
    assert dialog.result() == 0 and dialog.export_path is None  # the dialog stays, nothing written
    assert len(answers.asked) == 1 and "times" in answers.asked[0]
    assert not talk_txt.with_name("talk.srt").exists()


def test_a_timed_transcript_offers_every_format(window, talk_srt, monkeypatch):
    dialog = dialog_as_proposed(window, monkeypatch)
    model = dialog.format.model()
    assert all(model.item(i).isEnabled() for i in range(dialog.format.count()))


# -- the format follows the name ---------------------------------------------------------------------

def test_a_typed_extension_chooses_the_format_and_the_next_export_proposes_it(window, talk_txt, monkeypatch, qtbot):
    """Typing name.md left the box at "Word document (.docx)" (the file was Markdown all the same),
    and the next Export proposed .docx again."""
    window.settings.set("export.last_format", ".txt")  # an earlier export
    target = talk_txt.with_name("clip.md")

    def exec_(dialog):
        qtbot.addWidget(dialog)
        assert dialog.format.currentData() == ".txt"
        dialog.path_edit.selectAll()
        qtbot.keyClicks(dialog.path_edit, str(target))
        assert dialog.format.currentData() == ".md" and dialog.chosen_path == target
        qtbot.mouseClick(dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok),
                         Qt.MouseButton.LeftButton)
        return dialog.result()
    monkeypatch.setattr(ExportDialog, "exec", exec_)
    window.files.export_dialog(wait=True)
    assert target.exists()
    assert window.settings.export.last_format == ".md"
    again = dialog_as_proposed(window, monkeypatch)
    assert again.format.currentData() == ".md" and again.chosen_path.suffix == ".md"


def test_subtitles_propose_their_own_format_whatever_was_exported_last(window, tmp_path, monkeypatch):
    """A styled .vtt was offered as .srt, the format last exported: one Enter converted it."""
    window.settings.set("export.last_format", ".srt")
    source = tmp_path / "styled.vtt"
    source.write_text("WEBVTT\n\n00:00:01.000 --> 00:00:02.500\n<i>the raw</i> words\n", encoding="utf-8")
    opened(window, source)
    dialog = dialog_as_proposed(window, monkeypatch)
    assert dialog.format.currentData() == ".vtt" and dialog.chosen_path.suffix == ".vtt"
    assert dialog.chosen_path != source  # (styled-edited.vtt)


def while_open(window, monkeypatch, qtbot, check) -> list[bool]:
    """Export's dialog shown, ``check(dialog)`` run while it is open (then cancelled)."""
    ran = []

    def exec_(dialog):
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        check(dialog)
        ran.append(True)
        return 0
    monkeypatch.setattr(ExportDialog, "exec", exec_)
    window.files.export_dialog(wait=True)
    return ran


def test_the_file_field_shows_the_folder_it_goes_to(window, talk_srt, monkeypatch, qtbot):
    """The field showed the end of the path, its folder scrolled out of sight."""
    def check(dialog):
        field = dialog.path_edit
        assert field.cursorPosition() == 0
        assert field.fontMetrics().horizontalAdvance(field.text()) < field.width()  # (~70 characters)
    assert while_open(window, monkeypatch, qtbot, check)


def test_a_format_that_cannot_be_written_is_said_whole(window, talk_txt, monkeypatch, qtbot):
    """"SubRip cannot be written: …" was cut off at the dialog's bottom edge."""
    def check(dialog):
        dialog.path_edit.selectAll()
        qtbot.keyClicks(dialog.path_edit, str(talk_txt.with_name("clip.srt")))
        note = dialog.format_note
        assert note.isVisible() and note.text().startswith("SubRip subtitles cannot be written")
        qtbot.waitUntil(lambda: note.height() >= note.heightForWidth(note.width()))
        assert note.geometry().bottom() < dialog.height()
    assert while_open(window, monkeypatch, qtbot, check)


def test_the_last_format_is_not_proposed_where_the_document_cannot_fill_it(window, talk_txt, monkeypatch):
    window.settings.set("export.last_format", ".vtt")
    dialog = dialog_as_proposed(window, monkeypatch)
    assert dialog.chosen_path.suffix == ".docx" and dialog.format.currentData() == ".docx"


def test_the_dialogs_help_opens_the_formats_page(window, talk_txt, monkeypatch):
    dialog = dialog_as_proposed(window, monkeypatch)
    dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Help).click()
    pages = window.help.pages
    assert pages is not None and pages.page.name == "formats.md" and pages.section == "Reading and writing"


# -- the Word document's properties ---------------------------------------------------------------------

def test_a_word_export_names_the_person_now_and_the_documents_title(window, talk_txt, tmp_path):
    import datetime

    import docx

    from editor.core.formats.docx import system_author

    window.settings.set("export.author", "Ann Lee")
    out = window.export(tmp_path / "talk.docx")
    props = docx.Document(str(out)).core_properties
    now = datetime.datetime.now(datetime.UTC).replace(tzinfo=None)
    assert props.author == props.last_modified_by == "Ann Lee"
    for when in (props.created, props.modified):
        assert abs(when.replace(tzinfo=None) - now) < datetime.timedelta(minutes=2)
    assert props.title == "talk" and "python-docx" not in (props.comments or "")
    window.settings.set("export.author", "")
    props = docx.Document(str(window.export(tmp_path / "again.docx"))).core_properties
    assert props.author == system_author() != "python-docx"


def test_the_settings_dialog_keeps_the_authors_name(window):
    from editor.gui.dialogs.settings import SettingsDialog

    dialog = SettingsDialog(window.settings, window)
    dialog.author.setText("  Ann Lee ")
    dialog.apply()
    assert window.settings.export.author == "Ann Lee"


# -- written in the background ------------------------------------------------------------------------

def _typed(monkeypatch, path: Path) -> None:
    def exec_(dialog):
        dialog.path_edit.setText(str(path))
        dialog._typed(str(path))
        dialog.accept()
        return dialog.result()
    monkeypatch.setattr(ExportDialog, "exec", exec_)


@pytest.fixture
def held_writes(monkeypatch):
    """The export's writer, held until ``gate`` is set; the threads it ran on."""
    import threading

    from editor.gui.window import files

    gate, threads = threading.Event(), []
    real = files.write_any

    def held(doc, path, policy, **options):
        threads.append(threading.current_thread())
        assert gate.wait(10)
        return real(doc, path, policy, **options)
    monkeypatch.setattr(files, "write_any", held)
    return gate, threads


def test_the_export_dialog_writes_off_the_ui_thread_what_stood_when_asked(window, talk_txt, tmp_path,
                                                                          monkeypatch, qtbot, held_writes):
    """Rendering a long talk held the window 40 ms (plain text) to 250 ms (Word) on OK: the file is
    written on a thread of its own, from the document as it stood; the person goes on meanwhile."""
    import threading

    gate, threads = held_writes
    out = tmp_path / "out.txt"
    _typed(monkeypatch, out)
    window.files.export_dialog()  # returns while the file is being written
    assert not out.exists() and "Exporting out.txt" in window.statusBar().currentMessage()
    window.view.edit_characters(0, 0, "Later ")  # typed while it is written: not in this export
    with qtbot.waitSignal(window.export_done, timeout=5000) as done:
        gate.set()
    assert done.args == [str(out)] and threads and threads[0] is not threading.main_thread()
    assert out.read_text(encoding="utf-8").strip() == "the raw words of the talk as they came in"
    assert window.statusBar().currentMessage().startswith("Exported out.txt")


def test_an_export_that_fails_in_the_background_says_why(window, talk_txt, tmp_path, monkeypatch, qtbot):
    from editor.gui.window import files

    def full(*_args, **_kwargs):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(files, "write_any", full)
    window.interactive = False  # said in the status bar rather than a dialog
    _typed(monkeypatch, tmp_path / "out.txt")
    with qtbot.waitSignal(window.export_done, timeout=5000) as done:
        window.files.export_dialog()
    assert done.args == [None] and not (tmp_path / "out.txt").exists()
    assert "Cannot export" in window.statusBar().currentMessage()
    assert "No space left" in window.statusBar().currentMessage()


def test_closing_the_window_waits_for_an_export_under_way(window, talk_txt, tmp_path, monkeypatch,
                                                          held_writes):
    import threading

    gate, _threads = held_writes
    out = tmp_path / "out.txt"
    _typed(monkeypatch, out)
    window.files.export_dialog()
    threading.Timer(0.5, gate.set).start()
    window.close()
    assert out.read_text(encoding="utf-8").strip() == "the raw words of the talk as they came in"


def test_export_waited_for_returns_once_it_is_said(window, talk_txt, monkeypatch, tmp_path):
    """``export_dialog(wait=True)`` (scripts, tests) returned with the file written but, now and
    then, the status bar still at "Exporting …": the word from the thread came after the events
    it sent on."""
    for n in range(8):
        target = tmp_path / f"take-{n}.txt"
        _typed(monkeypatch, target)
        window.files.export_dialog(wait=True)
        assert target.is_file()
        assert window.statusBar().currentMessage() == f"Exported {target.name}", n


def test_subtitle_layout_is_chosen_in_the_dialog_and_kept(window, tmp_path, monkeypatch):
    """Line length and reading speed, as a subtitler sets them in Subtitle Edit, for subtitle
    formats only; what was chosen lays out the export and is proposed next time (issue 51)."""
    source = tmp_path / "talk.json"  # Vosk's words: cues are cut afresh
    words = ("so the question we kept asking ourselves over and over again was what would happen "
             "if the river came back into the city").split()
    source.write_text('{"result": [' + ", ".join(
        f'{{"word": "{w}", "start": {i * 0.3:.2f}, "end": {i * 0.3 + 0.3:.2f}, "conf": 1.0}}'
        for i, w in enumerate(words)) + '], "text": "x"}', encoding="utf-8")
    opened(window, source)
    dialog = dialog_as_proposed(window, monkeypatch)
    dialog.path_edit.setText(str(tmp_path / "talk.txt"))
    dialog._typed(dialog.path_edit.text())
    line_length, max_cps = dialog.layout_boxes["max_line_length"], dialog.layout_boxes["max_cps"]
    assert not line_length.isVisibleTo(dialog) and not max_cps.isVisibleTo(dialog)
    dialog.format.setCurrentIndex(dialog.format.findData(".srt"))
    assert line_length.isVisibleTo(dialog) and max_cps.isVisibleTo(dialog)
    assert line_length.text().startswith("as written") and max_cps.text() == "any"
    line_length.setValue(20)
    max_cps.setValue(17)
    dialog.accept()
    assert dialog.export_path == tmp_path / "talk.srt"
    assert window.settings.export.layout == {"max_line_length": 20, "max_cps": 17.0}
    window.files.export(dialog.export_path)
    blocks = dialog.export_path.read_text(encoding="utf-8").strip().split("\n\n")
    lines = [line for block in blocks for line in block.split("\n")[2:]]
    assert len(lines) > 4 and all(len(line) <= 20 for line in lines)
    again = dialog_as_proposed(window, monkeypatch)
    assert (again.layout_boxes["max_line_length"].value(), again.layout_boxes["max_cps"].value()) == (20, 17)



@pytest.mark.parametrize("name", list(layout_options()))
def test_each_layout_option_has_its_box_in_export_and_is_kept(name, window, tmp_path, monkeypatch):
    """Every option the layout declares is a box of Export, labelled and bounded as declared, its
    lowest value the default said in words; what is set goes into the one layout setting and
    lays out the export, and is proposed next time."""
    declared = layout_options()[name]
    source = tmp_path / "talk.json"  # Vosk's words: cues are cut afresh
    source.write_text('{"result": [' + ", ".join(
        f'{{"word": "w{i}", "start": {i * 0.3:.2f}, "end": {i * 0.3 + 0.3:.2f}, "conf": 1.0}}'
        for i in range(40)) + '], "text": "x"}', encoding="utf-8")
    opened(window, source)
    dialog = dialog_as_proposed(window, monkeypatch)
    dialog.format.setCurrentIndex(dialog.format.findData(".srt"))
    box = dialog.layout_boxes[name]
    form = dialog.layout()
    assert form.labelForField(box).text() == declared.label and box.accessibleName() == declared.title
    assert box.isVisibleTo(dialog) and box.text() == declared.unset
    assert box.maximum() == declared.bounds[1] and box.minimum() == declared.bounds[0] - 1
    box.setValue(box.maximum())
    dialog.accept()
    assert window.settings.export.layout == {name: declared.bounds[1]}
    assert getattr(window.settings.export.subtitle_layout(), name) == declared.bounds[1]
    again = dialog_as_proposed(window, monkeypatch)
    assert again.layout_boxes[name].value() == declared.bounds[1]


# -- one default for the window and the command line (issue #48) ---------------------------------

def test_export_and_stet_convert_write_the_same_text_from_the_same_project(window, tmp_path, monkeypatch):
    """Export wrote only what was accepted while `stet convert` applied every pending suggestion:
    the same project gave two texts. Both now write the text as the window shows it by default,
    and both offer leaving the pending suggestions out."""
    from editor import cli
    from editor.core.document.transcript import Kind, Suggestion, Transcript
    from editor.core.formats import write_any
    from editor.core.render import ALL, NONE

    doc = Transcript.from_words("so we met at the station then we went home".split())
    doc.set_suggestions([Suggestion(doc[5].id, Kind.PUNCT, ".", {".": 0.6, "": 0.4}),
                         Suggestion(doc[6].id, Kind.CASE, "Then", {"Then": 0.7, "then": 0.3})])
    project = tmp_path / "talk.stet"
    write_any(doc, project)
    by_command = tmp_path / "by-command.txt"
    assert cli.main(["convert", str(project), "-o", str(by_command)]) == 0
    opened(window, project)
    by_window = tmp_path / "by-window.txt"
    shown: list[ExportDialog] = []

    def exec_(dialog):
        shown.append(dialog)
        dialog.path_edit.setText(str(by_window))
        dialog._typed(str(by_window))
        dialog.accept()
        return dialog.result()
    monkeypatch.setattr(ExportDialog, "exec", exec_)
    window.files.export_dialog(wait=True)
    assert shown[0].chosen_policy is ALL and "(the default)" in shown[0].policy.currentText()
    # a full stop and its capital: one pending suggestion, as the list shows one row
    assert "The pending suggestion will be applied, as the text shows it" in shown[0].policy_note.text()
    assert by_window.read_bytes() == by_command.read_bytes()
    assert "the station. Then we" in by_window.read_text(encoding="utf-8")
    # the other choice, explicit in both
    shown[0].policy.setCurrentIndex(shown[0].policy.findData(NONE))
    assert shown[0].chosen_policy is NONE
    only = tmp_path / "only-accepted.txt"
    assert cli.main(["convert", str(project), "-o", str(only), "--policy", "none"]) == 0
    assert "the station then we" in only.read_text(encoding="utf-8")


def test_convert_help_says_the_default_and_the_other_choice(capsys):
    from editor import cli

    with pytest.raises(SystemExit):
        cli.main(["convert", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "all (the text as the window shows it, which its Export also writes by default)" in said
    assert "none (only what was accepted)" in said
# -- times at speaker turns (issue 50) ------------------------------------------------------------------

INTERVIEW = ("1\n00:12:34,000 --> 00:12:36,000\nCarme: good morning and welcome\n\n"
             "2\n00:12:37,000 --> 00:12:39,000\nJoan: thank you for having me\n\n"
             "3\n00:12:40,000 --> 00:12:42,000\nCarme: so tell me about the village\n")


def test_export_writes_a_time_at_each_speaker_turn_when_asked(window, monkeypatch, tmp_path, qtbot):
    source = tmp_path / "interview.srt"
    source.write_text(INTERVIEW, encoding="utf-8")
    opened(window, source)
    target = tmp_path / "interview.docx"

    def answer(dialog):
        dialog.path_edit.setText(str(target))
        dialog._typed(str(target))
        assert dialog.turn_times.isEnabled() and not dialog.turn_times.isChecked()
        dialog.turn_times.setChecked(True)
        dialog.accept()
        return 1
    monkeypatch.setattr(ExportDialog, "exec", answer)
    window.files.export_dialog(wait=True)
    import docx

    first = docx.Document(str(target)).paragraphs[0].text
    assert first.startswith("[00:12:34] Carme: good morning")
    assert window.settings.export.turn_times  # offered checked next time

    shown = dialog_as_proposed(window, monkeypatch)
    assert shown.turn_times.isChecked()
    shown.format.setCurrentIndex(shown.format.findData(".srt"))
    assert not shown.turn_times.isEnabled()  # subtitles keep times of their own


def test_the_dialog_says_its_notes_in_words_not_markdown(window, monkeypatch):
    """The note under "Write" read "(the default, as `stet convert` writes)": backticks of the
    docs' Markdown in a dialog, and a command a person at the window need not know; with one
    suggestion pending it said "All 1 pending suggestions will be applied"."""
    from PySide6.QtWidgets import QLabel

    from editor.core.document.transcript import Kind, Suggestion, Token, Transcript

    doc = Transcript([Token(w) for w in "so we met there".split()])
    doc.set_suggestions([Suggestion(doc[1].id, Kind.PUNCT, ",", {",": 0.7, "": 0.3})])
    window.set_transcript(doc, restore=False)
    dialog = dialog_as_proposed(window, monkeypatch)
    for policy in range(dialog.policy.count()):
        dialog.policy.setCurrentIndex(policy)
        texts = [label.text() for label in dialog.findChildren(QLabel)]
        assert dialog.policy_note.text() and not [t for t in texts if "`" in t or "stet convert" in t]
        assert not [t for t in texts if "All 1 " in t or "1 pending suggestions" in t or "1 suggestions" in t]


def test_an_export_in_the_background_is_written_with_collections_held(window, talk_txt, tmp_path,
                                                                      monkeypatch, qtbot):
    """Rendering and building a Word document makes records faster than they die: full
    collections over them (15-21 ms each at 100,000 words, the interpreter held from the window)
    are held off while the file is made, and come back after."""
    import gc

    from editor.gui.window import files

    real = files.write_any
    enabled: list[bool] = []

    def write(*args, **kwargs):
        enabled.append(gc.isenabled())
        return real(*args, **kwargs)
    monkeypatch.setattr(files, "write_any", write)
    assert gc.isenabled()
    with qtbot.waitSignal(window.export_done, timeout=5000) as done:
        window.files.export_later(tmp_path / "out.docx")
    assert done.args == [str(tmp_path / "out.docx")] and enabled == [False]
    assert gc.isenabled()
