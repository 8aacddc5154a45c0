# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Registration of every op of NormOpPackage with torch.library, and its public API.

Per op, three overloads and one function:
- `<op>.default`, the functional op (`torch.library.custom_op` with a fake kernel so that
  torch.export can trace it).  Its schema has NO defaults, on purpose: torch.export
  drops every trailing argument equal to its schema default, and ExecuTorch's custom-op
  builder (`CustomOp.define_node`) refuses a node whose argument count differs from the
  schema, leaving the op on the CPU.  Without defaults every param is in the graph.
- `<op>.defaults`, only for ops with params: the same arguments with the spec's
  defaults, so that `torch.ops.<ns>.<op>(x)` works.  It is CompositeImplicitAutograd:
  it calls `.default` with every param, and `to_edge` decomposes it into that call.
- `<op>.out`, which ExecuTorch needs whenever the op is *not* delegated
  (`to_executorch` raises "Missing out variants" otherwise); one keyword-only
  `Tensor(a!)` per output, named like the output (`out` for an op with the default
  output), exactly as in the schema, so that calling it eagerly works.
- the public function `<ns>.<op>(inputs..., params...)`, with the spec's defaults,
  which always calls `.default` with every param.
The math lives in eager.py (generated) or user/ (yours).

Output shapes: shapes.py (the fake kernels, `.out` and eager's check of your math all
apply its rules).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch

from . import eager
from ._package import NAMESPACE
from .shapes import RULES, output_dtype, output_shapes

# ExecuTorch sends an int param to QNN as UINT_32 (and fails on a negative one).
UINT32_MAX = 2**32 - 1

# Keeps the `.defaults` and `.out` definitions alive for the life of the process.
_lib = torch.library.Library(NAMESPACE, "FRAGMENT")


@dataclass(frozen=True)
class OpInfo:
    """What the rest of the package needs to know about one op."""

    name: str
    qnn_type: str
    kind: str
    inputs: tuple[str, ...]
    params: tuple[tuple[str, str, object], ...]  # (name, type, default)
    schema: str
    function: Callable[..., torch.Tensor]  # the public function, with the spec's defaults
    outputs: tuple[str, ...] = ("out",)
    # Per output: ("broadcast",) | ("like", input index) | ("reduce", input index, dims, keepdim).
    output_rules: tuple[tuple, ...] = (("broadcast",),)  # shapes.RULES
    # Per input, (low, high): the op's input domain, the spec's `range` or its default.
    # Calibration of the package model, every generated test and `report` draw the
    # input values from it; the spec check required the op finite on it.
    domains: tuple[tuple[float, float], ...] = ()
    # Per param, (low, high): where the tests vary it (the spec's `range`; a bool's two
    # values; around the default of an elementwise op's param where its expr is finite),
    # or None: only the default is known to work (a custom op's param without a range).
    param_spans: tuple[tuple[object, object] | None, ...] = ()
    # One value per param other than its default where its span allows: what the tests
    # call the op with so that a dropped param cannot go unnoticed.
    other_params: tuple = ()

    @property
    def qualified_name(self) -> str:
        return f"{NAMESPACE}::{self.name}"

    @property
    def packet(self):
        return getattr(getattr(torch.ops, NAMESPACE), self.name)

    @property
    def default(self):
        """The functional overload: every param required; what is quantized and lowered."""
        return self.packet.default

    @property
    def out(self):
        return self.packet.out

    @property
    def quantized_overloads(self) -> tuple:
        """The overloads a captured graph may hold: `.default`, and `.defaults` if the op has params."""
        packet = self.packet
        return tuple(getattr(packet, name) for name in ("default", "defaults") if name in packet.overloads())

    @property
    def param_defaults(self) -> tuple:
        return tuple(default for _name, _type, default in self.params)

    @property
    def n_outputs(self) -> int:
        return len(self.outputs)

    def input_shapes(self, shape: Sequence[int]) -> tuple[tuple[int, ...], ...]:
        """Shapes of one valid call whose (first) output has `shape`: every input `shape`,
        except that the second and later inputs of an elementwise op broadcast (a
        per-channel (1, C, 1, 1), a last-dim (W,) and a column (N, C, H, 1) operand), so
        that the package model and the tests exercise broadcasting."""
        shape = tuple(int(d) for d in shape)
        if self.kind != "elementwise" or len(shape) < 2:
            return tuple(shape for _ in self.inputs)
        operands = (shape, tuple(d if i == 1 else 1 for i, d in enumerate(shape)), shape[-1:], shape[:-1] + (1,))
        return tuple(operands[k % len(operands)] for k in range(len(self.inputs)))

    def output_shapes(self, *input_shapes: Sequence[int]) -> tuple[tuple[int, ...], ...]:
        return output_shapes(self.qualified_name, self.output_rules, input_shapes)

    def __call__(self, *args, **kwargs):
        return self.function(*args, **kwargs)


