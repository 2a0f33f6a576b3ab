"""Where a suggestion is heard: the pause at its place, the passage around it, its sentence."""

from __future__ import annotations

import json

import pytest

from editor.core import FormatError, Kind, Spread, Suggestion, Token, Transcript
from editor.core.formats import read_any, write_any
from editor.core.review.listening import pause_at, passage, sentence
from tests.fakes.captions import YOUTUBE_ROLLING_VTT

WORDS = [("so", 0.0, 0.4), ("the", 0.5, 0.7), ("seed", 0.8, 1.2), ("library", 1.3, 1.9),
         ("opens", 2.52, 2.8), ("today", 2.9, 3.3)]


def doc_with(*suggestions: tuple[int, Kind, str]) -> Transcript:
    doc = Transcript([Token(w, start=s, end=e) for w, s, e in WORDS])
    doc.set_suggestions([Suggestion(doc[i].id, kind, value, {value: 0.6, "": 0.4})
                         for i, kind, value in suggestions])
    return doc


def test_the_pause_is_between_the_two_words_the_suggestion_stands_between():
    doc = doc_with((3, Kind.PUNCT, "."), (4, Kind.CASE, "Opens"), (0, Kind.CASE, "So"), (5, Kind.PUNCT, "."))
    mark, capital, first, last = (doc.suggestion(doc[i].id, k) for i, k in
                                  ((3, Kind.PUNCT), (4, Kind.CASE), (0, Kind.CASE), (5, Kind.PUNCT)))
    assert pause_at(doc, mark) == pytest.approx(0.62)  # after "library", before "opens"
    assert pause_at(doc, capital) == pytest.approx(0.62)  # the same place, seen from "opens"
    assert pause_at(doc, first) is None and pause_at(doc, last) is None  # nothing on one side


def test_words_that_touch_have_no_pause_and_untimed_ones_none_known():
    doc = Transcript([Token("a", start=0.0, end=0.5), Token("b", start=0.5, end=0.9), Token("c")])
    doc.set_suggestions([Suggestion(doc[0].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}),
                         Suggestion(doc[1].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})])
    assert pause_at(doc, doc.suggestion(doc[0].id, Kind.PUNCT)) == 0.0
    assert pause_at(doc, doc.suggestion(doc[1].id, Kind.PUNCT)) is None


def test_a_mark_plays_from_before_its_word_to_after_the_next_word_begins():
    doc = doc_with((3, Kind.PUNCT, "."), (4, Kind.CASE, "Opens"), (5, Kind.PUNCT, "."), (0, Kind.CASE, "So"))
    mark = doc.suggestion(doc[3].id, Kind.PUNCT)
    got = passage(doc, mark, 1.5, 0.5)
    assert (got.start, got.end) == (pytest.approx(0.0), pytest.approx(3.02))  # 1.3 - 1.5 clamps to 0
    capital = doc.suggestion(doc[4].id, Kind.CASE)
    got = passage(doc, capital, 1.5, 0.5)
    assert (got.start, got.end) == (pytest.approx(1.02), pytest.approx(3.02))
    last = doc.suggestion(doc[5].id, Kind.PUNCT)
    got = passage(doc, last, 1.0, 0.25)
    assert (got.start, got.end) == (pytest.approx(1.9), pytest.approx(3.55))  # after its own end


def test_an_untimed_word_has_no_passage():
    doc = Transcript([Token("a"), Token("b", start=1.0, end=1.5)])
    doc.set_suggestions([Suggestion(doc[0].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})])
    assert passage(doc, doc.suggestion(doc[0].id, Kind.PUNCT), 1.5, 0.5) is None


def test_the_sentence_runs_between_the_ends_shown_or_proposed_but_not_its_own():
    doc = doc_with((1, Kind.PUNCT, "."), (3, Kind.PUNCT, ","))
    comma = doc.suggestion(doc[3].id, Kind.PUNCT)
    got = sentence(doc, comma)  # from "seed" (after the proposed full stop) to the end
    assert (got.start, got.end) == (pytest.approx(0.8), pytest.approx(3.3))
    stop = doc.suggestion(doc[1].id, Kind.PUNCT)
    got = sentence(doc, stop)  # its own full stop ends nothing: the whole text
    assert (got.start, got.end) == (pytest.approx(0.0), pytest.approx(3.3))


# -- where the times come from: a pause only where both sides were measured (issue 48) --------------
def pauses(doc: Transcript) -> list[float | None]:
    """The pause shown after each word but the last (at a mark proposed there)."""
    doc.set_suggestions([Suggestion(t.id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}) for t in doc.tokens[:-1]])
    return [pause_at(doc, doc.suggestion(t.id, Kind.PUNCT)) for t in doc.tokens[:-1]]


