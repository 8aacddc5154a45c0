# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Gradients of every op (ops.py registers a backward per op), quantization-aware
training with the ops in the model, and docs/using.md's "Train with the ops" run as written.

The expected gradients never come from the backward under test: an elementwise op's
from central differences of the float64 numpy reference (reference.py), a custom op's
from autograd through your eager math called directly (user/<op>.py), and
torch.autograd.gradcheck from finite differences of the op itself.
"""

import functools
import importlib
import json
import operator
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from executorch.exir import to_edge
from torchao.quantization.pt2e import FakeQuantizeBase
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_qat_pt2e

import shape_ops
from shape_ops import cli, eager
from shape_ops._package import NAMESPACE
from shape_ops.device_data import N_INPUTS, PackageModel
from shape_ops.ops import OPS
from shape_ops.quant import make_lpai_quantizer

from conftest import make_inputs
from lowering import all_ops_inputs
from reference import REFERENCES
from spec_values import min_rank, other_params

USING = Path(__file__).resolve().parents[1] / "docs" / "using.md"
# Tiny tensors keep the finite differences cheap; rank 4 fits every reduce rule.
SHAPE = (2, 3, 2, 2)


def as_tuple(result):
    return result if isinstance(result, tuple) else (result,)


def float64_inputs(op, seed):
    """The tests' usual inputs (make_inputs: the op's domain), in float64, requiring grad."""
    assert len(SHAPE) >= min_rank(op)
    return tuple(t.double().requires_grad_() for t in make_inputs(op, seed=seed, shape=SHAPE))


def upstream(outputs, seed):
    """A random gradient per output, so that no output's gradient can hide behind a sum."""
    gen = torch.Generator().manual_seed(seed)
    return tuple(torch.rand(o.shape, generator=gen, dtype=torch.float64) - 0.5 for o in outputs)


def gradients(fn, tensors, seed):
    """Each input's gradient of sum(output * upstream) over the outputs (0 where unused)."""
    outputs = as_tuple(fn(*tensors))
    found = torch.autograd.grad(outputs, tensors, upstream(outputs, seed), allow_unused=True)
    return tuple(torch.zeros_like(t) if g is None else g for t, g in zip(tensors, found))


def test_gradcheck(op):
    """The backward against finite differences of the op itself, in float64; and the
    backward's own backward (a double backward, create_graph=True)."""
    tensors = float64_inputs(op, seed=21)
    params = other_params(op)
    assert torch.autograd.gradcheck(lambda *t: op.default(*t, *params), tensors)
    assert torch.autograd.gradgradcheck(lambda *t: op.default(*t, *params), tensors)


def test_compiled_backward(op):
    """torch.compile (AOTAutograd) traces the backward and gives the same gradients as
    eager mode (opcheck's aot-dispatch check, with inputs that require grad)."""
    tensors = float64_inputs(op, seed=30)
    params = other_params(op)
    if any(torch.isnan(o).any() for o in as_tuple(op.default(*tensors, *params))):
        pytest.skip("NaN on these inputs: opcheck compares without equal_nan")
    torch.library.opcheck(op.default, (*tensors, *params), test_utils=("test_aot_dispatch_dynamic",))


def numeric_gradients(reference, arrays, params, weights, h=1e-6):
    """d sum(reference(arrays) * weights) / d arrays, by central differences: a broadcast
    input's element moves every output it broadcasts to, so its sum comes out by itself."""
    result = []
    for a in arrays:
        grad = np.zeros_like(a)
        for index in np.ndindex(a.shape):
            saved = a[index]
            a[index] = saved + h
            plus = float((reference(*arrays, *params) * weights).sum())
            a[index] = saved - h
            minus = float((reference(*arrays, *params) * weights).sum())
            a[index] = saved
            grad[index] = (plus - minus) / (2 * h)
        result.append(grad)
    return result


def test_gradient_matches_the_float64_reference(op):
    """Elementwise: each input's gradient (broadcast inputs: summed back to their shape)
    equals the numpy reference's, differentiated numerically; params get none."""
    if op.kind == "custom":
        pytest.skip("custom op: test_gradient_matches_plain_torch")
    tensors = float64_inputs(op, seed=22)
    params = other_params(op)
    (weights,) = upstream(as_tuple(op.default(*tensors, *params)), seed=23)
    got = gradients(lambda *t: op.default(*t, *params), tensors, seed=23)
    arrays = [t.detach().numpy().copy() for t in tensors]
    want = numeric_gradients(REFERENCES[op.name], arrays, params, weights.numpy())
    for name, t, g, w in zip(op.inputs, tensors, got, want):
        assert g.shape == t.shape, name
        # gradcheck's tolerances: float64 central differences of `(x + 1e6) - 1e6` are off by 1e-4.
        np.testing.assert_allclose(g.numpy(), w, rtol=1e-3, atol=1e-5, err_msg=f"{op.qualified_name}: input {name}")


