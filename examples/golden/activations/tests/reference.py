# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Independent float64 reference of the elementwise ops (numpy, not torch).

Rendered from the same spec expression as the eager op, but through a separate mapping
of each function onto numpy, and evaluated in float64.
"""

import numpy as np

REFERENCES = {}


def hard_swish_ish(x):
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"):
        return np.broadcast_to(((x * np.minimum(np.maximum((x + 3.0), 0.0), 6.0)) / 6.0), x.shape)


REFERENCES["hard_swish_ish"] = hard_swish_ish


def scaled_tanh(x, gain=2.0, shift=1):
    x = np.asarray(x, dtype=np.float64)
    gain = float(gain)
    shift = float(shift)
    with np.errstate(all="ignore"):
        return np.broadcast_to(((gain * np.tanh(x)) + shift), x.shape)


REFERENCES["scaled_tanh"] = scaled_tanh


def add_scaled(a, b, alpha=0.5):
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    alpha = float(alpha)
    with np.errstate(all="ignore"):
        return np.broadcast_to((a + (alpha * b)), a.shape)


REFERENCES["add_scaled"] = add_scaled


def soft_min(a, b):
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    with np.errstate(all="ignore"):
        return np.broadcast_to((np.minimum(a, b) + (0.1 * (1.0 / (1.0 + np.exp(-((a - b))))))), a.shape)


REFERENCES["soft_min"] = soft_min

