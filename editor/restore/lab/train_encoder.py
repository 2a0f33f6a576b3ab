"""`stet train --family encoder`: fine-tune the encoder family (all-MiniLM-L6-v2 under a BiLSTM-CRF)
on DATA/train, on CPU or CUDA, within a wall-clock budget, resumable from one run to the next.

A run writes into OUT, each time dev improves (atomically): `state-0.pt` ... (the best network in
float16, split into files of at most 15 MB so that a GPU lease can hand them back), `run.json`
(config, sources, history, words seen) and `tokenizer.json`. `--resume OUT_OF_AN_EARLIER_RUN` starts
from those weights (the optimiser starts afresh, with its warm-up: its state is twice the size of the
weights and would not fit through a lease). The learning rate follows the time budget: warm-up over
the first 6 %, flat to 30 %, then linear down to 5 % at the end.

    python -m editor.restore.lab.train_encoder --encoder MINILM_DIR --out runs/enc --seconds 480 --device cuda
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing as mp
import os
import sys
import time
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from editor.restore.lab.train_encoder_args import add_encoder_arguments
from editor.restore.model.encoder import FAMILY, EncoderBiLSTMCRF, EncoderConfig, bert_state_from_hf, upgrade_state
from editor.restore.model.pieces import Pieces, assemble
from editor.restore.model.quant import dequantize_state, quantize_state

PART_BYTES = 15_000_000
RUN_FORMAT = 1


# ---------------------------------------------------------------- data
def prep_source(args: tuple[str, str]):
    """One source's words -> (name, local forms, form ids int32, labels uint8, document starts)."""
    import random

    from editor.restore.lab.data import source_arrays

    data_dir, name = args
    forms: list[str] = []
    a = source_arrays(Path(data_dir) / f"{name}.txt.gz", random.Random(zlib.crc32(name.encode())), forms, {})
    return name, forms, a.forms, a.labels, a.doc_starts


def prepare_sources(data_dir: Path, names: list[str], workers: int):
    """The sources' words in one form table (prepared in parallel, one process per source)."""
    from editor.restore.lab.data import SourceArrays

    names = [n for n in names if (data_dir / f"{n}.txt.gz").is_file()]
    if not names:
        raise SystemExit(f"{data_dir}: none of the training sources is there")
    jobs = [(str(data_dir), n) for n in names]
    if workers > 1:
        with mp.get_context("fork").Pool(min(workers, len(names))) as pool:
            parts = pool.map(prep_source, jobs)
    else:
        parts = [prep_source(j) for j in jobs]
    forms: list[str] = []
    gid: dict[str, int] = {}
    arrays = {}
    for name, local, ids, labs, starts in parts:
        remap = np.empty(len(local), np.int32)
        for j, f in enumerate(local):
            g = gid.get(f)
            if g is None:
                g = gid[f] = len(forms)
                forms.append(f)
            remap[j] = g
        arrays[name] = SourceArrays(remap[ids], labs, starts)
    return forms, arrays


class BatchStream(torch.utils.data.IterableDataset):
    """Endless training batches (pieces, firsts, labels), made in DataLoader workers: windows of
    40-120 words that never cross a document, simulated recognition errors in a share of them."""

    def __init__(self, arrays, weights, table, lens, cls: int, sep: int, words_per_batch: int, seed: int,
                 asr_errors: float) -> None:
        self.args = (arrays, weights, table, lens, cls, sep, words_per_batch, seed, asr_errors)

    def __iter__(self):
        from editor.restore.lab.asr_noise import batch_with_asr_errors
        from editor.restore.lab.data import WindowSampler
        from editor.restore.model.labels import N_CASE

        arrays, weights, table, lens, cls, sep, wpb, seed, asr_errors = self.args
        info = torch.utils.data.get_worker_info()
        s = seed * 1000 + (info.id if info else 0)
        sampler = WindowSampler(arrays, weights, seed=s)
        noise = np.random.default_rng(s + 2)
        while True:
            f, lab = sampler.batch(wpb)
            f, lab = batch_with_asr_errors(f, lab, asr_errors, noise, N_CASE, None)
            pieces, firsts = assemble(table[f], lens[f], cls, sep)
            yield torch.from_numpy(pieces), torch.from_numpy(firsts), torch.from_numpy(lab.astype(np.int64))


