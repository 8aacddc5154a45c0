# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""norm_ops: custom PyTorch ops delegated to Qualcomm LPAI (NormOpPackage).

Importing the package registers every op with torch.library, so that
`torch.ops.norm_ops.<op>` exists (functional, `.defaults` and `.out` overloads).
Call an op in your model as `norm_ops.<op>(inputs..., params...)`:
    norm_ops.my_norm(x: torch.Tensor)
    norm_ops.double_it(x: torch.Tensor)
"""

from . import ops as _ops
from .ops import OPS, OpInfo

# One public function per op (assigned, not imported by name, so that the import block
# stays sorted whatever the ops are called).
my_norm = _ops.my_norm
double_it = _ops.double_it

__all__ = ["OPS", "OpInfo", "my_norm", "double_it"]
