"""TextMap against the obvious flat model: the same offsets, words at positions and text after
any sequence of changes, across chunk boundaries."""

import bisect
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from editor.gui.text_view import textmap
from editor.gui.text_view.textmap import TextMap


class Flat:
    """What TextMap must agree with: one list of pieces, offsets summed from the start."""

    def __init__(self, pieces):
        self.pieces = list(pieces)

    def prefix(self):
        return [0, *itertools.accumulate(sum(map(len, p)) for p in self.pieces)]

    def piece_at(self, position):
        if not self.pieces:
            return None
        return min(max(bisect.bisect_right(self.prefix(), position) - 1, 0), len(self.pieces) - 1)

    def token_at(self, position):
        if not self.pieces:
            return None
        prefix = self.prefix()
        i = self.piece_at(position)
        if i > 0 and position < prefix[i] + len(self.pieces[i][0]):
            i -= 1
        return i


def random_piece(rng, first=False):
    sep = "" if first else rng.choice([" ", " ", " ", "\n", "\n\n"])
    return sep, rng.choice(["so", "we", "met", "at", "the", "station", "Ä", "x"]), rng.choice(["", "", ",", ".", "?!"])


def check(tm: TextMap, flat: Flat) -> None:
    prefix = flat.prefix()
    assert len(tm) == len(flat.pieces)
    assert tm.total == prefix[-1]
    assert tm.text() == "".join("".join(p) for p in flat.pieces)
    for i, p in enumerate(flat.pieces):
        assert tm.piece(i) == p
        assert tm.offset(i) == prefix[i]
        word = prefix[i] + len(p[0])
        assert tm.word_range(i) == (word, word + len(p[1]), prefix[i + 1])
    assert tm.offset(len(flat.pieces)) == prefix[-1]
    assert [(i, at, p) for i, at, p in tm.pieces()] == \
        [(i, prefix[i], p) for i, p in enumerate(flat.pieces)]
    for position in range(-1, prefix[-1] + 2):
        assert tm.token_at(position) == flat.token_at(position), position
        assert tm.piece_at(position) == flat.piece_at(position), position


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch):
    monkeypatch.setattr(textmap, "CHUNK", 4)  # many chunk boundaries in a short text


def test_empty_map():
    tm = TextMap()
    assert len(tm) == 0 and tm.total == 0 and tm.text() == ""
    assert tm.token_at(0) is None
    assert list(tm.pieces()) == []
    with pytest.raises(IndexError):
        tm.piece(0)


def test_offsets_and_lookups_across_chunks():
    rng = random.Random(1)
    pieces = [random_piece(rng, first=i == 0) for i in range(30)]
    check(TextMap(pieces), Flat(pieces))


def test_a_change_of_length_moves_everything_after_it():
    pieces = [("" if i == 0 else " ", w, "") for i, w in enumerate(["so", "we", "met"] * 5)]
    tm = TextMap(pieces)
    assert tm.set(4, " ", "We", "") is False  # same length
    assert tm.set(4, " ", "We", ",") is True
    assert tm.offset(5) == len("so we met so We,")
    assert tm.text().startswith("so we met so We, met")


def test_pieces_from_the_middle():
    pieces = [("" if i == 0 else " ", f"w{i}", "") for i in range(13)]
    tm = TextMap(pieces)
    got = list(tm.pieces(5, 9))
    assert [i for i, _, _ in got] == [5, 6, 7, 8]
    assert all(tm.offset(i) == at for i, at, _ in got)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_edits_agree_with_the_flat_model(seed):
    rng = random.Random(seed)
    pieces = [random_piece(rng, first=i == 0) for i in range(rng.randint(0, 25))]
    tm, flat = TextMap(pieces), Flat(pieces)
    for _ in range(12):
        n = len(flat.pieces)
        if n and rng.random() < 0.5:
            i = rng.randrange(n)
            p = random_piece(rng, first=i == 0)
            tm.set(i, *p)
            flat.pieces[i] = p
        else:
            start = rng.randint(0, n)
            removed = rng.randint(0, n - start)
            new = [random_piece(rng) for _ in range(rng.choice([0, 1, 2, 9]))]
            tm.splice(start, removed, new)
            flat.pieces[start:start + removed] = new
        check(tm, flat)


def test_bad_splices_are_refused():
    tm = TextMap([("", "a", ""), (" ", "b", "")])
    with pytest.raises(IndexError):
        tm.splice(1, 5, [])
    with pytest.raises(IndexError):
        tm.offset(3)
    with pytest.raises(ValueError):
        tm.reset([""], [], [])


def test_take_hands_the_pieces_over_and_leaves_an_empty_map_that_works():
    pieces = [(" " if i else "", f"w{i}", "," if i % 3 else "") for i in range(3 * textmap.CHUNK + 5)]
    tm = TextMap(pieces)
    parts = tm.take()
    assert sum(len(p.seps) for p in parts) == len(pieces)  # for the caller to free when it likes
    assert len(tm) == 0 and tm.total == 0 and tm.offset(0) == 0
    assert tm.reset([""], ["a"], ["."]) == "a." and tm.word_range(0) == (0, 1, 2)
