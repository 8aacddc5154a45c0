# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""ExecuTorch's own Qualcomm lowering on this package's nodes, up to the QNN backend, without the SDK.

`export` runs ExecuTorch's build_executorch_binary: the quantizer, torch.export, the LPAI
pass manager's export and to_edge passes, then the QNN partitioner, which asks
ExecuTorch's custom-op builder (`CustomOp.define_node`) for each node's QNN op config
and then the QNN backend, that is the op package's validateOp, whether it accepts it.
Everything but the backend runs here: `lower_to_edge` is what
to_edge_transform_and_lower_to_qnn does before the partitioner, `build_node` runs the
real builder on one node, and `refusal` checks its op config as the op package's
validateOp does (include/lpai_validate.h: 8-bit activations, at most MAX_RANK dims,
every output of its rule's shape, the params the OpDef declares).  A node refused
here is an op that stays on the CPU on the device.

`python -m <namespace> check-model` and tests/test_executorch_builder.py use it.
Left out, because it needs the QNN backend: LpaiPartitionFallbackSupport (a to_edge
pass that asks the backend which nodes it supports) and the backend's own answer.

`backend` "htp" (a project with op_package/htp/): the HTP pass manager, the HTP
package's host registration (registration.REGISTERED) and its OpDefs' data types
(float32, 8-bit and 16-bit fixed point) and rank (_package.DATATYPES, MAX_RANKS).
"""

from __future__ import annotations

import collections
import contextlib
import functools
import warnings
from dataclasses import dataclass, field

import torch

from . import loading, op_package_xml
from ._package import DATATYPES, MAX_RANKS, NAMESPACE
from .loading import one_line
from .ops import OPS, OpInfo
from .shapes import CODE_INPUTS

# What the LPAI op package accepts for every input and output (lpai_compiler_info in
# include/lpai_validate.h): an 8-bit activation, in either spelling of the two validations.
ACTIVATION_TYPES = DATATYPES["lpai"]


def lower_to_edge(module: torch.nn.Module, example: tuple, backend: str = "lpai") -> torch.export.ExportedProgram:
    """The edge program to_edge_transform_and_lower_to_qnn hands its partitioner
    (loading.lower_to_edge), with this package's to_edge passes (edge_passes: its ops get
    their quantized constants), what `export` hands build_executorch_binary."""
    return loading.lower_to_edge(module, example, backend, *edge_passes(backend))


@functools.cache
def _constant_inputs_pass():
    """The to_edge pass that hands this package's ops their quantized constants (below)."""
    from executorch.backends.qualcomm.builders.node_visitor import dq_ops
    from executorch.backends.qualcomm.builders.utils import is_parameter
    from executorch.backends.qualcomm.utils.constants import QCOM_QUANT_ATTRS
    from executorch.exir.pass_base import ExportPass, PassResult

    by_name = {str(op.default): op for op in OPS}
    names = set(by_name)

    class QuantizedConstantInputs(ExportPass):
        """A parameter, buffer or constant tensor fed to an op of this package reaches it
        quantized, as built-in ops get theirs.

        convert_pt2e folds a constant's quantize node into the constant (a frozen uint8
        tensor and a dequantize node); AnnotateQuantAttrs puts the dequantize's params on
        the constant, and FoldQDQ keeps the dequantize node until after partitioning.
        Built-in builders look through it (NodeVisitor.get_node); ExecuTorch's CustomOp
        builder (1.5.1) does not and would send the op the dequantize's FLOAT_32 output.
        This pass, after AnnotateQuantAttrs, feeds the op the constant itself: the
        builder sends it as a static tensor of its codes, with its scale and zero point."""

        def __init__(self, edge_program=None):
            super().__init__()
            self.edge_program = edge_program

        def call(self, graph_module):
            for node in list(graph_module.graph.nodes):
                if node.op != "call_function" or getattr(node.target, "__name__", "") not in names:
                    continue
                info = by_name[node.target.__name__]
                for k, arg in enumerate(list(node.args)):
                    if (
                        isinstance(arg, torch.fx.Node)
                        and arg.target in dq_ops
                        and is_parameter(arg.args[0], self.edge_program)
                        and arg.args[0].meta.get(QCOM_QUANT_ATTRS)
                    ):
                        node.replace_input_with(arg, arg.args[0])
                        # The fake kernel, when later passes re-trace the node, takes these codes.
                        node.meta[CODE_INPUTS] = (*node.meta.get(CODE_INPUTS, ()), info.inputs[k])
                        if not arg.users:
                            graph_module.graph.erase_node(arg)
            graph_module.recompile()
            return PassResult(graph_module, True)

    return QuantizedConstantInputs


