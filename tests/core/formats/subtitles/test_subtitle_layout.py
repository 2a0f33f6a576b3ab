"""One subtitle layout (issue 51): a frozen record made once from the command line, a batch or the
Export dialog, handed to every subtitle writer and to write-back; `--max-line-length` and
`--max-cps` as subtitlers know them from Subtitle Edit and Aegisub."""

from __future__ import annotations

import argparse

import pytest

from editor.cli import main
from editor.core import Token, Transcript
from editor.core.formats import read_any, write_any
from editor.core.formats.subtitles.writing import cut_cues, wrap_lines
from editor.core.formats.subtitles.layout import DEFAULT_LAYOUT, SubtitleLayout, layout_options, reading_speed
from editor.core.settings import Settings
from editor.commandline.arguments import add_layout_arguments, layout_from_args
from editor.core.render import RenderPolicy

WORDS = ("so the question we kept asking ourselves over and over again was what would happen "
         "if the river came back into the city after all these years").split()


def timed(words=WORDS, gap=0.0, each=0.3) -> Transcript:
    """Words 0.3 s each, back to back (``gap`` s between them)."""
    tokens, t = [], 0.0
    for w in words:
        tokens.append(Token(w, start=t, end=t + each))
        t += each + gap
    return Transcript(tokens)


def subrip_lines(path) -> list[str]:
    blocks = path.read_text(encoding="utf-8").strip().split("\n\n")
    return [line for block in blocks for line in block.split("\n")[2:]]


def test_defaults_are_the_rules_stet_wrote_by():
    assert (DEFAULT_LAYOUT.line_length, DEFAULT_LAYOUT.max_lines, DEFAULT_LAYOUT.max_cue_seconds,
            DEFAULT_LAYOUT.min_cue_seconds, DEFAULT_LAYOUT.max_cps) == (42, 2, 7.0, 1.0, None)
    assert DEFAULT_LAYOUT.kept_width(["a" * 50]) == 50 and DEFAULT_LAYOUT.kept_width(["short"]) == 42
    assert DEFAULT_LAYOUT.file_width(["a" * 20]) == 32 and DEFAULT_LAYOUT.file_width(["a" * 60]) == 60
    narrow = SubtitleLayout(max_line_length=30)
    assert narrow.kept_width(["a" * 50]) == narrow.file_width(["a" * 60]) == narrow.line_length == 30


@pytest.mark.parametrize("kwargs", [{"max_line_length": 4}, {"max_line_length": 900}, {"max_cps": 1},
                                    {"max_cps": 500}, {"speaker_style": "shout"}, {"max_lines": 0}])
def test_a_layout_out_of_range_is_refused(kwargs):
    with pytest.raises(ValueError):
        SubtitleLayout(**kwargs)


def test_new_cues_keep_to_the_line_length():
    cues = cut_cues(timed(), RenderPolicy(), "x.srt", SubtitleLayout(max_line_length=24))
    assert all(len(line) <= 24 for cue in cues for line in cue.lines)
    assert any(len(line) > 24 for cue in cut_cues(timed(), RenderPolicy(), "x.srt") for line in cue.lines)


def test_new_cues_stay_up_long_enough_to_read_where_there_is_room():
    # two sentences of six quick words each (0.15 s a word), six seconds apart: room to stay up
    tokens = [Token(w, punct="." if n == 5 else "", start=n * 0.15 + (6.0 if n > 5 else 0.0),
                    end=n * 0.15 + 0.15 + (6.0 if n > 5 else 0.0)) for n, w in enumerate(WORDS[:12])]
    words = Transcript(tokens)
    fast = cut_cues(words, RenderPolicy(), "x.srt")
    slow = cut_cues(words, RenderPolicy(), "x.srt", SubtitleLayout(max_cps=12))
    assert len(fast) == len(slow) == 2
    assert reading_speed(fast[0].lines, fast[0].start, fast[0].end) > 12
    assert reading_speed(slow[0].lines, slow[0].start, slow[0].end) <= 12 + 1e-9
    assert slow[0].end <= slow[1].start  # never over the next cue
    assert SubtitleLayout(max_cps=12).problems(fast[0].lines, fast[0].start, fast[0].end)
    assert not SubtitleLayout(max_cps=12).problems(slow[0].lines, slow[0].start, slow[0].end)


