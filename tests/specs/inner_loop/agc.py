# This file is yours: the template created it once and never touches it again.
"""Eager math of agc_ops::agc (tests/specs/inner_loop/agc.yaml): NaN where (1 - alpha) + alpha x^2 + eps < 0."""

import torch


def agc(x: torch.Tensor, alpha: float = 0.9, eps: float = 0.01, order: int = 2) -> torch.Tensor:
    g = (1 - alpha) + alpha * x * x
    return x / torch.sqrt(g + eps) * order
