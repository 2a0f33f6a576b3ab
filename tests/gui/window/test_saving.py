"""Saving and exporting from the window never replace a file unasked: an existing file is confirmed
(by the file dialog, or by us when the name changed after it), the open document's own source asks
explicitly and names the risk, and a read-only file is refused with a message, not a traceback.
Opening: a large file or anything but a plain file is read off the UI thread, and can be cancelled."""

import threading
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox, QPushButton

from editor.core.errors import UserError
from editor.gui.dialogs.export import ExportDialog


@pytest.fixture
def talk(window, qtbot, tmp_path):
    source = tmp_path / "talk.txt"
    source.write_text("the raw words of the talk as they came in", encoding="utf-8")
    window.open_path(source)
    window.cancel_restoration()
    window.interactive = True  # a person answers (every question below is stood in for)
    window.may_discard = lambda: True
    return source


class Asked:
    """Stands in for QMessageBox.question / warning, recording what was said."""

    def __init__(self, monkeypatch, answer):
        self.texts = []
        self.answer = answer
        for name in ("question", "warning"):
            monkeypatch.setattr(QMessageBox, name, self._ask)

    def _ask(self, _parent, title, text, *args, **kwargs):
        self.texts.append(f"{title}: {text}")
        return self.answer


def _export_to(monkeypatch, path, browsed=False):
    """The person types ``path`` (or picks it with Browse…) and presses OK once; if the dialog
    stays open (a question answered No), they cancel it then."""
    def exec_(dialog):
        dialog.path_edit.setText(str(path))
        dialog._typed(str(path))
        if browsed:
            dialog.confirmed_path = path
        dialog.accept()
        return dialog.result()
    monkeypatch.setattr(ExportDialog, "exec", exec_)


def test_exporting_onto_the_source_asks_and_names_the_risk(window, talk, monkeypatch):
    before = talk.read_bytes()
    _export_to(monkeypatch, talk)
    asked = Asked(monkeypatch, QMessageBox.StandardButton.Cancel)
    window.files.export_dialog(wait=True)
    assert talk.read_bytes() == before
    (text,) = asked.texts
    assert "opened from" in text and "original" in text and "cannot be" in text
    _export_to(monkeypatch, talk, browsed=True)  # even after the file dialog's own question
    asked = Asked(monkeypatch, QMessageBox.StandardButton.Yes)
    window.files.export_dialog(wait=True)
    assert len(asked.texts) == 1 and talk.read_bytes() != before


def test_exporting_onto_another_file_asks_unless_the_file_dialog_did(window, talk, monkeypatch,
                                                                      tmp_path):
    other = tmp_path / "other.txt"
    other.write_text("keep me", encoding="utf-8")
    _export_to(monkeypatch, other)
    asked = Asked(monkeypatch, QMessageBox.StandardButton.Cancel)
    window.files.export_dialog(wait=True)
    assert other.read_text(encoding="utf-8") == "keep me" and "already exists" in asked.texts[0]
    _export_to(monkeypatch, other, browsed=True)
    asked = Asked(monkeypatch, QMessageBox.StandardButton.Cancel)
    window.files.export_dialog(wait=True)
    assert asked.texts == [] and other.read_text(encoding="utf-8") != "keep me"
    new = tmp_path / "new.txt"
    _export_to(monkeypatch, new)
    window.files.export_dialog(wait=True)
    assert asked.texts == [] and new.exists()


def test_the_file_dialogs_confirm_overwriting(window, talk, monkeypatch, tmp_path):
    calls = []

    def save_name(*args, **kwargs):
        calls.append(kwargs.get("options", args[4] if len(args) > 4 else None))
        return str(tmp_path / "chosen.stet"), ""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_name)
    window.files.save_dialog(ask=True)
    dialog = ExportDialog(window.settings, tmp_path / "x.txt", 0, window)
    dialog._browse()
    assert dialog.confirmed_path == tmp_path / "chosen.stet"
    for options in calls:  # Qt asks before replacing unless told not to: never told
        assert options is None or not options & QFileDialog.Option.DontConfirmOverwrite


