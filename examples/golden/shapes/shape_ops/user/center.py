# This file is yours: the template created it once and never touches it again.
"""Eager math of shape_ops::center: The mean over the last dim, and x minus it (unless not subtract), scaled.

This is the CPU fallback and the golden reference of the kernel in
op_package/ShapesOpPackage/user/Center_math.c: both must compute the
same values.  Write it in differentiable torch (torch operations on the tensors it is
given; no numpy, .detach(), .item() or in-place changes of its inputs): the op's
gradient is autograd through it (docs/using.md, "Train with the ops").  Write it so that it
also runs on float64 tensors (computing in their dtype): `report` and
tests/test_op_package_kernels.py check the kernel against it in float64 too.  Return a tuple of 2 tensors, in this order:

- `mean`: the shape of x reduced over dims [-1], kept as 1;
- `centered`: the shape of x;

The tests feed each input values from its domain (x in [-2, 2]) and call
the op at the param defaults; they vary a param only inside the `range` the spec
declares for it (`params: [{name, type, default, range: [low, high]}]`; a bool flips).
A param without a range stays at its default: declare where the math works (e.g.
`range: [0, 1]` for a factor it subtracts from 1), or guard the math.
"""

import torch


def center(x: torch.Tensor, scale: float = 1.0, subtract: bool = True) -> tuple[torch.Tensor, torch.Tensor]:
    # Replace this line with the math; the project's tests fail until you do.
    raise NotImplementedError(
        "shape_ops::center: write the eager math in shape_ops/user/center.py",
    )
