"""`stet restore` and `stet eval` as a user runs them (subprocess), with a tiny model."""

import json
import subprocess
import sys

from editor.core.formats import read_any


def stet(*args, **kw):
    return subprocess.run([sys.executable, "-m", "editor", *map(str, args)], capture_output=True, text=True, **kw)


def test_restore_to_stet_keeps_suggestions_pending_and_text_applies_them(tiny_model_dir, tmp_path):
    src = tmp_path / "raw.txt"
    src.write_text("so what is the iphone for i asked and you said it is okay " * 3)
    out = tmp_path / "out.stet"
    r = stet("restore", src, "-o", out, "--model", tiny_model_dir, "--device", "cpu")
    assert r.returncode == 0, r.stderr
    doc = read_any(out)
    assert doc.words() == src.read_text().split()
    assert doc.pending() and all(s.state == "pending" for s in doc.suggestions())
    txt = stet("restore", src, "--model", tiny_model_dir, "--device", "cpu")
    assert txt.returncode == 0 and txt.stdout.strip()
    none = stet("restore", src, "--model", tiny_model_dir, "--min-confidence", "1.0")
    assert none.stdout.split() == src.read_text().split()


def test_restore_errors_are_one_line(tiny_model_dir, tmp_path):
    for args in (["restore", tmp_path / "missing.txt"], ["restore", __file__, "--model", tmp_path]):
        r = stet(*args)
        assert r.returncode == 1 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    assert stet("restore", __file__, "--min-confidence", "2").returncode == 2
    # a folder (many inputs) with neither -o FOLDER nor --to is wrong usage, said in one line
    r = stet("restore", tmp_path, "--model", tiny_model_dir)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "-o FOLDER" in r.stderr, r.stderr


def test_eval_reads_iwslt_tsv(tiny_model_dir, tmp_path):
    tsv = tmp_path / "dev.tsv"
    tsv.write_text("hello\tCOMMA\ni\tO\ndo\tO\nn't\tO\nknow\tPERIOD\nwhy\tQUESTION\n")
    r = stet("eval", tsv, "--json", "--model", tiny_model_dir)
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)
    assert res["words"] == 5 and res["overall"]["support"] == 3


def test_eval_with_simulated_recognition_errors(tiny_model_dir, tmp_path):
    tsv = tmp_path / "dev.tsv"
    tsv.write_text("".join(f"w{i % 7}\t{'PERIOD' if i % 9 == 8 else 'O'}\n" for i in range(2000)))
    r = stet("eval", tsv, "--json", "--simulate-asr-errors", "--model", tiny_model_dir)
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)
    assert "simulated recognition errors (seed 0)" in res["kind"]
    assert res["words"] != 2000 and 0.95 * 222 <= res["overall"]["support"] <= 222
    txt = tmp_path / "talk.txt"
    txt.write_text("# talk\nHello there. How are you?\n")
    r = stet("eval", txt, "--simulate-asr-errors", "--model", tiny_model_dir)
    assert r.returncode == 1 and "only on IWSLT-style" in r.stderr and "Traceback" not in r.stderr


def test_eval_with_recogniser_like_errors(tiny_model_dir, tmp_path):
    tsv = tmp_path / "dev.tsv"
    words = "their there into in to the cat cut someone some one".split()
    tsv.write_text("".join(f"{words[i % len(words)]}\t{'PERIOD' if i % 9 == 8 else 'O'}\n" for i in range(2000)))
    r = stet("eval", tsv, "--json", "--simulate-asr-errors", "3", "--asr-noise", "recognizer", "--model", tiny_model_dir)
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)
    assert "recogniser-like recognition errors (seed 3)" in res["kind"] and res["words"] != 2000
    r = stet("eval", tsv, "--asr-noise", "recognizer", "--model", tiny_model_dir)
    assert r.returncode == 1 and "goes with --simulate-asr-errors" in r.stderr and "Traceback" not in r.stderr


def test_eval_case_odds_sets_the_strength_of_remembered_case_forms(tiny_model_dir, tmp_path, monkeypatch):
    """`stet eval --simulate-review SHARE --case-odds X`: the review's remembered case forms count X."""
    from editor.restore.passes.inference import Restorer
    from editor.restore.lab.scoring import score_file
    from editor.restore.learning.review_lessons import CASE_MEMORY_ODDS, Adaptation

    talk = tmp_path / "talk.txt"
    body = " ".join(["We met zarvex at the station, and zarvex said so."] * 60)
    talk.write_text(f"{body}\n\n{body}\n")
    used: list[float] = []
    apply = Adaptation.apply
    monkeypatch.setattr(Adaptation, "apply", lambda self, *a: used.append(self.case_odds) or apply(self, *a))
    restorer = Restorer.load(str(tiny_model_dir), "cpu")
    for odds, expected in ((None, CASE_MEMORY_ODDS), (7.0, 7.0)):
        used.clear()
        assert "simulate_review" in score_file(restorer, talk, simulate_review=0.2, case_odds=odds)
        assert used and set(used) == {expected}
    r = stet("eval", talk, "--case-odds", "3", "--model", tiny_model_dir)
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "goes with --simulate-review" in r.stderr


