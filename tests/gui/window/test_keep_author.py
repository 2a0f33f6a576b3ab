"""Review > Keep the author's punctuation: on by default for a text written with marks and capitals
(said in the status bar), off for a recogniser's raw words; on, only missing marks and capitals are
proposed, and switching it on withdraws the pending removals and replacements (one undo step)."""

from editor.core.document.transcript import Kind, State, Suggestion, Transcript
from editor.restore.passes.suggest import removes_authors


def _authored() -> Transcript:
    doc = Transcript.from_text("So, we met Gecko in paris. It was good. Then home")
    ids = {t.word: t.id for t in doc.tokens}
    doc.set_suggestions([
        Suggestion(ids["so"], Kind.PUNCT, "", {"": 0.7, ",": 0.3}),  # a removal
        Suggestion(ids["good"], Kind.PUNCT, "?", {"?": 0.6, ".": 0.4}),  # a replacement
        Suggestion(ids["gecko"], Kind.CASE, "gecko", {"gecko": 0.8, "Gecko": 0.2}),  # a name lowercased
        Suggestion(ids["paris"], Kind.CASE, "Paris", {"Paris": 0.9, "paris": 0.1}),  # a missing capital
        Suggestion(ids["home"], Kind.PUNCT, ".", {".": 0.9, "": 0.1}),  # a missing mark
    ])
    return doc


def _show(window, qtbot, doc: Transcript) -> None:
    with qtbot.waitSignal(window.restoration_finished, timeout=5000):
        window.set_transcript(doc, restore=False)


def test_a_punctuated_text_keeps_the_authors_punctuation_by_default_and_says_so(window, qtbot):
    doc = _authored()
    _show(window, qtbot, doc)
    assert window.restoring.keeping_author and window.keep_author_action.isChecked()
    assert "keeping the author's punctuation" in window.status_label.text()
    raw = Transcript.from_words("so we met gecko in paris".split())
    _show(window, qtbot, raw)
    assert not window.restoring.keeping_author and not window.keep_author_action.isChecked()
    assert "keeping" not in window.status_label.text()


def test_switching_it_on_withdraws_removals_and_replacements_in_one_step(window, qtbot):
    doc = _authored()
    _show(window, qtbot, doc)
    before = {s.key: s for s in doc.suggestions()}
    window.restoring.toggle_keep_author(True)
    left = [(doc.token(s.token_id).word, s.value) for s in doc.pending()]
    assert sorted(left) == [("home", "."), ("paris", "Paris")]
    assert "withdrawn" in window.statusBar().currentMessage()
    window.undo()
    assert {s.key: s for s in doc.suggestions()} == before


def test_switching_it_off_restores_again_and_a_pass_on_keeps_nothing_from_removing(window, qtbot, tmp_path):
    src = tmp_path / "talk.txt"
    src.write_text("So, we met Gecko at the station. It was good, and the library is okay!\n"
                   "Then we went home; it was late... so what is it for? Yes.\n", encoding="utf-8")
    with qtbot.waitSignal(window.restoration_finished, timeout=60000):
        window.open_path(src)
    assert window.restoration_status == "done" and window.restoring.keeping_author
    doc = window.transcript
    assert not [s for s in doc.pending() if removes_authors(doc.token(s.token_id), s.kind, s.value)]
    with qtbot.waitSignal(window.restoration_finished, timeout=60000):
        window.keep_author_action.trigger()  # the menu: off
    assert not window.restoring.keeping_author and window.restoration.keep_author is False
    assert all(s.state == State.PENDING for s in doc.suggestions())