def test_gradient_matches_plain_torch(op):
    """Custom: the gradient through the op is that of your eager math in plain torch
    (called directly, not through the op), for every input and every output."""
    if op.kind != "custom":
        pytest.skip("elementwise op: test_gradient_matches_the_float64_reference")
    user = getattr(importlib.import_module(f"{NAMESPACE}.user.{op.name}"), op.name)
    tensors = float64_inputs(op, seed=24)
    params = other_params(op)
    got = gradients(lambda *t: op.default(*t, *params), tensors, seed=25)
    want = gradients(lambda *t: user(*t, *params), tensors, seed=25)
    for name, g, w in zip(op.inputs, got, want):
        torch.testing.assert_close(g, w, equal_nan=True, msg=f"{op.qualified_name}: input {name}")


# Values where the math has kinks: ties between inputs, 0, integers and halves.
KINKS = torch.tensor([0.0, 1.0, -1.0, 0.5, 2.0, -0.5, 1.5], dtype=torch.float64)


def test_gradient_at_kinks_is_torch_convention(op):
    """Elementwise, at ties, 0, integers and halves: the gradient is plain torch's for
    the op's torch expression (eager.py called directly): README.md's conventions."""
    if op.kind == "custom":
        pytest.skip("custom op: test_gradient_matches_plain_torch")
    tensors = tuple(
        KINKS[torch.arange(s.numel()) % len(KINKS)].reshape(s.shape).requires_grad_()
        for s in make_inputs(op, seed=26, shape=SHAPE)
    )
    params = other_params(op)
    got = gradients(lambda *t: op.default(*t, *params), tensors, seed=27)
    want = gradients(lambda *t: getattr(eager, op.name)(*t, *params), tensors, seed=27)
    for name, g, w in zip(op.inputs, got, want):
        torch.testing.assert_close(g, w, equal_nan=True, msg=f"{op.qualified_name}: input {name}")


def _detached(original):
    @functools.wraps(original)  # the same signature: eager.py's check of it passes
    def math(*args):
        return original(*(a.detach() if isinstance(a, torch.Tensor) else a for a in args))

    return math


def _in_place(original):
    @functools.wraps(original)
    def math(*args):
        args[0].mul_(1.0)
        return original(*args)

    return math


@pytest.mark.parametrize("breaks", [_detached, _in_place], ids=["detached", "in-place"])
def test_custom_math_outside_autograd_names_your_file(op, breaks, monkeypatch):
    """Custom: math that leaves autograd still runs forward; its backward fails with one
    error naming the user file and what to write."""
    if op.kind != "custom":
        pytest.skip("elementwise op: its math is generated")
    # eager.py imports the user module at the op's call and reads its function then.
    user = importlib.import_module(f"{NAMESPACE}.user.{op.name}")
    monkeypatch.setattr(user, op.name, breaks(getattr(user, op.name)))
    tensors = float64_inputs(op, seed=28)
    outputs = as_tuple(op(*tensors))
    with pytest.raises(RuntimeError, match=rf"{NAMESPACE}/user/{op.name}\.py.*differentiable torch") as info:
        torch.autograd.backward(outputs, upstream(outputs, seed=29))
    assert op.qualified_name in str(info.value)


class Trainable(torch.nn.Module):
    """A learned scale and shift on every input of the package model (every op, once)."""

    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.ones(N_INPUTS))
        self.shift = torch.nn.Parameter(torch.zeros(N_INPUTS))
        self.ops = PackageModel()

    def forward(self, *inputs):
        return self.ops(*(x * self.scale[i] + self.shift[i] for i, x in enumerate(inputs)))


def _loss(outputs):
    return sum(o.square().mean() for o in outputs)


