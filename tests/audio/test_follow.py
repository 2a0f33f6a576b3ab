"""Which word is playing: binary search over token timings."""

from __future__ import annotations

from editor.audio import WordTimeline, word_at
from editor.core import Token, Transcript


def doc() -> Transcript:
    return Transcript([
        Token("one", start=0.0, end=0.5),
        Token("two", start=0.5, end=0.9),
        Token("untimed"),
        Token("three", start=1.5, end=2.0),  # a pause before it
        Token("four", start=2.0),  # no end: runs to the next start
        Token("five", start=3.0, end=3.0),
    ])


def test_word_at_finds_the_token_being_spoken():
    d = doc()
    assert word_at(d, -1.0) is None
    assert word_at(d, 0.0) == 0
    assert word_at(d, 0.49) == 0
    assert word_at(d, 0.5) == 1
    assert word_at(d, 1.0) is None  # in the pause
    assert word_at(d, 1.5) == 3
    assert word_at(d, 2.5) == 4
    assert word_at(d, 3.0) == 5
    assert word_at(d, 3.1) is None


def test_word_at_follows_edits():
    d = doc()
    assert word_at(d, 0.2) == 0
    d.delete_span(0, 1)
    assert word_at(d, 0.2) is None
    assert word_at(d, 0.6) == 0


def test_timeline_matches_a_linear_scan_on_many_words():
    tokens = [Token(f"w{i}", start=i * 0.3, end=i * 0.3 + 0.2) for i in range(2000)]
    line = WordTimeline.of(tokens)
    for k in range(0, 6000, 7):
        t = k * 0.1
        expected = next((i for i, tok in enumerate(tokens) if tok.start <= t < tok.end), None)
        assert line.index_at(t) == expected
