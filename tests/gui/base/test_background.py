"""BackgroundOp: results reach the UI thread, and a receiver closed while the work runs is left
alone (no callback on a dead widget, no emit on a deleted relay from the pool thread)."""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject

from editor.gui.base.background import BackgroundOp


def test_result_and_progress_arrive_on_the_ui_thread(qtbot):
    owner = QObject()
    seen: list[tuple[str, object, bool]] = []
    ui = threading.get_ident()

    def work(report):
        report(1)
        report(2)
        return "done"

    op = (BackgroundOp(owner, work)
          .progress(lambda p: seen.append(("progress", p, threading.get_ident() == ui)))
          .success(lambda r: seen.append(("success", r, threading.get_ident() == ui))))
    op.run()
    qtbot.waitUntil(lambda: op.done, timeout=5000)
    assert seen == [("progress", 1, True), ("progress", 2, True), ("success", "done", True)]


def test_a_failure_reaches_its_callback(qtbot):
    owner = QObject()
    errors: list[BaseException] = []

    def work(report):
        raise ValueError("bad input")

    op = BackgroundOp(owner, work).failure(errors.append).run()
    qtbot.waitUntil(lambda: op.done, timeout=5000)
    assert [str(e) for e in errors] == ["bad input"]


def test_a_receiver_deleted_while_the_work_runs_gets_nothing_and_nothing_crashes(qtbot):
    owner = QObject()
    release, started = threading.Event(), threading.Event()
    calls: list[str] = []

    def work(report):
        started.set()
        release.wait(5)
        for k in range(200):  # emits racing with the deletion before the fix
            report(k)
        return "late"

    op = (BackgroundOp(owner, work).progress(lambda p: calls.append("progress"))
          .success(lambda r: calls.append("success")).failure(lambda e: calls.append("failure")))
    op.run()
    assert started.wait(5)
    owner.deleteLater()
    qtbot.wait(20)  # the owner is gone now
    release.set()
    qtbot.waitUntil(lambda: op.done, timeout=5000)
    assert calls == []
