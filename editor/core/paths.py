"""Where Stet finds its bundled resources and keeps the user's settings, data and caches."""

from __future__ import annotations

import sys
from pathlib import Path

import platformdirs

APP_NAME = "stet"


def resource_path(*parts: str) -> Path:
    """A file under ``resources/``, in a source checkout, an installed wheel or a frozen build.

    PyInstaller unpacks bundled data under ``sys._MEIPASS``; the spec (packaging/stet.spec) puts
    ``resources/`` there. A wheel carries the folder as the package data ``editor/resources/``
    (pyproject.toml); a source checkout, editable install included, has it beside ``editor/``.
    """
    return _shipped("resources", *parts)


#: The pages of docs/ that Help lists, in its order. The whole of docs/ (its pages and images) is
#: shipped, so that their links to each other (performance, architecture) open in the help window too.
HELP_PAGES = ("user-guide.md", "formats.md", "authored-text.md", "guarantees.md")


def docs_path(*parts: str) -> Path:
    """A file under ``docs/``, found as :func:`resource_path` finds resources: a frozen build carries
    it as ``docs/`` beside ``resources/`` (packaging/stet.spec), a wheel as the package data
    ``editor/docs/`` (pyproject.toml), a source checkout beside ``editor/``. One copy, docs/ itself."""
    return _shipped("docs", *parts)


def _shipped(folder: str, *parts: str) -> Path:
    """A file under a folder shipped with Stet (``resources`` or ``docs``): in a frozen build under
    ``sys._MEIPASS``, in a wheel as ``editor/<folder>``, in a checkout beside ``editor/``."""
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root is not None:
        return Path(frozen_root).joinpath(folder, *parts)
    package = Path(__file__).resolve().parents[1]
    installed = package / folder
    base = installed if installed.is_dir() else package.parent / folder
    return base.joinpath(*parts)


def config_dir() -> Path:
    """Settings (created on first use)."""
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False, ensure_exists=True))


def data_dir() -> Path:
    """Downloaded speech models and other large user data (created on first use)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False, ensure_exists=True))


def cache_dir() -> Path:
    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False, ensure_exists=True))


def recovery_dir() -> Path:
    """Autosaved sessions that the next start offers to recover."""
    path = data_dir() / "recovery"
    path.mkdir(parents=True, exist_ok=True)
    return path
