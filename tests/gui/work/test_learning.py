"""Learning from the reviewer in the editor: a choice repeats as a proposal "from your choice",
saving keeps the forms written, What Stet learned shows and resets them, restoration uses them."""

import json

from editor.core.document.transcript import Kind, State, Suggestion, Transcript
from editor.core.review.lexicon import UserLexicon


def _doc_with_names() -> Transcript:
    doc = Transcript.from_words("we met okafor at the station and okafor said that okafor likes tea".split())
    first = doc[2]
    doc.set_suggestions([Suggestion(first.id, Kind.CASE, "Okafor", {"Okafor": 0.7, "okafor": 0.3})])
    return doc


def test_accepting_a_capital_proposes_it_for_the_same_name_elsewhere(window, qtbot):
    doc = _doc_with_names()
    window.set_transcript(doc, restore=False)
    view = window.view
    s = view.next_suggestion()
    assert s is not None and s.value == "Okafor"
    view.review.accept_current()
    others = [doc.suggestion(doc[i].id, Kind.CASE) for i in (7, 10)]
    assert all(o is not None and o.source == "choice" and o.state == State.PENDING for o in others)
    assert "from your choice" in window.statusBar().currentMessage()
    assert "from your choice" in view.pointer.tooltip_html([others[0]])
    assert "from your choice" in window.panel.describe(others[0])
    qtbot.waitUntil(lambda: window.panel.pending_count == 2, timeout=3000)
    window.undo()  # one step takes the decision and what it repeated
    assert doc[2].surface == "okafor"
    assert all(doc.suggestion(doc[i].id, Kind.CASE) is None for i in (7, 10))


def test_choices_do_not_repeat_when_turned_off(window):
    window.settings.review.repeat_choices = False
    doc = _doc_with_names()
    window.set_transcript(doc, restore=False)
    window.view.next_suggestion()
    window.view.review.accept_current()
    assert doc.suggestion(doc[7].id, Kind.CASE) is None


def test_saving_keeps_the_forms_written_in_the_project_and_the_user_lexicon(window, qtbot, tmp_path):
    doc = _doc_with_names()
    window.set_transcript(doc, restore=False)
    window.view.next_suggestion()
    window.view.review.accept_current()
    for i in (7, 10):
        doc.accept(doc[i].id, Kind.CASE)
    target = tmp_path / "talk.stet"
    window.save(target, wait=True)
    saved = json.loads(target.read_text(encoding="utf-8"))
    assert saved["metadata"]["extra"]["lexicon"] == {"okafor": "Okafor"}
    qtbot.waitUntil(lambda: UserLexicon.load().forms.get("okafor") == "Okafor", timeout=10000)


def test_saving_learns_nothing_when_turned_off(window, qtbot, tmp_path):
    window.settings.review.learn_from_reviews = False
    doc = _doc_with_names()
    window.set_transcript(doc, restore=False)
    for i in (2, 7, 10):
        doc.edit_token(i, surface="Okafor")
    window.save(tmp_path / "talk.stet", wait=True)
    qtbot.wait(300)
    assert UserLexicon.load().forms == {}


