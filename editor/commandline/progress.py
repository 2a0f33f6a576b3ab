"""A one-line progress bar on stderr, shared by the long-running commands (transcribe, restore)."""

from __future__ import annotations

import shutil
import sys
import time
from typing import TextIO


class ProgressBar:
    """A one-line bar on stderr, redrawn at most ten times a second; silent unless a terminal."""

    def __init__(self, label: str, *, enabled: bool | None = None, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.label = label
        self.last = 0.0
        self.drawn = 0  # length of the line on screen

    def update(self, fraction: float | None, detail: str = "", *, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self.last < 0.1:
            return
        self.last = now
        width = max(10, min(40, shutil.get_terminal_size((80, 20)).columns - len(self.label) - 30))
        if fraction is None:
            bar = "?" * width
            percent = "   "
        else:
            filled = int(round(fraction * width))
            bar = "#" * filled + "." * (width - filled)
            percent = f"{fraction * 100:3.0f}%"
        line = f"{self.label} [{bar}] {percent} {detail}"
        self.stream.write("\r" + line.ljust(self.drawn))  # pad over a longer previous line
        self.stream.flush()
        self.drawn = len(line)

    def close(self) -> None:
        if self.enabled and self.drawn:
            self.stream.write("\n")
            self.stream.flush()


#: A time left is said only after this many seconds of work and this share of it done: the first
#: blocks go by at no speed a whole file keeps (a recording said "about 1 s left", then 29 s).
ETA_AFTER_SECONDS = 3.0
ETA_AFTER_SHARE = 0.05


def estimate_left(done: float, total: float | None, elapsed: float) -> float | None:
    """Seconds left at the speed so far, ``done`` of ``total`` (any unit) in ``elapsed`` seconds;
    None until the speed can be trusted: ETA_AFTER_SECONDS of work and ETA_AFTER_SHARE done."""
    if not total or done <= 0 or elapsed < ETA_AFTER_SECONDS or done / total < ETA_AFTER_SHARE:
        return None
    return max(0.0, (total - done) * elapsed / done)


def format_eta(seconds: float | None) -> str:
    """Time left, as the window and the command line both say it: ``about 40 s left``,
    ``about 3 min left``, ``about 1.5 h left``; empty while there is no speed to go by."""
    if seconds is None:
        return ""
    if seconds < 60:
        return f"about {max(1, round(seconds))} s left"
    if seconds < 3600:
        return f"about {round(seconds / 60)} min left"
    return f"about {seconds / 3600:.1f} h left"