def edge_passes(backend: str = "lpai") -> tuple[dict, dict]:
    """(passes_job, dep_table) for ExecuTorch's to_edge passes (build_executorch_binary's
    passes_job and passes_dependency, what `export` hands it; lower_to_edge): the
    backend's own, plus QuantizedConstantInputs after AnnotateQuantAttrs and before FoldQDQ."""
    from executorch.backends.qualcomm._passes import AnnotateQuantAttrs, FoldQDQ
    from executorch.backends.qualcomm.serialization.qc_schema import QnnExecuTorchBackendType
    from executorch.backends.qualcomm.utils.constants import (
        QCOM_PASS_ACTIVATE_KEY,
        QCOM_PASS_ARGS_KWARGS_DEFAULTS_KEY,
    )
    from executorch.backends.qualcomm.utils.utils import get_qnn_pass_manager_cls

    backend_type = {"lpai": QnnExecuTorchBackendType.kLpaiBackend, "htp": QnnExecuTorchBackendType.kHtpBackend}
    manager = get_qnn_pass_manager_cls(backend_type[backend])
    ours = _constant_inputs_pass()
    passes_job = manager.get_capture_program_passes()
    passes_job[ours] = {QCOM_PASS_ACTIVATE_KEY: True, QCOM_PASS_ARGS_KWARGS_DEFAULTS_KEY: {"edge_program": None}}
    dep_table = manager.get_passes_dependency_for_capture_program()
    dep_table[ours] = [AnnotateQuantAttrs]
    dep_table[FoldQDQ] = [*dep_table.get(FoldQDQ, []), ours]
    return passes_job, dep_table


def package_infos(library: str, backend: str = "lpai") -> list:
    """The infos `export` registers (registration.op_package_info) for the backend's host
    library at `library` (registration.REGISTERED).  An ExecuTorch without the LPAI target
    (1.5.1) gets CPU instead: define_node reads neither the target nor the path."""
    from executorch.backends.qualcomm.serialization import qc_schema

    from .registration import REGISTERED, op_package_info

    [(target, platform)] = REGISTERED[backend]["host"]
    if not hasattr(qc_schema.QnnExecuTorchOpPackageTarget, target):
        target = "CPU"
    return [op_package_info(op, qc_schema, target, platform, library) for op in OPS]


def op_nodes(edge: torch.export.ExportedProgram) -> list[tuple[OpInfo, torch.fx.Node]]:
    """Every node of the edge program that calls an op of this package, in graph order."""
    by_name = {str(op.default): op for op in OPS}
    return [
        (by_name[n.target.__name__], n)
        for n in edge.graph.nodes
        if n.op == "call_function" and getattr(n.target, "__name__", "") in by_name
    ]


@dataclass(frozen=True)
class TensorInfo:
    """One tensor of an op config: what ExecuTorch hands the QNN backend."""

    shape: tuple[int, ...]
    dtype: str | None  # the QNN data type without QNN_DATATYPE_, e.g. UFIXED_POINT_8; None: no op config
    scale: float | None = None  # None: not quantized per tensor
    zero_point: int | None = None
    encoding: str = "SCALE_OFFSET"
    static: bool = False  # a constant of the graph (QNN_TENSOR_TYPE_STATIC): its codes go with the op

    def describe(self) -> str:
        if self.dtype is None:
            return f"{list(self.shape)} (no op config)"
        if self.scale is None:
            quant = "not quantized" if self.encoding == "UNDEFINED" else f"{self.encoding} encoding"
        else:
            quant = f"scale {self.scale:.6g} zero point {self.zero_point}"
        return f"{list(self.shape)} {self.dtype} {quant}" + (" (constant)" if self.static else "")

    def representable(self) -> tuple[float, float] | None:
        """The real values its codes stand for, lowest to highest; None: not fixed point per tensor."""
        codes = CODE_RANGES.get(self.dtype or "")
        if self.scale is None or codes is None:
            return None
        return quant_range(self.scale, self.zero_point, *codes)

    def to_json(self) -> dict:
        return {
            "shape": list(self.shape),
            "dtype": self.dtype,
            "encoding": self.encoding,
            "scale": self.scale,
            "zero_point": self.zero_point,
            "static": self.static,
        }


