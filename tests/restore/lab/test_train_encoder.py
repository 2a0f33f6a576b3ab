"""`stet train --family encoder` on a tiny corpus with a tiny published-style encoder: a run writes
its weights in parts and its record, running the command again continues it, and --export tunes it
into a model directory that Stet loads."""

import gzip
import json

import pytest
import torch

from editor.cli import main
from editor.restore.passes.inference import Restorer

from ..conftest import tiny_tokenizer

TEXT = ("So what is it for? I asked, and you said it is okay. Yes, we know. "
        "The iPhone was new; how did it work? Well, it did.\n")


@pytest.fixture
def encoder_dir(tmp_path):
    """A BERT checkpoint in the published layout (Hugging Face names, safetensors), 2 layers of 16."""
    from safetensors.torch import save_file

    tok = tiny_tokenizer()
    V, H, inner, P = tok.get_vocab_size(), 16, 32, 512
    g = torch.Generator().manual_seed(0)

    def r(*shape):
        return torch.randn(*shape, generator=g) * 0.1

    hf = {"embeddings.word_embeddings.weight": r(V, H), "embeddings.position_embeddings.weight": r(P, H),
          "embeddings.token_type_embeddings.weight": r(2, H), "embeddings.LayerNorm.weight": torch.ones(H),
          "embeddings.LayerNorm.bias": torch.zeros(H)}
    for i in range(2):
        p = f"encoder.layer.{i}"
        for n in ("query", "key", "value"):
            hf[f"{p}.attention.self.{n}.weight"], hf[f"{p}.attention.self.{n}.bias"] = r(H, H), r(H)
        hf[f"{p}.attention.output.dense.weight"], hf[f"{p}.attention.output.dense.bias"] = r(H, H), r(H)
        hf[f"{p}.attention.output.LayerNorm.weight"], hf[f"{p}.attention.output.LayerNorm.bias"] = torch.ones(H), torch.zeros(H)
        hf[f"{p}.intermediate.dense.weight"], hf[f"{p}.intermediate.dense.bias"] = r(inner, H), r(inner)
        hf[f"{p}.output.dense.weight"], hf[f"{p}.output.dense.bias"] = r(H, inner), r(H)
        hf[f"{p}.output.LayerNorm.weight"], hf[f"{p}.output.LayerNorm.bias"] = torch.ones(H), torch.zeros(H)
    d = tmp_path / "minilm"
    d.mkdir()
    save_file(hf, str(d / "model.safetensors"))
    (d / "config.json").write_text(json.dumps({
        "vocab_size": V, "hidden_size": H, "num_hidden_layers": 2, "num_attention_heads": 2, "intermediate_size": inner,
        "max_position_embeddings": P, "type_vocab_size": 2, "layer_norm_eps": 1e-12, "hidden_act": "gelu"}))
    tok.save(str(d / "tokenizer.json"))
    return d


@pytest.fixture
def data_dir(tmp_path):
    (tmp_path / "data" / "train").mkdir(parents=True)
    (tmp_path / "data" / "dev").mkdir()
    with gzip.open(tmp_path / "data" / "train" / "ted_saranyan.txt.gz", "wt", encoding="utf-8") as f:
        for d in range(20):
            f.write(f"# talk {d}\n" + TEXT * 6)
    (tmp_path / "data" / "dev" / "dev2012.tsv").write_text(
        "so\tO\nwhat\tO\nis\tO\nit\tO\nfor\tQUESTION\ni\tO\nasked\tCOMMA\nyes\tPERIOD\n" * 20)
    (tmp_path / "data" / "dev" / "ted_dev2012_talks.txt").write_text("".join(f"# talk {d}\n" + TEXT * 3 for d in range(4)))
    return tmp_path / "data"


def _train(data_dir, run, *extra):
    return main(["train", "--family", "encoder", "--data", str(data_dir), "--out", str(run), "--device", "cpu",
                 "--seconds", "12", "--words-per-batch", "120", "--workers", "0", "--eval-seconds", "2",
                 "--sources", "ted_saranyan=1", *extra])


