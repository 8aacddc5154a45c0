# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""ExecuTorch's own Qualcomm lowering code on every op, without the QNN SDK.

`python -m act_ops export` runs ExecuTorch's build_executorch_binary: the
project's quantizer, torch.export, the LPAI pass manager's export and to_edge passes,
then the QNN partitioner, which asks ExecuTorch's custom-op builder
(`CustomOp.define_node`) for each node's QNN op config and then the QNN backend whether
it accepts that config.  Everything but the backend's answer runs here, through
act_ops/builder.py (what `check-model` runs on your model), and these tests
run it: a node the builder refuses (it returns None and warns) is an op that silently
stays on the CPU on the device.
"""

import pytest
import torch

from act_ops import builder as builder_module
from act_ops import check_model, op_package_xml
from act_ops._package import PACKAGE_NAME
from act_ops.builder import Builder, lower_to_edge
from act_ops.device_data import PackageModel
from act_ops.ops import OPS
from act_ops.quant import quantize

import op_package_host as host
from conftest import make_inputs
from spec_values import SPEC_DEFAULTS, SPEC_OUTPUTS, expected_output_shapes, other_params

UFIXED_8 = "QNN_DATATYPE_UFIXED_POINT_8"


def calls(how: str):
    """How the model calls each op: `torch.ops` without params (the `.defaults`
    overload), or the public function with every param given, none at its default."""
    if how == "torch.ops":
        return lambda op, t: op.packet(*t)
    return lambda op, t: op(*t, *other_params(op))


def expected_params(op, how):
    return list(SPEC_DEFAULTS[op.name].values()) if how == "torch.ops" else other_params(op)


def inputs(seed=0):
    """Every op's inputs drawn from its domain (OpInfo.domains), as the package model's
    calibration draws them."""
    return tuple(t for i, op in enumerate(OPS) for t in make_inputs(op, seed=seed + i, shape=(1, 2, 4, 4)))


@pytest.fixture
def builder():
    """ExecuTorch's node visitors for the project's op package, with the params the builder
    adds recorded as it adds them (builder.Builder): build(edge, node) -> (Built or None, why)."""
    return lambda edge, node: Builder(edge, str(host.OP_DIR / "libs")).build(node)


@pytest.fixture(scope="module", params=["torch.ops", "function"], ids=["torch.ops-no-params", "function-all-params"])
def lowered(request):
    how = request.param
    calibration = [inputs(seed=s) for s in range(3)]
    quantized = quantize(PackageModel(calls(how)), inputs(), calibration)
    return how, lower_to_edge(quantized, inputs())


def op_nodes(edge):
    found = builder_module.op_nodes(edge)
    assert sorted(op.name for op, _ in found) == sorted(op.name for op in OPS)
    return found


def opdefs():
    return {d.name: d for d in op_package_xml.parse(host.OP_DIR / "config" / f"{PACKAGE_NAME}.xml").ops}


def test_the_builder_accepts_every_op_as_the_xml_declares_it(lowered, builder):
    how, edge = lowered
    for op, node in op_nodes(edge):
        recorded, why = builder(edge, node)
        assert recorded is not None, f"{op.qualified_name}: ExecuTorch's builder refused the node: {why}"
        config = recorded.config
        assert (config["packageName"], config["typeName"]) == (PACKAGE_NAME, op.qnn_type)
        # 8-bit fixed point in and out: the quantizer's annotation reached the builder.
        assert [t.v2.dataType.name for t in config["inputTensors"]] == [UFIXED_8] * len(op.inputs)
        assert [t.v2.dataType.name for t in config["outputTensors"]] == [UFIXED_8] * len(SPEC_OUTPUTS[op.name])
        # Every tensor of the node with the shape the spec gives it (broadcast inputs
        # keep their own shape; each output has its rule's shape).
        args = node.args[: len(op.inputs)]
        assert [list(t.v2.dimensions) for t in config["inputTensors"]] == [list(a.meta["val"].shape) for a in args]
        want = expected_output_shapes(op, [a.meta["val"] for a in args])
        assert [tuple(t.v2.dimensions) for t in config["outputTensors"]] == want, op.qualified_name
        declared = opdefs()[op.qnn_type]
        # The op package's own checks (check-model's verdict) accept it too.
        assert builder_module.refusal(op, recorded, declared) is None, op.qualified_name
        assert len(declared.inputs) == len(config["inputTensors"])
        assert declared.outputs == tuple(name for name, _rule in SPEC_OUTPUTS[op.name])
        assert [p.name for p in config["params"]] == [name for name, _, _ in op.params]
        sent = [(name, dtype) for name, dtype, _ in recorded.params]
        op_package_xml.check_params(declared, sent)
        values = [value for _, _, value in recorded.params]
        assert values == pytest.approx(expected_params(op, how)), op.qualified_name


def _an_op_with_params(edge):
    for op, node in op_nodes(edge):
        if op.params:
            return op, node
    pytest.skip("no op of this package has a param")


def test_an_xml_that_drops_reorders_or_retypes_a_param_is_caught(lowered, builder):
    _how, edge = lowered
    op, node = _an_op_with_params(edge)
    recorded, _ = builder(edge, node)
    sent = [(name, dtype) for name, dtype, _ in recorded.params]
    good = opdefs()[op.qnn_type]
    op_package_xml.check_params(good, sent)
    wrong_type = "QNN_DATATYPE_INT_32" if good.param_types[0] != "QNN_DATATYPE_INT_32" else "QNN_DATATYPE_FLOAT_32"
    broken = [
        (good.params[:-1], good.param_types[:-1]),
        (good.params[::-1] + ("extra",), good.param_types[::-1] + ("QNN_DATATYPE_FLOAT_32",)),
        (good.params, (wrong_type,) + good.param_types[1:]),
    ]
    for names, types in broken:
        bad = op_package_xml.OpDef(good.name, good.inputs, good.outputs, names, good.backends, types)
        with pytest.raises(op_package_xml.OpDefError, match="ExecuTorch sends"):
            op_package_xml.check_params(bad, sent)


def test_a_node_with_a_dropped_param_is_refused(lowered, builder):
    # What every op with a param looked like when its schema had defaults: torch.export
    # dropped the trailing params equal to them, and the builder refused the node.
    _how, edge = lowered
    op, node = _an_op_with_params(edge)
    full = node.args
    node.args = full[:-1]
    try:
        recorded, why = builder(edge, node)
    finally:
        node.args = full  # the fixture's program is shared
    assert recorded is None
    assert "mismatch the number of args" in why


def test_check_model_shows_the_builders_refusal_on_the_nodes_line(lowered):
    _how, edge = lowered
    op, node = _an_op_with_params(edge)
    full = node.args
    node.args = full[:-1]
    try:
        reports, _configs = check_model.check_nodes(edge, opdefs(), str(host.OP_DIR / "libs"))
    finally:
        node.args = full  # the fixture's program is shared
    [refused] = [r for r in reports if r.node == node.name]
    assert not refused.accepted and "mismatch the number of args" in refused.reason
    line = refused.line()
    assert "; REFUSED: ExecuTorch's CustomOp builder refused it: Number of inputs" in line, line
    # No op config: the shapes of the graph, no quant params.
    for name, arg in zip(op.inputs, full):
        assert f"{name} {list(arg.meta['val'].shape)} (no op config)" in line, line
    assert [r.accepted for r in reports if r is not refused] == [True] * (len(reports) - 1)


# --------------------------------------------------------------------------- what the device is sent


def _codes_range(scale, zero_point, qmin=0, qmax=255):
    return (qmin - zero_point) * scale, (qmax - zero_point) * scale


def test_every_output_of_an_op_is_sent_with_params_that_hold_its_values(lowered, builder):
    """ExecuTorch's CustomOp builder sends every output of a node with one set of quant
    params (the node's).  They must represent each output's values, whatever its sign
    and range (the first output signed, a later one not, ...): no output is clipped on
    the device.  The values are the float model's on every calibration batch (what the
    shared min/max observer saw), the params those the real builder puts in the op config."""
    how, edge = lowered
    with torch.no_grad():
        batches = [PackageModel(calls(how))(*inputs(seed=s)) for s in range(3)]  # the fixture's calibration
    floats = [torch.cat([b[i].flatten() for b in batches]) for i in range(len(batches[0]))]
    several = [op for op in OPS if op.n_outputs > 1]
    if not several:
        pytest.skip("no op of this package has several outputs")
    start = {op.name: sum(o.n_outputs for o in OPS[: OPS.index(op)]) for op in OPS}
    for op, node in op_nodes(edge):
        if op.n_outputs < 2:
            continue
        recorded, why = builder(edge, node)
        assert recorded is not None, why
        sent = {(t.scale, t.zero_point) for t in recorded.outputs}
        assert len(sent) == 1, f"{op.qualified_name}: the builder sends its outputs with {sent}"
        for k, (name, t) in enumerate(zip(op.outputs, recorded.outputs)):
            values = floats[start[op.name] + k]
            lo, hi = _codes_range(t.scale, t.zero_point)
            # The observer's range takes in 0; the params' ends are on the code grid.
            assert lo <= min(float(values.min()), 0.0) + t.scale, (op.qualified_name, name, lo, float(values.min()))
            assert hi >= max(float(values.max()), 0.0) - t.scale, (op.qualified_name, name, hi, float(values.max()))


LEARNED_OP = next((op for op in OPS if len(op.inputs) > 1), None)


class Learned(torch.nn.Module):
    """LEARNED_OP with its first input computed and every later one an nn.Parameter
    (a learned gain, bias or state), drawn from its input domain."""

    def __init__(self):
        super().__init__()
        gen = torch.Generator().manual_seed(5)
        self.shapes = LEARNED_OP.input_shapes((1, 2, 4, 4))
        self.learned = torch.nn.ParameterList(
            torch.nn.Parameter(lo + (hi - lo) * torch.rand(s, generator=gen))
            for (lo, hi), s in zip(LEARNED_OP.domains[1:], self.shapes[1:])
        )

    def forward(self, x):
        lo, hi = LEARNED_OP.domains[0]
        first = lo + (hi - lo) * torch.sigmoid(x).expand(self.shapes[0])
        result = LEARNED_OP(first, *self.learned)
        return result if isinstance(result, tuple) else (result,)


def test_an_op_fed_by_a_parameter_gets_it_quantized(builder):
    """A parameter fed to an op: convert_pt2e freezes it as 8-bit codes behind a
    dequantize node, which ExecuTorch's CustomOp builder would send as FLOAT_32 (LPAI
    refuses it); builder.QuantizedConstantInputs hands the op the codes instead. The
    real builder sends it UFIXED_POINT_8, static, and its codes are the parameter's
    values quantized with the params it is sent with."""
    if LEARNED_OP is None:
        pytest.skip("no op of this package takes two inputs")
    model = Learned().eval()
    x = torch.randn(1, 2, 4, 4, generator=torch.Generator().manual_seed(1))
    edge = lower_to_edge(quantize(model, (x,), [(x,)]), (x,))
    [(op, node)] = builder_module.op_nodes(edge)
    recorded, why = builder(edge, node)
    assert recorded is not None, why
    assert builder_module.refusal(op, recorded, opdefs()[op.qnn_type]) is None
    assert [t.static for t in recorded.inputs] == [False] + [True] * len(model.learned)
    for k, param in enumerate(model.learned, start=1):
        t = recorded.inputs[k]
        assert t.dtype == "UFIXED_POINT_8" and t.scale > 0, t
        want = torch.clamp(torch.round(param.detach() / t.scale) + t.zero_point, 0, 255).to(torch.uint8)
        got = torch.as_tensor(recorded.constants[k]).reshape(want.shape)
        assert torch.equal(got, want), (op.inputs[k], got, want)


def test_without_the_pass_the_builder_sends_a_parameter_as_float(builder, monkeypatch):
    """What ExecuTorch 1.5.1 does alone (why QuantizedConstantInputs exists): the
    parameter reaches the op as the dequantize node's FLOAT_32, and LPAI refuses it,
    naming the fix."""
    if LEARNED_OP is None:
        pytest.skip("no op of this package takes two inputs")
    from executorch.backends.qualcomm.serialization.qc_schema import QnnExecuTorchBackendType
    from executorch.backends.qualcomm.utils.utils import get_qnn_pass_manager_cls

    manager = get_qnn_pass_manager_cls(QnnExecuTorchBackendType.kLpaiBackend)
    monkeypatch.setattr(
        builder_module,
        "edge_passes",
        lambda backend="lpai": (
            manager.get_capture_program_passes(),
            manager.get_passes_dependency_for_capture_program(),
        ),
    )
    x = torch.randn(1, 2, 4, 4, generator=torch.Generator().manual_seed(1))
    edge = lower_to_edge(quantize(Learned().eval(), (x,), [(x,)]), (x,))
    [(op, node)] = builder_module.op_nodes(edge)
    recorded, _ = builder(edge, node)
    assert recorded.inputs[1].dtype == "FLOAT_32"
    reason = builder_module.refusal(op, recorded, opdefs()[op.qnn_type])
    assert reason.startswith(f"input {op.inputs[1]} is FLOAT_32 (not quantized): LPAI custom ops take 8-bit"), reason
    assert "quant.make_lpai_quantizer" in reason
