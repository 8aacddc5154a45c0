"""The benchmark harness (bench/run.py) on a tiny shape.

The benchmark checks no speed here: timing in tests only makes them flaky. What it
must guarantee is that its figures compare equal work, so every case is checked to
write the very same output buffer (padding included) from the generated kernel, the
per-element baseline and the kernel's reference path; and that the callgrind part
produces a BENCH line per (op, layout, shape).
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUN = ROOT / "bench" / "run.py"
# Rank 4 for the channels-last layout; odd extents so the four-wide loops run their
# tails and no two dimensions of the padded layout merge.
TINY = "1,3,5,7"
# Elementwise ops of examples/scale.yaml (1 unary), examples/activations.yaml (2 unary,
# 2 binary) and examples/shapes.yaml (1 binary, 1 of three inputs): every op runs in
# three layouts, the ops of two or more inputs also with their other inputs broadcast.
N_OPS = 7
N_MULTI_INPUT = 4
LAYOUTS = {"contig", "strided", "transposed", "broadcast"}
N_CASES = N_OPS * 3 + N_MULTI_INPUT

BENCH_RE = re.compile(
    r"^BENCH op=(\w+) inputs=([1-4]) layout=(contig|strided|transposed|broadcast) shape=\(([\d,]+)\) "
    r"instr_per_elem=(\S+) baseline_instr_per_elem=(\S+) ns_per_elem=(\S+)$"
)


def callgrind_missing() -> str | None:
    if not shutil.which("valgrind"):
        return "valgrind is not installed"
    if not any(Path(p, "valgrind", "callgrind.h").is_file() for p in ("/usr/include", "/usr/local/include")):
        return "valgrind/callgrind.h is missing"
    return None


@pytest.fixture(scope="module")
def bench_run(tmp_path_factory):
    """One harness run for the whole module: rendering and building dominate."""
    work = tmp_path_factory.mktemp("bench")
    args = [sys.executable, str(RUN), "--shapes", TINY, "--time-ms", "1", "--print-checks", "--workdir", str(work)]
    if callgrind_missing():
        args.append("--no-count")
    res = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, f"bench/run.py failed:\n{res.stdout}\n{res.stderr}"
    return res.stdout


def test_kernel_output_equals_baseline_byte_for_byte(bench_run):
    checks = [line for line in bench_run.splitlines() if line.startswith("CHECK ")]
    assert len(checks) == N_CASES, bench_run
    inputs = {re.search(r"op=(\w+) inputs=(\d)", line).groups() for line in checks}
    assert ("fma3", "3") in inputs and ("add_scaled", "2") in inputs
    assert {line.split()[1] for line in checks if "layout=broadcast" in line} == {
        "op=add_scaled",
        "op=soft_min",
        "op=add_bias",
        "op=fma3",
    }
    for line in checks:
        assert line.endswith("kernel==baseline==reference"), line
    # The layouts really exercise both loops of the kernels.
    paths = {re.search(r"path=(\S+)", line).group(1) for line in checks}
    # 105 elements: below the unary table's crossover, so every op takes the direct loop.
    assert {"direct-dense", "direct-walk"} == paths


def test_bench_lines_have_instruction_counts(bench_run):
    why = callgrind_missing()
    if why:
        pytest.skip(f"instruction counts need callgrind: {why}")
    lines = [line for line in bench_run.splitlines() if line.startswith("BENCH ")]
    assert len(lines) == N_CASES, bench_run
    seen = set()
    for line in lines:
        m = BENCH_RE.match(line)
        assert m, f"malformed: {line}"
        op, inputs, layout, shape, x, y, t = m.groups()
        assert shape == TINY
        x, y, t = float(x), float(y), float(t)
        assert all(math.isfinite(v) and v > 0 for v in (x, y, t)), line
        seen.add((op, layout))
    assert {layout for _, layout in seen} == LAYOUTS
