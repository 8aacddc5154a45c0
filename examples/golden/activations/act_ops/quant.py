# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Quantization of the custom ops for LPAI: 8-bit activations on every tensor in and out.

LPAI custom ops are 8-bit only.  A 16-bit activation arrives at the kernel as
QNN_DATATYPE_INT_32 and, although it passes validation, only the first half of the
output comes back correct (a backend bug, reproducible with an identity
requantization), so no 16-bit config is offered here.

ExecuTorch's QnnQuantizer looks for a config of its own for every node before the
custom annotations run, finds none for this package's ops (CustomOpsQuantAnnotator
annotates them right after) and says so with a bare print(), once per op and
quantization: `No quant config is implemented for op, <namespace>.<op>.default`
(executorch/backends/qualcomm/quantizer/quantizer.py, QnnQuantizer._get_quant_config).
Those lines, and only those, are dropped (own_op_notices); the same line about any
other op still shows, since that op really is left unquantized.  After annotating, it
asks every node for its output's quantization (QnnQuantizer._replace_inf) and logs
`Could not resolve quant range for node: <node>` for an op of several outputs, which
this package quantizes on each output's getitem: dropped too, for this package's nodes
only (own_node_warnings).  Those outputs share one observer (share_outputs): ExecuTorch's
CustomOp builder sends them all with one set of params.

For HTP (a project with op_package/htp/): make_htp_quantizer, 8-bit (8a8w) or 16-bit
(16a8w) activations on every tensor of this package's ops, which reach the op package as
QNN_DATATYPE_UFIXED_POINT_8 or _16 (ExecuTorch's 16-bit activation is an int32 observer
on 0..65535); HTP_FLOAT ("fp16") is no quantizer at all: the float graph is lowered,
HTP runs it in fp16 and the ops get FLOAT_32 tensors.  The same lines are dropped.
"""

from __future__ import annotations

import contextlib
import functools
import io
import logging
import operator
import os
import sys
from collections.abc import Iterable, Sequence

import torch

from ._package import SOC_MODEL
from .ops import OPS

# HTP's quantizations: ExecuTorch's QuantDtype member for the rest of the graph, and the
# activation dtype of this package's ops (torch.uint16: an int32 observer on 0..65535,
# ExecuTorch's 16-bit activation, sent as QNN_DATATYPE_UFIXED_POINT_16).
HTP_QUANTS = {"8a8w": ("use_8a8w", torch.uint8), "16a8w": ("use_16a8w", torch.uint16)}
# HTP without quantization: the float graph, run in fp16 on the HTP, FLOAT_32 to the ops.
HTP_FLOAT = "fp16"


def annotator(is_qat: bool = False, act_dtype: torch.dtype = torch.uint8):
    """ExecuTorch's CustomOpsQuantAnnotator with every op of this package registered.

    `is_qat`: fake quantization (ExecuTorch's QAT config, which learns the ranges while
    you train) instead of observers (post-training calibration); `act_dtype`: the
    activations' (uint8 for LPAI, uint8 or uint16 for HTP)."""
    from executorch.backends.qualcomm.custom_op.annotator import (
        CustomOpsQuantAnnotator,
        IOQuantConfig,
    )
    from executorch.backends.qualcomm.quantizer.qconfig import (
        get_ptq_per_channel_quant_config,
        get_qat_per_channel_quant_config,
    )
    from torchao.quantization.pt2e import MinMaxObserver

    # Asymmetric activations; uint8 is the only width LPAI custom ops handle correctly.
    make_config = get_qat_per_channel_quant_config if is_qat else get_ptq_per_channel_quant_config
    config = make_config(act_dtype=act_dtype)
    # The outputs of an op with several share one observer (share_outputs). The default
    # one (a moving average: the first value's range, then 1 % towards each later one)
    # would see one output and then move 1 % towards the next; a min/max observer holds
    # the union of every output over every batch. QAT keeps its fake quantization's
    # moving average: the ranges it learns are trained with.
    several = config if is_qat else make_config(act_dtype=act_dtype, act_observer=MinMaxObserver)
    result = CustomOpsQuantAnnotator()
    for op in OPS:
        # Every input, and every output: ExecuTorch's annotator puts a single output's
        # spec on the op node and pushes several outputs' specs down to the getitem
        # nodes that unpack the tuple (custom_op/annotator.py), by output index.
        outputs = several if op.n_outputs > 1 else config
        io = IOQuantConfig(
            input_quant_specs={i: config.input_activation for i in range(len(op.inputs))},
            output_quant_specs={k: outputs.output_activation for k in range(op.n_outputs)},
        )
        # `.defaults` (torch.ops.<ns>.<op>(x) without params) stays a node of the captured
        # graph and becomes a `.default` call with every param at to_edge: annotated the
        # same way, its quantize/dequantize nodes end up around that call.
        for overload in op.quantized_overloads:
            result.register_annotation(overload, io)
    return result


