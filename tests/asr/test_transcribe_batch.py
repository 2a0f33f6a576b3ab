"""`stet transcribe` over a folder of recordings: one model load per worker, the same transcripts as
one file at a time, and a file that is not audio reported without stopping the others."""

from __future__ import annotations

import subprocess
import sys


def stet(*args):
    return subprocess.run([sys.executable, "-m", "editor", *map(str, args)], capture_output=True,
                          text=True, timeout=600)


def test_a_folder_of_recordings_gives_the_transcripts_of_single_runs(tmp_path, korean_speech,
                                                                     korean_model, audio_tools):
    src = tmp_path / "recordings"
    (src / "day2").mkdir(parents=True)
    (src / "one.wav").write_bytes(korean_speech.read_bytes())
    audio_tools.encode(korean_speech, src / "day2" / "two.mp3")
    (src / "broken.wav").write_bytes(b"RIFF not really a wave file")
    (src / "notes.txt").write_text("not a recording: left alone in a folder")
    run = stet("transcribe", src, "-r", "-o", tmp_path / "out", "--to", "srt", "--model", korean_model)
    assert run.returncode == 1, run.stderr
    assert "broken.wav" in run.stderr and "Traceback" not in run.stderr, run.stderr
    assert "transcribed 2 of 3 files" in run.stderr, run.stderr
    outs = sorted(p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*.srt"))
    assert outs == ["day2/two.srt", "one.srt"]
    for name, audio in (("one.srt", src / "one.wav"), ("day2/two.srt", src / "day2" / "two.mp3")):
        single = tmp_path / "single.srt"
        r = stet("transcribe", audio, "-o", single, "--model", korean_model, "--force")
        assert r.returncode == 0, r.stderr
        assert (tmp_path / "out" / name).read_bytes() == single.read_bytes(), name
