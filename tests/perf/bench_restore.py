"""Restoration speed on this machine: words/s on a long input and time to the first chunk.

Run on purpose (not part of the test suite):
    .venv/bin/python tests/perf/bench_restore.py [--model DIR] [--threads 2] [--words 50000] [--runs 5]
Prints medians over the runs; the input is real dev text (../shared/data/dev) when present, else
synthetic words from the model's vocabulary. This machine's speed varies by 2x from hour to hour
(shared cores), so the rate of a fixed float32 matrix product on the same threads is measured
before and after the runs: compare words/s across hours only together with it.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

import torch


def gemm_gflops(repeats: int = 5) -> float:
    """Median GFLOPS of 20 products of two 1024 x 1024 float32 matrices, on torch's threads."""
    a, b = torch.randn(1024, 1024), torch.randn(1024, 1024)
    for _ in range(3):
        a @ b
    rates = []
    for _ in range(repeats):
        t = time.perf_counter()
        for _ in range(20):
            a @ b
        rates.append(20 * 2 * 1024**3 / (time.perf_counter() - t) / 1e9)
    return statistics.median(rates)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", default=None)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--words", type=int, default=50000)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--dev", default="../shared/data/dev/dev2012.tsv")
    p.add_argument("--quantize", action="store_true", help="int8 dynamic quantization of LSTM and linear layers")
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    from editor.restore.passes.inference import Restorer

    t0 = time.perf_counter()
    r = Restorer.load(a.model, device="cpu")
    load_s = time.perf_counter() - t0
    if a.quantize:
        r.model = torch.ao.quantization.quantize_dynamic(r.model, {torch.nn.LSTM, torch.nn.Linear}, dtype=torch.qint8)
    if Path(a.dev).is_file():
        from editor.restore.lab.data import read_iwslt_tsv

        words = read_iwslt_tsv(Path(a.dev))[0]
    else:
        rnd = random.Random(0)
        words = [rnd.choice(r.vocab.words[2:5000]) for _ in range(a.words)]
    words = (words * (a.words // max(len(words), 1) + 1))[: a.words]
    r.restore(words[:2000])  # warm-up
    gemm_before = gemm_gflops()
    rates, firsts = [], []
    for _ in range(a.runs):
        first = []
        t = time.perf_counter()
        r.restore(words, on_chunk=lambda s, e, preds, first=first, t=t: first.append(time.perf_counter() - t) if not first else None)
        dt = time.perf_counter() - t
        rates.append(len(words) / dt)
        firsts.append(first[0])
    res = {"model": r.name, "threads": a.threads, "words": len(words), "runs": a.runs, "quantized": a.quantize,
           "load_seconds": round(load_s, 2), "median_words_per_s": round(statistics.median(rates)),
           "min_words_per_s": round(min(rates)), "max_words_per_s": round(max(rates)),
           "median_first_chunk_ms": round(1000 * statistics.median(firsts), 1),
           "gemm_gflops_before": round(gemm_before, 1), "gemm_gflops_after": round(gemm_gflops(), 1)}
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
