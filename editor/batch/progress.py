"""The batch's bar, failure lines and summary on stderr, fed by events from any kind of worker."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from typing import TextIO

from editor.batch.jobs import Outcome
from editor.batch.plan import Item
from editor.commandline.progress import ProgressBar, format_eta


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}" if h else f"{rest // 60}:{rest % 60:02d}"


class BatchProgress:
    """Files and words done, their rate and the time left, for a whole batch.

    The bar's fraction is by input size (a file's bytes stand for its share of the work), so one
    long file counts as what it is. Lines about single files (a failure, a warning) are printed
    above the bar and never stop it. Drawn only on a terminal, like the single-file bar."""

    def __init__(self, items: Sequence[Item], verb: str, *, quiet: bool = False, stream: TextIO | None = None,
                 skipped: int = 0, refused: int = 0) -> None:
        self.items = list(items)
        self.verb = verb
        self.stream = stream or sys.stderr
        self.bar = ProgressBar(verb, enabled=False if quiet else None, stream=self.stream)
        self.weights = [max(item.size, 1) for item in self.items]
        self.total_weight = sum(self.weights) or 1
        self.in_flight: dict[int, float] = {}
        self.done_weight = 0.0
        self.words = 0
        self.finished = 0
        self.failures: list[str] = []
        self.skipped = skipped
        self.refused = refused  # not started: their lines were printed before the batch
        self.retried = 0
        self.workers = 0
        self.started_at = time.monotonic()
        self.work_started: float | None = None  # when the first worker was ready (models loaded)

    # -- events --------------------------------------------------------------------------------
    def ready(self, workers: int = 1) -> None:
        """``workers`` more workers have loaded the model (once each) and take files."""
        self.workers += workers
        if self.work_started is None:
            self.work_started = time.monotonic()
            self._draw(force=True)

    def started(self, index: int) -> None:
        self.in_flight[index] = 0.0
        self._draw()

    def progress(self, index: int, fraction: float) -> None:
        if index in self.in_flight:
            self.in_flight[index] = min(max(fraction, 0.0), 1.0)
            self._draw()

    def finished_ok(self, index: int, outcome: Outcome) -> None:
        self.in_flight.pop(index, None)
        self.done_weight += self.weights[index]
        self.words += outcome.words
        self.finished += 1
        for warning in outcome.warnings:
            self.line(f"stet: warning: {self.items[index].source}: {warning}")
        self._draw(force=True)

    def failed(self, index: int, message: str) -> None:
        self.in_flight.pop(index, None)
        self.done_weight += self.weights[index]
        source = str(self.items[index].source)
        message = " ".join(message.split())
        self.failures.append(message if source in message else f"{source}: {message}")
        self.line(f"stet: error: {self.failures[-1]}")
        self._draw(force=True)

    def retrying(self, index: int, why: str, attempt: int, attempts: int) -> None:
        self.retried += 1
        self.line(f"stet: warning: {self.items[index].source}: {why}; trying again "
                  f"({attempt} of {attempts})")

    def line(self, text: str) -> None:
        """A line above the bar (the bar is redrawn under it)."""
        if self.bar.enabled and self.bar.drawn:
            self.stream.write("\r" + " " * self.bar.drawn + "\r")
            self.bar.drawn = 0
        self.stream.write(text + "\n")
        self.stream.flush()
        self._draw(force=True)

    # -- what is shown ---------------------------------------------------------------------------
    def fraction(self) -> float:
        partial = sum(self.weights[i] * f for i, f in self.in_flight.items())
        return min(1.0, (self.done_weight + partial) / self.total_weight)

    def _draw(self, force: bool = False) -> None:
        if not self.bar.enabled:
            return
        done_files = self.finished + len(self.failures)
        self.bar.label = f"{self.verb} {done_files}/{len(self.items)} files"
        if self.work_started is None:
            self.bar.update(0.0, "loading the model", force=force)
            return
        elapsed = max(time.monotonic() - self.work_started, 1e-6)
        fraction = self.fraction()
        eta = (1 - fraction) * elapsed / fraction if fraction > 0.005 else None
        detail = f"{self.words:,} words, {self.words / elapsed:,.0f} words/s"
        if eta is not None:
            detail += ", " + format_eta(eta)
        self.bar.update(fraction, detail, force=force)

    def summary(self) -> str:
        elapsed = time.monotonic() - self.started_at
        work = time.monotonic() - (self.work_started or self.started_at)
        parts = [f"{self.verb} {self.finished} of {len(self.items) + self.skipped + self.refused} files "
                 f"({self.words:,} words) in {_clock(elapsed)}"]
        if self.finished and work > 0:
            parts[0] += f", {self.words / work:,.0f} words/s after loading"
        if self.workers > 1:
            parts.append(f"{self.workers} workers")
        if self.skipped:
            parts.append(f"{self.skipped} skipped (up to date; --force redoes them)")
        not_run = len(self.items) - self.finished - len(self.failures)
        if self.failures or self.refused:
            parts.append(f"{len(self.failures) + self.refused} failed")
        if not_run > 0:
            parts.append(f"{not_run} not run")
        if self.retried:
            parts.append(f"{self.retried} retried")
        return "stet: " + "; ".join(parts)

    def close(self) -> None:
        self.bar.close()
        self.stream.write(self.summary() + "\n")
        self.stream.flush()
