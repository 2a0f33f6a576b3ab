"""`stet train --init`: starting a run from a model directory's weights."""

import json
from dataclasses import replace

import pytest
import torch

from editor.core.errors import UserError
from editor.restore.model.bilstm_crf import BiLSTMCRF, ModelConfig
from editor.restore.lab.train import init_from_model_dir
from editor.restore.model.vocab import Vocab


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
        init_from_model_dir(BiLSTMCRF(replace(cfg, hidden=cfg.hidden - 2)), vocab, tiny_model_dir)
    other = Vocab.from_dict({**vocab.to_dict(), "words": list(reversed(vocab.words))})
    with pytest.raises(UserError, match="vocabulary differs"):
        init_from_model_dir(BiLSTMCRF(cfg), other, tiny_model_dir)


def test_a_wider_bilstm_starts_from_the_narrower_model_and_computes_the_same(tmp_path):
    from collections import Counter

    from editor.restore.model.package import export_model

    words = ["the", "a", "and", "of", "to", "i", "you", "we", "it", "is"]
    vocab = Vocab.build(Counter({w: 100 - i for i, w in enumerate(words)}), size=len(words) + 2, min_char_count=1)
    cfg = ModelConfig(vocab_size=len(vocab.words), n_chars=len(vocab.chars), word_dim=8, char_dim=4,
                      char_filters=6, hidden=6, layers=2, heads="separate")
    torch.manual_seed(0)
    narrow = BiLSTMCRF(cfg)
    with torch.no_grad():  # weights exactly representable in float16, as a shipped model stores them
        for p in narrow.parameters():
            p.copy_(p.half().float())
    export_model(narrow, vocab, {}, tmp_path / "m", name="m", decision={}, calibration={}, chunking={}, metrics={})
    torch.manual_seed(1)
    wide = BiLSTMCRF(replace(cfg, hidden=9))
    assert "widened from 6 to 9" in init_from_model_dir(wide, vocab, tmp_path / "m")
    narrow.eval(), wide.eval()
    w = torch.randint(1, len(vocab.words), (3, 11))
    c = torch.randint(1, len(vocab.chars), (3, 11, cfg.max_word_len))
    with torch.no_grad():
        assert torch.allclose(narrow.emissions(w, c), wide.emissions(w, c), atol=1e-5)
    # the new units are not dead: they read the input and can learn to feed the output
    assert wide.lstm.weight_ih_l0[6:9].abs().sum() > 0 and wide.out.weight[:, 6:9].abs().sum() == 0
