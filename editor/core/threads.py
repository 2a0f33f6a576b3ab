"""How many compute threads a process may use, and the setting that keeps idle ones from spinning.

torch's OpenMP threads busy-wait between parallel regions by default. On a machine where another
program holds a core, a thread that shares that core spins against it, and every parallel region
waits for the slowest thread. Waiting passively (``OMP_WAIT_POLICY=PASSIVE``) stops the spinning,
but then a second thread costs more in waking than it brings to the restoration model (small
matrices, one time step after another). So a process runs the model on
:data:`THREADS_PER_PROCESS` compute thread, whatever the machine's load, and more cores are used by
more processes (a batch's workers, one per free core, see :func:`free_cores`). The person's own
``OMP_NUM_THREADS`` wins. The measurements behind this are in docs/performance.md ("Compute
threads and a busy core"; tests/perf/bench_restore.py and bench_busy.py).

The command line, the batch workers and the editor call :func:`configure_threads` before torch is
imported; it imports no torch itself (core has none), but applies the number to torch when torch
is already loaded.
"""

from __future__ import annotations

import os
import sys
import time

#: Compute threads of a process that runs the model (why: see the module's text).
THREADS_PER_PROCESS = 1
#: Seconds over which the cores' use is sampled when nothing better is known.
SAMPLE_SECONDS = 0.1
#: Environment variables through which the thread count reaches OpenMP, MKL and OpenBLAS.
_THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")
_SET_BY_US = "_STET_THREADS_SET"


def usable_cores() -> int:
    """Cores this process may run on (its CPU affinity where the system says, else all)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _cpu_jiffies() -> tuple[int, int] | None:
    """(busy, total) clock ticks of all CPUs since boot, from /proc/stat (Linux); None elsewhere."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = f.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    values = [int(v) for v in fields[1:9]]  # user nice system idle iowait irq softirq steal
    values += [0] * (8 - len(values))
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def _own_cpu_seconds() -> float:
    t = os.times()
    return t.user + t.system


def busy_cores(seconds: float = SAMPLE_SECONDS) -> float:
    """Cores kept busy by other programs over the next ``seconds`` (this process's own use left out).

    Linux counts from /proc/stat; elsewhere the one-minute load average stands in."""
    first = _cpu_jiffies()
    if first is None:
        try:
            return max(0.0, os.getloadavg()[0])
        except (AttributeError, OSError):
            return 0.0
    own0, t0 = _own_cpu_seconds(), time.monotonic()
    time.sleep(seconds)
    second = _cpu_jiffies()
    own1, t1 = _own_cpu_seconds(), time.monotonic()
    if second is None or second[1] <= first[1]:
        return 0.0
    share = (second[0] - first[0]) / (second[1] - first[1])  # of all CPUs' time
    cpus = os.cpu_count() or 1
    own = (own1 - own0) / max(t1 - t0, 1e-6)
    return max(0.0, share * cpus - own)


def free_cores(seconds: float = SAMPLE_SECONDS) -> int:
    """Usable cores that no other program is keeping busy right now (at least 1)."""
    usable = usable_cores()
    if usable == 1:
        return 1
    return max(1, min(usable, usable - round(busy_cores(seconds))))


def user_thread_count() -> int | None:
    """The thread count the person set with OMP_NUM_THREADS, if any (not one Stet set itself)."""
    if os.environ.get(_SET_BY_US):
        return None
    try:
        n = int(os.environ.get("OMP_NUM_THREADS", ""))
    except ValueError:
        return None
    return n if n > 0 else None


def configure_threads(*, threads: int | None = None) -> int:
    """Make this process's compute threads behave on a busy machine; returns their number.

    ``threads`` fixes the number; otherwise it is the person's OMP_NUM_THREADS if set, else
    :data:`THREADS_PER_PROCESS`. Waiting threads sleep instead of spinning. Call it before torch
    is imported: the wait policy is read when OpenMP loads. When torch is already loaded, the
    number is applied to it at once (the wait policy then stays as it was).
    """
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    os.environ.setdefault("KMP_BLOCKTIME", "0")  # Intel OpenMP's spin time before it sleeps
    n = threads or user_thread_count() or THREADS_PER_PROCESS
    for name in _THREAD_VARIABLES:
        os.environ[name] = str(n)
    os.environ[_SET_BY_US] = "1"
    torch = sys.modules.get("torch")
    if torch is not None and hasattr(torch, "set_num_threads"):
        torch.set_num_threads(n)
    return n
