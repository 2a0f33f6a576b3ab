"""Total time from File > Open until the window's restoration is done, on a long transcript in
each format, and where that time goes: what a person waits before every suggestion is in.

Each run opens the file as File > Open does and stamps: the words shown (``transcript_opened``),
the pass started, the worker's last result in (the model's part, on a pool thread), and the pass
finished (``restoration_finished``). The UI thread takes the worker's results in slices
(editor.gui.work.restoration): the bench counts the slices, the time in them, the idle time between
them while results waited, and the turns of the event loop (``QAbstractEventDispatcher.awake``).
For comparison it times the model alone on the same words (``Restorer.restore``, as ``stet
restore`` runs it) in the same process. Medians over --runs runs, load average per run. Asserts
nothing: timings vary by machine and load.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/perf/bench_restore_time.py           # txt srt vosk
    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/perf/bench_restore_time.py --format srt --runs 5

With PYTHONPATH pointing at another checkout it measures that checkout's editor (the bench only
uses MainWindow's open_reporting, transcript_opened, restoration_finished and the restoration
controller's started signal and _drain/_received/_worker_succeeded methods).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gui_bench import FORMATS, bench_window, model_name, raw_transcript, transcript_file  # noqa: E402


class Stamps:
    """What one run saw: times (perf_counter) and the UI thread's slices of results."""

    def __init__(self) -> None:
        self.marks: dict[str, float] = {}
        self.slices: list[tuple[float, float]] = []  # (began, ended) of each _drain
        self.waiting_since: float | None = None  # results queued, no slice running since then
        self.idle = 0.0  # seconds results waited between slices
        self.long_waits: list[float] = []  # those waits over 10 ms
        self.awake = 0


STAMPS = Stamps()
PROFILE = None  # a cProfile.Profile of the UI thread's slices (--profile)
LAST_INPUT: dict = {}  # the words (and paragraph starts) the window's last pass gave the model


