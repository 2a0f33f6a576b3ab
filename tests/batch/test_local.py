"""Worker processes: a worker that crashes costs only the file it held, and the batch goes on."""

import textwrap
import threading

import pytest

from editor.batch.plan import make_plan
from editor.batch.progress import BatchProgress
from editor.core.errors import UserError
from editor.core.formats import can_read, can_write

CRASHING_JOB = textwrap.dedent('''
    import os
    from editor.batch.jobs import ConvertJob

    class CrashingJob(ConvertJob):
        """Converts, except that the worker dies (as a crash in native code would) on crash*.txt."""
        uses_model = True

        def run(self, source, output, report):
            if source.name.startswith("crash"):
                os.kill(os.getpid(), 9)
            for step in range(50):  # many small messages: a kill can come while others are sending
                report(step / 50)
            return super().run(source, output, report)


    class DiesOnLoadJob(ConvertJob):
        """A worker that cannot even start: every one dies while loading (a crash in native code)."""
        uses_model = True

        def load(self, threads=1):
            os.kill(os.getpid(), 9)
''')


GUARD_SECONDS = 300  # far beyond a run on a loaded machine (under a minute): a hang fails, not stalls


def _run_guarded(*args, **kwargs):
    """run_local on a thread given GUARD_SECONDS: a batch that never ends fails the test."""
    from editor.batch.local import run_local

    outcome = {}

    def target():
        try:
            outcome["value"] = run_local(*args, **kwargs)
        except BaseException as err:  # noqa: BLE001 — handed to the test's thread
            outcome["error"] = err

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(GUARD_SECONDS)
    assert not thread.is_alive(), f"the batch did not end within {GUARD_SECONDS} s"
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def _jobs(tmp_path, monkeypatch):
    (tmp_path / "jobs").mkdir()
    (tmp_path / "jobs" / "crashing_job.py").write_text(CRASHING_JOB)
    monkeypatch.syspath_prepend(str(tmp_path / "jobs"))  # spawned workers import the job from here
    import crashing_job

    return crashing_job


def _plan(tmp_path, crashes=1, talks=5):
    src = tmp_path / "in"
    src.mkdir()
    for i in range(talks):
        (src / f"talk{i}.txt").write_text("hello there " * (i + 1))
    for i in range(crashes):
        (src / f"crash{i}.txt").write_text("boom " * (50 + i))
    return make_plan([str(src)], out_dir=str(tmp_path / "out"), to=".md", recursive=False, force=False,
                     wanted=can_read, writable=can_write)


def test_a_crashed_worker_costs_only_its_file(tmp_path, monkeypatch, capsys):
    plan = _plan(tmp_path)
    tracker = BatchProgress(plan.todo, "converted", quiet=True)
    _run_guarded(_jobs(tmp_path, monkeypatch).CrashingJob(), plan.todo, tracker, workers=2)
    tracker.close()
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [f"talk{i}.md" for i in range(5)]
    assert tracker.finished == 5 and len(tracker.failures) == 1
    assert "crash0.txt" in tracker.failures[0] and "stopped (killed by SIGKILL)" in tracker.failures[0]
    err = capsys.readouterr().err
    assert "converted 5 of 6 files" in err and "1 failed" in err


def test_many_crashes_each_cost_one_file_and_replacements_finish_the_rest(tmp_path, monkeypatch):
    plan = _plan(tmp_path, crashes=6, talks=8)
    tracker = BatchProgress(plan.todo, "converted", quiet=True)
    _run_guarded(_jobs(tmp_path, monkeypatch).CrashingJob(), plan.todo, tracker, workers=2)
    tracker.close()
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [f"talk{i}.md" for i in range(8)]
    assert tracker.finished == 8 and len(tracker.failures) == 6
    assert all("crash" in line and "killed by SIGKILL" in line for line in tracker.failures)


def test_workers_that_cannot_start_stop_the_batch_with_one_line(tmp_path, monkeypatch):
    plan = _plan(tmp_path, crashes=0, talks=3)
    tracker = BatchProgress(plan.todo, "converted", quiet=True)
    with pytest.raises(UserError, match=r"the convert workers could not start \(killed by SIGKILL\)"):
        _run_guarded(_jobs(tmp_path, monkeypatch).DiesOnLoadJob(), plan.todo, tracker, workers=2)
    tracker.close()
    assert not (tmp_path / "out").exists()
