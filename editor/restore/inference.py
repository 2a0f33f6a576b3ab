"""Chunked, batched inference: words -> per-word joint marginals, and the public `Restorer`."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import torch

from editor.restore.chunks import ChunkPlan, merge_owned, merge_weighted, plan_chunks
from editor.restore.model import BiLSTMCRF
from editor.restore.vocab import Vocab

DEFAULT_SIZE, DEFAULT_OVERLAP = 120, 40


class Cancelled(Exception):
    """Restoration was cancelled; regions already reported through on_chunk stay valid."""


def _window_batches(plan: ChunkPlan, order: list[int], windows_per_batch: int):
    for i in range(0, len(order), windows_per_batch):
        yield order[i : i + windows_per_batch]


@torch.no_grad()
def run_windows(model: BiLSTMCRF, word_ids: np.ndarray, char_ids: np.ndarray, plan: ChunkPlan,
                idx: list[int], device: torch.device) -> list[np.ndarray]:
    """Joint marginals (len, K) for the windows `idx` of the plan, batched and padded together."""
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
    joint = model.joint_marginals(torch.from_numpy(w).to(device), torch.from_numpy(c).to(device),
                                  torch.from_numpy(mask).to(device))
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
    order = list(range(len(plan.windows)))
    for idx in _window_batches(plan, order, windows_per_batch):
        results.extend(run_windows(model, wid, cid, plan, idx, device))
    model.train(was_training)
    if not results:
        return np.zeros((0, model.cfg.n_labels), np.float32)
    return merge_weighted(plan, results) if merge == "weighted" else merge_owned(plan, results)
