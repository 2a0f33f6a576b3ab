"""Every error path of the command line, as a person meets it: one line per error, no traceback,
and the line names what it is about (the file, the folder or the option). `stet restore
nothere.txt x.srt -o one.txt` said "-o one.txt: 1 input from a batch need a folder": the missing
file unnamed, and the grammar off; argparse's errors came after four lines of usage."""

import wave

import pytest

from editor import cli

SRT = "1\n00:00:01,000 --> 00:00:02,000\nhello there\n\n2\n00:00:02,500 --> 00:00:03,000\nagain\n"

#: (arguments, what the error line must name, exit status). Paths are relative to a folder
#: holding x.srt, in.txt (no times), quiet.wav (half a second of silence), exists.txt, folder/.
CASES = [
    # inputs that are not there, or not what the command reads
    ("restore nothere.txt x.srt -o one.txt", ["nothere.txt", "-o one.txt", "folder"], 2),
    ("restore nothere.txt", ["nothere.txt"], 1),
    ("restore nothere*.txt folder -o out", ["nothere*.txt"], 1),
    ("convert nothere.srt -o o.txt", ["nothere.srt"], 1),
    ("show nothere.txt", ["nothere.txt"], 1),
    ("show folder", ["folder"], 1),
    ("speakers nothere.txt", ["nothere.txt"], 1),
    ("transcribe nothere.wav", ["nothere.wav"], 1),
    ("transcribe in.txt", ["in.txt"], 1),
    ("stet-nothere.srt", ["stet-nothere.srt"], 1),
    # outputs: over the input, an existing file, a folder, a kind Stet cannot write, no folder
    ("restore x.srt -o x.srt", ["x.srt", "input"], 1),
    ("convert x.srt -o x.srt", ["x.srt", "input"], 1),
    ("restore x.srt -o exists.txt", ["exists.txt", "--force"], 1),
    ("convert x.srt -o exists.txt", ["exists.txt", "--force"], 1),
    ("restore x.srt -o out.xyz", ["out.xyz"], 1),
    ("convert x.srt -o out.xyz", ["out.xyz"], 1),
    ("transcribe quiet.wav -o out.xyz", ["out.xyz"], 1),
    ("transcribe quiet.wav -o x.srt", ["x.srt"], 1),
    ("restore x.srt -o nodir/out.txt", ["nodir/out.txt"], 1),
    ("convert x.srt -o nodir/out.txt", ["nodir/out.txt"], 1),
    # many inputs
    ("convert x.srt in.txt -o exists.txt", ["exists.txt", "-o"], 2),
    ("convert x.srt in.txt", ["-o FOLDER"], 2),
    ("convert x.srt in.txt --to .xyz", ["--to .xyz"], 2),
    ("restore x.srt in.txt -o one.txt", ["-o one.txt", "2 inputs"], 2),
    # options with bad values
    ("restore x.srt --min-confidence 2", ["--min-confidence", "'2'"], 2),
    ("restore x.srt --policy x", ["--policy"], 2),
    ("convert x.srt -o o.txt --policy 7", ["--policy", "'7'"], 2),
    ("restore x.srt --encoding nope", ["--encoding", "'nope'"], 2),
    ("convert x.srt -o o.txt --encoding nope", ["--encoding", "'nope'"], 2),
    ("restore x.srt --to xx/y -o folder", ["--to", "'xx/y'"], 2),
    ("restore x.srt -j 0 -o folder", ["--jobs", "'0'"], 2),
    ("restore x.srt --device tpu", ["--device", "'tpu'"], 2),
    ("restore x.srt --learned-from nope -o o.txt", ["--learned-from", "'nope'"], 1),
    ("restore x.srt --model nothere-model -o o.txt", ["nothere-model"], 1),
    ("convert x.srt -o o.txt --speaker bad", ["--speaker", "'bad'"], 2),
    ("convert x.srt -o o.txt --speaker Nobody=Ann", ["'Nobody'", "x.srt"], 1),
    ("convert x.srt", ["-o/--output"], 2),
    ("transcribe quiet.wav --speakers 0", ["--speakers", "'0'"], 2),
    ("transcribe quiet.wav --language ", ["--language"], 1),
    ("transcribe quiet.wav --model nothere-model", ["nothere-model"], 1),
    ("gui --timeout x", ["--timeout", "'x'"], 2),
    ("models download zz-nothere", ["'zz-nothere'"], 1),
    ("models list -l zz", ["--language zz"], 1),
    ("models", ["list", "download", "path"], 2),
    ("models frob", ["'frob'"], 2),
    ("frobnicate", ["'frobnicate'"], 2),
    ("restore", ["IN"], 2),
    ("restore x.srt --no-such-option", ["--no-such-option"], 2),
]


@pytest.fixture
def folder(tmp_path, monkeypatch):
    (tmp_path / "x.srt").write_text(SRT, encoding="utf-8")
    (tmp_path / "in.txt").write_text("hello there\n", encoding="utf-8")
    (tmp_path / "exists.txt").write_text("here before\n", encoding="utf-8")
    (tmp_path / "folder").mkdir()
    with wave.open(str(tmp_path / "quiet.wav"), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(b"\0\0" * 8000)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path


def _stet(argv, capsys):
    try:
        rc = cli.main(argv)
    except SystemExit as stop:  # argparse's way out
        rc = stop.code
    return rc, capsys.readouterr().err


@pytest.mark.parametrize("command, subjects, status", CASES, ids=[c[0] for c in CASES])
def test_each_error_is_one_line_naming_its_subject(folder, capsys, command, subjects, status):
    argv = command.split(" ")
    if argv[-1] == "":  # an empty value, as `--language ""` gives it
        argv[-1:] = [""]
    rc, err = _stet(argv, capsys)
    assert rc == status, err
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if "error:" in line]
    assert len(errors) == 1, err
    line = errors[0]
    assert line.startswith("stet") and "usage:" not in err, err
    for subject in subjects:
        assert subject in line, (subject, line)
    # plain grammar: never a count that disagrees with its noun ("1 input ... need")
    assert " 1 inputs" not in line and "1 input from a batch need" not in line
    for stray in ("output/written", "None", "errno"):
        assert stray not in line, line


def test_a_batch_names_each_file_it_refuses(folder, capsys):
    """Two inputs that each fail: a line for each, naming it."""
    rc, err = _stet(["convert", "x.srt", "in.txt", "--to", ".srt"], capsys)
    assert rc == 1
    errors = [line for line in err.splitlines() if "error:" in line]
    assert len(errors) == 2 and "Traceback" not in err
    assert any(line.startswith("stet: error: x.srt:") for line in errors), errors
    assert any(line.startswith("stet: error: in.txt:") for line in errors), errors
