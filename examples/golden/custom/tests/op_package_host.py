# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Drives op_package/NormOpPackage through its host emulator, for the tests.

The emulator bridge itself is product code (norm_ops/emulator.py: `python -m
norm_ops report` uses it too); this module re-exports it and adds what only the
tests need: the comparison with the tie rule and the random scales and params.
"""

from __future__ import annotations

import math
import os
import subprocess
import time

import torch

from norm_ops import emulator
from norm_ops.emulator import (  # noqa: F401 - the tests' API
    LPAI_DATATYPE_INT_32,
    MAX_DIMS,
    OP_DIR,
    PACKAGE_NAME,
    PATHS,
    QNN,
    SCALE_FLOAT,
    SCALE_INT,
    SCALE_UNDEFINED,
    TEMP,
    Desc,
    Rejected,
    Tensor,
    build_lock,
    compilers,
    dequantize,
    last_path,
    last_repacked,
    library,
    output_untouched,
    padding_untouched,
    quantize,
    run,
    run_n,
    scratch,
)
from norm_ops.ops import OPS  # noqa: F401 - the tests' API (tests/user/ reads the ops here, by no namespace)

import failure

ROOT = OP_DIR.parents[1]

# Set by conftest.py: pytest's config, whose terminal reporter lets a long build say what
# it does while pytest captures the output of the tests.
CONFIG = None


def progress(line: str) -> None:
    """One line on the terminal now, past pytest's capture."""
    plugins = CONFIG.pluginmanager if CONFIG is not None else None
    terminal = plugins.get_plugin("terminalreporter") if plugins else None
    capture = plugins.get_plugin("capturemanager") if plugins else None
    if terminal is None or capture is None:
        print(line, flush=True)
        return
    with capture.global_and_fixture_disabled():
        terminal.write_line(line)


def time_scale() -> float:
    """TEST_TIME_SCALE (default 1): a slow machine's factor on every time limit."""
    text = os.environ.get("TEST_TIME_SCALE", "1")
    try:
        scale = float(text)
    except ValueError:
        scale = math.nan
    if not (math.isfinite(scale) and scale > 0):
        raise ValueError(f"TEST_TIME_SCALE={text!r}: must be a positive number (a factor on the time limits)")
    return scale


def load_factor() -> float:
    """How much slower than idle the machine runs now: the 1-minute load average per
    core, at least 1."""
    try:
        load = os.getloadavg()[0]
    except OSError:
        return 1.0
    return max(1.0, load / (os.cpu_count() or 1))


def communicate(proc: subprocess.Popen, budget: float) -> tuple[str, str]:
    """proc.communicate() within a budget of idle-machine seconds: a second of wall time
    counts 1 / load_factor() while the machine is loaded, and TEST_TIME_SCALE stretches
    the budget, so that a slow or busy machine fails no test merely for being slow; a
    hang still ends (subprocess.TimeoutExpired)."""
    budget *= time_scale()
    spent, step = 0.0, min(5.0, max(0.2, budget / 4))
    while True:
        start = time.monotonic()
        try:
            return proc.communicate(timeout=step)
        except subprocess.TimeoutExpired:
            spent += (time.monotonic() - start) / load_factor()
            if spent > budget:
                proc.kill()
                out, err = proc.communicate()
                raise subprocess.TimeoutExpired(proc.args, budget, output=out, stderr=err) from None


def run_command(args: list[str], budget: float = 300, **kwargs) -> subprocess.CompletedProcess:
    """subprocess.run(args, capture_output=True, text=True) within a load-scaled budget."""
    kwargs.setdefault("stdout", subprocess.PIPE)
    kwargs.setdefault("stderr", subprocess.PIPE)
    with subprocess.Popen(args, text=True, **kwargs) as proc:
        out, err = communicate(proc, budget)
    return subprocess.CompletedProcess(args, proc.returncode, out, err)


def make(*args: str, budget: float = 300) -> subprocess.CompletedProcess:
    return run_command(["make", "--no-print-directory", *args], budget, cwd=OP_DIR)


# The emulator's own builds (the host library) run under the same budget and say so.
emulator.RUNNER = lambda args, cwd: run_command(args, 300, cwd=cwd)
emulator.PROGRESS = progress


def compare(
    kernel: torch.Tensor,
    expected: torch.Tensor,
    result: torch.Tensor,
    out_scale: float,
    out_zp: int,
    tie_tolerance: float = 1e-4,
) -> str | None:
    """None when every code is identical, or one off only where the float result lies
    within `tie_tolerance` (in codes) of a rounding tie; else a description."""
    diff = (kernel.to(torch.int32) - expected.to(torch.int32)).abs()
    if int(diff.max()) == 0:
        return None
    scaled = result.to(torch.float64) / out_scale + out_zp
    near_tie = ((scaled - scaled.floor()) - 0.5).abs() < tie_tolerance
    bad = (diff > 1) | ((diff == 1) & ~near_tie)
    if not bool(bad.any()):
        return None
    idx = bad.flatten().nonzero()[:5].flatten().tolist()
    return (
        f"{int(bad.sum())} codes differ beyond the tie rule; first at flat index {idx}: "
        f"kernel {kernel.flatten()[idx].tolist()} torch {expected.flatten()[idx].tolist()} "
        f"float result {result.flatten()[idx].tolist()}"
    )


def random_scale(gen: torch.Generator) -> float:
    """A float32-exact scale between 2^-10 and 2^1, log-uniform."""
    exponent = float(torch.empty(1).uniform_(-10.0, 1.0, generator=gen))
    return float(torch.tensor(math.pow(2.0, exponent), dtype=torch.float32))


UINT32_MAX = 2**32 - 1  # an int param is a uint32 (ExecuTorch sends QNN_DATATYPE_UINT_32)


def random_params(op, gen: torch.Generator) -> list[object]:
    """Values of the op's params drawn from `gen` inside where the spec lets the tests
    vary each (OpInfo.param_spans: its declared `range`, ...): a kernel that ignores a
    param, or reads it as its default, fails on them.  A float is uniform in its span
    (float32-exact), an int a whole number in it other than the default, a bool flips;
    a param without a span keeps its default (only it is known to work)."""
    values: list[object] = []
    for (_name, kind, default), span in zip(op.params, op.param_spans):
        if span is None:
            values.append(default)
        elif kind == "bool":
            values.append(not default)
        elif kind == "int":
            lo, hi = span
            drawn = int(torch.randint(int(lo), int(hi) + 1, (1,), generator=gen, dtype=torch.int64))
            values.append(drawn if drawn != default else (default + 1 if default < hi else default - 1))
        else:
            lo, hi = span
            u = float(torch.empty(1).uniform_(0.05, 0.95, generator=gen))
            value = float(torch.tensor(lo + (hi - lo) * u, dtype=torch.float32))
            values.append(value if lo <= value <= hi else lo + (hi - lo) * u)
    failure.note(op, params=values)
    return values
