"""A tiny random model directory, exported exactly as a shipped one is, for fast tests."""

from collections import Counter

import pytest
import torch

from editor.restore.model.bilstm_crf import BiLSTMCRF, ModelConfig
from editor.restore.model.package import export_model
from editor.restore.model.vocab import Vocab

WORDS = "the a and of to i you we it is that this in for so what how okay yes iphone".split()


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory):
    torch.manual_seed(0)
    vocab = Vocab.build(Counter({w: 100 - i for i, w in enumerate(WORDS)}), size=len(WORDS) + 2, min_char_count=1)
    cfg = ModelConfig(vocab_size=len(vocab.words), n_chars=len(vocab.chars), word_dim=8, char_dim=4, char_filters=6,
                      hidden=8, layers=2)
    model = BiLSTMCRF(cfg)
    out = tmp_path_factory.mktemp("models") / "tiny"
    export_model(model, vocab, {"iphone": "iPhone"}, out, name="tiny",
                 decision={"none_scale": 1.0}, calibration={"punct_temperature": 1.0, "case_temperature": 1.0},
                 chunking={"size": 12, "overlap": 4, "cut": None, "merge": "owned"}, metrics={})
    return out


def tiny_tokenizer():
    """A real WordPiece tokenizer (the tokenizers library), BERT-uncased style, over a tiny vocabulary."""
    from tokenizers import Tokenizer, normalizers, pre_tokenizers
    from tokenizers.models import WordPiece

    pieces = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + WORDS + ["##s", "##ing", "##ed", "zeb", "##ra", "'", "t", "don"]
    tok = Tokenizer(WordPiece({p: i for i, p in enumerate(pieces)}, unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    return tok


@pytest.fixture(scope="session")
def tiny_encoder_dir(tmp_path_factory):
    """A tiny random encoder-family model directory (2 layers, width 16), exported as a shipped one is."""
    from editor.restore.model.encoder import EncoderBiLSTMCRF, EncoderConfig
    from editor.restore.model.pieces import Pieces

    torch.manual_seed(0)
    tok = tiny_tokenizer()
    vocab = Vocab.build(Counter({w: 100 - i for i, w in enumerate(WORDS)}), size=len(WORDS) + 2, min_char_count=1)
    cfg = EncoderConfig(vocab_size=tok.get_vocab_size(), hidden=16, layers=2, heads=2, intermediate=32,
                        max_positions=64, lstm_hidden=8)
    model = EncoderBiLSTMCRF(cfg)
    model.pieces = Pieces(tok, cfg.max_pieces)
    out = tmp_path_factory.mktemp("models") / "tiny-encoder"
    export_model(model, vocab, {"iphone": "iPhone"}, out, name="tiny-encoder",
                 decision={"none_scale": 1.0}, calibration={"punct_temperature": 1.0, "case_temperature": 1.0},
                 chunking={"size": 12, "overlap": 4, "cut": None, "merge": "owned"}, metrics={}, language="en")
    return out
