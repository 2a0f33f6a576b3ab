"""Only what the person decided, in the window (issue #47, the choice side): the pending list
names a change as the panel does, Find and Replace and Reject all from your choice decide
nothing, and Ctrl+Shift+A never applies what came from a choice or a lexicon."""

import pytest

from editor.core.document.transcript import Kind, Suggestion, Token, Transcript
from editor.core.review import repeat_choices


@pytest.fixture(autouse=True)
def _once_is_enough(monkeypatch):
    """These tests are about what a choice does where it repeats; a choice made once repeats here
    even where Stet proposed nothing (the rule asks twice there: tests/gui/window/test_repeat_evidence.py)."""
    monkeypatch.setattr(repeat_choices, "UNPROPOSED_AGREE", 1)


def test_the_list_calls_a_capital_after_a_digit_or_a_bracket_a_capital(window):
    """"1D" and "(Deep" were "lower case" in the list (its first character is no capital
    letter) while the panel showed the capital."""
    doc = Transcript([Token("the"), Token("1d", "1d"), Token("model", punct="."),
                      Token("deep", "(deep"), Token("rumbling", punct=")"), Token("nasa", "NASA")])
    doc.set_suggestions([Suggestion(doc[1].id, Kind.CASE, "1D", {"1D": 0.8, "1d": 0.2}),
                         Suggestion(doc[3].id, Kind.CASE, "(Deep", {"(Deep": 0.9, "(deep": 0.1}),
                         Suggestion(doc[5].id, Kind.CASE, "nasa", {"nasa": 0.6, "NASA": 0.4})])
    window.set_transcript(doc, restore=False)
    rows = {s.token_id: window.panel.describe(s) for s in doc.pending()}
    assert rows[doc[1].id].endswith("· capital"), rows
    assert rows[doc[3].id].endswith("· capital"), rows
    assert rows[doc[5].id].endswith("· lower case"), rows


def _key(qtbot, widget, key, modifiers=None):
    from PySide6.QtCore import Qt

    qtbot.keyClick(widget, key, modifiers if modifiers is not None else Qt.KeyboardModifier.NoModifier)


def test_accept_all_confident_after_a_review_applies_nothing_from_a_choice_or_the_lexicon(window, qtbot, tmp_path):
    """A review taught the lexicon "Okafor" and was saved; in the next file the lexicon's
    "Okafor" (certain by the lexicon) and a capital typed there and repeated (100 % "from your
    choice") were applied by Ctrl+Shift+A. They stay pending, the person's to decide; Stet's
    own proposals at or above the threshold are applied."""
    from PySide6.QtCore import Qt

    from editor.core.review.lexicon import UserLexicon

    ctrl = Qt.KeyboardModifier.ControlModifier
    first = Transcript.from_words("we met okafor at the station and okafor said that okafor likes tea".split())
    first.set_suggestions([Suggestion(first[2].id, Kind.CASE, "Okafor", {"Okafor": 0.7, "okafor": 0.3})])
    window.set_transcript(first, restore=False)
    view = window.view
    view.setFocus()
    for _ in range(3):  # Tab to it, Enter; the two proposals from that choice, Tab, Enter
        _key(qtbot, view, Qt.Key.Key_Tab)
        _key(qtbot, view, Qt.Key.Key_Return)
    assert [first[i].surface for i in (2, 7, 10)] == ["Okafor"] * 3
    with qtbot.waitSignal(window.learning.learned, timeout=60000):
        window.save(tmp_path / "first.stet", wait=True)
    qtbot.waitUntil(lambda: UserLexicon.load().forms.get("okafor") == "Okafor", timeout=10000)

    second = tmp_path / "second.txt"
    second.write_text("so okafor met us at the library and at the table and okafor said yes\n", encoding="utf-8")
    with qtbot.waitSignal(window.restoration_finished, timeout=60000):
        window.open_path(second)
    doc = window.transcript
    okafors = [i for i, t in enumerate(doc) if t.word == "okafor"]
    from_lexicon = [doc.suggestion(doc[i].id, Kind.CASE) for i in okafors]
    assert all(s is not None and s.source == "lexicon" and s.value == "Okafor" for s in from_lexicon), from_lexicon
    assert "from your lexicon" in window.panel.describe(from_lexicon[0])
    # Stet's own proposals, made known here (the tiny model's are random)
    doc.drop_suggestions([s.key for s in doc.pending() if s.source != "lexicon"])
    doc.set_suggestions([Suggestion(doc[len(doc) - 1].id, Kind.PUNCT, ".", {".": 0.95, "": 0.05})])
    # a capital typed mid-sentence, "The" over "the": repeated on the other "the" (after "at",
    # as a capital on a common word repeats only after the same word)
    thes = [i for i, t in enumerate(doc) if t.word == "the"]
    at = view.token_range(thes[0])[0]
    cursor = view.textCursor()
    cursor.setPosition(at)
    cursor.setPosition(at + 1, cursor.MoveMode.KeepAnchor)
    view.setTextCursor(cursor)
    view.insert_text("T")
    assert doc[thes[0]].surface == "The"
    repeated = doc.suggestion(doc[thes[1]].id, Kind.CASE)
    assert repeated is not None and repeated.source == "choice" and repeated.value == "The"
    theirs = {s.key for s in doc.pending() if s.source in ("choice", "lexicon")}
    window.settings.review.high = 0.0  # whatever their confidence: none of them is applied
    view.setFocus()
    _key(qtbot, view, Qt.Key.Key_A, ctrl | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: window.review.last_accepted > 0 or not doc.pending(), timeout=5000)
    for key in theirs:
        s = doc.suggestion(*key)
        assert s is not None and s.state.value == "pending", s
    assert [doc[i].surface for i in okafors] == ["okafor"] * len(okafors)
    assert doc[thes[1]].surface == "the"
    assert all(s.source in ("choice", "lexicon") for s in doc.pending())  # Stet's own were applied
    assert "from your choice or your lexicon" in window.statusBar().currentMessage()
    # the person says so: Review > Accept all from your choice
    window.review.accept_choices()
    assert doc[thes[1]].surface == "The"