def test_what_stet_learned_lists_adds_removes_exports_and_resets(window, qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    lex = UserLexicon.load()
    lex.learn({"okafor": "Okafor"})
    lex.save()
    dialog = window.learned_dialog()
    assert [dialog.list.item(i).text() for i in range(dialog.list.count())] == ["Okafor"]
    assert dialog.add_forms("NASA, iPad") == 2
    assert [dialog.list.item(i).text() for i in range(dialog.list.count())] == ["iPad", "NASA", "Okafor"]
    dialog.list.item(1).setSelected(True)
    assert dialog.remove_selected() == 1
    out = tmp_path / "forms.txt"
    dialog.lexicon.export(out)
    assert out.read_text(encoding="utf-8") == "iPad\nOkafor\n"
    dialog.repeat.setChecked(False)
    dialog.accept()
    assert window.settings.review.repeat_choices is False
    assert UserLexicon.load().forms == {"okafor": "Okafor", "ipad": "iPad"}
    dialog = window.learned_dialog()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    dialog.ask_reset()
    assert dialog.list.count() == 0 and UserLexicon.load().forms == {}
    dialog.reject()


def test_restoration_in_the_editor_writes_the_lexicon_forms(window, qtbot):
    lex = UserLexicon.load()
    lex.learn({"zarvex": "ZarVex"})
    lex.save()
    doc = Transcript.from_words("we met zarvex at the station".split())
    with qtbot.waitSignal(window.restoration_finished, timeout=60000):
        window.set_transcript(doc)
    s = doc.suggestion(doc[2].id, Kind.CASE)
    assert s is not None and s.value == "ZarVex"


def test_typing_a_capital_proposes_it_for_the_same_name_elsewhere(window):
    doc = Transcript.from_words("we met okafor at the station and okafor said that okafor likes tea".split())
    window.set_transcript(doc, restore=False)
    view = window.view
    at = view.shown_text().index("okafor")
    cursor = view.textCursor()
    cursor.setPosition(at)
    cursor.setPosition(at + 1, cursor.MoveMode.KeepAnchor)
    view.setTextCursor(cursor)
    view.insert_text("O")  # the person types the capital over the first letter
    assert doc[2].surface == "Okafor"
    others = [doc.suggestion(doc[i].id, Kind.CASE) for i in (7, 10)]
    assert all(o is not None and o.value == "Okafor" and o.source == "choice" for o in others)
    assert "proposed the same in 2 other places" in window.statusBar().currentMessage()
    window.panel.refresh()
    rows = [window.panel.list.item(i) for i in range(window.panel.list.count())]
    assert any("from your choice" in r.toolTip() for r in rows)  # a long row is whole on hover
    window.undo()
    assert doc[2].surface == "okafor" and all(doc.suggestion(doc[i].id, Kind.CASE) is None for i in (7, 10))


def test_retyping_a_name_letter_by_letter_proposes_it_elsewhere(window):
    doc = Transcript.from_words("we met okafor at the station and okafor said hello".split())
    window.set_transcript(doc, restore=False)
    view = window.view
    at = view.shown_text().index("okafor")
    cursor = view.textCursor()
    cursor.setPosition(at)
    cursor.setPosition(at + len("okafor"), cursor.MoveMode.KeepAnchor)
    view.setTextCursor(cursor)
    for ch in "Okafor":
        view.insert_text(ch)
    assert doc[2].surface == "Okafor"
    sug = doc.suggestion(doc[7].id, Kind.CASE)
    assert sug is not None and sug.value == "Okafor" and sug.source == "choice"


def test_saving_teaches_the_profile_what_stet_eval_simulates(window, qtbot, tmp_path):
    """The editor learns from the reviewed stretch as `stet eval --simulate-review` does: the mark
    bias on the model's marginals there, the forms and the pair marks, kept for the language and
    speakers (off the UI thread)."""
    from editor.restore.learning.learned_store import list_profiles, load_learned, profile_key

    doc = Transcript.from_words("well you know okafor came and well you know he left".split())
    doc.set_suggestions([Suggestion(doc[0].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}),
                         Suggestion(doc[3].id, Kind.CASE, "Okafor", {"Okafor": 0.7, "okafor": 0.3})])
    window.set_transcript(doc, restore=False)
    doc.reject(doc[0].id, Kind.PUNCT)
    doc.accept(doc[3].id, Kind.CASE)
    with qtbot.waitSignal(window.learning.learned, timeout=60000) as got:
        window.save(tmp_path / "talk.stet", wait=True)
    assert got.args == [4]  # reviewed words the profile learned from
    kept = load_learned(profile_key(doc.metadata.language, []))
    assert kept.pair_marks == {("well", "you"): ""} and kept.case_forms == {"okafor": "Okafor"}
    assert not kept.punct_bias.any()  # 4 words teach no mark bias (BIAS_MIN_WORDS): it moves every later file
    assert [p.words for p in list_profiles()] == [4]
    assert window.learning.last_seconds is not None and window.learning.last_seconds < 60


