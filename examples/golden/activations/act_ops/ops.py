# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Registration of every op of ActivationOpPackage with torch.library, and its public API.

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
    "act_ops::hard_swish_ish",
    mutates_args=(),
    schema="(Tensor x) -> Tensor",
)
def _hard_swish_ish(x: torch.Tensor) -> torch.Tensor:
    return eager.hard_swish_ish(x)


@_hard_swish_ish.register_fake
def _hard_swish_ish_fake(x: torch.Tensor) -> torch.Tensor:
    _dtype = output_dtype("act_ops::hard_swish_ish", x=x)
    return _new_outputs("act_ops::hard_swish_ish", RULES["hard_swish_ish"], _dtype, x)[0]


# The gradient: that of the eager math (_Backward). `.out` has none: it writes in place.
_hard_swish_ish.register_autograd(
    _Backward("hard_swish_ish"),
    setup_context=_setup_context,
)


_lib.define(
    "hard_swish_ish.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)",
)


def _hard_swish_ish_out(x: torch.Tensor, *, out: torch.Tensor) -> torch.Tensor:
    # Locals start with "_": a spec name never does, so none shadows an input, param or output.
    _result = eager.hard_swish_ish(x)
    _result = (_result,)
    for _name, _out, _value in zip(
        ("out",),
        (out,),
        _result,
    ):
        if _out.shape != _value.shape:
            # The op's name on a line of its own: the next one has the same length for every op.
            _op = "act_ops::hard_swish_ish"
            raise ValueError(f"{_op}.out: {_name} has shape {tuple(_out.shape)}, expected {tuple(_value.shape)}")
        _out.copy_(_value)
    return out


_lib.impl("hard_swish_ish.out", _hard_swish_ish_out, "CompositeExplicitAutograd")


def hard_swish_ish(x: torch.Tensor) -> torch.Tensor:
    """x times relu6(x + 3) / 6.

    Calls `torch.ops.act_ops.hard_swish_ish.default` with every param, so that
    an exported graph always carries them (ExecuTorch needs each one in the node).
    """
    return torch.ops.act_ops.hard_swish_ish.default(x)


# One argument a line, with the trailing comma that keeps ruff format from joining
# them: the schema's length depends on the spec, the layout must not.
@torch.library.custom_op(
    "act_ops::scaled_tanh",
    mutates_args=(),
    schema="(Tensor x, float gain, int shift) -> Tensor",
)
def _scaled_tanh(x: torch.Tensor, gain: float, shift: int) -> torch.Tensor:
    _check_int_params("act_ops::scaled_tanh", shift=shift)
    return eager.scaled_tanh(x, gain, shift)


@_scaled_tanh.register_fake
def _scaled_tanh_fake(x: torch.Tensor, gain: float, shift: int) -> torch.Tensor:
    _check_int_params("act_ops::scaled_tanh", shift=shift)
    _dtype = output_dtype("act_ops::scaled_tanh", x=x)
    return _new_outputs("act_ops::scaled_tanh", RULES["scaled_tanh"], _dtype, x)[0]


# The gradient: that of the eager math (_Backward). `.out` has none: it writes in place.
_scaled_tanh.register_autograd(
    _Backward("scaled_tanh"),
    setup_context=_setup_context,
)


_lib.define(
    "scaled_tanh.out(Tensor x, float gain, int shift, *, Tensor(a!) out) -> Tensor(a!)",
)


def _scaled_tanh_out(x: torch.Tensor, gain: float, shift: int, *, out: torch.Tensor) -> torch.Tensor:
    _check_int_params("act_ops::scaled_tanh", shift=shift)
    # Locals start with "_": a spec name never does, so none shadows an input, param or output.
    _result = eager.scaled_tanh(x, gain, shift)
    _result = (_result,)
    for _name, _out, _value in zip(
        ("out",),
        (out,),
        _result,
    ):
        if _out.shape != _value.shape:
            # The op's name on a line of its own: the next one has the same length for every op.
            _op = "act_ops::scaled_tanh"
            raise ValueError(f"{_op}.out: {_name} has shape {tuple(_out.shape)}, expected {tuple(_value.shape)}")
        _out.copy_(_value)
    return out


_lib.impl("scaled_tanh.out", _scaled_tanh_out, "CompositeExplicitAutograd")


