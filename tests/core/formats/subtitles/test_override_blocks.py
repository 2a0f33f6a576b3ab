"""Override blocks ({\\an8}, {\\i1}) read in time linear in the line: a line of a megabyte of
unclosed "{\\an8" or "{" (a fuzzer's or a broken converter's) is read or refused at once, where
every "{" once read on to the end of the line (minutes for SubRip, hours for SubStation Alpha);
and a block still runs from its "{" to the first "}", as players read it."""

import subprocess
import sys
from pathlib import Path

import pytest

from editor.core.formats import read_any

ROOT = Path(__file__).parents[4]
ASS_HEAD = ("[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
            "Dialogue: 0,0:00:01.00,0:00:03.50,Default,,0,0,0,,")
UNCLOSED = {
    "srt-an8": ("x.srt", "1\n00:00:01,000 --> 00:00:02,000\n" + "{\\an8" * 170_000 + " hello world\n"),
    "vtt-an8": ("x.vtt", "WEBVTT\n\n00:01.000 --> 00:02.000\n" + "{\\an8" * 170_000 + " hello world\n"),
    "ass-brace": ("x.ass", ASS_HEAD + "{" * 1_000_000 + " hello world\n"),
    "ass-an8": ("x.ass", ASS_HEAD + "{\\an8" * 170_000 + " hello world\n"),
    "ass-drawing": ("x.ass", ASS_HEAD + "{\\p" * 300_000 + " hello world\n"),
}


@pytest.mark.parametrize("name", sorted(UNCLOSED))
def test_a_line_of_unclosed_override_blocks_is_read_at_once(tmp_path, name):
    file_name, text = UNCLOSED[name]
    path = tmp_path / file_name
    path.write_text(text, encoding="utf-8")
    # a process of its own, so that a regular expression that runs for hours fails the test
    # (a signal does not stop one) rather than holding the suite
    result = subprocess.run([sys.executable, "-m", "editor", "show", str(path)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert "Traceback" not in result.stderr and result.returncode == 0, result.stderr[-500:]
    assert result.stdout.split()[-2:] == ["hello", "world"]


def test_a_block_runs_to_the_first_closing_brace(tmp_path):
    path = tmp_path / "nested.ass"
    path.write_text(ASS_HEAD + "{\\an8{\\i1}top {\\p1}m 0 0 l 1 1{\\p0} after\n"
                    "Dialogue: 0,0:00:04.00,0:00:05.50,Default,,0,0,0,,{\\an8}{note}plain {\\i1}words\n",
                    encoding="utf-8")
    assert read_any(path).words() == ["top", "after", "plain", "words"]
    srt = tmp_path / "x.srt"
    srt.write_text("1\n00:00:01,000 --> 00:00:02,000\n{\\an8}Top {\\i1}line{\\i0} {\\an8 open\n",
                   encoding="utf-8")
    assert read_any(srt).words() == ["top", "line", "an8", "open"]
