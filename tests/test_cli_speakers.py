"""`stet speakers FILE` lists them; `stet convert --speaker OLD=NEW` renames and merges."""

from editor.cli import main
from editor.core.formats import read_any

DIARIZED = "".join(f"{k}\n00:00:0{k},000 --> 00:00:0{k},900\n[SPEAKER_0{n}]: {text}\n\n"
                   for k, (n, text) in enumerate([(0, "Hello there."), (1, "Hi, how are you?"),
                                                  (0, "Fine, thanks."), (2, "Me too.")], 1))


def test_speakers_lists_names_words_and_shares(tmp_path, capsys):
    path = tmp_path / "d.srt"
    path.write_text(DIARIZED)
    assert main(["speakers", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["speaker", "words", "share", "time", "turns"]
    assert out[1].split()[:3] == ["SPEAKER_00", "4", "40.0%"] and out[1].split()[-1] == "2"
    assert [line.split()[0] for line in out[1:]] == ["SPEAKER_00", "SPEAKER_01", "SPEAKER_02"]


def test_speakers_of_a_file_without_any_says_so(tmp_path, capsys):
    path = tmp_path / "plain.txt"
    path.write_text("just some words\n")
    assert main(["speakers", str(path)]) == 0
    assert "no speakers" in capsys.readouterr().out


def test_convert_renames_and_merges(tmp_path):
    path, out = tmp_path / "d.srt", tmp_path / "d.txt"
    path.write_text(DIARIZED)
    assert main(["convert", str(path), "-o", str(out), "--speaker", "SPEAKER_00=Ann",
                 "--speaker", "SPEAKER_01=Bob", "--speaker", "SPEAKER_02=Bob"]) == 0
    assert out.read_text() == ("Ann: Hello there.\n\nBob: Hi, how are you?\n\nAnn: Fine, thanks.\n\n"
                               "Bob: Me too.\n")
    assert [t.speaker for t in read_any(out).tokens][-2:] == ["Bob", "Bob"]


def test_convert_refuses_a_speaker_the_file_lacks(tmp_path, capsys):
    path, out = tmp_path / "d.srt", tmp_path / "d.txt"
    path.write_text(DIARIZED)
    assert main(["convert", str(path), "-o", str(out), "--speaker", "Speaker 9=Ann"]) == 1
    err = capsys.readouterr().err
    assert "no speaker 'Speaker 9'" in err and "SPEAKER_00" in err and not out.exists()
    assert main(["convert", str(path), "-o", str(out), "--speaker", "Ann"]) == 2


def test_convert_writes_subrip_dialogue_dashes(tmp_path):
    path, out = tmp_path / "two.vtt", tmp_path / "two.srt"
    path.write_text("WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n<v Ann>Hello there.\n<v Bob>Hi.\n")
    assert main(["convert", str(path), "-o", str(out), "--srt-speakers", "dash"]) == 0
    assert out.read_text().endswith("\n- Hello there.\n- Hi.\n")