# The codes of QNN's fixed-point data types (without QNN_DATATYPE_), lowest and highest.
CODE_RANGES = {
    "UFIXED_POINT_8": (0, 255),
    "UFIXED_POINT_16": (0, 65535),
    "SFIXED_POINT_8": (-128, 127),
    "SFIXED_POINT_16": (-32768, 32767),
}


def quant_range(scale: float, zero_point: int, qmin: int, qmax: int) -> tuple[float, float]:
    """The real values codes qmin..qmax stand for with `scale` and `zero_point`."""
    return (qmin - zero_point) * scale, (qmax - zero_point) * scale


def _tensor_info(tensor) -> TensorInfo:
    v = tensor.v2
    params = v.quantizeParams
    encoding = params.quantizationEncoding.name.removeprefix("QNN_QUANTIZATION_ENCODING_")
    dtype = v.dataType.name.removeprefix("QNN_DATATYPE_")
    shape = tuple(int(d) for d in v.dimensions)
    static = v.type.name == "QNN_TENSOR_TYPE_STATIC"
    if encoding == "SCALE_OFFSET":
        # QNN's offset is the negated zero point (Qnn_ScaleOffset_t).
        so = params.scaleOffsetEncoding
        return TensorInfo(shape, dtype, float(so.scale), -int(so.offset), encoding, static)
    return TensorInfo(shape, dtype, None, None, encoding, static)


@dataclass
class Built:
    """An op config as ExecuTorch's builder made it, with the params in the order it added them."""

    wrapper: object  # the config points into the wrapper's tensors: keep it alive
    config: object
    params: list[tuple[str, str, object]]  # (name, QNN data type name, value)
    inputs: list[TensorInfo] = field(default_factory=list)
    outputs: list[TensorInfo] = field(default_factory=list)
    constants: dict[int, object] = field(default_factory=dict)  # input index: the codes sent (numpy)


@contextlib.contextmanager
def _recording_tensors(data: dict):
    """ExecuTorch's node visitors with the data of every static tensor they define
    recorded by name (the op config does not show it)."""
    import executorch.backends.qualcomm.builders.node_visitor as node_visitor

    real = node_visitor.PyQnnManager

    def tensor_wrapper(name, tensor_type, *args):
        if tensor_type == real.Qnn_TensorType_t.QNN_TENSOR_TYPE_STATIC:
            data[name] = args[-2].copy()
        return real.TensorWrapper(name, tensor_type, *args)

    class Module:
        def __getattr__(self, name):
            return tensor_wrapper if name == "TensorWrapper" else getattr(real, name)

    node_visitor.PyQnnManager = Module()
    try:
        yield
    finally:
        node_visitor.PyQnnManager = real


@contextlib.contextmanager
def _recording_params(added: list):
    """ExecuTorch's custom-op builder with AddScalarParam and AddTensorParam recorded (its
    own calls, passed through unchanged): its op config reports scalar types only once
    the QNN backend has populated them."""
    import executorch.backends.qualcomm.builders.op_custom_op as op_custom_op

    real = op_custom_op.PyQnnManager

    class RecordingOpWrapper(real.PyQnnOpWrapper):
        def AddScalarParam(self, name, dtype, data):  # noqa: N802 - ExecuTorch's name
            from executorch.backends.qualcomm.utils.constants import QCOM_DATA

            added.append((name, dtype.name, data[QCOM_DATA]))
            return super().AddScalarParam(name, dtype, data)

        def AddTensorParam(self, name, dtype, *args):  # noqa: N802
            added.append((name, f"tensor of {dtype.name}", None))
            return super().AddTensorParam(name, dtype, *args)

    class Module:
        def __getattr__(self, name):
            return RecordingOpWrapper if name == "PyQnnOpWrapper" else getattr(real, name)

    op_custom_op.PyQnnManager = Module()
    try:
        yield
    finally:
        op_custom_op.PyQnnManager = real


# What to do when ExecuTorch's builder itself fails on a node: it takes the node's args as
# the op's schema lists them (every param given, of the schema's types).
BUILDER_FIX = "call the op as its schema says, every param a Python value of its type (not a tensor)"