def annotation_fn(is_qat: bool = False, act_dtype: torch.dtype = torch.uint8):
    """The custom annotation make_quantizer gets: annotator()'s, then every output of an
    op with several outputs sharing the first output's observer (share_outputs)."""
    annotate = annotator(is_qat, act_dtype).build_annotation_fn()

    def annotate_package_ops(gm: torch.fx.GraphModule) -> None:
        annotate(gm)
        share_outputs(gm)

    return annotate_package_ops


def share_outputs(gm: torch.fx.GraphModule) -> None:
    """One observer for every output of a node of this package's ops with several outputs.

    ExecuTorch's CustomOp builder sends every output of a node with one set of quant
    params: the node's quant attrs (builders/node_visitor.py get_quant_encoding_conf,
    called with the node itself for each output), which AnnotateQuantAttrs
    (_passes/annotate_quant_attrs.py) copies from each output's quantize node in turn,
    so the last one wins.  Observed apart, an output of another range is clipped or
    coarse on the device.  Shared (torchao's SharedQuantizationSpec on the getitem nodes
    that unpack the tuple), the one observer sees every output, the params span the
    union of their ranges, and what the builder sends is what was calibrated."""
    from torchao.quantization.pt2e.quantizer import SharedQuantizationSpec
    from torchao.quantization.pt2e.quantizer.quantizer import Q_ANNOTATION_KEY

    several = {overload for op in OPS if op.n_outputs > 1 for overload in op.quantized_overloads}
    for node in gm.graph.nodes:
        if node.op != "call_function" or node.target not in several:
            continue
        items = sorted(
            (u for u in node.users if u.target is operator.getitem and Q_ANNOTATION_KEY in u.meta),
            key=lambda u: u.args[1],
        )
        for item in items[1:]:
            item.meta[Q_ANNOTATION_KEY].output_qspec = SharedQuantizationSpec(items[0])


@contextlib.contextmanager
def no_sdk_download():
    """ExecuTorch's quantizer sets the QNN SDK up when it is made, and with QNN_SDK_ROOT
    unset that means downloading one (offline: a traceback of urllib printed in every
    quantization, then it goes on without). Set but empty, the SDK is left to the caller:
    quantizing needs none, and a QNN_SDK_ROOT of yours is left as it is."""
    unset = "QNN_SDK_ROOT" not in os.environ
    if unset:
        os.environ["QNN_SDK_ROOT"] = ""
    try:
        yield
    finally:
        if unset:
            os.environ.pop("QNN_SDK_ROOT", None)


def make_lpai_quantizer(soc_model: str = SOC_MODEL, is_qat: bool = False):
    """The QnnQuantizer for LPAI (8a8w) that also knows this package's ops (and does not
    print that its own table lacks them: own_op_notices); `is_qat`:
    for quantization-aware training (torchao's prepare_qat_pt2e, docs/using.md "Train with
    the ops"), fake quantization on every tensor, this package's ops included."""
    return _make_quantizer("lpai", "use_8a8w", torch.uint8, soc_model, is_qat)


def make_htp_quantizer(soc_model: str = SOC_MODEL, quant_dtype: str = "8a8w", is_qat: bool = False):
    """The QnnQuantizer for HTP that also knows this package's ops: `quant_dtype` one of
    HTP_QUANTS, "8a8w" (uint8 activations) or "16a8w" (uint16); quieted and `is_qat` as
    make_lpai_quantizer.  HTP_FLOAT has no quantizer: lower the float model."""
    if quant_dtype not in HTP_QUANTS:
        float_hint = f" ({HTP_FLOAT} is not quantized: lower the float model)" if quant_dtype == HTP_FLOAT else ""
        raise ValueError(f"quant_dtype {quant_dtype!r}: HTP quantizes {' or '.join(HTP_QUANTS)}{float_hint}")
    member, act_dtype = HTP_QUANTS[quant_dtype]
    return _make_quantizer("htp", member, act_dtype, soc_model, is_qat)


def _make_quantizer(backend: str, member: str, act_dtype: torch.dtype, soc_model: str, is_qat: bool):
    """ExecuTorch's make_quantizer for `backend` with QuantDtype.<member> for the graph and
    this package's annotator (`act_dtype` activations), its own-op lines dropped."""
    from executorch.backends.qualcomm.export_utils import get_backend_type, make_quantizer
    from executorch.backends.qualcomm.quantizer.quantizer import QuantDtype

    with no_sdk_download(), _without_records():
        quantizer = make_quantizer(
            quant_dtype=getattr(QuantDtype, member),
            custom_annotations=(annotation_fn(is_qat, act_dtype),),
            is_qat=is_qat,
            backend=get_backend_type(backend),
            soc_model=soc_model,
        )
    quantizer.annotate = _quiet_annotate(quantizer.annotate)
    quantizer.transform_for_annotation = _quiet(quantizer.transform_for_annotation)
    return quantizer


