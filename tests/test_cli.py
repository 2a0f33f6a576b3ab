"""The `stet` command, run as a user runs it: in a subprocess, judged by exit code and output."""

import subprocess
import sys

import pytest

from editor.core.formats import read_any
from editor.core.paths import resource_path

SAMPLE = resource_path("samples", "sample.srt")


def stet(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "editor", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd, timeout=120)


def test_version_and_help():
    result = stet("--version")
    assert result.returncode == 0 and result.stdout.startswith("stet ")
    for args in (["--help"], ["convert", "--help"], ["show", "--help"]):
        result = stet(*args)
        assert result.returncode == 0 and "usage:" in result.stdout


def test_no_arguments_opens_the_editor_or_explains(monkeypatch):
    from editor import cli

    if "gui" not in cli._commands(cli.build_parser()):
        result = stet()
        assert result.returncode == 0 and "convert" in result.stdout
        return
    import editor.gui.cli as gui_cli  # the window itself is tested in tests/gui

    opened = []
    monkeypatch.setattr(gui_cli, "run_gui", lambda args: opened.append(args.file) or 0)
    assert cli.main([]) == 0 and opened == [None]
    assert cli.main([str(SAMPLE)]) == 0 and opened == [None, str(SAMPLE)]  # `stet FILE`


def test_the_window_without_a_display_says_so_in_one_line(tmp_path):
    """`stet talk.srt` over ssh, with no display: Qt aborted (exit 134, a core dump) with a
    page about platform plugins. Stet says in one line why, and what works without one."""
    import os

    from editor import cli

    if "gui" not in cli._commands(cli.build_parser()) or not sys.platform.startswith("linux"):
        pytest.skip("no window in this build, or not a platform that needs DISPLAY")
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["XDG_CONFIG_HOME"] = str(tmp_path)  # never the person's own settings
    result = subprocess.run([sys.executable, "-m", "editor", str(SAMPLE)], capture_output=True,
                            text=True, env=env, timeout=120)
    assert result.returncode == 1
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("stet: error: ") and "display" in line and "stet show" in line


def test_bad_usage_exits_2():
    assert stet("convert", SAMPLE).returncode == 2
    assert stet("no-such-command").returncode == 2
    assert stet("convert", SAMPLE, "-o", "x.txt", "--policy", "1.5").returncode == 2


@pytest.mark.parametrize("command", ["convert", "restore"])
def test_batch_options_that_cannot_work_exit_2_in_one_line(tmp_path, capsys, command):
    """Many inputs with -o naming a new file, an existing file, or no -o nor --to, and --to of a
    kind Stet cannot write, are usage errors like argparse's (exit 2); a missing input is not."""
    from editor import cli

    if command not in cli._commands(cli.build_parser()):
        pytest.skip(f"no {command} command in this build")
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("a.txt", "b.txt"):
        (folder / name).write_text("hello there\n", encoding="utf-8")
    (tmp_path / "exists.txt").write_text("x", encoding="utf-8")
    for args in (["-o", tmp_path / "x.txt"], ["-o", tmp_path / "exists.txt"], [],
                 ["--to", "pdf"]):
        assert cli.main([command, str(folder), *map(str, args)]) == 2, args
        err = capsys.readouterr().err
        assert err.startswith("stet: error: ") and err.count("\n") == 1, err
    assert not (tmp_path / "x.txt").exists()
    assert cli.main([command, str(tmp_path / "missing"), str(tmp_path / "gone"), "-o",
                     str(tmp_path / "out")]) == 1


def test_srt_to_txt_keeps_every_word(tmp_path):
    result = stet("convert", SAMPLE, "-o", tmp_path / "out.txt")
    assert result.returncode == 0, result.stderr
    assert read_any(tmp_path / "out.txt").words() == read_any(SAMPLE).words()


def test_srt_to_stet_to_vtt_keeps_every_word(tmp_path):
    assert stet("convert", SAMPLE, "-o", tmp_path / "p.stet").returncode == 0
    result = stet("convert", tmp_path / "p.stet", "-o", tmp_path / "out.vtt", "--policy", "none")
    assert result.returncode == 0, result.stderr
    assert read_any(tmp_path / "out.vtt").words() == read_any(SAMPLE).words()


