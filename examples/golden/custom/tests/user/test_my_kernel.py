# This file is yours: the template created it once and never touches it again.
"""An example: test a kernel yourself, through the host emulator, at values you choose.

`op_package_host` (in tests/, template-owned) builds the op package's host library with
the emulator of the LPAI kernel interface and runs one node of it: quantized inputs in,
quantized output back as torch codes.  This test runs
`norm_ops::my_norm` on a few inputs and param values picked by hand and
compares the kernel with the eager op, within one output step.  Copy it for your other
ops, or replace the expected values with ones you computed independently (a paper, a
spreadsheet, a golden run) for a stronger test.
"""

import pytest
import torch

from norm_ops.ops import OPS

import op_package_host as host

NAME = "my_norm"  # the op under test
OP = next((op for op in OPS if op.name == NAME), None)
SCALE, ZERO_POINT = 2.0 / 255.0, 128  # inputs quantized on about [-1, 1]
ROWS = [[-1.0, -0.5, -0.1, 0.0], [0.1, 0.5, 0.75, 1.0]]


def run_both(values):
    """The kernel's result (dequantized) and the eager op's, at the param `values`."""
    if OP is None:
        pytest.fail(
            f"tests/user/test_my_kernel.py tests the op {NAME!r}, which the spec no longer has: set NAME to another op"
        )
    codes = [host.quantize(torch.tensor(ROWS).roll(k, -1), SCALE, ZERO_POINT) for k in range(len(OP.inputs))]
    xs = [host.dequantize(c, SCALE, ZERO_POINT) for c in codes]  # what the kernel sees
    values = [default for _, _, default in OP.params] if values is None else values
    want = OP.default(*xs, *values)
    lo, hi = min(0.0, float(want.min())), max(0.0, float(want.max()))
    out_scale = float(torch.tensor(max(hi - lo, 1e-6) / 255.0, dtype=torch.float32))
    out_zp = int(min(255, max(0, round(-lo / out_scale))))
    shape = tuple(codes[0].shape)
    got = host.run(
        OP.qnn_type,
        [(host.Tensor(shape, SCALE, ZERO_POINT), c) for c in codes],
        host.Tensor(shape, out_scale, out_zp),
        [(name, kind, value) for (name, kind, _), value in zip(OP.params, values)],
    )
    return host.dequantize(got, out_scale, out_zp), want, out_scale


def test_kernel_at_the_default_params():
    got, want, step = run_both(None)
    assert torch.allclose(got, want, atol=step * 1.01), (got, want)


def other_int(d):
    """Another uint32 (what ExecuTorch can send an int param as): d + 1, or d - 1 at the top."""
    return d + 1 if d < 2**32 - 1 else d - 1


def test_kernel_at_other_params():
    # Values of your choice; these are the defaults moved, so that a kernel that
    # ignores a param fails here.
    got, want, step = run_both(
        [(not d) if kind == "bool" else (other_int(d) if kind == "int" else d * 1.5 + 0.25) for _, kind, d in OP.params]
        if OP
        else None
    )
    assert torch.allclose(got, want, atol=step * 1.01), (got, want)
