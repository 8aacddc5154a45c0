# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""shape_ops: custom PyTorch ops delegated to Qualcomm LPAI (ShapesOpPackage).

Importing the package registers every op with torch.library, so that
`torch.ops.shape_ops.<op>` exists (functional, `.defaults` and `.out` overloads).
Call an op in your model as `shape_ops.<op>(inputs..., params...)`:
    shape_ops.add_bias(x: torch.Tensor, bias: torch.Tensor)
    shape_ops.fma3(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor)
    shape_ops.channel_mean(x: torch.Tensor)
    shape_ops.center(x: torch.Tensor, scale: float = 1.0, subtract: bool = True)
    shape_ops.rms_norm(x: torch.Tensor, eps: float = 1e-06)
    shape_ops.pcen(x: torch.Tensor, state: torch.Tensor, smooth: float = 0.25, eps: float = 1e-06)
"""

try:
    import torch as _torch
except ModuleNotFoundError as _missing:
    if _missing.name != "torch":
        raise
    # Without torch no op can exist, but the package still imports, so that its command
    # line runs: `python -m shape_ops doctor` says what is missing (spec and update work too).
    _torch = None

if _torch is not None:
    from . import ops as _ops
    from .ops import OPS, OpInfo

    # One public function per op (assigned, not imported by name, so that the import block
    # stays sorted whatever the ops are called).
    add_bias = _ops.add_bias
    fma3 = _ops.fma3
    channel_mean = _ops.channel_mean
    center = _ops.center
    rms_norm = _ops.rms_norm
    pcen = _ops.pcen

__all__ = ["OPS", "OpInfo", "add_bias", "fma3", "channel_mean", "center", "rms_norm", "pcen"]


def __getattr__(name: str):
    """Only without torch: each op (and OPS) says that torch is missing."""
    if name in __all__:
        raise ModuleNotFoundError(
            f"{__name__}.{name}: the ops of {__name__} need torch, which is not installed in this Python "
            f"(python -m {__name__} doctor lists what is missing)",
            name="torch",
        )
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
