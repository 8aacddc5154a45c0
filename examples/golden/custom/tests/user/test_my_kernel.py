# This file is yours: the template created it once and never touches it again.
"""An example: test a kernel yourself, through the host emulator, at values you choose.

`op_package_host` (in tests/, template-owned) builds the op package's host library with
the emulator of the LPAI kernel interface and runs one node of it: quantized inputs in,
quantized output back as torch codes.  This test runs
`norm_ops::my_norm` on a few inputs across each input's domain (the spec's
`range`, or its default: `OpInfo.domains`) and param values picked by hand, and compares
the kernel with the eager op, within one output step.  Copy it for your other
ops, or replace the expected values with ones you computed independently (a paper, a
spreadsheet, a golden run) for a stronger test.
"""

import pytest
import torch

from norm_ops.ops import OPS

import op_package_host as host

NAME = "my_norm"  # the op under test
OP = next((op for op in OPS if op.name == NAME), None)


def rows(low, high):
    """Two rows of four values inside [low, high] (inputs quantized on the domain round
    by up to half a step: a little inside its ends, they stay in it)."""
    inset = (high - low) / 20
    return torch.linspace(low + inset, high - inset, 8).reshape(2, 4)


def quantization(low, high):
    """(scale, zero point) of an input calibrated on [low, high], as the quantizer's
    observer sets them (its range always holds 0)."""
    low, high = min(low, 0.0), max(high, 0.0)
    scale = float(torch.tensor((high - low) / 255.0, dtype=torch.float32))
    return scale, int(min(255, max(0, round(-low / scale))))


def run_both(values):
    """The kernel's result (dequantized) and the eager op's, at the param `values`."""
    if OP is None:
        pytest.fail(
            f"tests/user/test_my_kernel.py tests the op {NAME!r}, which the spec no longer has: set NAME to another op"
        )
    specs = [quantization(*domain) for domain in OP.domains]
    codes = [host.quantize(rows(*domain).roll(k, -1), *spec) for k, (domain, spec) in enumerate(zip(OP.domains, specs))]
    xs = [host.dequantize(c, *spec) for c, spec in zip(codes, specs)]  # what the kernel sees
    values = [default for _, _, default in OP.params] if values is None else values
    want = OP.default(*xs, *values)
    lo, hi = min(0.0, float(want.min())), max(0.0, float(want.max()))
    out_scale = float(torch.tensor(max(hi - lo, 1e-6) / 255.0, dtype=torch.float32))
    out_zp = int(min(255, max(0, round(-lo / out_scale))))
    shape = tuple(codes[0].shape)
    got = host.run(
        OP.qnn_type,
        [(host.Tensor(shape, *spec), c) for c, spec in zip(codes, specs)],
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
