"""A project written off the document's thread (editor.core.project_writer) is the project
write_stet (`write_any`) writes, and stays so save after save while only what changed is encoded
again; write_stet is that writer, and writes the metadata as it is."""

import json
import random

from editor.core.document.transcript import Kind, Metadata, State, Suggestion, Token, Transcript
from editor.core.formats import read_any
from editor.core.project_writer import ProjectWriter, write_stet
from editor.core.recovery.state import DocumentTracker


def _doc(words: int = 3_000) -> Transcript:
    rng = random.Random(7)
    vocab = ["so", "we", "met", "okafor", "in", "paris", "and", "then", "it", "rained"]
    tokens = [Token(rng.choice(vocab), start=i * 0.5, end=i * 0.5 + 0.4, speaker="Ann" if i < 50 else None)
              for i in range(words)]
    doc = Transcript(tokens, paragraph_starts=range(0, words, 150),
                     metadata=Metadata(language="en", extra={"vtt_header": "WEBVTT"}))
    doc.set_suggestions([Suggestion(doc[i].id, Kind.PUNCT, ",", {",": 0.7, "": 0.3}) for i in range(0, words, 2)]
                        + [Suggestion(doc[i].id, Kind.CASE, doc[i].word.title(), {doc[i].word.title(): 0.6, doc[i].word: 0.4})
                           for i in range(1, words, 3)])
    doc.history.mark_clean()
    return doc


def _project(path):
    """What a project says, in a form that compares: tokens, paragraphs, suggestions, metadata."""
    doc = read_any(path)
    extra = {k: v for k, v in doc.metadata.extra.items() if k != "learning"}
    return (doc.tokens, tuple(doc.paragraph_starts),
            sorted((s.token_id, s.kind.value, s.value, s.state.value, s.source, s.original,
                     tuple(sorted(s.probs.items()))) for s in doc.all_suggestions()),
            (doc.metadata.language, doc.metadata.audio_file, extra))


def _same_as_write_stet(doc, writer, tracker, tmp_path, n):
    ours, theirs = tmp_path / f"ours-{n}.stet", tmp_path / f"theirs-{n}.stet"
    written = writer.write(tracker.capture(), ours)
    write_stet(doc, theirs)
    assert _project(ours) == _project(theirs)
    return written


def test_what_it_writes_reopens_as_write_stet_s_project(tmp_path):
    doc = _doc()
    doc.accept(doc[4].id, Kind.CASE)  # a form the person chose
    writer, tracker = ProjectWriter(), DocumentTracker(doc)
    written = _same_as_write_stet(doc, writer, tracker, tmp_path, 0)
    assert written.size == (tmp_path / "ours-0.stet").stat().st_size
    assert len(written.suggestions) == len(doc.all_suggestions()) and written.tokens == doc.tokens
    json.loads((tmp_path / "ours-0.stet").read_text(encoding="utf-8"))  # plain JSON
    assert "recovery" not in json.loads((tmp_path / "ours-0.stet").read_text(encoding="utf-8"))


def test_save_after_save_with_edits_between_stays_exact(tmp_path):
    """Only the runs an edit touched are encoded again; every save still reopens as the document."""
    rng = random.Random(1)
    doc = _doc()
    writer, tracker = ProjectWriter(), DocumentTracker(doc)
    _same_as_write_stet(doc, writer, tracker, tmp_path, 0)
    for n in range(1, 8):
        for _ in range(rng.randint(1, 6)):
            i = rng.randrange(len(doc) - 3)
            action = rng.randrange(5)
            if action == 0:
                doc.replace_span(i, i + 1, "inserted words here")
            elif action == 1:
                doc.delete_span(i, i + 2)
            elif action == 2:
                doc.edit_token(i, surface=doc[i].word.upper())
            elif action == 3:
                pending = doc.pending()
                if pending:
                    s = rng.choice(pending)
                    (doc.accept if rng.random() < 0.5 else doc.reject)(s.token_id, s.kind)
            else:
                doc.history.undo()
        _same_as_write_stet(doc, writer, tracker, tmp_path, n)


def test_the_forms_and_the_project_s_lexicon_are_of_what_was_written(tmp_path):
    doc = Transcript.from_words("we met okafor at the station and okafor said hi".split())
    doc.set_suggestions([Suggestion(doc[2].id, Kind.CASE, "Okafor", {"Okafor": 0.7, "okafor": 0.3})])
    doc.accept(doc[2].id, Kind.CASE)
    doc.edit_token(7, surface="Okafor")
    tracker = DocumentTracker(doc)
    state = tracker.capture()
    doc.edit_token(7, surface="okafor")  # after the capture: not in this save
    written = ProjectWriter().write(state, tmp_path / "t.stet",
                                    extra=lambda forms, sugg: {"seen": [len(forms), len(sugg)]})
    assert written.forms == {"okafor": "Okafor"}
    assert written.lexicon_extra == {"lexicon": {"okafor": "Okafor"}}
    extra = json.loads((tmp_path / "t.stet").read_text(encoding="utf-8"))["metadata"]["extra"]
    assert extra == {"lexicon": {"okafor": "Okafor"}, "seen": [1, 1]}
    assert read_any(tmp_path / "t.stet")[7].surface == "Okafor"
    assert {s.state for s in written.suggestions} == {State.ACCEPTED}


def test_write_any_writes_a_project_through_the_one_writer_with_its_metadata_as_it_is(tmp_path, monkeypatch):
    """`stet convert` or `restore` to .stet: the save's writer, but no lexicon gathered (a file
    converted is no review of the person's)."""
    from editor.core.formats import write_any

    doc = Transcript.from_words("we met okafor at the station".split())
    doc.set_suggestions([Suggestion(doc[2].id, Kind.CASE, "Okafor", {"Okafor": 0.7, "okafor": 0.3})])
    doc.accept(doc[2].id, Kind.CASE)
    written = []
    real = ProjectWriter.write

    def spy(self, state, path, **kwargs):
        written.append(kwargs)
        return real(self, state, path, **kwargs)

    monkeypatch.setattr(ProjectWriter, "write", spy)
    write_any(doc, tmp_path / "c.stet")
    assert written == [{"learn": False}]
    assert "lexicon" not in json.loads((tmp_path / "c.stet").read_text(encoding="utf-8"))["metadata"]["extra"]
    assert read_any(tmp_path / "c.stet")[2].surface == "Okafor"
    ProjectWriter().write(DocumentTracker(doc).capture(), tmp_path / "saved.stet")  # a save learns
    assert json.loads((tmp_path / "saved.stet").read_text(encoding="utf-8"))["metadata"]["extra"] == {
        "lexicon": {"okafor": "Okafor"}}
