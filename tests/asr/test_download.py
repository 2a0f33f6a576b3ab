"""The model downloader against a real HTTP server on 127.0.0.1 serving real zips."""

from __future__ import annotations

import errno
import hashlib
import io
import stat
import threading
import time
import zipfile
from pathlib import Path

import pytest

from editor.asr import download
from editor.asr.download import DownloadProgress, download_model, part_path, safe_member_path
from editor.asr.errors import DownloadCancelled, DownloadError
from editor.asr.models import is_model

NAME = "vosk-model-test-0.1"


def leftovers(dest: Path) -> list[str]:
    """Hidden temporary folders or files the downloader left behind (the .part file excepted)."""
    return sorted(p.name for p in dest.iterdir() if p.name.startswith(".") and not p.name.endswith(".part"))


def test_download_installs_a_model_and_leaves_nothing_else(loopback_server, tmp_path, model_zip):
    body = model_zip()
    loopback_server.serve("m.zip", body)
    entry = loopback_server.entry(NAME, "m.zip", md5=md5_of(body), size=len(body), exact=True)
    seen: list[DownloadProgress] = []

    info = download_model(entry, tmp_path, on_progress=seen.append)

    assert info.name == NAME and Path(info.path) == (tmp_path / NAME).resolve()
    assert is_model(tmp_path / NAME)
    assert (tmp_path / NAME / "am" / "final.mdl").stat().st_size == 300_000
    assert sorted(p.name for p in tmp_path.iterdir()) == [NAME]
    phases = [p.phase for p in seen]
    assert phases[0] == "download" and "verify" in phases and phases[-1] == "extract"
    downloads = [p for p in seen if p.phase == "download"]
    assert downloads[-1].done == downloads[-1].total == len(body)
    assert all(a.done <= b.done for a, b in zip(downloads, downloads[1:]))
    # Asking again is instant: the installed model is returned without a request.
    count = len(loopback_server.requests)
    assert download_model(entry, tmp_path).path == info.path
    assert len(loopback_server.requests) == count


def test_an_interrupted_download_resumes_with_a_range_request(loopback_server, tmp_path, model_zip):
    body = model_zip()
    loopback_server.serve("m.zip", body, cut_after=100_000)
    entry = loopback_server.entry(NAME, "m.zip", md5=md5_of(body))

    with pytest.raises(DownloadError, match="resume"):
        download_model(entry, tmp_path)
    part = part_path(entry, tmp_path)
    assert part.stat().st_size == 100_000
    assert not (tmp_path / NAME).exists()

    download_model(entry, tmp_path)

    assert loopback_server.requests[-1]["range"] == "bytes=100000-"
    assert is_model(tmp_path / NAME) and not part.exists()


def test_a_server_that_ignores_range_restarts_from_zero(loopback_server, tmp_path, model_zip):
    body = model_zip()
    loopback_server.serve("m.zip", body, cut_after=50_000, ignore_range=True)
    entry = loopback_server.entry(NAME, "m.zip", md5=md5_of(body))
    with pytest.raises(DownloadError):
        download_model(entry, tmp_path)
    download_model(entry, tmp_path)  # a 200 to a Range request rewrites the part file
    assert is_model(tmp_path / NAME)


def test_a_part_file_already_complete_is_not_fetched_again(loopback_server, tmp_path, model_zip):
    body = model_zip()
    loopback_server.serve("m.zip", body)
    entry = loopback_server.entry(NAME, "m.zip", md5=md5_of(body))
    part_path(entry, tmp_path).write_bytes(body)  # as if unpacking had been interrupted
    download_model(entry, tmp_path)
    assert loopback_server.requests[-1]["range"] == f"bytes={len(body)}-"  # answered 416
    assert is_model(tmp_path / NAME)


