"""A loopback HTTP server that serves model zips with Range support and scripted faults, and zips
laid out like Vosk models: the model downloader's tests and the model dialog's tests use both.
The real counterpart is the Vosk models site, which no test reaches."""

from __future__ import annotations

import io
import os
import threading
import time
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from editor.asr.catalogue import CatalogueEntry


@dataclass
class Served:
    """One file on the loopback server and the faults to play on it."""

    body: bytes
    cut_after: int | None = None
    """Close the connection once this many bytes of the file have been sent (one time only)."""
    ignore_range: bool = False
    delay: float = 0.0
    """Seconds to sleep between 16 kB chunks, to make a download slow enough to cancel."""
    status: int = 200
    stall_after: int | None = None
    """Send this many bytes of the file, then keep the connection open sending nothing."""
    stall_headers: bool = False
    """Accept the request and send nothing at all, not even the status line."""
    endless: bool = False
    """Send the file's bytes over and over without a Content-Length, until the client leaves."""
    redirect_to: str | None = None
    """Answer 302 with this Location (a path on this server)."""


@dataclass
class LoopbackServer:
    url: str
    files: dict[str, Served] = field(default_factory=dict)
    requests: list[dict[str, str]] = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)
    """Set when the server stops: a stalled answer ends then."""
    sent: dict[str, int] = field(default_factory=dict)
    """Bytes of body written per path (what the client received, give or take buffers)."""

    def serve(self, path: str, body: bytes, **faults) -> Served:
        self.files[path] = Served(body=body, **faults)
        return self.files[path]

    def entry(self, name: str, path: str, *, md5: str | None = None, size: int | None = None,
              exact: bool = False, language: str = "xx") -> CatalogueEntry:
        return CatalogueEntry(name=name, language=language, language_name="Test", size=size,
                              size_exact=exact, md5=md5, url=f"{self.url}/{path}", kind="small",
                              version="0.1", obsolete=False)


def _handler(server: LoopbackServer):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):  # keep pytest output clean
            pass

        def do_GET(self):
            server.requests.append({"path": self.path, "range": self.headers.get("Range", "")})
            served = server.files.get(self.path.lstrip("/"))
            if served is not None and served.stall_headers:
                server.stopping.wait(60)
                self.close_connection = True
                return
            if served is not None and served.redirect_to is not None:
                self.send_response(302)
                self.send_header("Location", served.redirect_to)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if served is not None and served.endless:
                self.send_response(200)
                self.send_header("Content-Type", "application/zip")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                key = self.path.lstrip("/")
                try:
                    while not server.stopping.is_set():
                        self.wfile.write(served.body)
                        server.sent[key] = server.sent.get(key, 0) + len(served.body)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                return
            if served is None or served.status != 200:
                code = 404 if served is None else served.status
                self.send_response(code)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            body, start = served.body, 0
            rng = self.headers.get("Range")
            if rng and not served.ignore_range:
                start = int(rng.removeprefix("bytes=").split("-")[0])
                if start >= len(body):
                    self.send_response(416)
                    self.send_header("Content-Range", f"bytes */{len(body)}")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(206)
                self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
            else:
                self.send_response(200)
            self.send_header("Content-Length", str(len(body) - start))
            self.send_header("Content-Type", "application/zip")
            self.end_headers()
            pos = start
            try:
                while pos < len(body):
                    end = min(len(body), pos + 16 * 1024)
                    if served.stall_after is not None and end > served.stall_after:
                        self.wfile.write(body[pos:served.stall_after])
                        self.wfile.flush()
                        server.stopping.wait(60)
                        self.close_connection = True
                        return
                    if served.cut_after is not None and end > served.cut_after:
                        self.wfile.write(body[pos:served.cut_after])
                        self.wfile.flush()
                        served.cut_after = None  # one fault; the next request succeeds
                        self.close_connection = True
                        return
                    self.wfile.write(body[pos:end])
                    pos = end
                    if served.delay:
                        self.wfile.flush()
                        time.sleep(served.delay)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True

    return Handler


@contextmanager
def serve_loopback() -> Iterator[LoopbackServer]:
    """An HTTP server on 127.0.0.1 (a free port) serving ``server.files``, stopped on exit."""
    state = LoopbackServer(url="")
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    httpd.daemon_threads = True
    state.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        state.stopping.set()
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)


def model_zip(top: str | None = "vosk-model-test-0.1", *, payload: int = 300_000,
              extra: dict[str, bytes] | None = None) -> bytes:
    """A real zip laid out like an official Vosk model (``top/am/final.mdl`` ...).

    The payload is incompressible so that a download takes several chunks.
    """
    prefix = f"{top}/" if top else ""
    rnd = os.urandom(payload)
    files = {
        f"{prefix}am/final.mdl": rnd,
        f"{prefix}conf/mfcc.conf": b"--sample-frequency=16000\n",
        f"{prefix}conf/model.conf": b"--beam=10.0\n",
        f"{prefix}graph/HCLG.fst": b"fst" * 100,
        f"{prefix}README": b"A model for tests; it recognises nothing.\n",
    }
    files.update(extra or {})
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return buf.getvalue()
