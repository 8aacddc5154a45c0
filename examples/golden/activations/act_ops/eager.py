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


def hard_swish_ish(x: torch.Tensor) -> torch.Tensor:
    """x times relu6(x + 3) / 6."""
    # expr: x * clamp(x + 3.0, 0.0, 6.0) / 6.0
    # As the model spells it: fully parenthesized, one line (`fmt: skip`: the formatter
    # would only drop redundant parentheses or wrap a long expression).
    result = ((x * torch.clamp((x + 3.0), torch.as_tensor(0.0, dtype=torch.float32), torch.as_tensor(6.0, dtype=torch.float32))) / 6.0)  # noqa: UP034  # fmt: skip
    # A fresh tensor even for an identity expression: a custom op must not alias its input.
    return torch.empty_like(x).copy_(result)


def scaled_tanh(x: torch.Tensor, gain: float = 2.0, shift: int = 1) -> torch.Tensor:
    """Scaled and shifted tanh."""
    gain = _scalar(gain)
    shift = _scalar(shift)
    # expr: gain * tanh(x) + shift
    # As the model spells it: fully parenthesized, one line (`fmt: skip`: the formatter
    # would only drop redundant parentheses or wrap a long expression).
    result = ((gain * torch.tanh(x)) + shift)  # noqa: UP034  # fmt: skip
    # A fresh tensor even for an identity expression: a custom op must not alias its input.
    return torch.empty_like(x).copy_(result)


def add_scaled(a: torch.Tensor, b: torch.Tensor, alpha: float = 0.5) -> torch.Tensor:
    """a + alpha * b."""
    check_same_shape("act_ops::add_scaled", a, b)
    alpha = _scalar(alpha)
    # expr: a + alpha * b
    # As the model spells it: fully parenthesized, one line (`fmt: skip`: the formatter
    # would only drop redundant parentheses or wrap a long expression).
    result = (a + (alpha * b))  # noqa: UP034  # fmt: skip
    # A fresh tensor even for an identity expression: a custom op must not alias its input.
    return torch.empty_like(a).copy_(result)


def soft_min(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """The smaller of two inputs, softened by a sigmoid gate."""
    check_same_shape("act_ops::soft_min", a, b)
    # expr: min(a, b) + 0.1 * sigmoid(a - b)
    # As the model spells it: fully parenthesized, one line (`fmt: skip`: the formatter
    # would only drop redundant parentheses or wrap a long expression).
    result = (torch.minimum(a, b) + (0.1 * torch.sigmoid((a - b))))  # noqa: UP034  # fmt: skip
    # A fresh tensor even for an identity expression: a custom op must not alias its input.
    return torch.empty_like(a).copy_(result)