def test_qat_with_every_op():
    """prepare_qat_pt2e with this package's quantizer puts fake quantization around every
    input and output of every op; the model trains through the ops; convert, export and
    to_edge keep every op as a node."""
    torch.manual_seed(0)
    model = Trainable()
    example = all_ops_inputs(seed=0)
    prepared = prepare_qat_pt2e(torch.export.export(model, example).module(), make_lpai_quantizer(is_qat=True))
    fake_quantized = {
        node.target
        for node in prepared.graph.nodes
        if node.op == "call_module" and isinstance(getattr(prepared, node.target), FakeQuantizeBase)
    }
    for op in OPS:
        [node] = [n for n in prepared.graph.nodes if n.target in op.quantized_overloads]
        outputs = [u for u in node.users if u.target is operator.getitem] if op.n_outputs > 1 else [node]
        around = [a.target for a in node.args[: len(op.inputs)]] + [u.target for o in outputs for u in o.users]
        assert all(t in fake_quantized for t in around), f"{op.qualified_name}: {around}"
    optimizer = torch.optim.SGD(prepared.parameters(), lr=1e-3)
    for step in range(2):
        optimizer.zero_grad()
        _loss(prepared(*all_ops_inputs(seed=step))).backward()
        optimizer.step()
    grads = {name: p.grad for name, p in prepared.named_parameters()}
    assert grads and all(g is not None and torch.isfinite(g).all() for g in grads.values()), grads
    edge = to_edge(torch.export.export(convert_pt2e(prepared), example)).exported_program()
    # An edge op's __name__ is its overload's: `<namespace>.<op>.default`.
    targets = [n.target.__name__ for n in edge.graph.nodes if n.op == "call_function"]
    for op in OPS:
        assert targets.count(str(op.default)) == 1, (op.qualified_name, targets)


def readme_block(heading: str) -> str:
    """The first ```python block of docs/using.md's section `heading`."""
    section = USING.read_text().split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return section.split("```python\n", 1)[1].split("\n```", 1)[0]


def test_readme_train_section_runs_as_written(capsys, tmp_path, monkeypatch):
    """docs/using.md's "Train with the ops", executed as it stands: float training and QAT
    through the first op, convert, export and to_edge with the op still a node; then its
    check-model command on the QAT model it saved, which ExecuTorch's CustomOp builder
    sends with the ranges QAT learned."""
    monkeypatch.chdir(tmp_path)  # the block saves qat_net.pt2 and calibration.pt here
    monkeypatch.setattr(sys, "path", list(sys.path))  # check-model puts the project first on it
    code = readme_block("Train with the ops")
    scope = {"__name__": "readme_train_with_the_ops"}
    exec(compile(code, f"{USING} (Train with the ops)", "exec"), scope)
    first = OPS[0]
    assert scope["model"].conv.weight.grad is not None, "float training: no gradient reached the weights"
    assert all(p.grad is not None for p in scope["prepared"].parameters()), "QAT: no gradient reached the weights"
    assert any(isinstance(m, FakeQuantizeBase) for m in scope["prepared"].modules()), "QAT: no fake quantization"
    # Its last line (ExecuTorch prints before it): the op, still a node of the edge program.
    assert capsys.readouterr().out.splitlines()[-1] == str([str(first.default)])
    assert getattr(shape_ops, first.name) is first.function
    # The command after the block, as docs/using.md spells it, on the files the block wrote.
    section = USING.read_text().split("\n## Train with the ops\n", 1)[1].split("\n## ", 1)[0]
    command = section.split("```bash\n", 1)[1].split("\n```", 1)[0]
    prefix = f"python -m {NAMESPACE} "
    assert command.startswith(prefix), command
    argv = [*command.removeprefix(prefix).split(), "--project", str(USING.parents[1]), "--json", "report.json"]
    assert cli.main(argv) == 0, capsys.readouterr().err
    written = json.loads((tmp_path / "report.json").read_text())
    assert written["ok"] is True and written["prequantized"] is True
    [node] = written["nodes"]
    # Each output is sent with the scale and zero point QAT learned for it: its quantize node
    # in the converted model (after its getitem for an op of several outputs).
    [op_node] = [n for n in scope["quantized"].graph.nodes if n.target in first.quantized_overloads]
    items = [u for u in op_node.users if u.target is operator.getitem] if first.n_outputs > 1 else [op_node]
    learned = {}
    for item in items:
        [q] = [u for u in item.users if str(u.target).endswith("quantize_per_tensor.default")]
        learned[item.args[1] if first.n_outputs > 1 else 0] = (float(q.args[1]), int(q.args[2]))
    assert sorted(learned) == list(range(first.n_outputs))
    for k, t in enumerate(node["outputs"]):
        assert (t["scale"], t["zero_point"]) == (pytest.approx(learned[k][0], rel=1e-6), learned[k][1]), t
        assert t["clipped"] is False
