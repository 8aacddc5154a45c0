# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Shared set-up of the project's tests.

ExecuTorch's Qualcomm backend tries to download the QNN SDK when a backend starts and
QNN_SDK_ROOT is unset; an empty QNN_SDK_ROOT tells it the caller handles the SDK.  The
tests that need the real SDK check for a non-empty value and skip otherwise.
"""

import os

os.environ.setdefault("QNN_SDK_ROOT", "")

import pytest  # noqa: E402
import torch  # noqa: E402

import shape_ops  # noqa: E402,F401  (registers the ops)
from shape_ops.ops import OPS  # noqa: E402


def make_inputs(op, seed: int, shape=(2, 3, 4, 5), low: float = 0.1, high: float = 2.0):
    """Deterministic float32 inputs of one op (positive by default: log and sqrt stay
    finite), of the shapes of one valid call: `shape`, except that the later inputs of an
    elementwise op broadcast to it (OpInfo.input_shapes)."""
    gen = torch.Generator().manual_seed(seed)
    return tuple(torch.rand(s, generator=gen, dtype=torch.float32) * (high - low) + low for s in op.input_shapes(shape))


@pytest.fixture(params=OPS, ids=[op.name for op in OPS])
def op(request):
    return request.param
