"""Train the encoder family's BiLSTM-CRF and case head on a frozen encoder's cached word states
(`editor.restore.lab.frozen_features`), on a CPU, resumable; the best point is kept as an encoder
training run (run.json + weights + tokenizer.json) that `stet train --family encoder --export`
tunes and exports like any other.

Each step reads a batch of cached windows (float16 states, joint labels) and trains only the
BiLSTM, the marks' emissions, the CRF and the case head; the encoder is the one the states were
computed with, copied unchanged into the run's weights. Shards the cache writes while this runs are
taken up at the start of each pass over the data.

The run folder holds `head.pt` (the head, its optimiser, the curve; written atomically at every
dev evaluation, so a stopped run resumes from its last one) and, each time dev improves, the whole
network as an encoder run (`run.json`, `state-*.pt`). Where the run folder has no `vocab.json`, the
vocabulary and mixed-case lexicon of the training sources are counted into it first (the export
uses them instead of the shipped word model's, which were counted on other text).

The learning rate warms up over the first 200 steps, stays at its peak, and decays linearly to 5 %
over the last 30 % of --seconds (each run's own budget, so a resumed run anneals again).

    python -m editor.restore.lab.train_frozen --features runs/feat --encoder MINILM_DIR --out runs/open --seconds 3000
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

HEAD_FORMAT = 1


def complete_shards(features: Path) -> list[Path]:
    """The shards written so far (both files of each), in order."""
    return [p for p in sorted(features.glob("shard-*.npz")) if p.with_suffix(".npy").is_file()]


class DevStates:
    """dev2012's cached window states, scored as `stet restore` reads: argmax marks per word of
    the windows' owned parts (`chunks.merge_owned`)."""

    def __init__(self, features: Path) -> None:
        z = np.load(features / "dev.npz")
        self.words, self.gold = [str(w) for w in z["words"]], [str(g) for g in z["gold"]]
        self.windows, self.owned = z["windows"], z["owned"]
        self.states = np.load(features / "dev-states.npy", mmap_mode="r")

    @torch.no_grad()
    def scores(self, model, n_windows: int = 0) -> dict:
        from editor.restore.lab.evaluate import punct_scores
        from editor.restore.model.labels import MARK_TO_3CLASS, N_CASE, N_PUNCT, PUNCT_MARKS

        was = model.training
        model.eval()
        n = len(self.windows) if n_windows <= 0 else min(n_windows, len(self.windows))
        marks: list[np.ndarray] = []
        for i in range(0, n, 64):
            j = min(n, i + 64)
            lens = torch.from_numpy(self.windows[i:j, 1] - self.windows[i:j, 0])
            mask = torch.arange(self.states.shape[1])[None, :] < lens[:, None]
            h = torch.from_numpy(np.asarray(self.states[i:j], np.float32))
            joint = model.joint_marginals_of_states(h, mask)
            punct = joint.reshape(*joint.shape[:2], N_PUNCT, N_CASE).sum(-1).argmax(-1).numpy()
            for b in range(j - i):
                s = self.windows[i + b, 0]
                a, e = self.owned[i + b]
                marks.append(punct[b, a - s : e - s])
        model.train(was)
        pred = np.concatenate(marks)
        gold = self.gold[: len(pred)]
        return punct_scores(gold, [MARK_TO_3CLASS[PUNCT_MARKS[k]] for k in pred.tolist()])


def write_vocabulary(out: Path, data_dir: Path, sources: list[str], log=print) -> None:
    """vocab.json (50,000 words) and lexicon.json (mixed-case words) counted on the training sources."""
    from editor.restore.lab.data import build_mixed_lexicon, prepare
    from editor.restore.model.vocab import Vocab

    if (out / "vocab.json").is_file() and (out / "lexicon.json").is_file():
        return
    t0 = time.time()
    forms, _arrays, counts, mixed = prepare(data_dir / "train", out / "text-cache", sources, log=log)
    vocab = Vocab.build(counts, 50000)
    lexicon = build_mixed_lexicon(mixed, counts)
    for name, doc in (("lexicon.json", lexicon), ("vocab.json", vocab.to_dict())):
        tmp = out / (name + ".tmp")
        tmp.write_text(json.dumps(doc))
        os.replace(tmp, out / name)
    log(f"vocabulary of {', '.join(sources)}: {len(vocab.words):,} words, {len(lexicon):,} mixed-case "
        f"in {time.time() - t0:.0f} s", flush=True)


def head_state(model) -> dict[str, torch.Tensor]:
    return {k: v.detach().clone() for k, v in model.state_dict().items() if not k.startswith("encoder.")}