def instrument() -> None:
    """Wrap the restoration controller's methods (before the window makes one: the pump's timer
    and the worker's relay connect to the bound methods)."""
    from editor.gui.work.restoration import RestorationController as RC

    drain, received, succeeded = RC._drain, RC._received, RC._worker_succeeded

    def _drain(self) -> None:
        s = STAMPS
        began = time.perf_counter()
        if s.waiting_since is not None:
            s.idle += began - s.waiting_since
            if began - s.waiting_since > 0.01:
                s.long_waits.append(began - s.waiting_since)
        if PROFILE is not None:
            PROFILE.enable()
        drain(self)
        if PROFILE is not None:
            PROFILE.disable()
        ended = time.perf_counter()
        s.slices.append((began, ended))
        s.waiting_since = ended if self._queue else None

    def _received(self, payload) -> None:
        s = STAMPS
        if type(payload).__name__ == "Region":
            s.marks.setdefault("first chunk", time.perf_counter())
            s.marks["last chunk"] = time.perf_counter()
            if s.waiting_since is None and not self._queue:
                s.waiting_since = time.perf_counter()
        received(self, payload)

    def _worker_succeeded(self, result) -> None:
        STAMPS.marks["worker done"] = time.perf_counter()
        STAMPS.marks["worker seconds"] = getattr(result, "seconds", float("nan"))
        succeeded(self, result)

    RC._drain, RC._received, RC._worker_succeeded = _drain, _received, _worker_succeeded

    from editor.restore.passes.inference import Restorer

    restore = Restorer.restore

    def keep_input(self, *a, **kw):
        LAST_INPUT.update(args=a, kwargs=kw)
        return restore(self, *a, **kw)

    Restorer.restore = keep_input


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", choices=[f for f in FORMATS if f != "stet"], action="append",
                        help="the format to open (again for more; default: txt, srt, vosk)")
    parser.add_argument("--model", help="model directory (default: the shipped one; tiny: a tiny random one)")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--words", type=int, default=100_000)
    parser.add_argument("--paragraph", type=int, default=150, help="words per paragraph (0: one)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-model-alone", action="store_true",
                        help="skip timing Restorer.restore alone on the same words")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="profile the UI thread's slices and print the N costliest functions")
    args = parser.parse_args()
    if args.profile:
        import cProfile

        global PROFILE
        PROFILE = cProfile.Profile()

    from PySide6.QtCore import QAbstractEventDispatcher, QEventLoop, QTimer

    instrument()
    app, window, tmp, model = bench_window(args.model, args.device, prefix="stet-rtime-")
    from editor.gui.work.restoration import Restorers

    # passes on a pool thread of this process, where the model's input is caught (LAST_INPUT);
    # the window runs them in its worker process (bench_gui_stalls.py measures that)
    window.restoration.restorers.close()
    window.restoration.restorers = Restorers(in_worker=False)
    dispatcher = QAbstractEventDispatcher.instance()

    def count_awake() -> None:
        STAMPS.awake += 1

    dispatcher.awake.connect(count_awake)

    def open_and_restore(path: Path) -> Stamps:
        global STAMPS
        s = STAMPS = Stamps()
        done = QEventLoop()
        window.restoration_finished.connect(done.quit)

        def shown(_doc: object) -> None:
            s.marks["shown"] = time.perf_counter()

        def started(_words: int) -> None:
            s.marks["started"] = time.perf_counter()

        window.transcript_opened.connect(shown)
        window.restoration.started.connect(started)

        def go() -> None:
            s.marks["open"] = time.perf_counter()
            window.open_reporting(path)  # as File > Open does

        QTimer.singleShot(20, go)
        done.exec()
        s.marks["finished"] = time.perf_counter()
        window.restoration_finished.disconnect(done.quit)
        window.transcript_opened.disconnect(shown)
        window.restoration.started.disconnect(started)
        assert window.restoration_status == "done", window.restoration_status
        return s

    open_and_restore(raw_transcript(tmp / "warm.txt", 300, args.paragraph))  # load the model
    formats = args.format or ["txt", "srt", "vosk"]
    rows: dict[str, list[dict[str, float]]] = {}
    for fmt in formats:
        source = transcript_file(tmp, fmt, args.words, args.paragraph)
        for run in range(args.runs):
            load = os.getloadavg()[0]
            s = open_and_restore(source)
            m = s.marks
            spans = [b - a for a, b in s.slices]
            row = {
                "load": load,
                "total": m["finished"] - m["open"],
                "open": m["shown"] - m["open"],
                "restore": m["finished"] - m["started"],
                "worker": m["worker done"] - m["started"],
                "tail": m["finished"] - max(m["worker done"], m["last chunk"]),
                "slices": len(spans),
                "in slices": sum(spans),
                "slice ms": statistics.median(spans) * 1000 if spans else 0.0,
                "idle": s.idle,
                "long waits": len(s.long_waits),
                "in long waits": sum(s.long_waits),
                "turns": s.awake,
            }
            rows.setdefault(fmt, []).append(row)
            print(f"{fmt} run {run + 1} (load {load:.1f}): total {row['total']:.1f} s (shown "
                  f"{row['open']:.1f} s, restoring {row['restore']:.1f} s, the worker's "
                  f"{row['worker']:.1f} s, after it {row['tail']:.1f} s); {row['slices']} slices "
                  f"({row['slice ms']:.1f} ms median, {row['in slices']:.1f} s in all), results "
                  f"waited {row['idle']:.1f} s between slices ({row['long waits']} waits over 10 ms: "
                  f"{row['in long waits']:.1f} s); {row['turns']} event-loop turns",
                  flush=True)
            window.set_transcript(type(window.transcript)(), restore=False)  # the next opens anew
            app.processEvents()
    alone: list[float] = []
    if not args.no_model_alone:  # the model alone on the same words, as `stet restore` runs it
        restorer = window.restoration.restorers.get(None if model == "shipped" else model, args.device)
        words, kwargs = LAST_INPUT["args"][0], {k: v for k, v in LAST_INPUT["kwargs"].items()
                                                if k in ("paragraph_starts",)}
        for _ in range(args.runs):
            t = time.perf_counter()
            restorer.restore(words, **kwargs)
            alone.append(time.perf_counter() - t)
    platform = os.environ.get("QT_QPA_PLATFORM") or "xcb"
    print(f"\n{args.words:,} words, {args.paragraph or 'one'} per paragraph, model {model_name(model)}, "
          f"{platform}, {os.cpu_count()} cores; medians of {args.runs} (load average "
          f"{os.getloadavg()[0]:.1f} at the end)")
    print(f"  {'format':<6} {'total':>7} {'shown':>6} {'restore':>8} {'worker':>7} {'after':>6} "
          f"{'slices':>7} {'ms/slice':>8} {'in sl.':>7} {'waited':>7} {'turns':>7} {'load':>5}")
    for fmt, got in rows.items():
        med = {k: statistics.median(r[k] for r in got) for k in got[0]}
        print(f"  {fmt:<6} {med['total']:6.1f}s {med['open']:5.1f}s {med['restore']:7.1f}s "
              f"{med['worker']:6.1f}s {med['tail']:5.1f}s {med['slices']:7.0f} {med['slice ms']:8.1f} "
              f"{med['in slices']:6.1f}s {med['idle']:6.1f}s {med['turns']:7.0f} {med['load']:5.1f}")
    if alone:
        print(f"  the model alone (Restorer.restore, same process): {statistics.median(alone):.1f} s "
              f"median ({', '.join(f'{a:.1f}' for a in alone)})")
    if PROFILE is not None:
        import pstats

        print("\nthe UI thread's slices, all runs (cProfile, cumulative):")
        pstats.Stats(PROFILE).sort_stats("cumulative").print_stats(args.profile)
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
