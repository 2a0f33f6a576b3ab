"""Review > Re-suggest with what Stet learned: the suggestions still pending are proposed again with
the user lexicon and what reviews taught, in the background and as one undo step; what the person
accepted, rejected or typed, and proposals repeating their own choices, stay as they are."""

from editor.core.document.transcript import Kind, State, Suggestion, Transcript
from editor.core.review.lexicon import UserLexicon


def _doc() -> Transcript:
    words = ("we met zarvex at the station and zarvex said that zarvex likes tea "
             "so we asked zarvex what the library is for and zarvex said okay").split()
    doc = Transcript.from_words(words)
    z = [i for i, w in enumerate(words) if w == "zarvex"]
    sugs = [Suggestion(doc[i].id, Kind.CASE, "Zarvex", {"Zarvex": 0.6, "zarvex": 0.4}) for i in z]
    sugs += [Suggestion(doc[i].id, Kind.PUNCT, ",", {",": 0.55, "": 0.45}) for i in (1, 5, 9, 14, 22)]
    doc.set_suggestions(sugs)
    doc.accept(doc[z[0]].id, Kind.CASE)  # decided: stays "Zarvex", accepted
    doc.reject(doc[1].id, Kind.PUNCT)  # decided: stays rejected
    doc.edit_token(z[1], surface="ZARVEX")  # typed: its pending case suggestion went with the typing
    doc.set_suggestions([Suggestion(doc[z[2]].id, Kind.CASE, "Zarvex", {"Zarvex": 0.9, "zarvex": 0.1},
                                    source="choice")])  # repeats a choice of the person's
    return doc


def _show(window, qtbot, doc: Transcript) -> None:
    with qtbot.waitSignal(window.restoration_finished, timeout=5000):  # shown as it is: no pass
        window.set_transcript(doc, restore=False)


def _state(doc: Transcript) -> dict:
    return {s.key: s for s in doc.suggestions()}


def test_resuggest_changes_only_pending_model_suggestions_in_one_undo_step(window, qtbot):
    lex = UserLexicon.load()
    lex.learn({"zarvex": "ZarVex"})  # what Stet learned: the lexicon writes the name this way
    lex.save()
    doc = _doc()
    _show(window, qtbot, doc)
    tokens_before, before = doc.tokens, _state(doc)
    z = [i for i, t in enumerate(doc.tokens) if t.word == "zarvex"]
    with qtbot.waitSignal(window.restoration_finished, timeout=60000):
        window.restoring.resuggest_learned()
    assert window.restoration_status == "done"
    after = _state(doc)
    assert doc.tokens == tokens_before  # no word is written differently
    assert set(after) <= set(before)  # nothing proposed where nothing was pending
    for key, old in before.items():
        if old.state != State.PENDING or old.source == "choice":
            assert after[key] == old  # decisions and repeated choices untouched
    # the pending capitals of the name now propose the learned form
    for i in z[3:]:
        s = doc.suggestion(doc[i].id, Kind.CASE)
        assert s is not None and s.value == "ZarVex" and s.state == State.PENDING
    assert doc.suggestion(doc[z[1]].id, Kind.CASE) is None and doc[z[1]].surface == "ZARVEX"
    assert "re-suggested with what Stet learned" in window.status_label.text()
    assert window.panel.pending_count == len(doc.pending())
    window.undo()  # one step takes the whole pass back
    assert _state(doc) == before


def test_resuggest_runs_in_the_background(window, qtbot):
    doc = _doc()
    _show(window, qtbot, doc)
    window.restoring.resuggest_learned()
    assert window.restoration.running  # returned at once; the worker restores
    assert "re-suggesting" in window.status_label.text() or "loading" in window.status_label.text()
    qtbot.waitUntil(lambda: not window.restoration.running, timeout=60000)


def test_resuggest_is_offered_after_a_save_taught_something(window, qtbot, tmp_path):
    doc = _doc()
    _show(window, qtbot, doc)
    assert window.restoring.resuggest_button.isHidden()
    with qtbot.waitSignal(window.learning.learned, timeout=60000):
        window.save(tmp_path / "talk.stet", wait=True)
    assert not window.restoring.resuggest_button.isHidden()
    assert "Re-suggest" in window.statusBar().currentMessage()
    with qtbot.waitSignal(window.restoration_finished, timeout=60000):
        window.restoring.resuggest_button.click()
    assert window.restoring.resuggest_button.isHidden()
    assert window.restoration.only_pending


def test_resuggest_asked_while_learning_waits_for_it(window, qtbot, tmp_path):
    doc = _doc()
    _show(window, qtbot, doc)
    window.save(tmp_path / "talk.stet", wait=True)
    assert window.learning.running
    window.restoring.resuggest_learned()
    assert not window.restoration.running  # waits for what this save teaches
    with qtbot.waitSignal(window.restoration_finished, timeout=60000):
        pass
    assert window.restoration.only_pending


def test_resuggest_with_nothing_pending_says_so(window, qtbot):
    doc = Transcript.from_words("we met at the station".split())
    _show(window, qtbot, doc)
    window.restoring.resuggest_learned()
    assert not window.restoration.running
    assert "nothing to re-suggest" in window.statusBar().currentMessage()
