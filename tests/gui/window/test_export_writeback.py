"""File > Export of a subtitle file to its own format from the window: the file as it came, with
only the words the person changed (issue 41; the writing itself is tested in
tests/core/formats/subtitles/test_writeback.py)."""

import codecs

from editor.core import RenderPolicy
from editor.core.document.records import Kind, Suggestion

VTT = ("WEBVTT\r\n\r\nNOTE made by hand\r\n\r\nSTYLE\r\n::cue(.loud) { color: red }\r\n\r\n"
       "intro\r\n00:16.500 --> 00:18.000 align:start position:10%\r\n<v Ann>so we went <c.loud>down</c>\r\n\r\n"
       "q-3\r\n00:19.000 --> 00:21.000\r\nto the river\r\n")


def test_export_to_the_sources_format_keeps_its_bytes_and_patches_its_words(window, qtbot, tmp_path):
    source = tmp_path / "talk.vtt"
    source.write_bytes(codecs.BOM_UTF8 + VTT.encode())
    window.open_path(source)
    window.cancel_restoration()
    doc = window.transcript
    window.export(tmp_path / "same.vtt")
    assert (tmp_path / "same.vtt").read_bytes() == source.read_bytes()
    so, river = doc.tokens[0], doc.tokens[-1]
    doc.set_suggestions([Suggestion(so.id, Kind.CASE, "So", {"So": 0.95}),
                         Suggestion(river.id, Kind.PUNCT, ".", {".": 0.95, "": 0.05})])
    window.export(tmp_path / "out.vtt", RenderPolicy(0.9))
    expected = VTT.replace("<v Ann>so", "<v Ann>So").replace("the river\r\n", "the river.\r\n")
    assert (tmp_path / "out.vtt").read_bytes() == codecs.BOM_UTF8 + expected.encode()