def read_text(tmp_path, name: str, text: str) -> Transcript:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return read_any(path)


SRT = ("1\n00:00:01,000 --> 00:00:02,500\nso the seed library\n\n"
       "2\n00:00:03,120 --> 00:00:04,000\nopens today\n")
VTT = ("WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nso the seed library\n\n"
       "00:00:03.120 --> 00:00:04.000\nopens today\n")


@pytest.mark.parametrize(("name", "text"), [("talk.srt", SRT), ("talk.vtt", VTT)])
def test_subtitles_have_a_pause_only_between_cues(tmp_path, name, text):
    doc = read_text(tmp_path, name, text)
    assert doc.words() == ["so", "the", "seed", "library", "opens", "today"]
    # inside a cue the words' times were spread by length and touch: no pause known, not 0.00
    assert pauses(doc) == [None, None, None, pytest.approx(0.62), None]


def test_whisper_segments_without_word_times_have_a_pause_only_between_segments(tmp_path):
    data = {"text": "so the seed library opens today",
            "segments": [{"start": 1.0, "end": 2.5, "text": " so the seed library"},
                         {"start": 3.12, "end": 4.0, "text": " opens today"}]}
    doc = read_text(tmp_path, "talk.json", json.dumps(data))
    assert pauses(doc) == [None, None, None, pytest.approx(0.62), None]


def test_youtube_word_tags_give_starts_but_no_pause_between_the_words(tmp_path):
    # a tag says when its word began; the word before is given that time as its end, unmeasured
    vtt = ("WEBVTT\n\n00:00:01.000 --> 00:00:02.500\n"
           "so<00:00:01.400><c> the</c><00:00:01.700><c> library</c>\n\n"
           "00:00:03.120 --> 00:00:04.000\nopens today\n")
    doc = read_text(tmp_path, "talk.vtt", vtt)
    assert doc.words() == ["so", "the", "library", "opens", "today"]
    assert [t.start for t in doc.tokens[:3]] == [1.0, 1.4, 1.7]
    assert pauses(doc) == [None, None, pytest.approx(0.62), None]


def test_youtube_rolling_captions_show_no_pause_where_a_cue_ends(tmp_path):
    """The review panel said "pause 0.01 s" at every cue change of a YouTube .vtt: the 10 ms
    between a cue's end and the next is when the display changes, not a silence after the last
    word, whose end nobody measured."""
    doc = read_text(tmp_path, "talk.en.vtt", YOUTUBE_ROLLING_VTT)
    assert doc.words() == ["so", "the", "library", "opens", "today"]
    assert [t.start for t in doc.tokens] == [1.0, 1.4, 1.7, 2.5, 2.9]
    assert doc[2].spread & Spread.END and not doc[3].spread & Spread.START
    assert pauses(doc) == [None, None, None, None]


def test_stamped_text_has_no_pause_at_all(tmp_path):
    # noScribe's text gives when a segment began, not when it ended (its end is a speaking pace,
    # up to the next stamp): no pause is measured, not even between segments
    doc = read_text(tmp_path, "talk.txt", "S00: [00:00:01] so the seed library\n\n"
                                          "S00: [00:00:04] opens today\n")
    assert doc.words() == ["so", "the", "seed", "library", "opens", "today"]
    assert doc[4].start == 4.0
    assert pauses(doc) == [None] * 5


def test_otranscribe_text_has_no_pause_at_all(tmp_path):
    # its words run from one timestamp up to the next: when they ended nobody wrote down
    stamp = '<span class="timestamp" data-timestamp="{}">0:0{}</span>'
    otr = {"text": f"<p>{stamp.format(1.0, 1)} so the seed library {stamp.format(3.12, 3)} opens today "
                   f"{stamp.format(5.0, 5)} and then</p>"}
    doc = read_text(tmp_path, "talk.otr", json.dumps(otr))
    assert doc.words()[:6] == ["so", "the", "seed", "library", "opens", "today"]
    assert doc[4].start == pytest.approx(3.12)
    assert pauses(doc)[:5] == [None] * 5


