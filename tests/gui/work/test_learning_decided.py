"""What a saved review teaches, in the window (issue 47): only what the person changed or decided,
kept readable, said in the status bar with a way to take it back."""

from editor.core.document.records import Token
from editor.core.document.transcript import Kind, Suggestion, Transcript
from editor.core.review.lexicon import UserLexicon


def _authored() -> Transcript:
    """The author wrote the names; Stet proposes two marks."""
    text = "we drove over the George Washington Bridge and then we saw the Hudson River and it was cold"
    doc = Transcript([Token(w.lower(), w, id=i) for i, w in enumerate(text.split())])
    doc.set_suggestions([Suggestion(doc[6].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}),
                         Suggestion(doc[13].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})])
    return doc


def test_a_review_that_decided_none_of_the_author_s_names_teaches_none_of_them(window, qtbot, tmp_path):
    from editor.restore.learning.learned_store import load_learned, profile_key

    doc = _authored()
    window.set_transcript(doc, restore=False)
    doc.reject(doc[6].id, Kind.PUNCT)
    doc.reject(doc[13].id, Kind.PUNCT)
    with qtbot.waitSignal(window.learning.learned, timeout=60000):
        window.save(tmp_path / "talk.stet", wait=True)
    assert UserLexicon.load().forms == {}  # `stet learned` lists nothing
    kept = load_learned(profile_key(doc.metadata.language, []))
    assert kept is not None and kept.pair_marks == {("bridge", "and"): ""}
    assert kept.case_forms == {} and kept.context_forms == {} and kept.next_forms == {}


def test_a_name_the_person_typed_is_learned_beside_the_author_s(window, qtbot, tmp_path):
    text = "we met okafor by the George Washington Bridge and okafor waved at the Hudson River"
    doc = Transcript([Token(w.lower(), w, id=i) for i, w in enumerate(text.split())])
    doc.set_suggestions([Suggestion(doc[1].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}),
                         Suggestion(doc[10].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})])
    window.set_transcript(doc, restore=False)
    for i in (2, 9):
        doc.edit_token(i, surface="Okafor")  # typed by the person, at both of its places
    doc.reject(doc[1].id, Kind.PUNCT)
    doc.reject(doc[10].id, Kind.PUNCT)
    with qtbot.waitSignal(window.learning.learned, timeout=60000):
        window.save(tmp_path / "talk.stet", wait=True)
    assert UserLexicon.load().forms == {"okafor": "Okafor"}


def test_a_review_with_the_author_s_ellipsis_is_saved_learned_and_opened_again(window, qtbot, tmp_path):
    """The save that said "Could not keep what this review taught: pair_marks must be a list of
    [word, next word, mark]": the author's "..." kept where Stet proposed a full stop."""
    from editor.restore.learning.learned_store import load_learned, profile_key

    text = "so i think that is it and then we left"
    doc = Transcript([Token(w, punct="..." if i == 4 else "", id=i) for i, w in enumerate(text.split())])
    doc.set_suggestions([Suggestion(doc[4].id, Kind.PUNCT, ".", {".": 0.7, "...": 0.3}),
                         Suggestion(doc[2].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}),
                         Suggestion(doc[7].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})])
    window.set_transcript(doc, restore=False)
    for i in (2, 4, 7):
        doc.reject(doc[i].id, Kind.PUNCT)
    errors: list[str] = []
    learned: list[int] = []
    window.learning.error.connect(errors.append)
    window.learning.learned.connect(learned.append)
    target = tmp_path / "talk.stet"
    window.save(target, wait=True)
    qtbot.waitUntil(lambda: bool(errors or learned), timeout=60000)
    assert errors == []
    kept = load_learned(profile_key(doc.metadata.language, []))
    assert kept is not None and kept.pair_marks == {("think", "that"): ""}
    window.open_path(target)
    assert window.transcript[4].punct == "..."
    doc = window.transcript
    doc.edit_token(0, punct=",")
    window.save(target, wait=True)
    qtbot.waitUntil(lambda: not window.learning.running, timeout=60000)
    assert errors == [] and load_learned(profile_key(doc.metadata.language, [])) is not None


