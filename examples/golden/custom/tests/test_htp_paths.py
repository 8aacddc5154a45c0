# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Every path of the HTP package's elementwise engine (op_package/htp/include/htp_engine.h)
against torch eager and against its reference path.

The engine chooses a path by the call: the per-element reference loop up to 8 elements,
the table of a one-input 8-bit op from 512, else the blocked loop (dense, or walking
broadcast inputs). The host driver takes HTP_ENGINE_PATH=reference|direct|table to force
one; here every op and element type runs at three sizes (5, 256 and 555 elements), with
its later inputs broadcast and not, under each forced path and the engine's own choice:
every result must be what torch eager gives (tests/test_htp_kernels.py's check) and the
very bytes of the reference path. On x86 an op whose expression calls round, floor, ceil or
trunc runs a copy of the engine compiled for SSE4.1 where the CPU has it; the engine's own
choice runs again with HTP_ENGINE_ISA=sse2 (every op's SSE2 form): the same bytes.
"""

from __future__ import annotations

import os
import shutil

import pytest
import test_htp_kernels as kernels

from norm_ops.ops import OPS

import op_package_host as host

PATHS = ("reference", "direct", "table", "auto")
# The ops with an SSE4.1 copy of their kernel (include/htp_engine.h).
SSE41_OPS = frozenset()
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
    """Every case through the host driver under each path: {path: results}; and the
    cases of SSE41_OPS under the engine's own choice with SSE2 forced ("sse2", in their
    order); and {run: (CPU has SSE4.1, calls that ran an SSE4.1 copy)}, as the driver says."""
    cases = _cases()
    if not cases:
        pytest.skip("the spec has no elementwise op (the engine's paths are an elementwise op's)")
    driver = kernels._driver("host")
    path = kernels.BUILD / "paths.bin"
    kernels._write_cases(path, [c for _, _, c in cases])
    sse41_cases = [c for _, _, c in cases if c.op.name in SSE41_OPS]
    sse41_path = kernels.BUILD / "paths.sse41.bin"
    kernels._write_cases(sse41_path, sse41_cases)
    results, isa = {}, {}
    for which in (*PATHS, "sse2"):
        if which == "sse2" and not sse41_cases:
            continue
        out = kernels.BUILD / f"paths.{which}.bin"
        env = dict(os.environ)
        env.pop("HTP_ENGINE_PATH", None)
        env.pop("HTP_ENGINE_ISA", None)
        if which == "sse2":
            env["HTP_ENGINE_ISA"] = "sse2"
        elif which != "auto":
            env["HTP_ENGINE_PATH"] = which
        run_cases = sse41_cases if which == "sse2" else [c for _, _, c in cases]
        result = host.run_command([str(driver), str(sse41_path if which == "sse2" else path), str(out)], 600, env=env)
        assert result.returncode == 0, result.stderr
        results[which] = kernels._read_results(out, run_cases)
        _, _, sse41, _, copies = result.stdout.split()
        isa[which] = (sse41 == "1", int(copies))
    return cases, results, isa


@pytest.mark.parametrize("which", PATHS)
def test_every_path_matches_torch_eager_and_the_reference_bytes(runs, which):
    cases, results, _ = runs
    for k, (shape, dense, case) in enumerate(cases):
        status, outputs = results[which][k]
        what = f"{case.op.qnn_type} {case.dtype} {shape} {'dense' if dense else 'broadcast'} path {which}"
        assert case.check(status, outputs) is None, f"{what}: {case.check(status, outputs)}"
        assert (status, outputs) == results["reference"][k], f"{what}: not the reference path's bytes"


def test_the_sse41_copies_write_the_bytes_of_the_sse2_forms(runs):
    """x86: the engine as each op chooses (its SSE4.1 copy where it has one and the CPU
    has SSE4.1) and with SSE2 forced write the same bytes; the SSE4.1 copies did run."""
    cases, results, isa = runs
    if not SSE41_OPS:
        pytest.skip("no op calls round, floor, ceil or trunc: none has an SSE4.1 copy")
    chosen = [(k, case) for k, (_, _, case) in enumerate(cases) if case.op.name in SSE41_OPS]
    for (k, case), forced in zip(chosen, results["sse2"], strict=True):
        shape, dense, _ = cases[k]
        what = f"{case.op.qnn_type} {case.dtype} {shape} {'dense' if dense else 'broadcast'}"
        assert forced == results["auto"][k], f"{what}: SSE4.1 and SSE2 differ"
    cpu, copies = isa["auto"]
    assert (copies > 0) == cpu, f"{copies} calls ran an SSE4.1 copy (CPU has SSE4.1: {cpu}; ops {SSE41_OPS})"
    assert isa["sse2"][1] == 0, "HTP_ENGINE_ISA=sse2 still ran SSE4.1 copies"


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
    cases, results, _ = runs
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
