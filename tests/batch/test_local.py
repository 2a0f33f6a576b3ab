"""Worker processes: a worker that crashes costs only the file it held, and the batch goes on."""

import pytest

import textwrap

from editor.batch.plan import make_plan
from editor.batch.progress import BatchProgress
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
            return super().run(source, output, report)
''')


@pytest.mark.skip(reason="hangs in about half the runs on a loaded machine: a worker killed while it "
                         "holds a multiprocessing queue's lock blocks the others (issue 21 note)")
def test_a_crashed_worker_costs_only_its_file(tmp_path, monkeypatch, capsys):
    (tmp_path / "jobs").mkdir()
    (tmp_path / "jobs" / "crashing_job.py").write_text(CRASHING_JOB)
    monkeypatch.syspath_prepend(str(tmp_path / "jobs"))  # spawned workers import the job from here
    from crashing_job import CrashingJob

    from editor.batch.local import run_local

    src = tmp_path / "in"
    src.mkdir()
    for i in range(5):
        (src / f"talk{i}.txt").write_text("hello there " * (i + 1))
    (src / "crash.txt").write_text("boom " * 50)
    plan = make_plan([str(src)], out_dir=str(tmp_path / "out"), to=".md", recursive=False, force=False,
                     wanted=can_read, writable=can_write)
    tracker = BatchProgress(plan.todo, "converted", quiet=True)
    run_local(CrashingJob(), plan.todo, tracker, workers=2)
    tracker.close()
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [f"talk{i}.md" for i in range(5)]
    assert tracker.finished == 5 and len(tracker.failures) == 1
    assert "crash.txt" in tracker.failures[0] and "stopped (killed by SIGKILL)" in tracker.failures[0]
    err = capsys.readouterr().err
    assert "converted 5 of 6 files" in err and "1 failed" in err