def test_another_profile_is_used_for_a_document_only_when_chosen(window):
    from PySide6.QtCore import Qt

    from editor.restore.learning.review_lessons import Adaptation
    from editor.restore.learning.learned_store import CHOSEN, profile_key, save_learned

    other = profile_key("de", ["Bo"])
    save_learned(other, Adaptation(case_forms={"okafor": "Okafor"}, words=9), "de, speaker Bo")
    doc = _doc_with_names()
    window.set_transcript(doc, restore=False)
    dialog = window.learned_dialog()
    assert dialog.profiles.count() == 2  # Bo's, and a line saying this document has none yet
    item = dialog.profiles.item(0)
    assert item.data(Qt.ItemDataRole.UserRole) == other and "de, speaker Bo: 9 reviewed words" in item.text()
    dialog.profiles.setCurrentItem(item)
    dialog.use_selected_profile()
    assert "used for this document" in dialog.profiles.item(0).text()
    dialog.accept()
    assert doc.metadata.extra[CHOSEN] == other
    dialog = window.learned_dialog()
    dialog.choose_profile(None)
    dialog.accept()
    assert CHOSEN not in doc.metadata.extra


def test_a_chosen_profile_gone_keeps_the_user_lexicon_and_says_so_once(window, qtbot):
    """The person's own lexicon still applies when the profile chosen for the document was deleted;
    the status bar says once that it is gone and what is used instead."""
    from editor.restore.learning.learned_store import CHOSEN

    lex = UserLexicon.load()
    lex.learn({"zarvex": "ZarVex"})
    lex.save()
    doc = Transcript.from_words("we met zarvex at the station".split())
    doc.set_metadata(extra={CHOSEN: "en-000000000000"})  # chosen once, then deleted (reset)
    said: list[str] = []
    window.restoration.note.connect(said.append)
    with qtbot.waitSignal(window.restoration_finished, timeout=60000):
        window.set_transcript(doc)
    s = doc.suggestion(doc[2].id, Kind.CASE)
    assert s is not None and s.value == "ZarVex"
    assert said == ["The learned profile chosen for this document is gone; using your lexicon instead"]
    assert "chosen for this document is gone" in window.statusBar().currentMessage()
    with qtbot.waitSignal(window.restoration_finished, timeout=60000):
        window.start_restoration()  # again: not said twice
    assert len(said) == 1


def _reviewed_doc() -> Transcript:
    doc = Transcript.from_words("well you know okafor came and well you know he left".split())
    doc.set_suggestions([Suggestion(doc[0].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}),
                         Suggestion(doc[3].id, Kind.CASE, "Okafor", {"Okafor": 0.7, "okafor": 0.3}),
                         Suggestion(doc[8].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})])
    doc.reject(doc[0].id, Kind.PUNCT)
    doc.accept(doc[3].id, Kind.CASE)
    return doc


def _learning_record(path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))["metadata"]["extra"]["learning"]


def test_what_is_not_learned_yet_travels_in_the_project(window, qtbot, tmp_path):
    """A project saved with decisions not yet learned from says so; opened again, its next save
    learns from them. A save that teaches nothing new learns nothing again."""
    from editor.restore.learning.learned_store import list_profiles

    window.settings.review.learn_from_reviews = False
    target = tmp_path / "talk.stet"
    window.set_transcript(_reviewed_doc(), restore=False)
    window.save(target, wait=True)
    assert _learning_record(target) == {"learned": None, "pending": True}
    assert list_profiles() == []
    window.settings.review.learn_from_reviews = True
    window.open_path(target)  # closed and opened again: still to learn
    with qtbot.waitSignal(window.learning.learned, timeout=60000) as got:
        window.save(target, wait=True)
    assert got.args == [4] and [p.words for p in list_profiles()] == [4]
    window.save(target, wait=True)  # nothing new: not learned again, and the project says it was learned
    assert not window.learning.running
    record = _learning_record(target)
    assert record["pending"] is False and isinstance(record["learned"], str)
    window.open_path(target)
    doc = window.transcript
    learned: list[int] = []
    window.learning.learned.connect(learned.append)
    window.save(target, wait=True)  # opened again: the worker finds the review already learned from
    qtbot.waitUntil(lambda: not window.learning.running, timeout=60000)
    assert learned == [] and [p.words for p in list_profiles()] == [4]
    window.save(target, wait=True)
    assert _learning_record(target) == record and not window.learning.running
    doc.accept(doc[8].id, Kind.PUNCT)  # a new decision
    with qtbot.waitSignal(window.learning.learned, timeout=60000) as got:
        window.save(target, wait=True)
    assert _learning_record(target) == {"learned": record["learned"], "pending": True}
    assert got.args == [9]  # the stretch from the first decision to the last, learned again at once


