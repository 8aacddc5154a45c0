# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Registration of every op of ShapesOpPackage with torch.library, and its public API.

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
    "shape_ops::add_bias",
    mutates_args=(),
    schema="(Tensor x, Tensor bias) -> Tensor",
)
def _add_bias(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return eager.add_bias(x, bias)


@_add_bias.register_fake
def _add_bias_fake(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    _dtype = output_dtype("shape_ops::add_bias", x=x, bias=bias)
    return _new_outputs("shape_ops::add_bias", RULES["add_bias"], _dtype, x, bias)[0]


# The gradient: that of the eager math (_Backward). `.out` has none: it writes in place.
_add_bias.register_autograd(
    _Backward("add_bias"),
    setup_context=_setup_context,
)


_lib.define(
    "add_bias.out(Tensor x, Tensor bias, *, Tensor(a!) out) -> Tensor(a!)",
)


def _add_bias_out(x: torch.Tensor, bias: torch.Tensor, *, out: torch.Tensor) -> torch.Tensor:
    # Locals start with "_": a spec name never does, so none shadows an input, param or output.
    _result = eager.add_bias(x, bias)
    _result = (_result,)
    for _name, _out, _value in zip(
        ("out",),
        (out,),
        _result,
    ):
        if _out.shape != _value.shape:
            # The op's name on a line of its own: the next one has the same length for every op.
            _op = "shape_ops::add_bias"
            raise ValueError(f"{_op}.out: {_name} has shape {tuple(_out.shape)}, expected {tuple(_value.shape)}")
        _out.copy_(_value)
    return out


_lib.impl("add_bias.out", _add_bias_out, "CompositeExplicitAutograd")


def add_bias(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """x plus a bias that broadcasts like torch, e.g. a per-channel (1, C, 1, 1) bias.

    Calls `torch.ops.shape_ops.add_bias.default` with every param, so that
    an exported graph always carries them (ExecuTorch needs each one in the node).
    """
    return torch.ops.shape_ops.add_bias.default(x, bias)


# One argument a line, with the trailing comma that keeps ruff format from joining
# them: the schema's length depends on the spec, the layout must not.
@torch.library.custom_op(
    "shape_ops::fma3",
    mutates_args=(),
    schema="(Tensor a, Tensor b, Tensor c) -> Tensor",
)
def _fma3(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
    return eager.fma3(a, b, c)


@_fma3.register_fake
def _fma3_fake(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
    _dtype = output_dtype("shape_ops::fma3", a=a, b=b, c=c)
    return _new_outputs("shape_ops::fma3", RULES["fma3"], _dtype, a, b, c)[0]


# The gradient: that of the eager math (_Backward). `.out` has none: it writes in place.
_fma3.register_autograd(
    _Backward("fma3"),
    setup_context=_setup_context,
)


_lib.define(
    "fma3.out(Tensor a, Tensor b, Tensor c, *, Tensor(a!) out) -> Tensor(a!)",
)


def _fma3_out(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, *, out: torch.Tensor) -> torch.Tensor:
    # Locals start with "_": a spec name never does, so none shadows an input, param or output.
    _result = eager.fma3(a, b, c)
    _result = (_result,)
    for _name, _out, _value in zip(
        ("out",),
        (out,),
        _result,
    ):
        if _out.shape != _value.shape:
            # The op's name on a line of its own: the next one has the same length for every op.
            _op = "shape_ops::fma3"
            raise ValueError(f"{_op}.out: {_name} has shape {tuple(_out.shape)}, expected {tuple(_value.shape)}")
        _out.copy_(_value)
    return out


_lib.impl("fma3.out", _fma3_out, "CompositeExplicitAutograd")


def fma3(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
    """a * b + c, the three inputs broadcasting together.

    Calls `torch.ops.shape_ops.fma3.default` with every param, so that
    an exported graph always carries them (ExecuTorch needs each one in the node).
    """
    return torch.ops.shape_ops.fma3.default(a, b, c)


# One argument a line, with the trailing comma that keeps ruff format from joining
# them: the schema's length depends on the spec, the layout must not.
@torch.library.custom_op(
    "shape_ops::channel_mean",
    mutates_args=(),
    schema="(Tensor x) -> Tensor",
)
def _channel_mean(x: torch.Tensor) -> torch.Tensor:
    return eager.channel_mean(x)


@_channel_mean.register_fake
def _channel_mean_fake(x: torch.Tensor) -> torch.Tensor:
    _dtype = output_dtype("shape_ops::channel_mean", x=x)
    return _new_outputs("shape_ops::channel_mean", RULES["channel_mean"], _dtype, x)[0]


# The gradient: that of the eager math (_Backward). `.out` has none: it writes in place.
_channel_mean.register_autograd(
    _Backward("channel_mean"),
    setup_context=_setup_context,
)


_lib.define(
    "channel_mean.out(Tensor x, *, Tensor(a!) mean) -> Tensor(a!)",
)


def _channel_mean_out(x: torch.Tensor, *, mean: torch.Tensor) -> torch.Tensor:
    # Locals start with "_": a spec name never does, so none shadows an input, param or output.
    _result = eager.channel_mean(x)
    _result = (_result,)
    for _name, _out, _value in zip(
        ("mean",),
        (mean,),
        _result,
    ):
        if _out.shape != _value.shape:
            # The op's name on a line of its own: the next one has the same length for every op.
            _op = "shape_ops::channel_mean"
            raise ValueError(f"{_op}.out: {_name} has shape {tuple(_out.shape)}, expected {tuple(_value.shape)}")
        _out.copy_(_value)
    return mean


_lib.impl("channel_mean.out", _channel_mean_out, "CompositeExplicitAutograd")


def channel_mean(x: torch.Tensor) -> torch.Tensor:
    """The mean over dim 1 (channels), kept as a dim of 1.

    Calls `torch.ops.shape_ops.channel_mean.default` with every param, so that
    an exported graph always carries them (ExecuTorch needs each one in the node).
    """
    return torch.ops.shape_ops.channel_mean.default(x)


# One argument a line, with the trailing comma that keeps ruff format from joining
# them: the schema's length depends on the spec, the layout must not.
@torch.library.custom_op(
    "shape_ops::center",
    mutates_args=(),
    schema="(Tensor x, float scale, bool subtract) -> (Tensor, Tensor)",
)
def _center(x: torch.Tensor, scale: float, subtract: bool) -> tuple[torch.Tensor, torch.Tensor]:
    return eager.center(x, scale, subtract)


@_center.register_fake
def _center_fake(x: torch.Tensor, scale: float, subtract: bool) -> tuple[torch.Tensor, torch.Tensor]:
    _dtype = output_dtype("shape_ops::center", x=x)
    return _new_outputs("shape_ops::center", RULES["center"], _dtype, x)


# The gradient: that of the eager math (_Backward). `.out` has none: it writes in place.
_center.register_autograd(
    _Backward("center"),
    setup_context=_setup_context,
)


_lib.define(
    "center.out(Tensor x, float scale, bool subtract, *, Tensor(a!) mean, Tensor(b!) centered) -> (Tensor(a!), Tensor(b!))",
)


def _center_out(
    x: torch.Tensor, scale: float, subtract: bool, *, mean: torch.Tensor, centered: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    # Locals start with "_": a spec name never does, so none shadows an input, param or output.
    _result = eager.center(x, scale, subtract)
    for _name, _out, _value in zip(
        ("mean", "centered"),
        (mean, centered),
        _result,
    ):
        if _out.shape != _value.shape:
            # The op's name on a line of its own: the next one has the same length for every op.
            _op = "shape_ops::center"
            raise ValueError(f"{_op}.out: {_name} has shape {tuple(_out.shape)}, expected {tuple(_value.shape)}")
        _out.copy_(_value)
    return (mean, centered)


_lib.impl("center.out", _center_out, "CompositeExplicitAutograd")


def center(x: torch.Tensor, scale: float = 1.0, subtract: bool = True) -> tuple[torch.Tensor, torch.Tensor]:
    """The mean over the last dim, and x minus it (unless not subtract), scaled.

    Calls `torch.ops.shape_ops.center.default` with every param, so that
    an exported graph always carries them (ExecuTorch needs each one in the node).
    """
    return torch.ops.shape_ops.center.default(x, scale, subtract)


# `torch.ops.shape_ops.center(x)` without params: the public function fills in the
# defaults. Defined after `.out`: the other order makes torch 2.13 abort at interpreter
# exit while it deregisters the overloads ("Tried to access the schema for .defaults").
_lib.define(
    "center.defaults(Tensor x, float scale=1.0, bool subtract=True) -> (Tensor, Tensor)",
)
_lib.impl("center.defaults", center, "CompositeImplicitAutograd")


# One argument a line, with the trailing comma that keeps ruff format from joining
# them: the schema's length depends on the spec, the layout must not.
@torch.library.custom_op(
    "shape_ops::rms_norm",
    mutates_args=(),
    schema="(Tensor x, float eps) -> Tensor",
)
def _rms_norm(x: torch.Tensor, eps: float) -> torch.Tensor:
    return eager.rms_norm(x, eps)


@_rms_norm.register_fake
def _rms_norm_fake(x: torch.Tensor, eps: float) -> torch.Tensor:
    _dtype = output_dtype("shape_ops::rms_norm", x=x)
    return _new_outputs("shape_ops::rms_norm", RULES["rms_norm"], _dtype, x)[0]


# The gradient: that of the eager math (_Backward). `.out` has none: it writes in place.
_rms_norm.register_autograd(
    _Backward("rms_norm"),
    setup_context=_setup_context,
)


_lib.define(
    "rms_norm.out(Tensor x, float eps, *, Tensor(a!) y) -> Tensor(a!)",
)


def _rms_norm_out(x: torch.Tensor, eps: float, *, y: torch.Tensor) -> torch.Tensor:
    # Locals start with "_": a spec name never does, so none shadows an input, param or output.
    _result = eager.rms_norm(x, eps)
    _result = (_result,)
    for _name, _out, _value in zip(
        ("y",),
        (y,),
        _result,
    ):
        if _out.shape != _value.shape:
            # The op's name on a line of its own: the next one has the same length for every op.
            _op = "shape_ops::rms_norm"
            raise ValueError(f"{_op}.out: {_name} has shape {tuple(_out.shape)}, expected {tuple(_value.shape)}")
        _out.copy_(_value)
    return y


_lib.impl("rms_norm.out", _rms_norm_out, "CompositeExplicitAutograd")


def rms_norm(x: torch.Tensor, eps: float = 1e-06) -> torch.Tensor:
    """x divided by the root mean square of its last dim; one row at a time, no scratch.

    Calls `torch.ops.shape_ops.rms_norm.default` with every param, so that
    an exported graph always carries them (ExecuTorch needs each one in the node).
    """
    return torch.ops.shape_ops.rms_norm.default(x, eps)


# `torch.ops.shape_ops.rms_norm(x)` without params: the public function fills in the
# defaults. Defined after `.out`: the other order makes torch 2.13 abort at interpreter
# exit while it deregisters the overloads ("Tried to access the schema for .defaults").
_lib.define(
    "rms_norm.defaults(Tensor x, float eps=1e-06) -> Tensor",
)
_lib.impl("rms_norm.defaults", rms_norm, "CompositeImplicitAutograd")


# One argument a line, with the trailing comma that keeps ruff format from joining
# them: the schema's length depends on the spec, the layout must not.
@torch.library.custom_op(
    "shape_ops::pcen",
    mutates_args=(),
    schema="(Tensor x, Tensor state, float smooth, float eps) -> (Tensor, Tensor)",
)
def _pcen(x: torch.Tensor, state: torch.Tensor, smooth: float, eps: float) -> tuple[torch.Tensor, torch.Tensor]:
    return eager.pcen(x, state, smooth, eps)


@_pcen.register_fake
def _pcen_fake(x: torch.Tensor, state: torch.Tensor, smooth: float, eps: float) -> tuple[torch.Tensor, torch.Tensor]:
    _dtype = output_dtype("shape_ops::pcen", x=x, state=state)
    return _new_outputs("shape_ops::pcen", RULES["pcen"], _dtype, x, state)


# The gradient: that of the eager math (_Backward). `.out` has none: it writes in place.
_pcen.register_autograd(
    _Backward("pcen"),
    setup_context=_setup_context,
)


_lib.define(
    "pcen.out(Tensor x, Tensor state, float smooth, float eps, *, Tensor(a!) y, Tensor(b!) new_state) -> (Tensor(a!), Tensor(b!))",
)


def _pcen_out(
    x: torch.Tensor, state: torch.Tensor, smooth: float, eps: float, *, y: torch.Tensor, new_state: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    # Locals start with "_": a spec name never does, so none shadows an input, param or output.
    _result = eager.pcen(x, state, smooth, eps)
    for _name, _out, _value in zip(
        ("y", "new_state"),
        (y, new_state),
        _result,
    ):
        if _out.shape != _value.shape:
            # The op's name on a line of its own: the next one has the same length for every op.
            _op = "shape_ops::pcen"
            raise ValueError(f"{_op}.out: {_name} has shape {tuple(_out.shape)}, expected {tuple(_value.shape)}")
        _out.copy_(_value)
    return (y, new_state)


_lib.impl("pcen.out", _pcen_out, "CompositeExplicitAutograd")


def pcen(
    x: torch.Tensor, state: torch.Tensor, smooth: float = 0.25, eps: float = 1e-06
) -> tuple[torch.Tensor, torch.Tensor]:
    """Streaming PCEN-like smoothing over the last dim (time), from a state in and to a state out.

    Calls `torch.ops.shape_ops.pcen.default` with every param, so that
    an exported graph always carries them (ExecuTorch needs each one in the node).
    """
    return torch.ops.shape_ops.pcen.default(x, state, smooth, eps)


# `torch.ops.shape_ops.pcen(x)` without params: the public function fills in the
# defaults. Defined after `.out`: the other order makes torch 2.13 abort at interpreter
# exit while it deregisters the overloads ("Tried to access the schema for .defaults").
_lib.define(
    "pcen.defaults(Tensor x, Tensor state, float smooth=0.25, float eps=1e-06) -> (Tensor, Tensor)",
)
_lib.impl("pcen.defaults", pcen, "CompositeImplicitAutograd")


OPS: tuple[OpInfo, ...] = (
    OpInfo(
        name="add_bias",
        qnn_type="AddBias",
        kind="elementwise",
        inputs=("x", "bias"),
        params=(),
        schema="add_bias(Tensor x, Tensor bias) -> Tensor",
        function=add_bias,
        outputs=("out",),
        output_rules=RULES["add_bias"],
        domains=((-2.0, 2.0), (-2.0, 2.0)),
        param_spans=(),
        other_params=(),
    ),
    OpInfo(
        name="fma3",
        qnn_type="Fma3",
        kind="elementwise",
        inputs=("a", "b", "c"),
        params=(),
        schema="fma3(Tensor a, Tensor b, Tensor c) -> Tensor",
        function=fma3,
        outputs=("out",),
        output_rules=RULES["fma3"],
        domains=((-2.0, 2.0), (-2.0, 2.0), (-2.0, 2.0)),
        param_spans=(),
        other_params=(),
    ),
    OpInfo(
        name="channel_mean",
        qnn_type="ChannelMean",
        kind="custom",
        inputs=("x",),
        params=(),
        schema="channel_mean(Tensor x) -> Tensor",
        function=channel_mean,
        outputs=("mean",),
        output_rules=RULES["channel_mean"],
        domains=((-2.0, 2.0),),
        param_spans=(),
        other_params=(),
    ),
    OpInfo(
        name="center",
        qnn_type="Center",
        kind="custom",
        inputs=("x",),
        params=(("scale", "float", 1.0), ("subtract", "bool", True)),
        schema="center(Tensor x, float scale, bool subtract) -> (Tensor, Tensor)",
        function=center,
        outputs=("mean", "centered"),
        output_rules=RULES["center"],
        domains=((-2.0, 2.0),),
        param_spans=(None, (False, True)),
        other_params=(1.0, False),
    ),
    OpInfo(
        name="rms_norm",
        qnn_type="RmsNorm",
        kind="custom",
        inputs=("x",),
        params=(("eps", "float", 1e-06),),
        schema="rms_norm(Tensor x, float eps) -> Tensor",
        function=rms_norm,
        outputs=("y",),
        output_rules=RULES["rms_norm"],
        domains=((-2.0, 2.0),),
        param_spans=(None,),
        other_params=(1e-06,),
    ),
    OpInfo(
        name="pcen",
        qnn_type="Pcen",
        kind="custom",
        inputs=("x", "state"),
        params=(("smooth", "float", 0.25), ("eps", "float", 1e-06)),
        schema="pcen(Tensor x, Tensor state, float smooth, float eps) -> (Tensor, Tensor)",
        function=pcen,
        outputs=("y", "new_state"),
        output_rules=RULES["pcen"],
        domains=((-2.0, 2.0), (-2.0, 2.0)),
        param_spans=(None, None),
        other_params=(0.25, 1e-06),
    ),
)