def test_save_as_asks_when_the_name_changes_after_the_dialog(window, talk, monkeypatch,
                                                             tmp_path):
    existing = tmp_path / "session.stet"
    existing.write_text("{}", encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(tmp_path / "session"), ""))  # .stet is added after
    asked = Asked(monkeypatch, QMessageBox.StandardButton.Cancel)
    window.files.save_dialog(ask=True)
    assert existing.read_text(encoding="utf-8") == "{}" and "already exists" in asked.texts[0]
    asked.answer = QMessageBox.StandardButton.Yes
    window.files.save_dialog(ask=True)
    window.saver.wait()  # written on a thread of its own
    assert window.path == existing and not window.dirty


def test_a_read_only_target_gets_a_message_not_an_overwrite(window, talk, monkeypatch, tmp_path):
    locked = tmp_path / "locked.txt"
    locked.write_text("read only", encoding="utf-8")
    locked.chmod(0o444)
    _export_to(monkeypatch, locked)
    asked = Asked(monkeypatch, QMessageBox.StandardButton.Yes)
    window.files.export_dialog(wait=True)
    assert locked.read_text(encoding="utf-8") == "read only"
    assert len(asked.texts) == 1 and "read-only" in asked.texts[0]
    with pytest.raises(UserError, match="read-only"):  # scripted: the writer refuses it too
        window.export(locked)
    project = window.save(tmp_path / "project.stet", wait=True)
    project.chmod(0o444)
    before = project.read_bytes()
    window.view.edit_characters(0, 0, "More ")
    asked.texts.clear()
    window.files.save_dialog()  # plain Save onto the project, now read-only
    assert project.read_bytes() == before and window.dirty
    assert len(asked.texts) == 1 and "read-only" in asked.texts[0]


