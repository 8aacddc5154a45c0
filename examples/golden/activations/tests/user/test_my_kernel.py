# This file is yours: the template created it once and never touches it again.
"""An example: test a kernel yourself, through the host emulator, at values you choose.

`op_package_host` (in tests/, template-owned) builds the op package's host library with
the emulator of the LPAI kernel interface and runs one node of it: quantized inputs in,
quantized outputs back as torch codes; it also lists the package's ops (`host.OPS`), so
this file names no namespace and survives a rename of it.  This test runs the op
`hard_swish_ish` on a few inputs across each input's domain (the spec's `range`, or
its default: `OpInfo.domains`) and param values picked by hand and compares every
output of the kernel with the eager op's, code for code (one code off only at a rounding
tie; NaN is the lowest code, as in the generated tests).  It takes every form of op:
several inputs (broadcasting ones for an elementwise op), several outputs, reductions,
rowwise.  Copy it for your other ops (set NAME), or replace the expected values with ones
you computed independently (a paper, a spreadsheet, a golden run) for a stronger test.
"""

import math

import pytest
import torch

import op_package_host as host

# torch 2.13 deprecates quint8 tensors, which host.dequantize uses on purpose.
pytestmark = pytest.mark.filterwarnings("ignore:.*quantized tensor creation functions")

NAME = "hard_swish_ish"  # the op under test
OP = next((op for op in host.OPS if op.name == NAME), None)
# 4 dims: the rank the project runs its ops at (a reduction may name dims 0 to 3).
SHAPE = (1, 2, 1, 4)


def quantization(low, high):
    """(scale, zero point) of an input calibrated on [low, high], as the quantizer's
    observer sets them (its range always holds 0)."""
    low, high = min(low, 0.0), max(high, 0.0)
    scale = float(torch.tensor((high - low) / 255.0, dtype=torch.float32))
    return scale, int(min(255, max(0, round(-low / scale))))


def inputs():
    """One tensor per input, eight values inside its domain (a little inside its ends:
    quantized on the domain, they stay in it) repeated, shifted by one per input, in the
    shape of a valid call: every input SHAPE, or for an elementwise op the later inputs
    broadcasting."""
    tensors = []
    for k, (shape, (low, high)) in enumerate(zip(OP.input_shapes(SHAPE), OP.domains)):
        inset = (high - low) / 20
        values = torch.linspace(low + inset, high - inset, 8).tolist()
        n = math.prod(shape)
        tensors.append(torch.tensor([values[(i + k) % len(values)] for i in range(n)]).reshape(shape))
    return tensors


def output_qparams(result):
    """(scale, zero point) of an output calibrated on its eager values (finite ones)."""
    finite = result[torch.isfinite(result)]
    lo = min(0.0, float(finite.min())) if finite.numel() else 0.0
    hi = max(0.0, float(finite.max())) if finite.numel() else 1.0
    scale = float(torch.tensor(max(hi - lo, 1e-6) / 255.0, dtype=torch.float32))
    return scale, int(min(255, max(0, round(-lo / scale))))


def check(values):
    """Every output of the kernel against the eager op, at the param `values`."""
    if OP is None:
        pytest.fail(
            f"tests/user/test_my_kernel.py tests the op {NAME!r}, which the spec no longer has: set NAME to another op"
        )
    specs = [quantization(*domain) for domain in OP.domains]
    codes = [host.quantize(x, *spec) for x, spec in zip(inputs(), specs)]
    xs = [host.dequantize(c, *spec) for c, spec in zip(codes, specs)]  # what the kernel sees
    values = [default for _, _, default in OP.params] if values is None else values
    result = OP.default(*xs, *values)
    wants = list(result) if isinstance(result, (tuple, list)) else [result]
    assert len(wants) == len(OP.outputs), f"{NAME} returned {len(wants)} outputs, the spec declares {OP.outputs}"
    qparams = [output_qparams(want) for want in wants]
    got = host.run_n(
        OP.qnn_type,
        [(host.Tensor(tuple(c.shape), *spec), c) for c, spec in zip(codes, specs)],
        [host.Tensor(tuple(want.shape), scale, zp) for want, (scale, zp) in zip(wants, qparams)],
        [(name, kind, value) for (name, kind, _), value in zip(OP.params, values)],
    )
    for name, g, want, (scale, zp) in zip(OP.outputs, got, wants, qparams):
        problem = host.compare(g, host.quantize(want, scale, zp), want, scale, zp)
        assert problem is None, f"{NAME} output {name}: {problem}"


def test_kernel_at_the_default_params():
    check(None)


def test_kernel_at_other_params():
    # Values of your choice inside where each param works: OpInfo.other_params moves each
    # param the spec gives a `range` (and every bool) off its default, so that a kernel
    # that ignores a param fails here; a param without a range stays at its default.
    check(list(OP.other_params) if OP else None)
