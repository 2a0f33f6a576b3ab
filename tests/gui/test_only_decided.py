"""Only what the person decided, in the window (issue #47, the choice side): the pending list
names a change as the panel does, Find and Replace and Reject all from your choice decide
nothing, and Ctrl+Shift+A never applies what came from a choice or a lexicon."""

from editor.core.document.transcript import Kind, Suggestion, Token, Transcript


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
