"""Files as real programs write them, beyond the corpus: each case here once lost, changed or
invented words or times (the program and flavour are named on each test)."""

import pytest

from editor.core import FormatError, render
from editor.core.formats import read_any, write_any


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
