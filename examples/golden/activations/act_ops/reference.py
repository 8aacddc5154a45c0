# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Independent float64 reference of the elementwise ops (numpy, not torch).

Rendered from the same spec expression as the eager op, but through a separate mapping
of each function onto numpy, and evaluated in float64. The tests (tests/test_ops.py) and
`python -m act_ops report` compare with it.
"""

import numpy as np

REFERENCES = {}


def hard_swish_ish(x):
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"):
        # As the model spells it, one line (`fmt: skip`: see eager.py).
        value = ((x * np.minimum(np.maximum((x + 3.0), 0.0), 6.0)) / 6.0)  # noqa: UP034, B002  # fmt: skip
    # "_" first: a spec name never starts so, so this local shadows no input. A list, one
    # shape a line: its trailing comma keeps ruff format from joining it at any length.
    _shapes = [
        x.shape,
    ]
    return np.broadcast_to(value, np.broadcast_shapes(*_shapes))


REFERENCES["hard_swish_ish"] = hard_swish_ish


def scaled_tanh(x, gain=2.0, shift=1):
    x = np.asarray(x, dtype=np.float64)
    gain = float(gain)
    shift = float(shift)
    with np.errstate(all="ignore"):
        # As the model spells it, one line (`fmt: skip`: see eager.py).
        value = ((gain * np.tanh(x)) + shift)  # noqa: UP034, B002  # fmt: skip
    # "_" first: a spec name never starts so, so this local shadows no input. A list, one
    # shape a line: its trailing comma keeps ruff format from joining it at any length.
    _shapes = [
        x.shape,
    ]
    return np.broadcast_to(value, np.broadcast_shapes(*_shapes))


REFERENCES["scaled_tanh"] = scaled_tanh


def add_scaled(a, b, alpha=0.5):
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    alpha = float(alpha)
    with np.errstate(all="ignore"):
        # As the model spells it, one line (`fmt: skip`: see eager.py).
        value = (a + (alpha * b))  # noqa: UP034, B002  # fmt: skip
    # "_" first: a spec name never starts so, so this local shadows no input. A list, one
    # shape a line: its trailing comma keeps ruff format from joining it at any length.
    _shapes = [
        a.shape,
        b.shape,
    ]
    return np.broadcast_to(value, np.broadcast_shapes(*_shapes))


REFERENCES["add_scaled"] = add_scaled


def soft_min(a, b):
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    with np.errstate(all="ignore"):
        # As the model spells it, one line (`fmt: skip`: see eager.py).
        value = (np.minimum(a, b) + (0.1 * (1.0 / (1.0 + np.exp(-((a - b)))))))  # noqa: UP034, B002  # fmt: skip
    # "_" first: a spec name never starts so, so this local shadows no input. A list, one
    # shape a line: its trailing comma keeps ruff format from joining it at any length.
    _shapes = [
        a.shape,
        b.shape,
    ]
    return np.broadcast_to(value, np.broadcast_shapes(*_shapes))


REFERENCES["soft_min"] = soft_min


def fake_quant(x, steps=4, limit=1.5):
    x = np.asarray(x, dtype=np.float64)
    steps = float(steps)
    limit = float(limit)
    with np.errstate(all="ignore"):
        # As the model spells it, one line (`fmt: skip`: see eager.py).
        value = np.minimum(np.maximum((np.rint((x * steps)) / steps), (-limit)), limit)  # noqa: UP034, B002  # fmt: skip
    # "_" first: a spec name never starts so, so this local shadows no input. A list, one
    # shape a line: its trailing comma keeps ruff format from joining it at any length.
    _shapes = [
        x.shape,
    ]
    return np.broadcast_to(value, np.broadcast_shapes(*_shapes))


REFERENCES["fake_quant"] = fake_quant


def pick_floor(a, b):
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    with np.errstate(all="ignore"):
        # As the model spells it, one line (`fmt: skip`: see eager.py).
        value = (np.where((a >= b), np.floor(a), np.ceil(b)) + np.sign(np.nan_to_num((a - b), nan=0.0)))  # noqa: UP034, B002  # fmt: skip
    # "_" first: a spec name never starts so, so this local shadows no input. A list, one
    # shape a line: its trailing comma keeps ruff format from joining it at any length.
    _shapes = [
        a.shape,
        b.shape,
    ]
    return np.broadcast_to(value, np.broadcast_shapes(*_shapes))


REFERENCES["pick_floor"] = pick_floor
