"""The network over a word stream: overlapping windows batched and padded together, each known
word's character features computed once per text, and the windows' joint marginals merged."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from editor.restore.passes.chunks import ChunkPlan, merge_owned, merge_weighted, plan_chunks
from editor.restore.model.encoder import EncoderBiLSTMCRF
from editor.restore.model.labels import N_JOINT
from editor.restore.model.bilstm_crf import BiLSTMCRF
from editor.restore.model.pieces import Pieces, assemble
from editor.restore.model.vocab import UNK, Vocab

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
    joint_np = joint.float().cpu().numpy()
    return [joint_np[b, :L] for b, L in enumerate(lens)]


class WordWindows:
    """The word model over one text: words encoded window by window as they are first needed."""

    def __init__(self, model: BiLSTMCRF, vocab: Vocab, words: Sequence[str], device: torch.device) -> None:
        n = len(words)
        self.model, self.vocab, self.words, self.device = model, vocab, words, device
        self.wid = np.zeros(n, np.int64)
        self.cid = np.zeros((n, vocab.max_word_len), np.int64)
        self.encoded = np.zeros(n, bool)
        self.char_features = CharFeatures(model, device)

    def encode(self, s: int, e: int) -> None:
        if not self.encoded[s:e].all():
            self.wid[s:e], self.cid[s:e] = self.vocab.encode(list(self.words[s:e]))
            self.encoded[s:e] = True

    def run(self, plan: ChunkPlan, idx: list[int]) -> list[np.ndarray]:
        for i in idx:
            self.encode(*plan.windows[i])
        return run_windows(self.model, self.wid, self.cid, plan, idx, self.device, self.char_features)


class PieceWindows:
    """The encoder family over one text: each window's words as sub-words between [CLS] and [SEP]."""

    def __init__(self, model: EncoderBiLSTMCRF, pieces: Pieces, words: Sequence[str], device: torch.device) -> None:
        n = len(words)
        self.model, self.pieces, self.words, self.device = model, pieces, words, device
        self.table = np.zeros((n, pieces.max_pieces), np.int32)
        self.lens = np.zeros(n, np.int8)
        self.encoded = np.zeros(n, bool)

    def encode(self, s: int, e: int) -> None:
        if not self.encoded[s:e].all():
            self.table[s:e], self.lens[s:e] = self.pieces.table(self.words[s:e])
            self.encoded[s:e] = True

    @torch.no_grad()
    def run(self, plan: ChunkPlan, idx: list[int]) -> list[np.ndarray]:
        cache = self.model.window_cache
        if cache is not None:  # tuning: the same windows of dev text come back many times
            keys = [tuple(self.words[slice(*plan.windows[i])]) for i in idx]
            todo = [i for i, k in zip(idx, keys) if k not in cache]
            if todo:
                for k, r in zip([tuple(self.words[slice(*plan.windows[i])]) for i in todo], self._run(plan, todo)):
                    cache[k] = r
            return [cache[k] for k in keys]
        return self._run(plan, idx)

    def _run(self, plan: ChunkPlan, idx: list[int]) -> list[np.ndarray]:
        lens = [plan.windows[i][1] - plan.windows[i][0] for i in idx]
        B, T = len(idx), max(lens)
        if T > self.model.cfg.max_words:
            raise ValueError(f"a window of {T} words is longer than the encoder reads ({self.model.cfg.max_words})")
        table = np.zeros((B, T, self.pieces.max_pieces), np.int32)
        counts = np.zeros((B, T), np.int8)
        for b, i in enumerate(idx):
            s, e = plan.windows[i]
            self.encode(s, e)
            table[b, : e - s], counts[b, : e - s] = self.table[s:e], self.lens[s:e]
        groups = length_groups(counts.sum(1, dtype=np.int64), self.device)
        states: torch.Tensor | None = None
        for group in groups:
            # the encoder reads windows of like length together; the BiLSTM and CRF, whose cost
            # is in their steps over the words, then take the whole batch at once
            pieces, firsts = assemble(table[group], counts[group], self.pieces.cls, self.pieces.sep)
            h = self.model.word_states(torch.from_numpy(pieces).to(self.device), torch.from_numpy(firsts).to(self.device))
            if len(groups) == 1:
                states = h
                break
            if states is None:
                states = h.new_zeros((B, T, h.size(2)))
            states[torch.from_numpy(group).to(self.device)] = h
        assert states is not None
        mask = torch.from_numpy(counts > 0).to(self.device)
        joint_np = self.model.joint_marginals_of_states(states, mask).float().cpu().numpy()
        return [joint_np[b, :L] for b, L in enumerate(lens)]


#: Windows per encoder call on a CPU, sorted by length: a batch padded to its longest window
#: wasted 15 % of the sub-words of dev2012 (64 windows a batch; 4 % in groups of 16)
CPU_GROUP = 16


def length_groups(lengths: np.ndarray, device: torch.device) -> list[np.ndarray]:
    """The windows of one batch (their sub-word counts) in the groups the encoder reads them in:
    on a CPU, sorted by length in groups of `CPU_GROUP`, so that little is spent on padding; on a
    GPU, which is fed best in one large batch, all at once."""
    order = np.arange(len(lengths))
    if device.type != "cpu" or len(order) <= CPU_GROUP:
        return [order]
    order = np.argsort(lengths, kind="stable")
    return [order[i : i + CPU_GROUP] for i in range(0, len(order), CPU_GROUP)]


def windows_for(model: BiLSTMCRF | EncoderBiLSTMCRF, vocab: Vocab, words: Sequence[str],
                device: torch.device) -> WordWindows | PieceWindows:
    """The runner of `model` over `words`: the encoder family carries its own tokenizer (`model.pieces`)."""
    if isinstance(model, EncoderBiLSTMCRF):
        pieces = getattr(model, "pieces", None)
        if pieces is None:
            raise ValueError("an encoder model needs its tokenizer (model.pieces) to read words")
        return PieceWindows(model, pieces, words, device)
    return WordWindows(model, vocab, words, device)


def joint_marginals_chunked(model: BiLSTMCRF | EncoderBiLSTMCRF, vocab: Vocab, words: Sequence[str],
                            size: int = DEFAULT_SIZE, overlap: int = DEFAULT_OVERLAP, cut: int | None = None,
                            merge: str = "owned", windows_per_batch: int = 64,
                            device: torch.device | None = None) -> np.ndarray:
    """(N, K) joint marginals of a whole word stream (for evaluation; no callbacks)."""
    device = device or next(model.parameters()).device
    was_training = model.training
    model.eval()
    words = list(words)
    plan = plan_chunks(len(words), size, overlap, cut)
    results: list[np.ndarray] = []
    runner = windows_for(model, vocab, words, device)
    for i in range(0, len(plan.windows), windows_per_batch):
        idx = list(range(i, min(i + windows_per_batch, len(plan.windows))))
        results.extend(runner.run(plan, idx))
    model.train(was_training)
    if not results:
        return np.zeros((0, N_JOINT), np.float32)
    return merge_weighted(plan, results) if merge == "weighted" else merge_owned(plan, results)
