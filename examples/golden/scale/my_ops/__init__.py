# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""my_ops: custom PyTorch ops delegated to Qualcomm LPAI (ScaleOpPackage).

Importing the package registers every op with torch.library, so that
`torch.ops.my_ops.<op>` exists (functional, `.defaults` and `.out` overloads).
Call an op in your model as `my_ops.<op>(inputs..., params...)`:
    my_ops.mul3(input: torch.Tensor, factor: float = 3.0)
"""

try:
    import torch as _torch
except ModuleNotFoundError as _missing:
    if _missing.name != "torch":
        raise
    # Without torch no op can exist, but the package still imports, so that its command
    # line runs: `python -m my_ops doctor` says what is missing (spec and update work too).
    _torch = None

if _torch is not None:
    from . import ops as _ops
    from .ops import OPS, OpInfo

    # One public function per op (assigned, not imported by name, so that the import block
    # stays sorted whatever the ops are called).
    mul3 = _ops.mul3

__all__ = ["OPS", "OpInfo", "mul3"]


def __getattr__(name: str):
    """Only without torch: each op (and OPS) says that torch is missing."""
    if name in __all__:
        raise ModuleNotFoundError(
            f"{__name__}.{name}: the ops of {__name__} need torch, which is not installed in this Python "
            f"(python -m {__name__} doctor lists what is missing)",
            name="torch",
        )
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
