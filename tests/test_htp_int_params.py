"""An int param reaches the HTP kernel exact past 2^24 (issue 48, item 2).

ExecuTorch sends an int (and a bool) param as QNN_DATATYPE_UINT_32; QHPI hands it to
the kernel as a one-element Int32 tensor, whose 32 bits the package reads as they are.
A custom op whose math depends on the last bit of `n` (x + (n - 2^24)) is rendered with
both backends; the project's HTP kernel tests run it through the host driver, which
sends each param in its real type, at the defaults, at other values and at
n = 2^24 + 1 (tests/test_htp_kernels.py `PAST_FLOAT`: its declared range holds it), against
the eager math. The same
project with the param read through float (the 2.1.x way: 16777217 becomes 16777216)
must fail them.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
import yaml

from conftest import ROOT, run_project_tests

SPEC = {
    "package_name": "IntParamOpPackage",
    "namespace": "int_param_ops",
    "backends": ["lpai", "htp"],
    "ops": [
        {
            "name": "offset_by",
            "kind": "custom",
            "doc": "Adds n - 16777216 to the input.",
            "inputs": ["x"],
            "params": [{"name": "n", "type": "int", "default": 3, "range": [0, 16777218]}],
        }
    ],
}
C_MATH = """/* This file is yours: the template created it once and never touches it again. */
#define OffsetBy_MATH_WRITTEN_FOR OffsetBy_ARGS_IN_x_OUT_out_INT_n
#include "ops/OffsetBy_user.h"

int OffsetBy_compute(const OffsetBy_args *args)
{
    const float shift = (float)((int64_t)args->n - 16777216);
    for (uint64_t i = 0; i < args->x_shape.count; ++i) {
        args->out[i] = args->x[i] + shift;
    }
    return 0;
}
"""
PY_MATH = '''# This file is yours: the template created it once and never touches it again.
"""Eager math of int_param_ops::offset_by."""

import torch


def offset_by(x: torch.Tensor, n: int = 3) -> torch.Tensor:
    return x + float(n - 16777216)
'''
# How the kernel hands n to the user's math (a custom op's params_u32[]).
READ = "const uint32_t params_u32[] = {htp_param_u32(inputs[kInputs + 0u])};"
THROUGH_FLOAT = (
    "const uint32_t params_u32[] = {static_cast<uint32_t>(static_cast<float>(htp_param_u32(inputs[kInputs + 0u])))};"
)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    base = tmp_path_factory.mktemp("int-params")
    spec = base / "spec.yaml"
    spec.write_text(yaml.safe_dump(SPEC, sort_keys=False))
    dest = base / "project"
    render = subprocess.run(
        [sys.executable, "-m", "copier", "copy", "-q", "--trust", "--defaults", "--vcs-ref", "HEAD"]
        + ["--data-file", str(spec), str(ROOT), str(dest)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert render.returncode == 0, render.stderr
    (dest / "op_package" / "IntParamOpPackage" / "user" / "OffsetBy_math.c").write_text(C_MATH)
    (dest / "int_param_ops" / "user" / "offset_by.py").write_text(PY_MATH)
    return dest


def test_an_int_param_past_2_24_reaches_the_htp_kernel_exact(project):
    source = (project / "op_package" / "htp" / "src" / "ops" / "OffsetBy.cpp").read_text()
    assert source.count(READ) == 1, "the kernel no longer reads n this way: update this test"
    run = run_project_tests(project, "tests/test_htp_kernels.py", "-k", "not hexagon")
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]


def test_the_same_param_read_through_float_fails_the_kernel_tests(project, tmp_path):
    copy = tmp_path / "project"
    shutil.copytree(project, copy, ignore=shutil.ignore_patterns("build", "__pycache__"))
    path = copy / "op_package" / "htp" / "src" / "ops" / "OffsetBy.cpp"
    # n through float, as 2.1.x read it: exact below 2^24, 16777216 for 16777217.
    path.write_text(path.read_text().replace(READ, THROUGH_FLOAT))
    run = run_project_tests(copy, "tests/test_htp_kernels.py", "-k", "not hexagon")
    assert run.returncode != 0, "the HTP kernel tests pass with n read through float"
    assert "16777217" in run.stdout, run.stdout[-3000:]
