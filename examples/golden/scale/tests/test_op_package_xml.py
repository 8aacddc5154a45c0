# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The OpDef XML of the op package against the torch schemas of the ops: the same ops
in the same order, the same tensor inputs, the same parameters with the types
ExecuTorch sends and the spec's defaults, one 8-bit Output per declared output (named
as in the spec), both 8-bit spellings, backend LPAI."""

import xml.etree.ElementTree as ET

import pytest

from my_ops._package import PACKAGE_NAME
from my_ops.ops import OPS

import op_package_host as host
from spec_values import SPEC_OUTPUTS


# What ExecuTorch's op builder sends for a param, by the Python type of its value
# (executorch.backends.qualcomm.builders.node_visitor.QNN_TENSOR_TYPE_MAP): read from
# ExecuTorch itself, not restated here.
def sent_qnn_type(value) -> str:
    from executorch.backends.qualcomm.builders.node_visitor import QNN_TENSOR_TYPE_MAP

    return QNN_TENSOR_TYPE_MAP[type(value)].name


EIGHT_BIT = ["QNN_DATATYPE_UFIXED_POINT_8", "QNN_DATATYPE_UINT_8"]


def collection():
    configs = sorted((host.OP_DIR / "config").glob("*.xml"))
    assert len(configs) == 1, configs
    return ET.parse(configs[0]).getroot()


def opdefs():
    return {d.findtext("Name"): d for d in collection().iter("OpDef")}


def test_package_and_op_list():
    root = collection()
    assert root.get("PackageName") == PACKAGE_NAME == host.PACKAGE_NAME
    assert [d.findtext("Name") for d in root.iter("OpDef")] == [op.qnn_type for op in OPS]


@pytest.mark.parametrize("op", OPS, ids=[op.name for op in OPS])
def test_opdef_matches_torch_schema(op):
    d = opdefs()[op.qnn_type]
    schema = op.default._schema
    tensors = [a for a in schema.arguments if str(a.type) == "Tensor"]
    scalars = [a for a in schema.arguments if str(a.type) != "Tensor"]
    inputs = d.findall("Input")
    assert [i.findtext("Name") for i in inputs] == [a.name for a in tensors]
    for element in [*inputs, *d.findall("Output")]:
        assert [t.text for t in element.findall("Datatype")] == EIGHT_BIT
        assert element.findtext("Mandatory") == "true"
    outputs = [o.findtext("Name") for o in d.findall("Output")]
    assert outputs == [name for name, _rule in SPEC_OUTPUTS[op.name]]
    assert len(outputs) == len(schema.returns)
    params = d.findall("Parameter")
    assert [p.findtext("Name") for p in params] == [a.name for a in scalars] == [n for n, _, _ in op.params]
    for p, (name, _kind, default) in zip(params, op.params):
        assert p.findtext("Datatype") == sent_qnn_type(default), name
        assert p.findtext("Mandatory") == "true", name  # the schema has no defaults: always sent
        assert float(p.findtext("Default")) == float(default), name
    assert [b.text for b in d.findall("SupportedBackend")] == ["LPAI"]
