# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""`python -m <namespace> check-model`: would every op node of your model reach the op package?

On this machine, with the released ExecuTorch and no QNN SDK: your model quantized with
this package's annotator (quant.py), torch.export, lowered to edge with the LPAI passes
(builder.lower_to_edge), then ExecuTorch's real Qualcomm CustomOp builder on every node
of this package's ops, and the op package's own checks on the op config it makes
(builder.refusal).  One line per node: the op, its inputs and outputs (shape, QNN data
type, scale and zero point), its params, accepted or the reason.  Then the accuracy the
quantization costs: the quantized graph (fake quantization: quantize/dequantize around
every annotated tensor, the ops' eager math in between) against your float model on the
calibration data, the max abs error and the SNR of every output.

What it cannot see: the QNN backend's own answer and the device.  A model that passes
here is ready for `export` once ExecuTorch and the SDK are installed.

In a project with an HTP op package (op_package/htp/), `--backend htp` checks against
it instead: quantized with quant.make_htp_quantizer (`--quant` 8a8w or 16a8w) or not
at all (`--quant fp16`: the float graph, which HTP runs in fp16), the HTP passes, its
OpDefs' data types and rank.
"""

from __future__ import annotations

import copy
import json
import math
import operator
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import torch

from ._package import NAMESPACE, PACKAGE_NAME, SOC_MODEL
from .builder import Built, OutputRange, TensorInfo
from .loading import as_outputs, one_line, run_model
from .loading import quiet as _quiet
from .loading import stage as _stage
from .ops import OPS
from .quant import HTP_FLOAT
from .toolchain import Project, ToolchainError


@dataclass
class NodeReport:
    """One node of this package's ops in the edge program, and the verdict on it."""

    op: str  # ns::op
    node: str  # the node's name in the edge program
    input_names: tuple[str, ...]
    output_names: tuple[str, ...]
    inputs: list[TensorInfo]
    outputs: list[TensorInfo]
    params: list[tuple[str, str, object]]  # (name, QNN data type, value) as the builder added them
    reason: str | None  # None: accepted
    ranges: list[OutputRange] = field(default_factory=list)  # per output: calibrated, and what is sent

    @property
    def accepted(self) -> bool:
        return self.reason is None

    @property
    def clipped(self) -> list[OutputRange]:
        return [r for r in self.ranges if r.clipped]

    def line(self) -> str:
        ins = ", ".join(f"{n} {t.describe()}" for n, t in zip(self.input_names, self.inputs))
        outs = ", ".join(f"{n} {t.describe()}" for n, t in zip(self.output_names, self.outputs))
        text = f"  {self.op} (node {self.node}): {ins} -> {outs}"
        if self.params:
            text += "; params " + ", ".join(f"{name}={value!r}" for name, _dtype, value in self.params)
        text += "; accepted" if self.accepted else f"; REFUSED: {self.reason}"
        return "\n".join([text, *(r.line() for r in self.ranges)])

    def to_json(self) -> dict:
        return {
            "op": self.op,
            "node": self.node,
            "inputs": [{"name": n, **t.to_json()} for n, t in zip(self.input_names, self.inputs)],
            "outputs": [
                {"name": n, **t.to_json(), **self._range_json(n)} for n, t in zip(self.output_names, self.outputs)
            ],
            "params": [{"name": n, "dtype": d, "value": v} for n, d, v in self.params],
            "accepted": self.accepted,
            "reason": self.reason,
        }

    def _range_json(self, name: str) -> dict:
        found = [r.to_json() for r in self.ranges if r.name == name]
        if not found:
            return {"calibrated": None, "representable": None, "clipped": False}
        return {k: v for k, v in found[0].items() if k != "name"}


@dataclass
class OutputAccuracy:
    index: int
    shape: tuple[int, ...]
    max_abs_error: float
    snr_db: float  # inf: no error at all

    def line(self) -> str:
        snr = "inf dB (no error)" if self.snr_db == math.inf else f"{self.snr_db:.1f} dB"
        return f"  output {self.index} {list(self.shape)}: max abs error {self.max_abs_error:.6g}, SNR {snr}"

    def to_json(self) -> dict:
        finite = math.isfinite(self.snr_db)
        return {
            "output": self.index,
            "shape": list(self.shape),
            "max_abs_error": self.max_abs_error if math.isfinite(self.max_abs_error) else None,
            "snr_db": self.snr_db if finite else None,  # null: no error (inf) or no signal
        }


@dataclass
class Report:
    model: str
    batches: int
    nodes: list[NodeReport]
    accuracy: list[OutputAccuracy]
    backend: str = "lpai"
    quant: str = "8a8w"  # HTP: HTP_QUANTS or HTP_FLOAT (not quantized)
    prequantized: bool = False  # the model came quantized (QAT, converted): checked as it is

    @property
    def refused(self) -> list[NodeReport]:
        return [n for n in self.nodes if not n.accepted]

    @property
    def clipped(self) -> list[tuple[NodeReport, OutputRange]]:
        return [(n, r) for n in self.nodes for r in n.clipped]

    @property
    def ok(self) -> bool:
        return bool(self.nodes) and not self.refused and not self.clipped

    def summary(self) -> str:
        if not self.nodes:
            names = ", ".join(op.name for op in OPS)
            return (
                f"--model {self.model}: has no node of {NAMESPACE}'s ops ({names}): nothing would reach the op package"
            )
        if self.refused:
            which = ", ".join(f"{n.op} (node {n.node})" for n in self.refused)
            return f"{len(self.refused)} of {len(self.nodes)} node(s) would not reach the op package {PACKAGE_NAME}: {which}"
        if self.clipped:
            which = "; ".join(
                f"output {r.name} of {n.op} (node {n.node}) would lose {r.lost_percent:.1f}% of its calibrated "
                "range on the device"
                for n, r in self.clipped
            )
            return (
                f"{which} (ExecuTorch's CustomOp builder sends every output of a node with one set of quant "
                f"params): quantize the model with {NAMESPACE}.quant's quantizers, which give the outputs one "
                "range (for QAT: prepare_qat_pt2e with make_lpai_quantizer(is_qat=True) or "
                "make_htp_quantizer(is_qat=True))"
            )
        return f"{len(self.nodes)} of {len(self.nodes)} node(s) would reach the op package {PACKAGE_NAME}"

    def lines(self) -> list[str]:
        out = [
            f"nodes of {NAMESPACE}'s ops: {len(self.nodes)} (ExecuTorch's CustomOp builder, then the op package's checks)"
        ]
        if self.backend != "lpai":
            out[0] += f" for {self.backend.upper()}, {self.quant}"
        out += [n.line() for n in self.nodes] or ["  none"]
        if self.quant == HTP_FLOAT:
            out.append(f"accuracy: not measured, {self.quant} is not quantized (the backend runs the float graph)")
            return out
        reference = (
            "the same model without its activations' quantization (it came quantized)"
            if self.prequantized
            else "your float model"
        )
        out.append(
            f"accuracy after fake quantization with the params the device is sent: the quantized model against "
            f"{reference} on {self.batches} calibration batch(es)"
        )
        out += [a.line() for a in self.accuracy]
        return out

    def to_json(self) -> dict:
        backend = {} if self.backend == "lpai" else {"backend": self.backend, "quant": self.quant}
        return {
            "model": self.model,
            "package": PACKAGE_NAME,
            **backend,
            "calibration_batches": self.batches,
            "prequantized": self.prequantized,
            "nodes": [n.to_json() for n in self.nodes],
            "accuracy": [a.to_json() for a in self.accuracy],
            "ok": self.ok,
            "summary": self.summary(),
        }


def check_json_path(text: str | None, inputs: Sequence[str | None] = ()) -> Path | None:
    """--json FILE, checked before anything runs: a file in an existing folder, none of `inputs`."""
    if not text:
        return None
    path = Path(text)
    if path.is_dir():
        raise ToolchainError(f"--json {text}: is a directory, expected a file to write")
    if not path.parent.is_dir():
        raise ToolchainError(f"--json {text}: no folder {path.parent} to write it in")
    for other in inputs:
        if other and path.exists() and Path(other).exists() and os.path.samefile(path, other):
            raise ToolchainError(f"--json {text}: is an input of this command ({other}), it would be overwritten")
    return path


def _node_report(op, node, built: Built | None, reason: str | None, ranges: list[OutputRange] = ()) -> NodeReport:
    if built is None:
        # No op config: the shapes of the graph, no quant params.
        args = [a for a in node.args[: len(op.inputs)] if isinstance(a, torch.fx.Node)]
        vals = node.meta.get("val")
        vals = vals if isinstance(vals, (tuple, list)) else (vals,)
        inputs = [TensorInfo(tuple(a.meta["val"].shape), None, encoding="UNDEFINED") for a in args]
        outputs = [TensorInfo(tuple(v.shape), None, encoding="UNDEFINED") for v in vals if v is not None]
        params = []
    else:
        inputs, outputs, params = built.inputs, built.outputs, built.params
    return NodeReport(
        op.qualified_name, node.name, op.inputs, op.outputs, inputs, outputs, params, reason, list(ranges)
    )


def check_nodes(edge, opdefs: dict, library: str, backend: str = "lpai") -> tuple[list[NodeReport], list]:
    """Every node of this package's ops through ExecuTorch's builder and the op package's
    checks; and each node's op config (None where the builder refused it), in graph order."""
    from .builder import Builder, op_nodes, output_ranges, refusal

    builder = Builder(edge, library, backend)
    reports, configs = [], []
    for op, node in op_nodes(edge):
        built, why = builder.build(node)
        configs.append(built)
        if built is None:
            reports.append(_node_report(op, node, None, why))
            continue
        reason = refusal(op, built, opdefs[op.qnn_type], backend)
        reports.append(_node_report(op, node, built, reason, output_ranges(node, built, op.outputs)))
    return reports, configs


# The quantize and dequantize ops convert_pt2e leaves around every quantized activation.
_QUANTIZE = ("quantize_per_tensor",)
_DEQUANTIZE = ("dequantize_per_tensor",)


def _is(node: torch.fx.Node, names: tuple[str, ...]) -> bool:
    target = node.target
    return (
        node.op == "call_function"
        and getattr(target, "namespace", None) == "quantized_decomposed"
        and getattr(getattr(target, "_overloadpacket", None), "__name__", "") in names
    )


def is_quantized(model: torch.nn.Module) -> bool:
    """The model came quantized (convert_pt2e's output, e.g. docs/using.md's QAT model): it
    has quantize nodes of its own, so check-model takes its ranges as they are."""
    graph = getattr(model, "graph", None)
    return isinstance(graph, torch.fx.Graph) and any(_is(n, _QUANTIZE) for n in graph.nodes)


def _require_converted(model: torch.nn.Module, spec: str) -> None:
    """A model still prepared for quantization (observers or fake quantization in it, e.g.
    right after QAT's training) is refused, naming the step it misses."""
    from torchao.quantization.pt2e import FakeQuantizeBase, ObserverBase

    if any(isinstance(m, (FakeQuantizeBase, ObserverBase)) for m in model.modules()):
        raise ToolchainError(
            f"--model {spec}: holds observers or fake quantization (prepared, not converted): "
            'convert it first, quantized = convert_pt2e(prepared) (docs/using.md, "Train with the ops")'
        )


def _output_quantizes(node: torch.fx.Node, index: int, several: bool) -> list[torch.fx.Node]:
    """The quantize nodes of output `index` of an op node in a quantized graph."""
    outputs = [u for u in node.users if u.target is operator.getitem and u.args[1] == index] if several else [node]
    return [q for o in outputs for q in o.users if _is(q, _QUANTIZE)]


def with_sent_params(quantized: torch.fx.GraphModule, configs: list) -> torch.fx.GraphModule:
    """A copy of the quantized graph in which the quantize and dequantize nodes of every
    output of this package's ops carry the params ExecuTorch's builder sends that output
    with (`configs`: check_nodes's, in graph order), not those its calibration gave it:
    the graph the device runs."""
    model = copy.deepcopy(quantized)
    ops = {overload: op for op in OPS for overload in op.quantized_overloads}
    nodes = [n for n in model.graph.nodes if n.op == "call_function" and n.target in ops]
    if len(nodes) != len(configs):
        raise ToolchainError(
            f"the quantized model has {len(nodes)} node(s) of {NAMESPACE}'s ops, its edge program {len(configs)}: "
            "make the result of every call of the ops reach the model's outputs (export drops an unused one)"
        )
    for node, built in zip(nodes, configs):
        if built is None:
            continue
        for index, sent in enumerate(built.outputs):
            if sent.scale is None:
                continue
            for q in _output_quantizes(node, index, ops[node.target].n_outputs > 1):
                for n in [q, *(d for d in q.users if _is(d, _DEQUANTIZE))]:
                    if isinstance(n.args[1], float):
                        n.args = (n.args[0], sent.scale, sent.zero_point, *n.args[3:])
    model.recompile()
    return model


def float_activations(quantized: torch.fx.GraphModule) -> torch.fx.GraphModule:
    """A copy of a quantized graph without its activations' quantize/dequantize pairs (its
    weights stay as they were converted): the reference of a model that came quantized."""
    model = copy.deepcopy(quantized)
    for dq in list(model.graph.nodes):
        if _is(dq, _DEQUANTIZE) and isinstance(dq.args[0], torch.fx.Node) and _is(dq.args[0], _QUANTIZE):
            dq.replace_all_uses_with(dq.args[0].args[0])
    model.graph.eliminate_dead_code()
    model.recompile()
    return model


def _snr_db(want: torch.Tensor, got: torch.Tensor) -> float:
    noise = float(((got - want) ** 2).sum())
    signal = float((want**2).sum())
    if noise == 0.0:
        return math.inf
    if signal == 0.0 or not math.isfinite(noise):
        return -math.inf
    return 10.0 * math.log10(signal / noise)


def accuracy(model, quantized, batches, what: str) -> list[OutputAccuracy]:
    """Per output, over every batch: the quantized graph's error against the float model."""
    floats = [run_model(model, b, f"{what} batch {k}") for k, b in enumerate(batches)]
    with torch.no_grad(), _quiet():
        quants = [as_outputs(quantized(*b)) for b in batches]
    result = []
    for i in range(len(floats[0])):
        want = torch.cat([f[i].detach().to(torch.float64).flatten() for f in floats])
        got = torch.cat([q[i].detach().to(torch.float64).flatten() for q in quants])
        diff = (got - want).abs()
        error = math.inf if bool(torch.isnan(diff).any()) else float(diff.max()) if diff.numel() else 0.0
        result.append(OutputAccuracy(i, tuple(floats[0][i].shape), error, _snr_db(want, got)))
    return result


def check(
    project: Project,
    model: torch.nn.Module,
    spec: str,
    calibration: list[tuple[torch.Tensor, ...]],
    example: tuple[torch.Tensor, ...] | None,
    what: str = "calibration",
    backend: str = "lpai",
    quant: str = "8a8w",
) -> Report:
    """Quantize, lower to edge, build every node of this package's ops, measure the accuracy
    (`backend` "htp": `quant` one of quant.HTP_QUANTS, or HTP_FLOAT: not quantized)."""
    from .builder import lower_to_edge
    from .quant import quantize
    from .registration import opdefs, require_backend

    require_backend(project, backend)
    declared = opdefs(project, backend)  # the op package's OpDef XML, checked first
    example = tuple(example) if example is not None else tuple(calibration[0])
    _require_converted(model, spec)
    prequantized = is_quantized(model)
    if prequantized and quant == HTP_FLOAT:
        raise ToolchainError(
            f"--model {spec}: is quantized already (it has quantize nodes), --quant {quant} checks a float "
            "model: pass the float model, or check this one with --quant 8a8w or 16a8w"
        )
    if quant == HTP_FLOAT or prequantized:
        quantized = model
    else:
        quantized = _stage(
            "quantizing it (torch.export, ExecuTorch's quantizer with this package's annotator)",
            spec,
            quantize,
            model,
            example,
            calibration,
            SOC_MODEL,
            backend,
            quant,
            cause=(model, example),
        )
    edge = _stage(
        f"lowering the {'float' if quant == HTP_FLOAT else 'quantized'} model to edge "
        f"(torch.export, the {backend.upper()} passes, to_edge)",
        spec,
        lower_to_edge,
        quantized,
        example,
        backend,
        cause=(model, example),
    )
    library = str(project.htp_host_lib if backend == "htp" else project.host_lib)
    nodes, configs = _stage("ExecuTorch's CustomOp builder", spec, check_nodes, edge, declared, library, backend)
    if quant == HTP_FLOAT:
        measured = []
    else:
        sent = _stage("simulating the params the device is sent", spec, with_sent_params, quantized, configs)
        reference = _stage("taking its quantization out", spec, float_activations, model) if prequantized else model
        measured = accuracy(reference, sent, calibration, what)
    return Report(spec, len(calibration), nodes, measured, backend, quant, prequantized)


def run(
    project: Project,
    model: torch.nn.Module,
    spec: str,
    calibration: list[tuple[torch.Tensor, ...]],
    example: tuple[torch.Tensor, ...] | None,
    what: str,
    json_path: Path | None = None,
    backend: str = "lpai",
    quant: str = "8a8w",
) -> Report:
    """check(), printed (and written to `json_path`); ToolchainError unless every node is accepted."""
    steps = "export, to_edge" if quant == HTP_FLOAT or is_quantized(model) else "quantize, export, to_edge"
    print(
        f"checking {spec} ({type(model).__name__}) with {len(calibration)} calibration batch(es) from {what}: "
        f"{steps}, ExecuTorch's Qualcomm CustomOp builder (no QNN SDK)"
        + ("" if backend == "lpai" else f"; backend {backend.upper()}, {quant}"),
        flush=True,
    )
    from .quant import no_sdk_download

    with no_sdk_download():
        report = check(project, model, spec, calibration, example, what, backend, quant)
    for line in report.lines():
        print(line)
    if json_path is not None:
        try:
            json_path.write_text(json.dumps(report.to_json(), indent=2) + "\n")
        except OSError as exc:
            raise ToolchainError(f"--json {json_path}: cannot write it: {exc.strerror or one_line(exc)}") from None
    if not report.ok:
        raise ToolchainError(report.summary())
    print(report.summary())
    return report