def test_a_project_from_before_the_learning_record_is_learned_at_its_next_save(window, qtbot, tmp_path):
    from editor.core.formats import write_any

    target = tmp_path / "old.stet"
    write_any(_reviewed_doc(), target)  # as older versions wrote it: no learning record
    assert "learning" not in json.loads(target.read_text(encoding="utf-8"))["metadata"]["extra"]
    window.open_path(target)
    with qtbot.waitSignal(window.learning.learned, timeout=60000) as got:
        window.save(target, wait=True)
    assert got.args == [4]


def test_the_model_s_common_words_do_not_join_the_user_lexicon(window, qtbot, tmp_path):
    """A capital on a frequent word ("Station" in a name) stays in the document's profile with the
    word before it, but is not written outright in every later file: the user lexicon takes names."""
    doc = Transcript.from_words("we met okafor at the station and okafor said hello".split())
    doc.set_suggestions([Suggestion(doc[2].id, Kind.CASE, "Okafor", {"Okafor": 0.7, "okafor": 0.3}),
                         Suggestion(doc[5].id, Kind.CASE, "Station", {"Station": 0.6, "station": 0.4})])
    window.set_transcript(doc, restore=False)
    for i in (2, 5):
        doc.accept(doc[i].id, Kind.CASE)
    doc.edit_token(7, surface="Okafor")  # every occurrence mid-sentence agrees
    with qtbot.waitSignal(window.learning.learned, timeout=60000):
        window.save(tmp_path / "talk.stet", wait=True)
    assert UserLexicon.load().forms == {"okafor": "Okafor"}  # "station" is among the tiny model's words
    saved = json.loads((tmp_path / "talk.stet").read_text(encoding="utf-8"))
    assert saved["metadata"]["extra"]["lexicon"] == {"okafor": "Okafor", "station": "Station"}  # the project's own


def test_a_choice_on_a_frequent_word_repeats_a_slice_at_a_time_in_one_undo_step(window, qtbot):
    from editor.gui.text_view.review import REPEAT_AT_ONCE

    doc = Transcript.from_words(("we met okafor there and " * (REPEAT_AT_ONCE + 50)).split())
    first = doc[2]
    doc.set_suggestions([Suggestion(first.id, Kind.CASE, "Okafor", {"Okafor": 0.7, "okafor": 0.3})])
    window.set_transcript(doc, restore=False)
    view = window.view
    view.set_current(doc.suggestion(first.id, Kind.CASE))
    with qtbot.waitSignal(window.bulk_finished, timeout=10_000):
        view.review.accept_current()
        assert window.bulk_running  # the rest follows over the next turns of the event loop
    others = [i for i in range(len(doc)) if doc[i].word == "okafor" and i != 2]
    assert all(doc.suggestion(doc[i].id, Kind.CASE).source == "choice" for i in others)
    assert f"proposed the same in {len(others):,} other places" in window.statusBar().currentMessage()
    with qtbot.waitSignal(window.bulk_finished, timeout=10_000):
        assert window.undo()  # one step takes the decision and all it repeated
    assert doc[2].surface == "okafor"
    assert all(doc.suggestion(doc[i].id, Kind.CASE) is None for i in others)


