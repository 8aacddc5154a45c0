# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The op package's kernels against the eager ops, through the host emulator.

Every kernel runs on all 256 codes of each input (a 256 x 256 grid for binary ops, a
dense random sample of 4,096 code tuples for three or four inputs) with random scales
and zero points, at the param defaults and at random values inside where the spec lets
the tests vary each param (OpInfo.param_spans: its declared `range`, ...), on
the fast path and on the reference path, and must match torch: the eager op on the
dequantized inputs, quantized as the exported graph quantizes (ties to even, then the
zero point: op_package_host.quantize), every output. Identical codes, or one code off only where the float result is within 1e-4 of
a rounding tie. Inputs of different shapes broadcast as in torch (all code pairs on
broadcast shapes, in permuted and padded layouts too); outputs take the shapes the
op's fake kernel gives.
"""

import math

import pytest
import torch

from shape_ops.ops import OPS

import failure
import op_package_host as host
from spec_values import SPEC_LAYOUT_FLAG, SPEC_ROW_MAX

# torch 2.13 deprecates quint8 tensors, which dequantize the codes here on purpose.
pytestmark = pytest.mark.filterwarnings("ignore:.*quantized tensor creation functions")

ALL_IDS = [op.name for op in OPS]
# Where a custom op's eager math lives (a name of its own: the messages below then have
# the same length for every namespace, and the formatter the same layout).
EAGER_USER = "shape_ops/user"
# The custom ops whose math runs row by row (rowwise: true in the spec).
ROWWISE = {"rms_norm", "pcen"}
ELEMENTWISE = [op for op in OPS if op.kind != "custom"]


def each(ops, what):
    """One test case per op of `ops`, by name; with none, one skipped case whose reason
    says what the spec lacks (pytest's own would be "got empty parameter set")."""
    if ops:
        return [pytest.param(op, id=op.name) for op in ops]
    return [pytest.param(None, id="none", marks=pytest.mark.skip(reason=f"the spec has no {what}"))]


def grid(op):
    """All codes per input: 256 for one input, every pair for two; for three or four
    inputs (256^3 tuples would be 16 Mi elements) a dense random sample of 4,096."""
    codes = torch.arange(256, dtype=torch.uint8)
    if len(op.inputs) == 1:
        return [codes.reshape(1, 1, 16, 16)]
    if len(op.inputs) == 2:
        # Every pair once, and both inputs vary along each row (the last dim): with the
        # first input constant in a row, a row-wise op (the row minus its mean) gave
        # float rounding around 0 for torch to compare codes with.
        i, j = torch.meshgrid(codes.int(), codes.int(), indexing="ij")
        first, second = j, (i + j) % 256
        return [first.to(torch.uint8).reshape(1, 1, 256, 256), second.to(torch.uint8).reshape(1, 1, 256, 256)]
    gen = torch.Generator().manual_seed(31)
    return [torch.randint(0, 256, (1, 1, 64, 64), dtype=torch.uint8, generator=gen) for _ in op.inputs]


def output_shapes(op, shapes):
    """The shape of every output for inputs of `shapes`, from the op's fake kernel (on
    meta tensors: no math runs, so this works before the user math is written)."""
    result = op.function(*[torch.empty(s, device="meta") for s in shapes], *defaults(op))
    return [tuple(r.shape) for r in (result if isinstance(result, (tuple, list)) else [result])]


def defaults(op):
    return [default for _, _, default in op.params]


def params_of(op, values=None):
    values = defaults(op) if values is None else values
    return [(name, kind, value) for (name, kind, _), value in zip(op.params, values)]


def eager(op, xs, values=None):
    """The eager op at the param `values` (default: the spec's defaults): a list of its
    outputs, each a tensor of the first input's dtype in the shape the fake kernel
    gives (for an elementwise op, the broadcast of the inputs)."""
    values = defaults(op) if values is None else values
    try:
        result = op.default(*xs, *values)
    except NotImplementedError as exc:
        pytest.fail(
            f"{op.qualified_name}: {exc}; the kernel math goes in "
            f"op_package/{host.PACKAGE_NAME}/user/{op.qnn_type}_math.c"
        )
    where = f" (your eager math in {EAGER_USER}/{op.name}.py)" if op.kind == "custom" else ""
    results = list(result) if isinstance(result, (tuple, list)) else [result]
    shapes = output_shapes(op, [tuple(x.shape) for x in xs])
    if op.kind != "custom":
        assert shapes == [tuple(torch.broadcast_shapes(*[x.shape for x in xs]))]
    assert len(results) == len(shapes), f"{op.qualified_name} returned {len(results)} outputs{where}"
    for r, shape in zip(results, shapes):
        assert isinstance(r, torch.Tensor), f"{op.qualified_name} returned {type(r).__name__}{where}"
        assert r.dtype == xs[0].dtype and tuple(r.shape) == shape, (
            f"{op.qualified_name} returned {r.dtype} {tuple(r.shape)}, expected {xs[0].dtype} {shape}{where}"
        )
    return results


def run_kernel(op, specs, codes, out_specs, path="auto", values=None, temp="asked"):
    try:
        got = host.run_n(op.qnn_type, list(zip(specs, codes)), out_specs, params_of(op, values), path=path, temp=temp)
    except host.Rejected as exc:
        if "not written yet" in exc.reason:
            pytest.fail(f"{op.qualified_name}: {exc.reason} (and its eager math in {EAGER_USER}/{op.name}.py)")
        raise
    for g, spec in zip(got, out_specs):
        assert g.dtype == torch.uint8 and tuple(g.shape) == tuple(spec.shape)
    return got


def check_against_torch(op, specs, codes, out_specs, path="auto", values=None, temp="asked"):
    """Every output of the kernel against the eager op; `out_specs` one per output."""
    xs = [host.dequantize(c, s.scale, s.zero_point) for s, c in zip(specs, codes)]
    failure.note(
        op,
        params=defaults(op) if values is None else values,
        inputs=", ".join(
            f"{name} codes {int(c.min())}..{int(c.max())} (scale {s.scale:.4g}, zero point {s.zero_point}: "
            f"[{float(x.min()):.4g}, {float(x.max()):.4g}])"
            for name, s, c, x in zip(op.inputs, specs, codes, xs)
        ),
    )
    results = eager(op, xs, values)
    got = run_kernel(op, specs, codes, out_specs, path, values, temp)
    at = f", params {values}" if values is not None else ""
    for j, (g, result, spec) in enumerate(zip(got, results, out_specs)):
        expected = host.quantize(result, spec.scale, spec.zero_point)
        problem = host.compare(g, expected, result, spec.scale, spec.zero_point)
        assert problem is None, f"{op.qualified_name} output {j} ({path} path{at}): {problem}"
    return got


def outputs_like(op, specs, **fields):
    """One host.Tensor per output, in the shape the fake kernel gives for `specs`."""
    return [host.Tensor(shape, **fields) for shape in output_shapes(op, [s.shape for s in specs])]


# The smallest scale torchao's observers give (MinMaxObserver's eps, float32's): an
# output whose values are float rounding around 0 (a row minus its mean on a constant
# row: torch gives -2.3e-10, a C loop 0) gets steps of this size, not of 1e-12.
MIN_SCALE = float(torch.finfo(torch.float32).eps)


def calibrated(result, gen):
    """(scale, zero point) of an output calibrated on `result`, as calibration would."""
    finite = result[torch.isfinite(result)]
    lo = min(0.0, float(finite.min())) if finite.numel() else -1.0
    hi = max(0.0, float(finite.max())) if finite.numel() else 1.0
    span = (hi - lo) if hi > lo else 1.0
    scale = span / 255.0 * float(torch.empty(1).uniform_(0.5, 1.5, generator=gen))
    scale = float(torch.tensor(max(scale, MIN_SCALE), dtype=torch.float32))
    return scale, int(min(255, max(0, round(-lo / scale))))


# Every loop of the kernels: the cost-based choice, each fast path forced, and the
# reference path. Unary ops have a direct and a table path, binary ops the direct one.
PATHS = ["auto", "direct", "table", "reference"]


def skip_path(op, path):
    if op.kind == "custom" and path != "auto":
        pytest.skip("custom ops have one path")
    if path == "table" and len(op.inputs) != 1:
        pytest.skip("ops of two or more inputs have no table path")


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
    outs = [host.Tensor(tuple(r.shape), *calibrated(r, gen)) for r in eager(op, xs, values)]
    check_against_torch(op, specs, codes, outs, path, values)
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
    """Params other than the defaults (host.random_params, inside OpInfo.param_spans): a
    kernel that ignores a param, or bakes its default in, passes the default-only tests
    but not this one."""
    if not op.params:
        pytest.skip("the op has no params")
    if all(span is None for span in op.param_spans):
        pytest.skip(
            "no param may be varied: declare where each works (params: [{name, type, default, range: [low, high]}])"
        )
    skip_path(op, path)
    gen = torch.Generator().manual_seed(4321)
    codes = grid(op)
    for draw in range(3):
        values = host.random_params(op, gen)
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
        outs = outputs_like(op, specs, scale=2.0 / 255.0, zero_point=0, scale_form=form_out, shift=37)
        assert (specs[0] if int_inputs else outs[0]).desc().shift == 37
        check_against_torch(op, specs, codes, outs, path)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("op", OPS, ids=ALL_IDS)
def test_permuted_padded_layouts(op, path):
    """C5: byte strides with padding, layoutOrder slowest first, input and output
    in different layouts; the padding stays untouched."""
    skip_path(op, path)
    gen = torch.Generator().manual_seed(99)
    codes = grid(op)
    # Rows of at most SPEC_ROW_MAX for a rowwise op (the kernel refuses longer ones).
    row = min(codes[0].numel() // 32, SPEC_ROW_MAX) if op.name in ROWWISE else codes[0].numel() // 32
    shape = (1, 4, codes[0].numel() // (4 * row), row)
    codes = [c.reshape(shape).clone() for c in codes]
    orders = [(0, 2, 3, 1), (3, 1, 0, 2)]
    specs = [host.Tensor(shape, host.random_scale(gen), 0, order=orders[k % 2], pad=1 + k) for k in range(len(codes))]
    outs = [
        host.Tensor(s, host.random_scale(gen), 0, order=(2, 0, 3, 1) if len(s) == 4 else None, pad=3)
        for s in output_shapes(op, [shape] * len(codes))
    ]
    check_against_torch(op, specs, codes, outs, path)
    assert host.padding_untouched(), "the kernel wrote into the output's padding"
    if op.kind != "custom" and not host.last_repacked():  # layout_support: default repacks
        assert host.last_path() == expected_path(op, path, "walk")


@pytest.mark.parametrize("path", ["auto", "direct", "table"])
@pytest.mark.parametrize("op", each(ELEMENTWISE, "elementwise op"))
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
    check_against_torch(op, specs, codes, [out], path)
    if path != "auto":
        assert host.last_path() == f"{path}-dense"
    else:
        assert host.last_path() in (("table-dense", "direct-dense") if len(op.inputs) == 1 else ("direct-dense",))


def one_value(result) -> bool:
    """Every finite value of `result` the same (and at least one finite)."""
    finite = result[torch.isfinite(result)]
    return bool(finite.numel()) and float(finite.min()) == float(finite.max())


def pr_qparams(op):
    """Input calibrated on [0, 1] (the pull request's scenario), every input fed the same
    value; output on the eager result over that range.  Skipped where that says nothing:
    an op constant on its inputs' domains (OpInfo.domains: the spec's ranges; each input
    over its own, 257 points for one input, 17 each for more), an op of several inputs
    that gives one value wherever they are equal on [0, 1] (a / b, a - b), or not finite
    on [0, 1]."""
    in_scale, in_zp = 1.0 / 255.0, 0
    n = len(op.inputs)
    axes = [torch.linspace(lo, hi, 257 if n == 1 else 17) for lo, hi in op.domains]
    each_own = [a.reshape([-1 if j == k else 1 for j in range(n)]) for k, a in enumerate(axes)]
    if one_value(eager(op, each_own)[0]):
        pytest.skip(f"the op is constant on its inputs' domains ({failure.domains_text(op, op.domains)})")
    if n > 1 and one_value(eager(op, [torch.linspace(0.0, 1.0, 257)] * n)[0]):
        pytest.skip(
            "the op gives one value wherever its inputs are equal on [0, 1], and this test feeds every "
            f"input the same value there (it varies on its domains: {failure.domains_text(op, op.domains)})"
        )
    ends = eager(op, [torch.tensor([0.0, 1.0]) for _ in op.inputs])[0]
    if not bool(torch.isfinite(ends).all()):
        pytest.skip(
            f"the op is not finite on [0, 1], where this test calibrates its inputs "
            f"(its domains: {failure.domains_text(op, op.domains)})"
        )
    lo, hi = min(0.0, float(ends.min())), max(0.0, float(ends.max()))
    if not hi > lo:
        pytest.skip("the op gives one value at 0 and at 1, where this test calibrates its inputs")
    out_scale = float(torch.tensor((hi - lo) / 255.0, dtype=torch.float32))
    return in_scale, in_zp, out_scale, int(round(-lo / out_scale))


def test_the_oracle_rounds_like_the_exported_graph_at_odd_zero_point_ties():
    """Exact ties (k + 0.5) with odd zero points: the oracle is torch's
    quantized_decomposed.quantize_per_tensor (the exported graph's op), which adds the
    zero point after rounding, as the kernels do (the C suite's test_requant_ties holds
    them to it on every path); torch.quantize_per_tensor adds it before rounding and is
    one code off at half of these ties."""
    import torch.ao.quantization.fx._decomposed  # noqa: F401  (registers quantized_decomposed)

    for scale in (1.0, 0.25, 0.1):
        for zp in (1, 125, 131, 255, 128):
            values = (torch.arange(-300, 300, dtype=torch.float64) + 0.5) * scale
            values = values.to(torch.float32)
            graph = torch.ops.quantized_decomposed.quantize_per_tensor(values, scale, zp, 0, 255, torch.uint8)
            assert torch.equal(host.quantize(values, scale, zp), graph), (scale, zp)
            if scale == 1.0:
                legacy = torch.quantize_per_tensor(values, scale, zp, torch.quint8).int_repr()
                assert bool((legacy != graph).any()) == (zp % 2 == 1), (scale, zp)


@pytest.mark.parametrize("op", each(ELEMENTWISE, "elementwise op"))
def test_requant_biased_upper_half(op):
    """The pull request's first simulator path: calibration 1.0, inference 0.25. The
    input code 64 is stored as byte 192 under offset -128 and must be un-biased with
    the wrap modulo 256 (without it, it decodes as 320 and saturates)."""
    in_scale, in_zp, out_scale, out_zp = pr_qparams(op)
    q = host.quantize(torch.full((1, 1, 4, 4), 0.25), in_scale, in_zp)
    assert int(q[0, 0, 0, 0]) == 64 and (64 - 128) % 256 >= 128
    specs = [host.Tensor((1, 1, 4, 4), in_scale, in_zp) for _ in op.inputs]
    out = host.Tensor((1, 1, 4, 4), out_scale, out_zp)
    got = check_against_torch(op, specs, [q] * len(op.inputs), [out])[0]
    value = host.dequantize(got, out_scale, out_zp)
    want = eager(op, [torch.full((1, 1, 4, 4), 0.25) for _ in op.inputs])[0]
    assert torch.allclose(value, want, atol=out_scale), (value.flatten()[:4], want.flatten()[:4])


@pytest.mark.parametrize("op", each(ELEMENTWISE, "elementwise op"))
def test_requant_saturates_above_calibration(op):
    """The second path: calibration 1.0, inference 2.0. The graph's quantize clamps the
    input to 1.0 (code 255, stored byte 127); the result is the calibrated maximum
    (the op at 1.0), never a wrapped small value."""
    in_scale, in_zp, out_scale, out_zp = pr_qparams(op)
    q = host.quantize(torch.full((1, 1, 4, 4), 2.0), in_scale, in_zp)
    assert int(q[0, 0, 0, 0]) == 255
    specs = [host.Tensor((1, 1, 4, 4), in_scale, in_zp) for _ in op.inputs]
    out = host.Tensor((1, 1, 4, 4), out_scale, out_zp)
    got = check_against_torch(op, specs, [q] * len(op.inputs), [out])[0]
    value = host.dequantize(got, out_scale, out_zp)
    want = eager(op, [torch.full((1, 1, 4, 4), 1.0) for _ in op.inputs])[0]
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
    "mismatched-shapes": (
        "out",
        lambda spec: setattr(spec, "shape", (*spec.shape[:-1], spec.shape[-1] + 1)),
        "shapes differ",
    ),
    "16-bit": ("both", None, "8 bits"),
    "int32-type": ("in", _bad("report_type", host.LPAI_DATATYPE_INT_32), "8 bits"),
}


@pytest.mark.parametrize("case", list(BAD_NODES), ids=list(BAD_NODES))
@pytest.mark.parametrize("op", OPS, ids=ALL_IDS)
def test_bad_node_rejected_output_untouched(op, case):
    where, mutate, reason = BAD_NODES[case]
    shape = (1, 1, 4, 4)
    specs = [host.Tensor(shape) for _ in op.inputs]
    outs = outputs_like(op, specs)
    codes = [torch.arange(16, dtype=torch.uint8).reshape(shape) for _ in op.inputs]
    if case == "inf-scale-ratio":
        specs[0].scale, outs[0].scale = 1e30, 1e-30
    elif case == "rank-6":
        for t in specs:
            t.shape = (1, 1, 1, 1, 4, 4)
        outs = outputs_like(op, specs)
        codes = [c.reshape(t.shape) for c, t in zip(codes, specs)]
    elif case == "16-bit":
        for t in [*specs, *outs]:
            t.bits = 16
    else:
        for t in [specs[-1]] if where == "in" else [outs[0]]:
            mutate(t)
    with pytest.raises(host.Rejected) as info:
        host.run_n(op.qnn_type, list(zip(specs, codes)), outs, params_of(op))
    assert reason in info.value.reason
    assert host.output_untouched(), "output written before the refusal"


def test_registration_sets_layout_flag_for_every_op():
    """C6: the device refuses a package whose op lacks the layout support callback."""
    assert host.library().lpai_emu_register() == 0


@pytest.mark.parametrize("op", OPS, ids=[op.name for op in OPS])
def test_every_op_reports_the_spec_s_layout_flag(op):
    """The flag is the spec's layout_support (the stand-in declares SHAPE_NE_LAYOUT)."""
    assert host.library().lpai_emu_layout_flag(op.qnn_type.encode()) == SPEC_LAYOUT_FLAG


# ---- broadcasting ----------------------------------------------------------------
BINARY = [op for op in ELEMENTWISE if len(op.inputs) == 2]
NARY = [op for op in ELEMENTWISE if len(op.inputs) >= 3]

# Every code pair on broadcast shapes: a column of the 256 codes against a row of them
# gives all 65,536 pairs, with a stride-0 walk on each side (the row also as a tensor
# of rank 1, which broadcasts by the missing leading dimensions).
BROADCAST_LAYOUTS = {
    "dense": ({}, {}, {}),
    "permuted-padded": (
        {"order": (0, 2, 3, 1), "pad": 1},
        {"order": (3, 1, 0, 2), "pad": 2},
        {"order": (2, 0, 3, 1), "pad": 3},
    ),
    "rank-1-row": ({}, None, {"order": (2, 0, 3, 1), "pad": 1}),
}


@pytest.mark.parametrize("path", ["auto", "direct", "reference"])
@pytest.mark.parametrize("layout", list(BROADCAST_LAYOUTS))
@pytest.mark.parametrize("op", each(BINARY, "elementwise op of two inputs"))
def test_broadcast_all_code_pairs(op, layout, path):
    """Numpy broadcasting in the kernel: (1,1,256,1) against (1,1,1,256) (or (256,))
    covers every code pair; the result must be torch's on the broadcast shape."""
    a_fields, b_fields, out_fields = BROADCAST_LAYOUTS[layout]
    gen = torch.Generator().manual_seed(5)
    codes = torch.arange(256, dtype=torch.uint8)
    a = codes.reshape(1, 1, 256, 1).clone()
    b = codes.reshape(1, 1, 1, 256).clone() if b_fields is not None else codes.clone()
    specs = [
        host.Tensor(tuple(a.shape), host.random_scale(gen), 17, **a_fields),
        host.Tensor(tuple(b.shape), host.random_scale(gen), 200, **(b_fields or {})),
    ]
    xs = [host.dequantize(c, s.scale, s.zero_point) for s, c in zip(specs, (a, b))]
    result = eager(op, xs)[0]
    assert tuple(result.shape) == (1, 1, 256, 256)
    out = host.Tensor((1, 1, 256, 256), *calibrated(result, gen), **out_fields)
    check_against_torch(op, specs, [a, b], [out], path)
    assert host.padding_untouched(), "the kernel wrote into the output's padding"
    if not host.last_repacked():  # layout_support: default repacks
        assert host.last_path() == ("reference" if path == "reference" else "direct-walk")


# Shapes of three and four inputs that broadcast together: per-channel, lower rank,
# a column, and one input of the full shape.
NARY_SHAPES = [(2, 3, 8, 16), (3, 1, 1), (16,), (1, 3, 8, 1)]


@pytest.mark.parametrize("path", ["auto", "direct", "reference"])
@pytest.mark.parametrize("permuted", [False, True], ids=["dense", "permuted-padded"])
@pytest.mark.parametrize("op", each(NARY, "elementwise op of three or more inputs"))
def test_broadcast_dense_sample(op, permuted, path):
    """Three or four inputs of different shapes (a dense random sample of codes)."""
    gen = torch.Generator().manual_seed(11)
    shapes = NARY_SHAPES[: len(op.inputs)]
    codes = [torch.randint(0, 256, s, dtype=torch.uint8, generator=gen) for s in shapes]
    orders = {4: (0, 2, 3, 1), 3: (2, 0, 1), 1: None}
    specs = [
        host.Tensor(
            s,
            host.random_scale(gen),
            int(torch.randint(0, 256, (1,), generator=gen)),
            order=orders[len(s)] if permuted else None,
            pad=(1 + k) if permuted else 0,
        )
        for k, s in enumerate(shapes)
    ]
    xs = [host.dequantize(c, s.scale, s.zero_point) for s, c in zip(specs, codes)]
    result = eager(op, xs)[0]
    out = host.Tensor(
        tuple(result.shape),
        *calibrated(result, gen),
        order=(3, 1, 0, 2) if permuted else None,
        pad=2 if permuted else 0,
    )
    check_against_torch(op, specs, codes, [out], path)
    assert host.padding_untouched()


@pytest.mark.parametrize("op", each(BINARY + NARY, "elementwise op of two or more inputs"))
def test_shapes_that_do_not_broadcast_are_refused(op):
    """(1,1,4,4) against (1,1,4,3): torch refuses, so does the kernel, output untouched;
    and an output that is not the broadcast shape."""
    specs = [host.Tensor((1, 1, 4, 4)) for _ in op.inputs]
    specs[-1].shape = (1, 1, 4, 3)
    codes = [torch.zeros(s.shape, dtype=torch.uint8) for s in specs]
    with pytest.raises(host.Rejected) as info:
        host.run_n(op.qnn_type, list(zip(specs, codes)), [host.Tensor((1, 1, 4, 4))], params_of(op))
    assert "shapes differ" in info.value.reason
    assert host.output_untouched()
    specs[-1].shape = (1, 1, 1, 4)
    codes = [torch.zeros(s.shape, dtype=torch.uint8) for s in specs]
    with pytest.raises(host.Rejected):
        host.run_n(op.qnn_type, list(zip(specs, codes)), [host.Tensor((1, 1, 1, 4))], params_of(op))
    assert host.output_untouched()


# ---- custom ops: scratch ----------------------------------------------------------
CUSTOM = [op for op in OPS if op.kind == "custom"]
MULTI_INPUT_CUSTOM = [op for op in CUSTOM if len(op.inputs) > 1]
# First input (N, C, H, T): rows of 16, 24 of them.
FIRST = (2, 3, 4, 16)


def broadcast_cases(op):
    """Shapes of the later inputs that broadcast to FIRST: one value per row (a state,
    (N, C, H, 1)) always; per channel (1, C, 1, 1) and a lower rank (T,), which repeat
    over rows, only when no output follows a later input (such an output would be
    written once per row of the first input)."""
    cases = {"per-row": FIRST[:-1] + (1,)}
    if all(rule[0] == "broadcast" or rule[1] == 0 for rule in op.output_rules):
        cases["per-channel"] = (1, FIRST[1], 1, 1)
        cases["lower-rank"] = (FIRST[-1],)
    return cases


@pytest.mark.parametrize("case", ["per-row", "per-channel", "lower-rank"])
@pytest.mark.parametrize("op", each(MULTI_INPUT_CUSTOM, "custom op of two or more inputs"))
def test_custom_later_inputs_broadcast(op, case):
    """A custom op's later inputs broadcast to the first (docs: the spec reference,
    "Custom ops: later inputs broadcast to the first"): the eager op and the kernel get
    each input in its own shape (rowwise: its own row, 1 value for a last dim of 1) and
    must agree on every output, in the first input's layout and in a permuted one. A
    rowwise output that follows a later input repeated over rows is refused."""
    shape = broadcast_cases(op).get(case)
    if shape is None and op.name in ROWWISE:
        # An output that follows a later input repeated over rows: refused, untouched.
        # Lower rank as (1, T): an output reducing a (T,) input over its one dim would
        # have no dim, which the op refuses before the kernel sees it.
        shapes = [FIRST] + [(1, FIRST[1], 1, 1) if case == "per-channel" else (1, FIRST[-1])] * (len(op.inputs) - 1)
        specs = [host.Tensor(s) for s in shapes]
        codes = [torch.zeros(s, dtype=torch.uint8) for s in shapes]
        with pytest.raises(host.Rejected) as info:
            host.run_n(op.qnn_type, list(zip(specs, codes)), outputs_like(op, specs), params_of(op))
        assert "must follow an input of the first input's rows" in info.value.reason
        assert host.output_untouched()
        return
    if shape is None:
        pytest.skip(f"an output of {op.name} follows a later input: its rows must be the first input's")
    gen = torch.Generator().manual_seed(55)
    shapes = [FIRST] + [shape] * (len(op.inputs) - 1)
    codes = [torch.randint(0, 256, s, dtype=torch.uint8, generator=gen) for s in shapes]
    for trial in range(2):
        specs = [
            host.Tensor(
                s,
                host.random_scale(gen),
                int(torch.randint(0, 256, (1,), generator=gen)),
                order=(0, 2, 3, 1) if trial and len(s) == 4 else None,
            )
            for s in shapes
        ]
        xs = [host.dequantize(c, sp.scale, sp.zero_point) for sp, c in zip(specs, codes)]
        outs = [host.Tensor(tuple(r.shape), *calibrated(r, gen)) for r in eager(op, xs)]
        assert [o.shape for o in outs] == output_shapes(op, shapes)
        check_against_torch(op, specs, codes, outs)
    assert host.last_path() == ("custom-rowwise" if op.name in ROWWISE else "custom")


@pytest.mark.parametrize("op", each(MULTI_INPUT_CUSTOM, "custom op of two or more inputs"))
def test_custom_later_input_that_does_not_broadcast_is_refused(op):
    """A later input that does not broadcast to the first ((N, C, H, 3) against rows of
    16, or a rank above the first's): the fake kernel refuses it with a ValueError and
    the kernel refuses the node, every output untouched."""
    for bad in (FIRST[:-1] + (3,), (1,) + FIRST):
        shapes = [FIRST] + [bad] * (len(op.inputs) - 1)
        with pytest.raises(ValueError, match="does not broadcast to the first input"):
            output_shapes(op, shapes)
        specs = [host.Tensor(s) for s in shapes]
        codes = [torch.zeros(s, dtype=torch.uint8) for s in shapes]
        # The outputs as the rules would give them from each input's own shape.
        outs = [
            host.Tensor(FIRST if rule[0] == "broadcast" else shapes[rule[1]] if rule[0] == "like" else (1,))
            for rule in op.output_rules
        ]
        with pytest.raises(host.Rejected) as info:
            host.run_n(op.qnn_type, list(zip(specs, codes)), outs, params_of(op))
        assert "shapes differ" in info.value.reason
        assert host.output_untouched()


@pytest.mark.parametrize("op", each(CUSTOM, "custom op"))
def test_custom_kernel_within_a_step_of_eager_float64(op):
    """An independent look at the C math: the kernel's codes against your eager math run
    on float64 tensors (not the float32 eager op the C was written to match), within the
    quantization step: |code - (value / scale + zero point)| <= 1 LSB, the value clipped
    to the codes' range. Your eager math must accept float64 tensors (docs: the spec
    reference, "Custom ops: later inputs broadcast to the first"); float32-only math
    skips this test, saying so."""
    gen = torch.Generator().manual_seed(64)
    codes = grid(op)
    specs = [
        host.Tensor(tuple(c.shape), host.random_scale(gen), int(torch.randint(0, 256, (1,), generator=gen)))
        for c in codes
    ]
    xs = [host.dequantize(c, sp.scale, sp.zero_point) for sp, c in zip(specs, codes)]
    outs = [host.Tensor(tuple(r.shape), *calibrated(r, gen)) for r in eager(op, xs)]
    try:
        with torch.no_grad():
            exact = op.default(*[x.double() for x in xs], *defaults(op))
    except Exception as exc:  # noqa: BLE001 - the user's math, whatever it raises
        pytest.skip(f"{EAGER_USER}/{op.name}.py does not run on float64 tensors ({type(exc).__name__}: {exc})")
    exact = list(exact) if isinstance(exact, (tuple, list)) else [exact]
    if any(e.dtype != torch.float64 for e in exact):
        pytest.skip(f"{EAGER_USER}/{op.name}.py returns float32 on float64 tensors: it computes in float32")
    got = run_kernel(op, specs, codes, outs)
    for j, (g, e, spec) in enumerate(zip(got, exact, outs)):
        position = (e / spec.scale + spec.zero_point).nan_to_num(nan=0.0).clamp(-0.5, 255.5)
        off = (g.double() - position).abs()
        worst = int(off.argmax())
        assert float(off.max()) <= 1.0, (
            f"{op.qualified_name} output {j}: kernel code {int(g.reshape(-1)[worst])} is "
            f"{float(off.max()):.3f} LSB from the float64 eager value {float(e.reshape(-1)[worst])!r} "
            f"(scale {spec.scale:.6g}, zero point {spec.zero_point}) at element {worst}"
        )


@pytest.mark.parametrize("temp", ["null", "no-call"])
@pytest.mark.parametrize("op", each(CUSTOM, "custom op"))
def test_custom_op_without_scratch(op, temp):
    """getTempBuffer's behaviour on the device is not public. Without its buffer a
    whole-tensor custom op refuses cleanly (LPAI_CUSTOM_OP_MEMORY, nothing written);
    a rowwise op never asks and computes the same values."""
    shape = (1, 2, 8, 16)
    codes = [torch.arange(256, dtype=torch.uint8).reshape(shape) for _ in op.inputs]
    specs = [host.Tensor(shape) for _ in op.inputs]
    outs = outputs_like(op, specs)
    if op.name in ROWWISE:
        check_against_torch(op, specs, codes, outs, temp=temp)
        assert host.last_path() == "custom-rowwise"
        assert not host.scratch()[2], "a rowwise op called getTempBuffer"
        return
    with pytest.raises(host.Rejected) as info:
        host.run_n(op.qnn_type, list(zip(specs, codes)), outs, params_of(op), temp=temp)
    assert info.value.status == 3 and "scratch" in info.value.reason  # LPAI_CUSTOM_OP_MEMORY
    assert host.output_untouched()


@pytest.mark.parametrize("op", each(CUSTOM, "custom op"))
def test_custom_op_scratch_is_what_it_asks_for(op):
    """The scratch a whole-tensor custom op uses is exactly what its getTempBufferSize
    asks for: every input and output as float (the emulator serves that many bytes,
    so ASan sees an overrun); a rowwise op uses (inputs + outputs) x LPAI_ROW_MAX
    floats of its stack and no temp buffer."""
    shape = (1, 2, 8, 16)
    codes = [torch.arange(256, dtype=torch.uint8).reshape(shape) for _ in op.inputs]
    specs = [host.Tensor(shape) for _ in op.inputs]
    outs = outputs_like(op, specs)
    run_kernel(op, specs, codes, outs)
    used, served, called = host.scratch()
    n_tensors = len(op.inputs) + len(outs)
    if op.name in ROWWISE:
        assert (used, called) == (n_tensors * host.library().lpai_emu_row_max() * 4, False)
    else:
        floats = sum(math.prod(s.shape) for s in [*specs, *outs])
        assert (used, served, called) == (floats * 4, floats * 4, True)
