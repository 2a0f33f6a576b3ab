"""How long a model download takes to stop after cancel while the server stalls mid-body and
before its headers (loopback fake server, tests/fakes/model_server.py).

Run on purpose:  .venv/bin/python tests/perf/bench_download_cancel.py [--trials 10]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from editor.asr.download import download_model  # noqa: E402
from editor.asr.errors import DownloadCancelled  # noqa: E402
from tests.fakes.model_server import model_zip, serve_loopback  # noqa: E402


def trial(server, stall: str, wait: float) -> float:
    body = model_zip()
    server.serve("m.zip", body, **({"stall_after": 40_000} if stall == "body" else
                                   {"stall_headers": True}))
    entry = server.entry("vosk-model-test-0.1", "m.zip", size=len(body), exact=True)
    cancel, set_at = threading.Event(), []

    def later() -> None:
        time.sleep(wait)
        set_at.append(time.monotonic())
        cancel.set()

    threading.Thread(target=later).start()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            download_model(entry, tmp, cancel=cancel, timeout=30)
        except DownloadCancelled:
            pass
    return time.monotonic() - set_at[0]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--trials", type=int, default=10)
    args = p.parse_args()
    with serve_loopback() as server:
        for stall in ("body", "headers"):
            lat = [trial(server, stall, 0.5 + 0.1 * i) for i in range(args.trials)]
            print(f"stall in {stall:<8} cancel latency: median {1000 * statistics.median(lat):.0f} ms,"
                  f" max {1000 * max(lat):.0f} ms over {len(lat)} trials")


if __name__ == "__main__":
    main()