def scaled_tanh(x: torch.Tensor, gain: float = 2.0, shift: int = 1) -> torch.Tensor:
    """Scaled and shifted tanh.

    Calls `torch.ops.act_ops.scaled_tanh.default` with every param, so that
    an exported graph always carries them (ExecuTorch needs each one in the node).
    """
    return torch.ops.act_ops.scaled_tanh.default(x, gain, shift)


# `torch.ops.act_ops.scaled_tanh(x)` without params: the public function fills in the
# defaults. Defined after `.out`: the other order makes torch 2.13 abort at interpreter
# exit while it deregisters the overloads ("Tried to access the schema for .defaults").
_lib.define(
    "scaled_tanh.defaults(Tensor x, float gain=2.0, int shift=1) -> Tensor",
)
_lib.impl("scaled_tanh.defaults", scaled_tanh, "CompositeImplicitAutograd")


# One argument a line, with the trailing comma that keeps ruff format from joining
# them: the schema's length depends on the spec, the layout must not.
@torch.library.custom_op(
    "act_ops::add_scaled",
    mutates_args=(),
    schema="(Tensor a, Tensor b, float alpha) -> Tensor",
)
def _add_scaled(a: torch.Tensor, b: torch.Tensor, alpha: float) -> torch.Tensor:
    return eager.add_scaled(a, b, alpha)


@_add_scaled.register_fake
def _add_scaled_fake(a: torch.Tensor, b: torch.Tensor, alpha: float) -> torch.Tensor:
    _dtype = output_dtype("act_ops::add_scaled", a=a, b=b)
    return _new_outputs("act_ops::add_scaled", RULES["add_scaled"], _dtype, a, b)[0]


# The gradient: that of the eager math (_Backward). `.out` has none: it writes in place.
_add_scaled.register_autograd(
    _Backward("add_scaled"),
    setup_context=_setup_context,
)


_lib.define(
    "add_scaled.out(Tensor a, Tensor b, float alpha, *, Tensor(a!) out) -> Tensor(a!)",
)


def _add_scaled_out(a: torch.Tensor, b: torch.Tensor, alpha: float, *, out: torch.Tensor) -> torch.Tensor:
    # Locals start with "_": a spec name never does, so none shadows an input, param or output.
    _result = eager.add_scaled(a, b, alpha)
    _result = (_result,)
    for _name, _out, _value in zip(
        ("out",),
        (out,),
        _result,
    ):
        if _out.shape != _value.shape:
            # The op's name on a line of its own: the next one has the same length for every op.
            _op = "act_ops::add_scaled"
            raise ValueError(f"{_op}.out: {_name} has shape {tuple(_out.shape)}, expected {tuple(_value.shape)}")
        _out.copy_(_value)
    return out


_lib.impl("add_scaled.out", _add_scaled_out, "CompositeExplicitAutograd")


def add_scaled(a: torch.Tensor, b: torch.Tensor, alpha: float = 0.5) -> torch.Tensor:
    """a + alpha * b.

    Calls `torch.ops.act_ops.add_scaled.default` with every param, so that
    an exported graph always carries them (ExecuTorch needs each one in the node).
    """
    return torch.ops.act_ops.add_scaled.default(a, b, alpha)


# `torch.ops.act_ops.add_scaled(x)` without params: the public function fills in the
# defaults. Defined after `.out`: the other order makes torch 2.13 abort at interpreter
# exit while it deregisters the overloads ("Tried to access the schema for .defaults").
_lib.define(
    "add_scaled.defaults(Tensor a, Tensor b, float alpha=0.5) -> Tensor",
)
_lib.impl("add_scaled.defaults", add_scaled, "CompositeImplicitAutograd")


