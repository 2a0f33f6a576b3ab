"""The check of cues the window offers (issue 51): the cues an export would write that are over
the line length or the reading speed, each with its first word, found from `cues_to_write`
without changing what any writer writes."""

from __future__ import annotations

import pytest

from editor.core import Token, Transcript
from editor.core.errors import UserError
from editor.core.formats import read_any
from editor.core.formats.subtitles.writing import cue_problems, cues_to_write
from editor.core.formats.subtitles.layout import CHECK_CPS, DEFAULT_LAYOUT, SubtitleLayout
from editor.core.render import NONE

def test_every_cue_knows_its_first_word(over_limits_srt):
    doc = read_any(over_limits_srt)
    cues = cues_to_write(doc, NONE, "film.srt")
    assert [doc[c.first_word].surface if c.first_word is not None else None for c in cues] == \
        ["A", "This", "and", None]
    doc.delete_span(0, 3)  # the first cue's words gone: the next cue's first word is its first
    cues = cues_to_write(doc, NONE, "film.srt")
    assert [c.first_word for c in cues[:2]] == [0, 9]


def test_cues_cut_afresh_know_their_first_word():
    doc = Transcript([Token(w, start=n * 0.4, end=n * 0.4 + 0.3) for n, w in
                      enumerate(("one. " * 40).split())])
    cues = cues_to_write(doc, NONE, "x.srt")
    assert len(cues) > 1 and cues[0].first_word == 0
    assert all(doc[c.first_word].surface == c.lines[0].split()[0] for c in cues)


def test_the_check_lists_cues_over_the_line_length_or_the_reading_speed(over_limits_srt):
    doc = read_any(over_limits_srt)
    found = cue_problems(doc, DEFAULT_LAYOUT, DEFAULT_LAYOUT.for_checking(), NONE)
    assert [(p.start, p.problems) for p in found] == [
        (5.0, ("42.0 characters a second",)),
        (7.0, ("line 1 is 59 characters", "27.7 characters a second"))]
    assert [doc[doc.index_of(p.token_id)].surface for p in found if p.token_id is not None] == ["This", "and"]
    assert found[1].lines[1] == "but a short second one."
    wide = SubtitleLayout(max_line_length=60, max_cps=30.0)
    assert [p.problems for p in cue_problems(doc, wide, wide.for_checking(), NONE)] == [
        ("42.0 characters a second",)]


def test_the_check_holds_to_17_characters_a_second_where_no_speed_is_set():
    assert DEFAULT_LAYOUT.max_cps is None and DEFAULT_LAYOUT.for_checking().max_cps == CHECK_CPS == 17.0
    assert SubtitleLayout(max_cps=25.0).for_checking().max_cps == 25.0


def test_a_transcript_without_times_is_refused_in_a_line():
    with pytest.raises(UserError, match="no word times"):
        cue_problems(Transcript.from_words(["hello", "world"]), DEFAULT_LAYOUT,
                     DEFAULT_LAYOUT.for_checking(), NONE)
