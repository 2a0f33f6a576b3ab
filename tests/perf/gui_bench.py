"""What the GUI benchmarks share: the shipped model (or a tiny random one: ``--model tiny``), a raw
transcript of N words, a heartbeat that measures the event loop's gaps, and the editor window set
up as `stet` sets it up."""

from __future__ import annotations

import faulthandler
import gc
import os
import re
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

if not os.environ.get("DISPLAY"):  # under xvfb-run (or a desktop) Qt uses the X server
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def tiny_model(folder: Path) -> Path:
    import torch

    from editor.restore.model.bilstm_crf import BiLSTMCRF, ModelConfig
    from editor.restore.model.package import export_model
    from editor.restore.model.vocab import Vocab

    words = ["the", "a", "and", "of", "to", "i", "you", "we", "it", "is", "that", "this", "in", "for", "so", "what", "how", "okay", "yes"]
    torch.manual_seed(0)
    vocab = Vocab.build(Counter({w: 100 - i for i, w in enumerate(words)}), size=len(words) + 2,
                        min_char_count=1)
    cfg = ModelConfig(vocab_size=len(vocab.words), n_chars=len(vocab.chars), word_dim=8, char_dim=4,
                      char_filters=6, hidden=8, layers=2)
    out = folder / "tiny"
    export_model(BiLSTMCRF(cfg), vocab, {}, out, name="tiny", decision={"none_scale": 0.3},
                 calibration={"punct_temperature": 1.0, "case_temperature": 1.0},
                 chunking={"size": 40, "overlap": 8, "cut": None, "merge": "owned"}, metrics={})
    return out


def raw_transcript(path: Path, words: int, per_paragraph: int) -> Path:
    from editor.core.paths import resource_path

    sample = resource_path("samples", "sample.txt").read_text(encoding="utf-8").split()
    raw = [sample[i % len(sample)] for i in range(words)]
    if per_paragraph:
        text = "\n\n".join(" ".join(raw[i:i + per_paragraph]) for i in range(0, words, per_paragraph))
    else:
        text = " ".join(raw)
    path.write_text(text, encoding="utf-8")
    return path


def _queued() -> float:
    """Seconds this thread has waited for a core (Linux's run-queue delay; 0 where not told)."""
    try:
        with open("/proc/thread-self/schedstat", encoding="ascii") as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0


def _threads_cpu() -> dict[int, float]:
    """CPU seconds each thread of this process has run (Linux; empty where not told)."""
    out = {}
    try:
        for tid in os.listdir("/proc/self/task"):
            try:
                with open(f"/proc/self/task/{tid}/schedstat", encoding="ascii") as f:
                    out[int(tid)] = int(f.read().split()[0]) / 1e9
            except (OSError, ValueError, IndexError):
                pass
    except OSError:
        pass
    return out


def thread_label(tid: int) -> str:
    """A thread's Python name where Python knows it, else its OS name ("Thread (pooled)")."""
    for thread in threading.enumerate():
        if getattr(thread, "native_id", None) == tid:
            stack = stacks().get(thread.ident or 0, [])  # what it runs now, innermost first:
            names = [name for file, _line, name in stack  # its outermost frames of Stet's code
                     if "editor" in file]
            outer = names[::-1][:2]
            inner = [n for n in names[:3][::-1] if n not in outer]
            return thread.name + (f" ({' > '.join(outer + (['...'] if inner else []) + inner)})"
                                  if names else "")
    try:
        with open(f"/proc/self/task/{tid}/comm", encoding="utf-8") as f:
            return f"{f.read().strip()} {tid}"
    except OSError:
        return str(tid)


_DUMP_THREAD = re.compile(r"^(?:Current thread|Thread) 0x([0-9a-f]+) ")
_DUMP_FRAME = re.compile(r'^  File "(.*)", line (\d+|\?\?\?) in (.*)$')
_dump_lock = threading.Lock()
_dump_fd: int | None = None


def stacks() -> dict[int, list[tuple[str, int, str]]]:
    """Every thread's Python stack now, by thread ident: (file, line, function), innermost first.

    Read from ``faulthandler.dump_traceback``, not ``sys._current_frames()``: the frame objects
    that hands out keep the other thread's frames alive after that thread has returned from
    them, with their locals, so whatever a frame held is freed later, on this thread. A window
    sampled that way died of SIGSEGV: a status label's QPainter, kept by its ``paintEvent``'s
    frame, was ended on the sampling thread while the UI thread painted the next widget with the
    same backing-store paint engine (docs/performance.md, "How --profile-gaps samples").
    faulthandler reads the frames in C, under the GIL, and keeps nothing."""
    global _dump_fd
    with _dump_lock:
        if _dump_fd is None:
            _dump_fd = os.memfd_create("stet-bench-stacks") if hasattr(os, "memfd_create") \
                else os.dup(tempfile.TemporaryFile().fileno())
        os.ftruncate(_dump_fd, 0)
        os.lseek(_dump_fd, 0, os.SEEK_SET)
        faulthandler.dump_traceback(_dump_fd, all_threads=True)
        text = os.pread(_dump_fd, os.lseek(_dump_fd, 0, os.SEEK_CUR), 0).decode("ascii", "replace")
    out: dict[int, list[tuple[str, int, str]]] = {}
    stack: list[tuple[str, int, str]] = []
    for line in text.splitlines():
        if (thread := _DUMP_THREAD.match(line)) is not None:
            stack = out.setdefault(int(thread.group(1), 16), [])
        elif (frame := _DUMP_FRAME.match(line)) is not None:
            lineno = frame.group(2)
            stack.append((frame.group(1), int(lineno) if lineno.isdigit() else 0, frame.group(3)))
    return out


