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
