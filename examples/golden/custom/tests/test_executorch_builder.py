# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""ExecuTorch's own Qualcomm lowering code on every op, without the QNN SDK.

`python -m norm_ops export` runs ExecuTorch's build_executorch_binary: the
project's quantizer, torch.export, the LPAI pass manager's export and to_edge passes,
then the QNN partitioner, which asks ExecuTorch's custom-op builder
(`CustomOp.define_node`) for each node's QNN op config and then the QNN backend whether
it accepts that config.  Everything but the backend's answer runs here, and these tests
run it: a node the builder refuses (it returns None and warns) is an op that silently
stays on the CPU on the device.

Left out, because it needs the QNN backend: the partitioner's backend query, and
LpaiPartitionFallbackSupport (a to_edge pass that asks the backend which nodes it
supports).  The params the builder adds are recorded as it adds them: its op config
reports scalar types only once the backend has populated them.
"""

import collections
import warnings

import pytest
import torch

from norm_ops import op_package_xml
from norm_ops._package import PACKAGE_NAME
from norm_ops.device_data import PackageModel
from norm_ops.ops import OPS
from norm_ops.quant import quantize

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


def lower_to_edge(module, example):
    """What to_edge_transform_and_lower_to_qnn does before the partitioner runs."""
    from executorch.backends.qualcomm.serialization.qc_schema import QnnExecuTorchBackendType
    from executorch.backends.qualcomm.utils.utils import get_qnn_pass_manager_cls, qnn_edge_config
    from executorch.exir import to_edge_transform_and_lower

    exported = torch.export.export(module, example, strict=True)
    manager = get_qnn_pass_manager_cls(QnnExecuTorchBackendType.kLpaiBackend)()
    aten = manager.transform_for_export_pipeline(exported)
    passes = [
        p for p in manager.get_to_edge_transform_passes(exported) if type(p).__name__ != "LpaiPartitionFallbackSupport"
    ]
    return to_edge_transform_and_lower(
        aten, transform_passes=passes, compile_config=qnn_edge_config()
    ).exported_program()


def package_infos():
    """The infos `export` registers (registration.op_package_info), for the host library. This
    ExecuTorch may lack the LPAI target (1.5.1 does): then CPU stands in, which
    define_node does not read."""
    from executorch.backends.qualcomm.serialization import qc_schema

    from norm_ops.registration import op_package_info

    target = "LPAI" if hasattr(qc_schema.QnnExecuTorchOpPackageTarget, "LPAI") else "CPU"
    return [op_package_info(op, qc_schema, target, "X86_64", str(host.OP_DIR / "libs")) for op in OPS]


class Recorded:
    """An op config as the builder made it, with the params in the order it added them."""

    def __init__(self, wrapper, params):
        # The config points into the wrapper's tensors (their dims): keep the wrapper alive.
        self.wrapper = wrapper
        self.config = wrapper.GetOpWrapper().GetOpConfig()
        self.params = params  # [(name, QNN data type name, value)]


@pytest.fixture
def builder(monkeypatch):
    """ExecuTorch's node visitors for the project's op package, with AddScalarParam and
    AddTensorParam recorded (the builder's own calls, passed through unchanged)."""
    import executorch.backends.qualcomm.builders.op_custom_op as op_custom_op
    from executorch.backends.qualcomm.builders.node_visitor_manager import get_node_visitors

    real = op_custom_op.PyQnnManager
    added = []

    class RecordingOpWrapper(real.PyQnnOpWrapper):
        def AddScalarParam(self, name, dtype, data):  # noqa: N802 - ExecuTorch's name
            added.append((name, dtype.name, data["data"]))
            return super().AddScalarParam(name, dtype, data)

        def AddTensorParam(self, name, dtype, *args):  # noqa: N802
            added.append((name, f"tensor of {dtype.name}", None))
            return super().AddTensorParam(name, dtype, *args)

    class Module:
        def __getattr__(self, name):
            return RecordingOpWrapper if name == "PyQnnOpWrapper" else getattr(real, name)

    monkeypatch.setattr(op_custom_op, "PyQnnManager", Module())

    def build(edge, node):
        visitors = get_node_visitors(edge, op_package_infos=package_infos())
        added.clear()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            wrapper = visitors[node.target.__name__].define_node(node, collections.defaultdict(dict))
        if wrapper is None:
            return None, " ".join(str(w.message) for w in caught)
        return Recorded(wrapper, list(added)), ""

    return build


@pytest.fixture(scope="module", params=["torch.ops", "function"], ids=["torch.ops-no-params", "function-all-params"])
def lowered(request):
    how = request.param
    calibration = [inputs(seed=s) for s in range(3)]
    quantized = quantize(PackageModel(calls(how)), inputs(), calibration)
    return how, lower_to_edge(quantized, inputs())


def op_nodes(edge):
    by_name = {str(op.default): op for op in OPS}
    found = [
        (by_name[n.target.__name__], n)
        for n in edge.graph.nodes
        if n.op == "call_function" and getattr(n.target, "__name__", "") in by_name
    ]
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