def _select(view, start, end):
    cursor = view.textCursor()
    cursor.setPosition(start)
    cursor.setPosition(end, cursor.MoveMode.KeepAnchor)
    view.setTextCursor(cursor)


def test_a_capital_typed_then_its_full_stop_teaches_nothing(window):
    """Double-click "two" in "Manhattan two minutes", type "Two", then the full stop before it:
    the status bar said "proposed the same in 2 other places" and Ctrl+Shift+A wrote "my wife in
    Two years". Once the full stop is typed the proposals are withdrawn."""
    doc = Transcript.from_words("we left manhattan two minutes ago and two days later my wife in two years".split())
    window.set_transcript(doc, restore=False)
    view = window.view
    twos = [i for i, t in enumerate(doc) if t.word == "two"]
    at = view.token_range(twos[0])[0]
    _select(view, at, at + 3)
    view.insert_text("Two")
    assert "proposed the same in 2 other places" in window.statusBar().currentMessage()
    made = [doc.suggestion(doc[i].id, Kind.CASE) for i in twos[1:]]
    assert all(s is not None and s.source == "choice" and s.confidence < 1.0 for s in made), made
    end = view.token_range(twos[0] - 1)[1]  # after "manhattan"
    _select(view, end, end)
    view.insert_text(".")
    assert doc[twos[0] - 1].punct == "." and doc[twos[0]].surface == "Two"
    assert all(doc.suggestion(doc[i].id, Kind.CASE) is None for i in twos[1:])
    assert "no longer proposed elsewhere" in window.statusBar().currentMessage()
    window.accept_confident()
    assert [doc[i].surface for i in twos[1:]] == ["two", "two"]


def test_reject_all_from_your_choice_brings_back_stet_s_own_proposals(window, qtbot):
    """Review ▸ Reject all from your choice rejected the model's 63 % "." after "love my life"
    that a choice had stood in for, while the status bar said Stet's own proposals were back."""
    doc = Transcript.from_words("i said my life and it was fine and i love my life and that sadness".split())
    lifes = [i for i, t in enumerate(doc) if t.word == "life"]
    stets = Suggestion(doc[lifes[1]].id, Kind.PUNCT, ".", {".": 0.63, "": 0.37})
    capital = Suggestion(doc[lifes[1] + 1].id, Kind.CASE, "And", {"And": 0.9, "and": 0.1})
    doc.set_suggestions([Suggestion(doc[lifes[0]].id, Kind.PUNCT, ".", {".": 0.7, "": 0.3}), stets, capital])
    window.set_transcript(doc, restore=False)
    from PySide6.QtCore import Qt

    view = window.view
    view.setFocus()
    view.set_current(doc.suggestion(doc[lifes[0]].id, Kind.PUNCT))
    _key(qtbot, view, Qt.Key.Key_Return)  # "my life." accepted: proposed after the other "life and"
    assert doc[lifes[0]].punct == "."
    assert doc.suggestion(stets.token_id, Kind.PUNCT).source == "choice"
    window.menu_actions["review.reject_choices"].trigger()
    assert "Stet's own proposals are back" in window.statusBar().currentMessage()
    assert doc.suggestion(stets.token_id, Kind.PUNCT) == stets
    assert doc.suggestion(capital.token_id, Kind.CASE) == capital
    window.accept_all(0.6)  # the export reads "my life. And that sadness"
    assert doc[lifes[1]].punct == "." and doc[lifes[1] + 1].surface == "And"


