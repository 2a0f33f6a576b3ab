"""A finished subtitle file keeps what its author wrote: Review > Accept all >= 90 % and `stet restore`
change none of its ellipses, "!", ";", dashes or marks beside quotes, no rare name's capital, and
split no italic span (issue 33). With the shipped model: these are the cases it changed."""

import subprocess
import sys

import pytest

from editor.core.formats import read_any
from editor.restore.passes.inference import Restorer
from editor.restore.passes.pipeline import PassSettings, restore_transcript
from editor.restore.passes.suggest import authors_own

FILM = """1
00:00:01,000 --> 00:00:04,000
<i>There is so much...</i>

2
00:00:04,500 --> 00:00:07,000
<i>The reason is... that nobody
in this town cares about it</i>

3
00:00:07,500 --> 00:00:09,000
Get that man! What! You did what?

4
00:00:09,500 --> 00:00:12,000
"Marriage"? You call this
a marriage?

5
00:00:12,500 --> 00:00:15,000
- Where is Gecko?
- He ran off -- to the river, I think.

6
00:00:15,500 --> 00:00:18,000
<i>I told Dorabella; she laughed.</i>

7
00:00:18,500 --> 00:00:21,000
It was the best day of my life!
Well... I suppose it was good?
"""


@pytest.fixture(scope="module")
def shipped():
    return Restorer.load(None, device="cpu")


def authors_marks(doc):
    """The marks the model cannot predict, and the capitals of names, as written: by token id."""
    return {t.id: (t.surface, t.punct) for t in doc.tokens
            if authors_own(t.punct) or t.word in ("gecko", "dorabella")}


@pytest.mark.parametrize("keep_author", [None, False])
def test_accept_all_keeps_the_authors_marks_and_names(shipped, tmp_path, keep_author):
    src = tmp_path / "film.srt"
    src.write_text(FILM, encoding="utf-8")
    doc = read_any(src)
    written = authors_marks(doc)
    assert len(written) >= 10
    restore_transcript(shipped, doc, PassSettings(keep_author=keep_author))
    doc.accept_all(0.9)
    assert authors_marks(doc) == written
    doc.accept_all(0.0)  # and every other suggestion too
    assert authors_marks(doc) == written
    if keep_author is None:  # a punctuated, capitalised source: nothing of the author's is touched
        assert [(t.surface, t.punct) for t in doc.tokens] == [(t.surface, t.punct) for t in read_any(src).tokens]


def stet(*args):
    return subprocess.run([sys.executable, "-m", "editor", *map(str, args)], capture_output=True, text=True)


def test_stet_restore_of_a_finished_subtitle_changes_none_of_its_marks(tmp_path):
    """`stet restore talk.vtt` applied every suggestion: "good?" became "good.", "What!" "What". By
    default a punctuated file only gets what is missing; --no-keep-author proposes removals and
    replacements too, never of the marks the model cannot predict."""
    src = tmp_path / "film.srt"
    src.write_text(FILM, encoding="utf-8")
    out = tmp_path / "out.srt"
    r = stet("restore", src, "-o", out, "--device", "cpu", "-q")
    assert r.returncode == 0, r.stderr
    assert out.read_text(encoding="utf-8") == FILM
    r = stet("restore", src, "-o", out, "--device", "cpu", "-q", "--force", "--no-keep-author")
    assert r.returncode == 0, r.stderr
    text = out.read_text(encoding="utf-8")
    for kept in ("so much...</i>", "is... that", "man! What!", '"Marriage"?', "Gecko?", "off -- to",
                 "Dorabella; she", "my life!", "Well..."):
        assert kept in text
    assert text.count("<i>") == FILM.count("<i>")


WRITTEN = ("We started the repair café three years ago, in a church hall. Nobody came at first. "
           "Then a woman brought a toaster, and her neighbour brought a lamp. ")
RAW = ("so every saturday people bring us things that are broken and we try to fix them together "
       "most of the time it is something small a loose wire or a fuse but sometimes it is harder "
       "and then we sit with them and we learn how the thing was made and what went wrong with it ")


def test_a_long_raw_stretch_after_written_text_gets_the_suggestions_raw_words_get(shipped, tmp_path):
    """A transcript exported half reviewed (or raw words after a written opening): the written
    words made the whole text "written", so the author's evidence (no mark where none is written)
    held for the raw words too: 3 suggestions where raw words alone get 65. A run of RAW_RUN words
    or more without a mark or a capital is now read as raw."""
    from editor.restore.passes.suggest import RAW_RUN

    raw = RAW * 4
    assert len(raw.split()) >= RAW_RUN
    half, whole = tmp_path / "half.txt", tmp_path / "raw.txt"
    half.write_text(WRITTEN + raw + "\n")
    whole.write_text(WRITTEN.lower().replace(".", "").replace(",", "") + raw + "\n")
    skip = len(WRITTEN.split()) + 3  # the first raw words' case follows the mark before them

    def proposed(path):
        doc = read_any(path)
        restore_transcript(shipped, doc, PassSettings())
        at = {t.id: i for i, t in enumerate(doc.tokens)}
        return doc, {(at[s.token_id], s.kind, s.value) for s in doc.iter_suggestions() if at[s.token_id] >= skip}

    doc, on_half = proposed(half)
    _, on_raw = proposed(whole)
    assert len(on_raw) >= 20 and on_half == on_raw
    at = {t.id: i for i, t in enumerate(doc.tokens)}
    assert not [s for s in doc.iter_suggestions() if at[s.token_id] < len(WRITTEN.split()) - 1]  # the author's stand


def test_raw_runs_are_long_runs_without_a_mark_or_a_capital():
    from editor.core.document.transcript import Token
    from editor.restore.passes.suggest import RAW_RUN, raw_runs

    def toks(spec):
        return [Token(w.lower().strip("."), surface=w.strip("."), punct="." if w.endswith(".") else "", id=i)
                for i, w in enumerate(spec)]

    words = ["Hello."] + ["word"] * RAW_RUN + ["Ann"] + ["word"] * (RAW_RUN - 1) + ["end."]
    assert raw_runs(toks(words)) == [(1, 1 + RAW_RUN)]
    with_tag = ["word"] * 10 + ["[noise]"] + ["word"] * (RAW_RUN - 10)
    assert raw_runs(toks(with_tag)) == [(0, RAW_RUN + 1)]
    assert raw_runs(toks(["word"] * (RAW_RUN - 1))) == []
