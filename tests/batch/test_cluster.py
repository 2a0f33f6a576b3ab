"""On a local Ray cluster: a file whose worker dies is tried again on another actor, said so, and
its output is the one a run without the crash writes; a long file's progress reaches the bar."""

import os
import textwrap

import pytest

from editor.batch.plan import make_plan
from editor.batch.progress import BatchProgress
from editor.core.formats import can_read, can_write

FLAKY_JOB = textwrap.dedent('''
    import os
    import time
    from pathlib import Path

    from editor.batch.jobs import ConvertJob

    class DiesOnceJob(ConvertJob):
        """Converts; the first time it meets a file named flaky*, its worker dies (a crash in
        native code, a node lost): a mark beside the input says it happened already."""
        uses_model = True

        def run(self, source, output, report):
            mark = Path(str(source) + ".crashed")
            if source.name.startswith("flaky") and not mark.exists():
                mark.write_text("once")
                os._exit(1)
            if source.name.startswith("slow"):  # half done, then long enough for the bar to ask
                report(0.5)
                time.sleep(3)
            return super().run(source, output, report)
''')


class Recording(BatchProgress):
    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.reports = []

    def progress(self, index, fraction):
        self.reports.append((self.items[index].source.name, fraction))
        super().progress(index, fraction)


def test_a_file_whose_worker_dies_is_retried_and_reported(tmp_path, monkeypatch, capsys):
    pytest.importorskip("ray")
    from editor.batch.cluster import run_ray

    (tmp_path / "jobs").mkdir()
    (tmp_path / "jobs" / "flaky_job.py").write_text(FLAKY_JOB)
    monkeypatch.syspath_prepend(str(tmp_path / "jobs"))
    # the cluster's workers import the job from here (editor.batch.cluster passes PYTHONPATH on)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(tmp_path / "jobs"),
                                                                     os.environ.get("PYTHONPATH")])))
    from flaky_job import DiesOnceJob

    src = tmp_path / "in"
    src.mkdir()
    for i in range(3):
        (src / f"talk{i}.txt").write_text("hello there, it is me. " * (i + 1))
    (src / "flaky.txt").write_text("and this one, too. " * 20)
    (src / "slow.txt").write_text("one word after another. " * 30)
    plan = make_plan([str(src)], out_dir=str(tmp_path / "out"), to=".md", recursive=False, force=False,
                     wanted=can_read, writable=can_write)
    tracker = Recording(plan.todo, "converted", quiet=True)
    run_ray(DiesOnceJob(), plan.todo, tracker, address="local", workers=2)
    tracker.close()
    assert (src / "flaky.txt.crashed").exists()  # the worker did die once
    assert tracker.finished == 5 and not tracker.failures and tracker.retried >= 1
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == (
        ["flaky.md", "slow.md"] + [f"talk{i}.md" for i in range(3)])
    assert ("slow.txt", 0.5) in tracker.reports  # asked of the actor while it worked
    err = capsys.readouterr().err
    assert "flaky.txt: its worker was lost" in err and "trying again (2 of 3)" in err, err
    assert "converted 5 of 5 files" in err and "retried" in err, err
