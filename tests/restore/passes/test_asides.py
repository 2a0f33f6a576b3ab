"""What the author wrote around the words is theirs (issue #47, item 7): inside a sound
description "(Deep rumbling)", a speaker cue "[SCREAMING]" or a lyric line "♪ … ♪" nothing is
proposed, nor a mark after its closer; no mark goes after a word cut off with "--" or "…". The
window and `stet restore` make their suggestions in one place (`make_suggestions` through the
pass's builder), tried here both ways on a subtitle file as programs write them."""

import pytest

from editor.core.document.transcript import Kind
from editor.core.formats import read_any
from editor.restore.passes.prediction import WordPrediction
from editor.restore.passes.suggest import asides, make_suggestions

FILM = """1
00:00:01,000 --> 00:00:03,000
(Deep rumbling)

2
00:00:03,500 --> 00:00:06,000
[SCREAMING]
Dad--

3
00:00:06,500 --> 00:00:09,000
(computer playing electronic melody)
What is that noise

4
00:00:09,500 --> 00:00:12,000
♪ oh silver moon ♪
♪ we dance till dawn ♪

5
00:00:12,500 --> 00:00:15,000
I was going to say…
you never listen

6
00:00:15,500 --> 00:00:18,000
[man] get out of the car
"""

#: words of FILM that are the author's asides or cut-offs, as read
ASIDE_WORDS = {"deep", "rumbling", "computer", "playing", "electronic", "melody", "oh", "silver",
               "moon", "we", "dance", "till", "dawn"}


def _everything(words):
    """A model that proposes a full stop after every word and a capital on every one, surely."""
    marks = {".": 0.96, "": 0.02, ",": 0.02}
    cases = {"lower": 0.01, "capitalized": 0.99, "upper": 0.0, "mixed": 0.0}
    return [WordPrediction(".", marks, "capitalized", cases, w[:1].upper() + w[1:]) for w in words]


@pytest.fixture
def film(tmp_path):
    path = tmp_path / "film.srt"
    path.write_text(FILM, encoding="utf-8")
    return read_any(path)


def test_the_authors_asides_and_cut_offs_are_found(film):
    flags = asides(film.tokens)
    inside = {t.word for t, f in zip(film.tokens, flags) if f}
    # "[SCREAMING]" alone on its line is a tag (no words of it are restored); "[man]" a speaker cue
    assert inside >= ASIDE_WORDS - {"screaming"} and "man" in inside
    assert not inside & {"dad--", "what", "noise", "you", "never", "listen", "get", "out", "car"}


def test_nothing_is_proposed_in_an_aside_nor_a_mark_after_a_cut_off(film):
    tokens = film.tokens
    made = make_suggestions(tokens, _everything([t.word for t in tokens]), keep_author=False)
    at = {(tokens[i].word, s.kind) for s in made for i in [next(k for k, t in enumerate(tokens) if t.id == s.token_id)]}
    assert not {w for w, _k in at} & ASIDE_WORDS, sorted(at)
    assert ("man", Kind.CASE) not in at and ("car", Kind.CASE) in at  # the cue is the author's, the line not
    assert ("dad--", Kind.PUNCT) not in at and ("say", Kind.PUNCT) not in at  # "Dad--," was proposed
    assert ("noise", Kind.PUNCT) in at and ("listen", Kind.PUNCT) in at  # the spoken lines get theirs


def test_an_aside_never_closed_ends_with_its_sentence():
    """A lyric line with no closing note ("♪ happy birthday to you") leaves the author's words
    alone to the next sentence end, not the rest of the text."""
    from editor.core.document.transcript import Token

    tokens = [Token("happy", "♪ happy"), Token("birthday"), Token("to"), Token("you", punct="."),
              Token("thank"), Token("you")]
    assert asides(tokens) == [True, True, True, True, False, False]


def test_stet_restore_leaves_the_asides_as_written(film, tmp_path):
    """The pass `stet restore` and the window run: the shipped model capitalised "(Deep
    rumbling)" at 99 % and proposed "(computer playing electronic melody)." at 96 %."""
    from editor.restore.passes.inference import Restorer
    from editor.restore.passes.pipeline import PassSettings, restore_transcript

    doc = restore_transcript(Restorer.load(None, device="cpu"), film, PassSettings(keep_author=False))
    for s in doc.pending():
        word = doc.token(s.token_id).word
        assert word not in ASIDE_WORDS, (word, s)
        assert not (word == "dad--" and s.kind == Kind.PUNCT), s