def test_a_changed_cue_written_back_keeps_to_a_set_width(tmp_path):
    source = tmp_path / "talk.srt"
    source.write_text("1\n00:00:01,000 --> 00:00:06,000\nthe words of a cue that runs rather long\n\n"
                      "2\n00:00:07,000 --> 00:00:09,000\nand a short one\n", encoding="utf-8")
    doc = read_any(source)
    doc.replace_span(0, 1, "The")  # a capital alone: the author's line stays as it was, any width
    capital = tmp_path / "capital.srt"
    write_any(doc, capital, layout=SubtitleLayout(max_line_length=24))
    assert subrip_lines(capital)[0] == "The words of a cue that runs rather long"
    doc.replace_span(1, 2, "many words")  # words typed in: the cue is wrapped to the width
    as_read, narrow = tmp_path / "as-read.srt", tmp_path / "narrow.srt"
    write_any(doc, as_read)
    # the file's widest line (40) is its width by default
    assert [len(line) <= 40 for line in subrip_lines(as_read)] == [True, True, True]
    write_any(doc, narrow, layout=SubtitleLayout(max_line_length=24))
    lines = subrip_lines(narrow)
    assert lines[-1] == "and a short one" and all(len(line) <= 24 for line in lines[:-1]), lines
    assert " ".join(lines[:-1]) == "The many words of a cue that runs rather long"


def test_the_command_line_takes_the_layout(tmp_path, capsys):
    source = tmp_path / "talk.json"
    source.write_text('{"text": "x", "segments": [{"start": 0, "end": 9, "text": "x", "words": ['
                      + ", ".join(f'{{"word": " {w}", "start": {i * 0.3:.2f}, "end": {i * 0.3 + 0.3:.2f}}}'
                                  for i, w in enumerate(WORDS)) + "]}]}", encoding="utf-8")
    out = tmp_path / "talk.srt"
    assert main(["convert", str(source), "-o", str(out), "--max-line-length", "20"]) == 0
    assert all(len(line) <= 20 for line in subrip_lines(out))
    capsys.readouterr()
    with pytest.raises(SystemExit) as refused:
        main(["convert", str(source), "-o", str(tmp_path / "b.srt"), "--max-line-length", "4"])
    assert refused.value.code == 2 and "line length of 16 to 200" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["convert", str(source), "-o", str(tmp_path / "c.srt"), "--max-cps", "fast"])
    assert not (tmp_path / "b.srt").exists() and not (tmp_path / "c.srt").exists()


