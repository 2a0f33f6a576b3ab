"""The BiLSTM-CRF: word embeddings + a character CNN, a 2-layer BiLSTM, and a CRF over joint
(punctuation after the word x case of the word) labels.

Sizes: B batch, T words, C characters per word, K = 28 joint labels (7 marks x 4 cases).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, cast

import torch
from torch import nn

from editor.restore.model.crf import CRF
from editor.restore.model.labels import N_CASE, N_JOINT, N_PUNCT


@dataclass(frozen=True)
class ModelConfig:
    vocab_size: int
    n_chars: int
    word_dim: int = 128
    char_dim: int = 24
    char_filters: int = 64
    char_width: int = 3
    max_word_len: int = 16
    hidden: int = 128
    layers: int = 2
    dropout: float = 0.1
    n_labels: int = N_JOINT
    use_crf: bool = True
    # "joint": one CRF over 28 (mark x case) labels; "separate": a CRF over the 7 marks and a
    # softmax case head on the same BiLSTM (correlated heads, Pahuja et al.)
    heads: str = "joint"

    def __post_init__(self) -> None:
        """A config read from a model directory is checked before a network is built from it."""
        for name in ("vocab_size", "n_chars", "word_dim", "char_dim", "char_filters", "char_width",
                     "max_word_len", "hidden", "layers"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or not 0 < v <= 10_000_000:
                raise ValueError(f"{name} must be a positive integer, not {v!r}")
        if not isinstance(self.dropout, (int, float)) or isinstance(self.dropout, bool) or not 0 <= self.dropout < 1:
            raise ValueError(f"dropout must be a number in [0, 1), not {self.dropout!r}")
        if self.n_labels != N_JOINT:
            raise ValueError(f"n_labels must be {N_JOINT} (7 marks x 4 cases), not {self.n_labels!r}")
        if not isinstance(self.use_crf, bool):
            raise ValueError(f"use_crf must be true or false, not {self.use_crf!r}")
        if self.heads not in ("joint", "separate"):
            raise ValueError(f"heads must be 'joint' or 'separate', not {self.heads!r}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class CharCNN(nn.Module):
    def __init__(self, n_chars: int, dim: int, filters: int, width: int) -> None:
        super().__init__()
        self.emb = nn.Embedding(n_chars, dim, padding_idx=0)
        self.conv = nn.Conv1d(dim, filters, width, padding=width // 2)

    def forward(self, chars: torch.Tensor) -> torch.Tensor:
        """chars (N, C) long -> (N, filters)."""
        x = self.emb(chars).transpose(1, 2)  # (N, dim, C)
        x = torch.relu(self.conv(x))
        # padding characters must not win the max
        pad = (chars == 0).unsqueeze(1)
        x = x.masked_fill(pad, 0.0)
        return x.max(dim=2).values


class BiLSTMCRF(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.cfg = cfg
        self.word_emb = nn.Embedding(cfg.vocab_size, cfg.word_dim, padding_idx=0)
        self.char_cnn = CharCNN(cfg.n_chars, cfg.char_dim, cfg.char_filters, cfg.char_width)
        self.drop = nn.Dropout(cfg.dropout)
        self.lstm = nn.LSTM(
            cfg.word_dim + cfg.char_filters,
            cfg.hidden,
            num_layers=cfg.layers,
            bidirectional=True,
            batch_first=True,
            dropout=cfg.dropout if cfg.layers > 1 else 0.0,
        )
        if cfg.heads not in ("joint", "separate"):
            raise ValueError(f"heads must be 'joint' or 'separate', not {cfg.heads!r}")
        self.separate = cfg.heads == "separate"
        n_out = N_PUNCT + N_CASE if self.separate else cfg.n_labels
        self.out = nn.Linear(2 * cfg.hidden, n_out)
        self.crf = CRF(N_PUNCT if self.separate else cfg.n_labels) if cfg.use_crf else None

    def emissions(self, words: torch.Tensor, chars: torch.Tensor | None,
                  char_feats: torch.Tensor | None = None) -> torch.Tensor:
        """words (B, T), chars (B, T, C) -> emissions (B, T, K).

        `char_feats` (B, T, char_filters), the character CNN's output computed beforehand (inference
        computes it once per distinct word), replaces `chars`."""
        B, T = words.shape
        if char_feats is None:
            # shape: (B, T, char_filters)
            chars = cast(torch.Tensor, chars)  # given whenever char_feats is not
            char_feats = self.char_cnn(chars.reshape(B * T, chars.size(2))).reshape(B, T, -1)
        x = self.drop(torch.cat([self.word_emb(words), char_feats], dim=2))
        h, _ = self.lstm(x)
        emissions: torch.Tensor = self.out(self.drop(h))
        return emissions

    def loss(self, words: torch.Tensor, chars: torch.Tensor, labels: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Mean negative log-likelihood per word."""
        em = self.emissions(words, chars)
        n = mask.sum().clamp(min=1)
        if self.separate:
            em_p, em_c = em[..., :N_PUNCT], em[..., N_PUNCT:]
            p_lab, c_lab = labels // N_CASE, labels % N_CASE
            if self.crf is not None:
                lp = -self.crf.log_likelihood(em_p, p_lab, mask).sum()
            else:
                lp = (nn.functional.cross_entropy(em_p.reshape(-1, N_PUNCT), p_lab.reshape(-1), reduction="none") * mask.reshape(-1)).sum()
            lc = (nn.functional.cross_entropy(em_c.reshape(-1, N_CASE), c_lab.reshape(-1), reduction="none") * mask.reshape(-1)).sum()
            return (lp + lc) / n
        if self.crf is not None:
            return -self.crf.log_likelihood(em, labels, mask).sum() / n
        nll = nn.functional.cross_entropy(em.reshape(-1, em.size(2)), labels.reshape(-1), reduction="none")
        return (nll * mask.reshape(-1)).sum() / n

    @torch.no_grad()
    def joint_marginals(self, words: torch.Tensor, chars: torch.Tensor | None, mask: torch.Tensor,
                        char_feats: torch.Tensor | None = None) -> torch.Tensor:
        """p(joint label) per word, (B, T, K): CRF marginals, or a softmax without a CRF."""
        em = self.emissions(words, chars, char_feats)
        if self.separate:
            em_p, em_c = em[..., :N_PUNCT], em[..., N_PUNCT:]
            pm = self.crf.marginals(em_p, mask) if self.crf is not None else torch.softmax(em_p, dim=2)
            cm = torch.softmax(em_c, dim=2)
            B, T, _ = em.shape
            # shape: (B, T, 28), the heads' product in the joint label order (mark-major)
            joint = (pm.unsqueeze(3) * cm.unsqueeze(2)).reshape(B, T, N_PUNCT * N_CASE)
            return joint * mask.unsqueeze(2)
        if self.crf is not None:
            return self.crf.marginals(em, mask)
        return torch.softmax(em, dim=2) * mask.unsqueeze(2)


def split_marginals(joint: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(..., 28) joint -> punctuation (..., 7) and case (..., 4) marginals."""
    j = joint.reshape(*joint.shape[:-1], N_PUNCT, N_CASE)
    return j.sum(-1), j.sum(-2)