def test_a_large_file_opens_off_the_ui_thread(window, qtbot, tmp_path):
    from editor.gui.work.opening import BACKGROUND_BYTES

    big = tmp_path / "big.txt"
    words = ["word"] * (BACKGROUND_BYTES // 4)
    big.write_text(" ".join(words), encoding="utf-8")
    with qtbot.waitSignal(window.opening.finished, timeout=60_000) as done:
        window.open_reporting(big)
        assert len(window.transcript) == 0  # not read yet: the window goes on
    assert done.args == ["opened"] and len(window.transcript) == len(words)
    assert window.source == big


def test_a_fifo_never_freezes_the_window(window, qtbot, tmp_path):
    import os

    fifo = tmp_path / "x.txt"
    os.mkfifo(fifo)
    with qtbot.waitSignal(window.opening.finished, timeout=30_000) as done:
        window.open_reporting(fifo)
    assert done.args == ["failed"]
    assert "Cannot open" in window.statusBar().currentMessage()


def test_a_stalled_read_can_be_cancelled(window, qtbot, tmp_path, monkeypatch):
    from editor.gui.work import opening

    stalled = threading.Event()
    monkeypatch.setattr(opening, "read_any", lambda path: stalled.wait(60) and None)
    slow = tmp_path / "slow.txt"
    slow.write_text("x" * (opening.BACKGROUND_BYTES + 1), encoding="utf-8")
    window.open_reporting(slow)
    qtbot.waitUntil(lambda: window.opening._dialog is not None
                    and window.opening._dialog.isVisible(), timeout=5_000)
    with qtbot.waitSignal(window.opening.finished, timeout=5_000) as done:
        (button,) = window.opening._dialog.findChildren(QPushButton)
        button.click()  # the dialog's Cancel
    assert done.args == ["cancelled"] and "Stopped opening" in window.statusBar().currentMessage()
    stalled.set()  # the read ends later: what it brings is dropped
    qtbot.wait(300)
    assert window.source != slow and not window.opening.running


def test_work_typed_while_a_file_is_read_is_not_replaced_unasked(window, qtbot, tmp_path,
                                                                 monkeypatch):
    from editor.core.document.transcript import Transcript
    from editor.gui.work import opening

    reading = threading.Event()
    monkeypatch.setattr(opening, "read_any",
                        lambda path: reading.wait(60) and Transcript.from_text("read words"))
    slow = tmp_path / "slow.txt"
    slow.write_text("x" * (opening.BACKGROUND_BYTES + 1), encoding="utf-8")
    window.open_reporting(slow)
    window.view.edit_characters(0, 0, "typed meanwhile")
    asked = []
    window.may_discard = lambda: asked.append(True) and False  # the person keeps the work
    with qtbot.waitSignal(window.opening.finished, timeout=10_000) as done:
        reading.set()
    assert asked and done.args == ["cancelled"]
    assert window.transcript.words() == ["typed", "meanwhile"]


def test_a_written_save_and_its_learning_let_the_records_go(window, qtbot, tmp_path):
    """Once a save is reported and learned from, neither the saver's last job nor the learning
    holds the words and suggestions written: kept until the next save, a replaced document's
    records were freed then, all at once on the UI thread."""
    from editor.core.document.transcript import Kind, Suggestion, Token, Transcript

    doc = Transcript([Token(w) for w in ["so", "we", "met", "paris"]])
    doc.set_suggestions([Suggestion(doc[3].id, Kind.CASE, "Paris", {"Paris": 0.9, "paris": 0.1})])
    window.set_transcript(doc, restore=False)
    window.transcript.accept(doc[3].id, Kind.CASE)
    window.save(tmp_path / "a.stet", wait=True)
    job = window.saver.last_job
    assert job is not None and job.result is not None
    assert job.result.tokens == () and job.result.suggestions == ()
    assert job.result.path == tmp_path / "a.stet" and job.result.size > 0
    op = window.learning._op
    if op is not None:  # learning from it runs (it may teach nothing new)
        qtbot.waitUntil(lambda: op.done, timeout=30_000)
        held = dict(zip(op._fn.__code__.co_freevars, (c.cell_contents for c in op._fn.__closure__)))
        assert held["tokens"] is None and held["suggestions"] is None


SRT = ("1\n00:00:01,000 --> 00:00:02,500\nthe raw words\n\n"
       "2\n00:00:03,000 --> 00:00:04,250\nof the talk\n")


@pytest.mark.parametrize("name, offered, shown", [
    ("talk.srt", "talk-edited.srt", ".srt"), ("talk.vtt", "talk-edited.vtt", ".vtt"),
    ("talk.ssa", "talk-edited.ssa", ".ssa"), ("talk.dfxp", "talk-edited.dfxp", ".dfxp"),
    ("talk.smi", "talk-edited.smi", ".smi"), ("talk.sami", "talk.smi", ".smi"),
    ("talk.txt", "talk.docx", ".docx"), ("talk.json", "talk.txt", ".txt"),
    # a language tag before the extension stays there, where players and yt-dlp put it
    ("talk.en.vtt", "talk-edited.en.vtt", ".vtt"), ("talk.pt-BR.srt", "talk-edited.pt-BR.srt", ".srt"),
    ("talk.zh-Hans.vtt", "talk-edited.zh-Hans.vtt", ".vtt"), ("talk.en-orig.vtt", "talk-edited.en-orig.vtt", ".vtt"),
    # a dot that is no language tag is part of the name
    ("Interview with Dr. Smith.srt", "Interview with Dr. Smith-edited.srt", ".srt"),
    ("talk.v2.srt", "talk.v2-edited.srt", ".srt")])
def test_export_offers_a_subtitle_sources_own_format_and_never_its_name(tmp_path, name, offered, shown):
    from editor.gui.dialogs.export import suggested_export

    source = tmp_path / name
    suggested = suggested_export(source, None, tmp_path)
    assert suggested == tmp_path / offered and suggested != source
    assert suggested.suffix == shown
    assert suggested_export(None, None, tmp_path) == tmp_path / "transcript.txt"


def test_exporting_a_subrip_source_as_offered_keeps_its_cues_and_the_source(window, qtbot, tmp_path,
                                                                             monkeypatch):
    import pysubs2

    source = tmp_path / "talk.srt"
    source.write_text(SRT, encoding="utf-8")
    window.open_path(source)
    window.cancel_restoration()
    window.interactive = True
    offered = []

    def exec_(dialog):  # the person presses Enter on what the dialog proposes
        offered.append((dialog.chosen_path, dialog.format.currentData()))
        dialog.accept()
        return dialog.result()
    monkeypatch.setattr(ExportDialog, "exec", exec_)
    asked = Asked(monkeypatch, QMessageBox.StandardButton.Cancel)
    window.files.export_dialog(wait=True)
    assert offered == [(tmp_path / "talk-edited.srt", ".srt")]
    assert asked.texts == [] and source.read_text(encoding="utf-8") == SRT  # the source untouched
    written = pysubs2.load(str(tmp_path / "talk-edited.srt"))
    assert [(e.start, e.end, e.plaintext) for e in written] == \
        [(1000, 2500, "the raw words"), (3000, 4250, "of the talk")]
    window.files.export_dialog(wait=True)  # again: the earlier export is there now, and that is asked about
    assert len(asked.texts) == 1 and "already exists" in asked.texts[0]


@pytest.mark.parametrize("name", ["subtitle-edit.ssa", "flash.dfxp", "subtitle-edit.smi"])
def test_exporting_an_ssa_dfxp_or_sami_as_offered_gives_it_back_as_it_came(window, tmp_path, monkeypatch, name):
    """An .ssa, a .dfxp and a SAMI file were offered as .ass and .ttml and written afresh in
    that other format; each is offered in its own and written back byte for byte when nothing
    was decided."""
    from tests.core.formats.subtitles.program_exports import FILES

    data = FILES[name]
    source = tmp_path / f"talk{Path(name).suffix}"
    source.write_bytes(data)
    offered = export_as_offered(window, monkeypatch, source)
    assert offered == [tmp_path / f"talk-edited{source.suffix}"]
    assert offered[0].read_bytes() == data and source.read_bytes() == data


def export_as_offered(window, monkeypatch, source: Path) -> list[Path]:
    """Open ``source`` (no restoration) and press Enter in File > Export on what the dialog
    proposes: the paths it offered."""
    window.open_path(source)
    window.cancel_restoration()
    window.interactive = True
    offered = []

    def exec_(dialog):  # the person presses Enter on what the dialog proposes
        offered.append(dialog.chosen_path)
        dialog.accept()
        return dialog.result()
    monkeypatch.setattr(ExportDialog, "exec", exec_)
    window.files.export_dialog(wait=True)
    return offered


def test_exporting_a_subtitle_with_a_language_tag_keeps_the_tag_last(window, qtbot, tmp_path, monkeypatch):
    """A captioner's talk.en.vtt (as yt-dlp saves it) was offered as talk.en-edited.vtt, a name
    players no longer match to English; it is offered as talk-edited.en.vtt."""
    source = tmp_path / "talk.en.vtt"
    vtt = "WEBVTT\n\n" + SRT.replace(",", ".").replace("1\n", "", 1).replace("\n2\n", "\n")
    source.write_text(vtt, encoding="utf-8")
    assert export_as_offered(window, monkeypatch, source) == [tmp_path / "talk-edited.en.vtt"]
    assert (tmp_path / "talk-edited.en.vtt").exists() and source.read_text(encoding="utf-8") == vtt


def test_a_name_with_a_dot_keeps_all_of_it_when_the_format_is_added(window, talk, monkeypatch,
                                                                    tmp_path):
    """Exporting as "Interview with Dr. Smith" wrote "Interview with Dr.txt": the format's
    extension replaced ". Smith" as if it were one. It is added to the name as typed; a name
    that ends in an export format's extension keeps it, and choosing another format in the
    dialog swaps only such an extension."""
    _export_to(monkeypatch, tmp_path / "Interview with Dr. Smith")
    window.files.export_dialog(wait=True)
    assert [p.name for p in tmp_path.glob("Interview*")] == [
        "Interview with Dr. Smith.docx"]  # the format the dialog proposed for a .txt source
    dialog = ExportDialog(window.settings, tmp_path / "notes v1.2", 0, window)
    dialog.format.setCurrentIndex(dialog.format.findData(".srt"))
    assert dialog.chosen_path.name == "notes v1.2.srt"
    dialog.format.setCurrentIndex(dialog.format.findData(".md"))
    assert dialog.chosen_path.name == "notes v1.2.md"


def test_saving_as_a_name_with_a_dot_keeps_all_of_it(window, talk, monkeypatch, tmp_path):
    """File > Save as "Interview with Dr. Smith" wrote "Interview with Dr.stet"; "talk.srt"
    still becomes "talk.stet" (the extension of a file Stet reads is swapped, not kept)."""
    for typed, written in (("Interview with Dr. Smith", "Interview with Dr. Smith.stet"),
                           ("talk.srt", "talk.stet")):
        monkeypatch.setattr(QFileDialog, "getSaveFileName",
                            lambda *_a, typed=typed, **_k: (str(tmp_path / typed), ""))
        window.files.save_dialog(ask=True, wait=True)
        assert (tmp_path / written).is_file()
    assert not (tmp_path / "Interview with Dr.stet").exists()
