# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Independent float64 reference of the elementwise ops (numpy, not torch).

Rendered from the same spec expression as the eager op, but through a separate mapping
of each function onto numpy, and evaluated in float64. The tests (tests/test_ops.py) and
`python -m my_ops report` compare with it.
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


def mul3(input, factor=3.0):
    input = np.asarray(input, dtype=_DTYPE[-1])
    # A numpy float, not a Python float: `1 / p` at p = 0 is inf (IEEE, as in torch and
    # C), where a Python float raises ZeroDivisionError.
    factor = _DTYPE[-1](factor)
    with np.errstate(all="ignore"):
        # As the model spells it, one line (`fmt: skip`: see eager.py).
        value = (input * factor)  # noqa: UP034, B002, SIM300  # fmt: skip
    # "_" first: a spec name never starts so, so this local shadows no input. A list, one
    # shape a line: its trailing comma keeps ruff format from joining it at any length.
    _shapes = [
        input.shape,
    ]
    return np.broadcast_to(value, np.broadcast_shapes(*_shapes))


REFERENCES["mul3"] = mul3
