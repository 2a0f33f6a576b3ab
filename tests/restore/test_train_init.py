"""`stet train --init`: starting a run from a model directory's weights."""

import json
from dataclasses import replace

import pytest
import torch

from editor.core.errors import UserError
from editor.restore.model import BiLSTMCRF, ModelConfig
from editor.restore.train import init_from_model_dir
from editor.restore.vocab import Vocab


def _load(model_dir):
    vocab = Vocab.from_dict(json.loads((model_dir / "vocab.json").read_text()))
    cfg = ModelConfig(**json.loads((model_dir / "config.json").read_text())["model_args"])
    shipped = torch.load(model_dir / "weights.pt", weights_only=True)
    return vocab, cfg, shipped


def test_the_same_configuration_copies_every_weight(tiny_model_dir):
    vocab, cfg, shipped = _load(tiny_model_dir)
    torch.manual_seed(1)
    model = BiLSTMCRF(cfg)
    assert init_from_model_dir(model, vocab, tiny_model_dir) == "all weights"
    for k, v in model.state_dict().items():
        assert torch.equal(v, shipped[k].float()), k


def test_separate_heads_start_from_the_joint_encoder_with_fresh_heads(tiny_model_dir):
    vocab, cfg, shipped = _load(tiny_model_dir)
    torch.manual_seed(1)
    model = BiLSTMCRF(replace(cfg, heads="separate"))
    fresh_out = model.out.weight.detach().clone()
    what = init_from_model_dir(model, vocab, tiny_model_dir)
    assert "encoder" in what
    state = model.state_dict()
    for k in shipped:
        if k.startswith(("word_emb.", "char_cnn.", "lstm.")):
            assert torch.equal(state[k], shipped[k].float()), k
    assert torch.equal(model.out.weight, fresh_out)
    assert model.out.weight.shape != shipped["out.weight"].shape


def test_a_different_encoder_or_vocabulary_is_refused(tiny_model_dir):
    vocab, cfg, _ = _load(tiny_model_dir)
    with pytest.raises(UserError, match="encoder does not match|do not fit"):
        init_from_model_dir(BiLSTMCRF(replace(cfg, hidden=cfg.hidden + 2)), vocab, tiny_model_dir)
    other = Vocab.from_dict({**vocab.to_dict(), "words": list(reversed(vocab.words))})
    with pytest.raises(UserError, match="vocabulary differs"):
        init_from_model_dir(BiLSTMCRF(cfg), other, tiny_model_dir)