# QnnQuantizer's line for a node it has no config of its own for (quantizer.py, 1.5.1).
NO_QUANT_CONFIG = "No quant config is implemented for op, {}"


def _own_overloads() -> frozenset:
    """Every overload of this package's ops that a captured graph may hold."""
    return frozenset(overload for op in OPS for overload in op.quantized_overloads)


def own_op_notices() -> frozenset[str]:
    """The exact lines QnnQuantizer prints about this package's ops, which
    CustomOpsQuantAnnotator annotates after it."""
    return frozenset(NO_QUANT_CONFIG.format(overload) for overload in _own_overloads())


class _DropLines(io.TextIOBase):
    """A text stream passing every line written to it on to `target`, except the lines
    in `drop` (whole lines only; what is left unterminated goes on at `finish`)."""

    def __init__(self, target, drop: frozenset[str]):
        super().__init__()
        self.target, self.drop, self.pending = target, drop, ""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        *lines, self.pending = (self.pending + text).split("\n")
        for line in lines:
            if line not in self.drop:
                self.target.write(line + "\n")
        return len(text)

    def finish(self) -> None:
        if self.pending and self.pending not in self.drop:
            self.target.write(self.pending)
        self.pending = ""


# QnnQuantizer's warning for a node it finds no output quantization on (quantizer.py, 1.5.1).
NO_QUANT_RANGE = "Could not resolve quant range for node: {}"


def own_node_warnings(model: torch.fx.GraphModule) -> frozenset[str]:
    """The exact warnings QnnQuantizer logs about this package's nodes of `model`."""
    targets = _own_overloads()
    return frozenset(
        NO_QUANT_RANGE.format(node.name)
        for node in model.graph.nodes
        if node.op == "call_function" and node.target in targets
    )


# What ExecuTorch logs while it makes and runs the quantizer without an SDK, which
# quantizing does not need (no_sdk_download): true, and nothing a user can act on.
NO_SDK_NOTICES = (
    "[QNN] QNN_SDK_ROOT is set but empty",
    "The backend_opinfo module couldn't be imported",
    "PassManager is deprecated",
)


class _DropRecords(logging.Filter):
    """Drops the log records whose message is one of `drop` or starts with one of
    NO_SDK_NOTICES."""

    def __init__(self, drop: frozenset[str] = frozenset()):
        super().__init__()
        self.drop = drop

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return message not in self.drop and not message.startswith(NO_SDK_NOTICES)


# The loggers they come from: the root logger (ExecuTorch's Qualcomm code calls
# logging.warning), and the one of exir's pass manager.
_LOGGERS = ("", "executorch.exir.pass_manager")


@contextlib.contextmanager
def _without_records(drop: frozenset[str] = frozenset()):
    """ExecuTorch's loggers (_LOGGERS) without `drop` and NO_SDK_NOTICES."""
    records = _DropRecords(drop)
    for name in _LOGGERS:
        logging.getLogger(name).addFilter(records)
    try:
        yield
    finally:
        for name in _LOGGERS:
            logging.getLogger(name).removeFilter(records)


def _quiet(function):
    """`function` without NO_SDK_NOTICES in the log."""

    @functools.wraps(function)
    def run(*args, **kwargs):
        with _without_records():
            return function(*args, **kwargs)

    return run


def _quiet_annotate(annotate):
    """QnnQuantizer.annotate, its lines about this package's ops (own_op_notices) kept
    off stdout and its warnings about this package's nodes (own_node_warnings) out of
    the log."""
    drop = own_op_notices()

    @functools.wraps(annotate)
    def run(model, *args, **kwargs):
        stream = _DropLines(sys.stdout, drop)
        try:
            with contextlib.redirect_stdout(stream), _without_records(own_node_warnings(model)):
                return annotate(model, *args, **kwargs)
        finally:
            stream.finish()

    return run


def quantize(
    model: torch.nn.Module,
    example_inputs: Sequence[torch.Tensor],
    calibration: Iterable[Sequence[torch.Tensor]],
    soc_model: str = SOC_MODEL,
    backend: str = "lpai",
    quant_dtype: str = "8a8w",
) -> torch.fx.GraphModule:
    """Export, annotate, calibrate (eager math) and convert: the quantized graph module
    (`backend` "htp": make_htp_quantizer(soc_model, quant_dtype))."""
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    quantizer = make_htp_quantizer(soc_model, quant_dtype) if backend == "htp" else make_lpai_quantizer(soc_model)
    captured = torch.export.export(model, tuple(example_inputs)).module()
    prepared = prepare_pt2e(captured, quantizer)
    count = 0
    for batch in calibration:
        prepared(*batch)
        count += 1
    if count == 0:
        raise ValueError("quantize: calibration data is empty")
    return convert_pt2e(prepared)