class Builder:
    """ExecuTorch's node visitors of an edge program, with this package's ops registered."""

    def __init__(self, edge: torch.export.ExportedProgram, library: str, backend: str = "lpai"):
        from executorch.backends.qualcomm.builders.node_visitor_manager import get_node_visitors

        self.edge = edge
        self.visitors = get_node_visitors(edge, op_package_infos=package_infos(library, backend))

    def build(self, node: torch.fx.Node) -> tuple[Built | None, str]:
        """(the op config, "") or (None, why ExecuTorch's CustomOp.define_node refused the
        node: its warning or its error)."""
        added: list = []
        data: dict = {}
        with warnings.catch_warnings(record=True) as caught, _recording_params(added), _recording_tensors(data):
            warnings.simplefilter("always")
            try:
                wrapper = self.visitors[node.target.__name__].define_node(node, collections.defaultdict(dict))
            except Exception as exc:  # noqa: BLE001 - ExecuTorch's refusal, as one reason
                return None, (
                    f"ExecuTorch's CustomOp builder failed: {type(exc).__name__}: {one_line(exc)}; {BUILDER_FIX}"
                )
        if wrapper is None:
            said = " ".join(str(w.message) for w in caught) or "no reason given"
            return None, f"ExecuTorch's CustomOp builder refused it: {said}; {BUILDER_FIX}"
        config = wrapper.GetOpWrapper().GetOpConfig()
        inputs = config["inputTensors"]
        return Built(
            wrapper,
            config,
            list(added),
            [_tensor_info(t) for t in inputs],
            [_tensor_info(t) for t in config["outputTensors"]],
            {k: data[t.v2.name] for k, t in enumerate(inputs) if t.v2.name in data},
        ), ""


def calibrated_outputs(node: torch.fx.Node) -> dict[int, tuple[float, int, int, int]]:
    """{output index: (scale, zero point, quant_min, quant_max)} the calibration gave each
    output of a node: its quantize node's, which AnnotateQuantAttrs put on the getitem
    node of each output of a node with several, and on the node itself."""
    import operator

    from executorch.backends.qualcomm.utils.constants import (
        QCOM_QUANT_ATTRS,
        QCOM_QUANT_MAX,
        QCOM_QUANT_MIN,
        QCOM_SCALE,
        QCOM_ZERO_POINT,
    )

    def params(attrs) -> tuple[float, int, int, int] | None:
        if not attrs or not isinstance(attrs.get(QCOM_SCALE), float):
            return None  # not quantized, or per channel
        return (
            float(attrs[QCOM_SCALE]),
            int(attrs[QCOM_ZERO_POINT]),
            int(attrs[QCOM_QUANT_MIN]),
            int(attrs[QCOM_QUANT_MAX]),
        )

    if not isinstance(node.meta.get("val"), (tuple, list)):
        found = params(node.meta.get(QCOM_QUANT_ATTRS))
        return {} if found is None else {0: found}
    result = {}
    for user in node.users:
        if user.target is operator.getitem and isinstance(user.args[1], int):
            found = params(user.meta.get(QCOM_QUANT_ATTRS))
            if found is not None:
                result[user.args[1]] = found
    return result


@dataclass(frozen=True)
class OutputRange:
    """One output of a node: the range its calibration gave it, and the range the device
    can represent with the params ExecuTorch's builder sends it with."""

    name: str
    calibrated: tuple[float, float]
    step: float  # the calibrated scale: one quantization step
    sent: tuple[float, float] | None  # None: not sent as fixed point per tensor

    @property
    def lost(self) -> float:
        """The part of the calibrated range the sent params cannot represent."""
        if self.sent is None:
            return 0.0
        (lo, hi), (slo, shi) = self.calibrated, self.sent
        return max(0.0, min(hi, slo) - lo) + max(0.0, hi - max(lo, shi))

    @property
    def clipped(self) -> bool:
        """More than one quantization step of its calibrated range lost on the device."""
        return self.lost > self.step * (1 + 1e-6)

    @property
    def lost_percent(self) -> float:
        width = self.calibrated[1] - self.calibrated[0]
        return 100.0 * self.lost / width if width > 0 else 0.0

    def line(self) -> str:
        lo, hi = self.calibrated
        text = f"    output {self.name}: calibrated [{lo:.6g}, {hi:.6g}]"
        if self.sent is None:
            return text + ", sent not quantized"
        text += f", sent params represent [{self.sent[0]:.6g}, {self.sent[1]:.6g}]"
        if self.clipped:
            text += f": {self.lost_percent:.1f}% of its range is clipped on the device"
        return text

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "calibrated": list(self.calibrated),
            "representable": None if self.sent is None else list(self.sent),
            "clipped_fraction": self.lost_percent / 100.0,
            "clipped": self.clipped,
        }