class Heartbeat:
    """Ticks every 5 ms on the UI thread. ``gaps``: wall-clock seconds between ticks (what a person
    feels). ``cpu_gaps``: the UI thread's own CPU seconds in each gap: on a machine shared with other
    work the wall gap also holds time the thread waited for a core, which this leaves out (it
    keeps waits for the GIL out as well, so it is a lower bound of an idle machine's gap).
    ``queue_gaps``: the seconds of each gap the thread was ready to run but waited for a core."""

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self.timer = QTimer()
        self.timer.setInterval(5)
        self.timer.timeout.connect(self._tick)
        self.gaps: list[float] = []
        self.cpu_gaps: list[float] = []
        self.queue_gaps: list[float] = []
        self.last = self.last_cpu = self.last_queued = 0.0
        #: with ``others``: per gap, the CPU seconds each other thread of the process ran in it
        #: (what the UI thread may have waited for: the GIL, or a core)
        self.others = False
        self.other_gaps: list[dict[int, float]] = []
        self.where: dict[int, dict[int, str]] = {}  # for long gaps: those threads, and where they are
        self._last_threads: dict[int, float] = {}

    def start(self) -> None:
        self.gaps.clear()
        self.cpu_gaps.clear()
        self.queue_gaps.clear()
        self.other_gaps.clear()
        self.where.clear()
        if self.others:
            self._last_threads = _threads_cpu()
        self.last = self.started = time.perf_counter()
        self.last_cpu, self.last_queued = time.thread_time(), _queued()
        self.timer.start()

    def stop(self) -> float:
        self.timer.stop()
        return max(self.gaps, default=0.0)

    def _tick(self) -> None:
        now, cpu, queued = time.perf_counter(), time.thread_time(), _queued()
        self.gaps.append(now - self.last)
        self.cpu_gaps.append(cpu - self.last_cpu)
        self.queue_gaps.append(queued - self.last_queued)
        self.last, self.last_cpu, self.last_queued = now, cpu, queued
        if self.others:
            threads = _threads_cpu()
            me = threading.get_native_id()
            ran = {t: c - self._last_threads.get(t, 0.0) for t, c in threads.items()
                   if t != me and c - self._last_threads.get(t, 0.0) > 0.0005}
            self.other_gaps.append(ran)
            self._last_threads = threads
            if self.gaps[-1] > 0.025:  # a long gap: what those threads run
                self.where[len(self.gaps) - 1] = {t: thread_label(t) for t in ran}


class GcLog:
    """Every full (generation 2) garbage collection while installed: how long it took, the thread
    it ran on (a pass holds the GIL, so the UI thread waits for one run on a worker as well) and
    the bench step it fell in (``step``, set by the bench). Gen-0/1 passes are only counted."""

    def __init__(self) -> None:
        self.step = "setup"
        self.passes: list[tuple[str, str, float, int]] = []  # (step, thread, ms, objects freed)
        self.young: dict[str, int] = {}
        self._began = 0.0

    def install(self) -> None:
        gc.callbacks.append(self._callback)

    def uninstall(self) -> None:
        if self._callback in gc.callbacks:
            gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict) -> None:
        if info["generation"] != 2:
            if phase == "stop":
                self.young[self.step] = self.young.get(self.step, 0) + 1
            return
        if phase == "start":
            self._began = time.perf_counter()
            return
        thread = threading.current_thread()
        name = "UI" if thread is threading.main_thread() else thread.name
        frame = sys._getframe().f_back  # what allocated the object that set the pass off (None: C)
        while frame is not None and "editor" not in frame.f_code.co_filename:
            frame = frame.f_back
        if frame is not None:
            name += f" in {frame.f_code.co_name}"
        self.passes.append((self.step, name, (time.perf_counter() - self._began) * 1000,
                            info["collected"]))

    def report(self) -> str:
        """Per step: the full passes (count, median and longest ms, threads) and young passes."""
        import statistics

        by_step: dict[str, list[tuple[str, float]]] = {}
        for step, thread, ms, _freed in self.passes:
            by_step.setdefault(step, []).append((thread, ms))
        lines = [f"full garbage collections: {len(self.passes)}, "
                 f"{sum(p[2] for p in self.passes):.0f} ms in all (gc.get_freeze_count() "
                 f"{gc.get_freeze_count():,} now)"]
        for step in dict.fromkeys([*by_step, *self.young]):
            passes = by_step.get(step, [])
            ms = [p[1] for p in passes]
            threads = ", ".join(f"{t} {n}" for t, n in
                                sorted({t: sum(1 for p in passes if p[0] == t) for t, _ in passes}.items()))
            lines.append(f"  {step:<18} {len(ms):3} full" + (
                f", median {statistics.median(ms):5.1f} ms, longest {max(ms):5.1f} ms ({threads})"
                if ms else "") + f"; {self.young.get(step, 0)} young")
        return "\n".join(lines)


