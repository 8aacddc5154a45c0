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
import math
import warnings
from dataclasses import dataclass, field

import torch

from . import op_package_xml
from ._package import DATATYPES, MAX_RANKS
from .loading import lower_to_edge, one_line  # noqa: F401 - lower_to_edge: builder's API
from .ops import OPS, OpInfo

# What the LPAI op package accepts for every input and output (lpai_compiler_info in
# include/lpai_validate.h): an 8-bit activation, in either spelling of the two validations.
ACTIVATION_TYPES = DATATYPES["lpai"]


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

    def describe(self) -> str:
        if self.dtype is None:
            return f"{list(self.shape)} (no op config)"
        if self.scale is None:
            quant = "not quantized" if self.encoding == "UNDEFINED" else f"{self.encoding} encoding"
        else:
            quant = f"scale {self.scale:.6g} zero point {self.zero_point}"
        return f"{list(self.shape)} {self.dtype} {quant}"

    def to_json(self) -> dict:
        return {
            "shape": list(self.shape),
            "dtype": self.dtype,
            "encoding": self.encoding,
            "scale": self.scale,
            "zero_point": self.zero_point,
        }


def _tensor_info(tensor) -> TensorInfo:
    v = tensor.v2
    params = v.quantizeParams
    encoding = params.quantizationEncoding.name.removeprefix("QNN_QUANTIZATION_ENCODING_")
    dtype = v.dataType.name.removeprefix("QNN_DATATYPE_")
    shape = tuple(int(d) for d in v.dimensions)
    if encoding == "SCALE_OFFSET":
        # QNN's offset is the negated zero point (Qnn_ScaleOffset_t).
        so = params.scaleOffsetEncoding
        return TensorInfo(shape, dtype, float(so.scale), -int(so.offset), encoding)
    return TensorInfo(shape, dtype, None, None, encoding)


@dataclass
class Built:
    """An op config as ExecuTorch's builder made it, with the params in the order it added them."""

    wrapper: object  # the config points into the wrapper's tensors: keep it alive
    config: object
    params: list[tuple[str, str, object]]  # (name, QNN data type name, value)
    inputs: list[TensorInfo] = field(default_factory=list)
    outputs: list[TensorInfo] = field(default_factory=list)


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
        with warnings.catch_warnings(record=True) as caught, _recording_params(added):
            warnings.simplefilter("always")
            try:
                wrapper = self.visitors[node.target.__name__].define_node(node, collections.defaultdict(dict))
            except Exception as exc:  # noqa: BLE001 - ExecuTorch's refusal, as one reason
                return None, f"ExecuTorch's CustomOp builder failed: {type(exc).__name__}: {one_line(exc)}"
        if wrapper is None:
            said = " ".join(str(w.message) for w in caught) or "no reason given"
            return None, f"ExecuTorch's CustomOp builder refused it: {said}"
        config = wrapper.GetOpWrapper().GetOpConfig()
        return Built(
            wrapper,
            config,
            list(added),
            [_tensor_info(t) for t in config["inputTensors"]],
            [_tensor_info(t) for t in config["outputTensors"]],
        ), ""


def calibrated_outputs(node: torch.fx.Node) -> dict[int, tuple[float, int]]:
    """{output index: (scale, zero point)} the calibration gave each output of a node with
    several, as the edge program's getitem nodes hold them (their quant attrs)."""
    import operator

    from executorch.backends.qualcomm.utils.constants import QCOM_QUANT_ATTRS, QCOM_SCALE, QCOM_ZERO_POINT

    found = {}
    for user in node.users:
        attrs = user.meta.get(QCOM_QUANT_ATTRS) if user.target is operator.getitem else None
        if attrs and QCOM_SCALE in attrs and isinstance(user.args[1], int):
            found[user.args[1]] = (float(attrs[QCOM_SCALE]), int(attrs[QCOM_ZERO_POINT]))
    return found


def quant_notes(node: torch.fx.Node, built: Built, names: tuple[str, ...]) -> list[str]:
    """Each output of a node with several whose op config has other quant params than its
    calibration gave it: ExecuTorch's CustomOp builder gives every output of a node the
    node's quant attrs, which its passes set from one of the outputs."""
    notes = []
    for index, (scale, zero_point) in sorted(calibrated_outputs(node).items()):
        if index >= len(built.outputs):
            continue
        got = built.outputs[index]
        if got.scale is None or (math.isclose(got.scale, scale, rel_tol=1e-6) and got.zero_point == zero_point):
            continue
        notes.append(
            f"output {names[index]} is sent with scale {got.scale:.6g} zero point {got.zero_point}, "
            f"its calibration gave scale {scale:.6g} zero point {zero_point} (ExecuTorch's CustomOp builder "
            "gives every output of a node the quant params of one of them)"
        )
    return notes


def refusal(op: OpInfo, built: Built, opdef: op_package_xml.OpDef, backend: str = "lpai") -> str | None:
    """Why the backend's op package refuses the op config (LPAI: its validateOp,
    include/lpai_validate.h; HTP: its OpDefs' data types and rank), or None."""
    if len(built.inputs) != len(opdef.inputs) or len(built.outputs) != len(opdef.outputs):
        return (
            f"{len(built.inputs)} inputs and {len(built.outputs)} outputs, the OpDef declares "
            f"{len(opdef.inputs)} and {len(opdef.outputs)}"
        )
    tensors = [("input", name, t) for name, t in zip(opdef.inputs, built.inputs)]
    tensors += [("output", name, t) for name, t in zip(opdef.outputs, built.outputs)]
    accepted, max_rank = DATATYPES[backend], MAX_RANKS[backend]
    for role, name, t in tensors:
        if f"QNN_DATATYPE_{t.dtype}" not in accepted:
            if backend == "lpai":
                why = "not quantized" if t.encoding == "UNDEFINED" else "not 8-bit"
                return f"{role} {name} is {t.dtype} ({why}): LPAI custom ops take 8-bit activations only"
            takes = ", ".join(a.removeprefix("QNN_DATATYPE_") for a in accepted)
            return f"{role} {name} is {t.dtype}: the {backend.upper()} OpDefs declare {takes}"
        if len(t.shape) > max_rank:
            return f"{role} {name} has rank {len(t.shape)}: {backend.upper()} tensors have at most {max_rank} dims"
    try:
        want = op.output_shapes(*(t.shape for t in built.inputs))
    except ValueError as exc:
        return one_line(exc)
    for name, t, shape in zip(opdef.outputs, built.outputs, want):
        if t.shape != tuple(shape):
            return f"output {name} has shape {list(t.shape)}, the op's shape rule gives {list(shape)}"
    try:
        op_package_xml.check_params(opdef, [(name, dtype) for name, dtype, _ in built.params])
    except op_package_xml.OpDefError as exc:
        return one_line(exc)
    return None
