"""A .stet project names its recording relative to itself when the recording is in its folder (or
below), so the two move together; older projects with absolute paths still open."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from editor.core.document.transcript import Metadata, Token, Transcript
from editor.core.formats import read_any, write_any
from editor.core.formats.stet import project_head, token_record


def doc_with_audio(audio: str | None) -> Transcript:
    return Transcript([Token("hello", start=0.0, end=0.4)], metadata=Metadata(audio_file=audio))


def stet_document(doc: Transcript) -> dict:
    """A project's JSON with no path to write to (as an old Stet wrote every recording)."""
    return {**project_head(doc.metadata), "tokens": [token_record(t) for t in doc.tokens]}


def stored(project: Path) -> dict:
    return json.loads(project.read_text(encoding="utf-8"))["metadata"]


def test_a_recording_beside_the_project_is_kept_relative_and_moves_with_it(tmp_path):
    work = tmp_path / "work"
    (work / "audio").mkdir(parents=True)
    audio = work / "audio" / "talk.wav"
    audio.write_bytes(b"RIFF")
    write_any(doc_with_audio(str(audio)), work / "talk.stet")

    assert stored(work / "talk.stet")["audio_file"] == "audio/talk.wav"
    assert read_any(work / "talk.stet").metadata.audio_file == str(audio)

    moved = tmp_path / "elsewhere" / "work"
    shutil.move(work, moved)
    assert read_any(moved / "talk.stet").metadata.audio_file == str(moved / "audio" / "talk.wav")


def test_a_project_that_moves_without_its_recording_still_finds_it(tmp_path):
    audio = tmp_path / "talk.wav"
    audio.write_bytes(b"RIFF")
    write_any(doc_with_audio(str(audio)), tmp_path / "talk.stet")
    (tmp_path / "copy").mkdir()
    shutil.copy(tmp_path / "talk.stet", tmp_path / "copy" / "talk.stet")
    assert read_any(tmp_path / "copy" / "talk.stet").metadata.audio_file == str(audio)


def test_a_recording_elsewhere_stays_absolute(tmp_path):
    audio = tmp_path / "recordings" / "talk.wav"
    project = tmp_path / "projects" / "talk.stet"
    project.parent.mkdir()
    write_any(doc_with_audio(str(audio)), project)
    assert stored(project)["audio_file"] == str(audio)
    assert "audio_file_absolute" not in stored(project)
    assert read_any(project).metadata.audio_file == str(audio)


def test_projects_with_absolute_paths_still_open(tmp_path):
    project = tmp_path / "old.stet"
    data = stet_document(doc_with_audio("/srv/recordings/talk.wav"))  # no path: as an old Stet wrote
    project.write_text(json.dumps(data), encoding="utf-8")
    assert data["metadata"]["audio_file"] == "/srv/recordings/talk.wav"
    assert read_any(project).metadata.audio_file == "/srv/recordings/talk.wav"


def test_a_relative_path_that_leads_nowhere_is_still_shown_from_the_project(tmp_path):
    project = tmp_path / "p.stet"
    data = stet_document(doc_with_audio(None))
    data["metadata"]["audio_file"] = "../gone/talk.wav"
    project.write_text(json.dumps(data), encoding="utf-8")
    # Not found: the window offers to locate it, under this name.
    assert read_any(project).metadata.audio_file == str(tmp_path.parent / "gone" / "talk.wav")


def test_the_autosave_form_keeps_the_path_as_it_is(tmp_path):
    audio = str(tmp_path / "talk.wav")
    assert stet_document(doc_with_audio(audio))["metadata"]["audio_file"] == audio
