# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""my_ops: custom PyTorch ops delegated to Qualcomm LPAI (ScaleOpPackage).

Importing the package registers every op with torch.library, so that
`torch.ops.my_ops.<op>` exists (functional, `.defaults` and `.out` overloads).
Call an op in your model as `my_ops.<op>(inputs..., params...)`:
    my_ops.mul3(input: torch.Tensor, factor: float = 3.0)
"""

from . import ops as _ops
from .ops import OPS, OpInfo

# One public function per op (assigned, not imported by name, so that the import block
# stays sorted whatever the ops are called).
mul3 = _ops.mul3

__all__ = ["OPS", "OpInfo", "mul3"]
