# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The eager CPU math of every op: the fallback, the golden values, the calibration path.

Elementwise ops are generated from the spec's `expr` (the same expression the C kernel
is generated from).  Custom ops call your code in user/.  Because the eager op computes
the same values as the kernel, an output comparison alone never proves that the op
package ran: that is what delegation.py is for.
"""

from __future__ import annotations

import torch


def _scalar(value: float) -> torch.Tensor:
    # Params become 0-d float32 tensors: torch functions such as minimum() need tensors,
    # and a 0-d tensor never changes the dtype of the result.
    return torch.tensor(float(value), dtype=torch.float32)


def check_same_shape(op: str, *tensors: torch.Tensor) -> None:
    # The kernel maps element i of every input to element i of the output: no broadcasting.
    # Compared pairwise, not through a set: under torch.export the sizes are SymInts.
    first = tensors[0]
    for other in tensors[1:]:
        if other.shape != first.shape:
            raise ValueError(
                f"{op}: inputs must have the same shape, got {tuple(first.shape)} and {tuple(other.shape)}"
            )


def mul3(input: torch.Tensor, factor: float = 3.0) -> torch.Tensor:
    """Multiplies the input by a factor."""
    factor = _scalar(factor)
    # expr: input * factor
    # As the model spells it: fully parenthesized, one line (`fmt: skip`: the formatter
    # would only drop redundant parentheses or wrap a long expression).
    result = (input * factor)  # noqa: UP034  # fmt: skip
    # A fresh tensor even for an identity expression: a custom op must not alias its input.
    return torch.empty_like(input).copy_(result)
