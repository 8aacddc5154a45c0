# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Independent float64 reference of the elementwise ops (numpy, not torch).

Rendered from the same spec expression as the eager op, but through a separate mapping
of each function onto numpy, and evaluated in float64. The tests (tests/test_ops.py) and
`python -m shape_ops report` compare with it.
"""

import numpy as np

REFERENCES = {}


def add_bias(x, bias):
    x = np.asarray(x, dtype=np.float64)
    bias = np.asarray(bias, dtype=np.float64)
    with np.errstate(all="ignore"):
        # As the model spells it, one line (`fmt: skip`: see eager.py).
        value = (x + bias)  # noqa: UP034, B002  # fmt: skip
    # "_" first: a spec name never starts so, so this local shadows no input. A list, one
    # shape a line: its trailing comma keeps ruff format from joining it at any length.
    _shapes = [
        x.shape,
        bias.shape,
    ]
    return np.broadcast_to(value, np.broadcast_shapes(*_shapes))


REFERENCES["add_bias"] = add_bias


def fma3(a, b, c):
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    c = np.asarray(c, dtype=np.float64)
    with np.errstate(all="ignore"):
        # As the model spells it, one line (`fmt: skip`: see eager.py).
        value = ((a * b) + c)  # noqa: UP034, B002  # fmt: skip
    # "_" first: a spec name never starts so, so this local shadows no input. A list, one
    # shape a line: its trailing comma keeps ruff format from joining it at any length.
    _shapes = [
        a.shape,
        b.shape,
        c.shape,
    ]
    return np.broadcast_to(value, np.broadcast_shapes(*_shapes))


REFERENCES["fma3"] = fma3
