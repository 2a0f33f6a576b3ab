"""Subtitle files as subtitling programs export them (`program_exports`: Subtitle Edit, Aegisub,
the WebVTT spec's blocks, HLS, IMSC TTML), written back to their own format: with nothing decided
byte for byte (written directly, through a project, and by `stet convert`); with one mark decided
as the window decides it, the file's bytes but for that mark and the capital it decides."""

import codecs
import difflib
import json
from pathlib import Path

import pytest

from editor import cli
from editor.core.document.records import Kind
from editor.core.formats import read_any, write_any
from editor.core.render import NONE
from tests.core.formats.subtitles.program_exports import FILES
from tests.core.formats.subtitles.test_writeback import suggest_marks


def _text(data: bytes) -> str:
    for bom, codec in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le")):
        if data.startswith(bom):
            return data[len(bom):].decode(codec)
    return data.decode("utf-8")


def _changes(before: bytes, after: bytes) -> list[tuple[str, str, str]]:
    """What differs between two files' texts: (operation, old text, new text), in order."""
    a, b = _text(before), _text(after)
    return [(op, a[i1:i2], b[j1:j2])
            for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
            if op != "equal"]


@pytest.fixture(params=sorted(FILES))
def source(request, tmp_path):
    path = tmp_path / f"in-{request.param}"
    path.write_bytes(FILES[request.param])
    return path


def test_nothing_decided_is_the_same_bytes(source, tmp_path):
    doc = read_any(source)
    suggest_marks(doc, 1)  # proposals pending, none decided
    out = tmp_path / f"direct{source.suffix}"
    write_any(doc, out, NONE)
    assert out.read_bytes() == source.read_bytes()
    write_any(doc, tmp_path / "film.stet")
    write_any(read_any(tmp_path / "film.stet"), out, NONE)
    assert out.read_bytes() == source.read_bytes()
    converted = tmp_path / f"converted{source.suffix}"
    assert cli.main(["convert", str(source), "-o", str(converted), "--policy", "none"]) == 0
    assert converted.read_bytes() == source.read_bytes()
    assert cli.main(["convert", str(tmp_path / "film.stet"), "-o", str(tmp_path / f"again{source.suffix}"),
                     "--policy", "none"]) == 0
    assert (tmp_path / f"again{source.suffix}").read_bytes() == source.read_bytes()


def _decide(doc, token_id: int) -> tuple[str, str | None]:
    """Pick the mark proposed after a word as Enter does, and the capital of the word after it
    where one is still to decide; (the mark, the capital or None)."""
    doc.pick(token_id, Kind.PUNCT)
    mark = doc.tokens[doc.index_of(token_id)].punct
    at = doc.index_of(token_id) + 1
    capital = None
    if at < len(doc) and mark == "." and doc.suggestion(doc.tokens[at].id, Kind.CASE) is not None \
            and doc.tokens[at].surface[:1].islower():
        doc.pick(doc.tokens[at].id, Kind.CASE)
        capital = doc.tokens[at].surface[:1]
    return mark, capital


def test_one_mark_decided_changes_only_that_mark_and_its_capital(source, tmp_path):
    doc = read_any(source)
    suggest_marks(doc, 1)
    marks = [s.token_id for s in doc.pending(kind=Kind.PUNCT)]
    assert len(marks) >= 5
    for token_id in marks:  # each mark of the file, decided alone
        doc = read_any(source)
        suggest_marks(doc, 1)
        mark, capital = _decide(doc, token_id)
        out = tmp_path / f"out{source.suffix}"
        write_any(doc, out, NONE)
        changes = _changes(source.read_bytes(), out.read_bytes())
        expected = [("insert", "", mark)] + ([("replace", capital.lower(), capital)] if capital else [])
        assert sorted(changes) == sorted(expected), (doc.tokens[doc.index_of(token_id)].text, changes)
        assert [t.text for t in read_any(out).tokens] == [t.text for t in doc.tokens]


def test_aegisub_tags_inside_a_changed_line_stay(tmp_path):
    """Override tags inside a word, \\N, \\h, karaoke and a drawing stay where they are in a
    Dialogue line whose words changed: the mark goes in after its word, nothing else moves."""
    path = tmp_path / "episode.ass"
    path.write_bytes(FILES["aegisub.ass"])
    doc = read_any(path)
    words = [t.surface for t in doc.tokens]
    for word in ("working", "harbour", "sometimes", "rained"):
        doc.edit_token(len(words) - 1 - words[::-1].index(word), punct=",")
    doc.edit_token(words.index("part"), punct=";")
    write_any(doc, tmp_path / "out.ass", NONE)
    assert (tmp_path / "out.ass").read_bytes() == FILES["aegisub.ass"].replace(
        b"wo{\\i1}rk{\\i0}ing late", b"wo{\\i1}rk{\\i0}ing, late").replace(
        b"the harbour\\hmaster", b"the harbour,\\hmaster").replace(
        b"{\\k20}some{\\k30}times {\\k25}", b"{\\k20}some{\\k30}times, {\\k25}").replace(
        b"{\\p0}and then it rained", b"{\\p0}and then it rained,").replace(
        b"the first part\\nthe", b"the first part;\\nthe")


