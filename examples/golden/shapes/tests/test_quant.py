# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The LPAI quantizer puts 8-bit quantize/dequantize around every tensor of every op,
every input and every output (several outputs: after the getitem of each)."""

import operator
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import torch

from shape_ops._package import NAMESPACE
from shape_ops.device_data import OUTPUT_OPS, PackageModel
from shape_ops.ops import OPS
from shape_ops.quant import quantize

from lowering import all_ops_inputs

PROJECT_ROOT = Path(__file__).resolve().parent.parent

Q = torch.ops.quantized_decomposed.quantize_per_tensor.default
DQ = torch.ops.quantized_decomposed.dequantize_per_tensor.default


@pytest.fixture(scope="module")
def quantized():
    calibration = [all_ops_inputs(seed=s) for s in range(4)]
    return quantize(PackageModel(), all_ops_inputs(), calibration)


def _uint8(node):
    # quantize/dequantize_per_tensor(x, scale, zero_point, quant_min, quant_max, dtype)
    _, scale, _, qmin, qmax, dtype = node.args[:6]
    return scale > 0 and (qmin, qmax, dtype) == (0, 255, torch.uint8)


def _op_nodes(graph_module):
    """Per op in OPS order, its nodes in the graph."""
    nodes = {op.default: [] for op in OPS}
    for node in graph_module.graph.nodes:
        if node.op == "call_function" and node.target in nodes:
            nodes[node.target].append(node)
    return [nodes[op.default] for op in OPS]


def _output_users(node):
    """What takes the node's outputs, in output order: its users, or for a tuple (several
    outputs) the users of its getitems, by index."""
    users = list(node.users)
    if any(u.target is operator.getitem for u in users):
        users = [q for u in sorted(users, key=lambda u: u.args[1]) for q in u.users]
    return users


def test_every_op_is_wrapped_in_uint8_qdq(quantized):
    for op, nodes in zip(OPS, _op_nodes(quantized)):
        assert len(nodes) == 1, f"{op.qualified_name} missing from the quantized graph"
        node = nodes[0]
        tensor_args = node.args[: len(op.inputs)]
        for arg in tensor_args:
            assert arg.target == DQ and _uint8(arg), f"{op.qualified_name}: input {arg} is not dequantized from uint8"
        if len(op.outputs) > 1:
            # A tuple: one getitem per output, each quantized on its own.
            items = [u.args[1] for u in node.users if u.target is operator.getitem]
            assert sorted(items) == list(range(len(op.outputs)))
        users = _output_users(node)
        assert [u.target for u in users] == [Q] * len(op.outputs), f"{op.qualified_name}: an output is not quantized"
        assert all(_uint8(u) for u in users)


def _qparams(node):
    return float(node.args[1]), int(node.args[2])


def test_quantized_model_is_the_eager_op_on_quantized_values(quantized):
    """Each op's output in the quantized graph is the eager op on its inputs as the graph
    sees them (quantized with each input's own scale), quantized to the output's 8 bits:
    at most half an output step away, or the edge of the output's range. Exact where the
    op is a step function (round, floor, a comparison): an input that quantizing moves
    across a step moves the eager result the same way."""
    inputs = all_ops_inputs(seed=0)
    got = quantized(*inputs)
    assert len(got) == len(OUTPUT_OPS)
    outputs, start = [], 0
    for op, [node] in zip(OPS, _op_nodes(quantized)):
        ins = [_qparams(arg) for arg in node.args if getattr(arg, "target", None) == DQ]
        outs = [_qparams(q) for q in _output_users(node) if q.target == Q]
        xs = inputs[start : start + len(op.inputs)]
        start += len(op.inputs)
        assert len(ins) == len(xs) and len(outs) == len(op.outputs), op.qualified_name
        seen = [DQ(Q(x, s, z, 0, 255, torch.uint8), s, z, 0, 255, torch.uint8) for x, (s, z) in zip(xs, ins)]
        result = op(*seen)
        for r, (scale, zero_point) in zip(result if isinstance(result, tuple) else (result,), outs):
            outputs.append((op, r.clamp(scale * (0 - zero_point), scale * (255 - zero_point)), scale))
    for (op, expected, scale), g in zip(outputs, got):
        assert (g - expected).abs().max() <= scale / 2 * 1.001 + 1e-6, op.qualified_name


def test_quantized_model_tracks_eager(quantized):
    """The quantized graph against the float eager model: within 5% of each output's span
    for an op that is not a step function (one of those jumps a whole step where an input
    crosses it; the test above holds it exactly)."""
    # Inputs seen in calibration: outside the calibrated range the graph rightly saturates.
    inputs = all_ops_inputs(seed=0)
    eager = PackageModel()(*inputs)
    got = quantized(*inputs)
    assert len(eager) == len(got) == len(OUTPUT_OPS)
    misses = 0
    for e, g in zip(eager, got):
        # One 8-bit step of the output range, plus the input steps amplified by the op.
        span = float(e.max() - e.min()) or 1.0
        misses += int(((g - e).abs() > 0.05 * span + 1e-3).sum())
    # A step function's jumps are few: at most 1 element in 100 of all outputs.
    assert misses <= sum(e.numel() for e in eager) // 100


# An op of another library, which QnnQuantizer has no config for either (a test's own).
OTHER = f"not_{NAMESPACE}"


@torch.library.custom_op(f"{OTHER}::twice", mutates_args=())
def _other_twice(x: torch.Tensor) -> torch.Tensor:
    return 2 * x


@_other_twice.register_fake
def _(x):
    return torch.empty_like(x)


class _WithAnotherOp(torch.nn.Module):
    def forward(self, *inputs):
        return (*PackageModel()(*inputs), _other_twice(inputs[0]))


def test_quantizing_says_nothing_about_this_packages_ops_but_still_about_others(capfd, caplog):
    """ExecuTorch's QnnQuantizer prints `No quant config is implemented for op, <op>` for
    every op its own table lacks, this package's included (its CustomOpsQuantAnnotator
    annotates those next): a line about a package op reads like a failure and is
    dropped (quant.py); about another op it is true, and still shows. Its other notices
    about this package's ops and about the SDK quantizing does without are dropped too."""
    capfd.readouterr()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        calibration = [all_ops_inputs(seed=s) for s in range(2)]
        quantize(_WithAnotherOp(), all_ops_inputs(), calibration)
    out, err = capfd.readouterr()
    said = [*out.splitlines(), *err.splitlines(), *(r.getMessage() for r in caplog.records)]
    said += [str(w.message) for w in caught]
    about = "No quant config is implemented for op, "
    assert [line for line in said if about in line] == [f"{about}{OTHER}.twice.default"], said
    # Nor that it finds no quantization on an op of several outputs (quantized per output
    # getitem), nor what it logs without an SDK, which quantizing does not need.
    for notice in (
        "Could not resolve quant range",
        "QNN_SDK_ROOT is set but empty",
        "backend_opinfo module couldn't be imported",
        "PassManager is deprecated",
    ):
        assert not [line for line in said if notice in line], said


