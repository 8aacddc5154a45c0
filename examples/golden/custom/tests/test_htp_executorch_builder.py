# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""ExecuTorch's own Qualcomm lowering code on every op for HTP, without the QNN SDK.

The package model quantized for HTP (quant.make_htp_quantizer: 8a8w and 16a8w) and not
quantized at all (fp32: the float graph, which HTP runs in fp16), lowered to edge with
the HTP pass manager (builder.lower_to_edge(backend="htp")), then ExecuTorch 1.5.1's
real CustomOp builder on every node of this package's ops with the HTP package's
registration: the op config it hands the QNN backend must be what
op_package/htp/config/NormOpPackage.xml declares (data types, shapes, params in
order and type).  And the registration itself: the targets and platforms ExecuTorch's
own HTP example (examples/qualcomm/custom_op/custom_ops_1.py) registers.
"""

import operator
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import torch

from norm_ops import builder as builder_module
from norm_ops import op_package_xml, registration
from norm_ops._package import PACKAGE_NAME
from norm_ops.builder import Builder, lower_to_edge
from norm_ops.device_data import PackageModel
from norm_ops.ops import OPS
from norm_ops.quant import make_htp_quantizer, quantize
from norm_ops.toolchain import Project

from conftest import make_inputs
from spec_values import SPEC_DEFAULTS, SPEC_OUTPUTS, expected_output_shapes, other_params

ROOT = Path(__file__).resolve().parents[1]
HTP_XML = ROOT / "op_package" / "htp" / "config" / "NormOpPackage.xml"
HTP_HOST_LIB = ROOT / "op_package" / "htp" / "build" / "x86_64-linux-clang" / "libQnnNormOpPackage.so"
DEVICE_WORKSPACE = "/data/local/tmp/norm_ops"

# What each way of lowering sends the op package for every input and output, and the
# range of its zero point (None: not quantized).
SENT = {
    "8a8w": ("QNN_DATATYPE_UFIXED_POINT_8", (0, 255)),
    "16a8w": ("QNN_DATATYPE_UFIXED_POINT_16", (0, 65535)),
    "fp32": ("QNN_DATATYPE_FLOAT_32", None),
}
# The types ExecuTorch's builder gives a scalar param (builders/node_visitor.py,
# QNN_TENSOR_TYPE_MAP): a float is FLOAT_32, an int and a bool UINT_32.
PARAM_TYPES = {"float": "QNN_DATATYPE_FLOAT_32", "int": "QNN_DATATYPE_UINT_32", "bool": "QNN_DATATYPE_UINT_32"}


def calls(how: str):
    """How the model calls each op: `torch.ops` without params (the `.defaults`
    overload), or the public function with every param given, none at its default."""
    if how == "torch.ops":
        return lambda op, t: op.packet(*t)
    return lambda op, t: op(*t, *other_params(op))


def expected_params(op, how):
    return list(SPEC_DEFAULTS[op.name].values()) if how == "torch.ops" else other_params(op)


def inputs(seed=0):
    return tuple(t for i, op in enumerate(OPS) for t in make_inputs(op, seed=seed + i, shape=(1, 2, 4, 4)))


def declared():
    """{QNN type: (input data types, output data types, [(param, data type)])} of the HTP
    XML, read here with ElementTree (not op_package_xml)."""
    root = ET.parse(HTP_XML).getroot()
    assert root.get("PackageName") == PACKAGE_NAME
    result = {}
    for opdef in root.iter("OpDef"):
        assert [b.text.strip() for b in opdef.findall("SupportedBackend")] == ["HTP"]
        types = [
            [tuple(d.text.strip() for d in t.findall("Datatype")) for t in opdef.findall(tag)]
            for tag in ("Input", "Output")
        ]
        params = [(p.findtext("Name").strip(), p.findtext("Datatype").strip()) for p in opdef.findall("Parameter")]
        result[opdef.findtext("Name").strip()] = (types[0], types[1], params)
    return result


@pytest.fixture(
    scope="module",
    params=[("8a8w", "function"), ("16a8w", "function"), ("16a8w", "torch.ops"), ("fp32", "function")],
    ids=["8a8w", "16a8w", "16a8w-torch.ops-no-params", "fp32"],
)
def lowered(request):
    quant, how = request.param
    model = PackageModel(calls(how))
    if quant == "fp32":
        graph = model
    else:
        graph = quantize(model, inputs(), [inputs(seed=s) for s in range(3)], backend="htp", quant_dtype=quant)
    return quant, how, lower_to_edge(graph, inputs(), backend="htp")


def test_the_builder_sends_every_op_as_the_htp_xml_declares_it(lowered):
    quant, how, edge = lowered
    dtype, zero_points = SENT[quant]
    found = builder_module.op_nodes(edge)
    assert sorted(op.name for op, _ in found) == sorted(op.name for op in OPS)
    xml = declared()
    opdefs = registration.opdefs(Project(ROOT), "htp")
    build = Builder(edge, str(HTP_HOST_LIB), backend="htp")
    for op, node in found:
        recorded, why = build.build(node)
        assert recorded is not None, f"{op.qualified_name}: ExecuTorch's builder refused the node: {why}"
        config = recorded.config
        assert (config["packageName"], config["typeName"]) == (PACKAGE_NAME, op.qnn_type)
        ins = [t.v2.dataType.name for t in config["inputTensors"]]
        outs = [t.v2.dataType.name for t in config["outputTensors"]]
        assert ins == [dtype] * len(op.inputs), op.qualified_name
        assert outs == [dtype] * len(SPEC_OUTPUTS[op.name]), op.qualified_name
        for t in recorded.inputs + recorded.outputs:
            if zero_points is None:
                assert (t.encoding, t.scale) == ("UNDEFINED", None), op.qualified_name
            else:
                assert t.scale > 0 and zero_points[0] <= t.zero_point <= zero_points[1], op.qualified_name
        # The HTP XML declares every data type the builder sends.
        xml_ins, xml_outs, xml_params = xml[op.qnn_type]
        assert len(xml_ins) == len(ins) and len(xml_outs) == len(outs), op.qualified_name
        for sent, types in zip(ins + outs, xml_ins + xml_outs):
            assert sent in types, f"{op.qualified_name}: sends {sent}, {HTP_XML.name} declares {types}"
        # Shapes: the graph's inputs, each output of its rule's shape.
        args = node.args[: len(op.inputs)]
        assert [list(t.v2.dimensions) for t in config["inputTensors"]] == [list(a.meta["val"].shape) for a in args]
        want = expected_output_shapes(op, [a.meta["val"] for a in args])
        assert [tuple(t.v2.dimensions) for t in config["outputTensors"]] == want, op.qualified_name
        # Params: the XML's, in its order, of its types, which are the builder's.
        sent_params = [(name, dtype) for name, dtype, _ in recorded.params]
        assert sent_params == xml_params, op.qualified_name
        assert sent_params == [(name, PARAM_TYPES[kind]) for name, kind, _ in op.params], op.qualified_name
        values = [value for _, _, value in recorded.params]
        assert values == pytest.approx(expected_params(op, how)), op.qualified_name
        # check-model's verdict for HTP accepts it.
        assert builder_module.refusal(op, recorded, opdefs[op.qnn_type], "htp") is None, op.qualified_name


def test_an_htp_op_config_of_a_type_the_xml_lacks_or_of_rank_five_is_refused(lowered):
    quant, _how, edge = lowered
    op, node = builder_module.op_nodes(edge)[0]
    recorded, _ = Builder(edge, str(HTP_HOST_LIB), backend="htp").build(node)
    opdef = registration.opdefs(Project(ROOT), "htp")[op.qnn_type]
    good = recorded.inputs[0]
    for dtype in ("SFIXED_POINT_8", "UFIXED_POINT_32", "INT_32"):
        recorded.inputs[0] = builder_module.TensorInfo(good.shape, dtype, good.scale, good.zero_point, good.encoding)
        assert f"is {dtype}: the HTP OpDefs declare" in builder_module.refusal(op, recorded, opdef, "htp")
    recorded.inputs[0] = builder_module.TensorInfo((1, 1, 2, 4, 4), good.dtype, good.scale, good.zero_point)
    assert "HTP tensors have at most 4 dims" in builder_module.refusal(op, recorded, opdef, "htp")
    # And LPAI's rules refuse what HTP takes beyond them.
    recorded.inputs[0] = good
    if quant != "8a8w":
        assert builder_module.refusal(op, recorded, opdef, "lpai") is not None


LEARNED_OP = next((op for op in OPS if len(op.inputs) > 1), None)


class Learned(torch.nn.Module):
    """LEARNED_OP, its first input computed and every later one an nn.Parameter."""

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
        result = LEARNED_OP(lo + (hi - lo) * torch.sigmoid(x).expand(self.shapes[0]), *self.learned)
        return result if isinstance(result, tuple) else (result,)


def _learned_node(quant):
    x = torch.randn(1, 2, 4, 4, generator=torch.Generator().manual_seed(1))
    model = Learned().eval()
    edge = lower_to_edge(quantize(model, (x,), [(x,)], backend="htp", quant_dtype=quant), (x,), backend="htp")
    [(op, node)] = builder_module.op_nodes(edge)
    recorded, why = Builder(edge, str(HTP_HOST_LIB), backend="htp").build(node)
    assert recorded is not None, why
    return model, op, recorded


@pytest.mark.parametrize("quant", ["8a8w", "16a8w"])
def test_an_op_fed_by_a_parameter_gets_it_quantized_for_htp(quant):
    """A parameter is sent as the activations are (8- or 16-bit fixed point), a constant whose
    codes are its values quantized with the params it is sent with: no float beside them."""
    if LEARNED_OP is None:
        pytest.skip("no op of this package takes two inputs")
    dtype, (qmin, qmax) = SENT[quant]
    model, op, recorded = _learned_node(quant)
    opdef = registration.opdefs(Project(ROOT), "htp")[op.qnn_type]
    assert builder_module.refusal(op, recorded, opdef, "htp") is None
    for k, param in enumerate(model.learned, start=1):
        t = recorded.inputs[k]
        assert (f"QNN_DATATYPE_{t.dtype}", t.static) == (dtype, True), t
        want = torch.clamp(torch.round(param.detach().double() / t.scale) + t.zero_point, qmin, qmax)
        got = torch.as_tensor(recorded.constants[k].astype("int64")).reshape(want.shape)
        assert torch.equal(got, want.to(torch.int64)), op.inputs[k]


def test_a_float_input_beside_quantized_ones_is_refused_for_htp(monkeypatch):
    """What ExecuTorch 1.5.1 sends without builder.QuantizedConstantInputs: the parameter as
    the FLOAT_32 of its dequantize node, beside 8-bit tensors. The OpDef takes either type
    for each tensor, but the HTP kernels are generated and tested for one kind per node:
    check-model refuses it in one line, naming the fix."""
    if LEARNED_OP is None:
        pytest.skip("no op of this package takes two inputs")
    from executorch.backends.qualcomm.serialization.qc_schema import QnnExecuTorchBackendType
    from executorch.backends.qualcomm.utils.utils import get_qnn_pass_manager_cls

    manager = get_qnn_pass_manager_cls(QnnExecuTorchBackendType.kHtpBackend)
    monkeypatch.setattr(
        builder_module,
        "edge_passes",
        lambda backend="htp": (
            manager.get_capture_program_passes(),
            manager.get_passes_dependency_for_capture_program(),
        ),
    )
    _model, op, recorded = _learned_node("8a8w")
    assert [t.dtype for t in recorded.inputs] == ["UFIXED_POINT_8"] + ["FLOAT_32"] * (len(op.inputs) - 1)
    opdef = registration.opdefs(Project(ROOT), "htp")[op.qnn_type]
    reason = builder_module.refusal(op, recorded, opdef, "htp")
    assert reason == (
        f"input {op.inputs[1]} is FLOAT_32 beside UFIXED_POINT_8 tensors: this package's HTP kernels take one "
        "kind of element type per node (all FLOAT_32, or all fixed point); quantize what feeds it with "
        "norm_ops.quant.make_htp_quantizer, or check the float model with --quant fp16"
    )


def _infos(for_device):
    options = registration.op_package_options(Project(ROOT), for_device, backend="htp")
    return options.op_package_infos


def test_the_htp_registration_is_executorchs_example_s():
    host_lib = str(HTP_HOST_LIB.resolve())
    want_host = {("CPU", "X86_64", host_lib)}
    want_device = want_host | {
        ("HTP", "AARCH64_ANDROID", f"{DEVICE_WORKSPACE}/libQnnNormOpPackage_HTP.so"),
        ("CPU", "AARCH64_ANDROID", f"{DEVICE_WORKSPACE}/libQnnNormOpPackage.so"),
    }
    for for_device, want in ((False, want_host), (True, want_device)):
        infos = _infos(for_device)
        assert len(infos) == len(want) * len(OPS)
        for op in OPS:
            mine = [i for i in infos if i.custom_op_name == f"norm_ops.{op.name}.default"]
            assert {(i.target.name, i.platform.name, i.op_package_path) for i in mine} == want, op.name
            for info in mine:
                assert info.op_package_name == "NormOpPackage"
                assert info.interface_provider == "NormOpPackageInterfaceProvider"
                assert info.qnn_op_type_name == op.qnn_type


def test_the_htp_xml_is_checked_against_the_ops(tmp_path):
    # registration reads op_package/htp/config/, not the LPAI package's XML.
    assert Project(ROOT).opdef_xml("htp") == HTP_XML
    collection = op_package_xml.parse(HTP_XML)
    assert collection.package_name == PACKAGE_NAME
    assert sorted(collection.op_names) == sorted(op.qnn_type for op in OPS)


# What the HTP quantizer puts around every tensor of every op (quantize_per_tensor's
# quant_min, quant_max and dtype): ExecuTorch's 16-bit activation is an int32 tensor on
# the uint16 range.
QDQ = {"8a8w": (0, 255, torch.uint8), "16a8w": (0, 65535, torch.int32)}


@pytest.mark.parametrize("quant", sorted(QDQ))
def test_the_htp_quantizer_wraps_every_op_in_its_width_and_says_nothing_about_them(quant, capfd, caplog):
    capfd.readouterr()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        graph = quantize(PackageModel(), inputs(), [inputs(seed=s) for s in range(2)], backend="htp", quant_dtype=quant)
    out, err = capfd.readouterr()
    said = [*out.splitlines(), *err.splitlines(), *(r.getMessage() for r in caplog.records)]
    said += [str(w.message) for w in caught]
    for notice in ("No quant config is implemented for op, norm_ops.", "QNN_SDK_ROOT is set but empty"):
        assert not [line for line in said if notice in line], said
    q = torch.ops.quantized_decomposed.quantize_per_tensor.default
    dq = torch.ops.quantized_decomposed.dequantize_per_tensor.default
    targets = {op.default: op for op in OPS}
    seen = set()
    for node in graph.graph.nodes:
        if node.op != "call_function" or node.target not in targets:
            continue
        seen.add(targets[node.target].name)
        args = node.args[: len(targets[node.target].inputs)]
        users = list(node.users)
        if any(u.target is operator.getitem for u in users):
            users = [x for u in users for x in u.users]
        for around in [a for a in args] + users:
            assert around.target in (q, dq), (node.name, around.target)
            assert tuple(around.args[3:6]) == QDQ[quant], (node.name, around.args)
    assert seen == {op.name for op in OPS}


def test_the_htp_quantizer_takes_its_two_widths_only():
    with pytest.raises(ValueError, match="fp16 is not quantized"):
        make_htp_quantizer(quant_dtype="fp16")
    with pytest.raises(ValueError, match="HTP quantizes 8a8w or 16a8w"):
        make_htp_quantizer(quant_dtype="16a16w")


def test_backend_and_quant_options_are_checked_in_one_line():
    import argparse

    from norm_ops import cli
    from norm_ops.toolchain import ToolchainError

    project = Project(ROOT)
    parsed = cli.build_parser().parse_args(["check-model", "--model", "m:M", "--backend", "htp", "--quant", "16a8w"])
    assert cli._backend(parsed, project) == ("htp", "16a8w")
    parsed = cli.build_parser().parse_args(["check-model", "--model", "m:M", "--backend", "htp"])
    assert cli._backend(parsed, project) == ("htp", "8a8w")
    parsed = cli.build_parser().parse_args(["check-model", "--model", "m:M"])
    assert cli._backend(parsed, project) == ("lpai", "8a8w")
    for quant in ("16a8w", "fp16"):
        with pytest.raises(cli.CommandError, match="LPAI custom ops take 8-bit activations only"):
            cli._backend(argparse.Namespace(backend="lpai", quant=quant), project)
    with pytest.raises(ToolchainError, match="this project has no GPU op package"):
        registration.require_backend(project, "gpu")
    # An HTP export goes to the device only.
    assert cli.main(["export", "--backend", "htp", "--target", "simulator", "--project", str(ROOT)]) == 1


@pytest.mark.parametrize("quant", ["16a8w", "fp16"])
def test_an_htp_export_registers_op_package_htp_and_quantizes_for_htp(quant, tmp_path, monkeypatch, capsys):
    """`export --backend htp` with fake SDK trees and build_executorch_binary recorded (it
    writes a program whose every op is delegated): the HTP backend, the HTP package's
    registrations, the HTP quantizer (16a8w) or none (fp16)."""
    import shutil
    import sys

    import executorch.backends.qualcomm.export_utils as export_utils
    from executorch.backends.qualcomm.quantizer.quantizer import QnnQuantizer, QuantDtype
    from executorch.backends.qualcomm.serialization.qc_schema import QnnExecuTorchBackendType

    from norm_ops import cli, device_data

    from fakes.tools import make_fakes, make_project
    from lowering import lower

    project = Project(make_project(tmp_path / "my project", OPS))
    (project.htp_dir / "config").mkdir(parents=True)
    shutil.copy(HTP_XML, project.htp_dir / "config")
    project.htp_host_lib.parent.mkdir(parents=True)
    project.htp_host_lib.write_bytes(b"\x7fELF")  # what `make htp_x86` leaves; never loaded here
    fakes = make_fakes(tmp_path / "tool chain")
    for name, value in fakes.environ(FAKE_BUILD_ID="1").items():
        monkeypatch.setenv(name, value)
    shape = (1, 2, 4, 4)
    program = lower(PackageModel(), device_data.random_inputs(0, shape), claim=[op.qualified_name for op in OPS])
    calls = []

    def fake_build_executorch_binary(**kwargs):
        calls.append(kwargs)
        with open(f"{kwargs['file_name']}.pte", "wb") as f:
            f.write(program)
        if kwargs["qnn_config"].compile_only:
            sys.exit(0)

    monkeypatch.setattr(export_utils, "build_executorch_binary", fake_build_executorch_binary)
    argv = ["export", "--backend", "htp", "--quant", quant, "--project", str(project.root)]
    code = cli.main([*argv, "--calibration-value", "0.75", "--shape", "1,2,4,4"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "delegation check passed" in out
    [call] = calls
    config = call["qnn_config"]
    assert config.backend == QnnExecuTorchBackendType.kHtpBackend and config.compile_only
    if quant == "fp16":
        assert call["quant_dtype"] is None and call["custom_quantizer"] is None
    else:
        assert call["quant_dtype"] == QuantDtype.use_16a8w and isinstance(call["custom_quantizer"], QnnQuantizer)
    rows = {(i.target.name, i.platform.name, i.op_package_path) for i in call["op_package_options"].op_package_infos}
    assert rows == {
        ("CPU", "X86_64", str(project.htp_host_lib.resolve())),
        ("HTP", "AARCH64_ANDROID", f"{DEVICE_WORKSPACE}/libQnnNormOpPackage_HTP.so"),
        ("CPU", "AARCH64_ANDROID", f"{DEVICE_WORKSPACE}/libQnnNormOpPackage.so"),
    }
    # Without the x86_64 HTP library: one line naming the make target.
    project.htp_host_lib.unlink()
    assert cli.main([*argv, "--calibration-value", "0.75", "--shape", "1,2,4,4"]) == 1
    assert "htp_x86" in capsys.readouterr().err
