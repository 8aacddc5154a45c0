# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Independent float64 reference of the elementwise ops (numpy, not torch).

Rendered from the same spec expression as the eager op, but through a separate mapping
of each function onto numpy, and evaluated in float64. The tests (tests/test_ops.py) and
`python -m act_ops report` compare with it.
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


def hard_swish_ish(x):
    x = np.asarray(x, dtype=_DTYPE[-1])
    with np.errstate(all="ignore"):
        # As the model spells it, one line (`fmt: skip`: see eager.py).
        value = ((x * np.minimum(np.maximum((x + 3.0), 0.0), 6.0)) / 6.0)  # noqa: UP034, B002, SIM300  # fmt: skip
    # "_" first: a spec name never starts so, so this local shadows no input. A list, one
    # shape a line: its trailing comma keeps ruff format from joining it at any length.
    _shapes = [
        x.shape,
    ]
    return np.broadcast_to(value, np.broadcast_shapes(*_shapes))


REFERENCES["hard_swish_ish"] = hard_swish_ish


def scaled_tanh(x, gain=2.0, shift=1):
    x = np.asarray(x, dtype=_DTYPE[-1])
    # A numpy float, not a Python float: `1 / p` at p = 0 is inf (IEEE, as in torch and
    # C), where a Python float raises ZeroDivisionError.
    gain = _DTYPE[-1](gain)
    # A numpy float, not a Python float: `1 / p` at p = 0 is inf (IEEE, as in torch and
    # C), where a Python float raises ZeroDivisionError.
    shift = _DTYPE[-1](shift)
    with np.errstate(all="ignore"):
        # As the model spells it, one line (`fmt: skip`: see eager.py).
        value = ((gain * np.tanh(x)) + shift)  # noqa: UP034, B002, SIM300  # fmt: skip
    # "_" first: a spec name never starts so, so this local shadows no input. A list, one
    # shape a line: its trailing comma keeps ruff format from joining it at any length.
    _shapes = [
        x.shape,
    ]
    return np.broadcast_to(value, np.broadcast_shapes(*_shapes))


REFERENCES["scaled_tanh"] = scaled_tanh


def add_scaled(a, b, alpha=0.5):
    a = np.asarray(a, dtype=_DTYPE[-1])
    b = np.asarray(b, dtype=_DTYPE[-1])
    # A numpy float, not a Python float: `1 / p` at p = 0 is inf (IEEE, as in torch and
    # C), where a Python float raises ZeroDivisionError.
    alpha = _DTYPE[-1](alpha)
    with np.errstate(all="ignore"):
        # As the model spells it, one line (`fmt: skip`: see eager.py).
        value = (a + (alpha * b))  # noqa: UP034, B002, SIM300  # fmt: skip
    # "_" first: a spec name never starts so, so this local shadows no input. A list, one
    # shape a line: its trailing comma keeps ruff format from joining it at any length.
    _shapes = [
        a.shape,
        b.shape,
    ]
    return np.broadcast_to(value, np.broadcast_shapes(*_shapes))


REFERENCES["add_scaled"] = add_scaled


def soft_min(a, b):
    a = np.asarray(a, dtype=_DTYPE[-1])
    b = np.asarray(b, dtype=_DTYPE[-1])
    with np.errstate(all="ignore"):
        # As the model spells it, one line (`fmt: skip`: see eager.py).
        value = (np.minimum(a, b) + (0.1 * (1.0 / (1.0 + np.exp(-((a - b)))))))  # noqa: UP034, B002, SIM300  # fmt: skip
    # "_" first: a spec name never starts so, so this local shadows no input. A list, one
    # shape a line: its trailing comma keeps ruff format from joining it at any length.
    _shapes = [
        a.shape,
        b.shape,
    ]
    return np.broadcast_to(value, np.broadcast_shapes(*_shapes))


REFERENCES["soft_min"] = soft_min


def fake_quant(x, steps=4, limit=1.5):
    x = np.asarray(x, dtype=_DTYPE[-1])
    # A numpy float, not a Python float: `1 / p` at p = 0 is inf (IEEE, as in torch and
    # C), where a Python float raises ZeroDivisionError.
    steps = _DTYPE[-1](steps)
    # A numpy float, not a Python float: `1 / p` at p = 0 is inf (IEEE, as in torch and
    # C), where a Python float raises ZeroDivisionError.
    limit = _DTYPE[-1](limit)
    with np.errstate(all="ignore"):
        # As the model spells it, one line (`fmt: skip`: see eager.py).
        value = np.minimum(np.maximum((np.rint((x * steps)) / steps), (-limit)), limit)  # noqa: UP034, B002, SIM300  # fmt: skip
    # "_" first: a spec name never starts so, so this local shadows no input. A list, one
    # shape a line: its trailing comma keeps ruff format from joining it at any length.
    _shapes = [
        x.shape,
    ]
    return np.broadcast_to(value, np.broadcast_shapes(*_shapes))


REFERENCES["fake_quant"] = fake_quant


def pick_floor(a, b):
    a = np.asarray(a, dtype=_DTYPE[-1])
    b = np.asarray(b, dtype=_DTYPE[-1])
    with np.errstate(all="ignore"):
        # As the model spells it, one line (`fmt: skip`: see eager.py).
        value = (np.where((a >= b), np.floor(a), np.ceil(b)) + np.sign(np.nan_to_num((a - b), nan=0.0)))  # noqa: UP034, B002, SIM300  # fmt: skip
    # "_" first: a spec name never starts so, so this local shadows no input. A list, one
    # shape a line: its trailing comma keeps ruff format from joining it at any length.
    _shapes = [
        a.shape,
        b.shape,
    ]
    return np.broadcast_to(value, np.broadcast_shapes(*_shapes))


REFERENCES["pick_floor"] = pick_floor


def power_compress(x, eps=1e-06, p=0.3):
    x = np.asarray(x, dtype=_DTYPE[-1])
    # A numpy float, not a Python float: `1 / p` at p = 0 is inf (IEEE, as in torch and
    # C), where a Python float raises ZeroDivisionError.
    eps = _DTYPE[-1](eps)
    # A numpy float, not a Python float: `1 / p` at p = 0 is inf (IEEE, as in torch and
    # C), where a Python float raises ZeroDivisionError.
    p = _DTYPE[-1](p)
    with np.errstate(all="ignore"):
        # As the model spells it, one line (`fmt: skip`: see eager.py).
        value = np.power((np.abs(x) + eps), p)  # noqa: UP034, B002, SIM300  # fmt: skip
    # "_" first: a spec name never starts so, so this local shadows no input. A list, one
    # shape a line: its trailing comma keeps ruff format from joining it at any length.
    _shapes = [
        x.shape,
    ]
    return np.broadcast_to(value, np.broadcast_shapes(*_shapes))


REFERENCES["power_compress"] = power_compress
