# This file is yours: the template created it once and never touches it again.
"""Eager math of norm_ops::my_norm (examples/custom.yaml): zero mean, unit variance."""

import torch


def my_norm(x: torch.Tensor) -> torch.Tensor:
    mean = x.mean()
    var = ((x - mean) ** 2).mean()
    return (x - mean) / torch.sqrt(var + 1e-5)