def bench_window(model: str | None, device: str = "cpu", prefix: str = "stet-bench-"):
    """(app, window, scratch folder, model: its directory or "shipped"): a shown 1200x800 editor window with the process
    configured as `stet` does (threads; the PySide6 workaround on 3.11), its data kept in a scratch
    folder, restoring with ``model`` (a model directory; None: the shipped one, as a person's
    window does; "tiny": a tiny random one, for the window's own costs without the model's)."""
    from editor.core.process import configure_process
    from editor.core.settings import Settings
    from editor.gui import MainWindow, application

    configure_process(gui=True)
    app = application()
    tmp = Path(tempfile.mkdtemp(prefix=prefix))
    os.environ["XDG_DATA_HOME"] = str(tmp / "data")
    if model == "tiny":
        model = str(tiny_model(tmp))
    settings = Settings()
    settings.set("engine.restore_model", model or "")
    settings.set("engine.device", device)
    window = MainWindow(settings, interactive=False)
    window.resize(1200, 800)
    window.show()
    return app, window, tmp, model or "shipped"


def model_name(model: str) -> str:
    """What the benchmarks print for ``model`` ("shipped": the default model, by name). Call it
    once the measuring is done: it imports torch."""
    if model != "shipped":
        return Path(model).name
    from editor.restore.model.package import DEFAULT_MODEL

    return f"shipped ({DEFAULT_MODEL})"


#: What ``transcript_file`` writes, by the name the benchmarks take (--format).
FORMATS = ("txt", "srt", "vosk", "whisper", "stet")


