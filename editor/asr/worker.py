"""Run recognition in a spawned child process that reports over a pipe, so that a crash in Vosk's
native code ends the child, never the editor, and a cancel can always stop it in time."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import TypeAlias

from editor.asr.engine import Event, Finished, recognise
from editor.asr.errors import (AsrError, AudioError, ModelError, NoSpeechError,
                               RecognitionCancelled)

_POLL = 0.05  # seconds the parent waits on the pipe before looking at the cancel flag again
_GRACE = 0.4  # seconds a cancelled child gets to stop by itself before it is terminated

_ERRORS = {cls.__name__: cls for cls in (AsrError, AudioError, ModelError, NoSpeechError)}


@dataclass(frozen=True)
class _Failure:
    kind: str
    message: str


_Report = Event | _Failure
"""What the child sends: its events, and at most one failure last."""
_ChildEnd: TypeAlias = "Connection[_Report, str]"
"""The child's end of the pipe: sends reports, receives ``"cancel"``."""
_ParentEnd: TypeAlias = "Connection[str, _Report]"


def _child_main(conn: _ChildEnd, audio_path: str, model_path: str, verbose: bool) -> None:
    """Entry point of the child: stream events to ``conn`` until done, failed or told to stop."""
    # Ctrl+C in a terminal reaches the whole process group; the parent decides what happens.
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def should_stop() -> bool:
        try:
            if not conn.poll():
                return False
            return conn.recv() == "cancel"
        except (EOFError, OSError):
            return True  # the parent is gone

    try:
        for event in recognise(audio_path, model_path, should_stop=should_stop, verbose=verbose):
            conn.send(event)
    except RecognitionCancelled:
        pass
    except AsrError as exc:
        _send(conn, _Failure(type(exc).__name__, str(exc)))
    except Exception as exc:  # noqa: BLE001 - a bug or a surprise from vosk: report it, don't hide it
        _send(conn, _Failure("AsrError", f"speech recognition failed: {type(exc).__name__}: {exc}"))
    finally:
        conn.close()


def _send(conn: _ChildEnd, message: _Report) -> None:
    try:
        conn.send(message)
    except (OSError, EOFError):
        pass


def recognise_in_worker(audio_path: str | os.PathLike[str], model_path: str | os.PathLike[str], *,
                         cancel: threading.Event | None = None,
                         verbose: bool = False) -> Iterator[Event]:
    """Like :func:`editor.asr.engine.recognise`, but in a spawned child process.

    Yields the child's events as they arrive. Raises :class:`RecognitionCancelled` within a second
    of ``cancel`` being set, the child's own :class:`AsrError` when it fails, and an
    :class:`AsrError` naming the signal when it dies. Leaving the loop early stops the child.
    """
    ctx = multiprocessing.get_context("spawn")
    pipe = ctx.Pipe(duplex=True)
    parent_conn: _ParentEnd = pipe[0]
    child_conn: _ChildEnd = pipe[1]
    process = ctx.Process(target=_child_main, name="stet-asr", daemon=True,
                          args=(child_conn, os.fspath(audio_path), os.fspath(model_path), verbose))
    process.start()
    child_conn.close()  # so that recv() sees EOF once the child is gone
    try:
        while True:
            if cancel is not None and cancel.is_set():
                _stop(process, parent_conn)
                raise RecognitionCancelled("transcription cancelled")
            if not parent_conn.poll(_POLL):
                continue
            try:
                message = parent_conn.recv()
            except (EOFError, OSError):
                break
            if isinstance(message, _Failure):
                raise _ERRORS.get(message.kind, AsrError)(message.message)
            yield message
            if isinstance(message, Finished):
                return
        process.join(2)
        raise AsrError(f"speech recognition stopped unexpectedly ({_describe_exit(process.exitcode)}); "
                       "the model may be damaged or too large for the memory")
    finally:
        if process.is_alive():
            _stop(process, parent_conn)
        parent_conn.close()
        process.join(1)


def _stop(process: BaseProcess, conn: _ParentEnd) -> None:
    try:
        conn.send("cancel")
    except (OSError, EOFError):
        pass
    process.join(_GRACE)
    if process.is_alive():
        process.terminate()  # loading a model cannot be interrupted any other way
        process.join(0.3)
    if process.is_alive():
        process.kill()
        process.join(1)


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "it did not exit"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"
