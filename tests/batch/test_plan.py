"""Which files a batch reads and where their outputs go (pure path logic, no model)."""

import os
import time

import pytest

from editor.batch.plan import expand_inputs, make_plan, output_for
from editor.commandline.arguments import batch_requested
from editor.core.errors import UserError
from editor.core.formats import can_read, can_write


def tree(root, *names):
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("some words here")
    return root


def plan(specs, **kw):
    options = dict(out_dir=None, to=None, recursive=False, force=False, wanted=can_read, writable=can_write)
    options.update(kw)
    return make_plan([str(s) for s in specs], **options)


def test_a_folder_gives_its_transcripts_and_sub_folders_only_when_recursive(tmp_path):
    tree(tmp_path, "a.txt", "b.srt", "notes.pdf", ".hidden.txt", "sub/c.vtt", ".git/d.txt")
    found, missing = expand_inputs([str(tmp_path)], recursive=False, wanted=can_read)
    assert [p.name for p, _ in found] == ["a.txt", "b.srt"] and not missing
    found, _ = expand_inputs([str(tmp_path)], recursive=True, wanted=can_read)
    assert sorted(p.name for p, _ in found) == ["a.txt", "b.srt", "c.vtt"]


def test_globs_files_and_folders_are_taken_once_and_missing_ones_said(tmp_path):
    tree(tmp_path, "a.txt", "b.txt", "x/c.txt")
    specs = [str(tmp_path / "*.txt"), str(tmp_path / "a.txt"), str(tmp_path / "nope.txt"),
             str(tmp_path / "x")]
    found, missing = expand_inputs(specs, recursive=False, wanted=can_read)
    assert [p.name for p, _ in found] == ["a.txt", "b.txt", "c.txt"]
    assert len(missing) == 1 and "nope.txt: no such file or folder" in missing[0]


def test_outputs_mirror_the_inputs_under_the_output_folder(tmp_path):
    tree(tmp_path / "in", "a.txt", "deep/er/b.srt")
    p = plan([tmp_path / "in"], out_dir=tmp_path / "out", to=".stet", recursive=True)
    assert sorted(str(i.output.relative_to(tmp_path)) for i in p.todo) == [
        os.path.join("out", "a.stet"), os.path.join("out", "deep", "er", "b.stet")]
    assert output_for(tmp_path / "in" / "talk", tmp_path / "in", None, ".txt") == tmp_path / "in" / "talk.txt"


def test_outputs_written_inside_an_input_folder_are_not_read_back(tmp_path):
    tree(tmp_path, "a.txt", "out/a.srt")
    p = plan([tmp_path], out_dir=tmp_path / "out", to=".srt", recursive=True)
    assert [i.source.name for i in p.todo + p.skipped] == ["a.txt"] and not p.refused


def test_resume_skips_newer_outputs_refuses_older_ones_and_force_redoes_both(tmp_path):
    tree(tmp_path / "in", "new.txt", "old.txt")
    tree(tmp_path / "out", "new.srt", "old.srt")
    past = time.time() - 100
    os.utime(tmp_path / "out" / "old.srt", (past, past))
    os.utime(tmp_path / "in" / "new.txt", (past, past))
    p = plan([tmp_path / "in"], out_dir=tmp_path / "out", to=".srt")
    assert [i.source.name for i in p.skipped] == ["new.txt"]
    assert len(p.refused) == 1 and "--force" in p.refused[0][1] and not p.todo
    p = plan([tmp_path / "in"], out_dir=tmp_path / "out", to=".srt", force=True)
    assert sorted(i.source.name for i in p.todo) == ["new.txt", "old.txt"]


def test_an_output_never_replaces_an_input_and_two_inputs_never_share_an_output(tmp_path):
    tree(tmp_path, "a.txt", "a.srt", "b.stet", "b.txt")
    p = plan([tmp_path / "a.txt", tmp_path / "a.srt"], to=".stet", force=True)
    assert [i.source.name for i in p.todo] == ["a.txt"]
    assert "also the output of" in p.refused[0][1]
    p = plan([tmp_path / "b.stet", tmp_path / "b.txt"], to=".txt", force=True)
    assert not p.todo and len(p.refused) == 2  # b.stet -> b.txt is an input; b.txt -> itself
    assert all("would replace an input" in why for _, why in p.refused)


def test_mistakes_in_the_command_are_one_clear_error(tmp_path):
    tree(tmp_path, "a.txt", "b.txt")
    with pytest.raises(UserError, match="give -o FOLDER"):
        plan([tmp_path])
    with pytest.raises(UserError, match="cannot write"):
        plan([tmp_path], to=".pdf")
    with pytest.raises(UserError, match="this is a file"):
        plan([tmp_path], out_dir=tmp_path / "a.txt")
    with pytest.raises(UserError, match="no such file"):
        plan([tmp_path / "missing"], to=".srt")
    (tmp_path / "empty").mkdir()
    with pytest.raises(UserError, match="no file Stet can take"):
        plan([tmp_path / "empty"], to=".srt")
    p = plan([tmp_path / "a.txt"], out_dir=tmp_path / "o")  # no --to: each input's own format
    assert p.todo[0].output == tmp_path / "o" / "a.txt"


def test_one_file_in_one_file_out_stays_a_single_run(tmp_path):
    import argparse

    tree(tmp_path, "a.txt", "b.txt")
    (tmp_path / "out").mkdir()

    def args(inputs, output=None, **kw):
        base = dict(input=[str(i) for i in inputs], output=output and str(output), recursive=False,
                    to=None, jobs=None, ray=None, batch_inputs="input")
        base.update(kw)
        return argparse.Namespace(**base)

    assert not batch_requested(args([tmp_path / "a.txt"], tmp_path / "x.srt"))
    assert not batch_requested(args([tmp_path / "a.txt"]))
    assert batch_requested(args([tmp_path / "a.txt", tmp_path / "b.txt"], tmp_path / "out"))
    assert batch_requested(args([tmp_path], tmp_path / "out"))
    assert batch_requested(args([tmp_path / "a.txt"], tmp_path / "out"))
    assert batch_requested(args([str(tmp_path / "*.txt")], tmp_path / "o2"))
    assert batch_requested(args([tmp_path / "a.txt"], to=".srt"))


def test_many_inputs_with_o_naming_a_new_file_are_refused_not_made_a_folder(tmp_path):
    tree(tmp_path / "in", "a.txt", "b.txt", "c.txt")
    target = tmp_path / "single.txt"
    with pytest.raises(UserError, match=r"in gives 3 inputs \(a batch\), so -o \S*single\.txt must name a folder, not a file: "
                                        r"give -o FOLDER \(and --to txt\)"):
        plan([tmp_path / "in"], out_dir=target)
    assert not target.exists()
    target.mkdir()  # an existing folder with a suffix in its name is used as the folder
    p = plan([tmp_path / "in"], out_dir=target, to=".srt")
    assert sorted(i.output.name for i in p.todo) == ["a.srt", "b.srt", "c.srt"]
    assert all(i.output.parent == target for i in p.todo)