def _new_outputs(
    op: str, rules: tuple[tuple, ...], dtype: torch.dtype, *inputs: torch.Tensor
) -> tuple[torch.Tensor, ...]:
    """Empty outputs of the shapes the rules give, each in `dtype` (shapes.py
    output_dtype, the eager op's), on the first input's device: the fake kernels' result."""
    shapes = output_shapes(op, rules, [t.shape for t in inputs])
    return tuple(torch.empty(shape, dtype=dtype, device=inputs[0].device) for shape in shapes)


def _check_int_params(op: str, **values: int) -> None:
    # Refused here (eager, fake and `.out` alike) rather than deep inside lowering.
    for name, value in values.items():
        if not 0 <= value <= UINT32_MAX:
            raise ValueError(
                f"{op}: param {name} must be in [0, {UINT32_MAX}], got {value}: "
                "ExecuTorch sends int params to QNN as UINT_32"
            )


def _setup_context(ctx, inputs: tuple, output) -> None:
    """What the backward needs: the op's arguments (tensors saved, so that autograd
    refuses a backward after one of them changed in place)."""
    ctx.tensor_positions = tuple(i for i, a in enumerate(inputs) if isinstance(a, torch.Tensor))
    ctx.save_for_backward(*(inputs[i] for i in ctx.tensor_positions))
    ctx.arguments = tuple(None if isinstance(a, torch.Tensor) else a for a in inputs)


class _Backward:
    """The backward of one op: the gradient of its eager math (eager.py), by autograd
    through that math recomputed on the saved inputs.

    So an op's gradient is exactly plain torch's for the same math, with torch's
    conventions where the math has kinks (docs/using.md, "Train with the ops"): broadcast
    inputs get their gradient summed back to their shape, params (float, int, bool) get
    none.  A custom op's eager math is yours (user/<op>.py): it must be written in
    differentiable torch, or its backward fails and names your file.
    """

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, ctx, *grads: torch.Tensor) -> tuple:
        args = list(ctx.arguments)
        for i, saved in zip(ctx.tensor_positions, ctx.saved_tensors):
            args[i] = saved
        wanted = [i for i in ctx.tensor_positions if ctx.needs_input_grad[i]]
        # Under create_graph (a double backward), grad mode is on here: the recomputation
        # then stays connected to the inputs, so the gradient is differentiable in turn.
        create_graph = torch.is_grad_enabled()
        if not create_graph:
            for i in wanted:
                args[i] = args[i].detach().requires_grad_()
        info = next(op for op in OPS if op.name == self.name)
        try:
            with torch.enable_grad():
                result = getattr(eager, self.name)(*args)
                outputs = result if isinstance(result, tuple) else (result,)
                pairs = [(o, g) for o, g in zip(outputs, grads) if o.requires_grad]
                if not pairs:
                    if info.kind != "custom":
                        return (None,) * len(args)  # a constant of its inputs: no gradient
                    raise RuntimeError("no output depends on the inputs through torch operations")
                found = torch.autograd.grad(
                    [o for o, _ in pairs],
                    [args[i] for i in wanted],
                    [g for _, g in pairs],
                    allow_unused=True,
                    create_graph=create_graph,
                )
        except RuntimeError as exc:
            if info.kind != "custom":
                raise
            where, why = f"{NAMESPACE}/user/{self.name}.py", str(exc).strip().splitlines()[0]
            raise RuntimeError(
                f"{info.qualified_name}: no gradient through your eager math in {where} ({why}): write it in "
                "differentiable torch (torch operations on the tensors it is given: no numpy, .detach(), "
                ".item(), torch.no_grad() or in-place changes of its inputs)"
            ) from exc
        input_grads = [None] * len(args)
        for i, grad in zip(wanted, found):
            input_grads[i] = grad
        return tuple(input_grads)


# One argument a line, with the trailing comma that keeps ruff format from joining
# them: the schema's length depends on the spec, the layout must not.
@torch.library.custom_op(
    "norm_ops::my_norm",
    mutates_args=(),
    schema="(Tensor x) -> Tensor",
)
def _my_norm(x: torch.Tensor) -> torch.Tensor:
    return eager.my_norm(x)