def test_an_encoder_run_continues_and_exports_a_model_stet_loads(encoder_dir, data_dir, tmp_path, capsys):
    run = tmp_path / "run"
    assert _train(data_dir, run, "--encoder", str(encoder_dir)) == 0
    record = json.loads((run / "run.json").read_text())
    assert record["family"] == "encoder-bilstm-crf" and record["seen"] > 0 and record["parts"]
    assert record["origin"]["encoder_sha256"] and (run / "tokenizer.json").is_file()
    first = record["seen"]
    assert _train(data_dir, run) == 0  # the same command again: continues from the run's weights
    again = json.loads((run / "run.json").read_text())
    assert again["seen"] > first and {h["run"] for h in again["history"]} == {0, 1}
    out = tmp_path / "model"
    assert main(["train", "--family", "encoder", "--data", str(data_dir), "--out", str(run), "--export", str(out)]) == 0
    r = Restorer.load(str(out), device="cpu")
    assert r.model.family == "encoder-bilstm-crf"
    preds = r.restore("so what is it for i asked".split())
    assert len(preds) == 7


def test_a_first_encoder_run_without_an_encoder_says_what_it_needs(data_dir, tmp_path, capsys):
    assert _train(data_dir, tmp_path / "run") != 0
    err = capsys.readouterr().err
    assert "--encoder" in err and "Traceback" not in err


def test_a_source_missing_from_the_data_is_skipped_and_the_run_records_what_it_drew(
        encoder_dir, data_dir, tmp_path, capsys):
    # a GPU lease carries three of the five sources: the run says so, and its record holds the
    # weights it drew by, not the ones it was asked for
    run = tmp_path / "run"
    assert main(["train", "--family", "encoder", "--data", str(data_dir), "--out", str(run), "--device", "cpu",
                 "--seconds", "4", "--words-per-batch", "120", "--workers", "0", "--eval-seconds", "2",
                 "--sources", "ted_saranyan=0.3,presidential_speeches=0.7", "--encoder", str(encoder_dir)]) == 0
    said = next(line for line in capsys.readouterr().out.splitlines() if "skipped:" in line)
    assert "presidential_speeches" in said and said.endswith("drawing ted_saranyan 1.00")
    assert json.loads((run / "run.json").read_text())["sources"] == {"ted_saranyan": 1.0}


def test_an_export_of_a_run_without_its_tokenizer_says_so(encoder_dir, data_dir, tmp_path, capsys):
    run = tmp_path / "run"
    assert _train(data_dir, run, "--encoder", str(encoder_dir), "--seconds", "3") == 0
    (run / "tokenizer.json").unlink()
    code = main(["train", "--family", "encoder", "--data", str(data_dir), "--out", str(run),
                 "--export", str(tmp_path / "model")])
    err = capsys.readouterr().err
    assert code != 0 and "no tokenizer.json" in err and "Traceback" not in err


def test_two_runs_average_into_a_run_that_exports(encoder_dir, data_dir, tmp_path, capsys):
    from editor.restore.lab.average import main as average
    from editor.restore.lab.train_encoder import load_parts, read_run

    a, b, both = tmp_path / "a", tmp_path / "b", tmp_path / "avg"
    assert _train(data_dir, a, "--encoder", str(encoder_dir), "--seconds", "3") == 0
    assert _train(data_dir, b, "--encoder", str(encoder_dir), "--seconds", "3", "--seed", "8") == 0
    assert average([str(both), f"{a}=1", f"{b}=3"]) == 0
    sa, sb, s = (load_parts(r, read_run(r)["parts"]) for r in (a, b, both))
    key = "lstm.weight_ih_l0"
    assert not torch.equal(sa[key], sb[key])
    assert torch.allclose(s[key], 0.25 * sa[key] + 0.75 * sb[key], atol=2e-3)
    record = read_run(both)
    assert record["origin"]["averaged"] == {str(a): 0.25, str(b): 0.75}
    out = tmp_path / "model"
    assert main(["train", "--family", "encoder", "--data", str(data_dir), "--out", str(both), "--export", str(out)]) == 0
    assert len(Restorer.load(str(out), device="cpu").restore("so what is it for".split())) == 5


def test_averaging_says_what_it_cannot_average(encoder_dir, data_dir, tmp_path, capsys):
    from editor.restore.lab.average import main as average

    a, wide = tmp_path / "a", tmp_path / "wide"
    assert _train(data_dir, a, "--encoder", str(encoder_dir), "--seconds", "2") == 0
    assert _train(data_dir, wide, "--encoder", str(encoder_dir), "--seconds", "2", "--lstm-hidden", "24") == 0
    for args, said in (([f"{a}=1"], "at least two runs"), ([f"{a}=1", f"{wide}=1"], "a different network"),
                       ([f"{a}=x", f"{wide}=1"], "not a number"), ([f"{a}=1", f"{a}=-1"], "above 0"),
                       ([f"{a}=1", str(tmp_path)], "no run.json")):
        with pytest.raises(SystemExit) as e:
            average([str(tmp_path / "out"), *args])
        assert said in str(e.value)