def test_a_batch_takes_the_layout(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("a", "b"):  # Vosk's words: no cues of their own, so Stet cuts them
        (folder / f"{name}.json").write_text('{"result": [' + ", ".join(
            f'{{"word": "{w}", "start": {i * 0.3:.2f}, "end": {i * 0.3 + 0.3:.2f}, "conf": 1.0}}'
            for i, w in enumerate(WORDS)) + '], "text": "x"}', encoding="utf-8")
    out = tmp_path / "out"
    assert main(["convert", str(folder), "-o", str(out), "--to", ".vtt", "--max-line-length", "20", "-q"]) == 0
    for name in ("a", "b"):
        text = (out / f"{name}.vtt").read_text(encoding="utf-8")
        cue_lines = [line for line in text.splitlines()[1:] if line and "-->" not in line]
        assert len(cue_lines) > 4 and all(len(line) <= 20 for line in cue_lines), text


# -- each option declared once: its flag, its setting and its Export box come from the declaration --

@pytest.mark.parametrize("name", list(layout_options()))
def test_each_option_is_a_flag_of_the_commands_that_write_subtitles(name, capsys):
    declared = layout_options()[name]
    low, high = declared.bounds
    parser = argparse.ArgumentParser()
    add_layout_arguments(parser)
    assert getattr(layout_from_args(parser.parse_args([declared.flag, f"{high:g}"])), name) == high
    assert getattr(layout_from_args(parser.parse_args([])), name) is None
    with pytest.raises(SystemExit):
        parser.parse_args([declared.flag, f"{low - 1:g}"])
    assert f"{declared.what} of {low:g} to {high:g} {declared.unit}" in capsys.readouterr().err
    for command in ("convert", "restore", "transcribe"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert declared.flag in capsys.readouterr().out, command


@pytest.mark.parametrize("name", list(layout_options()))
def test_each_option_is_remembered_in_the_one_layout_setting(name, tmp_path):
    declared = layout_options()[name]
    low, high = declared.bounds
    settings = Settings()
    settings.set("export.layout", {name: high})
    settings.save(tmp_path / "settings.json")
    loaded, problems = Settings.load(tmp_path / "settings.json")
    assert not problems and getattr(loaded.export.subtitle_layout(), name) == high
    # edited by hand: out of bounds, of another version, not a number: the default, not a refusal
    loaded.set("export.layout", {name: low - 1, "no_such_option": 3})
    assert loaded.export.subtitle_layout() == DEFAULT_LAYOUT
    with pytest.raises(TypeError):
        loaded.set("export.layout", {name: "wide"})
    with pytest.raises(ValueError, match=declared.what):
        SubtitleLayout(**{name: high + 1})


# -- --min-gap: the least time between cues, as Subtitle Edit's minimum gap ----------------------------

def srt_times(path) -> list[tuple[float, float]]:
    def seconds(clock: str) -> float:
        h, m, s = clock.strip().replace(",", ".").split(":")
        return int(h) * 3600 + int(m) * 60 + float(s)
    return [(seconds(a), seconds(b)) for a, b in (line.split("-->") for line in
            path.read_text(encoding="utf-8").splitlines() if "-->" in line)]


def gaps(times) -> list[float]:
    return [round(b[0] - a[1], 3) for a, b in zip(times, times[1:])]


def test_cues_stet_cuts_keep_the_least_gap():
    words = timed()  # back to back: without a gap each cue ends where the next begins
    plain = cut_cues(words, RenderPolicy(), "x.srt", SubtitleLayout(max_line_length=20))
    assert len(plain) >= 4 and min(b.start - a.end for a, b in zip(plain, plain[1:])) < 0.001
    spaced = cut_cues(words, RenderPolicy(), "x.srt", SubtitleLayout(max_line_length=20, min_gap=100))
    assert [c.start for c in spaced] == [c.start for c in plain]  # the end moves, not the start
    assert all(b.start - a.end >= 0.1 - 1e-9 for a, b in zip(spaced, spaced[1:]))
    assert all(a.end - b.end <= 0.1 + 1e-9 for a, b in zip(plain, spaced))


def test_the_command_line_and_a_batch_take_the_least_gap(tmp_path):
    vosk = '{"result": [' + ", ".join(f'{{"word": "{w}", "start": {i * 0.3:.2f}, "end": {i * 0.3 + 0.3:.2f}, '
                                      f'"conf": 1.0}}' for i, w in enumerate(WORDS)) + '], "text": "x"}'
    source = tmp_path / "talk.json"
    source.write_text(vosk, encoding="utf-8")
    assert main(["convert", str(source), "-o", str(tmp_path / "plain.srt"), "-q"]) == 0
    assert min(gaps(srt_times(tmp_path / "plain.srt"))) == 0
    assert main(["convert", str(source), "-o", str(tmp_path / "talk.srt"), "--min-gap", "80", "-q"]) == 0
    assert len(srt_times(tmp_path / "talk.srt")) >= 2 and min(gaps(srt_times(tmp_path / "talk.srt"))) >= 0.08
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("a", "b"):
        (folder / f"{name}.json").write_text(vosk, encoding="utf-8")
    assert main(["convert", str(folder), "-o", str(tmp_path / "out"), "--to", ".srt", "--min-gap", "80", "-q"]) == 0
    for name in ("a", "b"):
        assert min(gaps(srt_times(tmp_path / "out" / f"{name}.srt"))) >= 0.08


def test_a_file_written_back_keeps_its_times_whatever_the_gap(tmp_path):
    source = tmp_path / "film.srt"
    source.write_bytes(b"1\r\n00:00:01,000 --> 00:00:03,000\r\nthe first cue\r\n\r\n"
                       b"2\r\n00:00:03,000 --> 00:00:05,000\r\nand the second\r\n")
    doc = read_any(source)
    doc.replace_span(3, 4, "a")  # "and the second" -> "a the second": the text is patched
    unset, gapped = tmp_path / "unset.srt", tmp_path / "gapped.srt"
    write_any(doc, unset)
    write_any(doc, gapped, layout=SubtitleLayout(min_gap=500))
    assert unset.read_bytes() == gapped.read_bytes() == source.read_bytes().replace(b"and the", b"a the")


@pytest.mark.parametrize(("text", "width", "lines"), [
    # a sentence end within the width, where balancing alone broke "the / fuse."
    ("Then check the fuse. Is it broken?", 32, ["Then check the fuse.", "Is it broken?"]),
    # a comma when no sentence ends inside, a sentence end before a comma
    ("If it is, replace it with one of the same", 32, ["If it is,", "replace it with one of the same"]),
    ("First, you open it. Then, the fuse.", 32, ["First, you open it.", "Then, the fuse."]),
    # after a mark in quotes or in a tag: "broken?" ends a sentence as much as broken? does
    ('He said "it is broken." Then we left it', 32, ['He said "it is broken."', "Then we left it"]),
    # no mark: the most even lines, as before
    ("we kept asking ourselves over and over again", 32, ["we kept asking ourselves", "over and over again"]),
])
def test_wrap_breaks_after_a_sentence_end_or_comma_within_the_width(text, width, lines):
    assert wrap_lines(text.split(), width) == lines