# One argument a line, with the trailing comma that keeps ruff format from joining
# them: the schema's length depends on the spec, the layout must not.
@torch.library.custom_op(
    "act_ops::soft_min",
    mutates_args=(),
    schema="(Tensor a, Tensor b) -> Tensor",
)
def _soft_min(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return eager.soft_min(a, b)


@_soft_min.register_fake
def _soft_min_fake(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    _dtype = output_dtype("act_ops::soft_min", a=a, b=b)
    return _new_outputs("act_ops::soft_min", RULES["soft_min"], _dtype, a, b)[0]


# The gradient: that of the eager math (_Backward). `.out` has none: it writes in place.
_soft_min.register_autograd(
    _Backward("soft_min"),
    setup_context=_setup_context,
)


_lib.define(
    "soft_min.out(Tensor a, Tensor b, *, Tensor(a!) out) -> Tensor(a!)",
)


def _soft_min_out(a: torch.Tensor, b: torch.Tensor, *, out: torch.Tensor) -> torch.Tensor:
    # Locals start with "_": a spec name never does, so none shadows an input, param or output.
    _result = eager.soft_min(a, b)
    _result = (_result,)
    for _name, _out, _value in zip(
        ("out",),
        (out,),
        _result,
    ):
        if _out.shape != _value.shape:
            # The op's name on a line of its own: the next one has the same length for every op.
            _op = "act_ops::soft_min"
            raise ValueError(f"{_op}.out: {_name} has shape {tuple(_out.shape)}, expected {tuple(_value.shape)}")
        _out.copy_(_value)
    return out


_lib.impl("soft_min.out", _soft_min_out, "CompositeExplicitAutograd")


def soft_min(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """The smaller of two inputs, softened by a sigmoid gate.

    Calls `torch.ops.act_ops.soft_min.default` with every param, so that
    an exported graph always carries them (ExecuTorch needs each one in the node).
    """
    return torch.ops.act_ops.soft_min.default(a, b)


# One argument a line, with the trailing comma that keeps ruff format from joining
# them: the schema's length depends on the spec, the layout must not.
@torch.library.custom_op(
    "act_ops::fake_quant",
    mutates_args=(),
    schema="(Tensor x, int steps, float limit) -> Tensor",
)
def _fake_quant(x: torch.Tensor, steps: int, limit: float) -> torch.Tensor:
    _check_int_params("act_ops::fake_quant", steps=steps)
    return eager.fake_quant(x, steps, limit)


@_fake_quant.register_fake
def _fake_quant_fake(x: torch.Tensor, steps: int, limit: float) -> torch.Tensor:
    _check_int_params("act_ops::fake_quant", steps=steps)
    _dtype = output_dtype("act_ops::fake_quant", x=x)
    return _new_outputs("act_ops::fake_quant", RULES["fake_quant"], _dtype, x)[0]


# The gradient: that of the eager math (_Backward). `.out` has none: it writes in place.
_fake_quant.register_autograd(
    _Backward("fake_quant"),
    setup_context=_setup_context,
)


_lib.define(
    "fake_quant.out(Tensor x, int steps, float limit, *, Tensor(a!) out) -> Tensor(a!)",
)


def _fake_quant_out(x: torch.Tensor, steps: int, limit: float, *, out: torch.Tensor) -> torch.Tensor:
    _check_int_params("act_ops::fake_quant", steps=steps)
    # Locals start with "_": a spec name never does, so none shadows an input, param or output.
    _result = eager.fake_quant(x, steps, limit)
    _result = (_result,)
    for _name, _out, _value in zip(
        ("out",),
        (out,),
        _result,
    ):
        if _out.shape != _value.shape:
            # The op's name on a line of its own: the next one has the same length for every op.
            _op = "act_ops::fake_quant"
            raise ValueError(f"{_op}.out: {_name} has shape {tuple(_out.shape)}, expected {tuple(_value.shape)}")
        _out.copy_(_value)
    return out


_lib.impl("fake_quant.out", _fake_quant_out, "CompositeExplicitAutograd")


def fake_quant(x: torch.Tensor, steps: int = 4, limit: float = 1.5) -> torch.Tensor:
    """x on a grid of 1 / steps (round half to even, as torch.round), clamped to [-limit, limit].

    Calls `torch.ops.act_ops.fake_quant.default` with every param, so that
    an exported graph always carries them (ExecuTorch needs each one in the node).
    """
    return torch.ops.act_ops.fake_quant.default(x, steps, limit)


# `torch.ops.act_ops.fake_quant(x)` without params: the public function fills in the
# defaults. Defined after `.out`: the other order makes torch 2.13 abort at interpreter
# exit while it deregisters the overloads ("Tried to access the schema for .defaults").
_lib.define(
    "fake_quant.defaults(Tensor x, int steps=4, float limit=1.5) -> Tensor",
)
_lib.impl("fake_quant.defaults", fake_quant, "CompositeImplicitAutograd")


# One argument a line, with the trailing comma that keeps ruff format from joining
# them: the schema's length depends on the spec, the layout must not.
@torch.library.custom_op(
    "act_ops::pick_floor",
    mutates_args=(),
    schema="(Tensor a, Tensor b) -> Tensor",
)
def _pick_floor(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return eager.pick_floor(a, b)


@_pick_floor.register_fake
def _pick_floor_fake(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    _dtype = output_dtype("act_ops::pick_floor", a=a, b=b)
    return _new_outputs("act_ops::pick_floor", RULES["pick_floor"], _dtype, a, b)[0]


# The gradient: that of the eager math (_Backward). `.out` has none: it writes in place.
_pick_floor.register_autograd(
    _Backward("pick_floor"),
    setup_context=_setup_context,
)


_lib.define(
    "pick_floor.out(Tensor a, Tensor b, *, Tensor(a!) out) -> Tensor(a!)",
)


def _pick_floor_out(a: torch.Tensor, b: torch.Tensor, *, out: torch.Tensor) -> torch.Tensor:
    # Locals start with "_": a spec name never does, so none shadows an input, param or output.
    _result = eager.pick_floor(a, b)
    _result = (_result,)
    for _name, _out, _value in zip(
        ("out",),
        (out,),
        _result,
    ):
        if _out.shape != _value.shape:
            # The op's name on a line of its own: the next one has the same length for every op.
            _op = "act_ops::pick_floor"
            raise ValueError(f"{_op}.out: {_name} has shape {tuple(_out.shape)}, expected {tuple(_value.shape)}")
        _out.copy_(_value)
    return out


_lib.impl("pick_floor.out", _pick_floor_out, "CompositeExplicitAutograd")


def pick_floor(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """floor(a) where a >= b, else ceil(b); plus the sign of a - b.

    Calls `torch.ops.act_ops.pick_floor.default` with every param, so that
    an exported graph always carries them (ExecuTorch needs each one in the node).
    """
    return torch.ops.act_ops.pick_floor.default(a, b)


# One argument a line, with the trailing comma that keeps ruff format from joining
# them: the schema's length depends on the spec, the layout must not.
@torch.library.custom_op(
    "act_ops::power_compress",
    mutates_args=(),
    schema="(Tensor x, float eps, float p) -> Tensor",
)
def _power_compress(x: torch.Tensor, eps: float, p: float) -> torch.Tensor:
    return eager.power_compress(x, eps, p)


@_power_compress.register_fake
def _power_compress_fake(x: torch.Tensor, eps: float, p: float) -> torch.Tensor:
    _dtype = output_dtype("act_ops::power_compress", x=x)
    return _new_outputs("act_ops::power_compress", RULES["power_compress"], _dtype, x)[0]


# The gradient: that of the eager math (_Backward). `.out` has none: it writes in place.
_power_compress.register_autograd(
    _Backward("power_compress"),
    setup_context=_setup_context,
)


_lib.define(
    "power_compress.out(Tensor x, float eps, float p, *, Tensor(a!) out) -> Tensor(a!)",
)


def _power_compress_out(x: torch.Tensor, eps: float, p: float, *, out: torch.Tensor) -> torch.Tensor:
    # Locals start with "_": a spec name never does, so none shadows an input, param or output.
    _result = eager.power_compress(x, eps, p)
    _result = (_result,)
    for _name, _out, _value in zip(
        ("out",),
        (out,),
        _result,
    ):
        if _out.shape != _value.shape:
            # The op's name on a line of its own: the next one has the same length for every op.
            _op = "act_ops::power_compress"
            raise ValueError(f"{_op}.out: {_name} has shape {tuple(_out.shape)}, expected {tuple(_value.shape)}")
        _out.copy_(_value)
    return out


_lib.impl("power_compress.out", _power_compress_out, "CompositeExplicitAutograd")


def power_compress(x: torch.Tensor, eps: float = 1e-06, p: float = 0.3) -> torch.Tensor:
    """Power-law compression of a magnitude, (|x| + eps) ** p, as in PCEN front ends.

    Calls `torch.ops.act_ops.power_compress.default` with every param, so that
    an exported graph always carries them (ExecuTorch needs each one in the node).
    """
    return torch.ops.act_ops.power_compress.default(x, eps, p)


# `torch.ops.act_ops.power_compress(x)` without params: the public function fills in the
# defaults. Defined after `.out`: the other order makes torch 2.13 abort at interpreter
# exit while it deregisters the overloads ("Tried to access the schema for .defaults").
_lib.define(
    "power_compress.defaults(Tensor x, float eps=1e-06, float p=0.3) -> Tensor",
)
_lib.impl("power_compress.defaults", power_compress, "CompositeImplicitAutograd")


OPS: tuple[OpInfo, ...] = (
    OpInfo(
        name="hard_swish_ish",
        qnn_type="HardSwishIsh",
        kind="elementwise",
        inputs=("x",),
        params=(),
        schema="hard_swish_ish(Tensor x) -> Tensor",
        function=hard_swish_ish,
        outputs=("out",),
        output_rules=RULES["hard_swish_ish"],
        domains=((-2.0, 2.0),),
        param_spans=(),
        other_params=(),
    ),
    OpInfo(
        name="scaled_tanh",
        qnn_type="ScaledTanh",
        kind="elementwise",
        inputs=("x",),
        params=(("gain", "float", 2.0), ("shift", "int", 1)),
        schema="scaled_tanh(Tensor x, float gain, int shift) -> Tensor",
        function=scaled_tanh,
        outputs=("out",),
        output_rules=RULES["scaled_tanh"],
        domains=((-2.0, 2.0),),
        param_spans=((0.6666666666666666, 6.0), (0, 6)),
        other_params=(4.0, 2),
    ),
    OpInfo(
        name="add_scaled",
        qnn_type="AddScaled",
        kind="elementwise",
        inputs=("a", "b"),
        params=(("alpha", "float", 0.5),),
        schema="add_scaled(Tensor a, Tensor b, float alpha) -> Tensor",
        function=add_scaled,
        outputs=("out",),
        output_rules=RULES["add_scaled"],
        domains=((-2.0, 2.0), (-2.0, 2.0)),
        param_spans=((0.16666666666666666, 1.5),),
        other_params=(1.0,),
    ),
    OpInfo(
        name="soft_min",
        qnn_type="SoftMin",
        kind="elementwise",
        inputs=("a", "b"),
        params=(),
        schema="soft_min(Tensor a, Tensor b) -> Tensor",
        function=soft_min,
        outputs=("out",),
        output_rules=RULES["soft_min"],
        domains=((-2.0, 2.0), (-2.0, 2.0)),
        param_spans=(),
        other_params=(),
    ),
    OpInfo(
        name="fake_quant",
        qnn_type="FakeQuant",
        kind="elementwise",
        inputs=("x",),
        params=(("steps", "int", 4), ("limit", "float", 1.5)),
        schema="fake_quant(Tensor x, int steps, float limit) -> Tensor",
        function=fake_quant,
        outputs=("out",),
        output_rules=RULES["fake_quant"],
        domains=((-2.0, 2.0),),
        param_spans=((2, 12), (0.5, 4.5)),
        other_params=(5, 3.0),
    ),
    OpInfo(
        name="pick_floor",
        qnn_type="PickFloor",
        kind="elementwise",
        inputs=("a", "b"),
        params=(),
        schema="pick_floor(Tensor a, Tensor b) -> Tensor",
        function=pick_floor,
        outputs=("out",),
        output_rules=RULES["pick_floor"],
        domains=((-2.0, 2.0), (-2.0, 2.0)),
        param_spans=(),
        other_params=(),
    ),
    OpInfo(
        name="power_compress",
        qnn_type="PowerCompress",
        kind="elementwise",
        inputs=("x",),
        params=(("eps", "float", 1e-06), ("p", "float", 0.3)),
        schema="power_compress(Tensor x, float eps, float p) -> Tensor",
        function=power_compress,
        outputs=("out",),
        output_rules=RULES["power_compress"],
        domains=((-2.0, 2.0),),
        param_spans=((3.333333333333333e-07, 3e-06), (0.09999999999999999, 0.8999999999999999)),
        other_params=(2e-06, 0.6),
    ),
)
