"""The output guard every writing command uses: never over an input, never over a file unasked."""

import os

import pytest

from editor.core.errors import UserError
from editor.commandline.outputs import OutputExists, OutputIsInput, check_output, same_file


def test_a_new_file_is_fine_and_an_existing_one_needs_force(tmp_path):
    src, out = tmp_path / "talk.txt", tmp_path / "out.srt"
    src.write_text("hello")
    check_output(out, [src])
    out.write_text("old")
    with pytest.raises(OutputExists) as info:
        check_output(out, [src])
    assert "--force" in str(info.value) and str(out) in str(info.value)
    assert "\n" not in str(info.value)
    check_output(out, [src], force=True)


@pytest.mark.parametrize("spelling", ["same", "dot", "symlink", "hardlink", "folder_link"])
def test_the_input_is_refused_in_every_spelling_even_with_force(tmp_path, spelling):
    src = tmp_path / "talk.txt"
    src.write_text("raw words")
    out = {"same": lambda: src,
           "dot": lambda: tmp_path / "." / "talk.txt",
           "symlink": lambda: (tmp_path / "link.txt").symlink_to(src) or tmp_path / "link.txt",
           "hardlink": lambda: os.link(src, tmp_path / "hard.txt") or tmp_path / "hard.txt",
           "folder_link": lambda: (tmp_path / "alias").symlink_to(tmp_path) or
           tmp_path / "alias" / "talk.txt"}[spelling]()
    for force in (False, True):
        with pytest.raises(OutputIsInput) as info:
            check_output(out, [src], force=force)
        assert "never writes over its input" in str(info.value) and "\n" not in str(info.value)
    # an input given as a link to the output is the same file too
    with pytest.raises(OutputIsInput):
        check_output(src, [out], force=True)


def test_a_dangling_symlink_counts_as_existing_and_a_folder_is_refused(tmp_path):
    link = tmp_path / "dangling.txt"
    link.symlink_to(tmp_path / "nowhere.txt")
    with pytest.raises(OutputExists):
        check_output(link, [])
    check_output(link, [], force=True)
    with pytest.raises(UserError, match="folder"):
        check_output(tmp_path, [], force=True)


def test_same_file(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("x")
    b.write_text("x")
    assert same_file(a, a) and not same_file(a, b) and not same_file(a, tmp_path / "missing")