def test_a_checksum_mismatch_deletes_the_download(loopback_server, tmp_path, model_zip):
    body = model_zip()
    loopback_server.serve("m.zip", body)
    entry = loopback_server.entry(NAME, "m.zip", md5="0" * 32)
    with pytest.raises(DownloadError, match="damaged.*md5"):
        download_model(entry, tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_a_size_mismatch_deletes_the_download(loopback_server, tmp_path, model_zip):
    body = model_zip()
    loopback_server.serve("m.zip", body)
    entry = loopback_server.entry(NAME, "m.zip", size=len(body) + 1, exact=True)
    with pytest.raises(DownloadError, match="bytes"):
        download_model(entry, tmp_path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("evil", ["../escaped.txt", "vosk-model-test-0.1/../../escaped.txt",
                                  "/tmp/stet-absolute-escape.txt", "..\\escaped.txt", "C:/escaped.txt"])
def test_zip_slip_is_refused_and_nothing_is_written(loopback_server, tmp_path, evil, model_zip):
    dest = tmp_path / "models"
    body = model_zip(extra={evil: b"owned"})
    loopback_server.serve("m.zip", body)
    with pytest.raises(DownloadError, match="outside the model folder"):
        download_model(loopback_server.entry(NAME, "m.zip"), dest)
    assert not (tmp_path / "escaped.txt").exists()
    assert not Path("/tmp/stet-absolute-escape.txt").exists()
    assert list(dest.iterdir()) == []


def test_a_symlink_in_the_archive_is_refused(loopback_server, tmp_path, model_zip):
    buf = io.BytesIO(model_zip())
    with zipfile.ZipFile(buf, "a") as zf:
        link = zipfile.ZipInfo(f"{NAME}/am/evil")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(link, "/etc/passwd")
    loopback_server.serve("m.zip", buf.getvalue())
    with pytest.raises(DownloadError, match="a link"):
        download_model(loopback_server.entry(NAME, "m.zip"), tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_safe_member_path():
    assert str(safe_member_path("a/./b/c.txt")) == "a/b/c.txt"
    assert str(safe_member_path("a\\b")) == "a/b"
    for bad in ["", "/", "../a", "a/../../b", "/etc/passwd", "D:\\x", "a/.."]:
        assert safe_member_path(bad) is None, bad


def test_cancel_stops_within_a_second_and_keeps_the_part_for_resume(loopback_server, tmp_path, model_zip):
    body = model_zip()
    loopback_server.serve("m.zip", body, delay=0.05)  # ~1 s for the whole file
    entry = loopback_server.entry(NAME, "m.zip", md5=md5_of(body))
    cancel = threading.Event()
    first_bytes = threading.Event()

    def on_progress(p: DownloadProgress) -> None:
        if p.done > 0:
            first_bytes.set()

    set_at: list[float] = []

    def cancel_after_first_bytes() -> None:
        first_bytes.wait(5)
        set_at.append(time.monotonic())
        cancel.set()

    timer = threading.Thread(target=cancel_after_first_bytes)
    timer.start()
    with pytest.raises(DownloadCancelled):
        download_model(entry, tmp_path, on_progress=on_progress, cancel=cancel)
    stopped_at = time.monotonic()
    timer.join()
    assert stopped_at - set_at[0] < 1.0
    part = part_path(entry, tmp_path)
    assert 0 < part.stat().st_size < len(body)
    assert not (tmp_path / NAME).exists() and leftovers(tmp_path) == []

    loopback_server.files["m.zip"].delay = 0
    download_model(entry, tmp_path)
    assert is_model(tmp_path / NAME)


def test_cancel_during_unpacking_removes_the_half_unpacked_folder(loopback_server, tmp_path, model_zip):
    body = model_zip()
    loopback_server.serve("m.zip", body)
    cancel = threading.Event()

    def on_progress(p: DownloadProgress) -> None:
        if p.phase == "extract":
            cancel.set()

    with pytest.raises(DownloadCancelled):
        download_model(loopback_server.entry(NAME, "m.zip"), tmp_path, on_progress=on_progress,
                       cancel=cancel)
    assert leftovers(tmp_path) == [] and not (tmp_path / NAME).exists()


def test_not_a_zip_is_deleted_with_a_clear_message(loopback_server, tmp_path):
    loopback_server.serve("m.zip", b"<html>Service unavailable</html>")
    with pytest.raises(DownloadError, match="not a readable zip"):
        download_model(loopback_server.entry(NAME, "m.zip"), tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_an_archive_without_a_model_is_refused(loopback_server, tmp_path):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("photos/cat.jpg", b"meow")
    loopback_server.serve("m.zip", buf.getvalue())
    with pytest.raises(DownloadError, match="holds no Vosk model.*final.mdl"):
        download_model(loopback_server.entry(NAME, "m.zip"), tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_a_missing_file_on_the_server(loopback_server, tmp_path):
    with pytest.raises(DownloadError, match="404"):
        download_model(loopback_server.entry(NAME, "nothing.zip"), tmp_path)


def test_no_server_listening(tmp_path, loopback_server):
    entry = loopback_server.entry(NAME, "m.zip")
    dead = entry.__class__(**{**entry.__dict__, "url": "http://127.0.0.1:9/m.zip"})
    with pytest.raises(DownloadError, match="cannot download"):
        download_model(dead, tmp_path, timeout=2)


def test_not_enough_disk_space_is_said_before_unpacking(loopback_server, tmp_path, monkeypatch, model_zip):
    loopback_server.serve("m.zip", model_zip())
    monkeypatch.setattr(download.shutil, "disk_usage", lambda p: _Usage(free=1000))
    with pytest.raises(DownloadError, match="not enough disk space"):
        download_model(loopback_server.entry(NAME, "m.zip"), tmp_path)
    assert leftovers(tmp_path) == [] and not (tmp_path / NAME).exists()


def test_a_disk_that_fills_up_while_unpacking_is_cleaned_up(loopback_server, tmp_path, monkeypatch, model_zip):
    loopback_server.serve("m.zip", model_zip())
    real_open = open

    class FullFile(io.RawIOBase):
        def writable(self):
            return True

        def write(self, b):
            raise OSError(errno.ENOSPC, "No space left on device")

    def fake_open(path, mode="r", *args, **kwargs):
        if ".unpacking" in str(path) and "w" in mode:
            return FullFile()
        return real_open(path, mode, *args, **kwargs)

    monkeypatch.setattr(download, "open", fake_open, raising=False)
    with pytest.raises(DownloadError, match="disk filled up"):
        download_model(loopback_server.entry(NAME, "m.zip"), tmp_path)
    assert leftovers(tmp_path) == [] and not (tmp_path / NAME).exists()


def test_an_existing_broken_folder_is_not_overwritten(loopback_server, tmp_path, model_zip):
    (tmp_path / NAME).mkdir()
    (tmp_path / NAME / "notes.txt").write_text("mine")
    loopback_server.serve("m.zip", model_zip())
    with pytest.raises(DownloadError, match="remove it"):
        download_model(loopback_server.entry(NAME, "m.zip"), tmp_path)
    assert (tmp_path / NAME / "notes.txt").read_text() == "mine"


def test_progress_fraction_and_eta():
    p = DownloadProgress(phase="download", done=25, total=100, speed=25.0)
    assert p.fraction == 0.25 and p.eta == 3.0
    assert DownloadProgress(phase="download", done=5, total=None, speed=1.0).fraction is None


class _Usage:
    def __init__(self, free: int) -> None:
        self.total, self.used, self.free = 10**9, 10**9 - free, free


def md5_of(data: bytes) -> str:
    return hashlib.md5(data, usedforsecurity=False).hexdigest()


def _cancel_when(event: threading.Event, cancel: threading.Event, after: float, set_at: list[float]):
    def run() -> None:
        event.wait(10)
        time.sleep(after)
        set_at.append(time.monotonic())
        cancel.set()
    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_cancel_takes_effect_within_a_second_while_the_server_stalls(loopback_server, tmp_path, model_zip):
    body = model_zip()
    loopback_server.serve("m.zip", body, stall_after=40_000)  # then silence for a minute
    entry = loopback_server.entry(NAME, "m.zip", size=len(body), exact=True)
    cancel, now, set_at = threading.Event(), threading.Event(), []
    now.set()
    thread = _cancel_when(now, cancel, 1.5, set_at)  # by then the read blocks on the socket
    with pytest.raises(DownloadCancelled):
        download_model(entry, tmp_path, cancel=cancel, timeout=30)
    latency = time.monotonic() - set_at[0]
    thread.join()
    assert latency < 1.0
    assert 0 < part_path(entry, tmp_path).stat().st_size <= 40_000  # kept for resuming


def test_cancel_takes_effect_within_a_second_before_the_server_answers(loopback_server, tmp_path):
    loopback_server.serve("m.zip", b"", stall_headers=True)
    entry = loopback_server.entry(NAME, "m.zip", size=1000, exact=True)
    cancel, now, set_at = threading.Event(), threading.Event(), []
    now.set()
    thread = _cancel_when(now, cancel, 0.5, set_at)
    with pytest.raises(DownloadCancelled):
        download_model(entry, tmp_path, cancel=cancel, timeout=30)
    latency = time.monotonic() - set_at[0]
    thread.join()
    assert latency < 1.0


@pytest.mark.parametrize("exact", [True, False])
def test_an_endless_body_stops_at_the_catalogue_size_plus_a_margin(loopback_server, tmp_path, exact):
    size = 300_000
    loopback_server.serve("m.zip", b"\0" * 16_384, endless=True)
    entry = loopback_server.entry(NAME, "m.zip", size=size, exact=exact)
    with pytest.raises(DownloadError, match="more than the") as info:
        download_model(entry, tmp_path, timeout=10)
    assert "\n" not in str(info.value)
    assert download.size_limit(entry) <= size + max(size // 4, 2**20)
    assert not part_path(entry, tmp_path).exists() and not (tmp_path / NAME).exists()


def test_a_content_length_beyond_the_catalogue_is_refused_before_reading(loopback_server, tmp_path):
    loopback_server.serve("m.zip", b"x" * 5_000_000)
    entry = loopback_server.entry(NAME, "m.zip", size=300_000, exact=False)
    with pytest.raises(DownloadError, match="far more than"):
        download_model(entry, tmp_path, timeout=10)
    assert not part_path(entry, tmp_path).exists()


def test_a_redirect_loop_is_one_line(loopback_server, tmp_path):
    loopback_server.serve("a.zip", b"", redirect_to="/b.zip")
    loopback_server.serve("b.zip", b"", redirect_to="/a.zip")
    entry = loopback_server.entry(NAME, "a.zip", size=1000)
    with pytest.raises(DownloadError, match="redirects in a loop") as info:
        download_model(entry, tmp_path, timeout=10)
    assert "\n" not in str(info.value)
