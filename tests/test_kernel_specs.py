"""Valid specs that used to break the generated kernels (issue 10), rendered and tested.

- `log`, `sqrt`, `1 / sqrt` and `a / b` produce NaN and infinities on part of the codes:
  the kernel and the tests' oracle must follow the same NaN rule (docs/spec.md).
- A param the expression does not use failed `-Werror=unused-parameter`.
- Exactly 8 params (the documented maximum) overflowed an array of the C suite.
- `exp(x - 88) * (1e19 * 1e19)` and `exp(a) / (exp(a) + exp(b))` (issue 40): exp's
  denormal results were 0 in the kernel (tests/test_float_edges.py checks every
  function at the float edges; these two run through a whole rendered suite).
- `relu(x)` with x's declared range [-2, -0.5] (issue 47, "skips say true reasons"):
  constant there, though not on the default domain [-2, 2]; the kernel tests that
  calibrate on the op's spread skip it saying so and naming the declared range, and
  skip no other op for that reason.

One render, then the project's C suite (`make host-test`: gcc, -Werror, every path
forced) and its kernel tests against torch; the whole project suite is left to the
variants of test_render.py, to keep this cheap.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import run_budgeted, run_project_tests

ROOT = Path(__file__).resolve().parents[1]

SPEC = {
    "package_name": "EdgeOpPackage",
    "namespace": "edge_ops",
    "ops": [
        {
            "name": "log_sqrt",
            "doc": "NaN below zero, -inf and +inf at zero; eight params, one unused.",
            "inputs": ["x"],
            "params": [
                {"name": "p1", "type": "float", "default": 1.0},
                {"name": "p2", "type": "float", "default": 0.5},
                {"name": "p3", "type": "int", "default": 2},
                {"name": "p4", "type": "bool", "default": True},
                {"name": "p5", "type": "float", "default": 0.25},
                {"name": "p6", "type": "float", "default": -1.0},
                {"name": "p7", "type": "float", "default": 3.0},
                {"name": "unused", "type": "float", "default": 7.0},
            ],
            "expr": "p1 * log(x) + p2 * sqrt(x) + p5 / sqrt(x) * p4 + p6 * p3 + p7 * 0",
        },
        {
            "name": "ratio",
            "doc": "0 / 0 is NaN, x / 0 infinite.",
            "inputs": ["a", "b"],
            "expr": "a / b",
        },
        # Issue 40: the kernel's exp gave 0 below -86.5 where torch keeps denormals, so
        # the gate divided 0 by 0 and the scaled exp was 0 on the tests' whole range.
        {
            "name": "gate",
            "doc": "A softmax of two: denormal exps below -87 must not make 0 / 0.",
            "inputs": ["a", "b"],
            "expr": "exp(a) / (exp(a) + exp(b))",
        },
        {
            "name": "scaled_tail",
            "doc": "exp's denormal band, scaled back into view.",
            "inputs": ["x"],
            "expr": "exp(x - 88) * (1e19 * 1e19)",
        },
        {
            "name": "neg_relu",
            "doc": "0 everywhere on its declared range, which lies below zero.",
            "inputs": [{"name": "x", "range": [-2, -0.5]}],
            "expr": "relu(x)",
        },
    ],
}
# The one skip for being constant (pr_qparams in the rendered test_op_package_kernels.py:
# the two tests calibrated on the op's spread), the declared range in its words.
CONSTANT_SKIP = "the op is constant on its inputs' domains (x in [-2, -0.5])"
# The same tests feed every input one value: a two-input op that gives one value at equal
# inputs (ratio: a / b, gate: exp(a) / (exp(a) + exp(b))) says nothing there either.
EQUAL_SKIP = (
    "the op gives one value wherever its inputs are equal on [0, 1], and this test feeds every "
    "input the same value there (it varies on its domains: a in {0}, b in {0})"
)


@pytest.fixture(scope="module")
def edge_project(copie_session, template_repo):
    result = copie_session.copy(extra_answers=SPEC, template_dir=template_repo)
    assert result.exit_code == 0, result.exception
    return result.project_dir


def test_c_suite_builds_with_werror_and_passes(edge_project):
    # Built into the emulator library's folder with its compiler (the project's
    # emulator.BUILD and emulator.LIB_CC, so the same flags): the kernel tests below then
    # link that library without compiling every kernel again.
    emulator = (edge_project / "edge_ops/emulator.py").read_text()
    build, cc = (re.search(rf'^{name} = "(.+)"$', emulator, re.M).group(1) for name in ("BUILD", "LIB_CC"))
    op_dir = edge_project / "op_package/EdgeOpPackage"
    run = run_budgeted(["make", "-C", str(op_dir), "host-test", f"BUILD={build}", f"CC={cc}"], 600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert run.stdout.count(" 0 failures") == 2, run.stdout[-2000:]


@pytest.fixture(scope="module")
def kernel_run(edge_project):
    """The project's kernel tests against torch, run once (its pytest config's -ra lists
    every skip with its reason)."""
    return run_project_tests(edge_project, "tests/test_op_package_kernels.py")


def test_kernels_match_torch_including_nan(kernel_run):
    assert kernel_run.returncode == 0, kernel_run.stdout[-6000:] + kernel_run.stderr[-3000:]
    assert " failed" not in kernel_run.stdout


def test_an_op_constant_on_its_declared_range_is_skipped_saying_so(kernel_run):
    """neg_relu is skipped for being constant, naming its declared range; no other op is
    (ratio and gate, equal at equal inputs, are skipped saying that instead)."""
    skips = re.findall(r"^SKIPPED \[(\d+)\] \S+: (.*)$", kernel_run.stdout, re.M)
    constant = [(n, reason) for n, reason in skips if "constant" in reason]
    assert constant == [("2", CONSTANT_SKIP)], skips
    equal = [(n, reason) for n, reason in skips if "equal on [0, 1]" in reason]
    assert sorted(equal) == [("2", EQUAL_SKIP.format(d)) for d in ("[-2, 2]", "[0.1, 2]")], skips
