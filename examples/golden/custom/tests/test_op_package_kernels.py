# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The op package's kernels against the eager ops, through the host emulator.

Every kernel runs on all 256 codes of each input (a 256 x 256 grid for binary ops)
with random scales and zero points, at the param defaults and at random other values
of the params, on the fast path and on the reference path, and must match torch: the eager op on the dequantized inputs, quantized with
torch.quantize_per_tensor (ties to even). Identical codes, or one code off only where
the float result is within 1e-4 of a rounding tie.
"""

import pytest
import torch

from norm_ops.ops import OPS

import op_package_host as host

# torch 2.13 deprecates quint8 tensors, which are the oracle here on purpose.
pytestmark = pytest.mark.filterwarnings("ignore:.*quantized tensor creation functions")

ALL_IDS = [op.name for op in OPS]
ELEMENTWISE = [op for op in OPS if op.kind != "custom"]


def grid(op):
    """All codes per input: 256 for one input, every pair for two."""
    codes = torch.arange(256, dtype=torch.uint8)
    if len(op.inputs) == 1:
        return [codes.reshape(1, 1, 16, 16)]
    a, b = torch.meshgrid(codes, codes, indexing="ij")
    return [a.reshape(1, 1, 256, 256).clone(), b.reshape(1, 1, 256, 256).clone()]


def defaults(op):
    return [default for _, _, default in op.params]


def params_of(op, values=None):
    values = defaults(op) if values is None else values
    return [(kind, value) for (_, kind, _), value in zip(op.params, values)]


def eager(op, xs, values=None):
    """The eager op at the param `values` (default: the spec's defaults); its result
    must be a tensor of the first input's dtype and shape."""
    values = defaults(op) if values is None else values
    try:
        result = op.default(*xs, *values)
    except NotImplementedError as exc:
        pytest.fail(
            f"{op.qualified_name}: {exc}; the kernel math goes in "
            f"op_package/{host.PACKAGE_NAME}/user/{op.qnn_type}_math.c"
        )
    where = f" (your eager math in norm_ops/user/{op.name}.py)" if op.kind == "custom" else ""
    assert isinstance(result, torch.Tensor), f"{op.qualified_name} returned {type(result).__name__}{where}"
    assert result.dtype == xs[0].dtype and result.shape == xs[0].shape, (
        f"{op.qualified_name} returned {result.dtype} {tuple(result.shape)}, expected "
        f"{xs[0].dtype} {tuple(xs[0].shape)}{where}"
    )
    return result


def run_kernel(op, specs, codes, out_spec, path="auto", values=None):
    try:
        got = host.run(op.qnn_type, list(zip(specs, codes)), out_spec, params_of(op, values), path=path)
    except host.Rejected as exc:
        if "not written yet" in exc.reason:
            pytest.fail(f"{op.qualified_name}: {exc.reason} (and its eager math in norm_ops/user/{op.name}.py)")
        raise
    assert got.dtype == torch.uint8 and tuple(got.shape) == tuple(out_spec.shape)
    return got


def check_against_torch(op, specs, codes, out_spec, path="auto", values=None):
    xs = [host.dequantize(c, s.scale, s.zero_point) for s, c in zip(specs, codes)]
    result = eager(op, xs, values)
    expected = host.quantize(result, out_spec.scale, out_spec.zero_point)
    got = run_kernel(op, specs, codes, out_spec, path, values)
    problem = host.compare(got, expected, result, out_spec.scale, out_spec.zero_point)
    at = f", params {values}" if values is not None else ""
    assert problem is None, f"{op.qualified_name} ({path} path{at}): {problem}"
    return got


# Every loop of the kernels: the cost-based choice, each fast path forced, and the
# reference path. Unary ops have a direct and a table path, binary ops the direct one.
PATHS = ["auto", "direct", "table", "reference"]


def skip_path(op, path):
    if op.kind == "custom" and path != "auto":
        pytest.skip("custom ops have one path")
    if path == "table" and len(op.inputs) != 1:
        pytest.skip("binary ops have no table path")


def expected_path(op, path, layout):
    if path == "reference":
        return "reference"
    # 256 codes (or 65,536 pairs for a binary op, which has no table): below the
    # crossover of the table, whatever the op's cost.
    return ("table" if path == "table" else "direct") + "-" + layout


def random_trial(op, codes, gen, zero_points, path, values=None):
    """One run on the whole grid: random input scales, the given zero points, the
    output range following the eager result, as calibration would set it."""
    zp = lambda: int(torch.randint(0, 256, (1,), generator=gen)) if zero_points else 0  # noqa: E731
    specs = [host.Tensor(tuple(c.shape), host.random_scale(gen), zp()) for c in codes]
    xs = [host.dequantize(c, s.scale, s.zero_point) for s, c in zip(specs, codes)]
    result = eager(op, xs, values)
    finite = result[torch.isfinite(result)]
    lo = min(0.0, float(finite.min())) if finite.numel() else -1.0
    hi = max(0.0, float(finite.max())) if finite.numel() else 1.0
    span = (hi - lo) if hi > lo else 1.0
    scale = span / 255.0 * float(torch.empty(1).uniform_(0.5, 1.5, generator=gen))
    scale = float(torch.tensor(scale, dtype=torch.float32))
    out_zp = int(min(255, max(0, round(-lo / scale))))
    out = host.Tensor(tuple(codes[0].shape), scale, out_zp)
    check_against_torch(op, specs, codes, out, path, values)
    if op.kind != "custom":
        assert host.last_path() == expected_path(op, path, "dense")


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("op", OPS, ids=ALL_IDS)
def test_kernel_matches_eager(op, path):
    skip_path(op, path)
    gen = torch.Generator().manual_seed(1234)
    codes = grid(op)
    for trial in range(6):
        random_trial(op, codes, gen, zero_points=trial >= 2, path=path)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("op", OPS, ids=ALL_IDS)
def test_kernel_matches_eager_at_random_params(op, path):
    """Params other than the defaults (host.random_params): a kernel that ignores a
    param, or bakes its default in, passes the default-only tests but not this one."""
    if not op.params:
        pytest.skip("the op has no params")
    skip_path(op, path)
    gen = torch.Generator().manual_seed(4321)
    codes = grid(op)
    for draw in range(3):
        values = host.random_params(op.params, gen)
        assert values != defaults(op)
        random_trial(op, codes, gen, zero_points=draw > 0, path=path, values=values)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("op", OPS, ids=ALL_IDS)
def test_integer_scale_form_shift_37(op, path):
    """C1: the eNPU serves 1/255 as (scale, shift 37); the result must not change. One
    side at a time: with both in integer form a wrong conversion of both scales would
    cancel in the ratio for linear ops and go unnoticed."""
    skip_path(op, path)
    codes = grid(op)
    shape = tuple(codes[0].shape)
    for int_inputs in (True, False):
        form_in = host.SCALE_INT if int_inputs else host.SCALE_FLOAT
        form_out = host.SCALE_FLOAT if int_inputs else host.SCALE_INT
        specs = [host.Tensor(shape, 1.0 / 255.0, 0, scale_form=form_in, shift=37) for _ in codes]
        out = host.Tensor(shape, 2.0 / 255.0, 0, scale_form=form_out, shift=37)
        assert (specs[0] if int_inputs else out).desc().shift == 37
        check_against_torch(op, specs, codes, out, path)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("op", OPS, ids=ALL_IDS)
def test_permuted_padded_layouts(op, path):
    """C5: byte strides with padding, layoutOrder slowest first, input and output
    in different layouts; the padding stays untouched."""
    skip_path(op, path)
    gen = torch.Generator().manual_seed(99)
    n = 256 if len(op.inputs) == 1 else 65536
    shape = (1, 4, 8, n // 32)
    codes = [c.reshape(shape).clone() for c in grid(op)]
    orders = [(0, 2, 3, 1), (3, 1, 0, 2)]
    specs = [host.Tensor(shape, host.random_scale(gen), 0, order=orders[k % 2], pad=1 + k) for k in range(len(codes))]
    out = host.Tensor(shape, host.random_scale(gen), 0, order=(2, 0, 3, 1), pad=3)
    check_against_torch(op, specs, codes, out, path)
    assert host.padding_untouched(), "the kernel wrote into the output's padding"
    if op.kind != "custom":
        assert host.last_path() == expected_path(op, path, "walk")


@pytest.mark.parametrize("path", ["auto", "direct", "table"])
@pytest.mark.parametrize("op", ELEMENTWISE, ids=[op.name for op in ELEMENTWISE])
def test_large_tensor_path_and_values(op, path):
    """Above the table's crossover (a few hundred elements, when the op's math costs
    more than a lookup) a unary op may build its 256-entry table; a binary op keeps
    the direct loop. Values as torch's on every path, block tails included (4,099
    elements: 32 blocks of 128 and a tail of 3)."""
    skip_path(op, path)
    gen = torch.Generator().manual_seed(7)
    shape = (1, 1, 1, 4099)
    codes = [torch.randint(0, 256, shape, dtype=torch.uint8, generator=gen) for _ in op.inputs]
    specs = [host.Tensor(shape, host.random_scale(gen), 0) for _ in op.inputs]
    out = host.Tensor(shape, host.random_scale(gen), 128)
    check_against_torch(op, specs, codes, out, path)
    if path != "auto":
        assert host.last_path() == f"{path}-dense"
    else:
        assert host.last_path() in (("table-dense", "direct-dense") if len(op.inputs) == 1 else ("direct-dense",))


def pr_qparams(op):
    """Input calibrated on [0, 1]; output on the eager result over that range."""
    in_scale, in_zp = 1.0 / 255.0, 0
    ends = eager(op, [torch.tensor([0.0, 1.0]) for _ in op.inputs])
    if not bool(torch.isfinite(ends).all()):
        pytest.skip("the op is not finite at the ends of the calibration range [0, 1]")
    lo, hi = min(0.0, float(ends.min())), max(0.0, float(ends.max()))
    if not hi > lo:
        pytest.skip("the op is constant on the calibration range")
    out_scale = float(torch.tensor((hi - lo) / 255.0, dtype=torch.float32))
    return in_scale, in_zp, out_scale, int(round(-lo / out_scale))


@pytest.mark.parametrize("op", ELEMENTWISE, ids=[op.name for op in ELEMENTWISE])
def test_requant_biased_upper_half(op):
    """The pull request's first simulator path: calibration 1.0, inference 0.25. The
    input code 64 is stored as byte 192 under offset -128 and must be un-biased with
    the wrap modulo 256 (without it, it decodes as 320 and saturates)."""
    in_scale, in_zp, out_scale, out_zp = pr_qparams(op)
    q = host.quantize(torch.full((1, 1, 4, 4), 0.25), in_scale, in_zp)
    assert int(q[0, 0, 0, 0]) == 64 and (64 - 128) % 256 >= 128
    specs = [host.Tensor((1, 1, 4, 4), in_scale, in_zp) for _ in op.inputs]
    out = host.Tensor((1, 1, 4, 4), out_scale, out_zp)
    got = check_against_torch(op, specs, [q] * len(op.inputs), out)
    value = host.dequantize(got, out_scale, out_zp)
    want = eager(op, [torch.full((1, 1, 4, 4), 0.25) for _ in op.inputs])
    assert torch.allclose(value, want, atol=out_scale), (value.flatten()[:4], want.flatten()[:4])


@pytest.mark.parametrize("op", ELEMENTWISE, ids=[op.name for op in ELEMENTWISE])
def test_requant_saturates_above_calibration(op):
    """The second path: calibration 1.0, inference 2.0. The graph's quantize clamps the
    input to 1.0 (code 255, stored byte 127); the result is the calibrated maximum
    (the op at 1.0), never a wrapped small value."""
    in_scale, in_zp, out_scale, out_zp = pr_qparams(op)
    q = host.quantize(torch.full((1, 1, 4, 4), 2.0), in_scale, in_zp)
    assert int(q[0, 0, 0, 0]) == 255
    specs = [host.Tensor((1, 1, 4, 4), in_scale, in_zp) for _ in op.inputs]
    out = host.Tensor((1, 1, 4, 4), out_scale, out_zp)
    got = check_against_torch(op, specs, [q] * len(op.inputs), out)
    value = host.dequantize(got, out_scale, out_zp)
    want = eager(op, [torch.full((1, 1, 4, 4), 1.0) for _ in op.inputs])
    assert torch.allclose(value, want, atol=out_scale)


def _bad(field, value):
    return lambda spec: setattr(spec, field, value)


BAD_NODES = {
    "undefined-scale-type": ("in", _bad("scale_form", host.SCALE_UNDEFINED), "UNDEFINED"),
    "zero-scale": ("in", _bad("scale", 0.0), "zero, negative"),
    "negative-scale": ("out", _bad("scale", -0.25), "zero, negative"),
    "nan-scale": ("in", _bad("scale", float("nan")), "zero, negative"),
    "inf-output-scale": ("out", _bad("scale", float("inf")), "zero, negative"),
    "inf-scale-ratio": ("both", None, "ratio"),
    "rank-6": ("both", None, "rank"),
    "mismatched-shapes": ("out", _bad("shape", (1, 1, 4, 8)), "shapes differ"),
    "16-bit": ("both", None, "8 bits"),
    "int32-type": ("in", _bad("report_type", host.LPAI_DATATYPE_INT_32), "8 bits"),
}


@pytest.mark.parametrize("case", list(BAD_NODES), ids=list(BAD_NODES))
@pytest.mark.parametrize("op", OPS, ids=ALL_IDS)
def test_bad_node_rejected_output_untouched(op, case):
    where, mutate, reason = BAD_NODES[case]
    shape = (1, 1, 4, 4)
    specs = [host.Tensor(shape) for _ in op.inputs]
    out = host.Tensor(shape)
    codes = [torch.arange(16, dtype=torch.uint8).reshape(shape) for _ in op.inputs]
    if case == "inf-scale-ratio":
        specs[0].scale, out.scale = 1e30, 1e-30
    elif case == "rank-6":
        for t in [*specs, out]:
            t.shape = (1, 1, 1, 1, 4, 4)
        codes = [c.reshape(t.shape) for c, t in zip(codes, specs)]
    elif case == "16-bit":
        for t in [*specs, out]:
            t.bits = 16
    else:
        for t in [specs[-1]] if where == "in" else [out]:
            mutate(t)
    with pytest.raises(host.Rejected) as info:
        host.run(op.qnn_type, list(zip(specs, codes)), out, params_of(op))
    assert reason in info.value.reason
    assert host.output_untouched(), "output written before the refusal"


def test_registration_sets_layout_flag_for_every_op():
    """C6: the device refuses a package whose op lacks the layout support callback."""
    assert host.library().lpai_emu_register() == 0