def _save(obj, path: Path) -> None:
    tmp = path.with_name(path.name + ".tmp")
    torch.save(obj, tmp)
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--features", type=Path, required=True, help="the feature cache (frozen_features --out)")
    p.add_argument("--encoder", type=Path, required=True, help="the published encoder the cache was made with")
    p.add_argument("--out", type=Path, required=True, help="the run folder (resumed where it holds head.pt)")
    p.add_argument("--data", type=Path, default=Path("../shared/data"), help="folder with train/ (for the vocabulary)")
    p.add_argument("--seconds", type=float, default=3000.0,
                   help="this run's wall-clock budget for training, evaluations included (default 3000)")
    p.add_argument("--eval-seconds", type=float, default=300.0, help="seconds between dev evaluations")
    p.add_argument("--dev-windows", type=int, default=600, help="dev windows scored between evaluations (0: all)")
    p.add_argument("--batch-windows", type=int, default=32, help="windows of 120 words per step")
    p.add_argument("--lr", type=float, default=2e-3, help="peak learning rate")
    p.add_argument("--dropout", type=float, default=0.1)
    p.add_argument("--lstm-hidden", type=int, default=256,
                   help="BiLSTM units per direction of a first run (default 256; 128 trains 2.5 times faster)")
    p.add_argument("--from-model", type=Path, metavar="MODEL_DIR",
                   help="a first run starts its head from an exported model directory of this recipe (the shipped "
                        "open model: its weights are the checkpoint a later session continues); the optimiser starts afresh")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--seed", type=int, default=52)
    a = p.parse_args(argv)
    torch.set_num_threads(a.threads)
    return train(a)


