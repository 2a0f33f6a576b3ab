"""Files as real programs write them, beyond the corpus: each case here once lost, changed or
invented words or times (the program and flavour are named on each test)."""

import pytest

from editor.core import render
from editor.core.formats import read_any


def read(tmp_path, name, text, encoding="utf-8"):
    path = tmp_path / name
    path.write_bytes(text.encode(encoding) if isinstance(text, str) else text)
    return read_any(path)


# -- TTML and DFXP --------------------------------------------------------------------------------
OLD_DFXP = """<?xml version="1.0" encoding="utf-8"?>
<tt xmlns="http://www.w3.org/2006/10/ttaf1" xmlns:ttp="http://www.w3.org/2006/10/ttaf1#parameter"
    xmlns:tts="http://www.w3.org/2006/10/ttaf1#style" ttp:timeBase="media" ttp:tickRate="10000000"
    ttp:frameRate="25" xml:lang="en">
<head><styling><style id="s1" tts:fontStyle="italic"/></styling></head>
<body><div>
<p begin="10000000t" end="30000000t">Tick times in the old<br/>namespace</p>
<p begin="00:00:03:00" end="00:00:04:12"><span tts:fontStyle="italic">and</span> frames</p>
</div></body></tt>
"""


def test_dfxp_in_the_2006_namespace_takes_its_tick_and_frame_rates(tmp_path):
    """Flash-era DFXP names its parameters in the draft's namespace (ttaf1#parameter): its tick
    rate was not seen, and one second of ticks was read as 115 days."""
    doc = read(tmp_path, "old.dfxp", OLD_DFXP)
    assert render(doc) == "Tick times in the old namespace and frames"
    assert doc[0].start == 1.0 and doc[5].end == 3.0
    assert doc[6].start == 3.0 and doc[-1].end == pytest.approx(4.48)


def test_ttml_paragraphs_without_an_end_keep_their_words(tmp_path):
    """A <p> with only a begin (some caption tools), one timed only by its spans (word-timed
    TTML), one in a <div> that ends: all were dropped without a word said."""
    ttml = read(tmp_path, "open.ttml", """<?xml version="1.0" encoding="utf-8"?>
<tt xmlns="http://www.w3.org/ns/ttml"><body><div>
<p begin="00:00:01.000">Only a begin here</p>
<p begin="00:00:03.000" end="00:00:04.000">then an end</p>
<p><span begin="00:00:05.000" end="00:00:05.500">Times on</span>
<span begin="00:00:05.500" end="00:00:06.250">spans only</span></p>
</div><div begin="00:00:08.000" end="00:00:10.000"><p begin="1s">and a div</p></div>
<div begin="00:00:12.000"><p>last of all</p></div></body></tt>
""")
    assert " ".join(render(ttml).split()) == ("Only a begin here then an end Times on spans only and a"
                                              " div last of all")
    assert ttml[0].start == 1.0 and ttml[3].end == 3.0  # until the next <p>
    assert ttml[7].start == 5.0 and ttml[10].end == 6.25
    assert ttml[11].start == 9.0 and ttml[13].end == 10.0
    assert ttml[14].start == 12.0 and ttml[-1].end == 13.2
    assert any("2 <p> elements had no end time" in w for w in ttml.metadata.warnings)