def test_restore_of_a_file_without_words_says_so_and_writes_nothing(tiny_model_dir, tmp_path):
    for name, content in (("empty.txt", ""), ("blank.txt", "  \n\n \t\n")):
        src, out = tmp_path / name, tmp_path / f"{name}.stet"
        src.write_text(content)
        r = stet("restore", src, "-o", out, "--model", tiny_model_dir)
        assert r.returncode == 1 and "no words" in r.stderr and str(src) in r.stderr, r.stderr
        assert not out.exists()


def test_eval_help_states_the_simulated_error_rates_training_uses():
    from editor.restore.model.labels import ASR_ERRORS

    r = stet("eval", "--help")
    flat = " ".join(r.stdout.split())
    for verb, key in (("substituted", "substitute"), ("dropped", "delete"), ("inserted", "insert")):
        assert f"{100 * ASR_ERRORS[key]:g} % of words {verb}" in flat


def test_eval_refuses_a_binary_file_and_warns_about_a_guessed_encoding(tiny_model_dir, tmp_path):
    binary = tmp_path / "noise.txt"
    binary.write_bytes(bytes(range(256)) * 40)
    r = stet("eval", binary, "--model", tiny_model_dir)
    assert r.returncode == 1 and "binary" in r.stderr and "Traceback" not in r.stderr, r.stderr
    cp1252 = tmp_path / "talk.txt"
    cp1252.write_bytes("# talk\nCaf\xe9 society. Is it open? Yes, it is.\n".encode("cp1252"))
    r = stet("eval", cp1252, "--model", tiny_model_dir)
    assert r.returncode == 0 and "Windows-1252" in r.stderr, r.stderr
    # the text report shows the reliability tables, not only the calibration error
    assert "reliability of shown punct suggestions" in r.stdout and "reliability of shown case" in r.stdout


def test_restore_to_a_missing_folder_is_refused_before_the_model_runs(tiny_model_dir, tmp_path):
    src = tmp_path / "raw.txt"
    src.write_text("so what is it for")
    r = stet("restore", src, "-o", tmp_path / "nope" / "out.txt", "--model", tmp_path / "no-model-here")
    assert r.returncode == 1 and "does not exist" in r.stderr and "no-model-here" not in r.stderr, r.stderr


def test_restore_never_writes_over_its_input_and_asks_for_force(tiny_model_dir, tmp_path):
    src = tmp_path / "raw.txt"
    src.write_text("so what is it for\n")
    hard = tmp_path / "hard.txt"
    hard.hardlink_to(src)
    for out in (src, hard):
        r = stet("restore", src, "-o", out, "--force", "--model", tiny_model_dir, "--device", "cpu")
        assert r.returncode == 1 and "never writes over its input" in r.stderr, r.stderr
    assert src.read_text() == "so what is it for\n"
    other = tmp_path / "other.stet"
    other.write_text("keep")
    r = stet("restore", src, "-o", other, "--model", tiny_model_dir, "--device", "cpu")
    assert r.returncode == 1 and "--force" in r.stderr and other.read_text() == "keep"
    r = stet("restore", src, "-o", other, "-f", "--model", tiny_model_dir, "--device", "cpu")
    assert r.returncode == 0, r.stderr
    assert read_any(other).words() == ["so", "what", "is", "it", "for"]



def test_restore_commas_style_reaches_the_decision_rule_alone_and_in_a_batch(tiny_model_dir, tmp_path, monkeypatch):
    """`--commas STYLE` is the pass's comma line, for one file and for a batch's jobs; a style
    that is none is wrong usage. (What the line does is tests/restore/passes/test_decision.py's.)"""
    import editor.restore.passes.inference as inference
    from editor.batch.cli import job_for
    from editor.cli import build_parser
    from editor.core.commas import DEFAULT_COMMAS
    from editor.core.document.transcript import Transcript
    from editor.restore.cli import pass_settings
    from editor.restore.passes.pipeline import restore_transcript

    parser = build_parser()
    args = parser.parse_args(["restore", "in.txt", "--commas", "sure"])
    assert pass_settings(args).commas == "sure"
    assert pass_settings(parser.parse_args(["restore", "in.txt"])).commas == DEFAULT_COMMAS
    batch = parser.parse_args(["restore", str(tmp_path), "-o", str(tmp_path / "out"), "--commas", "every-pause"])
    batch.batch = "restore"
    assert job_for(batch).settings.commas == "every-pause"
    lines = []
    real = inference.decide_jointly

    def spy(*a, **kw):
        lines.append(kw["comma_line"])
        return real(*a, **kw)
    monkeypatch.setattr(inference, "decide_jointly", spy)
    restorer = inference.Restorer.load(str(tiny_model_dir), "cpu")
    restore_transcript(restorer, Transcript.from_text("so what is it for i asked and you said okay"),
                       pass_settings(args))
    assert lines and set(lines) == {0.9}
    r = stet("restore", tmp_path / "in.txt", "--commas", "lots")
    assert r.returncode == 2 and "invalid choice: 'lots'" in r.stderr
