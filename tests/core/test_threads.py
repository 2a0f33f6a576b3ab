"""Compute threads that behave on a busy machine (the setting itself; the timing is tests/perf)."""

import os
import subprocess
import sys

from editor.core import threads


def test_free_cores_is_between_one_and_the_usable_cores():
    assert 1 <= threads.free_cores(0.05) <= threads.usable_cores()


def test_a_spinning_program_takes_a_core_away():
    if threads.usable_cores() < 2 or not os.path.exists("/proc/stat"):
        return  # one core: nothing to take away; the measurement is Linux's /proc/stat
    spinner = subprocess.Popen([sys.executable, "-c", "while 1: pass"])
    try:
        busy = threads.busy_cores(0.5)
    finally:
        spinner.kill()
        spinner.wait()
    assert busy >= 0.6, busy


def test_configure_threads_sets_passive_waiting_and_the_count_before_torch_loads():
    code = ("import os, sys\n"
            "from editor.core.threads import configure_threads\n"
            "n = configure_threads(threads=1)\n"
            "assert 'torch' not in sys.modules\n"
            "import torch\n"
            "print(n, torch.get_num_threads(), os.environ['OMP_WAIT_POLICY'])\n")
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "OMP_WAIT_POLICY")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True, timeout=120).stdout.split()
    assert out == ["1", "1", "PASSIVE"]


def test_the_persons_own_thread_count_is_kept(monkeypatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    monkeypatch.delenv("_STET_THREADS_SET", raising=False)
    for name in ("MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "OMP_WAIT_POLICY", "KMP_BLOCKTIME"):
        monkeypatch.delenv(name, raising=False)
    assert threads.configure_threads() == 3
    monkeypatch.setenv("_STET_THREADS_SET", "1")  # a count Stet set itself is not the person's
    assert threads.configure_threads() == threads.THREADS_PER_PROCESS == 1