def test_making_the_quantizer_without_an_sdk_downloads_nothing():
    """With QNN_SDK_ROOT unset, ExecuTorch's quantizer tried to download an SDK when it was
    made, and printed urllib's traceback offline, in every training or export script;
    `make_lpai_quantizer` leaves the SDK to the caller and QNN_SDK_ROOT as it found it."""
    env = {k: v for k, v in os.environ.items() if k != "QNN_SDK_ROOT"}
    code = (
        "import os\n"
        "from shape_ops.quant import make_lpai_quantizer\n"
        "make_lpai_quantizer(); make_lpai_quantizer(is_qat=True)\n"
        "print('QNN_SDK_ROOT' in os.environ)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600, cwd=PROJECT_ROOT
    )
    assert run.returncode == 0, run.stderr[-3000:]
    said = run.stdout + run.stderr
    assert "Traceback" not in said and "Downloading" not in said, said[-3000:]
    assert run.stdout.splitlines()[-1] == "False"


def test_the_outputs_of_an_op_share_one_range_that_holds_them_all(quantized):
    """ExecuTorch's CustomOp builder sends every output of a node with one set of params:
    the outputs of an op with several are quantized with one scale and zero point (one
    observer: quant.share_outputs), whose range holds every output's values over every
    calibration batch (a min/max observer, not the moving average)."""
    several = [op for op in OPS if op.n_outputs > 1]
    if not several:
        pytest.skip("no op of this package has several outputs")
    calibration = [all_ops_inputs(seed=s) for s in range(4)]  # the fixture's batches
    with torch.no_grad():
        floats = [PackageModel()(*b) for b in calibration]
    first_output = {}
    k = 0
    for op in OPS:
        first_output[op.name] = k
        k += op.n_outputs
    for op, [node] in zip(OPS, _op_nodes(quantized)):
        if op.n_outputs < 2:
            continue
        qs = [u for u in _output_users(node) if u.target == Q]
        assert len(qs) == op.n_outputs, op.qualified_name
        assert len({(float(q.args[1]), int(q.args[2])) for q in qs}) == 1, [q.args[1:3] for q in qs]
        scale, zero_point = float(qs[0].args[1]), int(qs[0].args[2])
        lo, hi = (0 - zero_point) * scale, (255 - zero_point) * scale
        for i in range(op.n_outputs):
            values = torch.cat([f[first_output[op.name] + i].flatten() for f in floats])
            assert lo <= float(values.min()) + scale / 2 and float(values.max()) - scale / 2 <= hi, (
                op.qualified_name,
                op.outputs[i],
                (lo, hi),
                (float(values.min()), float(values.max())),
            )
