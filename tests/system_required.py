"""With ``STET_REQUIRE_SYSTEM=1`` (``make test`` sets it), a test skipped because something it needs
is not installed (espeak-ng, PortAudio, the Korean Vosk model, import-linter) fails instead, so CI
cannot go green without running them. Without it such tests skip, as on a developer's machine.

Loaded by tests/conftest.py; every such skip says "... is not installed (how to install it)".
"""

from __future__ import annotations

import os

import pytest

ENV = "STET_REQUIRE_SYSTEM"
MISSING = "is not installed"


def skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get(ENV) == "1":
        reason = skip_reason(report)
        if MISSING in reason:
            report.outcome = "failed"
            report.longrepr = f"{ENV}=1, and this test needs what is missing: {reason}"