# ---------------------------------------------------------------- weights in and out
def save_parts(out: Path, state: dict[str, torch.Tensor], prefix: str = "state") -> list[str]:
    """A float16 state dict in files of at most PART_BYTES each (atomic); returns their names. A
    tensor larger than a file (the encoder's word embeddings) is cut by rows into `name@i` pieces."""
    pieces: list[tuple[str, torch.Tensor]] = []
    for k, v in state.items():
        v = v.detach().to("cpu", torch.float16 if v.is_floating_point() else v.dtype).contiguous()
        n = v.numel() * v.element_size()
        if n > PART_BYTES and v.dim() >= 1:
            rows = max(1, PART_BYTES // 2 // max(1, n // v.shape[0]))
            pieces.extend((f"{k}@{i}", c.clone()) for i, c in enumerate(torch.split(v, rows)))
        else:
            pieces.append((k, v))
    parts: list[dict[str, torch.Tensor]] = [{}]
    size = 0
    for k, v in pieces:
        n = v.numel() * v.element_size()
        if size and size + n > PART_BYTES:
            parts.append({})
            size = 0
        parts[-1][k] = v
        size += n
    names = []
    for i, part in enumerate(parts):
        name = f"{prefix}-{i}.pt"
        tmp = out / (name + ".tmp")
        torch.save(part, tmp)
        os.replace(tmp, out / name)
        names.append(name)
    for old in out.glob(f"{prefix}-*.pt"):
        if old.name not in names:
            old.unlink()
    return names


def load_parts(run_dir: Path, names: list[str]) -> dict[str, torch.Tensor]:
    stored: dict[str, torch.Tensor] = {}
    for name in names:
        stored.update(torch.load(run_dir / name, map_location="cpu", weights_only=True))
    cut: dict[str, list[tuple[int, torch.Tensor]]] = {}
    state: dict[str, torch.Tensor] = {}
    for k, v in stored.items():
        if "@" in k:
            base, i = k.rsplit("@", 1)
            cut.setdefault(base, []).append((int(i), v))
        else:
            state[k] = v
    for base, chunks in cut.items():
        state[base] = torch.cat([c for _, c in sorted(chunks, key=lambda x: x[0])])
    return upgrade_state({k: v.float() if v.is_floating_point() else v for k, v in state.items()})


def read_run(run_dir: Path) -> dict:
    path = run_dir / "run.json"
    if not path.is_file():
        raise SystemExit(f"{run_dir}: no run.json; not an encoder training run")
    run = json.loads(path.read_text())
    if run.get("format") != RUN_FORMAT or run.get("family") != FAMILY:
        raise SystemExit(f"{run_dir}: not an encoder training run of this version")
    return run


def load_run_model(run_dir: Path) -> tuple[EncoderBiLSTMCRF, dict]:
    """The best network of an encoder training run, with its tokenizer, and the run's record."""
    run = read_run(run_dir)
    model = EncoderBiLSTMCRF(EncoderConfig(**run["model_args"]))
    model.load_state_dict(load_parts(run_dir, run["parts"]))
    tok = run_dir / "tokenizer.json"
    if not tok.is_file():
        from editor.core.errors import UserError

        raise UserError(f"{run_dir}: no tokenizer.json; copy the one of the model the run started from")
    model.pieces = Pieces.from_file(tok, model.cfg.max_pieces)
    return model.eval(), run


def model_from_encoder_dir(encoder_dir: Path, cfg_over: dict) -> tuple[EncoderBiLSTMCRF, dict]:
    """A fresh head on the published encoder (model.safetensors + config.json of a BERT model)."""
    from safetensors.torch import load_file

    hf_cfg = json.loads((encoder_dir / "config.json").read_text())
    cfg = EncoderConfig(vocab_size=hf_cfg["vocab_size"], hidden=hf_cfg["hidden_size"],
                        layers=hf_cfg["num_hidden_layers"], heads=hf_cfg["num_attention_heads"],
                        intermediate=hf_cfg["intermediate_size"], max_positions=hf_cfg["max_position_embeddings"],
                        type_vocab=hf_cfg["type_vocab_size"], layer_norm_eps=hf_cfg["layer_norm_eps"], **cfg_over)
    if hf_cfg.get("hidden_act", "gelu") != "gelu":
        raise SystemExit(f"{encoder_dir}: only GELU encoders are supported")
    model = EncoderBiLSTMCRF(cfg)
    weights = encoder_dir / "model.safetensors"
    if weights.is_file():
        model.encoder.load_state_dict(bert_state_from_hf(load_file(str(weights)), cfg))
        return model, {"encoder": "all-MiniLM-L6-v2", "encoder_sha256": hashlib.sha256(weights.read_bytes()).hexdigest()}
    # the same weights stored in int8 (`--write-int8`): a copy small enough to travel to a GPU lease
    packed = torch.load(encoder_dir / "encoder-int8.pt", map_location="cpu", weights_only=True)
    model.encoder.load_state_dict(upgrade_state(dequantize_state(packed["state"])))
    return model, {**packed["origin"], "stored": "int8"}


def write_int8(encoder_dir: Path, out_dir: Path) -> None:
    """The published encoder as `encoder-int8.pt` (+ config.json, tokenizer.json) in out_dir."""
    model, origin = model_from_encoder_dir(encoder_dir, {})
    out_dir.mkdir(parents=True, exist_ok=True)
    torch.save({"state": quantize_state(model.encoder.state_dict()), "origin": origin}, out_dir / "encoder-int8.pt")
    for name in ("config.json", "tokenizer.json"):
        (out_dir / name).write_bytes((encoder_dir / name).read_bytes())


# ---------------------------------------------------------------- evaluation
def dev_scores(model: EncoderBiLSTMCRF, words: list[str], gold: list[str]) -> dict:
    """Argmax F1 on a word<TAB>LABEL dev set, through the inference path (windows of 120, overlap 16)."""
    from editor.restore.lab.evaluate import punct_scores
    from editor.restore.model.labels import MARK_TO_3CLASS, PUNCT_MARKS
    from editor.restore.model.bilstm_crf import split_marginals
    from editor.restore.passes.windows import joint_marginals_chunked

    joint = joint_marginals_chunked(model, None, words, windows_per_batch=128)  # type: ignore[arg-type]
    punct, _case = split_marginals(torch.from_numpy(joint))
    pred = [MARK_TO_3CLASS[PUNCT_MARKS[i]] for i in punct.argmax(1).tolist()]
    return punct_scores(gold, pred)


# ---------------------------------------------------------------- the loop
def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    add_encoder_arguments(p, standalone=True)
    a = p.parse_args(argv)
    if a.write_int8:
        write_int8(a.encoder, a.write_int8)
        return 0
    if a.resume is None and (a.out / "run.json").is_file():
        a.resume = a.out
    return train(a)


def train(a: argparse.Namespace) -> int:
    """One run (see the module's docstring); `a` holds the options of `add_encoder_arguments`."""
    t_start = time.time()
    from editor.restore.lab.train_config import DEFAULT_SOURCES, source_weights

    device = torch.device("cuda" if a.device == "cuda" or (a.device == "auto" and torch.cuda.is_available()) else "cpu")
    workers = a.workers if a.workers >= 0 else max(0, min(8, (os.cpu_count() or 2) - 2))
    torch.manual_seed(a.seed)
    a.out.mkdir(parents=True, exist_ok=True)
    if isinstance(a.sources, dict):
        weights = a.sources
    else:
        weights = dict(DEFAULT_SOURCES) if a.sources in ("default", None) else source_weights(a.sources)
    start = _starting_point(a)
    model = start.model
    pieces = Pieces.from_file(start.tokenizer, model.cfg.max_pieces)
    if start.tokenizer.resolve() != (a.out / "tokenizer.json").resolve():
        (a.out / "tokenizer.json").write_bytes(start.tokenizer.read_bytes())
    model.pieces = pieces
    model.to(device)

    data = Path(a.data)
    # only the sources drawn from are read: a source of weight 0 (say, one whose licence the model must
    # not inherit) never passes through the run, not even into the table of word forms
    drawn = [n for n, w in weights.items() if w > 0]
    forms, arrays = prepare_sources(data / "train", drawn, workers=min(len(drawn), max(1, workers)))
    skipped = [n for n, w in weights.items() if w > 0 and n not in arrays]
    if skipped:
        # the sampler draws from the sources there are, by their weights renormalised; the run records those
        total = sum(w for n, w in weights.items() if n in arrays)
        weights = {n: round(w / total, 4) for n, w in weights.items() if n in arrays}
        print(f"not in {data / 'train'}, skipped: {', '.join(skipped)}; drawing "
              + ", ".join(f"{n} {w:.2f}" for n, w in weights.items()), flush=True)
    table, lens = pieces.table(forms)
    print(f"prepared {sum(len(x.forms) for x in arrays.values()):,} words, {len(forms):,} forms "
          f"in {time.time() - t_start:.0f} s on {device}", flush=True)
    cuda = device.type == "cuda"
    stream = BatchStream(arrays, weights, table, lens, pieces.cls, pieces.sep,
                         a.words_per_batch or (12_800 if cuda else 1_200),
                         seed=a.seed + len(start.history), asr_errors=a.asr_errors)
    batches = torch.utils.data.DataLoader(stream, batch_size=None, num_workers=workers, pin_memory=cuda,
                                          prefetch_factor=4 if workers else None,
                                          multiprocessing_context="fork" if workers else None)
    run = _EncoderRun(a, start, device, weights, t_start)
    if not start.history or a.resume is None:
        run.evaluate("start")
    run.steps(batches, _optimizer(model, a, cuda))
    run.evaluate("end")
    print(f"done: best dev {run.best:.2f}, {run.seen:,} words this run in {time.time() - t_start:.0f} s", flush=True)
    return 0


@dataclass
class _Start:
    """What a run starts from: the model, where it came from, the curve so far, its tokenizer."""

    model: EncoderBiLSTMCRF
    origin: dict
    history: list[dict]
    seen_before: int
    tokenizer: Path


def _starting_point(a: argparse.Namespace) -> _Start:
    """An earlier run (--resume), a shipped model (--from-model) or the published encoder (--encoder)."""
    if a.resume:
        run = read_run(a.resume)
        model = EncoderBiLSTMCRF(EncoderConfig(**run["model_args"]))
        model.load_state_dict(load_parts(a.resume, run["parts"]))
        return _Start(model, run["origin"], run["history"], run["seen"], a.resume / "tokenizer.json")
    if getattr(a, "from_model", None):
        from editor.restore.model.package import load_model_dir

        class _Loaded:  # load_model_dir builds its result with cls(model, vocab, ...)
            def __init__(self, model, *_args, **_kw) -> None:
                self.model = model

        model = load_model_dir(a.from_model, torch.device("cpu"), _Loaded).model
        if not isinstance(model, EncoderBiLSTMCRF):
            raise SystemExit(f"{a.from_model}: not an encoder-family model directory")
        return _Start(model, {"from_model": Path(a.from_model).name}, [], 0, Path(a.from_model) / "tokenizer.json")
    if a.encoder:
        model, origin = model_from_encoder_dir(a.encoder, {"lstm_hidden": a.lstm_hidden, "dropout": a.dropout})
        return _Start(model, origin, [], 0, a.encoder / "tokenizer.json")
    raise SystemExit("give --encoder (the published encoder) or --resume (an earlier run)")


def _optimizer(model: EncoderBiLSTMCRF, a: argparse.Namespace, cuda: bool) -> torch.optim.AdamW:
    """AdamW over the encoder (at --lr) and the heads (at --head-lr); the lowest --freeze layers
    kept fixed (a CPU lever: less to compute backwards). Each group's peak is kept as "peak"."""
    frozen = ["encoder.word.", "encoder.position.", "encoder.token_type.", "encoder.norm."] if a.freeze else []
    frozen += [f"encoder.layers.{i}." for i in range(a.freeze)]
    enc_params, head_params = [], []
    for name, prm in model.named_parameters():
        if any(name.startswith(f) for f in frozen):
            prm.requires_grad_(False)
        elif name.startswith("encoder."):
            enc_params.append(prm)
        else:
            head_params.append(prm)
    groups = [{"params": head_params, "lr": a.head_lr, "peak": a.head_lr}]
    if enc_params:
        groups.insert(0, {"params": enc_params, "lr": a.lr, "peak": a.lr})
    return torch.optim.AdamW(groups, weight_decay=0.01, fused=cuda)


class _EncoderRun:
    """The steps of one run and its evaluations on dev, each written to run.json (the best weights
    kept as parts), so a run stopped at any point resumes from its last evaluation."""

    def __init__(self, a: argparse.Namespace, start: _Start, device: torch.device, weights: dict,
                 t_start: float) -> None:
        from editor.restore.lab.data import read_iwslt_tsv
        from editor.restore.lab.scoring import with_asr_errors

        self.a, self.start, self.device, self.weights, self.t_start = a, start, device, weights, t_start
        self.model, self.out, self.history = start.model, a.out, start.history
        self.cuda = device.type == "cuda"
        self.deadline = t_start + a.seconds
        self.dev_words, self.dev_gold = read_iwslt_tsv(Path(a.data) / "dev" / "dev2012.tsv")
        self.noisy_words, self.noisy_gold = with_asr_errors(self.dev_words, self.dev_gold, seed=0)
        if a.dev_words:
            self.dev_words, self.dev_gold = self.dev_words[: a.dev_words], self.dev_gold[: a.dev_words]
            self.noisy_words, self.noisy_gold = self.noisy_words[: a.dev_words], self.noisy_gold[: a.dev_words]
        self.best = max((h["dev"] for h in self.history), default=-1.0)
        self.seen = 0
        self.t0 = time.time()
        self.budget = max(1.0, self.deadline - self.t0)
        self.settings = {k: v for k, v in vars(a).items()
                         if k not in ("encoder", "resume", "out", "data", "from_model", "write_int8", "handler", "export")
                         and isinstance(v, (str, int, float, bool, dict, type(None)))}
        self.run_index = len({h["run_start"] for h in self.history})

    def steps(self, batches: Iterable, opt: torch.optim.AdamW) -> None:
        """Train until the deadline (leaving time for the last evaluation), evaluating every
        --eval-every seconds; the learning rate warms up over 6 % of the budget and decays over the
        last 70 %."""
        model, device = self.model, self.device
        model.train()
        next_eval = time.time() + self.a.eval_every
        loss_sum, loss_n, t_log, step = 0.0, 0, time.time(), 0
        for pcs, firsts, labels in batches:
            now = time.time()
            if step and now >= self.deadline - (15 if self.cuda else 5) - self.history[-1]["eval_s"]:
                break  # (a run always takes one step, however short its budget)
            el = now - self.t0
            f = (min(1.0, max(0.02, el / (0.06 * self.budget)))
                 * max(0.05, 1 - max(0.0, el - 0.3 * self.budget) / (0.7 * self.budget)))
            for g in opt.param_groups:
                g["lr"] = g["peak"] * f
            pcs, firsts, labels = (x.to(device, non_blocking=True) for x in (pcs, firsts, labels))
            mask = torch.ones(labels.shape, dtype=torch.bool, device=device)
            with torch.autocast(device.type, dtype=torch.bfloat16, enabled=self.cuda):
                loss = model.loss(pcs, firsts, labels, mask)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            step += 1
            self.seen += labels.numel()
            if step % 20 == 0:
                loss_sum += float(loss.detach())
                loss_n += 1
            if time.time() - t_log > 30:
                shown = f"{loss_sum / loss_n:.4f}" if loss_n else "-"  # sampled every 20 steps: none on a slow machine
                print(f"step {step} seen {self.seen / 1e6:.2f}M loss {shown} lr x{f:.2f} "
                      f"{self.seen / (time.time() - self.t0):,.0f} words/s", flush=True)
                loss_sum, loss_n, t_log = 0.0, 0, time.time()
            if time.time() >= next_eval:
                self.evaluate("periodic")
                next_eval = time.time() + self.a.eval_every

    def evaluate(self, tag: str) -> None:
        """Dev and its noisy copy scored; the row joins the curve; run.json rewritten, with the
        weights saved when this is the best so far."""
        te = time.time()
        model, out = self.model, self.out
        model.eval()
        with torch.autocast(self.device.type, dtype=torch.bfloat16, enabled=self.cuda):
            m = dev_scores(model, self.dev_words, self.dev_gold)
            mn = dev_scores(model, self.noisy_words, self.noisy_gold)
        model.train()
        seen = self.start.seen_before + self.seen
        row = {"tag": tag, "run": self.run_index, "run_start": round(self.t_start),
               "seen": seen, "s": round(time.time() - self.t0, 1), "dev": round(m["overall"]["f1"], 2),
               "comma": round(m["COMMA"]["f1"], 2), "period": round(m["PERIOD"]["f1"], 2),
               "question": round(m["QUESTION"]["f1"], 2), "noisy": round(mn["overall"]["f1"], 2),
               "device": str(self.device), "eval_s": round(time.time() - te, 1)}
        self.history.append(row)
        print(json.dumps(row), flush=True)
        run = read_run(out) if (out / "run.json").is_file() else None
        parts = run["parts"] if run else []
        if row["dev"] > self.best or not parts:
            self.best = max(self.best, row["dev"])
            parts = save_parts(out, model.state_dict())
            best_row = row
        else:
            best_row = run["best"] if run else row
        doc = {"format": RUN_FORMAT, "family": FAMILY, "model_args": model.cfg.to_dict(), "origin": self.start.origin,
               "sources": self.weights, "settings": self.settings, "parts": parts, "best": best_row,
               "seen": seen, "history": self.history}
        tmp = out / "run.json.tmp"
        tmp.write_text(json.dumps(doc, indent=1))
        os.replace(tmp, out / "run.json")


if __name__ == "__main__":
    sys.exit(main())
