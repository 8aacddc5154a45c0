# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Independent float64 reference of the elementwise ops (numpy, not torch).

Rendered from the same spec expression as the eager op, but through a separate mapping
of each function onto numpy, and evaluated in float64. The tests (tests/test_ops.py) and
`python -m shape_ops report` compare with it.
"""

import contextlib

import numpy as np

REFERENCES = {}
# float64 unless in_float32(): inputs, params and every step then in float32, as the
# eager op and the kernel compute (numpy >= 2 keeps Python float literals weak).
_DTYPE = [np.float64]


@contextlib.contextmanager
def in_float32():
    _DTYPE.append(np.float32)
    try:
        yield
    finally:
        _DTYPE.pop()


def add_bias(x, bias):
    x = np.asarray(x, dtype=_DTYPE[-1])
    bias = np.asarray(bias, dtype=_DTYPE[-1])
    with np.errstate(all="ignore"):
        # As the model spells it, one line (`fmt: skip`: see eager.py).
        value = (x + bias)  # noqa: UP034, B002, SIM300  # fmt: skip
    # "_" first: a spec name never starts so, so this local shadows no input. A list, one
    # shape a line: its trailing comma keeps ruff format from joining it at any length.
    _shapes = [
        x.shape,
        bias.shape,
    ]
    return np.broadcast_to(value, np.broadcast_shapes(*_shapes))


REFERENCES["add_bias"] = add_bias


def fma3(a, b, c):
    a = np.asarray(a, dtype=_DTYPE[-1])
    b = np.asarray(b, dtype=_DTYPE[-1])
    c = np.asarray(c, dtype=_DTYPE[-1])
    with np.errstate(all="ignore"):
        # As the model spells it, one line (`fmt: skip`: see eager.py).
        value = ((a * b) + c)  # noqa: UP034, B002, SIM300  # fmt: skip
    # "_" first: a spec name never starts so, so this local shadows no input. A list, one
    # shape a line: its trailing comma keeps ruff format from joining it at any length.
    _shapes = [
        a.shape,
        b.shape,
        c.shape,
    ]
    return np.broadcast_to(value, np.broadcast_shapes(*_shapes))


REFERENCES["fma3"] = fma3