def test_a_capital_typed_on_a_frequent_word_repeats_a_slice_at_a_time_in_one_undo_step(window, qtbot):
    """Typing "O" over "okafor" used 5,000 times proposed it for every other use in one turn
    of the event loop (105 ms on 100,000 words); now as accepting such a choice does."""
    from editor.gui.text_view.review import REPEAT_AT_ONCE

    doc = Transcript.from_words(("we met okafor there and " * (REPEAT_AT_ONCE + 50)).split())
    window.set_transcript(doc, restore=False)
    view = window.view
    at = view.shown_text().index("okafor")
    cursor = view.textCursor()
    cursor.setPosition(at)
    cursor.setPosition(at + 1, cursor.MoveMode.KeepAnchor)
    view.setTextCursor(cursor)
    others = [i for i in range(len(doc)) if doc[i].word == "okafor" and i != 2]
    with qtbot.waitSignal(window.bulk_finished, timeout=10_000):
        view.insert_text("O")
        assert window.bulk_running  # the rest follows over the next turns of the event loop
        assert doc[2].surface == "Okafor"
        assert sum(1 for i in others if doc.suggestion(doc[i].id, Kind.CASE) is not None) <= REPEAT_AT_ONCE
    assert all(doc.suggestion(doc[i].id, Kind.CASE).value == "Okafor" for i in others)
    assert all(doc.suggestion(doc[i].id, Kind.CASE).source == "choice" for i in others)
    assert f"proposed the same in {len(others):,} other places" in window.statusBar().currentMessage()
    with qtbot.waitSignal(window.bulk_finished, timeout=10_000):
        assert window.undo()  # one step takes the capital typed and all it repeated
    assert doc[2].surface == "okafor"
    assert all(doc.suggestion(doc[i].id, Kind.CASE) is None for i in others)


def _long_review() -> Transcript:
    """A review of about 210 words (enough for a mark bias: BIAS_MIN_WORDS) with marks the person chose."""
    phrase = "so we met okafor at the station and okafor said that the library moved okay".split()
    doc = Transcript.from_words((phrase * 16)[:220])
    doc.set_suggestions([Suggestion(doc[i].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})
                         for i in range(len(doc)) if doc[i].word in ("station", "okay")])
    for i in range(len(doc)):
        if doc[i].word == "station":
            doc.accept(doc[i].id, Kind.PUNCT)
        elif doc[i].word == "okay":
            doc.reject(doc[i].id, Kind.PUNCT)
        elif doc[i].word == "moved":
            doc.edit_token(i, punct=".")
    return doc


def test_learning_through_the_worker_process_learns_what_the_window_s_process_learns(window, qtbot, tmp_path):
    """A save's learning asks the worker process the window restores in for the model's
    marginals and common words; what it keeps is what the same review taught in this process."""
    from editor.gui.work.restoration import Restorers
    from editor.restore.learning.learned_store import load_learned, profile_key, reset_learned

    kept = {}
    for where in ("worker process", "thread"):
        restorers = window.restoration.restorers = Restorers(in_worker=where == "worker process")
        try:
            with qtbot.waitSignal(window.learning.learned, timeout=60000) as got:
                window.set_transcript(_long_review(), restore=False)
                window.save(tmp_path / "talk.stet", wait=True)
            assert restorers.in_worker is (where == "worker process")  # (not fallen back to a thread)
        finally:
            restorers.close()
        assert got.args[0] > 200  # the stretch from the first decision to the last
        kept[where] = load_learned(profile_key(window.transcript.metadata.language, [])).to_dict()
        reset_learned()
    assert kept["worker process"] == kept["thread"]
    assert any(kept["thread"]["punct_bias"]) and kept["thread"]["pair_marks"]  # the marginals taught a bias


def test_a_worker_that_dies_while_learning_leaves_the_forms_and_pair_marks(window, qtbot, tmp_path, caplog):
    from editor.restore.learning.learned_store import load_learned, profile_key
    from editor.restore.passes.pass_process import WorkerStopped

    def died(*args):
        raise WorkerStopped("the restoration worker stopped (exit status -9)")

    window.restoration.restorers.model_lessons = died
    doc = _long_review()
    window.set_transcript(doc, restore=False)
    with qtbot.waitSignal(window.learning.learned, timeout=60000) as got:
        window.save(tmp_path / "talk.stet", wait=True)
    assert got.args[0] > 200
    assert "learning without the model's marginals: the restoration worker stopped" in caplog.text
    kept = load_learned(profile_key(doc.metadata.language, []))
    assert kept.pair_marks and not kept.punct_bias.any()  # no marginals: no bias


