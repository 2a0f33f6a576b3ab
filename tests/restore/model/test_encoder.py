"""The encoder family: BERT layers, WordPiece windows, int8 storage, its model directory."""

import json
import shutil

import numpy as np
import pytest
import torch
from torch import nn

from editor.restore.model.encoder import BertLayer, EncoderBiLSTMCRF, EncoderConfig, bert_state_from_hf, upgrade_state
from editor.restore.passes.inference import Restorer
from editor.restore.model.package import ModelError, write_checksums
from editor.restore.model.pieces import Pieces, assemble
from editor.restore.model.quant import dequantize_state, quantize_state

from ..conftest import tiny_tokenizer


def test_our_bert_layer_computes_what_torchs_post_norm_transformer_layer_does():
    """An independent implementation of the same layer (torch's own, as BERT: post-norm, GELU) with
    the same weights gives the same states, padding included."""
    torch.manual_seed(1)
    cfg = EncoderConfig(vocab_size=10, hidden=16, layers=1, heads=4, intermediate=32, max_positions=16, dropout=0.0)
    ref = nn.TransformerEncoderLayer(16, 4, 32, 0.0, activation="gelu", layer_norm_eps=cfg.layer_norm_eps,
                                     batch_first=True, norm_first=False).eval()
    ours = BertLayer(cfg).eval()
    state = upgrade_state({f"layers.layers.0.{k}": v for k, v in ref.state_dict().items()})
    ours.load_state_dict({k.removeprefix("layers.0."): v for k, v in state.items()})
    x = torch.randn(2, 7, 16)
    padding = torch.zeros(2, 7, dtype=torch.bool)
    padding[1, 5:] = True
    with torch.no_grad():
        want = ref(x, src_key_padding_mask=padding)
        got = ours(x, (~padding)[:, None, None, :])
    torch.testing.assert_close(got[0], want[0], atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(got[1, :5], want[1, :5], atol=1e-5, rtol=1e-5)


def test_hugging_face_names_map_onto_every_encoder_tensor():
    cfg = EncoderConfig(vocab_size=20, hidden=8, layers=2, heads=2, intermediate=16, max_positions=12)
    H, inner = 8, 16
    hf = {"embeddings.word_embeddings.weight": torch.randn(20, H), "embeddings.position_embeddings.weight": torch.randn(12, H),
          "embeddings.token_type_embeddings.weight": torch.randn(2, H), "embeddings.LayerNorm.gamma": torch.ones(H),
          "embeddings.LayerNorm.beta": torch.zeros(H), "pooler.dense.weight": torch.randn(H, H)}
    for i in range(2):
        p = f"encoder.layer.{i}"
        for n in ("query", "key", "value"):
            hf[f"{p}.attention.self.{n}.weight"], hf[f"{p}.attention.self.{n}.bias"] = torch.randn(H, H), torch.randn(H)
        hf[f"{p}.attention.output.dense.weight"], hf[f"{p}.attention.output.dense.bias"] = torch.randn(H, H), torch.randn(H)
        hf[f"{p}.attention.output.LayerNorm.weight"], hf[f"{p}.attention.output.LayerNorm.bias"] = torch.ones(H), torch.zeros(H)
        hf[f"{p}.intermediate.dense.weight"], hf[f"{p}.intermediate.dense.bias"] = torch.randn(inner, H), torch.randn(inner)
        hf[f"{p}.output.dense.weight"], hf[f"{p}.output.dense.bias"] = torch.randn(H, inner), torch.randn(H)
        hf[f"{p}.output.LayerNorm.weight"], hf[f"{p}.output.LayerNorm.bias"] = torch.ones(H), torch.zeros(H)
    model = EncoderBiLSTMCRF(cfg)
    state = bert_state_from_hf(hf, cfg)
    model.encoder.load_state_dict(state)  # strict: every tensor named, none left over
    q = hf["encoder.layer.1.attention.self.query.weight"]
    torch.testing.assert_close(model.encoder.layers[1].qkv.weight[:H], q)
    with pytest.raises(KeyError):
        bert_state_from_hf({k: v for k, v in hf.items() if "layer.1.output.dense" not in k}, cfg)


def test_words_become_sub_words_between_cls_and_sep_and_each_word_points_at_its_first():
    p = Pieces(tiny_tokenizer(), max_pieces=2)
    table, lens = p.table(["so", "zebras", "qqqq", "the"])
    assert lens.tolist() == [1, 2, 1, 1]  # zebras = zeb ##ra (##s cut: at most two); qqqq = [UNK]
    assert table[2, 0] == p.unk
    pieces, firsts = assemble(table[None], lens[None], p.cls, p.sep)
    tok = p.tokenizer
    assert [tok.id_to_token(int(i)) for i in pieces[0]] == ["[CLS]", "so", "zeb", "##ra", "[UNK]", "the", "[SEP]"]
    assert firsts[0].tolist() == [1, 2, 4, 5]
    # a shorter window is padded with 0 after its [SEP]; its padding words are masked
    t2 = np.stack([table, np.concatenate([table[:2], np.zeros_like(table[2:])])])
    l2 = np.stack([lens, np.r_[lens[:2], 0, 0]])
    pieces, firsts = assemble(t2, l2, p.cls, p.sep)
    assert pieces[1].tolist() == [p.cls, *table[0, :1], *table[1, :2], p.sep, 0, 0]


def test_a_word_is_cut_once_whatever_the_tokenizer_files_padding_says():
    tok = tiny_tokenizer()
    tok.enable_padding(length=10)
    p = Pieces(tok, max_pieces=4)
    _, lens = p.table(["so", "so", "the"])
    assert lens.tolist() == [1, 1, 1]
    assert len(p._index) == 2


def test_int8_storage_keeps_every_matrix_within_half_a_step_of_its_row():
    torch.manual_seed(0)
    state = {"big": torch.randn(64, 128), "small": torch.randn(5), "ids": torch.arange(3)}
    stored = quantize_state(state)
    assert stored["big:int8"].dtype == torch.int8 and stored["small"].dtype == torch.float16
    back = dequantize_state(stored)
    step = state["big"].abs().amax(1, keepdim=True) / 127
    assert bool(((back["big"] - state["big"]).abs() <= step / 2 + 1e-6).all())
    assert torch.equal(back["ids"], state["ids"])
    with pytest.raises(ValueError, match="scale"):
        dequantize_state({"x:int8": stored["big:int8"]})


def test_an_encoder_model_directory_loads_and_restores(tiny_encoder_dir):
    r = Restorer.load(str(tiny_encoder_dir), device="cpu")
    assert isinstance(r.model, EncoderBiLSTMCRF) and r.model.pieces is not None
    words = ("so what is the zebra and how do we do it okay yes " * 5).split()
    preds = r.restore(words)
    assert len(preds) == len(words)
    for p in preds:
        assert abs(sum(p.punct_probs.values()) - 1) < 1e-4 and abs(sum(p.case_probs.values()) - 1) < 1e-4
        assert min(p.punct_probs.values()) >= 0 and min(p.case_probs.values()) >= 0
    # windows batched together or one at a time, regions reported as they finish: the same result
    r.windows_per_batch = 1
    again = r.restore(words, on_chunk=lambda a, b, p: None)
    assert [p.punct for p in again] == [p.punct for p in preds]
    config = json.loads((tiny_encoder_dir / "config.json").read_text())
    assert config["family"] == "encoder-bilstm-crf"


@pytest.fixture
def encoder_copy(tiny_encoder_dir, tmp_path):
    return shutil.copytree(tiny_encoder_dir, tmp_path / "model")


def test_an_encoder_directory_without_its_tokenizer_is_refused_in_one_line(encoder_copy):
    (encoder_copy / "tokenizer.json").unlink()
    (encoder_copy / "SHA256SUMS").write_text("\n".join(line for line in (encoder_copy / "SHA256SUMS").read_text().splitlines()
                                                        if "tokenizer" not in line) + "\n")
    with pytest.raises(ModelError, match="tokenizer.json is missing"):
        Restorer.load(str(encoder_copy), device="cpu")


def test_a_changed_tokenizer_fails_its_checksum(encoder_copy):
    path = encoder_copy / "tokenizer.json"
    text = path.read_text()
    assert "okay" in text
    path.write_text(text.replace("okay", "okey"))
    with pytest.raises(ModelError, match="checksum mismatch"):
        Restorer.load(str(encoder_copy), device="cpu")


def test_a_tokenizer_of_another_size_or_a_damaged_one_is_refused(encoder_copy):
    path = encoder_copy / "tokenizer.json"
    data = json.loads(path.read_text())
    data["model"]["vocab"]["extra"] = len(data["model"]["vocab"])
    path.write_text(json.dumps(data))
    write_checksums(encoder_copy)
    with pytest.raises(ModelError, match="sub-words"):
        Restorer.load(str(encoder_copy), device="cpu")
    path.write_text("{not json")
    write_checksums(encoder_copy)
    with pytest.raises(ModelError, match="not a tokenizer"):
        Restorer.load(str(encoder_copy), device="cpu")


def test_an_unknown_family_or_weights_of_the_other_family_are_refused(encoder_copy, tiny_model_dir):
    config = json.loads((encoder_copy / "config.json").read_text())
    config["family"] = "gpt"
    (encoder_copy / "config.json").write_text(json.dumps(config))
    write_checksums(encoder_copy)
    with pytest.raises(ModelError, match="family"):
        Restorer.load(str(encoder_copy), device="cpu")
    config["family"] = "encoder-bilstm-crf"
    (encoder_copy / "config.json").write_text(json.dumps(config))
    shutil.copy(tiny_model_dir / "weights.pt", encoder_copy / "weights.pt")
    write_checksums(encoder_copy)
    with pytest.raises(ModelError, match="do not match"):
        Restorer.load(str(encoder_copy), device="cpu")


def test_windows_of_like_length_are_encoded_together_on_a_cpu_with_the_same_result(tiny_encoder_dir, monkeypatch):
    """On a CPU the encoder reads a batch's windows sorted by length, 16 at a time (a batch padded to
    its longest window spent 15 % of dev2012's sub-words on padding); the BiLSTM and CRF still take
    the whole batch. The marginals are those of the batch read at once."""
    from editor.restore.passes import windows
    from editor.restore.passes.chunks import plan_chunks

    r = Restorer.load(str(tiny_encoder_dir), device="cpu")
    rng = np.random.default_rng(0)
    short, long_ = ["the", "so", "we"], ["zebras", "walking", "dontings"]
    words = [str(rng.choice(long_ if (i // 12) % 3 == 0 else short)) for i in range(12 * 40)]
    plan = plan_chunks(len(words), 12, 4, None)
    idx = list(range(len(plan.windows)))
    assert len(idx) > windows.CPU_GROUP
    runner = windows.windows_for(r.model, r.vocab, words, torch.device("cpu"))
    _table, pieces_per_word = r.model.pieces.table(words)
    lengths = np.array([int(pieces_per_word[s:e].sum()) for s, e in plan.windows])
    assert lengths.min() < lengths.max()  # windows of different lengths, as in real text
    grouped = runner.run(plan, idx)
    monkeypatch.setattr(windows, "CPU_GROUP", 10_000)
    at_once = runner.run(plan, idx)
    for a, b in zip(grouped, at_once):
        np.testing.assert_allclose(a, b, atol=1e-5)


def test_length_groups_sort_on_a_cpu_and_keep_a_gpu_batch_whole():
    from editor.restore.passes.windows import CPU_GROUP, length_groups

    lengths = np.array([130, 122, 249, 140, 122] * 8)
    groups = length_groups(lengths, torch.device("cpu"))
    assert sorted(np.concatenate(groups).tolist()) == list(range(len(lengths)))
    assert all(len(g) <= CPU_GROUP for g in groups)
    flat = lengths[np.concatenate(groups)]
    assert (np.diff(flat) >= 0).all()
    assert [g.tolist() for g in length_groups(lengths, torch.device("cuda"))] == [list(range(len(lengths)))]
    assert [g.tolist() for g in length_groups(lengths[:5], torch.device("cpu"))] == [list(range(5))]
