"""YouTube-style caption text saved as .txt (one ~40-character line per caption, as youtube-dl,
yt-dlp and a copied YouTube transcript give it): its HTML character references are decoded, a
literal "&" stays, and its lines flow into running text, read from a file or pasted."""

import subprocess
import sys

from editor.core.formats import read_any, write_any
from editor.core.render import render
from editor.core.document.text import text_as_read

CAPTIONS = """so today we&#39;re going to talk about
how the river changed the town and why
people weren&#39;t ready for the flood
when it came in the spring of that year
and the mayor said &quot;we will rebuild&quot;
so they did with help from Smith &amp; Sons
who brought the timber down the valley
and nobody asked what it would cost them
until the bills arrived in the autumn
which is where the story really begins
"""
FLOWED = ("so today we're going to talk about how the river changed the town and why people weren't "
          "ready for the flood when it came in the spring of that year and the mayor said \"we will "
          "rebuild\" so they did with help from Smith & Sons who brought the timber down the valley "
          "and nobody asked what it would cost them until the bills arrived in the autumn which is "
          "where the story really begins")


def test_caption_text_is_decoded_and_flows(tmp_path):
    path = tmp_path / "captions.txt"
    path.write_text(CAPTIONS, encoding="utf-8")
    doc = read_any(path)
    assert render(doc) == FLOWED and doc.paragraph_starts == [0]
    assert "weren't" in doc.words() and '"we' in [t.text for t in doc.tokens]
    assert any("5 HTML character references" in w and "&#39;" in w for w in doc.metadata.warnings)
    out = tmp_path / "out.txt"
    write_any(doc, out)
    assert out.read_text(encoding="utf-8") == FLOWED + "\n"  # exported as the characters


def test_stet_show_gives_the_characters(tmp_path):
    path = tmp_path / "captions.txt"
    path.write_text(CAPTIONS, encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "editor", "show", str(path)], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0 and result.stdout == FLOWED + "\n"


def test_a_literal_ampersand_stays(tmp_path):
    path = tmp_path / "notes.txt"
    text = "We had fish & chips at AT&T with R&D; then Q&amp A and &unknown; stayed."
    path.write_text(text + "\n", encoding="utf-8")
    doc = read_any(path)
    assert render(doc) == text and not doc.metadata.warnings
    path.write_text("Smith & Sons weren&#39;t there &amp; neither was AT&T.\n", encoding="utf-8")
    assert render(read_any(path)) == "Smith & Sons weren't there & neither was AT&T."


def test_pasted_lines_read_as_a_file_of_them():
    assert text_as_read(CAPTIONS) == FLOWED + "\n"
    assert text_as_read("\n" + CAPTIONS) == "\n" + FLOWED + "\n"  # a break before it stays
    assert text_as_read(" one line, as typed ") == " one line, as typed "
    assert text_as_read("Tom &amp; Ann") == "Tom & Ann"
    assert text_as_read("First paragraph.\nSecond one.") == "First paragraph.\nSecond one."
    assert text_as_read("one block\nwrapped\n\nanother") == "one block wrapped\nanother"