def test_a_save_that_taught_says_what_and_forget_takes_it_back(window, qtbot, tmp_path):
    """ "learned: Manhattan, 1D" in the status bar after the save, and its Forget link takes back
    those entries (the lexicon's and the profile's), leaving what was learned before."""
    from editor.restore.learning.learned_store import load_learned, profile_key

    lex = UserLexicon.load()
    lex.learn({"okafor": "Okafor"})
    lex.save()
    doc = Transcript.from_words("we flew to manhattan and then to manhattan with the 1d model and the 1d camera".split())
    doc.set_suggestions([Suggestion(doc[4].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}),
                         Suggestion(doc[11].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})])
    window.set_transcript(doc, restore=False)
    for i in (3, 7):
        doc.edit_token(i, surface="Manhattan")
    for i in (10, 14):
        doc.edit_token(i, surface="1D")
    doc.reject(doc[4].id, Kind.PUNCT)
    doc.reject(doc[11].id, Kind.PUNCT)
    with qtbot.waitSignal(window.learning.learned, timeout=60000):
        window.save(tmp_path / "talk.stet", wait=True)
    note = window.taught_note
    qtbot.waitUntil(note.isVisible, timeout=3000)
    assert "learned: 1D, Manhattan, the mark in \u201cand then\u201d" in note.text() and "Forget" in note.text()
    assert UserLexicon.load().forms == {"okafor": "Okafor", "manhattan": "Manhattan", "1d": "1D"}
    key = profile_key(doc.metadata.language, [])
    assert load_learned(key) is not None
    note.linkActivated.emit("forget")  # the person clicks Forget
    assert not note.isVisible()
    assert UserLexicon.load().forms == {"okafor": "Okafor"}  # what was there before stays
    assert load_learned(key) is None  # the profile this save made is gone
    assert "Forgot what this save taught" in window.statusBar().currentMessage()


def test_forget_keeps_what_was_changed_since(window, qtbot, tmp_path):
    doc = Transcript.from_words("we flew to manhattan and then to manhattan again".split())
    doc.set_suggestions([Suggestion(doc[4].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})])
    window.set_transcript(doc, restore=False)
    for i in (3, 7):
        doc.edit_token(i, surface="Manhattan")
    doc.reject(doc[4].id, Kind.PUNCT)
    with qtbot.waitSignal(window.learning.learned, timeout=60000):
        window.save(tmp_path / "talk.stet", wait=True)
    lex = UserLexicon.load()
    lex.learn({"manhattan": "MANHATTAN"})  # the person changed it since (What Stet learned)
    lex.save()
    window.taught_note.linkActivated.emit("forget")
    assert UserLexicon.load().forms == {"manhattan": "MANHATTAN"}


def test_accept_all_confident_in_another_file_applies_nothing_the_author_wrote(window, qtbot, tmp_path):
    """The source's "George Washington Bridge" and "Hudson River", reviewed and saved without the
    person deciding them, do not become 99 % proposals in the next file that Ctrl+Shift+A applies
    ("you could be the Bridge", "went into the River")."""
    doc = _authored()
    window.set_transcript(doc, restore=False)
    doc.reject(doc[6].id, Kind.PUNCT)
    doc.reject(doc[13].id, Kind.PUNCT)
    with qtbot.waitSignal(window.learning.learned, timeout=60000):
        window.save(tmp_path / "talk.stet", wait=True)
    other = tmp_path / "other.txt"
    other.write_text("so you could be the bridge and then we went into the river and that was it\n", encoding="utf-8")
    with qtbot.waitSignal(window.restoration_finished, timeout=60000):
        window.open_path(other)
    window.accept_confident()
    qtbot.waitUntil(lambda: not window.review.busy_with_bulk(), timeout=10000)
    words = {t.word: t.surface for t in window.transcript.tokens}
    assert words["bridge"] == "bridge" and words["river"] == "river"


def test_what_stet_learned_says_where_each_entry_came_from(window, qtbot, tmp_path):
    doc = Transcript.from_words("we flew to manhattan and then to manhattan with the team".split())
    doc.set_suggestions([Suggestion(doc[4].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}),
                         Suggestion(doc[9].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})])
    window.set_transcript(doc, restore=False)
    for i in (3, 7):
        doc.edit_token(i, surface="Manhattan")
    for i in (4, 9):
        doc.reject(doc[i].id, Kind.PUNCT)
    with qtbot.waitSignal(window.learning.learned, timeout=60000):
        window.save(tmp_path / "trip.stet", wait=True)
    dialog = window.learned_dialog()
    assert dialog.list.item(0).text() == "Manhattan"
    assert dialog.list.item(0).toolTip().startswith("Learned from trip.stet, 20")
    tips = [dialog.profiles.item(i).toolTip() for i in range(dialog.profiles.count())]
    assert any(t.startswith("from trip.stet, 20") for t in tips)
    dialog.reject()
