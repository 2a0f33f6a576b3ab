"""The encoder's word states computed once and kept on disk, for training the BiLSTM-CRF and case
head on a frozen encoder (`editor.restore.lab.train_frozen`) on a CPU.

With the encoder fixed, its output for a training window never changes: computing it once and
reading it back from disk makes each training step cost only the BiLSTM and heads, where running
the encoder would cost several times more (the encoder family's card: 2,658 words/s on 2 cores with
the whole encoder fixed but still run, against about 1,000 words/s with all of it trained).

The encoder is the published all-MiniLM-L6-v2 read back from its int8 copy (one scale per row),
i.e. exactly the weights an exported model ships and runs with, so the states trained on are the
ones inference computes.

A cache folder holds
- `dev.npz` + `dev-states.npy`: dev2012's words, gold labels and the state of each word of each
  window of the inference plan (120 words, overlap 16, cut 8), so that training scores dev the way
  `stet restore` reads text;
- `shard-00000.npz` + `shard-00000.npy` ...: training windows of 120 words (float16 states
  (W, 120, H), joint labels (W, 120), lengths (W,)), half of them with simulated recognition errors,
  drawn from the sources by their weights. Each shard is written atomically, so a stopped run
  resumes at the first missing shard and makes the same windows it would have made;
- `cache.json`: what was cached (sources, weights, seeds, encoder sha256), checked on resume.

    python -m editor.restore.lab.frozen_features --encoder MINILM_DIR --out runs/feat --words 4e6
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
import torch

WINDOW = 120  # words per training window: the inference chunk size
DRAW = 124  # words drawn per window: recognition errors delete a few, the window is cut to WINDOW
CHUNK = {"size": 120, "overlap": 16, "cut": 8}  # the shipped models' chunking (config.json)
CACHE_FORMAT = 1


def frozen_model(encoder_dir: Path):
    """The published encoder under a fresh head, its weights passed through int8 as exported, in
    eval mode, with its tokenizer; and where it came from."""
    from editor.restore.model.encoder import upgrade_state
    from editor.restore.lab.train_encoder import model_from_encoder_dir
    from editor.restore.model.pieces import Pieces
    from editor.restore.model.quant import dequantize_state, quantize_state

    model, origin = model_from_encoder_dir(encoder_dir, {})
    model.encoder.load_state_dict(upgrade_state(dequantize_state(quantize_state(model.encoder.state_dict()))))
    model.pieces = Pieces.from_file(encoder_dir / "tokenizer.json", model.cfg.max_pieces)
    return model.eval(), origin


@torch.no_grad()
def window_states(model, table: np.ndarray, lens: np.ndarray) -> np.ndarray:
    """Windows of words as sub-word rows (B, T, k) and counts (B, T) -> float16 states (B, T, H);
    windows of like length are read together (`windows.length_groups`), as inference does."""
    from editor.restore.model.pieces import assemble
    from editor.restore.passes.windows import length_groups

    B, T = lens.shape
    out = np.zeros((B, T, model.cfg.hidden), np.float16)
    pieces = model.pieces
    for group in length_groups(lens.sum(1, dtype=np.int64), torch.device("cpu")):
        p, f = assemble(table[group], lens[group], pieces.cls, pieces.sep)
        h = model.word_states(torch.from_numpy(p), torch.from_numpy(f))
        out[group] = h.numpy().astype(np.float16)
    out[lens == 0] = 0
    return out


def _save_npy(path: Path, array: np.ndarray) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        np.save(f, array)
    os.replace(tmp, path)


def _save_npz(path: Path, **arrays: np.ndarray) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        np.savez(f, **arrays)
    os.replace(tmp, path)


def cache_dev(model, dev_tsv: Path, out: Path, n_windows: int = 0, log=print) -> None:
    """dev2012's words and gold labels, and the states of the inference plan's windows over it
    (of its first `n_windows` windows; 0: all)."""
    from editor.restore.passes.chunks import plan_chunks
    from editor.restore.lab.data import read_iwslt_tsv

    if (out / "dev.npz").is_file() and (out / "dev-states.npy").is_file():
        return
    t0 = time.time()
    words, gold = read_iwslt_tsv(dev_tsv)
    plan = plan_chunks(len(words), CHUNK["size"], CHUNK["overlap"], CHUNK["cut"])
    table, lens = model.pieces.table(words)
    if 0 < n_windows < len(plan.windows):
        plan = type(plan)(plan.n, plan.windows[:n_windows], plan.owned[:n_windows])
        words, gold = words[: plan.owned[-1][1]], gold[: plan.owned[-1][1]]
    states = np.zeros((len(plan.windows), WINDOW, model.cfg.hidden), np.float16)
    for i in range(0, len(plan.windows), 64):
        idx = range(i, min(i + 64, len(plan.windows)))
        t = np.zeros((len(idx), WINDOW, table.shape[1]), np.int32)
        c = np.zeros((len(idx), WINDOW), np.int8)
        for b, w in enumerate(idx):
            s, e = plan.windows[w]
            t[b, : e - s], c[b, : e - s] = table[s:e], lens[s:e]
        states[i : i + len(idx)] = window_states(model, t, c)
    _save_npy(out / "dev-states.npy", states)
    _save_npz(out / "dev.npz", words=np.asarray(words), gold=np.asarray(gold),
              windows=np.asarray(plan.windows, np.int64).reshape(-1, 2),
              owned=np.asarray(plan.owned, np.int64).reshape(-1, 2))
    log(f"dev: {len(words):,} words in {len(plan.windows):,} windows, {time.time() - t0:.0f} s", flush=True)


def window_starts(arrays: dict, weights: dict[str, float], seed: int) -> list[tuple[str, int]]:
    """Every source cut into windows of DRAW words that stay inside a document (from a random
    offset in each), shuffled; then interleaved by the sources' weights, so that any first n
    windows hold the sources in those shares. A source runs out before the others only where its
    weight asks for more windows than it has; it is then cycled again in a new order."""
    rng = np.random.default_rng(seed)
    per: dict[str, np.ndarray] = {}
    for name in weights:
        a = arrays[name]
        starts: list[int] = []
        for d0, d1 in zip(a.doc_starts[:-1], a.doc_starts[1:]):
            if d1 - d0 < DRAW:
                continue
            off = int(d0) + int(rng.integers(0, min(DRAW, d1 - d0 - DRAW + 1)))
            starts.extend(range(off, int(d1) - DRAW + 1, DRAW))
        per[name] = rng.permutation(np.asarray(starts, np.int64))
    names = [n for n in weights if weights[n] > 0 and len(per[n])]
    p = np.asarray([weights[n] for n in names], np.float64)
    p /= p.sum()
    total = sum(len(per[n]) for n in names)
    picks = rng.choice(len(names), size=total, p=p)
    used = dict.fromkeys(names, 0)
    out = []
    for k in picks:
        n = names[k]
        s = per[n]
        out.append((n, int(s[used[n] % len(s)])))
        used[n] += 1
    return out


def cache_training(model, arrays: dict, forms: list[str], weights: dict[str, float], out: Path, *,
                   words: int, shard_windows: int, asr_errors: float, seed: int, log=print) -> None:
    """Training shards until `words` words are cached (resuming after the shards already there)."""
    from editor.restore.lab.asr_noise import simulate_asr_errors
    from editor.restore.model.labels import N_CASE

    starts = window_starts(arrays, weights, seed)
    n_shards = -(-int(words) // (shard_windows * WINDOW))
    pieces = model.pieces
    t_start, done_words = time.time(), 0
    for k in range(n_shards):
        path = out / f"shard-{k:05d}.npz"
        if path.is_file() and (out / f"shard-{k:05d}.npy").is_file():
            continue
        rng = np.random.default_rng([seed, k])
        chosen = starts[k * shard_windows : (k + 1) * shard_windows]
        if not chosen:
            break
        f_rows = np.zeros((len(chosen), WINDOW), np.int64)
        labels = np.zeros((len(chosen), WINDOW), np.uint8)
        lens = np.zeros(len(chosen), np.int16)
        pool = np.concatenate([arrays[n].forms[s : s + DRAW] for n, s in chosen])
        noisy = np.zeros(len(chosen), bool)
        for b, (n, s) in enumerate(chosen):
            f = arrays[n].forms[s : s + DRAW].astype(np.int64)
            lab = arrays[n].labels[s : s + DRAW].astype(np.int64)
            if rng.random() < asr_errors:
                f, p, c = simulate_asr_errors(f, lab // N_CASE, lab % N_CASE, pool, rng)
                lab = p * N_CASE + c
                noisy[b] = True
            L = min(WINDOW, len(f))
            f_rows[b, :L], labels[b, :L], lens[b] = f[:L], lab[:L], L
        flat_forms = [forms[i] for i in f_rows.reshape(-1)]
        table, plens = pieces.table(flat_forms)
        table = table.reshape(len(chosen), WINDOW, -1)
        plens = plens.reshape(len(chosen), WINDOW)
        plens[np.arange(WINDOW)[None, :] >= lens[:, None]] = 0
        t0 = time.time()
        states = window_states(model, table, plens)
        _save_npy(out / f"shard-{k:05d}.npy", states)
        _save_npz(path, labels=labels, lens=lens, noisy=noisy,
                  sources=np.asarray([n for n, _ in chosen]))
        done_words += int(lens.sum())
        log(f"shard {k + 1}/{n_shards}: {int(lens.sum()):,} words in {time.time() - t0:.0f} s "
            f"({int(lens.sum()) / (time.time() - t0):,.0f} words/s; {done_words:,} this run in "
            f"{time.time() - t_start:.0f} s)", flush=True)


def main(argv: list[str] | None = None) -> int:
    from editor.restore.lab.train_config import source_weights
    from editor.restore.lab.train_encoder import prepare_sources

    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--encoder", type=Path, required=True, help="the published encoder's folder")
    p.add_argument("--out", type=Path, required=True, help="the cache folder (resumed where it holds shards)")
    p.add_argument("--data", type=Path, default=Path("../shared/data"), help="folder with train/ and dev/")
    p.add_argument("--sources", required=True, help="name=weight,... (the training sources and their shares)")
    p.add_argument("--words", type=float, default=4e6, help="training words to cache")
    p.add_argument("--shard-windows", type=int, default=512, help="windows of 120 words per shard")
    p.add_argument("--asr-errors", type=float, default=0.5, help="share of windows with simulated recognition errors")
    p.add_argument("--seed", type=int, default=52)
    p.add_argument("--threads", type=int, default=1, help="torch threads (default 1: the cores are shared)")
    p.add_argument("--dev-windows", type=int, default=600,
                   help="dev2012 windows to cache (the first ones; 0: all; default 600, about 60,000 words)")
    a = p.parse_args(argv)
    torch.set_num_threads(a.threads)
    t0 = time.time()
    weights = source_weights(a.sources)
    a.out.mkdir(parents=True, exist_ok=True)
    model, origin = frozen_model(a.encoder)
    about = {"format": CACHE_FORMAT, "origin": origin, "sources": weights, "seed": a.seed,
             "asr_errors": a.asr_errors, "shard_windows": a.shard_windows, "window": WINDOW, "chunking": CHUNK,
             "model_args": model.cfg.to_dict()}
    meta = a.out / "cache.json"
    if meta.is_file():
        old = json.loads(meta.read_text())
        if {k: v for k, v in old.items() if k != "words"} != about:
            raise SystemExit(f"{a.out}: cached with other settings ({meta}); give another --out")
    tmp = meta.with_name("cache.json.tmp")
    tmp.write_text(json.dumps({**about, "words": a.words}, indent=1))
    os.replace(tmp, meta)
    if a.dev_windows >= 0:
        cache_dev(model, a.data / "dev" / "dev2012.tsv", a.out, a.dev_windows)
    forms, arrays = prepare_sources(a.data / "train", list(weights), workers=1)
    missing = [n for n in weights if n not in arrays]
    if missing:
        raise SystemExit(f"{a.data / 'train'}: no {', '.join(missing)}")
    print(f"prepared {sum(len(x.forms) for x in arrays.values()):,} words in {time.time() - t0:.0f} s", flush=True)
    cache_training(model, arrays, forms, weights, a.out, words=int(a.words), shard_windows=a.shard_windows,
                   asr_errors=a.asr_errors, seed=a.seed)
    print(f"done in {time.time() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
