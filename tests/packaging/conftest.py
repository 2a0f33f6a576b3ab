"""Helpers for the packaging tests: a clean environment to run an installed Stet in, and a look at
the window picture it saves."""

from pathlib import Path

import pytest


@pytest.fixture
def clean_env(tmp_path):
    """The variables an installed Stet would see from a desktop session: no PYTHONPATH, no virtual
    environment, settings and caches in a fresh home so the user's own are not read or written."""

    def make(path: str = "/usr/bin:/bin", **extra: str) -> dict[str, str]:
        home = tmp_path / "home"
        home.mkdir(exist_ok=True)
        env = {"PATH": path, "HOME": str(home), "LANG": "C.UTF-8", "OMP_NUM_THREADS": "2",
               "XDG_CONFIG_HOME": str(home / ".config"), "XDG_DATA_HOME": str(home / ".local/share"),
               "XDG_CACHE_HOME": str(home / ".cache")}
        env.update(extra)
        return env

    return make


def check_window_picture(path: Path) -> None:
    """The PNG shows a drawn window: its size, and enough colours that it is not blank."""
    from PySide6.QtGui import QImage

    assert path.is_file() and path.stat().st_size > 10_000, f"{path}: no or tiny PNG"
    image = QImage(str(path))
    assert not image.isNull(), f"{path}: not a readable PNG"
    assert image.width() >= 640 and image.height() >= 400, (image.width(), image.height())
    counts: dict[int, int] = {}
    for y in range(0, image.height(), 3):
        for x in range(0, image.width(), 3):
            rgb = image.pixel(x, y) & 0xFFFFFF
            counts[rgb] = counts.get(rgb, 0) + 1
    most = max(counts.values()) / sum(counts.values())
    assert len(counts) >= 50, f"{path}: only {len(counts)} colours; the window looks blank"
    assert most < 0.95, f"{path}: one colour fills {most:.0%} of the window"
    # Restored suggestions are drawn on tinted backgrounds (the confidence bands); the text pane,
    # the left part of the window, is otherwise black on white. With the sample restored about 5 %
    # of it is tinted; a selection alone stays under 1 %.
    tinted = total = 0
    for y in range(0, image.height(), 3):
        for x in range(0, int(image.width() * 0.6), 3):
            rgb = image.pixel(x, y)
            channels = ((rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255)
            total += 1
            tinted += max(channels) - min(channels) > 40
    assert tinted / total > 0.015, f"{path}: {tinted / total:.1%} of the text is tinted; no suggestions drawn"


@pytest.fixture
def window_picture_ok():
    return check_window_picture

