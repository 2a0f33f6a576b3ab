"""Install a Vosk model from a file already on this computer: a downloaded ``.zip`` or an unpacked
folder, for a computer without a connection (``stet models install PATH``, and the model dialog's
"Install from a file…").

The model is checked before it is used: its layout (``am/``, ``conf/``, ``graph/``, or the old flat
one) and that Vosk loads it, in a child process so that a model that crashes Vosk does not take
the window with it. It is unpacked or copied into a hidden folder beside the models and renamed
into place only when complete, so the models folder never holds half a model; the person's own
zip or folder is only read.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import tempfile
import threading
import zipfile
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from editor.asr.download import DownloadProgress, ProgressReporter, ensure_room, unpack_model
from editor.asr.errors import DownloadError, ModelError
from editor.asr.models import ModelInfo, is_model, language_of, models_dir, problems, validate_model

LOAD_TIMEOUT = 300.0
"""Seconds Vosk may take to load a model being installed (a large one takes a minute or two)."""


def install_model(source: str | os.PathLike[str], dest_dir: str | os.PathLike[str] | None = None, *,
                  on_progress: Callable[[DownloadProgress], None] | None = None,
                  cancel: threading.Event | None = None, check_loads: bool = True) -> ModelInfo:
    """Install the model in ``source`` (a Vosk model's ``.zip``, or its folder) into ``dest_dir``
    (Stet's model folder by default) and return it; one installed under its name already is
    returned as it is. ``check_loads``: Vosk must load it (in a child process).

    Raises :class:`ModelError` (not a model, or Vosk cannot load it) or :class:`DownloadError`
    (an unreadable or hostile zip, a full disk), each of one line."""
    src = Path(source).expanduser()
    dest = Path(dest_dir) if dest_dir is not None else models_dir()
    if not src.exists():
        raise ModelError(f"{src}: no such file or folder")
    is_zip = src.is_file()
    if is_zip and not zipfile.is_zipfile(src):
        size = src.stat().st_size
        why = "the file is empty" if size == 0 else "it is not a zip (a Vosk model comes as a .zip)"
        raise ModelError(f"{src} is not a Vosk model: {why}")
    if not is_zip and problems(src):
        validate_model(src)  # raises, saying what is missing (and where the model inside is)
    try:
        dest.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ModelError(f"cannot create the model folder {dest}: {exc.strerror}") from None
    if not is_zip:
        target = dest / src.name
        if target.resolve() == src.resolve():
            return validate_model(src, source="stet")
        if is_model(target):
            return validate_model(target, source="stet")
    report = ProgressReporter(on_progress)
    if is_zip:
        # named by the folder inside the zip, as Vosk's own zips are (else by the zip's name)
        installed = unpack_model(src, dest, None, label=src.name, report=report, cancel=cancel,
                                 downloaded=False)
    else:
        installed = _copy_folder(src, dest, report, cancel)
    if check_loads:
        why = _vosk_load_problem(installed)
        if why:
            shutil.rmtree(installed, ignore_errors=True)
            raise ModelError(f"{src.name}: Vosk cannot load the model ({why}); it may be damaged or "
                             "made for another Vosk version, and was not installed")
    return validate_model(installed, source="stet", language=language_of(installed.name))


def _copy_folder(src: Path, dest: Path, report: ProgressReporter, cancel: threading.Event | None) -> Path:
    """``src`` copied into ``dest`` under its name: into a hidden folder first, renamed when whole."""
    target = dest / src.name
    if target.exists():
        raise DownloadError(f"{target} exists already and is not a complete model; remove it first")
    files = [p for p in src.rglob("*") if p.is_file()]
    needed = sum(p.stat().st_size for p in files)
    ensure_room(needed, dest, f"install {src.name}")
    tmp = Path(tempfile.mkdtemp(prefix=f".{src.name}.", suffix=".installing", dir=dest))
    try:
        done = 0
        for path in files:
            if cancel is not None and cancel.is_set():
                raise DownloadError(f"installing {src.name} cancelled")
            out = tmp / path.relative_to(src)
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, out)
            done += path.stat().st_size
            report("extract", done, needed)
        report("extract", done, needed, force=True)
        os.rename(tmp, target)  # same file system: atomic
        return target
    except OSError as exc:
        raise DownloadError(f"cannot install {src.name} into {dest}: {exc.strerror or exc}") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _vosk_load_problem(path: Path) -> str:
    """Why Vosk cannot load the model at ``path`` ("" when it can), found in a child process."""
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    try:
        return pool.submit(_load_in_child, os.fspath(path)).result(timeout=LOAD_TIMEOUT)
    except BrokenProcessPool:
        return "Vosk stopped while loading it"
    except TimeoutError:
        return f"it took longer than {LOAD_TIMEOUT:.0f} s to load"
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _load_in_child(path: str) -> str:
    from editor.asr.engine import load_model

    try:
        load_model(path)
    except ModelError as err:
        return str(err).split(" (", 1)[-1].split(")", 1)[0]
    return ""
