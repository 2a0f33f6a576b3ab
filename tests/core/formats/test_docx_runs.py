"""A Word document's runs are made without python-docx's ``Run.text``: that clears each new run
with an XPath query, and a thread making hundreds of runs so kept the interpreter from the
window for 40-190 ms at a time (tests/perf/bench_gui_stalls.py, export .docx). The runs read as
``Run.text`` writes them."""

import docx
import pytest
from docx.oxml.xmlchemy import BaseOxmlElement

from editor.core.document.transcript import Token, Transcript
from editor.core.formats import write_any
from editor.core.formats.docx import _add_styled_run


@pytest.mark.parametrize("text", ["so we met", "a\ttab and\na line end\n", "\t", "\n\nend", " spaced "])
def test_a_run_reads_as_python_docx_writes_it(text):
    ours, theirs = docx.Document(), docx.Document()
    _add_styled_run(ours.add_paragraph(), text, frozenset())
    theirs.add_paragraph().add_run().text = text  # python-docx's own way
    assert ours.paragraphs[0]._p.xml == theirs.paragraphs[0]._p.xml
    assert ours.paragraphs[0].text == text


def test_no_xpath_query_is_made_for_each_run(tmp_path, monkeypatch):
    queries: list[str] = []
    real = BaseOxmlElement.xpath
    monkeypatch.setattr(BaseOxmlElement, "xpath", lambda self, path: (queries.append(path), real(self, path))[1])

    def written(turns: int) -> int:
        tokens = [Token(w, speaker=f"Speaker {k % 2}", start=float(k))
                  for k in range(turns) for w in ("so", "we", "met")]
        queries.clear()
        write_any(Transcript(tokens), tmp_path / f"out-{turns}.docx", timestamps=True, turn_times=True)
        return len(queries)
    assert written(300) == written(3)
