"""The encoder family: a pretrained BERT-style encoder (all-MiniLM-L6-v2) under the BiLSTM-CRF.

Each word is cut into WordPiece sub-words (at most `max_pieces`); the encoder reads a window's
sub-words between [CLS] and [SEP]; the state of each word's first sub-word goes through a BiLSTM
to a CRF over the 7 marks and a softmax case head, as the word model's "separate" heads do
(`editor.restore.model.bilstm_crf.BiLSTMCRF`). Written in torch here (torch's own transformer layers, the
BERT post-norm layout) so that no `transformers` import is needed at run time; the weights of the
published checkpoint map onto it one to one (`bert_state_from_hf`).

Sizes: B windows, S sub-words per window (<= max_positions), T words per window, H encoder width,
K = 7 marks.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

import re

import torch
import torch.nn.functional as F
from torch import nn

from editor.restore.model.crf import CRF
from editor.restore.model.labels import N_CASE, N_PUNCT
from editor.restore.model.pieces import Pieces

if TYPE_CHECKING:
    import numpy as np

FAMILY = "encoder-bilstm-crf"


@dataclass(frozen=True)
class EncoderConfig:
    vocab_size: int = 30522
    hidden: int = 384
    layers: int = 6
    heads: int = 12
    intermediate: int = 1536
    max_positions: int = 512
    type_vocab: int = 2
    layer_norm_eps: float = 1e-12
    lstm_hidden: int = 256
    lstm_layers: int = 1
    dropout: float = 0.1
    max_pieces: int = 4  # sub-words kept per word: a longer word is read by its first four
    use_crf: bool = True

    def __post_init__(self) -> None:
        """A config read from a model directory is checked before a network is built from it."""
        for name in ("vocab_size", "hidden", "layers", "heads", "intermediate", "max_positions",
                     "type_vocab", "lstm_hidden", "lstm_layers", "max_pieces"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or not 0 < v <= 10_000_000:
                raise ValueError(f"{name} must be a positive integer, not {v!r}")
        if self.hidden % self.heads:
            raise ValueError(f"hidden ({self.hidden}) must be a multiple of heads ({self.heads})")
        for name in ("dropout", "layer_norm_eps"):
            v = getattr(self, name)
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not 0 <= v < 1:
                raise ValueError(f"{name} must be a number in [0, 1), not {v!r}")
        if not isinstance(self.use_crf, bool):
            raise ValueError(f"use_crf must be true or false, not {self.use_crf!r}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def max_words(self) -> int:
        """The most words a window may hold: every word at its most sub-words, with [CLS] and [SEP]."""
        return (self.max_positions - 2) // self.max_pieces


class BertLayer(nn.Module):
    """One post-norm BERT layer: self-attention, then a GELU feed-forward, each added back and
    normalised. Plain `nn.Linear` layers throughout, so CPU inference can quantize them to int8."""

    def __init__(self, cfg: EncoderConfig) -> None:
        super().__init__()
        H = cfg.hidden
        self.heads = cfg.heads
        self.qkv = nn.Linear(H, 3 * H)
        self.attn_out = nn.Linear(H, H)
        self.norm1 = nn.LayerNorm(H, eps=cfg.layer_norm_eps)
        self.linear1 = nn.Linear(H, cfg.intermediate)
        self.linear2 = nn.Linear(cfg.intermediate, H)
        self.norm2 = nn.LayerNorm(H, eps=cfg.layer_norm_eps)
        self.p = cfg.dropout
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, x: torch.Tensor, attend: torch.Tensor) -> torch.Tensor:
        """x (B, S, H), attend (B, 1, 1, S) bool (False at padding) -> (B, S, H)."""
        B, S, H = x.shape
        # shape: (3, B, heads, S, H / heads)
        q, k, v = self.qkv(x).view(B, S, 3, self.heads, H // self.heads).permute(2, 0, 3, 1, 4)
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=attend, dropout_p=self.p if self.training else 0.0)
        x = self.norm1(x + self.drop(self.attn_out(a.transpose(1, 2).reshape(B, S, H))))
        out: torch.Tensor = self.norm2(x + self.drop(self.linear2(F.gelu(self.linear1(x)))))
        return out


class BertEncoder(nn.Module):
    """BERT's embeddings and post-norm layers (GELU, LayerNorm after each residual)."""

    def __init__(self, cfg: EncoderConfig) -> None:
        super().__init__()
        H = cfg.hidden
        self.word = nn.Embedding(cfg.vocab_size, H, padding_idx=0)
        self.position = nn.Embedding(cfg.max_positions, H)
        self.token_type = nn.Embedding(cfg.type_vocab, H)
        self.norm = nn.LayerNorm(H, eps=cfg.layer_norm_eps)
        self.drop = nn.Dropout(cfg.dropout)
        self.layers = nn.ModuleList(BertLayer(cfg) for _ in range(cfg.layers))

    def forward(self, pieces: torch.Tensor, padding: torch.Tensor) -> torch.Tensor:
        """pieces (B, S) long, padding (B, S) bool (True where padded) -> states (B, S, H)."""
        B, S = pieces.shape
        pos = torch.arange(S, device=pieces.device)
        # shape: (B, S, H); one segment, so token type 0 everywhere
        x = self.word(pieces) + self.position(pos).unsqueeze(0) + self.token_type.weight[0]
        x = self.drop(self.norm(x))
        attend = (~padding)[:, None, None, :]
        for layer in self.layers:
            x = layer(x, attend)
        return x  # type: ignore[no-any-return]  # nn.Module calls are untyped