def test_replace_all_and_replace_decide_no_suggestion(window, qtbot):
    """Ctrl+H, "bat wines" -> "bad wines", Replace all: the pending 53 % comma after "wines"
    became text (pending 209 -> 208). The replaced words' pending proposals stay pending, shown,
    a mark proposed after a word replaced by another goes with it; Replace (one) does the same."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QPushButton

    doc = Transcript.from_words("we had bat wines and cheese then bat wines again so we left".split())
    wines = [i for i, t in enumerate(doc) if t.word == "wines"]
    bats = [i for i, t in enumerate(doc) if t.word == "bat"]
    commas = [Suggestion(doc[i].id, Kind.PUNCT, ",", {",": 0.53, "": 0.47}) for i in wines]
    capital = Suggestion(doc[wines[1]].id, Kind.CASE, "Wines", {"Wines": 0.6, "wines": 0.4})
    cheese = doc.words().index("cheese")
    after_cheese = Suggestion(doc[cheese].id, Kind.PUNCT, ".", {".": 0.55, "": 0.45})
    doc.set_suggestions([*commas, capital, after_cheese])
    window.set_transcript(doc, restore=False)
    pending = doc.pending_count
    view = window.view
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    bar = window.find_bar
    assert bar.isVisible()
    qtbot.keyClicks(bar.find_edit, "bat wines")
    bar.replace_edit.setText("bad wines")
    button = next(b for b in bar.findChildren(QPushButton) if b.text() == "Replace all")
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert [doc[i].word for i in bats] == ["bad", "bad"]
    assert doc.pending_count == pending
    assert [doc.suggestion(doc[i].id, Kind.PUNCT) for i in wines] == commas
    assert doc.suggestion(doc[wines[1]].id, Kind.CASE) == capital
    assert all(doc[i].punct == "" for i in wines) and doc[wines[1]].surface == "wines"
    window.undo()
    assert [doc[i].word for i in bats] == ["bat", "bat"]
    # Replace, one match at a time, across the comma as shown
    bar.find_edit.setText("wines, and")
    bar.replace_edit.setText("wines, or")
    cursor = view.textCursor()
    cursor.setPosition(0)
    view.setTextCursor(cursor)
    assert bar.find_next()
    bar.replace()
    assert doc[wines[0] + 1].word == "or" and doc.pending_count == pending
    assert doc.suggestion(doc[wines[0]].id, Kind.PUNCT) == commas[0] and doc[wines[0]].punct == ""
    # a word replaced by another: the mark proposed after it goes with it, still pending
    bar.find_edit.setText("cheese")
    bar.replace_edit.setText("brie")
    assert bar.replace_all() == 1
    moved = doc.suggestion(doc[cheese].id, Kind.PUNCT)
    assert doc[cheese].word == "brie" and doc[cheese].punct == ""
    assert moved is not None and moved.state.value == "pending" and moved.value == "." and moved.probs == after_cheese.probs
    assert doc.pending_count == pending
    window.undo()
    assert doc[cheese].word == "cheese" and doc.suggestion(doc[cheese].id, Kind.PUNCT) == after_cheese


def test_accept_all_pending_takes_every_proposal_when_the_person_asks_for_all(window):
    """Review > Accept all pending says "every pending suggestion": those from a choice and a
    lexicon too, where Ctrl+Shift+A at 0 % leaves them."""
    doc = Transcript.from_words("we met okafor at the station and okafor said hello".split())
    doc.set_suggestions([Suggestion(doc[2].id, Kind.CASE, "Okafor", {"Okafor": 1.0}, source="lexicon"),
                         Suggestion(doc[7].id, Kind.CASE, "Okafor", {"Okafor": 0.5, "okafor": 0.5}, source="choice"),
                         Suggestion(doc[5].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})])
    window.set_transcript(doc, restore=False)
    window.accept_all(0.0)
    assert doc[5].punct == "," and doc.pending_count == 2
    window.menu_actions["review.accept_all"].trigger()
    assert doc.pending_count == 0 and doc[2].surface == doc[7].surface == "Okafor"