def test_show_and_open_file_without_gui(monkeypatch):
    shown = stet("show", SAMPLE)
    assert shown.returncode == 0 and "seed library" in shown.stdout
    from editor import cli

    if "gui" not in cli._commands(cli.build_parser()):
        opened = stet(SAMPLE)
        assert opened.returncode == 0
    missing = stet("no-such-file.srt")
    assert missing.returncode == 1 and "no such file" in missing.stderr


HOSTILE = {
    "nul.txt": b"a\0b\0" * 100,
    "random.srt": bytes(range(256)) * 4,
    "truncated.json": b'{"result": [{"word": "hi", "sta',
    "nested.json": b"[" * 200_000 + b"]" * 200_000,
    "reversed.vtt": b"WEBVTT\n\n00:09.000 --> 00:01.000\nok\n\nbroken --> line\n",
    "absurd.srt": b"1\n99999999:00:00,000 --> 99999999:00:01,000\nlater\n",
    "empty.stet": b"",
    "bad.stet": b'{"format_version": 1, "tokens": [{"id": -1, "word": "x"}]}',
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_input_is_one_line_and_exit_1(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(HOSTILE[name])
    result = stet("convert", path, "-o", tmp_path / "out.txt")
    if result.returncode == 0:  # a sane document is also an acceptable answer
        assert (tmp_path / "out.txt").exists()
        return
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("stet: error: ") and str(path) in lines[0]
    assert "Traceback" not in result.stderr


def test_a_file_without_words_is_one_line_and_exit_1_for_every_command(tmp_path):
    (tmp_path / "empty.txt").write_text("  \n\n", encoding="utf-8")
    (tmp_path / "zero-byte.srt").write_bytes(b"")
    (tmp_path / "header.vtt").write_text("WEBVTT\n\n", encoding="utf-8")
    for args in (["show", "empty.txt"], ["show", "zero-byte.srt"],
                 ["convert", "zero-byte.srt", "-o", "out.vtt"], ["convert", "header.vtt", "-o", "out.srt"],
                 ["restore", "empty.txt", "-o", "out.txt"], ["eval", "zero-byte.srt"]):
        result = stet(*args, cwd=tmp_path)
        lines = result.stderr.strip().splitlines()
        assert result.returncode == 1 and result.stdout == "", args
        assert len(lines) == 1 and f"{args[1]}: " in lines[0] and "no words" in lines[0], args
    assert not list(tmp_path.glob("out.*"))
    (tmp_path / "words.txt").write_text("some words", encoding="utf-8")
    result = stet("convert", "words.txt", "zero-byte.srt", "header.vtt", "--to", ".txt", "-o", "outs",
                  "-q", cwd=tmp_path)  # a batch: each empty file is one of its failures
    assert result.returncode == 1 and "1 of 3" in result.stderr and "2 failed" in result.stderr
    assert sorted(p.name for p in (tmp_path / "outs").iterdir()) == ["words.txt"]


@pytest.mark.parametrize("target", ["folder", "missing.srt", "unknown.xyz"])
def test_unreadable_paths(tmp_path, target):
    (tmp_path / "folder").mkdir()
    (tmp_path / "unknown.xyz").write_text("x")
    result = stet("convert", tmp_path / target, "-o", tmp_path / "out.txt")
    assert result.returncode == 1 and len(result.stderr.strip().splitlines()) == 1


def test_unwritable_output_is_a_user_error(tmp_path):
    result = stet("convert", SAMPLE, "-o", tmp_path / "no" / "such" / "dir" / "out.txt")
    assert result.returncode == 1 and result.stderr.startswith("stet: error:")
    result = stet("convert", resource_path("samples", "sample.txt"), "-o", tmp_path / "x.srt")
    assert result.returncode == 1 and "no word times" in result.stderr


def test_convert_never_writes_over_its_input_and_asks_for_force(tmp_path):
    src = tmp_path / "talk.txt"
    src.write_text("so the raw words stay as they are\n")
    before = src.read_bytes()
    (tmp_path / "link.txt").symlink_to(src)
    for out in (src, tmp_path / "link.txt"):
        for extra in ([], ["--force"]):
            result = stet("convert", src, "-o", out, *extra)
            assert result.returncode == 1 and "never writes over its input" in result.stderr
            assert len(result.stderr.strip().splitlines()) == 1
    assert src.read_bytes() == before and (tmp_path / "link.txt").is_symlink()
    other = tmp_path / "other.txt"
    other.write_text("keep me\n")
    result = stet("convert", src, "-o", other)
    assert result.returncode == 1 and "--force" in result.stderr
    assert other.read_text() == "keep me\n"
    result = stet("convert", src, "-o", other, "--force")
    assert result.returncode == 0, result.stderr
    assert other.read_text().split() == before.decode().split()


def test_convert_force_respects_read_only_and_writes_through_links(tmp_path):
    src = tmp_path / "talk.txt"
    src.write_text("hello there\n")
    locked = tmp_path / "locked.txt"
    locked.write_text("keep\n")
    locked.chmod(0o444)
    result = stet("convert", src, "-o", locked, "--force")
    assert result.returncode == 1 and "read-only" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and locked.read_text() == "keep\n"
    real = tmp_path / "real.txt"
    real.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    assert stet("convert", src, "-o", link, "--force").returncode == 0
    assert link.is_symlink() and real.read_text().split() == ["hello", "there"]


def test_convert_commas_style_leaves_out_the_unsure_commas_of_a_project_alone_and_in_a_batch(tmp_path):
    from editor.core.document.records import CHOICE, Kind, Suggestion
    from editor.core.document.transcript import Token, Transcript
    from editor.core.formats import write_any

    doc = Transcript([Token(w) for w in "so we went home and then we ate and slept".split()])
    t = doc.tokens
    doc.set_suggestions([
        Suggestion(t[0].id, Kind.PUNCT, ",", {",": 0.6, "": 0.35, ".": 0.05}),  # unsure: left out
        Suggestion(t[3].id, Kind.PUNCT, ",", {",": 0.5, ".": 0.3, "": 0.2}),  # a sentence may end: kept
        Suggestion(t[5].id, Kind.PUNCT, ",", {",": 0.95, "": 0.05}),  # sure: kept
        Suggestion(t[7].id, Kind.PUNCT, ",", {",": 0.4, "": 0.6}, source=CHOICE),  # the person's choice: kept
        Suggestion(t[9].id, Kind.PUNCT, ".", {".": 0.99, "": 0.01})])
    project = tmp_path / "talk.stet"
    write_any(doc, project)
    assert stet("convert", project, "-o", tmp_path / "all.txt").returncode == 0
    assert (tmp_path / "all.txt").read_text().strip() == "so, we went home, and then, we ate, and slept."
    r = stet("convert", project, "-o", tmp_path / "sure.txt", "--commas", "sure")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "sure.txt").read_text().strip() == "so we went home, and then, we ate, and slept."
    assert stet("convert", project, "-o", tmp_path / "sure.stet", "--commas", "sure").returncode == 0
    kept = read_any(tmp_path / "sure.stet")
    assert kept.suggestion(kept[0].id, Kind.PUNCT) is None  # neither written nor kept pending
    assert kept.suggestion(kept[3].id, Kind.PUNCT).value == ","
    (tmp_path / "in").mkdir()
    for name in ("a.stet", "b.stet"):
        write_any(doc, tmp_path / "in" / name)
    r = stet("convert", tmp_path / "in", "-o", tmp_path / "out", "--to", ".txt", "--commas", "sure", "-q")
    assert r.returncode == 0, r.stderr
    for name in ("a.txt", "b.txt"):
        assert (tmp_path / "out" / name).read_text().strip() == "so we went home, and then, we ate, and slept."


def test_restore_and_the_window_offer_the_same_restoration_models():
    """`stet gui --help` named no shipped model (`stet restore --help` named the open model, the one
    for paid work); both now take --model and --device from one declaration, the window's defaults
    left to its Settings."""
    from editor import cli

    parser = cli.build_parser()
    commands = cli._commands(parser)
    for name in ("restore", "gui"):
        if name not in commands:
            continue
        text = "".join(commands[name].format_help().split())  # wrapped at spaces and hyphens
        assert "stet-en-open-minilm-bilstm-crf,trainedonpublic-domaintextonly,maybeusedforpaid" in text
        assert "stet-en-bilstm-crfisthefastwordmodel" in text
    if "gui" in commands:
        args = parser.parse_args(["gui"])
        assert args.model is None and args.device is None  # Settings choose
        assert "default:Settings,else$STET_RESTORE_MODEL" in "".join(commands["gui"].format_help().split())
    if "restore" in commands:
        args = parser.parse_args(["restore", "x.txt"])
        assert args.model is None and args.device == "auto"