def upgrade_state(state: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """A state dict written while the encoder used torch's `nn.TransformerEncoderLayer`
    (`encoder.layers.layers.N.self_attn.in_proj_weight`...) in today's names; others unchanged."""
    out = {}
    for k, v in state.items():
        m = re.match(r"^(.*)layers\.layers\.(\d+)\.(.*)$", k)
        if m:
            rest = {"self_attn.in_proj_weight": "qkv.weight", "self_attn.in_proj_bias": "qkv.bias",
                    "self_attn.out_proj.weight": "attn_out.weight",
                    "self_attn.out_proj.bias": "attn_out.bias"}.get(m.group(3), m.group(3))
            k = f"{m.group(1)}layers.{m.group(2)}.{rest}"
        out[k] = v
    return out


class EncoderBiLSTMCRF(nn.Module):
    family = FAMILY
    #: the WordPiece tokenizer the encoder was trained with (set when a model directory or run is read)
    pieces: Pieces | None = None
    #: window words -> joint marginals, kept while a model is tuned on dev (None: nothing kept)
    window_cache: dict[tuple[str, ...], np.ndarray] | None = None

    def __init__(self, cfg: EncoderConfig) -> None:
        super().__init__()
        self.cfg = cfg
        self.encoder = BertEncoder(cfg)
        self.drop = nn.Dropout(cfg.dropout)
        self.lstm = nn.LSTM(cfg.hidden, cfg.lstm_hidden, num_layers=cfg.lstm_layers, bidirectional=True,
                            batch_first=True, dropout=cfg.dropout if cfg.lstm_layers > 1 else 0.0)
        self.out = nn.Linear(2 * cfg.lstm_hidden, N_PUNCT + N_CASE)
        self.crf = CRF(N_PUNCT) if cfg.use_crf else None

    def emissions(self, pieces: torch.Tensor, firsts: torch.Tensor, word_mask: torch.Tensor) -> torch.Tensor:
        """pieces (B, S), firsts (B, T) the position of each word's first sub-word, word_mask (B, T)
        -> emissions (B, T, 7 + 4): the marks' CRF emissions, then the case logits."""
        return self.emissions_of_states(self.word_states(pieces, firsts), word_mask)

    def word_states(self, pieces: torch.Tensor, firsts: torch.Tensor) -> torch.Tensor:
        """pieces (B, S), firsts (B, T) -> the encoder's state of each word's first sub-word (B, T, H)."""
        B, T = firsts.shape
        h: torch.Tensor = self.encoder(pieces, pieces == 0)
        return h.gather(1, firsts.unsqueeze(2).expand(B, T, h.size(2)))

    def emissions_of_states(self, h: torch.Tensor, word_mask: torch.Tensor) -> torch.Tensor:
        """Word states (B, T, H) -> emissions (B, T, 7 + 4) through the BiLSTM and the heads."""
        T = h.size(1)
        h = self.drop(h)
        lengths = word_mask.sum(1)
        if bool((lengths == T).all()):
            out, _ = self.lstm(h)
        else:  # windows of different lengths: the backward direction starts at each one's last word
            packed = nn.utils.rnn.pack_padded_sequence(h, lengths.clamp(min=1).cpu(), batch_first=True,
                                                       enforce_sorted=False)
            out, _ = self.lstm(packed)
            out, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True, total_length=T)
        emissions: torch.Tensor = self.out(self.drop(out))
        return emissions

    def loss(self, pieces: torch.Tensor, firsts: torch.Tensor, labels: torch.Tensor,
             word_mask: torch.Tensor) -> torch.Tensor:
        """Mean negative log-likelihood per word (marks by the CRF, case by cross-entropy)."""
        return self.loss_of_states(self.word_states(pieces, firsts), labels, word_mask)

    def loss_of_states(self, h: torch.Tensor, labels: torch.Tensor, word_mask: torch.Tensor) -> torch.Tensor:
        """`loss` from the word states (`word_states`): training the BiLSTM and heads on states
        computed once by a frozen encoder (`editor.restore.lab.frozen_features`)."""
        em = self.emissions_of_states(h, word_mask).float()
        n = word_mask.sum().clamp(min=1)
        em_p, em_c = em[..., :N_PUNCT], em[..., N_PUNCT:]
        p_lab, c_lab = labels // N_CASE, labels % N_CASE
        m = word_mask.reshape(-1).float()
        if self.crf is not None:
            lp = -self.crf.log_likelihood(em_p, p_lab, word_mask).sum()
        else:
            lp = (nn.functional.cross_entropy(em_p.reshape(-1, N_PUNCT), p_lab.reshape(-1), reduction="none") * m).sum()
        lc = (nn.functional.cross_entropy(em_c.reshape(-1, N_CASE), c_lab.reshape(-1), reduction="none") * m).sum()
        return (lp + lc) / n

    @torch.no_grad()
    def joint_marginals(self, pieces: torch.Tensor, firsts: torch.Tensor, word_mask: torch.Tensor) -> torch.Tensor:
        """p(joint label) per word, (B, T, 28): CRF mark marginals times the case softmax."""
        return self.joint_marginals_of_states(self.word_states(pieces, firsts), word_mask)

    @torch.no_grad()
    def joint_marginals_of_states(self, h: torch.Tensor, word_mask: torch.Tensor) -> torch.Tensor:
        """`joint_marginals` from the word states (`word_states`), which may be read in parts."""
        em = self.emissions_of_states(h, word_mask).float()
        em_p, em_c = em[..., :N_PUNCT], em[..., N_PUNCT:]
        pm = self.crf.marginals(em_p, word_mask) if self.crf is not None else torch.softmax(em_p, dim=2)
        cm = torch.softmax(em_c, dim=2)
        B, T, _ = em.shape
        # shape: (B, T, 28), the heads' product in the joint label order (mark-major)
        joint = (pm.unsqueeze(3) * cm.unsqueeze(2)).reshape(B, T, N_PUNCT * N_CASE)
        return joint * word_mask.unsqueeze(2)


