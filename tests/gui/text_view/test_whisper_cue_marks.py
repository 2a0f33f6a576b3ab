"""A Whisper transcript shows its segments as cue boundaries, as a subtitle file does."""

from pathlib import Path

from editor.core.formats import read_any
from editor.core.settings import Settings
from editor.gui.text_view.view import QtTranscriptView

WHISPERX = Path(__file__).parents[2] / "corpus" / "files" / "whisper" / "whisperx_reference.json"


def test_whisper_segments_are_marked_where_they_begin(qtbot):
    doc = read_any(WHISPERX)  # WhisperX's own example output: two segments
    view = QtTranscriptView(doc, Settings())
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    firsts = [c.token_ids[0] for c in doc.metadata.cues]
    assert len(firsts) == 2 and view.cue_ids == set(firsts)
    second = next(i for i, t in enumerate(doc.tokens) if t.id == firsts[1])
    assert "starts a segment" in view.pointer.time_html(second)  # a Whisper segment is no subtitle cue
    assert "subtitle cue" not in view.pointer.time_html(second)
    assert "starts a" not in view.pointer.time_html(second + 1)
    view.repaint()
