# This file is yours: the template created it once and never touches it again.
"""Eager math of shape_ops::rms_norm (examples/shapes.yaml)."""

import torch


def rms_norm(x: torch.Tensor, eps: float = 1e-06) -> torch.Tensor:
    return x / torch.sqrt((x * x).mean(dim=-1, keepdim=True) + eps)