@_my_norm.register_fake
def _my_norm_fake(x: torch.Tensor) -> torch.Tensor:
    _dtype = output_dtype("norm_ops::my_norm", x=x)
    return _new_outputs("norm_ops::my_norm", RULES["my_norm"], _dtype, x)[0]


# The gradient: that of the eager math (_Backward). `.out` has none: it writes in place.
_my_norm.register_autograd(
    _Backward("my_norm"),
    setup_context=_setup_context,
)


_lib.define(
    "my_norm.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)",
)


def _my_norm_out(x: torch.Tensor, *, out: torch.Tensor) -> torch.Tensor:
    # Locals start with "_": a spec name never does, so none shadows an input, param or output.
    _result = eager.my_norm(x)
    _result = (_result,)
    for _name, _out, _value in zip(
        ("out",),
        (out,),
        _result,
    ):
        if _out.shape != _value.shape:
            # The op's name on a line of its own: the next one has the same length for every op.
            _op = "norm_ops::my_norm"
            raise ValueError(f"{_op}.out: {_name} has shape {tuple(_out.shape)}, expected {tuple(_value.shape)}")
        _out.copy_(_value)
    return out


_lib.impl("my_norm.out", _my_norm_out, "CompositeExplicitAutograd")


def my_norm(x: torch.Tensor) -> torch.Tensor:
    """Normalizes the input to zero mean and unit variance.

    Calls `torch.ops.norm_ops.my_norm.default` with every param, so that
    an exported graph always carries them (ExecuTorch needs each one in the node).
    """
    return torch.ops.norm_ops.my_norm.default(x)


# One argument a line, with the trailing comma that keeps ruff format from joining
# them: the schema's length depends on the spec, the layout must not.
@torch.library.custom_op(
    "norm_ops::double_it",
    mutates_args=(),
    schema="(Tensor x) -> Tensor",
)
def _double_it(x: torch.Tensor) -> torch.Tensor:
    return eager.double_it(x)


@_double_it.register_fake
def _double_it_fake(x: torch.Tensor) -> torch.Tensor:
    _dtype = output_dtype("norm_ops::double_it", x=x)
    return _new_outputs("norm_ops::double_it", RULES["double_it"], _dtype, x)[0]


# The gradient: that of the eager math (_Backward). `.out` has none: it writes in place.
_double_it.register_autograd(
    _Backward("double_it"),
    setup_context=_setup_context,
)


_lib.define(
    "double_it.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)",
)


def _double_it_out(x: torch.Tensor, *, out: torch.Tensor) -> torch.Tensor:
    # Locals start with "_": a spec name never does, so none shadows an input, param or output.
    _result = eager.double_it(x)
    _result = (_result,)
    for _name, _out, _value in zip(
        ("out",),
        (out,),
        _result,
    ):
        if _out.shape != _value.shape:
            # The op's name on a line of its own: the next one has the same length for every op.
            _op = "norm_ops::double_it"
            raise ValueError(f"{_op}.out: {_name} has shape {tuple(_out.shape)}, expected {tuple(_value.shape)}")
        _out.copy_(_value)
    return out


_lib.impl("double_it.out", _double_it_out, "CompositeExplicitAutograd")


def double_it(x: torch.Tensor) -> torch.Tensor:
    """Doubles the input.

    Calls `torch.ops.norm_ops.double_it.default` with every param, so that
    an exported graph always carries them (ExecuTorch needs each one in the node).
    """
    return torch.ops.norm_ops.double_it.default(x)


OPS: tuple[OpInfo, ...] = (
    OpInfo(
        name="my_norm",
        qnn_type="MyNorm",
        kind="custom",
        inputs=("x",),
        params=(),
        schema="my_norm(Tensor x) -> Tensor",
        function=my_norm,
        outputs=("out",),
        output_rules=RULES["my_norm"],
        domains=((-2.0, 2.0),),
        param_spans=(),
        other_params=(),
    ),
    OpInfo(
        name="double_it",
        qnn_type="DoubleIt",
        kind="elementwise",
        inputs=("x",),
        params=(),
        schema="double_it(Tensor x) -> Tensor",
        function=double_it,
        outputs=("out",),
        output_rules=RULES["double_it"],
        domains=((-2.0, 2.0),),
        param_spans=(),
        other_params=(),
    ),
)
