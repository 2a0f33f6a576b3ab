"""The longest UI-thread stall (gap in the event loop) while the editor opens, restores, accepts all,
undoes and redoes on a long transcript, and in the steps a reviewer takes all day there: a key
typed mid-text, a paragraph pasted (and 2,000 and 20,000 words pasted, each then undone, so
that the steps after them find the text as it was), one suggestion accepted (Enter, on the document's most
frequent word, so that "a choice repeats" touches every occurrence) or rejected (Delete),
"Accept all at or above 80 %", saving the project and an autosave: what a person feels as a
frozen window.

A QTimer ticks every 5 ms on the UI thread; each step is started from the event loop and the
longest gap between ticks until it has settled (its work in the background included) is its
stall. Medians (and worst) over --runs runs. Asserts nothing: timings vary by machine and load.

By default each run is a fresh window in a fresh process (as a person's first file after starting
Stet), restoring with the shipped model: its first restoration imports torch and loads the model,
and "restore" includes that. ``--warm`` instead restores a short text first (the model loaded) and
takes every run in that one window: a window's later restorations.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/perf/bench_gui_stalls.py --steps bulk
    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/perf/bench_gui_stalls.py --warm --model tiny
    xvfb-run -a .venv/bin/python tests/perf/bench_gui_stalls.py   # under a real X server

--gc-log also lists every full (generation 2) garbage collection: per step, how many, how long, on
which thread (a pass holds the GIL: one on a worker stalls the UI thread all the same).
"""

from __future__ import annotations

