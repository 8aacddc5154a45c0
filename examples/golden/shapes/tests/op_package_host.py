# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Drives op_package/ShapesOpPackage through its host emulator, for the tests.

The emulator bridge itself is product code (shape_ops/emulator.py: `python -m
shape_ops report` uses it too); this module re-exports it and adds what only the
tests need: the comparison with the tie rule and the random scales and params.
"""

from __future__ import annotations

import math

import torch

from shape_ops.emulator import (  # noqa: F401 - the tests' API
    LPAI_DATATYPE_INT_32,
    MAX_DIMS,
    OP_DIR,
    PACKAGE_NAME,
    PATHS,
    QNN,
    SCALE_FLOAT,
    SCALE_INT,
    SCALE_UNDEFINED,
    TEMP,
    Desc,
    Rejected,
    Tensor,
    compilers,
    dequantize,
    last_path,
    library,
    make,
    output_untouched,
    padding_untouched,
    quantize,
    run,
    run_n,
    scratch,
)

ROOT = OP_DIR.parents[1]


def compare(
    kernel: torch.Tensor,
    expected: torch.Tensor,
    result: torch.Tensor,
    out_scale: float,
    out_zp: int,
    tie_tolerance: float = 1e-4,
) -> str | None:
    """None when every code is identical, or one off only where the float result lies
    within `tie_tolerance` (in codes) of a rounding tie; else a description."""
    diff = (kernel.to(torch.int32) - expected.to(torch.int32)).abs()
    if int(diff.max()) == 0:
        return None
    scaled = result.to(torch.float64) / out_scale + out_zp
    near_tie = ((scaled - scaled.floor()) - 0.5).abs() < tie_tolerance
    bad = (diff > 1) | ((diff == 1) & ~near_tie)
    if not bool(bad.any()):
        return None
    idx = bad.flatten().nonzero()[:5].flatten().tolist()
    return (
        f"{int(bad.sum())} codes differ beyond the tie rule; first at flat index {idx}: "
        f"kernel {kernel.flatten()[idx].tolist()} torch {expected.flatten()[idx].tolist()} "
        f"float result {result.flatten()[idx].tolist()}"
    )


def random_scale(gen: torch.Generator) -> float:
    """A float32-exact scale between 2^-10 and 2^1, log-uniform."""
    exponent = float(torch.empty(1).uniform_(-10.0, 1.0, generator=gen))
    return float(torch.tensor(math.pow(2.0, exponent), dtype=torch.float32))


def random_params(params, gen: torch.Generator) -> list[object]:
    """Values other than the defaults for `(name, type, default)` params, drawn from
    `gen`: a kernel that ignores a param, or reads it as its default, fails on them.
    Floats keep the default's sign and move by a factor in [1.5, 3] either way (or to
    [0.25, 1] from 0), float32-exact; ints stay >= 0; bools flip."""
    values: list[object] = []
    for _name, kind, default in params:
        if kind == "bool":
            values.append(not default)
        elif kind == "int":
            choices = [v for v in range(max(int(default), 0) + 4) if v != default]
            values.append(choices[int(torch.randint(len(choices), (1,), generator=gen))])
        else:
            u = float(torch.empty(1).uniform_(1.5, 3.0, generator=gen))
            if default == 0:
                value = u / 4.0
            else:
                value = default * u if bool(torch.randint(2, (1,), generator=gen)) else default / u
            values.append(float(torch.tensor(value, dtype=torch.float32)))
    return values