def train(a: argparse.Namespace) -> int:
    from editor.restore.model.encoder import FAMILY, EncoderBiLSTMCRF, EncoderConfig
    from editor.restore.lab.frozen_features import frozen_model
    from editor.restore.lab.train_encoder import RUN_FORMAT, save_parts

    t_start = time.time()
    about = json.loads((a.features / "cache.json").read_text())
    a.out.mkdir(parents=True, exist_ok=True)
    write_vocabulary(a.out, a.data, [n for n, w in about["sources"].items() if w > 0])
    enc_model, origin = frozen_model(a.encoder)
    if origin.get("encoder_sha256") != about["origin"].get("encoder_sha256"):
        raise SystemExit(f"{a.encoder}: not the encoder {a.features} was cached with")
    cfg = EncoderConfig(**{**about["model_args"], "dropout": a.dropout, "lstm_hidden": a.lstm_hidden})
    model = EncoderBiLSTMCRF(cfg)
    model.encoder.load_state_dict(enc_model.encoder.state_dict())
    model.encoder.requires_grad_(False)
    (a.out / "tokenizer.json").write_bytes((a.encoder / "tokenizer.json").read_bytes())
    params = [prm for k, prm in model.named_parameters() if not k.startswith("encoder.")]
    opt = torch.optim.AdamW(params, lr=a.lr, weight_decay=0.01)
    ck_path = a.out / "head.pt"
    history: list[dict] = []
    seen, steps_before, best = 0, 0, -1.0
    if ck_path.is_file():
        ck = torch.load(ck_path, map_location="cpu", weights_only=False)
        if ck.get("format") != HEAD_FORMAT:
            raise SystemExit(f"{ck_path}: not a head checkpoint of this version")
        if ck.get("model_args", cfg.to_dict()) != cfg.to_dict():
            raise SystemExit(f"{ck_path}: trained with other model settings ({ck.get('model_args')}); "
                             "give the same --lstm-hidden and --dropout, or another --out")
        model.load_state_dict(ck["head"], strict=False)
        opt.load_state_dict(ck["opt"])
        history, seen, steps_before = ck["history"], ck["seen"], ck["steps"]
        best = max((h["dev"] for h in history), default=-1.0)
        print(f"resumed {a.out}: {seen:,} words seen, best dev {best:.2f}", flush=True)
    elif a.from_model:
        from editor.restore.model.package import load_model_dir

        class _Loaded:  # load_model_dir builds its result with cls(model, vocab, ...)
            def __init__(self, model, *_args, **_kw) -> None:
                self.model = model

        src = load_model_dir(a.from_model, torch.device("cpu"), _Loaded).model
        if not isinstance(src, EncoderBiLSTMCRF) or src.cfg != cfg:
            raise SystemExit(f"{a.from_model}: not a model of this recipe (give the same --lstm-hidden and --dropout)")
        model.load_state_dict(head_state(src), strict=False)
        print(f"head from {a.from_model}", flush=True)
    run_index = len({h["run_start"] for h in history})
    dev = DevStates(a.features)
    settings = {k: v for k, v in vars(a).items() if isinstance(v, (int, float, str))}
    settings.update({"asr_errors": about["asr_errors"], "frozen_encoder": True, "features": "cached, float16"})
    rng = np.random.default_rng([a.seed, run_index])
    model.train()

    def evaluate(tag: str, n_windows: int) -> None:
        nonlocal best
        te = time.time()
        m = dev.scores(model, n_windows)
        row = {"tag": tag, "run": run_index, "run_start": round(t_start), "seen": seen,
               "s": round(time.time() - t_start, 1), "dev": round(m["overall"]["f1"], 2),
               "dev_words": "all" if n_windows <= 0 else f"first {n_windows} windows",
               "comma": round(m["COMMA"]["f1"], 2), "period": round(m["PERIOD"]["f1"], 2),
               "question": round(m["QUESTION"]["f1"], 2), "device": "cpu", "eval_s": round(time.time() - te, 1)}
        history.append(row)
        print(json.dumps(row), flush=True)
        _save({"format": HEAD_FORMAT, "model_args": cfg.to_dict(), "head": head_state(model), "opt": opt.state_dict(),
               "history": history,
               "seen": seen, "steps": steps_before + step}, ck_path)
        comparable = [h["dev"] for h in history[:-1] if h["dev_words"] == row["dev_words"]]
        if not (a.out / "run.json").is_file() or row["dev"] > max(comparable, default=-1.0):
            parts = save_parts(a.out, model.state_dict())
            doc = {"format": RUN_FORMAT, "family": FAMILY, "model_args": cfg.to_dict(), "origin": origin,
                   "sources": about["sources"], "settings": settings, "parts": parts, "best": row,
                   "seen": seen, "history": history}
            tmp = a.out / "run.json.tmp"
            tmp.write_text(json.dumps(doc, indent=1))
            os.replace(tmp, a.out / "run.json")

    step = 0
    deadline = time.time() + a.seconds  # (reading the cache and counting the vocabulary are not in it)
    next_eval = time.time() + a.eval_seconds
    if not history:
        evaluate("start", a.dev_windows)
    t0, t_log, loss_sum, loss_n, seen_run = time.time(), time.time(), 0.0, 0, 0
    budget = max(1.0, deadline - t0)
    done = False
    while not done:
        shards = complete_shards(a.features)
        if not shards:
            raise SystemExit(f"{a.features}: no shards yet")
        plan = []
        for si, sp in enumerate(shards):
            n = len(np.load(sp)["lens"])
            order = rng.permutation(n)
            plan.extend((si, np.sort(order[i : i + a.batch_windows])) for i in range(0, n - a.batch_windows + 1, a.batch_windows))
        rng.shuffle(plan)  # type: ignore[arg-type]
        print(f"pass over {len(shards)} shards, {len(plan)} batches", flush=True)
        opened: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        for si, idx in plan:
            now = time.time()
            if step and now >= deadline - 2 * (history[-1]["eval_s"] if history else 30):
                done = True
                break
            if si not in opened:
                z = np.load(shards[si])
                opened[si] = (np.load(shards[si].with_suffix(".npy"), mmap_mode="r"), z["labels"], z["lens"])
            states, labels, lens = opened[si]
            h = torch.from_numpy(np.asarray(states[idx], np.float32))
            lab = torch.from_numpy(labels[idx].astype(np.int64))
            ln = torch.from_numpy(lens[idx].astype(np.int64))
            mask = torch.arange(h.shape[1])[None, :] < ln[:, None]
            el = now - t0
            f = min(1.0, (steps_before + step + 1) / 200) if steps_before + step < 200 else 1.0
            f *= max(0.05, 1 - max(0.0, el - 0.7 * budget) / (0.3 * budget))
            for g in opt.param_groups:
                g["lr"] = a.lr * f
            loss = model.loss_of_states(h, lab, mask)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            opt.step()
            step += 1
            seen += int(ln.sum())
            seen_run += int(ln.sum())
            loss_sum += float(loss.detach())
            loss_n += 1
            if time.time() - t_log > 60:
                print(f"step {steps_before + step} seen {seen / 1e6:.2f}M loss {loss_sum / loss_n:.4f} lr x{f:.2f} "
                      f"{seen_run / (time.time() - t0):,.0f} words/s", flush=True)
                loss_sum, loss_n, t_log = 0.0, 0, time.time()
            if time.time() >= next_eval:
                evaluate("periodic", a.dev_windows)
                next_eval = time.time() + a.eval_seconds
    evaluate("end", a.dev_windows)
    m_all = dev.scores(model, 0)
    print(f"done: dev2012 argmax F1 {m_all['overall']['f1']:.2f} (all words, last point), "
          f"{seen_run:,} words this run in {time.time() - t_start:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
