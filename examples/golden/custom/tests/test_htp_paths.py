# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Every path of the HTP package's elementwise engine (op_package/htp/include/htp_engine.h)
against torch eager and against its reference path.

The engine chooses a path by the call: the per-element reference loop up to 8 elements,
the table of a one-input 8-bit op from 512, else the blocked loop (dense, or walking
broadcast inputs). The host driver takes HTP_ENGINE_PATH=reference|direct|table to force
one; here every op and element type runs at three sizes (5, 256 and 555 elements), with
its later inputs broadcast and not, under each forced path and the engine's own choice:
every result must be what torch eager gives (tests/test_htp_kernels.py's check) and the
very bytes of the reference path.
"""

from __future__ import annotations

import os
import shutil

import pytest
import test_htp_kernels as kernels

from norm_ops.ops import OPS

import op_package_host as host

PATHS = ("reference", "direct", "table", "auto")
SHAPES = ((1, 1, 1, 5), (1, 2, 4, 32), (1, 3, 5, 37))


class _Dense:
    """An op whose later inputs have the first one's shape (no broadcast)."""

    def __init__(self, op):
        self._op = op

    def __getattr__(self, name):
        return getattr(self._op, name)

    def input_shapes(self, shape):
        return [tuple(shape)] * len(self._op.domains)


def _cases() -> list:
    cases = []
    saved = kernels.SHAPE
    try:
        for s, shape in enumerate(SHAPES):
            kernels.SHAPE = shape
            for i, op in enumerate(o for o in OPS if o.kind == "elementwise"):
                forms = (op, _Dense(op)) if len(op.domains) > 1 else (op,)
                for f, form in enumerate(forms):
                    for dtype in kernels.DTYPES:
                        seed = 5000 + 100 * s + 10 * i + f
                        cases.append((shape, f == 1, kernels.Case(form, dtype, list(op.param_defaults), seed)))
    finally:
        kernels.SHAPE = saved
    return cases


@pytest.fixture(scope="module")
def runs():
    """Every case through the host driver under each path: {path: results}."""
    cases = _cases()
    if not cases:
        pytest.skip("the spec has no elementwise op (the engine's paths are an elementwise op's)")
    driver = kernels._driver("host")
    path = kernels.BUILD / "paths.bin"
    kernels._write_cases(path, [c for _, _, c in cases])
    results = {}
    for which in PATHS:
        out = kernels.BUILD / f"paths.{which}.bin"
        env = dict(os.environ)
        env.pop("HTP_ENGINE_PATH", None)
        if which != "auto":
            env["HTP_ENGINE_PATH"] = which
        result = host.run_command([str(driver), str(path), str(out)], 600, env=env)
        assert result.returncode == 0, result.stderr
        results[which] = kernels._read_results(out, [c for _, _, c in cases])
    return cases, results


@pytest.mark.parametrize("which", PATHS)
def test_every_path_matches_torch_eager_and_the_reference_bytes(runs, which):
    cases, results = runs
    for k, (shape, dense, case) in enumerate(cases):
        status, outputs = results[which][k]
        what = f"{case.op.qnn_type} {case.dtype} {shape} {'dense' if dense else 'broadcast'} path {which}"
        assert case.check(status, outputs) is None, f"{what}: {case.check(status, outputs)}"
        assert (status, outputs) == results["reference"][k], f"{what}: not the reference path's bytes"


# The Hexagon build (makefiles/hexagon_test.mk: 128-byte HVX, integer up to v66, what
# qemu-hexagon runs; the one tests/test_htp_kernels.py runs too): the 8-bit table is
# looked up with vlut32 (lpai_hvx.h), whatever the path forced.
@pytest.mark.hexagon
@pytest.mark.parametrize("which", ("table", "auto"))
def test_the_hvx_build_writes_the_host_s_bytes(runs, which):
    if shutil.which("qemu-hexagon") is None:
        pytest.skip("no qemu-hexagon (apt-get install qemu-user)")
    if host.run_command(["python3", "-m", "ziglang", "version"], 60).returncode != 0:
        pytest.skip("zig does not run (pip install ziglang)")
    cases, results = runs
    driver = kernels._driver("hexagon")
    out = kernels.BUILD / f"paths.hvx.{which}.bin"
    env = dict(os.environ)
    env.pop("HTP_ENGINE_PATH", None)
    if which != "auto":
        env["HTP_ENGINE_PATH"] = which
    result = host.run_command(
        ["qemu-hexagon", "-cpu", "v67", str(driver), str(kernels.BUILD / "paths.bin"), str(out)], 900, env=env
    )
    assert result.returncode == 0, result.stderr
    assert kernels._read_results(out, [c for _, _, c in cases]) == results[which], "HVX results differ from the host's"
