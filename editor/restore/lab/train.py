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
from editor.restore.model.labels import N_CASE
from editor.restore.model.bilstm_crf import BiLSTMCRF, ModelConfig
from editor.restore.lab.scoring import with_asr_errors
from editor.restore.lab.train_config import TrainConfig, add_train_arguments, train_config_from_args
from editor.restore.model.vocab import UNK, Vocab

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
    from editor.restore.passes.windows import joint_marginals_chunked
    from editor.restore.model.labels import MARK_TO_3CLASS, PUNCT_MARKS
    from editor.restore.model.bilstm_crf import split_marginals

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
    from editor.restore.model.package import verify_checksums

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
    from editor.restore.model.package import verify_checksums

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
    run = _WordRun(cfg, out, log)
    (out / "train_config.json").write_text(json.dumps(asdict(cfg), indent=1))
    run.loop()
    save_checkpoint(run.ckpt_path, run.state())
    (out / "history.json").write_text(json.dumps(run.history, indent=1))
    return run.best_path


class _WordRun:
    """One run of the word model: the data, the model and its optimiser, the random streams, and
    the counts that a checkpoint keeps so that a stopped run resumes where it was."""

    def __init__(self, cfg: TrainConfig, out: Path, log) -> None:
        self.cfg, self.out, self.log = cfg, out, log
        data = Path(cfg.data_dir)
        forms, arrays, counts, mixed_counts = prepare(data / "train", Path(cfg.cache_dir), list(cfg.sources), log=log)
        if cfg.init:
            # a run that goes on from a model keeps its vocabulary and lexicon, whatever the training text
            # now holds (the text may have changed since: see the data folder's README)
            self.vocab, self.lexicon = vocabulary_of_model_dir(Path(cfg.init))
        else:
            self.vocab = Vocab.build(counts, cfg.vocab_size)
            self.lexicon = build_mixed_lexicon(mixed_counts, counts)
        vocab = self.vocab
        self.tables = FormTables(forms, vocab)
        self.dev_words, self.dev_gold = read_iwslt_tsv(data / "dev" / "dev2012.tsv")
        # the noisy dev copy of `stet eval`
        self.noisy_words, self.noisy_gold = with_asr_errors(self.dev_words, self.dev_gold, seed=0)
        self.noise = None
        if cfg.asr_errors > 0 and cfg.asr_noise == "recognizer":
            t0 = time.time()
            self.noise = RecognizerNoise(forms, counts)
            log(f"recogniser-like errors: {int((np.diff(self.noise.alike_ptr) > 0).sum()):,} forms with sound-alikes, "
                f"{len(self.noise.split_to):,} compounds that split [{time.time() - t0:.0f} s]")
        self.mcfg = ModelConfig(vocab_size=len(vocab.words), n_chars=len(vocab.chars), max_word_len=vocab.max_word_len,
                                **cfg.model)
        torch.manual_seed(cfg.seed)
        self.model = BiLSTMCRF(self.mcfg)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)
        self.sampler = WindowSampler(arrays, cfg.sources, seed=cfg.seed)
        self.drop_rng = np.random.default_rng(cfg.seed + 1)
        self.noise_rng = np.random.default_rng(cfg.seed + 2)
        self.seen, self.step, self.best, self.history = 0, 0, -1.0, []
        self.ckpt_path, self.best_path = out / "checkpoint.pt", out / "best.pt"
        if self.ckpt_path.exists():
            self.resume()
        elif cfg.init:
            what = init_from_model_dir(self.model, vocab, Path(cfg.init))
            log(f"starting from {cfg.init}: {what}")

    def resume(self) -> None:
        """Everything from the run's checkpoint; a checkpoint of another model shape is refused."""
        ckpt_path, out = self.ckpt_path, self.out
        st = torch.load(ckpt_path, weights_only=False)  # our own training state, not a shipped model
        saved = st.get("model_args")
        if saved is not None and saved != self.mcfg.to_dict():
            diff = ", ".join(f"{k} {saved.get(k)!r} (now {v!r})" for k, v in self.mcfg.to_dict().items()
                             if saved.get(k) != v)
            raise UserError(f"{ckpt_path}: this run was started with another model: {diff}; resume it with the "
                            f"options in {out / 'train_config.json'}, or give a new --out")
        try:
            self.model.load_state_dict(st["model"])
        except RuntimeError as err:  # a checkpoint from before model_args were saved
            raise UserError(f"{ckpt_path}: this run was started with another model configuration "
                            f"({str(err).splitlines()[0]}); resume it with the options in "
                            f"{out / 'train_config.json'}, or give a new --out") from None
        self.opt.load_state_dict(st["optimizer"])
        self.sampler.set_state(st["sampler"])
        self.drop_rng.bit_generator.state = st["drop_rng"]
        if "noise_rng" in st:
            self.noise_rng.bit_generator.state = st["noise_rng"]
        self.seen, self.step, self.best, self.history = st["seen"], st["step"], st["best"], st["history"]
        self.log(f"resumed from {ckpt_path}: {self.seen:,} words seen, step {self.step}, best dev F1 {self.best:.2f}")

    def state(self) -> dict:
        return {
            "model": self.model.state_dict(), "model_args": self.mcfg.to_dict(), "optimizer": self.opt.state_dict(),
            "sampler": self.sampler.state(), "drop_rng": self.drop_rng.bit_generator.state,
            "noise_rng": self.noise_rng.bit_generator.state, "seen": self.seen, "step": self.step, "best": self.best,
            "history": self.history,
        }

    def export_best(self, metrics: dict) -> None:
        save_checkpoint(self.best_path, {
            "format_version": CKPT_FORMAT, "model_args": self.mcfg.to_dict(), "state_dict": self.model.state_dict(),
            "vocab": self.vocab.to_dict(), "lexicon": self.lexicon, "metrics": metrics, "train_config": asdict(self.cfg),
        })

    def loop(self) -> None:
        """Steps until the word budget (or --max-minutes, or --stop-at); dev scored every
        eval_every_tokens words and at the end, a checkpoint after each score and every
        save_every_s seconds."""
        cfg, log = self.cfg, self.log
        t_start = time.time()
        t_last_save = t_last_log = time.time()
        seen_at_start, next_eval = self.seen, (self.seen // cfg.eval_every_tokens + 1) * cfg.eval_every_tokens
        loss_acc, n_acc = 0.0, 0
        self.model.train()
        while self.seen < cfg.tokens:
            loss_acc += self.one_step()
            n_acc += 1
            now = time.time()
            if now - t_last_log > 30:
                rate = (self.seen - seen_at_start) / (now - t_start)
                eta = (cfg.tokens - self.seen) / max(rate, 1)
                log(f"step {self.step} seen {self.seen / 1e6:.1f}M/{cfg.tokens / 1e6:.0f}M loss {loss_acc / n_acc:.4f} "
                    f"lr {lr_at(cfg, self.seen):.2e} {rate:,.0f} words/s ETA {eta / 60:.0f} min")
                loss_acc, n_acc, t_last_log = 0.0, 0, now
            stop_for_time = (cfg.max_minutes > 0 and now - t_start > cfg.max_minutes * 60) or (0 < cfg.stop_at <= self.seen)
            if self.seen >= next_eval or self.seen >= cfg.tokens or stop_for_time:
                next_eval += cfg.eval_every_tokens
                self.evaluate((now - t_start) / 60)
                save_checkpoint(self.ckpt_path, self.state())
                t_last_save = time.time()
            elif now - t_last_save > cfg.save_every_s:
                save_checkpoint(self.ckpt_path, self.state())
                t_last_save = now
            if stop_for_time:
                log(f"stopping at {self.seen:,} words after {(now - t_start) / 60:.0f} minutes; run again to resume")
                break

    def one_step(self) -> float:
        """One batch: sampled, made ASR-like, words dropped; returns its loss."""
        cfg, tables = self.cfg, self.tables
        f, lab = self.sampler.batch(cfg.tokens_per_batch)
        f, lab = batch_with_asr_errors(f, lab, cfg.asr_errors, self.noise_rng, N_CASE, self.noise)
        words = tables.word[f]
        if cfg.word_dropout > 0:
            words = np.where(self.drop_rng.random(words.shape) < cfg.word_dropout, UNK, words)
        chars = torch.from_numpy(tables.chars[f].astype(np.int64))
        words_t, lab_t = torch.from_numpy(words), torch.from_numpy(lab)
        mask = torch.ones(words_t.shape, dtype=torch.bool)
        for g in self.opt.param_groups:
            g["lr"] = lr_at(cfg, self.seen)
        loss = self.model.loss(words_t, chars, lab_t, mask)
        self.opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), cfg.clip)
        self.opt.step()
        self.seen += words.size
        self.step += 1
        return loss.item()

    def evaluate(self, minutes: float) -> None:
        """Dev and its noisy copy scored; the best model so far exported."""
        self.model.eval()
        te = time.time()
        m = dev_f1(self.model, self.vocab, self.dev_words, self.dev_gold)
        mn = dev_f1(self.model, self.vocab, self.noisy_words, self.noisy_gold)
        self.model.train()
        self.history.append({"seen": self.seen, "minutes": minutes, "dev": m, "dev_noisy": mn})
        self.log(f"dev2012 @ {self.seen / 1e6:.1f}M words: overall F1 {m['overall']['f1']:.2f} "
                 f"(COMMA {m['COMMA']['f1']:.1f} PERIOD {m['PERIOD']['f1']:.1f} QUESTION {m['QUESTION']['f1']:.1f}), "
                 f"noisy copy {mn['overall']['f1']:.2f} [{time.time() - te:.0f} s]")
        if m["overall"]["f1"] > self.best:
            self.best = m["overall"]["f1"]
            self.export_best({"dev2012": m, "seen": self.seen})


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m editor.restore.lab.train", description=__doc__)
    add_train_arguments(p)
    cfg = train_config_from_args(p.parse_args(argv))
    train(cfg, log=lambda s: print(time.strftime("%H:%M:%S"), s, flush=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
