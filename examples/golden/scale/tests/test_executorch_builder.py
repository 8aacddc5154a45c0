# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""ExecuTorch's own Qualcomm lowering code on every op, without the QNN SDK.

`python -m my_ops export` runs ExecuTorch's build_executorch_binary: the
project's quantizer, torch.export, the LPAI pass manager's export and to_edge passes,
then the QNN partitioner, which asks ExecuTorch's custom-op builder
(`CustomOp.define_node`) for each node's QNN op config and then the QNN backend whether
it accepts that config.  Everything but the backend's answer runs here, through
my_ops/builder.py (what `check-model` runs on your model), and these tests
run it: a node the builder refuses (it returns None and warns) is an op that silently
stays on the CPU on the device.
"""

import pytest

from my_ops import builder as builder_module
from my_ops import check_model, op_package_xml
from my_ops._package import PACKAGE_NAME
from my_ops.builder import Builder, lower_to_edge
from my_ops.device_data import PackageModel
from my_ops.ops import OPS
from my_ops.quant import quantize

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
        reports = check_model.check_nodes(edge, opdefs(), str(host.OP_DIR / "libs"))
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