import argparse
import faulthandler
import json
import os
import signal
import subprocess
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gui_bench import (CallbackLog, GapSampler, GcLog, Heartbeat, bench_window, model_name, raw_transcript,  # noqa: E402
                       thread_label)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="model directory (default: the shipped one; tiny: a tiny random one)")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--words", type=int, default=100_000)
    parser.add_argument("--paragraph", type=int, default=150, help="words per paragraph (0: one)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--steps", default="all",
                        help="'bulk' (open to redo), 'everyday' (the reviewer's steps), 'all', "
                             "'talk' (open, restore, accept all, export .txt and .docx, undo: a "
                             "talk reviewed in one go), or 'phases' (every phase of a review once: "
                             "open, restore, Tab, Enter, Enter on the most frequent word, accept "
                             "all, undo, redo, save, export .txt and .docx)")
    parser.add_argument("--file", type=Path,
                        help="open this transcript instead of --words of the sample (a real talk)")
    parser.add_argument("--dev-talks", action="store_true",
                        help="open the first --words words of the IWSLT 2012 dev talks "
                             "(../shared/data/dev), lowercased and without marks as a recogniser "
                             "writes them, --paragraph words a paragraph")
    parser.add_argument("--gc-log", action="store_true",
                        help="list the full garbage collections by step and thread")
    parser.add_argument("--threads", action="store_true",
                        help="with each run's restoring stall, the CPU each other thread ran in that gap")
    parser.add_argument("--profile-gaps", action="store_true",
                        help="sample the UI thread's stack and print what it ran in each step's longest gap")
    parser.add_argument("--callbacks", action="store_true",
                        help="time every call from Qt into Stet's Python on the UI thread and list "
                             "those in each step's longest gap (Python runs a third slower)")
    parser.add_argument("--gap-times", action="store_true",
                        help="print each new longest gap of opening (0) and restoring (1) as 'GAP phase "
                             "start end ms cpu ms', start and end on the monotonic clock, to line up "
                             "with a sampler outside the process")
    parser.add_argument("--warm", action="store_true",
                        help="restore a short text first and take every run in that window (default: "
                             "each run a fresh window, its first restoration loading the model)")
    parser.add_argument("--passes-in", choices=("process", "thread"), default="process",
                        help="where the model loads and passes run: the window's worker process (as "
                             "Stet does), or a pool thread of the window's process (as it did before)")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # a fresh window's run
    args = parser.parse_args()
    if not args.warm and not args.one:
        return fresh_windows(args)
    # a window that dies of a signal prints every thread's Python stack on stderr (which a fresh
    # window shares with the process that started it), as PYTHONFAULTHANDLER=1 would
    faulthandler.enable(all_threads=True)

    from PySide6.QtCore import QEventLoop, Qt, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from editor.core import process
    from editor.core.document.transcript import Kind, State

    app, window, tmp, model = bench_window(args.model, args.device, prefix="stet-stalls-")
    if args.passes_in == "thread" and getattr(window.restoration.restorers, "in_worker", False):
        from editor.gui.work.restoration import Restorers

        window.restoration.restorers.close()
        window.restoration.restorers = Restorers(in_worker=False)
    gclog = GcLog()
    if args.gc_log:
        gclog.install()

    sampler = GapSampler() if args.profile_gaps else None
    callbacks = CallbackLog() if args.callbacks else None

    def profiled(step: str, beat, phase=None) -> None:
        """Print what the UI thread ran in the longest gap of ``beat`` (of those ``phase`` keeps)."""
        if sampler is None:
            return
        sampler.stop()
        t, longest = beat.started, (0.0, 0.0, 0.0)
        for gap in beat.gaps:
            t += gap
            if (phase is None or phase(t - gap)) and gap > longest[0]:
                longest = (gap, t - gap, t)
        print(f"  {step}: longest gap {1000 * longest[0]:.0f} ms", flush=True)
        print(sampler.report(longest[1], longest[2]), flush=True)

    def settle(seconds: float) -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            app.processEvents()
            time.sleep(0.002)

    def stall_of(step, settle_s: float = 0.3, bulk: bool = True, done=None) -> tuple[float, float]:
        """Longest gap (ms, wall and UI-thread CPU) from starting ``step`` on the event loop until
        it is done (a bulk step runs a slice at a time: ``bulk_finished``; a step written in the
        background says so by ``done``; a long paste is done when no bulk step runs) and has
        settled."""
        beat = Heartbeat()
        if sampler is not None:
            sampler.start()
        if callbacks is not None:
            callbacks.start()
        beat.start()
        loop = QEventLoop()

        def finished(*_args) -> None:
            if getattr(window, "bulk_running", False):
                QTimer.singleShot(10, finished)
                return
            QTimer.singleShot(int(settle_s * 1000), loop.quit)

        # None: an older Stet, all at once
        signal = done if done is not None else getattr(window, "bulk_finished", None) if bulk else None
        if signal is None:
            QTimer.singleShot(20, lambda: (step(), finished()))
        else:
            signal.connect(finished)
            QTimer.singleShot(20, step)
        loop.exec()
        if signal is not None:
            signal.disconnect(finished)
        beat.stop()
        if callbacks is not None:
            callbacks.stop()
        profiled(gclog.step, beat)
        if args.gap_times or callbacks is not None:
            k = max(range(len(beat.gaps)), key=beat.gaps.__getitem__)
            end = beat.started + sum(beat.gaps[:k + 1])
            print(f"GAP {gclog.step!r} {end - beat.gaps[k]:.4f} {end:.4f} {1000 * beat.gaps[k]:.1f} "
                  f"cpu {1000 * beat.cpu_gaps[k]:.1f}", flush=True)
            if callbacks is not None:
                print(callbacks.report(end - beat.gaps[k], end), flush=True)
        gclog.step = "between steps"
        return max(beat.gaps) * 1000, max(beat.cpu_gaps) * 1000

    def open_and_restore(path: Path) -> tuple[float, float, float, float]:
        """(stall while opening, longest stall while restoring), ms, each wall and UI-thread CPU.
        Opening lasts until restoration has started and the view shows every word (a long text is
        shown a slice at a time, partly while the first results come in)."""
        done = QEventLoop()
        window.restoration_finished.connect(done.quit)
        beat = Heartbeat()
        beat.others = args.threads
        marks: dict[str, float] = {}

        def started(_words: int) -> None:
            marks["started"] = time.perf_counter()

        def watch() -> None:
            if "started" in marks and "opened" not in marks and not getattr(window.view, "building", False):
                marks["opened"] = time.perf_counter()

        watcher = QTimer()
        watcher.setInterval(1)
        watcher.timeout.connect(watch)
        watcher.start()
        window.restoration.started.connect(started)
        if sampler is not None:
            sampler.start()
        beat.start()
        QTimer.singleShot(20, lambda: window.open_reporting(path))  # as File > Open does
        done.exec()
        watcher.stop()
        window.restoration_finished.disconnect(done.quit)
        window.restoration.started.disconnect(started)
        beat.stop()
        assert window.restoration_status == "done", window.restoration_status
        opened = marks.get("opened", marks["started"])
        if sampler is not None:
            sampler.stop()
            profiled("open", beat, lambda t: t <= opened)
            profiled("restore", beat, lambda t: t > opened)
        # gaps are stamped at the tick that ends them: those begun before the words were all shown
        # (reading on a worker thread, then showing them) are opening; later ones restoring
        # (and in the longest gap of each: the UI thread's own CPU, and its wait for a core; the
        # rest of the gap it was blocked: on the GIL, mostly)
        t, worst = beat.started, [(0.0, 0.0, 0.0), (0.0, 0.0, 0.0)]
        beside: list[dict[int, float]] = [{}, {}]
        where: list[dict[int, str]] = [{}, {}]
        for k, (gap, cpu_gap, queue) in enumerate(zip(beat.gaps, beat.cpu_gaps, beat.queue_gaps)):
            t += gap
            phase = 0 if t - gap <= opened else 1
            if gap > worst[phase][0]:
                worst[phase] = (gap, cpu_gap, queue)
                if args.gap_times:
                    print(f"GAP {phase} {t - gap:.4f} {t:.4f} {1000 * gap:.1f} cpu {1000 * cpu_gap:.1f}", flush=True)
                beside[phase] = beat.other_gaps[k] if beat.other_gaps else {}
                where[phase] = beat.where.get(k, {})
        if args.threads:
            for k, name in enumerate(("opening", "restoring")):
                print(f"  {name}'s longest gap, other threads' CPU: " + ", ".join(
                    f"{where[k].get(tid) or thread_label(tid)} {1000 * c:.1f} ms"
                    for tid, c in sorted(beside[k].items())), flush=True)
        return tuple(1000 * x for x in (*worst[0], *worst[1]))

    def after_restoring(seconds: float = 3.0) -> tuple[float, float]:
        """Longest gap (wall, UI CPU) in the ``seconds`` after a restoration ends, the window left
        alone: the list is brought up to date, and a long transcript's recovery file is written
        ahead (it waits for the pass to end)."""
        beat = Heartbeat()
        beat.others = args.threads
        if sampler is not None:
            sampler.start()
        beat.start()
        loop = QEventLoop()
        QTimer.singleShot(int(seconds * 1000), loop.quit)
        loop.exec()
        beat.stop()
        profiled("after restoring", beat)
        k = max(range(len(beat.gaps)), key=beat.gaps.__getitem__)
        if args.threads:
            where = beat.where.get(k, {})
            print("  after restoring's longest gap, other threads' CPU: " + ", ".join(
                f"{where.get(tid) or thread_label(tid)} {1000 * c:.1f} ms"
                for tid, c in sorted(beat.other_gaps[k].items())), flush=True)
        return beat.gaps[k] * 1000, beat.cpu_gaps[k] * 1000, beat.queue_gaps[k] * 1000

    view = window.view
    sample = raw_transcript(tmp / "paragraph.txt", args.paragraph or 150, 0).read_text(encoding="utf-8")
    # longer pastes, in paragraphs as the transcript is (one paragraph with --paragraph 0)
    long_pastes = {n: raw_transcript(tmp / f"paste-{n}.txt", n, args.paragraph).read_text(encoding="utf-8")
                   for n in (2_000, 20_000)}

    def written() -> None:
        """The autosave the last step asked for written now, so that it falls in no later step
        (the "autosave" row measures one on its own)."""
        saver = window.autosaver
        if saver.pending:
            saver.save_now()
        while saver.pending or getattr(saver, "_writing", False):
            settle(0.01)

    def caret_in_word(index: int) -> None:
        """The caret at the end of word ``index`` (as a click there puts it), the word in view."""
        written()
        view.review.leave_review(announce=False)
        view.scroll_to_token(index)
        cursor = view.textCursor()
        cursor.setPosition(view.token_range(index)[1])
        view.setTextCursor(cursor)
        view.setFocus()
        settle(0.3)

    def frequent_suggestion(start: int, skip: int | None = None):
        """A pending suggestion past word ``start`` on the document's most frequent word (a case
        one if it has any: repeating a case choice reaches every occurrence of the word)."""
        doc = window.transcript
        counts: dict[str, int] = {}
        for t in doc.tokens:
            counts[t.word] = counts.get(t.word, 0) + 1
        found = []
        for i in range(start, len(doc)):
            if doc[i].id == skip:
                continue
            for s in doc.suggestion_view(doc[i].id).values():
                if s.state == State.PENDING:
                    found.append((counts[doc[i].word], s.kind == Kind.CASE, -i, s))
        _n, _case, minus_i, s = max(found, key=lambda f: f[:3])
        return -minus_i, s

    def key_on_suggestion(key, start: int, skip: int | None = None) -> tuple[float, float, int]:
        index, s = frequent_suggestion(start, skip)
        caret_in_word(index)
        view.set_current(s)
        settle(0.3)
        before = window.transcript.revision
        changed: list[int] = []
        window.transcript.suggestions_changed.connect(changed.extend)
        gap = stall_of(lambda: QTest.keyClick(view, key), settle_s=0.6, bulk=False)
        window.transcript.suggestions_changed.disconnect(changed.extend)
        assert window.transcript.revision != before
        return (*gap, len(set(changed)))

    def tab_then_enter() -> tuple[tuple[float, float], tuple[float, float]]:
        """Tab from the caret mid-text to the next suggestion, then Enter on it, as a person
        reviews: (wall, CPU) of each key."""
        caret_in_word(len(window.transcript) // 2)
        tabbed = stall_of(lambda: QTest.keyClick(view, Qt.Key.Key_Tab), settle_s=0.6, bulk=False)
        assert view.current is not None, "Tab found no suggestion"
        before = window.transcript.revision
        entered = stall_of(lambda: QTest.keyClick(view, Qt.Key.Key_Return), settle_s=0.6, bulk=False)
        assert window.transcript.revision != before
        return tabbed, entered

    def typing() -> tuple[float, float]:
        caret_in_word(len(window.transcript) // 2)
        return stall_of(lambda: QTest.keyClick(view, Qt.Key.Key_X), settle_s=0.6, bulk=False)

    def pasting(text: str, undo: bool = False) -> tuple[float, float] | tuple[float, float, float, float]:
        """Ctrl+V of ``text`` after a word mid-text; with ``undo`` then Ctrl+Z of it as well: (wall,
        CPU) of the paste, then of the undo."""
        caret_in_word(len(window.transcript) // 2 + 300)
        QApplication.clipboard().setText(" " + text)
        n, words = len(window.transcript), len(text.split())
        gclog.step = f"paste {words:,}" if undo else "paste"
        gap = stall_of(lambda: QTest.keyClick(view, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier),
                       settle_s=0.6, bulk=False)
        assert len(window.transcript) == n + words, (len(window.transcript), n, words)
        if not undo:
            return gap
        written()
        gclog.step = f"undo {words:,}"
        undone = stall_of(window.undo, settle_s=0.6, bulk=False)
        assert len(window.transcript) == n
        return (*gap, *undone)

    def autosaving() -> tuple[float, float]:
        """The autosave of the step before (the timer's turn, then the write on its thread, which
        holds the interpreter now and then)."""
        saver = window.autosaver
        assert window.dirty and saver.pending
        return stall_of(saver.save_now, settle_s=0.6, bulk=False)

    def saving(run: int) -> tuple[float, float]:
        """From File > Save until the project is written (on its own thread, where the window
        writes it there: ``project_saved``) and the learning that follows has settled."""
        written()
        return stall_of(lambda: window.save(tmp / f"saved-{run}.stet"), settle_s=0.8, bulk=False,
                        done=getattr(window, "project_saved", None))

    if args.warm:
        open_and_restore(raw_transcript(tmp / "warm.txt", 300, args.paragraph))  # load the model
    source = args.file.resolve() if args.file else dev_talks(tmp / "talks.txt", args.words, args.paragraph) \
        if args.dev_talks else raw_transcript(tmp / "long.txt", args.words, args.paragraph)
    talk = args.steps == "talk"
    phases = args.steps == "phases"
    bulk = args.steps in ("all", "bulk")
    everyday = args.steps in ("all", "everyday")
    rows: dict[str, list[tuple[float, float]]] = {}

    def note(key: str, value: tuple[float, ...]) -> None:
        rows.setdefault(key, []).append(value[:3] if key in ("open", "restore", "after restoring")
                                        else value[:2])

    for run in range(1 if args.one else args.runs):
        load = os.getloadavg()[0]
        gclog.step = "open + restore"
        o_wall, o_cpu, o_queue, r_wall, r_cpu, r_queue = open_and_restore(source)
        gclog.step = "between steps"
        pending = window.transcript.pending_count if hasattr(window.transcript, "pending_count") \
            else len(window.transcript.pending())
        note("open", (o_wall, o_cpu, o_queue))
        note("restore", (r_wall, r_cpu, r_queue))
        said = [f"open {o_wall:.0f}/{o_cpu:.0f} (core {o_queue:.0f})",
                f"restore {r_wall:.0f}/{r_cpu:.0f} (core {r_queue:.0f})"]
        # the window's turns (editor.gui.base.turns); an older Stet kept them in editor.core.process
        given = getattr(getattr(window, "turns", None), "given_way", None) or getattr(process, "given_way", None)
        if given is not None:
            said[-1] += f" (others gave way {given()[0]:,} times, {given()[1]:.1f} s in all)"
        value = after_restoring()  # (the autosave after restoring is not the steps' own)
        note("after restoring", value)
        said.append(f"after restoring {value[0]:.0f}/{value[1]:.0f} (core {value[2]:.0f})")
        if everyday:
            steps = [("type a key", typing), ("paste", lambda: pasting(sample))]
            for key, step in steps:
                gclog.step = key
                value = step()
                note(key, value)
                said.append(f"{key} {value[0]:.0f}/{value[1]:.0f}")
            for n, text in long_pastes.items():
                value = pasting(text, undo=True)
                note(f"paste {n:,}", value[:2])
                note(f"undo {n:,}", value[2:])
                said.append(f"paste {n:,} {value[0]:.0f}/{value[1]:.0f}, undo {value[2]:.0f}/{value[3]:.0f}")
            mid = len(window.transcript) // 3
            gclog.step = "accept one"
            accepted = key_on_suggestion(Qt.Key.Key_Return, mid)
            note("accept one", accepted)
            gclog.step = "reject one"
            rejected = key_on_suggestion(Qt.Key.Key_Delete, mid)
            note("reject one", rejected)
            said += [f"accept one {accepted[0]:.0f}/{accepted[1]:.0f} ({accepted[2]:,} words "
                     f"changed)", f"reject one {rejected[0]:.0f}/{rejected[1]:.0f} "
                     f"({rejected[2]:,} changed)"]
            for key, step in (("autosave", autosaving), ("save .stet", lambda r=run: saving(r))):
                gclog.step = key
                value = step()
                note(key, value)
                said.append(f"{key} {value[0]:.0f}/{value[1]:.0f}")
            written()
            gclog.step = "accept ≥ 80 %"
            value = stall_of(lambda: window.accept_all(0.8))
            note("accept ≥ 80 %", value)
            said.append(f"accept ≥ 80 % {value[0]:.0f}/{value[1]:.0f}")
            if bulk:
                gclog.step = "undo ≥ 80 %"
                stall_of(window.undo)
        if bulk:
            written()
            for key, step in (("accept all", lambda: window.accept_all(0.0)), ("undo", window.undo),
                              ("redo", window.redo)):
                gclog.step = key
                value = stall_of(step)
                note(key, value)
                said.append(f"{key} {value[0]:.0f}/{value[1]:.0f}")
        if talk:
            written()
            # export as the Export dialog's OK does (written in the background where Stet does so;
            # an older Stet wrote it at once)
            later = getattr(window.files, "export_later", None) or window.export
            for key, step in (("accept all", lambda: window.accept_all(0.0)),
                              ("export .txt", lambda r=run, w=later: w(tmp / f"talk-{r}.txt")),
                              ("export .docx", lambda r=run, w=later: w(tmp / f"talk-{r}.docx")),
                              ("undo", window.undo)):
                gclog.step = key
                value = stall_of(step, bulk=not key.startswith("export"),
                                 done=getattr(window, "export_done", None) if key.startswith("export") else None)
                note(key, value)
                said.append(f"{key} {value[0]:.0f}/{value[1]:.0f}")
        if phases:
            def measured(key: str, value: tuple[float, ...], said: list[str] = said) -> None:
                note(key, value)
                said.append(f"{key} {value[0]:.0f}/{value[1]:.0f}")
            gclog.step = "Tab, Enter"
            tabbed, entered = tab_then_enter()
            measured("Tab", tabbed)
            measured("Enter", entered)
            gclog.step = "Enter on the frequent word"
            measured("Enter on the frequent word", key_on_suggestion(Qt.Key.Key_Return, len(window.transcript) // 3))
            written()
            for key, step in (("accept all", lambda: window.accept_all(0.0)), ("undo", window.undo),
                              ("redo", window.redo)):
                gclog.step = key
                measured(key, stall_of(step))
            gclog.step = "save .stet"
            measured("save .stet", saving(run))
            later = getattr(window.files, "export_later", None) or window.export
            for key, fmt in (("export .txt", "txt"), ("export .docx", "docx")):
                gclog.step = key
                measured(key, stall_of(lambda r=run, w=later, f=fmt: w(tmp / f"phases-{r}.{f}"),
                                       bulk=False, done=getattr(window, "export_done", None)))
        print(f"run {run + 1} (load {load:.1f}, {pending:,} suggestions), longest stall/UI CPU "
              f"ms: " + ", ".join(said), flush=True)
        settle(0.2)
    if args.one:  # to the process that started this one (fresh_windows)
        print("ROWS " + json.dumps({"model": model, "rows": rows}), flush=True)
    else:
        summary(args, model, rows)
    if args.gc_log:
        gclog.uninstall()
        print(gclog.report())
    window.close()
    return 0


def dev_talks(path: Path, words: int, per_paragraph: int) -> Path:
    """The first ``words`` words of the IWSLT 2012 dev talks (cased, punctuated in
    ../shared/data/dev) as a recogniser writes them: lowercase, no marks, talk after talk."""
    # ../shared beside the checkout, or beside a folder above it (a worktree of it)
    source = next((up / "shared" / "data" / "dev" / "ted_dev2012_talks.txt"
                   for up in Path(__file__).resolve().parents[3:]
                   if (up / "shared" / "data" / "dev" / "ted_dev2012_talks.txt").is_file()),
                  Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dev" / "ted_dev2012_talks.txt")
    if not source.is_file():
        raise SystemExit(f"{source}: not found (--dev-talks reads the shared dev talks)")
    raw: list[str] = []
    for line in source.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            continue
        for token in line.split():
            word = token.strip(".,?!:;\"()[]…—–-").lower()
            if any(ch.isalnum() for ch in word):
                raw.append(word)
        if len(raw) >= words:
            break
    raw = raw[:words]
    step = per_paragraph or len(raw)
    path.write_text("\n\n".join(" ".join(raw[i:i + step]) for i in range(0, len(raw), step)) + "\n",
                    encoding="utf-8")
    return path


def fresh_windows(args: argparse.Namespace) -> int:
    """Each run in a process of its own (``--one``): a fresh window, its first restoration loading
    the model; the rows of all runs summed up here."""
    rows: dict[str, list] = {}
    model = "?"
    argv = [a for a in sys.argv[1:]]
    for run in range(args.runs):
        child = subprocess.run([sys.executable, str(Path(__file__).resolve()), *argv, "--one"],
                               stdout=subprocess.PIPE, text=True, check=False)
        for line in child.stdout.splitlines():
            if line.startswith("ROWS "):
                found = json.loads(line[5:])
                model = found["model"]
                for key, values in found["rows"].items():
                    rows.setdefault(key, []).extend(values)
            else:
                print(line.replace("run 1 ", f"window {run + 1} ", 1), flush=True)
        if child.returncode:
            how = (f"killed by {signal.Signals(-child.returncode).name}, its stacks above"
                   if -child.returncode in signal.valid_signals() else f"exit status {child.returncode}")
            print(f"window {run + 1} failed ({how})", file=sys.stderr, flush=True)
            return 1 if child.returncode < 0 else child.returncode
    summary(args, model, rows)
    return 0


def summary(args: argparse.Namespace, model: str, rows: dict[str, list]) -> None:
    """The table: per step, the median (and worst) longest stall and UI-thread CPU."""
    platform = os.environ.get("QT_QPA_PLATFORM") or "xcb"
    print(time.strftime("%H:%M UTC", time.gmtime()), end=", ")
    what = str(args.file) if args.file else f"{args.words:,} words" + (" of the dev talks" if args.dev_talks else "")
    shape = f"{args.paragraph:,} words a paragraph" if args.paragraph else "one paragraph"
    print(f"{what}, {shape}, model "
          f"{model_name(model)}, {platform}, {'one warm window' if args.warm else 'fresh windows'}, "
          f"passes in a {args.passes_in}, "
          f"load average {os.getloadavg()[0]:.1f} at the end: "
          f"longest UI stall, median of {args.runs} (worst); then the UI thread's own CPU time "
          f"in the longest gap (what is left of it without waiting for a core); for opening and "
          f"restoring also the time it waited for a core in it (the rest it was blocked: on the GIL)")
    runs = min(len(values) for values in rows.values())
    print("  each run's longest stall of all its steps: "
          + ", ".join(f"{max(values[r][0] for values in rows.values()):.0f}" for r in range(runs)) + " ms")
    for key, values in rows.items():
        wall, cpu = [v[0] for v in values], [v[1] for v in values]
        print(f"  {key:<16} {statistics.median(wall):6.0f} ms ({max(wall):.0f})   CPU "
              f"{statistics.median(cpu):5.0f} ms ({max(cpu):.0f})" + (
                  f"   core {statistics.median(v[2] for v in values):4.0f} ms" if len(values[0]) > 2 else ""))


if __name__ == "__main__":
    sys.exit(main())
