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
  (`to_executorch` raises "Missing out variants" otherwise); its keyword is `out`,
  exactly as in the schema, so that calling it eagerly works.
- the public function `<ns>.<op>(inputs..., params...)`, with the spec's defaults,
  which always calls `.default` with every param.
The math lives in eager.py (generated) or user/ (yours).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch

from . import eager
from ._package import NAMESPACE

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

    def __call__(self, *args, **kwargs) -> torch.Tensor:
        return self.function(*args, **kwargs)


def _check_int_params(op: str, **values: int) -> None:
    # Refused here (eager, fake and `.out` alike) rather than deep inside lowering.
    for name, value in values.items():
        if not 0 <= value <= UINT32_MAX:
            raise ValueError(
                f"{op}: param {name} must be in [0, {UINT32_MAX}], got {value}: "
                "ExecuTorch sends int params to QNN as UINT_32"
            )


@torch.library.custom_op("act_ops::hard_swish_ish", mutates_args=(), schema="(Tensor x) -> Tensor")
def _hard_swish_ish(x: torch.Tensor) -> torch.Tensor:
    return eager.hard_swish_ish(x)


@_hard_swish_ish.register_fake
def _hard_swish_ish_fake(x: torch.Tensor) -> torch.Tensor:
    return torch.empty_like(x)


_lib.define("hard_swish_ish.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)")


def _hard_swish_ish_out(x: torch.Tensor, *, out: torch.Tensor) -> torch.Tensor:
    result = eager.hard_swish_ish(x)
    if out.shape != result.shape:
        raise ValueError(
            f"act_ops::hard_swish_ish.out: out has shape {tuple(out.shape)}, expected {tuple(result.shape)}",
        )
    out.copy_(result)
    return out


_lib.impl("hard_swish_ish.out", _hard_swish_ish_out, "CompositeExplicitAutograd")


def hard_swish_ish(x: torch.Tensor) -> torch.Tensor:
    """x times relu6(x + 3) / 6.

    Calls `torch.ops.act_ops.hard_swish_ish.default` with every param, so that
    an exported graph always carries them (ExecuTorch needs each one in the node).
    """
    return torch.ops.act_ops.hard_swish_ish.default(x)


@torch.library.custom_op("act_ops::scaled_tanh", mutates_args=(), schema="(Tensor x, float gain, int shift) -> Tensor")
def _scaled_tanh(x: torch.Tensor, gain: float, shift: int) -> torch.Tensor:
    _check_int_params("act_ops::scaled_tanh", shift=shift)
    return eager.scaled_tanh(x, gain, shift)


@_scaled_tanh.register_fake
def _scaled_tanh_fake(x: torch.Tensor, gain: float, shift: int) -> torch.Tensor:
    _check_int_params("act_ops::scaled_tanh", shift=shift)
    return torch.empty_like(x)


_lib.define("scaled_tanh.out(Tensor x, float gain, int shift, *, Tensor(a!) out) -> Tensor(a!)")


def _scaled_tanh_out(x: torch.Tensor, gain: float, shift: int, *, out: torch.Tensor) -> torch.Tensor:
    _check_int_params("act_ops::scaled_tanh", shift=shift)
    result = eager.scaled_tanh(x, gain, shift)
    if out.shape != result.shape:
        raise ValueError(
            f"act_ops::scaled_tanh.out: out has shape {tuple(out.shape)}, expected {tuple(result.shape)}",
        )
    out.copy_(result)
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
_lib.define("scaled_tanh.defaults(Tensor x, float gain=2.0, int shift=1) -> Tensor")
_lib.impl("scaled_tanh.defaults", scaled_tanh, "CompositeImplicitAutograd")


@torch.library.custom_op("act_ops::add_scaled", mutates_args=(), schema="(Tensor a, Tensor b, float alpha) -> Tensor")
def _add_scaled(a: torch.Tensor, b: torch.Tensor, alpha: float) -> torch.Tensor:
    return eager.add_scaled(a, b, alpha)


@_add_scaled.register_fake
def _add_scaled_fake(a: torch.Tensor, b: torch.Tensor, alpha: float) -> torch.Tensor:
    eager.check_same_shape("act_ops::add_scaled", a, b)
    return torch.empty_like(a)


_lib.define("add_scaled.out(Tensor a, Tensor b, float alpha, *, Tensor(a!) out) -> Tensor(a!)")


def _add_scaled_out(a: torch.Tensor, b: torch.Tensor, alpha: float, *, out: torch.Tensor) -> torch.Tensor:
    result = eager.add_scaled(a, b, alpha)
    if out.shape != result.shape:
        raise ValueError(
            f"act_ops::add_scaled.out: out has shape {tuple(out.shape)}, expected {tuple(result.shape)}",
        )
    out.copy_(result)
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
_lib.define("add_scaled.defaults(Tensor a, Tensor b, float alpha=0.5) -> Tensor")
_lib.impl("add_scaled.defaults", add_scaled, "CompositeImplicitAutograd")


@torch.library.custom_op("act_ops::soft_min", mutates_args=(), schema="(Tensor a, Tensor b) -> Tensor")
def _soft_min(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return eager.soft_min(a, b)


@_soft_min.register_fake
def _soft_min_fake(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    eager.check_same_shape("act_ops::soft_min", a, b)
    return torch.empty_like(a)


_lib.define("soft_min.out(Tensor a, Tensor b, *, Tensor(a!) out) -> Tensor(a!)")


def _soft_min_out(a: torch.Tensor, b: torch.Tensor, *, out: torch.Tensor) -> torch.Tensor:
    result = eager.soft_min(a, b)
    if out.shape != result.shape:
        raise ValueError(
            f"act_ops::soft_min.out: out has shape {tuple(out.shape)}, expected {tuple(result.shape)}",
        )
    out.copy_(result)
    return out


_lib.impl("soft_min.out", _soft_min_out, "CompositeExplicitAutograd")


def soft_min(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """The smaller of two inputs, softened by a sigmoid gate.

    Calls `torch.ops.act_ops.soft_min.default` with every param, so that
    an exported graph always carries them (ExecuTorch needs each one in the node).
    """
    return torch.ops.act_ops.soft_min.default(a, b)


OPS: tuple[OpInfo, ...] = (
    OpInfo(
        name="hard_swish_ish",
        qnn_type="HardSwishIsh",
        kind="elementwise",
        inputs=("x",),
        params=(),
        schema="hard_swish_ish(Tensor x) -> Tensor",
        function=hard_swish_ish,
    ),
    OpInfo(
        name="scaled_tanh",
        qnn_type="ScaledTanh",
        kind="elementwise",
        inputs=("x",),
        params=(("gain", "float", 2.0), ("shift", "int", 1)),
        schema="scaled_tanh(Tensor x, float gain, int shift) -> Tensor",
        function=scaled_tanh,
    ),
    OpInfo(
        name="add_scaled",
        qnn_type="AddScaled",
        kind="elementwise",
        inputs=("a", "b"),
        params=(("alpha", "float", 0.5),),
        schema="add_scaled(Tensor a, Tensor b, float alpha) -> Tensor",
        function=add_scaled,
    ),
    OpInfo(
        name="soft_min",
        qnn_type="SoftMin",
        kind="elementwise",
        inputs=("a", "b"),
        params=(),
        schema="soft_min(Tensor a, Tensor b) -> Tensor",
        function=soft_min,
    ),
)
