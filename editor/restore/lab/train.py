"""`stet train`: train the BiLSTM-CRF on DATA/train (see train_config.DEFAULT_DATA_DIR), select on dev, resume when stopped.

Reproducible: fixed seeds, a token budget (not a time budget) drives the learning-rate schedule,
and the checkpoint carries the sampler's random state so a resumed run continues the same stream.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np
import torch

from editor.core.errors import UserError
from editor.restore.lab.asr_noise import RecognizerNoise, batch_with_asr_errors
from editor.restore.lab.data import (
    WindowSampler,
    build_mixed_lexicon,
    prepare,
    read_iwslt_tsv,
)
from editor.restore.labels import N_CASE
from editor.restore.model import BiLSTMCRF, ModelConfig
from editor.restore.lab.scoring import with_asr_errors
from editor.restore.lab.train_config import TrainConfig, add_train_arguments, train_config_from_args
from editor.restore.vocab import UNK, Vocab

CKPT_FORMAT = 1


def lr_at(cfg: TrainConfig, seen: int) -> float:
    if seen < cfg.warmup_tokens:
        return cfg.lr * max(0.05, seen / cfg.warmup_tokens)
    frac = seen / cfg.tokens
    if frac <= cfg.decay_from:
        return cfg.lr
    return cfg.lr * max(0.1, 1 - 0.9 * (frac - cfg.decay_from) / (1 - cfg.decay_from))


class FormTables:
    """Per form (distinct lowercase word of the training text): its word id and character ids."""

    def __init__(self, forms: list[str], vocab: Vocab) -> None:
        self.word = np.fromiter((vocab.word_id(f) for f in forms), np.int64, len(forms))
        self.chars = np.asarray([vocab.char_ids(f) for f in forms], np.int16)


def dev_f1(model: BiLSTMCRF, vocab: Vocab, words: list[str], gold: list[str]) -> dict:
    from editor.restore.lab.evaluate import punct_scores
    from editor.restore.windows import joint_marginals_chunked
    from editor.restore.labels import MARK_TO_3CLASS, PUNCT_MARKS
    from editor.restore.model import split_marginals

    joint = joint_marginals_chunked(model, vocab, words)
    punct, _case = split_marginals(torch.from_numpy(joint))
    pred = [MARK_TO_3CLASS[PUNCT_MARKS[i]] for i in punct.argmax(1).tolist()]
    return punct_scores(gold, pred)


def save_checkpoint(path: Path, state: dict) -> None:
    tmp = path.with_suffix(".tmp")
    torch.save(state, tmp)
    os.replace(tmp, path)


ENCODER_PREFIXES = ("word_emb.", "char_cnn.", "lstm.")


def widened_state(old: dict, old_hidden: int, fresh: dict, hidden: int) -> dict:
    """A narrower model's weights placed in a wider BiLSTM (Net2Net-style, function-preserving).

    Each old unit keeps its weights; each new unit keeps the fresh random weights it came with for
    its inputs, but every weight *from* a new unit to an old unit or to the output layer is zero, so
    the wider model computes exactly what the old one did and training grows the new units in.
    """
    H, W = old_hidden, hidden
    rows = torch.cat([torch.arange(g * W, g * W + H) for g in range(4)])  # old gate rows i, f, g, o
    cols2 = torch.cat([torch.arange(H), torch.arange(W, W + H)])  # [forward, backward] of the layer below
    out = {}
    for k, new in fresh.items():
        v, new = old[k], new.clone()
        if k.startswith("lstm.") and v.shape != new.shape:
            if k.startswith(("lstm.bias_ih", "lstm.bias_hh")):
                new[rows] = v
            elif k.startswith("lstm.weight_hh"):
                new[rows, :] = 0.0  # old units do not read the new ones
                new[rows[:, None], torch.arange(H)[None, :]] = v
            elif k.startswith("lstm.weight_ih"):
                if new.shape[1] == v.shape[1]:  # the first layer reads words: its inputs did not change
                    new[rows] = v
                else:
                    new[rows, :] = 0.0
                    new[rows[:, None], cols2[None, :]] = v
            else:
                raise ValueError(f"cannot widen {k}")
        elif k == "out.weight" and v.shape != new.shape:
            new.zero_()
            new[:, cols2] = v
        elif v.shape != new.shape:
            raise ValueError(f"cannot widen {k}: {tuple(v.shape)} -> {tuple(new.shape)}")
        else:
            new = v.clone()
        out[k] = new
    return out


def vocabulary_of_model_dir(model_dir: Path) -> tuple[Vocab, dict[str, str]]:
    """The vocabulary and mixed-case lexicon of a model directory, checked."""
    from editor.restore.package import verify_checksums

    if not (model_dir / "vocab.json").is_file():
        raise UserError(f"{model_dir}: not a model directory (no vocab.json)")
    verify_checksums(model_dir)
    vocab = Vocab.from_dict(json.loads((model_dir / "vocab.json").read_text()))
    lexicon = json.loads((model_dir / "lexicon.json").read_text())
    return vocab, lexicon


def init_from_model_dir(model: BiLSTMCRF, vocab: Vocab, model_dir: Path) -> str:
    """Copy a shipped model's weights into `model`; both must have the same vocabulary.

    With the same configuration every weight is copied. When only the output layer differs (a
    joint-CRF model used to start a separate-heads one, or the reverse), the encoder (embeddings,
    character CNN, BiLSTM) is copied and the output layer and CRF start fresh. Returns what was done.
    """
    from editor.restore.package import verify_checksums

    verify_checksums(model_dir)
    if Vocab.from_dict(json.loads((model_dir / "vocab.json").read_text())).words != vocab.words:
        raise UserError(f"{model_dir}: its vocabulary differs from the one built from this training text")
    state = {k: v.float() for k, v in torch.load(model_dir / "weights.pt", map_location="cpu", weights_only=True).items()}
    own = model.state_dict()
    old_hidden = int(json.loads((model_dir / "config.json").read_text())["model_args"]["hidden"])
    if old_hidden < model.cfg.hidden and set(state) == set(own):
        model.load_state_dict(widened_state(state, old_hidden, own, model.cfg.hidden))
        return (f"all weights, the BiLSTM widened from {old_hidden} to {model.cfg.hidden} units per direction "
                "(the new units start with no effect on the output, so the model starts where the old one was)")
    try:
        encoder = {k: v for k, v in state.items() if k.startswith(ENCODER_PREFIXES)}
        same_heads = set(state) == set(own) and all(state[k].shape == own[k].shape for k in state)
        if same_heads:
            model.load_state_dict(state)
            return "all weights"
        missing, _unexpected = model.load_state_dict(encoder, strict=False)
    except RuntimeError as err:
        raise UserError(f"{model_dir}: weights do not fit this model configuration ({str(err).splitlines()[0]})") from None
    if any(k.startswith(ENCODER_PREFIXES) for k in missing):
        raise UserError(f"{model_dir}: its encoder does not match this model configuration")
    return "the encoder (embeddings, character CNN, BiLSTM); the output layer and CRF start fresh"


def train(cfg: TrainConfig, log=print) -> Path:
    torch.set_num_threads(cfg.threads)
    out = Path(cfg.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    data = Path(cfg.data_dir)
    forms, arrays, counts, mixed_counts = prepare(data / "train", Path(cfg.cache_dir), list(cfg.sources), log=log)
    if cfg.init:
        # a run that goes on from a model keeps its vocabulary and lexicon, whatever the training text
        # now holds (the text may have changed since: see the data folder's README)
        vocab, lexicon = vocabulary_of_model_dir(Path(cfg.init))
    else:
        vocab = Vocab.build(counts, cfg.vocab_size)
        lexicon = build_mixed_lexicon(mixed_counts, counts)
    tables = FormTables(forms, vocab)
    dev_words, dev_gold = read_iwslt_tsv(data / "dev" / "dev2012.tsv")
    noisy_words, noisy_gold = with_asr_errors(dev_words, dev_gold, seed=0)  # the noisy dev copy of `stet eval`
    noise = None
    if cfg.asr_errors > 0 and cfg.asr_noise == "recognizer":
        t0 = time.time()
        noise = RecognizerNoise(forms, counts)
        log(f"recogniser-like errors: {int((np.diff(noise.alike_ptr) > 0).sum()):,} forms with sound-alikes, "
            f"{len(noise.split_to):,} compounds that split [{time.time() - t0:.0f} s]")

    mcfg = ModelConfig(vocab_size=len(vocab.words), n_chars=len(vocab.chars), max_word_len=vocab.max_word_len, **cfg.model)
    torch.manual_seed(cfg.seed)
    model = BiLSTMCRF(mcfg)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    sampler = WindowSampler(arrays, cfg.sources, seed=cfg.seed)
    drop_rng = np.random.default_rng(cfg.seed + 1)
    noise_rng = np.random.default_rng(cfg.seed + 2)
    seen, step, best, history = 0, 0, -1.0, []
    ckpt_path, best_path = out / "checkpoint.pt", out / "best.pt"
    if ckpt_path.exists():
        st = torch.load(ckpt_path, weights_only=False)  # our own training state, not a shipped model
        saved = st.get("model_args")
        if saved is not None and saved != mcfg.to_dict():
            diff = ", ".join(f"{k} {saved.get(k)!r} (now {v!r})" for k, v in mcfg.to_dict().items() if saved.get(k) != v)
            raise UserError(f"{ckpt_path}: this run was started with another model: {diff}; resume it with the "
                            f"options in {out / 'train_config.json'}, or give a new --out")
        try:
            model.load_state_dict(st["model"])
        except RuntimeError as err:  # a checkpoint from before model_args were saved
            raise UserError(f"{ckpt_path}: this run was started with another model configuration "
                            f"({str(err).splitlines()[0]}); resume it with the options in "
                            f"{out / 'train_config.json'}, or give a new --out") from None
        opt.load_state_dict(st["optimizer"])
        sampler.set_state(st["sampler"])
        drop_rng.bit_generator.state = st["drop_rng"]
        if "noise_rng" in st:
            noise_rng.bit_generator.state = st["noise_rng"]
        seen, step, best, history = st["seen"], st["step"], st["best"], st["history"]
        log(f"resumed from {ckpt_path}: {seen:,} words seen, step {step}, best dev F1 {best:.2f}")
    elif cfg.init:
        what = init_from_model_dir(model, vocab, Path(cfg.init))
        log(f"starting from {cfg.init}: {what}")
    (out / "train_config.json").write_text(json.dumps(asdict(cfg), indent=1))

    def state() -> dict:
        return {
            "model": model.state_dict(), "model_args": mcfg.to_dict(), "optimizer": opt.state_dict(), "sampler": sampler.state(),
            "drop_rng": drop_rng.bit_generator.state, "noise_rng": noise_rng.bit_generator.state, "seen": seen, "step": step, "best": best, "history": history,
        }

    def export_best(metrics: dict) -> None:
        save_checkpoint(best_path, {
            "format_version": CKPT_FORMAT, "model_args": mcfg.to_dict(), "state_dict": model.state_dict(),
            "vocab": vocab.to_dict(), "lexicon": lexicon, "metrics": metrics, "train_config": asdict(cfg),
        })

    t_start = time.time()
    t_last_save = t_last_log = time.time()
    seen_at_start, next_eval = seen, (seen // cfg.eval_every_tokens + 1) * cfg.eval_every_tokens
    loss_acc, n_acc = 0.0, 0
    model.train()
    while seen < cfg.tokens:
        f, lab = sampler.batch(cfg.tokens_per_batch)
        f, lab = batch_with_asr_errors(f, lab, cfg.asr_errors, noise_rng, N_CASE, noise)
        words = tables.word[f]
        if cfg.word_dropout > 0:
            words = np.where(drop_rng.random(words.shape) < cfg.word_dropout, UNK, words)
        chars = torch.from_numpy(tables.chars[f].astype(np.int64))
        words_t, lab_t = torch.from_numpy(words), torch.from_numpy(lab)
        mask = torch.ones(words_t.shape, dtype=torch.bool)
        for g in opt.param_groups:
            g["lr"] = lr_at(cfg, seen)
        loss = model.loss(words_t, chars, lab_t, mask)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.clip)
        opt.step()
        seen += words.size
        step += 1
        loss_acc += loss.item()
        n_acc += 1
        now = time.time()
        if now - t_last_log > 30:
            rate = (seen - seen_at_start) / (now - t_start)
            eta = (cfg.tokens - seen) / max(rate, 1)
            log(f"step {step} seen {seen / 1e6:.1f}M/{cfg.tokens / 1e6:.0f}M loss {loss_acc / n_acc:.4f} "
                f"lr {lr_at(cfg, seen):.2e} {rate:,.0f} words/s ETA {eta / 60:.0f} min")
            loss_acc, n_acc, t_last_log = 0.0, 0, now
        stop_for_time = (cfg.max_minutes > 0 and now - t_start > cfg.max_minutes * 60) or (0 < cfg.stop_at <= seen)
        if seen >= next_eval or seen >= cfg.tokens or stop_for_time:
            next_eval += cfg.eval_every_tokens
            model.eval()
            te = time.time()
            m = dev_f1(model, vocab, dev_words, dev_gold)
            mn = dev_f1(model, vocab, noisy_words, noisy_gold)
            model.train()
            history.append({"seen": seen, "minutes": (now - t_start) / 60, "dev": m, "dev_noisy": mn})
            log(f"dev2012 @ {seen / 1e6:.1f}M words: overall F1 {m['overall']['f1']:.2f} "
                f"(COMMA {m['COMMA']['f1']:.1f} PERIOD {m['PERIOD']['f1']:.1f} QUESTION {m['QUESTION']['f1']:.1f}), "
                f"noisy copy {mn['overall']['f1']:.2f} [{time.time() - te:.0f} s]")
            if m["overall"]["f1"] > best:
                best = m["overall"]["f1"]
                export_best({"dev2012": m, "seen": seen})
            save_checkpoint(ckpt_path, state())
            t_last_save = time.time()
        elif now - t_last_save > cfg.save_every_s:
            save_checkpoint(ckpt_path, state())
            t_last_save = now
        if stop_for_time:
            log(f"stopping at {seen:,} words after {(now - t_start) / 60:.0f} minutes; run again to resume")
            break
    save_checkpoint(ckpt_path, state())
    (out / "history.json").write_text(json.dumps(history, indent=1))
    return best_path


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m editor.restore.lab.train", description=__doc__)
    add_train_arguments(p)
    cfg = train_config_from_args(p.parse_args(argv))
    train(cfg, log=lambda s: print(time.strftime("%H:%M:%S"), s, flush=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
