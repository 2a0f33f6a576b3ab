"""--encoding reaches every input of a batch, as it does a single run."""

from editor.cli import main
from editor.core import render
from editor.core.formats import read_any


def test_convert_batch_reads_every_input_in_the_named_encoding(tmp_path):
    for name in ("a", "b"):
        (tmp_path / f"{name}.srt").write_bytes(
            f"1\n00:00:01,000 --> 00:00:02,000\nПривет, как дела? {name}\n".encode("koi8-r"))
    out = tmp_path / "out"
    code = main(["convert", str(tmp_path / "a.srt"), str(tmp_path / "b.srt"), "-o", str(out),
                 "--to", ".txt", "--encoding", "koi8-r", "-j", "1", "-q"])
    assert code == 0
    # KOI8-R is guessed wrong on a text this short: the named encoding must reach the workers
    assert render(read_any(out / "a.txt")) == "Привет, как дела? a"
    assert render(read_any(out / "b.txt")) == "Привет, как дела? b"
