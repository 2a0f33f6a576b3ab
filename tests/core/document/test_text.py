"""Splitting written text into words: abbreviations keep their own period."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from editor.core.document.transcript import Transcript
from editor.core.render import render
from editor.core.document.text import is_abbreviation, join_mark, split_words


def test_an_abbreviation_keeps_its_period_and_the_mark_after_it_stays_a_mark():
    pieces = split_words("Mr. Smith lives in the U.S., near St. Louis, e.g. here. It costs 1.5. Rep. (sic.)")
    got = [(p.word, p.surface, p.punct) for p in pieces]
    assert got[:2] == [("mr", "Mr.", ""), ("smith", "Smith", "")]
    assert ("u.s", "U.S.", ",") in got and ("st", "St.", "") in got and ("e.g", "e.g.", "") in got
    assert ("1.5", "1.5", ".") in got  # digits are not an abbreviation: the period ends the sentence
    assert ("here", "here", ".") in got and ("rep", "Rep.", "") in got and ("sic", "(sic", ".)") in got


@pytest.mark.parametrize("word, expected", [("mr", True), ("u.s", True), ("a.m", True), ("e.g", True),
                                            ("etc", False), ("1.5", False), ("mr.", False), ("u.s.a", True)])
def test_is_abbreviation(word, expected):
    assert is_abbreviation(word) is expected


def test_reading_and_writing_punctuated_text_gives_it_back_unchanged():
    text = "I met Mr. Smith and Dr. Jones in the U.S. at 9 a.m. on Main St. They said, e.g., no."
    doc = Transcript.from_text(text)
    assert render(doc) == text
    assert doc.words()[:4] == ["i", "met", "mr", "smith"]


def test_an_abbreviation_period_also_ends_the_sentence():
    assert join_mark("U.S.", ".") == "U.S." and join_mark("U.S.", "?") == "U.S.?" and join_mark("us", ".") == "us."


def test_lines_are_paragraphs_unless_blank_lines_separate_them_or_the_text_is_hard_wrapped():
    import textwrap

    from editor.core.document.text import split_paragraphs

    utterances = "so we met in paris\nit was cold\nand the river was high that spring and nobody could cross it\nyes\n"
    assert split_paragraphs(utterances) == ["so we met in paris", "it was cold",
                                            "and the river was high that spring and nobody could cross it", "yes"]
    assert [p.split() for p in split_paragraphs("one two\nthree\n\nfour\n")] == [["one", "two", "three"], ["four"]]
    talk = ("so we met in paris it was cold and the river was high that spring and nobody could cross it "
            "for weeks so we waited in a small hotel by the station and talked about what we would do next ") * 3
    wrapped = textwrap.fill(talk, 72)
    assert len(wrapped.splitlines()) > 5
    assert [p.split() for p in split_paragraphs(wrapped)] == [talk.split()]
    # narrow wrapping, and paragraphs wrapped with no blank line between them: a line that ends
    # short (the next word would have fitted) ends a paragraph
    assert [p.split() for p in split_paragraphs(textwrap.fill(talk, 36))] == [talk.split()]
    first, second = talk[:150].rsplit(" ", 1)[0], talk[150:].split(" ", 1)[1]
    two = textwrap.fill(first, 60) + "\n" + textwrap.fill(second, 60)
    assert [p.split() for p in split_paragraphs(two)] == [first.split(), second.split()]
    # utterances of similar length, one per line, stay paragraphs
    segments = ["okay so the first thing on the agenda is the release date",
                "we said the fifteenth but the tests are still failing",
                "i think we can make it if we drop the export feature",
                "no the export feature is what the customer asked for",
                "fine then we move the date by a week and tell them today",
                "who is going to write to them i can do it after lunch"]
    assert split_paragraphs("\n".join(segments)) == segments


def test_tags_and_marks_alone_are_not_words():
    from editor.core.document.text import is_tag

    assert all(is_tag(t) for t in ("[3]", "<unk>", "[noise]", "{laughs}", "[inaudible].", "--", "…"))
    assert not any(is_tag(t) for t in ("3", "word", "(slowly)", "U.S.", "don't", "[sic", "x]"))


def test_a_long_text_is_split_a_piece_at_a_time_into_the_same_words():
    import random
    import re

    from editor.core.document.text import _chunks

    rng = random.Random(7)
    spaces = [" ", "  ", "\n", "\t", " \n\n ", "\u00a0"]
    for _ in range(50):
        text = "".join(rng.choice(["word", "a", "x.", "—", "ünï"]) + rng.choice(spaces) for _ in range(rng.randrange(1, 400)))
        text = rng.choice(["", " "]) + text
        whole = [c for c in re.split(r"\s+", text) if c]
        for piece in (1, 3, 17, 1 << 15):
            assert [c for c in _chunks(text, piece) if c] == whole
    long = " ".join(f"w{i}," for i in range(100_000))
    assert [p.surface for p in split_words(long)] == [f"w{i}" for i in range(100_000)]


def _each_chunk_by_the_rule(text):
    """`split_words` as every chunk was once read, `split_chunk` and `normalize_word` each time:
    what its quick way for plain words must give."""
    from editor.core.document.text import normalize_word, split_chunk

    pieces, prefix = [], ""
    for chunk in text.split():
        surface, punct = split_chunk(chunk)
        if not any(ch.isalnum() for ch in surface):
            if pieces:
                last = pieces[-1]
                pieces[-1] = (last[0], last[1], f"{last[2]} {chunk}")
            else:
                prefix += f"{chunk} "
            continue
        surface, prefix = prefix + surface, ""
        pieces.append((normalize_word(surface), surface, punct))
    if prefix and not pieces:
        pieces.append((prefix.strip(), prefix.strip(), ""))
    return pieces


_CHUNKS = ["word", "Word", "WORD", "x", "I", "42", "1.5", "Mr.", "mr.", "U.S.", "e.g.", "St.", "today.",
           "it,", "so?", "No!", "yes;", "as:", "-", "—", "...", '"Hi', 'there."', "(sic.)", "fi\u200brst",
           "שלום.\u200f", "café", "Ünïcode,", "²", "rock'n'roll", "end.)", "ok.,", "Dr.,"]


@given(st.lists(st.sampled_from(_CHUNKS), max_size=12))
def test_the_quick_way_for_plain_words_reads_as_the_rule(chunks):
    text = " ".join(chunks)
    assert [(p.word, p.surface, p.punct) for p in split_words(text)] == _each_chunk_by_the_rule(text)


def test_a_word_already_in_lower_case_is_one_string():
    """Its word and surface are the same string: a long text's words cost one string each."""
    pieces = split_words("the seed library, Opens today. Mr. fi\u200brst")
    assert [p.word is p.surface for p in pieces] == [True, True, True, False, True, False, True]