def test_saving_a_review_never_imports_torch_into_the_window_s_process(tiny_model_dir, tmp_path):
    """The point of the worker process: the window's process loads no model, for restoring or for
    learning after a save (the model's common words still keep "station" out of the lexicon)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = tmp_path / "save_and_learn.py"
    script.write_text(f"""
import json, sys, time
from editor.core.process import configure_process

if __name__ == "__main__":
    configure_process(gui=True)
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    from editor.core.document.transcript import Kind, Suggestion, Transcript
    from editor.core.review.lexicon import UserLexicon
    from editor.core.settings import Settings
    from editor.gui import MainWindow
    settings = Settings()
    settings.set("engine.restore_model", {str(tiny_model_dir)!r})
    settings.set("engine.device", "cpu")
    window = MainWindow(settings, interactive=False)
    doc = Transcript.from_words("we met okafor at the station and okafor said hello".split())
    doc.set_suggestions([Suggestion(doc[2].id, Kind.CASE, "Okafor", {{"Okafor": 0.7, "okafor": 0.3}}),
                         Suggestion(doc[5].id, Kind.CASE, "Station", {{"Station": 0.6, "station": 0.4}})])
    window.set_transcript(doc, restore=False)
    for i in (2, 5):
        doc.accept(doc[i].id, Kind.CASE)
    doc.edit_token(7, surface="Okafor")
    learned = []
    window.learning.learned.connect(learned.append)
    window.save({str(tmp_path / "talk.stet")!r}, wait=True)
    began = time.monotonic()
    while not learned and time.monotonic() - began < 90:
        app.processEvents()
        time.sleep(0.01)
    print(json.dumps({{"learned": learned, "worker": window.restoration.restorers.in_worker,
                      "torch": "torch" in sys.modules, "lexicon": UserLexicon.load().forms}}))
    window.close()
""", encoding="utf-8")
    root = Path(__file__).resolve().parents[3]
    env = {**os.environ, "PYTHONPATH": str(root), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=180,
                          check=False, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    import json

    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["learned"] == [4] and found["worker"]
    assert found["lexicon"] == {"okafor": "Okafor"}  # "station" is among the tiny model's common words
    assert found["torch"] is False


def test_a_learning_that_ends_after_the_window_closed_still_reads_the_model(tiny_model_dir):
    """The window's close stops its worker process; a save's learning still under way then reads
    the model on its own thread, as where no worker could start, rather than losing the marks."""
    from editor.gui.work.restoration import Restorers
    from editor.restore.passes.inference import Restorer
    from editor.restore.learning.learned_store import marginal_reads, model_lessons

    reads = marginal_reads("so what do we do now okay i think that the answer is yes".split() * 20)
    restorers = Restorers(in_worker=True)
    restorers.close()
    blocks, common, plain = restorers.model_lessons(str(tiny_model_dir), "cpu", reads)
    expected, expected_common, expected_plain = model_lessons(Restorer.load(str(tiny_model_dir), device="cpu"), reads)
    assert common == expected_common and plain == expected_plain and len(blocks) == len(expected) == 1 and (blocks[0] == expected[0]).all()


def test_what_stet_learned_fits_a_window_of_800_by_600(window, qtbot, monkeypatch):
    """Its two explanations were single lines: the dialog opened 1049 px wide over a window of
    800x600, its right side (OK and Cancel among it) beyond the window and a screen that size.
    They wrap now, and the dialog is as wide as its check boxes ask."""
    from PySide6.QtWidgets import QLabel

    from PySide6.QtCore import QRect

    from editor.gui.base import screen_fit

    monkeypatch.setattr(screen_fit, "available", lambda widget: QRect(0, 0, 800, 600))
    window.resize(800, 600)
    dialog = window.learned_dialog()
    qtbot.waitExposed(dialog)
    assert dialog.width() <= 700, dialog.width()
    assert dialog.height() <= 600 - screen_fit.TITLE_BAR, dialog.height()
    for label in dialog.findChildren(QLabel):
        if len(label.text()) > 80:
            assert label.wordWrap(), label.text()
            assert label.height() >= 2 * label.fontMetrics().height()  # wrapped, not cut
    dialog.reject()