def transcript_file(folder: Path, fmt: str, words: int, per_paragraph: int) -> Path:
    """A transcript of ``words`` words in ``fmt`` (one of FORMATS) as real tools write them:
    text in paragraphs; SubRip cues of 12 words; Vosk results (a JSON list) and Whisper segments
    of 15 words with each word's times and confidence. A .stet project is written by the bench
    (``window.save``) once it has restored the text: this gives its text."""
    from editor.core.paths import resource_path

    if fmt in ("txt", "stet"):
        return raw_transcript(folder / "long.txt", words, per_paragraph)
    import json

    sample = resource_path("samples", "sample.txt").read_text(encoding="utf-8").split()
    raw = [sample[i % len(sample)].strip(".,?!;:").lower() or "so" for i in range(words)]

    def clock(t: float) -> str:
        ms = round(t * 1000)
        return f"{ms // 3_600_000:02}:{ms // 60_000 % 60:02}:{ms // 1000 % 60:02},{ms % 1000:03}"

    def timed(group: list[str], at: float) -> list[tuple[str, float, float]]:
        return [(w, round(at + 0.3 * k, 3), round(at + 0.3 * k + 0.25, 3)) for k, w in enumerate(group)]

    if fmt == "srt":
        cues = []
        for n, i in enumerate(range(0, words, 12), 1):
            group = raw[i:i + 12]
            at = i * 0.3 + 0.5 * (i // max(per_paragraph, 12))  # a pause between paragraphs
            cues.append(f"{n}\n{clock(at)} --> {clock(at + 0.3 * len(group))}\n{' '.join(group)}\n")
        path = folder / "long.srt"
        path.write_text("\n".join(cues), encoding="utf-8")
        return path
    if fmt == "vosk":
        results = []
        for i in range(0, words, 15):
            group = timed(raw[i:i + 15], i * 0.3 + 2.0 * (i // max(per_paragraph, 15)))
            results.append({"result": [{"conf": 0.93, "end": e, "start": s, "word": w}
                                       for w, s, e in group],
                            "text": " ".join(w for w, _, _ in group)})
        path = folder / "long-vosk.json"
        path.write_text(json.dumps(results, indent=2), encoding="utf-8")
        return path
    if fmt == "whisper":
        segments = []
        for n, i in enumerate(range(0, words, 15)):
            group = timed(raw[i:i + 15], i * 0.3 + 2.0 * (i // max(per_paragraph, 15)))
            segments.append({"id": n, "start": group[0][1], "end": group[-1][2],
                             "text": "".join(f" {w}" for w, _, _ in group),
                             "words": [{"word": f" {w}", "start": s, "end": e, "probability": 0.9}
                                       for w, s, e in group]})
        path = folder / "long-whisper.json"
        path.write_text(json.dumps({"text": "", "segments": segments, "language": "en"}, indent=2),
                        encoding="utf-8")
        return path
    raise ValueError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}")


class GapSampler:
    """What the UI thread was doing in an event-loop gap: a thread samples every thread's stack every
    ``interval`` seconds (:func:`stacks`; it gets the GIL whenever the UI thread is in Qt's C++
    code or switches, and holds it while it reads the stacks, 0.3-0.8 ms on this machine), and
    ``report(start, end)`` counts, for the samples in that window, the innermost frames of the UI
    thread. Turned on by --profile-gaps."""

    def __init__(self, interval: float = 0.001) -> None:
        self.interval = interval
        self.samples: list[tuple[float, tuple[str, ...], tuple[str, ...]]] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._main = threading.main_thread().ident

    def start(self) -> None:
        self.samples.clear()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="gap-sampler", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        me = threading.get_ident()
        while not self._stop.wait(self.interval):
            now = stacks()
            stack = tuple(f"{Path(file).name}:{name}:{line}"
                          for file, line, name in now.get(self._main or 0, [])[:40])
            # the other threads' innermost three frames: what ran beside the UI thread (the
            # sampler gets the GIL only when neither holds it long, so a thread seen here often
            # at a line that is pure Python is one the UI thread waited for)
            others = tuple(" < ".join(f"{Path(file).name}:{name}:{line}" for file, line, name in frames[:3])
                           for ident, frames in now.items() if ident not in (me, self._main) and frames)
            self.samples.append((time.perf_counter(), stack, others))

    def report(self, start: float, end: float, top: int = 12) -> str:
        """The commonest stacks (innermost 4 frames) sampled between ``start`` and ``end``."""
        counts: Counter = Counter()
        inclusive: Counter = Counter()
        n = 0
        beside: Counter = Counter()
        for t, stack, others in self.samples:
            if start <= t <= end:
                n += 1
                counts[" < ".join(stack[:6])] += 1
                inclusive.update({f.rsplit(":", 1)[0] for f in stack})
                beside.update(others)
        return "\n".join([f"    {n} samples in {1000 * (end - start):.0f} ms; innermost:"] +
                         [f"    {c:4} {s}" for s, c in counts.most_common(top)] +
                         ["    inclusive (samples in each function or what it called):"] +
                         [f"    {c:4} {s}" for s, c in inclusive.most_common(2 * top)] +
                         ["    other threads meanwhile (innermost 3 frames):"] +
                         [f"    {c:4} {s}" for s, c in beside.most_common(top)])


class CallbackLog:
    """The UI thread's calls from Qt into Stet's Python (a timer's slot, an event handler, a
    signal's receiver), each with its start and end on the monotonic clock (``sys.setprofile``:
    Python runs about a third slower meanwhile). What a gap held that no call covers was Qt's own
    C++ (layout, painting) or a wait (for the GIL, for a core)."""

    _OURS = ("bench_gui_stalls.py", "gui_bench.py")

    def __init__(self) -> None:
        self.calls: list[tuple[float, float, str]] = []
        self._open: dict[int, tuple[float, str]] = {}

    def _profile(self, frame, event, _arg) -> None:
        if event == "call":
            back = frame.f_back
            if back is not None and back.f_code.co_filename.endswith(self._OURS) \
                    and not frame.f_code.co_filename.endswith(self._OURS):
                code = frame.f_code
                self._open[id(frame)] = (time.perf_counter(),
                                         f"{Path(code.co_filename).name}:{code.co_qualname}")
        elif event == "return" and self._open:
            began = self._open.pop(id(frame), None)
            if began is not None:
                self.calls.append((began[0], time.perf_counter(), began[1]))

    def start(self) -> None:
        self.calls.clear()
        self._open.clear()
        sys.setprofile(self._profile)

    def stop(self) -> None:
        sys.setprofile(None)

    def report(self, start: float, end: float) -> str:
        inside = [(a, b, name) for a, b, name in self.calls if b > start and a < end]
        covered = sum(min(b, end) - max(a, start) for a, b, _ in inside)
        lines = [f"    calls into Stet: {1000 * covered:.1f} ms of {1000 * (end - start):.1f} ms"]
        lines += [f"      +{1000 * (a - start):5.1f} ms {1000 * (b - a):5.1f} ms  {name}"
                  for a, b, name in inside if b - a >= 0.0005]
        return "\n".join(lines)