def output_ranges(node: torch.fx.Node, built: Built, names: tuple[str, ...]) -> list[OutputRange]:
    """Per output of a node, in order: its calibrated range and what its sent params represent.
    ExecuTorch's CustomOp builder (1.5.1) sends every output of a node with the node's quant
    attrs, which AnnotateQuantAttrs copies from the quantize node of each output in turn
    (the last one stays): quant.share_outputs makes them one, a model quantized otherwise
    (an older project's QAT model) may not."""
    ranges = []
    for index, (scale, zero_point, qmin, qmax) in sorted(calibrated_outputs(node).items()):
        if index < len(built.outputs) and index < len(names):
            sent = built.outputs[index].representable()
            ranges.append(OutputRange(names[index], quant_range(scale, zero_point, qmin, qmax), scale, sent))
    return ranges


# The fix of an op config that disagrees with the project's own OpDef XML.
REBUILD = f"the OpDef XML is not this project's: run `python -m {NAMESPACE} update` (or copier update), then build"


def _mixed_types(tensors: list[tuple[str, str, TensorInfo]]) -> str | None:
    """A float32 tensor beside fixed-point ones in one HTP node: the OpDef takes either
    type for each tensor, but this package's HTP kernels are generated and tested for one
    kind per node (all FLOAT_32: fp16; all fixed point: 8a8w, 16a8w), so check-model
    refuses what no generated test covers."""
    floats = [(role, name) for role, name, t in tensors if t.dtype == "FLOAT_32"]
    fixed = sorted({t.dtype for _role, _name, t in tensors if t.dtype != "FLOAT_32"})
    if not floats or not fixed:
        return None
    role, name = floats[0]
    return (
        f"{role} {name} is FLOAT_32 beside {', '.join(fixed)} tensors: this package's HTP kernels take one "
        "kind of element type per node (all FLOAT_32, or all fixed point); quantize what feeds it with "
        f"{NAMESPACE}.quant.make_htp_quantizer, or check the float model with --quant fp16"
    )


def refusal(op: OpInfo, built: Built, opdef: op_package_xml.OpDef, backend: str = "lpai") -> str | None:
    """Why the backend's op package refuses the op config (LPAI: its validateOp,
    include/lpai_validate.h; HTP: its OpDefs' data types and rank), or None."""
    if len(built.inputs) != len(opdef.inputs) or len(built.outputs) != len(opdef.outputs):
        return (
            f"{len(built.inputs)} inputs and {len(built.outputs)} outputs, the OpDef declares "
            f"{len(opdef.inputs)} and {len(opdef.outputs)}; {REBUILD}"
        )
    tensors = [("input", name, t) for name, t in zip(opdef.inputs, built.inputs)]
    tensors += [("output", name, t) for name, t in zip(opdef.outputs, built.outputs)]
    accepted, max_rank = DATATYPES[backend], MAX_RANKS[backend]
    for role, name, t in tensors:
        if f"QNN_DATATYPE_{t.dtype}" not in accepted:
            if backend == "lpai":
                why = "not quantized" if t.encoding == "UNDEFINED" else "not 8-bit"
                return (
                    f"{role} {name} is {t.dtype} ({why}): LPAI custom ops take 8-bit activations only; "
                    f"quantize the model with {NAMESPACE}.quant.make_lpai_quantizer, which quantizes every "
                    "float tensor in and out of the op"
                )
            takes = ", ".join(a.removeprefix("QNN_DATATYPE_") for a in accepted)
            return (
                f"{role} {name} is {t.dtype}: the {backend.upper()} OpDefs declare {takes}; quantize the model "
                f"with {NAMESPACE}.quant.make_htp_quantizer (8a8w or 16a8w), or check it unquantized with --quant fp16"
            )
        if len(t.shape) > max_rank:
            return (
                f"{role} {name} has rank {len(t.shape)}: {backend.upper()} tensors have at most {max_rank} dims; "
                f"reshape it in your model to at most {max_rank} dims around the op (merge leading dims)"
            )
    if backend == "htp":
        mixed = _mixed_types(tensors)
        if mixed:
            return mixed
    try:
        want = op.output_shapes(*(t.shape for t in built.inputs))
    except ValueError as exc:
        return one_line(exc)
    for name, t, shape in zip(opdef.outputs, built.outputs, want):
        if t.shape != tuple(shape):
            return (
                f"output {name} has shape {list(t.shape)}, the op's shape rule gives {list(shape)}; "
                f"make the eager math return its rule's shape ({NAMESPACE}/user/{op.name}.py)"
            )
    try:
        op_package_xml.check_params(opdef, [(name, dtype) for name, dtype, _ in built.params])
    except op_package_xml.OpDefError as exc:
        return f"{one_line(exc)}; {REBUILD}"
    return None