def test_ttml_spans_breaks_and_indentation_stay(tmp_path):
    """A changed <p> of IMSC TTML keeps its spans, <br/>, ids, regions, tick times and the
    indentation of text written on lines of its own; the head and every other <p> stay."""
    path = tmp_path / "film.ttml"
    path.write_bytes(FILES["netflix.ttml"])
    doc = read_any(path)
    words = [t.surface for t in doc.tokens]
    doc.edit_token(words.index("harbour"), punct=",")
    doc.edit_token(words.index("waiting"), surface="Waiting")
    doc.edit_token(words.index("come"), punct="?")
    write_any(doc, tmp_path / "out.ttml", NONE)
    assert (tmp_path / "out.ttml").read_bytes() == FILES["netflix.ttml"].replace(
        b"the harbour</span>", b"the harbour,</span>").replace(
        b'"italic">waiting<', b'"italic">Waiting<').replace(b"did it come\n", b"did it come?\n")


@pytest.mark.parametrize("suffix,marker", [(".ssa", b"[V4 Styles]"), (".dfxp", b"<tt "), (".smi", b"<SYNC Start=3400>")])
def test_ssa_dfxp_and_sami_are_written(tmp_path, suffix, marker):
    """SubStation Alpha v4, DFXP and SAMI, which Stet reads, are written too (so a file of each
    comes back in its own format); cues from another format are written afresh in that format."""
    path = tmp_path / "in.srt"
    path.write_bytes(FILES["subtitle-edit.srt"])
    doc = read_any(path)
    out = tmp_path / f"out{suffix}"
    write_any(doc, out, NONE)
    assert marker in out.read_bytes()
    assert (b"Marked=0" in out.read_bytes()) == (suffix == ".ssa")
    assert [t.text for t in read_any(out).tokens] == [t.text for t in doc.tokens]


def test_subtitle_edits_ntp_names_no_one(tmp_path):
    """Subtitle Edit writes "NTP" in the Name field of every SubStation Alpha v4 line that names
    no one: read as no speaker, so that the file converted to SubRip or WebVTT gets no "NTP: "
    before every cue; written back to .ssa, its lines keep it."""
    path = tmp_path / "film.ssa"
    path.write_bytes(FILES["subtitle-edit.ssa"])
    doc = read_any(path)
    assert {t.speaker for t in doc.tokens} == {None}
    write_any(doc, tmp_path / "out.srt", NONE)
    assert "NTP" not in (tmp_path / "out.srt").read_text(encoding="utf-8")
    doc.edit_token(len(doc) - 1, punct="?")
    write_any(doc, tmp_path / "out.ssa", NONE)
    assert (tmp_path / "out.ssa").read_bytes() == FILES["subtitle-edit.ssa"].replace(b"did it come", b"did it come?")


CORPUS = Path(__file__).parents[3] / "corpus"
#: The corpus's SubStation Alpha, TTML and SAMI files (pysubs2's and pycaption's test files:
#: Aegisub, the W3C spec's, Apple's lyrics, broadcast DFXP and SAMI)
STYLED = [e["file"] for e in json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))
          if e["expect"] == "intact" and Path(e["file"]).suffix in (".ass", ".ssa", ".ttml", ".dfxp", ".smi", ".sami")]


@pytest.mark.parametrize("name", STYLED)
def test_corpus_files_come_back_but_for_the_mark_decided(tmp_path, name):
    source = tmp_path / f"in{Path(name).suffix}"
    source.write_bytes((CORPUS / "files" / name).read_bytes())
    out = tmp_path / f"out{source.suffix}"
    doc = read_any(source)
    write_any(doc, out, NONE)
    assert out.read_bytes() == source.read_bytes()
    suggest_marks(doc, 1)
    marks = [s.token_id for s in doc.pending(kind=Kind.PUNCT)]
    for token_id in {marks[0], marks[len(marks) // 2], marks[-1]}:  # the first, one in the middle, the last
        doc = read_any(source)
        suggest_marks(doc, 1)
        mark, capital = _decide(doc, token_id)
        write_any(doc, out, NONE)
        expected = [("insert", "", mark)] + ([("replace", capital.lower(), capital)] if capital else [])
        assert sorted(_changes(source.read_bytes(), out.read_bytes())) == sorted(expected)


def test_sami_of_two_languages_is_written_in_the_one_read_and_said(tmp_path):
    """A SAMI file with a <P> per language is read in its first; written back with a word changed
    it is written afresh in that language, and the other's loss is said, not silent."""
    path = tmp_path / "two.smi"
    path.write_text("<SAMI><HEAD><STYLE><!--\n.ENUSCC { Name: English; lang: en-US; }\n"
                    ".FRFRCC { Name: French; lang: fr-FR; }\n--></STYLE></HEAD><BODY>\n"
                    "<SYNC Start=1000><P Class=ENUSCC>where were you<P Class=FRFRCC>où étais-tu\n"
                    "<SYNC Start=3000><P Class=ENUSCC>&nbsp;<P Class=FRFRCC>&nbsp;\n</BODY></SAMI>\n", encoding="utf-8")
    doc = read_any(path)
    doc.edit_token(len(doc) - 1, punct="?")
    said = write_any(doc, tmp_path / "out.smi", NONE)
    assert "other languages were not written" in " ".join(said)
    assert [t.text for t in read_any(tmp_path / "out.smi").tokens] == ["where", "were", "you?"]
