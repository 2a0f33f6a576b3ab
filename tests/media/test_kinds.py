"""Which recording lies beside a transcript, by name alone."""

from __future__ import annotations

from editor.media.kinds import recording_beside


def touch(path):
    path.write_bytes(b"")
    return path


def test_the_recording_with_the_same_name_is_found(tmp_path):
    srt = touch(tmp_path / "talk.srt")
    assert recording_beside(srt) is None
    touch(tmp_path / "other.mp3")
    touch(tmp_path / "talk.txt")
    assert recording_beside(srt) is None
    mp4 = touch(tmp_path / "talk.mp4")
    assert recording_beside(srt) == mp4
    wav = touch(tmp_path / "talk.wav")
    assert recording_beside(srt) == wav  # audio before video


def test_case_and_a_language_in_the_name_are_allowed_for(tmp_path):
    audio = touch(tmp_path / "Talk.MP3")
    assert recording_beside(tmp_path / "talk.json") == audio
    video = touch(tmp_path / "lecture.webm")
    assert recording_beside(tmp_path / "lecture.en.vtt") == video
    own = touch(tmp_path / "lecture.en.m4a")
    assert recording_beside(tmp_path / "lecture.en.vtt") == own  # the whole name first


def test_no_folder_or_a_recording_itself_gives_none(tmp_path):
    assert recording_beside(tmp_path / "missing" / "talk.srt") is None
    touch(tmp_path / "talk.wav")
    assert recording_beside(tmp_path / "talk.wav") is None
    (tmp_path / "talk.ogg").mkdir()  # a folder is no recording
    assert recording_beside(tmp_path / "talk.vtt") == tmp_path / "talk.wav"
