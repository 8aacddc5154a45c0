"""conftest.run_budgeted: the template suite's time limits are budgets of idle-machine
seconds, stretched by the load and TEST_TIME_SCALE, that still end a hang.  About 2 s."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

import conftest
from conftest import run_budgeted


def test_output_input_and_exit_status_pass_through():
    code = "import sys; data = sys.stdin.read(); print(data.upper()); print('e', file=sys.stderr); sys.exit(3)"
    run = run_budgeted([sys.executable, "-c", code], 60, input="abc")
    assert (run.returncode, run.stdout, run.stderr) == (3, "ABC\n", "e\n")


def test_a_hang_still_ends(monkeypatch):
    monkeypatch.setattr(conftest, "load_factor", lambda: 1.0)
    start = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired):
        run_budgeted(["sleep", "60"], 0.5)
    assert time.monotonic() - start < 5


def test_the_budget_stretches_with_the_load(monkeypatch):
    """At a load of four times the cores, a budget of 0.5 s lasts 2 s: a 1 s job ends."""
    monkeypatch.setattr(conftest, "load_factor", lambda: 4.0)
    start = time.monotonic()
    run = run_budgeted(["sleep", "1"], 0.5)
    assert run.returncode == 0 and time.monotonic() - start >= 1.0


def test_a_bad_time_scale_is_one_line(monkeypatch):
    monkeypatch.setenv("TEST_TIME_SCALE", "fast")
    with pytest.raises(pytest.UsageError, match=r"TEST_TIME_SCALE='fast': must be a positive number"):
        run_budgeted(["true"], 10)
