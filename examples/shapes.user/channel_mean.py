# This file is yours: the template created it once and never touches it again.
"""Eager math of shape_ops::channel_mean (examples/shapes.yaml)."""

import torch


def channel_mean(x: torch.Tensor) -> torch.Tensor:
    return x.mean(dim=1, keepdim=True)
