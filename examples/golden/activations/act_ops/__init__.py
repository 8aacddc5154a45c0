# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""act_ops: custom PyTorch ops delegated to Qualcomm LPAI (ActivationOpPackage).

Importing the package registers every op with torch.library, so that
`torch.ops.act_ops.<op>` exists (functional, `.defaults` and `.out` overloads).
Call an op in your model as `act_ops.<op>(inputs..., params...)`:
    act_ops.hard_swish_ish(x: torch.Tensor)
    act_ops.scaled_tanh(x: torch.Tensor, gain: float = 2.0, shift: int = 1)
    act_ops.add_scaled(a: torch.Tensor, b: torch.Tensor, alpha: float = 0.5)
    act_ops.soft_min(a: torch.Tensor, b: torch.Tensor)
    act_ops.fake_quant(x: torch.Tensor, steps: int = 4, limit: float = 1.5)
    act_ops.pick_floor(a: torch.Tensor, b: torch.Tensor)
    act_ops.power_compress(x: torch.Tensor, eps: float = 1e-06, p: float = 0.3)
"""

try:
    import torch as _torch
except ModuleNotFoundError as _missing:
    if _missing.name != "torch":
        raise
    # Without torch no op can exist, but the package still imports, so that its command
    # line runs: `python -m act_ops doctor` says what is missing (spec and update work too).
    _torch = None

if _torch is not None:
    from . import ops as _ops
    from .ops import OPS, OpInfo

    # One public function per op (assigned, not imported by name, so that the import block
    # stays sorted whatever the ops are called).
    hard_swish_ish = _ops.hard_swish_ish
    scaled_tanh = _ops.scaled_tanh
    add_scaled = _ops.add_scaled
    soft_min = _ops.soft_min
    fake_quant = _ops.fake_quant
    pick_floor = _ops.pick_floor
    power_compress = _ops.power_compress

__all__ = [
    "OPS",
    "OpInfo",
    "hard_swish_ish",
    "scaled_tanh",
    "add_scaled",
    "soft_min",
    "fake_quant",
    "pick_floor",
    "power_compress",
]


def __getattr__(name: str):
    """Only without torch: each op (and OPS) says that torch is missing."""
    if name in __all__:
        raise ModuleNotFoundError(
            f"{__name__}.{name}: the ops of {__name__} need torch, which is not installed in this Python "
            f"(python -m {__name__} doctor lists what is missing)",
            name="torch",
        )
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
