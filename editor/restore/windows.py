"""The network over a word stream: overlapping windows batched and padded together, each known
word's character features computed once per text, and the windows' joint marginals merged."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from editor.restore.chunks import ChunkPlan, merge_owned, merge_weighted, plan_chunks
from editor.restore.model import BiLSTMCRF
from editor.restore.vocab import UNK, Vocab

DEFAULT_SIZE, DEFAULT_OVERLAP = 120, 16


class CharFeatures:
    """The character CNN's output for each known word, computed once per text.

    A word's character features depend only on its spelling, and a text repeats its words (with
    overlapping windows, every word is also seen about 1.5 times), so each vocabulary word is
    spelled through the CNN once; unknown words (one id for many spellings) go through it each time.
    """

    def __init__(self, model: BiLSTMCRF, device: torch.device) -> None:
        self.model = model
        self.device = device
        self.table = torch.zeros(model.cfg.vocab_size, model.cfg.char_filters, device=device,
                                 dtype=model.word_emb.weight.dtype)
        self.known = np.zeros(model.cfg.vocab_size, bool)
        self.known[0] = True  # padding: no characters, features 0 (as the CNN gives)

    @torch.no_grad()
    def __call__(self, words: np.ndarray, chars: np.ndarray) -> torch.Tensor:
        """words (B, T), chars (B, T, C) -> features (B, T, char_filters)."""
        B, T = words.shape
        flat, flat_chars = words.reshape(-1), chars.reshape(B * T, -1)
        ids, first = np.unique(flat, return_index=True)
        new = (ids > UNK) & ~self.known[ids]
        if new.any():
            spelled = torch.from_numpy(flat_chars[first[new]]).to(self.device)
            self.table[torch.from_numpy(ids[new]).to(self.device)] = self.model.char_cnn(spelled).to(self.table.dtype)
            self.known[ids[new]] = True
        out = self.table[torch.from_numpy(flat).to(self.device)]
        unk = np.nonzero(flat == UNK)[0]
        if len(unk):
            out[torch.from_numpy(unk).to(self.device)] = self.model.char_cnn(
                torch.from_numpy(flat_chars[unk]).to(self.device)).to(out.dtype)
        return out.reshape(B, T, -1)


@torch.no_grad()
def run_windows(model: BiLSTMCRF, word_ids: np.ndarray, char_ids: np.ndarray, plan: ChunkPlan,
                idx: list[int], device: torch.device, char_features: CharFeatures | None = None) -> list[np.ndarray]:
    """Joint marginals (len, K) for the windows `idx` of the plan, batched and padded together.

    With `char_features` (inference) each known word's character features are computed once."""
    lens = [plan.windows[i][1] - plan.windows[i][0] for i in idx]
    B, T, C = len(idx), max(lens), char_ids.shape[1]
    w = np.zeros((B, T), np.int64)
    c = np.zeros((B, T, C), np.int64)
    mask = np.zeros((B, T), bool)
    for b, i in enumerate(idx):
        s, e = plan.windows[i]
        w[b, : e - s] = word_ids[s:e]
        c[b, : e - s] = char_ids[s:e]
        mask[b, : e - s] = True
    mask_t = torch.from_numpy(mask).to(device)
    if char_features is None:
        joint = model.joint_marginals(torch.from_numpy(w).to(device), torch.from_numpy(c).to(device), mask_t)
    else:
        joint = model.joint_marginals(torch.from_numpy(w).to(device), None, mask_t, char_feats=char_features(w, c))
    joint = joint.float().cpu().numpy()
    return [joint[b, :L] for b, L in enumerate(lens)]


def joint_marginals_chunked(model: BiLSTMCRF, vocab: Vocab, words: Sequence[str], size: int = DEFAULT_SIZE,
                            overlap: int = DEFAULT_OVERLAP, cut: int | None = None, merge: str = "owned",
                            windows_per_batch: int = 64, device: torch.device | None = None) -> np.ndarray:
    """(N, K) joint marginals of a whole word stream (for evaluation; no callbacks)."""
    device = device or next(model.parameters()).device
    was_training = model.training
    model.eval()
    wid, cid = vocab.encode(list(words))
    plan = plan_chunks(len(words), size, overlap, cut)
    results: list[np.ndarray] = []
    char_features = CharFeatures(model, device)
    for i in range(0, len(plan.windows), windows_per_batch):
        idx = list(range(i, min(i + windows_per_batch, len(plan.windows))))
        results.extend(run_windows(model, wid, cid, plan, idx, device, char_features))
    model.train(was_training)
    if not results:
        return np.zeros((0, model.cfg.n_labels), np.float32)
    return merge_weighted(plan, results) if merge == "weighted" else merge_owned(plan, results)