def bert_state_from_hf(hf: dict[str, torch.Tensor], cfg: EncoderConfig) -> dict[str, torch.Tensor]:
    """A Hugging Face `BertModel` state dict (as in all-MiniLM-L6-v2's model.safetensors) -> the
    state dict of `BertEncoder`. The pooler is not used; a missing tensor is a KeyError."""
    hf = {k.removeprefix("bert."): v for k, v in hf.items()}

    def ln(prefix: str) -> tuple[torch.Tensor, torch.Tensor]:  # old checkpoints say gamma/beta
        w = hf.get(f"{prefix}.weight", hf.get(f"{prefix}.gamma"))
        b = hf.get(f"{prefix}.bias", hf.get(f"{prefix}.beta"))
        if w is None or b is None:
            raise KeyError(prefix)
        return w, b

    out = {
        "word.weight": hf["embeddings.word_embeddings.weight"],
        "position.weight": hf["embeddings.position_embeddings.weight"],
        "token_type.weight": hf["embeddings.token_type_embeddings.weight"],
    }
    out["norm.weight"], out["norm.bias"] = ln("embeddings.LayerNorm")
    for i in range(cfg.layers):
        src, dst = f"encoder.layer.{i}", f"layers.{i}"
        att = f"{src}.attention.self"
        out[f"{dst}.qkv.weight"] = torch.cat([hf[f"{att}.{n}.weight"] for n in ("query", "key", "value")])
        out[f"{dst}.qkv.bias"] = torch.cat([hf[f"{att}.{n}.bias"] for n in ("query", "key", "value")])
        out[f"{dst}.attn_out.weight"] = hf[f"{src}.attention.output.dense.weight"]
        out[f"{dst}.attn_out.bias"] = hf[f"{src}.attention.output.dense.bias"]
        out[f"{dst}.norm1.weight"], out[f"{dst}.norm1.bias"] = ln(f"{src}.attention.output.LayerNorm")
        out[f"{dst}.linear1.weight"] = hf[f"{src}.intermediate.dense.weight"]
        out[f"{dst}.linear1.bias"] = hf[f"{src}.intermediate.dense.bias"]
        out[f"{dst}.linear2.weight"] = hf[f"{src}.output.dense.weight"]
        out[f"{dst}.linear2.bias"] = hf[f"{src}.output.dense.bias"]
        out[f"{dst}.norm2.weight"], out[f"{dst}.norm2.bias"] = ln(f"{src}.output.LayerNorm")
    return {k: v.float() for k, v in out.items()}
