"""A restoration pass in the worker process (editor.restore.passes.pass_process) gives what the same pass
gives in this process, reports refusals and failures as they are, stops when cancelled, survives
a worker that died, and leaves torch out of the process that asks for it."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from editor.core.document.transcript import Transcript
from editor.core.errors import UserError
from editor.restore.passes.pass_process import WORKER_NICE, Loaded, PassProcess, WorkerStopped
from editor.restore.passes.pipeline import NotTheLanguage, PassSettings, PassSource, RestoredRegion, run_pass
from editor.restore.passes.prediction import Cancelled

ROOT = Path(__file__).resolve().parents[3]
WORDS = "so what do we do now okay i think that the answer is yes and you know it is".split()


def doc_of(n: int) -> Transcript:
    return Transcript.from_words(WORDS[i % len(WORDS)] for i in range(n))


def in_process(model: Path, doc: Transcript, settings: PassSettings, **kwargs) -> list[RestoredRegion]:
    from editor.restore.passes.inference import Restorer

    regions: list[RestoredRegion] = []
    run_pass(Restorer.load(str(model), device="cpu"), PassSource.of(doc), settings, on_region=regions.append,
             **kwargs)
    return regions


@pytest.fixture(scope="module")
def worker():
    found = PassProcess(threads=1)
    yield found
    found.close()


@pytest.mark.parametrize("keep_author", [None, False])
def test_the_worker_gives_the_same_regions_and_suggestions_as_this_process(worker, tiny_model_dir, keep_author):
    doc = doc_of(300)
    settings = PassSettings(any_language=True, keep_author=keep_author)
    regions: list[RestoredRegion] = []
    loaded: list[Loaded] = []
    notes: list[str] = []
    outcome = worker.run_pass(str(tiny_model_dir), "cpu", PassSource.of(doc), settings,
                              on_region=regions.append, on_loaded=loaded.append, on_note=notes.append,
                              priority=(120, 160))
    expected = in_process(tiny_model_dir, doc, settings, priority=(120, 160))
    assert regions == expected and sum(len(r.suggestions) for r in regions) > 50
    assert [type(s.kind) for r in regions for s in r.suggestions][:3] == [type(s.kind) for s in expected[0].suggestions][:3]
    assert loaded == [Loaded("tiny")] and outcome.model_name == "tiny" and outcome.words == 300 and not notes


def test_a_paste_only_pass_matches_too(worker, tiny_model_dir):
    doc = doc_of(400)
    only = list(range(200, 230))
    settings = PassSettings()
    regions: list[RestoredRegion] = []
    worker.run_pass(str(tiny_model_dir), "cpu", PassSource.of(doc, {199: "."}), settings,
                    on_region=regions.append, only=only)
    from editor.restore.passes.inference import Restorer

    expected: list[RestoredRegion] = []
    run_pass(Restorer.load(str(tiny_model_dir), device="cpu"), PassSource.of(doc, {199: "."}), settings,
             on_region=expected.append, only=only)
    assert regions == expected and {s.token_id for r in regions for s in r.suggestions} <= {doc[i].id for i in only}


def test_refusals_and_failures_come_back_as_they_are(worker, tiny_model_dir, tmp_path):
    german = Transcript.from_words(("also ich habe mit dem mann gesprochen und er hat gesagt dass die firma im "
                                    "nächsten jahr nach berlin umziehen will wir waren alle ein bisschen "
                                    "überrascht weil niemand davon wusste").split())
    with pytest.raises(NotTheLanguage, match="does not look like English"):  # (the shipped model's)
        worker.run_pass(None, "cpu", PassSource.of(german), PassSettings())
    with pytest.raises(UserError, match="no such model directory"):
        worker.run_pass(str(tmp_path / "missing"), "cpu", PassSource.of(doc_of(20)), PassSettings())
    # and the worker goes on serving
    regions: list[RestoredRegion] = []
    worker.run_pass(str(tiny_model_dir), "cpu", PassSource.of(doc_of(30)), PassSettings(any_language=True),
                    on_region=regions.append)
    assert sum(len(r.ids) for r in regions) == 30


def test_a_cancelled_pass_stops_and_the_next_one_runs(worker, tiny_model_dir):
    cancel = threading.Event()
    regions: list[RestoredRegion] = []

    def first(region: RestoredRegion) -> None:
        regions.append(region)
        cancel.set()

    with pytest.raises(Cancelled):
        worker.run_pass(str(tiny_model_dir), "cpu", PassSource.of(doc_of(20_000)), PassSettings(any_language=True),
                        on_region=first, cancel=cancel)
    assert 0 < sum(len(r.ids) for r in regions) < 20_000
    after: list[RestoredRegion] = []
    worker.run_pass(str(tiny_model_dir), "cpu", PassSource.of(doc_of(50)), PassSettings(any_language=True),
                    on_region=after.append)
    assert sum(len(r.ids) for r in after) == 50


def test_a_worker_that_died_is_said_and_a_new_one_starts(tiny_model_dir):
    worker = PassProcess(threads=1)
    try:
        worker.load(str(tiny_model_dir), "cpu")
        assert worker.alive
        os.kill(worker._process.pid, 9)  # as a crash in native code would end it
        with pytest.raises(WorkerStopped, match="stopped"):
            worker.run_pass(str(tiny_model_dir), "cpu", PassSource.of(doc_of(30)), PassSettings(any_language=True))
        regions: list[RestoredRegion] = []
        worker.run_pass(str(tiny_model_dir), "cpu", PassSource.of(doc_of(30)), PassSettings(any_language=True),
                        on_region=regions.append)
        assert sum(len(r.ids) for r in regions) == 30
    finally:
        worker.close()
    with pytest.raises(WorkerStopped, match="closed"):
        worker.load(str(tiny_model_dir), "cpu")


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="no niceness on this system")
def test_the_worker_gives_way_to_the_window_for_a_core(worker, tiny_model_dir):
    """The worker runs at a lower scheduling priority than the process that started it (the
    window's), so the window's thread wins a core both want."""
    worker.load(str(tiny_model_dir), "cpu")
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    assert WORKER_NICE > 0
    assert os.getpriority(os.PRIO_PROCESS, worker._process.pid) == min(19, mine + WORKER_NICE)


def test_the_process_that_asks_never_imports_torch(tiny_model_dir):
    """The point of the worker: loading the model and the pass happen elsewhere."""
    script = (
        "import sys\n"
        "from editor.core.document.transcript import Transcript\n"
        "from editor.restore.passes.pass_process import PassProcess\n"
        "from editor.restore.passes.pipeline import PassSettings, PassSource\n"
        "if __name__ == '__main__':\n"
        "    worker = PassProcess(threads=1)\n"
        "    found = []\n"
        "    doc = Transcript.from_words('so what do we do now'.split() * 20)\n"
        f"    worker.run_pass({str(tiny_model_dir)!r}, 'cpu', PassSource.of(doc), PassSettings(any_language=True),\n"
        "                    on_region=found.append)\n"
        "    worker.close()\n"
        "    assert sum(len(r.ids) for r in found) == 120, found\n"
        "    print('torch' in sys.modules, 'numpy' in sys.modules)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "False"


def review_of(n: int) -> tuple[list, list[bool]]:
    """``n`` words of a review (marks and capitals the person left, some not reviewed)."""
    from editor.restore.learning.review_lessons import Decision

    decisions, reviewed = [], []
    for i in range(n):
        word = WORDS[i % len(WORDS)]
        punct = "." if word == "now" else "," if word == "okay" else ""
        decisions.append(Decision(word, punct, word, i == 0, "" if word == "now" else punct, word))
        reviewed.append(i % 97 != 5)
    return decisions, reviewed


def test_a_review_learned_through_the_worker_is_the_review_learned_here(worker, tiny_model_dir):
    """What a save's learning takes from the model (the marginals of the reviewed words, read in
    blocks spread over a long review, and the common words) comes from the worker as it is here."""
    from editor.restore.passes.inference import Restorer
    from editor.restore.learning.learned_store import BIAS_WORDS, learn_review, marginal_reads, model_lessons, placed_marginals

    decisions, reviewed = review_of(BIAS_WORDS * 2 + 300)
    reads = marginal_reads([d.word for d in decisions], reviewed)
    assert len(reads) > 1 and reads[-1][1] == len(decisions) and reads[1][0] > 1000  # blocks spread over it
    blocks, common, plain = worker.model_lessons(str(tiny_model_dir), "cpu", reads)
    restorer = Restorer.load(str(tiny_model_dir), device="cpu")
    here_blocks, here_common, here_plain = model_lessons(restorer, reads)
    assert common == here_common and "the" in common and plain == here_plain
    assert len(blocks) == len(here_blocks) and all(a.dtype == b.dtype and (a == b).all()
                                                  for a, b in zip(blocks, here_blocks))
    joint = placed_marginals(len(decisions), reads, blocks)
    through_worker = learn_review(None, decisions, reviewed, joint=joint, common=common, plain=plain)
    here = learn_review(restorer, decisions, reviewed)  # as `stet eval --simulate-review` learns
    assert through_worker.to_dict() == here.to_dict()
    assert through_worker.punct_bias.any() and through_worker.pair_marks  # the marginals taught a bias


def test_a_model_that_cannot_load_is_said_when_learning_too(worker, tmp_path):
    with pytest.raises(UserError, match="no such model directory"):
        worker.model_lessons(str(tmp_path / "missing"), "cpu", [])