def test_recognised_words_have_their_pauses_and_zero_where_they_touch(tmp_path):
    vosk = [{"result": [{"conf": 1.0, "start": 1.0, "end": 1.3, "word": "so"},
                        {"conf": 1.0, "start": 1.3, "end": 1.5, "word": "the"},
                        {"conf": 1.0, "start": 1.6, "end": 2.5, "word": "library"},
                        {"conf": 1.0, "start": 3.12, "end": 3.5, "word": "opens"}],
             "text": "so the library opens"}]
    doc = read_text(tmp_path, "vosk.json", json.dumps(vosk))
    assert pauses(doc) == [0.0, pytest.approx(0.1), pytest.approx(0.62)]
    whisper = {"text": " so the library opens", "segments": [
        {"start": 1.0, "end": 2.5, "text": " so the library",
         "words": [{"word": " so", "start": 1.0, "end": 1.3}, {"word": " the", "start": 1.3, "end": 1.5},
                   {"word": " library", "start": 1.6, "end": 2.5}]},
        {"start": 3.12, "end": 3.5, "text": " opens", "words": [{"word": " opens", "start": 3.12, "end": 3.5}]}]}
    doc = read_text(tmp_path, "whisper.json", json.dumps(whisper))
    assert pauses(doc) == [0.0, pytest.approx(0.1), pytest.approx(0.62)]


def test_a_project_keeps_which_times_were_spread(tmp_path):
    doc = read_text(tmp_path, "talk.srt", SRT)
    write_any(doc, tmp_path / "talk.stet")
    back = read_any(tmp_path / "talk.stet")
    assert back.tokens == doc.tokens
    assert pauses(back) == [None, None, None, pytest.approx(0.62), None]
    records = json.loads((tmp_path / "talk.stet").read_text(encoding="utf-8"))["tokens"]
    assert [r.get("spread") for r in records] == ["end", "both", "both", "start", "end", "start"]


def test_stets_own_json_keeps_which_times_were_spread(tmp_path):
    doc = read_text(tmp_path, "talk.srt", SRT)
    write_any(doc, tmp_path / "out.json")
    back = read_any(tmp_path / "out.json")
    assert back.words() == doc.words()
    assert pauses(back) == [None, None, None, pytest.approx(0.62), None]
    words = [w for seg in json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["segments"]
             for w in seg["words"]]
    assert [w.get("spread") for w in words] == ["end", "both", "both", "start", "end", "start"]


def test_a_project_saved_before_spread_was_kept_shows_its_times_as_measured(tmp_path):
    doc = read_text(tmp_path, "talk.srt", SRT)
    write_any(doc, tmp_path / "talk.stet")
    data = json.loads((tmp_path / "talk.stet").read_text(encoding="utf-8"))
    for record in data["tokens"]:
        del record["spread"]
    (tmp_path / "old.stet").write_text(json.dumps(data), encoding="utf-8")
    # it opens as it always did: the words' times as given, so the pauses it always showed
    assert pauses(read_any(tmp_path / "old.stet")) == [0.0, 0.0, 0.0, pytest.approx(0.62), 0.0]
    data["tokens"][0]["spread"] = "middle"
    (tmp_path / "bad.stet").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError, match="token 0: \"spread\" is 'middle'"):
        read_any(tmp_path / "bad.stet")


def test_words_typed_in_are_spread_as_a_cue_is():
    doc = Transcript([Token(w, start=s, end=e) for w, s, e in WORDS])  # measured, as recognised
    doc.replace_span(3, 4, "libraries")  # one word for one: its times, and its pauses, stand
    assert pauses(doc) == [pytest.approx(0.1), pytest.approx(0.1), pytest.approx(0.1),
                           pytest.approx(0.62), pytest.approx(0.1)]
    doc.replace_span(3, 4, "book shop")  # two for one: the time between them is made up
    assert doc.words()[3:5] == ["book", "shop"]
    assert pauses(doc) == [pytest.approx(0.1), pytest.approx(0.1), pytest.approx(0.1), None,
                           pytest.approx(0.62), pytest.approx(0.1)]
    doc.replace_span(6, 6, "very")  # typed between two words: neither side was heard so
    assert pauses(doc)[4:] == [pytest.approx(0.62), None, None]
    assert [t.spread for t in doc.tokens[3:7]] == [Spread.END, Spread.START, Spread.NONE, Spread.BOTH]
    doc.history.undo()  # the suggestions
    doc.history.undo()  # "very"
    doc.history.undo()  # the suggestions
    doc.history.undo()  # "book shop": "libraries" back, as measured as before
    assert doc.words()[3] == "libraries" and doc[3].spread == Spread.NONE


def test_a_word_typed_into_a_cue_is_spread_too(tmp_path):
    doc = read_text(tmp_path, "talk.srt", SRT)
    doc.replace_span(1, 2, "the new")  # into a cue: spread as its words are
    assert doc.words()[:5] == ["so", "the", "new", "seed", "library"]
    assert pauses(doc) == [None, None, None, None, pytest.approx(0.62), None]
    doc.replace_span(4, 5, "")  # the cue's last word goes: "seed" ends inside the cue, not at its end
    assert doc.words()[3:5] == ["seed", "opens"]
    assert pauses(doc)[3] is None
