# This file is yours: the template created it once and never touches it again.
"""Eager math of shape_ops::center (examples/shapes.yaml): two outputs, as a tuple."""

import torch


def center(x: torch.Tensor, scale: float = 1.0, subtract: bool = True) -> tuple[torch.Tensor, torch.Tensor]:
    mean = x.mean(dim=-1, keepdim=True)
    return mean, ((x - mean) if subtract else x) * scale
